// tex/frontend.cpp: expand_file — finds the pictures in the expanded token stream and splits
// them into statements (pgfmanual 12.2: a path command runs to its ';').
#include <algorithm>
#include <unordered_set>

#include "tex/expander.hpp"
#include "tex/reader.hpp"
#include "tex/tex.hpp"

namespace tikzlint::tex {

SourceRange Statement::range_of(std::uint32_t begin, std::uint32_t end) const {
  SourceRange r = prov.range;
  if (origin.empty() || begin >= origin.size()) return r;
  end = std::min<std::uint32_t>(std::max(end, begin + 1), static_cast<std::uint32_t>(origin.size()));
  std::uint32_t lo = origin[begin], hi = origin[begin];
  for (std::uint32_t i = begin; i < end; ++i) {
    lo = std::min(lo, origin[i]);
    hi = std::max(hi, origin[i]);
  }
  r.begin = lo;
  r.end = std::max(hi + 1, r.begin);
  // A byte that maps to a macro call site covers the whole call site token.
  if (prov.range.valid && r.begin >= prov.range.begin && r.end > prov.range.end) r.end = prov.range.end;
  r.valid = true;
  return r;
}

namespace {

// pgfmanual 14: the path commands (and the libraries' path-like commands).
const std::unordered_set<std::string>& path_commands() {
  static const std::unordered_set<std::string> names = {
      "draw", "path", "fill", "filldraw", "shade", "shadedraw", "clip", "node", "coordinate",
      "pic", "matrix", "useasboundingbox", "graph", "datavisualization", "pattern", "spy"};
  return names;
}

const std::unordered_set<std::string>& axis_environments() {
  static const std::unordered_set<std::string> names = {
      "axis", "semilogxaxis", "semilogyaxis", "loglogaxis", "polaraxis", "groupplot", "ternaryaxis",
      "smithchart"};
  return names;
}

std::string trim(const std::string& s) {
  auto b = s.find_first_not_of(" \t\n\r");
  if (b == std::string::npos) return "";
  auto e = s.find_last_not_of(" \t\n\r");
  return s.substr(b, e - b + 1);
}

// Expander::layers' comma-separated names as a list.
std::vector<std::string> layer_list(const std::string& names) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (at <= names.size()) {
    const std::size_t comma = names.find(',', at);
    std::string name = trim(names.substr(at, comma == std::string::npos ? std::string::npos : comma - at));
    if (!name.empty()) out.push_back(std::move(name));
    if (comma == std::string::npos) break;
    at = comma + 1;
  }
  if (out.empty()) out.push_back("main");
  return out;
}

// tikzlibraryanimations (pgfmanual 26.2): `:attribute = {timeline}` on a path, a node or \scoped
// animates the object in SVG output only; a PDF shows the unanimated picture, which is what the
// rules check, so the specification is dropped. Only at brace, parenthesis and bracket depth 0:
// `(30:1cm)` and `{a:b}` are left alone.
// The filter sees a statement's tokens as they are read and hands on the others: a ':' that can
// start a specification is held back with what follows it until the specification is complete
// (all of it is dropped) or cannot be one (the held tokens go on; the last of them, which ended
// the attempt, may start another).
template <class Emit>
class AnimationSpecFilter {
 public:
  explicit AnimationSpecFilter(Emit emit) : emit_(std::move(emit)) {}

  [[gnu::always_inline]] void put(const Token& t) {
    if (state_ == State::none) [[likely]]
      return pass(t);
    hold(t);
  }

  // The end of the statement: what is held is not a specification, and nothing after it can
  // complete one, so all of it goes on (looking again at the last, a ':', would hold it forever).
  void finish() {
    if (state_ == State::none) return;
    for (const Token& t : held_) {
      count(t);
      emit_(t);
    }
    held_.clear();
    state_ = State::none;
  }

 private:
  enum class State { none, name, equals, timeline };

  void hold(const Token& t) {
    held_.push_back(t);
    switch (state_) {
      case State::name:  // `:attribute`: letters, blanks, '-' and ':', then '='
        if (t.cat == Cat::letter || t.cat == Cat::space || t.is_char('-') || t.is_char(':')) {
          named_ = named_ || t.cat == Cat::letter;
          return;
        }
        if (named_ && t.is_char('=')) {
          state_ = State::equals;
          return;
        }
        return release();
      case State::equals:  // blanks, then the braced timeline
        if (t.cat == Cat::space) return;
        if (t.cat == Cat::begin_group) {
          state_ = State::timeline;
          depth_ = 1;
          return;
        }
        return release();
      case State::timeline:
        if (t.cat == Cat::begin_group) ++depth_;
        if (t.cat == Cat::end_group && --depth_ == 0) {  // a whole specification: dropped
          held_.clear();
          state_ = State::none;
        }
        return;
      case State::none:
        return;
    }
  }

  [[gnu::always_inline]] void pass(const Token& t) {
    // Only braces, parentheses, brackets and ':' matter here.
    const char c = t.text.size() == 1 ? t.text[0] : '\0';
    if (t.cat != Cat::begin_group && t.cat != Cat::end_group && c != '(' && c != ')' && c != '[' &&
        c != ']' && c != ':')
      return emit_(t);
    count(t);
    if (group_ == 0 && paren_ == 0 && bracket_ == 0 && t.is_char(':')) {
      state_ = State::name;
      named_ = false;
      held_.push_back(t);
      return;
    }
    emit_(t);
  }

  // The held tokens are not a specification. Nor does a later ':' among them start one: it would
  // be read through the same tokens and fail at the same one, the last held (its name is a
  // suffix of the first's, so it has letters only if the first had). So all but the last go on
  // as they are (counted), and only the last is looked at again: every token is held once at
  // most, and a run of ':' costs linear time (a 1 MB statement of them took quadratic time, and
  // looking at each held token again nested a call per ':').
  void release() {
    TokenList held = std::move(held_);
    held_.clear();
    state_ = State::none;
    for (std::size_t i = 0; i + 1 < held.size(); ++i) {
      count(held[i]);
      emit_(held[i]);
    }
    put(held.back());
  }

  // Keeps the group, parenthesis and bracket depths of a token that goes on.
  void count(const Token& t) {
    if (t.cat == Cat::begin_group) ++group_;
    if (t.cat == Cat::end_group) --group_;
    if (group_ != 0) return;
    if (t.is_char('(')) ++paren_;
    if (t.is_char(')') && paren_ > 0) --paren_;
    if (t.is_char('[')) ++bracket_;
    if (t.is_char(']') && bracket_ > 0) --bracket_;
  }

  Emit emit_;
  State state_ = State::none;
  TokenList held_;
  bool named_ = false;
  int group_ = 0, paren_ = 0, bracket_ = 0, depth_ = 0;
};

// The font switches of the document body the lowering models (ir's apply_font_commands): the
// ten size commands, bold, italic and slanted, sans serif, typewriter.
bool body_font_command(const std::string& name) {
  static const char* const kNames[] = {"tiny",  "scriptsize", "footnotesize", "small", "normalsize",
                                       "large", "Large",      "LARGE",        "huge",  "Huge",
                                       "bfseries", "bf",      "itshape",      "it",    "slshape",
                                       "sffamily", "sf",       "ttfamily",     "tt"};
  for (const char* n : kNames)
    if (name == n) return true;
  return false;
}

// `font` (a run of such switches) followed by \name: a size replaces the size before it, a
// switch already there is not repeated, so the run stays short however often the body switches.
std::string with_font_command(const std::string& font, const std::string& name) {
  static const char* const kSizes[] = {"tiny",  "scriptsize", "footnotesize", "small", "normalsize",
                                       "large", "Large",      "LARGE",        "huge",  "Huge"};
  const bool size = std::any_of(std::begin(kSizes), std::end(kSizes), [&](const char* n) { return name == n; });
  std::string out;
  std::size_t i = 0;
  while (i < font.size()) {
    std::size_t j = font.find('\\', i + 1);
    if (j == std::string::npos) j = font.size();
    const std::string cmd = font.substr(i + 1, j - i - 1);
    const bool old_size = std::any_of(std::begin(kSizes), std::end(kSizes), [&](const char* n) { return cmd == n; });
    if (cmd != name && !(size && old_size)) out += font.substr(i, j - i);
    i = j;
  }
  return out + "\\" + name;
}

class PictureReader {
 public:
  PictureReader(Expander& ex, ExpandedDocument& doc, const SourceManager& sm)
      : ex_(ex), doc_(doc), sm_(sm) {}

  void run();
  std::vector<std::string> used_names;  // control sequences left in picture statements

  Picture* current() { return current_ < doc_.pictures.size() ? &doc_.pictures[current_] : nullptr; }

 private:
  enum class Mode { environment, group, single, bare };
  std::string env_name(const Token& at);
  void skip_comment_environment();
  void picture(const Token& begin, const std::string& environment);
  void tikzcd(const Token& begin);
  void tikz_command(const Token& t);
  void bare_picture(const Token& first);
  // `loops_before`: the \foreach loops unrolled before the picture's first token was read (a
  // single-statement picture started by a \foreach is that whole loop)
  void statements(Mode mode, const Token& begin, std::size_t loops_before = static_cast<std::size_t>(-1));
  void scoped(const Token& t);
  void skip_animation_specs(const Token& owner);
  // Reads tokens while `skip` holds for them, handing each to `seen`, and returns the token that
  // ended the run. At the end of the input it returns the last token skipped (`fallback` when
  // none was): Expander::next leaves no defined token behind when it returns false.
  template <class Skip, class Seen>
  Token read_while(Skip skip, Seen seen, Token fallback = Token{});
  void collect(Token first, StatementKind kind);
  void setup_command(const Token& t);
  std::uint32_t end_of_environment(const Token& end_token) const;

  Expander& ex_;
  ExpandedDocument& doc_;
  const SourceManager& sm_;
  std::size_t current_ = static_cast<std::size_t>(-1);
  std::uint32_t last_end_ = 0;
  bool in_document_ = false;
  // Text of the current paragraph seen (Picture::text_beside), and the picture it may follow.
  bool text_in_paragraph_ = false;
  std::size_t after_picture_ = static_cast<std::size_t>(-1);
};

template <class Skip, class Seen>
Token PictureReader::read_while(Skip skip, Seen seen, Token fallback) {
  Token n;
  while (ex_.next(n)) {
    if (!skip(n)) return n;
    seen(n);
    fallback = n;
  }
  return fallback;
}

std::string PictureReader::env_name(const Token& at) {
  TokenList name;
  if (!ex_.read_group_raw(name, at)) return "";
  return trim(to_string(name));
}

std::uint32_t PictureReader::end_of_environment(const Token& end_token) const {
  if (end_token.origin_file != doc_.file || end_token.file != doc_.file) return end_token.origin_end;
  const std::string& text = sm_.get(doc_.file).text();
  auto close = text.find('}', end_token.origin_end);
  if (close == std::string::npos || close > end_token.origin_end + 64) return end_token.origin_end;
  return static_cast<std::uint32_t>(close + 1);
}

// The comment environment (packages comment and verbatim) drops its lines unread: skip the raw
// tokens up to \end{comment}, so that nothing in it is drawn or defined.
void PictureReader::skip_comment_environment() {
  Token t;
  while (ex_.next_raw(t)) {
    if (t.cat == Cat::marker) {
      ex_.push_back(t);  // a token list ends here: the environment ends with it
      return;
    }
    if (t.is_cs("end")) {
      TokenList name;
      if (!ex_.read_group_raw(name, t)) return;
      std::string n;
      for (const Token& x : name) n += x.text;
      if (n == "comment") return;
    }
  }
}

void PictureReader::run() {
  Token t;
  while (ex_.next(t)) {
    if (t.cat == Cat::marker) continue;
    if (t.is_cs("begin")) {
      std::string name = env_name(t);
      if (name == "comment") {
        skip_comment_environment();
      } else if (name == "tikzpicture" || name == "circuitikz") {
        picture(t, name);
      } else if (name == "tikzcd") {
        tikzcd(t);
      } else if (name == "document") {
        in_document_ = true;
      } else {
        ex_.begin_group(t);
      }
    } else if (t.is_cs("end")) {
      std::string name = env_name(t);
      if (name == "document") break;
      if (name != "tikzpicture" && name != "circuitikz") ex_.end_group();
    } else if (t.is_cs("tikz")) {
      tikz_command(t);
    } else if (t.cat == Cat::control &&
               (t.text.rfind("tkzSetUp", 0) == 0 || t.text == "ctikzset" || t.text == "circuitikzset")) {
      setup_command(t);
    } else if (t.cat == Cat::control && path_commands().count(t.text) && doc_.document_class.empty() &&
               !in_document_) {
      bare_picture(t);  // a snippet of statements without an environment
    } else if (in_document_ && t.cat == Cat::control && body_font_command(t.text)) {
      ex_.set_body_font(with_font_command(ex_.body_font(), t.text));
    } else if (in_document_ && (t.cat == Cat::letter || t.cat == Cat::other || t.cat == Cat::math)) {
      text_in_paragraph_ = true;
      if (after_picture_ < doc_.pictures.size()) doc_.pictures[after_picture_].text_beside = true;
    } else if (t.cat == Cat::par || t.is_cs("par")) {
      text_in_paragraph_ = false;
      after_picture_ = static_cast<std::size_t>(-1);
    }
  }
}

// A package's setup command outside a picture (ExpandedDocument::setup_commands): tkz-euclide's
// \tkzSetUpPoint[..], \tkzSetUpLine[..], \tkzSetUpStyle[..]{name}... in the preamble, circuitikz's
// \ctikzset{...} in the preamble or between pictures. Its option
// groups are read, and brace groups that follow them with no blank between.
void PictureReader::setup_command(const Token& t) {
  Statement st;
  st.kind = StatementKind::Other;
  st.text = "\\" + t.text;
  while (!ex_.stopped()) {
    bool blank = false;
    Token n = read_while([](const Token& x) { return x.cat == Cat::space; }, [&](const Token&) { blank = true; }, t);
    if (ex_.stopped()) break;
    TokenList arg;
    if (n.is_char('[')) {
      ex_.push_back(n);
      bool present = false;
      if (!ex_.read_optional_raw(arg, t, present) || !present) break;
      st.text += "[" + to_string(arg) + "]";
      continue;
    }
    if (n.cat == Cat::begin_group && !blank) {
      ex_.push_back(n);
      if (!ex_.read_group_raw(arg, t)) break;
      st.text += "{" + to_string(arg) + "}";
      continue;
    }
    ex_.push_back(n);
    break;
  }
  st.origin.assign(st.text.size(), t.origin_begin);
  st.prov = ex_.provenance(t, t);
  doc_.setup_commands.push_back({doc_.pictures.size(), std::move(st)});
}

// \begin{tikzpicture} and circuitikz's \begin{circuitikz} (circuitikz.sty: \tikzpicture with the
// package's defaults; its bipoles are keys valid in any picture once the package is loaded).
void PictureReader::picture(const Token& begin, const std::string& environment) {
  TokenList opts;
  bool present = false;
  if (!ex_.read_optional_raw(opts, begin, present)) return;
  Picture pic;
  pic.environment = environment;
  pic.range = ex_.range_of(begin);
  pic.options = trim(to_string(ex_.expand_fully(std::move(opts))));
  pic.text_beside = text_in_paragraph_;
  pic.body_font = ex_.body_font();
  doc_.pictures.push_back(std::move(pic));
  std::size_t saved = current_;
  current_ = doc_.pictures.size() - 1;
  if (ex_.begin_group(begin)) {
    statements(Mode::environment, begin);
    if (current()) current()->layers = layer_list(ex_.layers());  // pgf reads them at the end
    ex_.end_group();
  }
  after_picture_ = current_;
  current_ = saved;
}

// tikz-cd's environment (tikzlibrarycd.code.tex \tikzcd): a tikzpicture holding one \matrix
// whose cells carry \arrow commands. It is one picture of one statement, the environment as
// written ("\begin{tikzcd}[options] body \end{tikzcd}", macros expanded), for the tikzcd
// package (packages/tikzcd) to lower; environments nested in its cells (a pmatrix in a label)
// stay in the text.
void PictureReader::tikzcd(const Token& begin) {
  TokenList opts;
  bool present = false;
  if (!ex_.read_optional_raw(opts, begin, present)) return;
  Picture pic;
  pic.range = ex_.range_of(begin);
  pic.body_font = ex_.body_font();
  doc_.pictures.push_back(std::move(pic));
  std::size_t saved = current_;
  current_ = doc_.pictures.size() - 1;
  Statement st;
  st.kind = StatementKind::Other;
  Serialiser text(st.text, &st.origin);
  auto put_chars = [&](std::string_view s, const Token& at) {
    for (char c : s) {
      Token x;
      x.cat = Cat::other;
      x.text = std::string(1, c);
      x.origin_begin = at.origin_begin;
      x.origin_end = at.origin_end;
      text.put(x);
    }
  };
  text.put(begin);
  put_chars("{tikzcd}", begin);
  if (present) {
    put_chars("[", begin);
    for (const Token& x : ex_.expand_fully(std::move(opts))) text.put(x);
    put_chars("]", begin);
  }
  ex_.begin_group(begin);
  std::size_t nested = 0;
  Token t, last = begin;
  bool closed = false;
  const std::size_t max_bytes = ex_.limits().max_statement_bytes;
  while (ex_.next(t)) {
    if (t.cat == Cat::marker) continue;
    if (t.is_cs("begin") || t.is_cs("end")) {
      const bool opening = t.is_cs("begin");
      std::string name = env_name(t);
      if (!opening && name == "tikzcd" && nested == 0) {
        text.put(t);
        put_chars("{tikzcd}", t);
        last = t;
        closed = true;
        doc_.pictures[current_].range.end = end_of_environment(t);
        break;
      }
      if (opening) ++nested;
      else if (nested > 0) --nested;
      text.put(t);
      put_chars("{" + name + "}", t);
    } else {
      text.put(t);
    }
    if (t.cat != Cat::space && t.cat != Cat::par) last = t;
    if (st.text.size() > max_bytes) {
      ex_.fatal("expansion-limit", "statement longer than " + std::to_string(max_bytes) + " bytes", begin,
                {{"limit", max_bytes}, {"name", "max_statement_bytes"}});
      break;
    }
  }
  if (closed) ex_.end_group();
  if (!closed && !ex_.stopped())
    ex_.diagnose("unterminated", Severity::error, "unterminated tikzcd environment", begin);
  st.prov = ex_.provenance(begin, last);
  last_end_ = st.prov.range.end;
  st.cut = !closed;
  doc_.pictures[current_].truncated = !closed && ex_.stopped();
  doc_.pictures[current_].statements.push_back(std::move(st));
  current_ = saved;
}

void PictureReader::tikz_command(const Token& t) {
  const std::size_t loops_before = ex_.loop_depth();  // reading ahead may start a \foreach
  TokenList opts;
  bool present = false;
  skip_animation_specs(t);
  if (!ex_.read_optional_raw(opts, t, present)) return;
  skip_animation_specs(t);
  Picture pic;
  pic.range = ex_.range_of(t);
  pic.options = trim(to_string(ex_.expand_fully(std::move(opts))));
  pic.text_beside = text_in_paragraph_;
  pic.body_font = ex_.body_font();
  doc_.pictures.push_back(std::move(pic));
  std::size_t saved = current_;
  current_ = doc_.pictures.size() - 1;
  const Token n = read_while([](const Token& x) { return x.cat == Cat::space || x.cat == Cat::par; },
                             [](const Token&) {});
  if (!ex_.stopped()) {
    if (n.cat == Cat::begin_group) {  // \tikz{...}: the group is the picture (next() opened it)
      statements(Mode::group, t);
    } else {
      ex_.push_back(n);
      statements(Mode::single, t, loops_before);
    }
  }
  if (current()) current()->layers = layer_list(ex_.layers());
  after_picture_ = current_;
  current_ = saved;
}

void PictureReader::bare_picture(const Token& first) {
  Picture pic;
  pic.range = {doc_.file, 0, static_cast<std::uint32_t>(sm_.get(doc_.file).text().size()), true};
  doc_.pictures.push_back(std::move(pic));
  current_ = doc_.pictures.size() - 1;
  ex_.push_back(first);
  statements(Mode::bare, first);
  if (current()) current()->layers = layer_list(ex_.layers());
}

void PictureReader::statements(Mode mode, const Token& begin, std::size_t loops_before) {
  // the expander keeps some commands in a picture's statements for the packages (\tkzGetLength)
  struct InPicture {
    Expander& ex;
    bool was;
    explicit InPicture(Expander& e) : ex(e), was(e.in_picture()) { ex.set_in_picture(true); }
    ~InPicture() { ex.set_in_picture(was); }
  } in_picture(ex_);
  std::vector<std::string> envs;
  std::size_t braces = 0;  // TeX groups at statement level: they scope definitions only
  // \tikz \foreach ... \node ...; : the single statement is the whole loop (pgffor reads its body
  // up to the ';' and runs it for every item), so a single-statement picture goes on while the
  // loop it started is unrolled
  if (loops_before == static_cast<std::size_t>(-1)) loops_before = ex_.loop_depth();
  bool in_loop = false;
  Token t;
  while (ex_.next(t)) {
    if (in_loop && ex_.loop_depth() <= loops_before) {  // the token after the loop
      ex_.push_back(t);
      current()->range.end = std::max(current()->range.end, last_end_);
      return;
    }
    if (t.cat == Cat::marker || t.cat == Cat::space || t.cat == Cat::par || t.is_char(';')) continue;
    if (t.cat == Cat::begin_group) {
      ++braces;
      continue;
    }
    if (t.cat == Cat::end_group) {
      if (braces == 0 && mode == Mode::group) {
        current()->range.end = std::max(current()->range.end, t.origin_end);
        return;
      }
      if (braces > 0) --braces;
      continue;
    }
    if (t.is_cs("begin")) {
      std::string name = env_name(t);
      TokenList opts;
      bool present = false;
      if (name == "comment") {
        skip_comment_environment();
        continue;
      }
      if (name == "scope" || name == "tikzpicture" || name == "pgfscope") {  // pgfcorescopes {pgfscope}
        if (!ex_.read_optional_raw(opts, t, present)) return;
        TokenList e = ex_.expand_fully(std::move(opts));
        Statement st;
        st.kind = StatementKind::ScopeBegin;
        while (!e.empty() && (e.front().cat == Cat::space || e.front().cat == Cat::par)) e.erase(e.begin());
        while (!e.empty() && (e.back().cat == Cat::space || e.back().cat == Cat::par)) e.pop_back();
        serialise(e, st.text, &st.origin);
        st.prov = ex_.provenance(t, t);
        current()->statements.push_back(std::move(st));
        envs.push_back("scope");
        ex_.begin_group(t);
      } else if (axis_environments().count(name)) {
        current()->is_axis = true;
        if (!ex_.read_optional_raw(opts, t, present)) return;
        TokenList all = ex_.expand_fully(std::move(opts));
        Token b = t;
        envs.push_back(name);
        ex_.begin_group(t);
        std::string text = "\\begin{" + name + "}" + (present ? "[" + trim(to_string(all)) + "]" : "");
        Statement st;
        st.kind = StatementKind::Other;
        st.text = text;
        st.origin.assign(text.size(), t.origin_begin);
        st.prov = ex_.provenance(t, t);
        current()->statements.push_back(std::move(st));
      } else {
        envs.push_back(name);
        ex_.begin_group(t);
        if (name == "pgfonlayer") {
          // pgfcorelayers.code.tex \pgfonlayer{name}: what follows, up to \end{pgfonlayer}, is
          // painted on that layer (a TeX group: TikZ's keys stay as they are)
          TokenList layer;
          ex_.read_group_raw(layer, t);
          std::string name_text;
          for (const Token& x : ex_.expand_fully(std::move(layer)))
            if (x.cat != Cat::begin_group && x.cat != Cat::end_group) name_text += x.cat == Cat::space ? " " : x.text;
          Statement st;
          st.kind = StatementKind::ScopeBegin;
          st.layer = trim(name_text);
          if (st.layer.empty()) st.layer = "main";
          st.prov = ex_.provenance(t, t);
          current()->statements.push_back(std::move(st));
        }
      }
      continue;
    }
    if (t.is_cs("end")) {
      std::string name = env_name(t);
      if (envs.empty()) {
        if (name == current()->environment && mode == Mode::environment) {
          current()->range.end = end_of_environment(t);
          return;
        }
        ex_.diagnose("syntax-error", Severity::error, "\\end{" + name + "} without a matching \\begin", t);
        if (name == "tikzpicture" || name == "circuitikz") return;
        continue;
      }
      std::string open = envs.back();
      if (open != name && !(open == "scope" && (name == "tikzpicture" || name == "pgfscope")))
        ex_.diagnose("syntax-error", Severity::error,
                     "\\end{" + name + "} closes \\begin{" + open + "}", t);
      envs.pop_back();
      ex_.end_group();
      if (open == "scope" || open == "pgfonlayer") {
        Statement st;
        st.kind = StatementKind::ScopeEnd;
        st.text = "";
        st.prov = ex_.provenance(t, t);
        st.prov.range.end = end_of_environment(t);
        current()->statements.push_back(std::move(st));
      } else if (axis_environments().count(open)) {
        Statement st;
        st.kind = StatementKind::Other;
        st.text = "\\end{" + open + "}";
        st.origin.assign(st.text.size(), t.origin_begin);
        st.prov = ex_.provenance(t, t);
        current()->statements.push_back(std::move(st));
      }
      continue;
    }
    if (t.is_cs("scoped")) {
      scoped(t);
      if (mode == Mode::single) return;
      continue;
    }
    if (t.cat == Cat::control && path_commands().count(t.text)) {
      collect(t, StatementKind::Path);
    } else {
      collect(t, StatementKind::Other);
    }
    if (mode == Mode::single) {
      current()->range.end = std::max(current()->range.end, last_end_);
      in_loop = ex_.loop_depth() > loops_before;
      if (!in_loop) return;
    }
  }
  if (ex_.stopped() && current()) current()->truncated = true;
  if (!ex_.stopped() && mode == Mode::environment)
    ex_.diagnose("unterminated", Severity::error, "unterminated " + (current() ? current()->environment : std::string("tikzpicture")) + " environment", begin);
  else if (!ex_.stopped() && mode == Mode::group)
    ex_.diagnose("unterminated", Severity::error, "unterminated \\tikz group: missing '}'", begin);
  else if (!ex_.stopped() && !envs.empty())
    ex_.diagnose("unterminated", Severity::error, "unterminated " + envs.back() + " environment", begin);
}

// \scoped[options] <statement or {group}> (pgfmanual 12.3.2, tikz.code.tex \tikz@scoped): the same
// as \begin{scope}[options] ... \end{scope} around the one statement or the braced group.
// `\scoped :rotate = {...}`: the animation specifications before the scoped statement (see
// strip_animation_specs), read from the token stream.
void PictureReader::skip_animation_specs(const Token& owner) {
  for (;;) {
    TokenList skipped;
    auto keep = [&](const Token& x) { skipped.push_back(x); };
    Token n = read_while([](const Token& x) { return x.cat == Cat::space || x.cat == Cat::par; }, keep);
    if (ex_.stopped()) return;
    if (!n.is_char(':')) {
      ex_.push_back(n);
      return;
    }
    skipped.push_back(n);
    bool named = false;
    n = read_while([](const Token& x) { return x.cat == Cat::letter || x.cat == Cat::space || x.is_char('-'); },
                   [&](const Token& x) {
                     named = named || x.cat == Cat::letter;
                     skipped.push_back(x);
                   },
                   n);
    if (ex_.stopped()) return;
    if (!named || !n.is_char('=')) {  // not an animation: give everything back
      ex_.push_back(n);
      for (auto it = skipped.rbegin(); it != skipped.rend(); ++it) ex_.push_back(*it);
      return;
    }
    TokenList timeline;
    if (!ex_.read_group_raw(timeline, owner)) return;
  }
}

void PictureReader::scoped(const Token& t) {
  TokenList opts;
  bool present = false;
  skip_animation_specs(t);
  if (!ex_.read_optional_raw(opts, t, present)) return;
  skip_animation_specs(t);
  TokenList e = ex_.expand_fully(std::move(opts));
  while (!e.empty() && (e.front().cat == Cat::space || e.front().cat == Cat::par)) e.erase(e.begin());
  while (!e.empty() && (e.back().cat == Cat::space || e.back().cat == Cat::par)) e.pop_back();
  Statement open;
  open.kind = StatementKind::ScopeBegin;
  serialise(e, open.text, &open.origin);
  open.prov = ex_.provenance(t, t);
  if (!current()) return;
  current()->statements.push_back(std::move(open));
  ex_.begin_group(t);
  const Token n = read_while(
      [](const Token& x) { return x.cat == Cat::space || x.cat == Cat::par || x.cat == Cat::marker; },
      [](const Token&) {});
  if (!ex_.stopped()) {
    if (n.cat == Cat::begin_group) {  // \scoped{...}: next() opened the group
      statements(Mode::group, t);
    } else {
      ex_.push_back(n);
      statements(Mode::single, t);
    }
  }
  ex_.end_group();
  Statement close;
  close.kind = StatementKind::ScopeEnd;
  close.prov = ex_.provenance(t, t);
  close.prov.range.end = std::max(close.prov.range.end, last_end_);
  if (current()) current()->statements.push_back(std::move(close));
}

void PictureReader::collect(Token first, StatementKind kind) {
  // The statement is serialised as it is read: its tokens are not kept.
  Statement st;
  st.kind = kind;
  st.text.reserve(128);
  st.origin.reserve(128);
  Serialiser text(st.text, &st.origin);
  const std::size_t names_before = used_names.size();
  bool any = false;  // a token that is not a blank went into the text
  Token last;        // its end, for the statement's range
  auto emit = [&](const Token& t) __attribute__((always_inline)) {
    text.put(t);
    if (t.cat == Cat::control) used_names.push_back(t.text);
    if (t.cat != Cat::space && t.cat != Cat::par) {
      any = true;
      last.origin_file = t.origin_file;
      last.origin_end = t.origin_end;
    }
  };
  AnimationSpecFilter<decltype(emit)> out(emit);
  out.put(first);
  std::size_t depth = 0, bytes = first.text.size() + 1;
  const bool path = kind == StatementKind::Path;
  bool terminated = false;
  const std::size_t max_bytes = ex_.limits().max_statement_bytes;
  auto over_budget = [&](std::size_t more) __attribute__((always_inline)) {
    bytes += more;
    if (bytes <= max_bytes) [[likely]]
      return false;
    ex_.fatal("expansion-limit",
              "statement longer than " + std::to_string(ex_.limits().max_statement_bytes) + " bytes", first,
              {{"limit", ex_.limits().max_statement_bytes}, {"name", "max_statement_bytes"}});
    used_names.resize(names_before);
    return true;
  };
  Token t;
  while (true) {
    if (ex_.next_plain(t)) {                         // straight from the file, without the expander
      if (t.run) {                                   // no boundary in a run
        if (over_budget(2 * t.text.size())) return;  // counted as that many one-character tokens
        out.put(t);
        continue;
      }
    } else {
      if (!ex_.next(t)) break;
      if (t.cat == Cat::marker) continue;
    }
    if (t.cat == Cat::begin_group) ++depth;
    if (t.cat == Cat::end_group) {
      if (depth == 0) {  // closes an enclosing group: give it back, keep the group open for it
        ex_.begin_group(t);
        ex_.push_back(std::move(t));
        break;
      }
      --depth;
    }
    if (depth == 0) {
      if (t.is_char(';')) {
        terminated = true;
        out.put(t);
        break;
      }
      bool boundary = t.is_cs("begin") || t.is_cs("end") ||
                      (!path && (t.cat == Cat::par || (t.cat == Cat::control && path_commands().count(t.text))));
      if (boundary) {
        ex_.push_back(std::move(t));
        break;
      }
    }
    if (over_budget(t.text.size() + 1)) return;
    out.put(t);
  }
  out.finish();
  if (path && !terminated && !ex_.stopped())
    ex_.diagnose(ex_.at_end() ? "unterminated" : "syntax-error", Severity::error,
                 "\\" + first.text + " statement without ';'", first);
  if (!any) return;
  // A statement cut short by a budget error is kept as cut: the error says what happened, and
  // parsing its remains would only add a second, misleading one (lowering records it as missing).
  st.cut = !terminated && ex_.stopped();
  // Trim the text (and its origin map) of surrounding blanks, in place.
  std::size_t b = 0, e = st.text.size();
  while (b < e && st.text[b] == ' ') ++b;
  while (e > b && st.text[e - 1] == ' ') --e;
  st.text.resize(e);
  st.text.erase(0, b);
  st.origin.resize(e);
  st.origin.erase(st.origin.begin(), st.origin.begin() + static_cast<long>(b));
  st.prov = ex_.provenance(first, last);
  last_end_ = st.prov.range.end;
  if (current()) current()->statements.push_back(std::move(st));
}

}  // namespace

ExpandedDocument expand_file(SourceManager& sm, FileId file, const FrontendOptions& opts) {
  ExpandedDocument doc;
  doc.file = file;
  doc.max_drawing_work = opts.limits.max_drawing_work;
  const SourceFile& src = sm.get(file);
  if (src.text().size() > opts.limits.max_input_bytes) {
    Diagnostic d;
    d.rule = "expansion-limit";
    d.severity = Severity::error;
    d.message = "input is " + std::to_string(src.text().size()) + " bytes; limit " +
                std::to_string(opts.limits.max_input_bytes) + " bytes";
    d.range = {file, 0, 0, true};
    d.evidence = {{"bytes", src.text().size()}, {"limit", opts.limits.max_input_bytes},
                  {"name", "max_input_bytes"}};
    doc.diagnostics.push_back(std::move(d));
    return doc;
  }
  doc.directives = scan_directives(src, file, doc.diagnostics);
  Expander ex(sm, file, opts, doc);
  PictureReader reader(ex, doc, sm);
  ex.on_style = [&](Statement st) {
    if (Picture* p = reader.current()) p->statements.push_back(std::move(st));
    else if (doc.pictures.empty()) doc.preamble_styles.push_back(std::move(st));
    else doc.later_styles.push_back({doc.pictures.size(), std::move(st)});
  };
  ex.push_file(file, false);
  reader.run();
  std::vector<std::string> leftovers;
  for (const std::string& n : reader.used_names) {
    if (!ex.is_user_macro(n)) continue;
    ++doc.unexpanded_user_macros;
    if (std::find(leftovers.begin(), leftovers.end(), "\\" + n) == leftovers.end()) leftovers.push_back("\\" + n);
  }
  doc.unexpanded_macro_names = std::move(leftovers);
  return doc;
}

}  // namespace tikzlint::tex
