// tex/expander.cpp: macro expansion on tokens (TeXbook ch. 20), assignments, conditionals,
// class/package loading and style definitions. \foreach lives in foreach.cpp.
#include "tex/expander.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "tex/bundled.hpp"
#include "tex/pgfmath.hpp"
#include "tex/styles.hpp"

namespace tikzlint::tex {

namespace fs = std::filesystem;

class ExpansionCache {
 public:
  std::shared_ptr<const ClassSnapshot> find(const std::string& key) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = map_.find(key);
    return it == map_.end() ? nullptr : it->second;
  }
  void put(const std::string& key, std::shared_ptr<const ClassSnapshot> s) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (map_.size() < 64) map_.emplace(key, std::move(s));
  }
  // Package searches that found no file (the candidate paths, joined): every diagram of a batch
  // looks for tikz.sty beside it and in the include folders, a failing stat() each.
  bool known_absent(const std::string& probe) {
    std::lock_guard<std::mutex> lock(mutex_);
    return absent_.count(probe) > 0;
  }
  void note_absent(const std::string& probe) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (absent_.size() < 4096) absent_.insert(probe);
  }

 private:
  std::mutex mutex_;
  std::unordered_map<std::string, std::shared_ptr<const ClassSnapshot>> map_;
  std::unordered_set<std::string> absent_;
};

std::shared_ptr<ExpansionCache> make_expansion_cache() { return std::make_shared<ExpansionCache>(); }

struct Expander::Input {
  std::unique_ptr<Reader> reader;  // a file being read, or
  TokenList tokens;                // a token list (macro replacement, loop body...)
  std::size_t pos = 0;
  bool saved_at_letter = false;
};

// ---------------------------------------------------------------------------------------------
// Environment

// A name's meaning: this document's own table first (where a null entry hides the base's),
// then the shared base (a cached class's definitions).
const MeaningPtr* Environment::lookup(const std::string& name) const {
  auto it = table_.find(name);
  if (it != table_.end()) return &it->second;
  if (base_) {
    auto b = base_->find(name);
    if (b != base_->end()) return &b->second;
  }
  return nullptr;
}

const Meaning* Environment::find(const std::string& name) const {
  const MeaningPtr* m = lookup(name);
  return m && *m ? m->get() : nullptr;
}

void Environment::set(const std::string& name, MeaningPtr m, bool global) {
  if (global) {
    for (auto& level : saves_)
      for (auto& [n, old] : level)
        if (n == name) old = m;
  } else if (!saves_.empty()) {
    auto& level = saves_.back();
    bool saved = std::any_of(level.begin(), level.end(), [&](auto& e) { return e.first == name; });
    if (!saved) {
      const MeaningPtr* old = lookup(name);
      level.emplace_back(name, old ? *old : nullptr);
    }
  }
  table_[name] = std::move(m);
}

void Environment::push() { saves_.emplace_back(); }

void Environment::pop() {
  if (saves_.empty()) return;
  auto level = std::move(saves_.back());
  saves_.pop_back();
  for (auto it = level.rbegin(); it != level.rend(); ++it) {
    if (it->second) table_[it->first] = it->second;
    else if (base_ && base_->count(it->first)) table_[it->first] = nullptr;  // hides the base's again
    else table_.erase(it->first);
  }
}

std::unordered_map<std::string, MeaningPtr> Environment::table() const {
  std::unordered_map<std::string, MeaningPtr> all;
  if (base_) all = *base_;
  for (const auto& [name, m] : table_) {
    if (m) all[name] = m;
    else all.erase(name);  // undefined again (a group ended), hiding the base's
  }
  return all;
}

void Environment::replace_table(std::shared_ptr<const std::unordered_map<std::string, MeaningPtr>> t) {
  base_ = std::move(t);
  table_.clear();
}

// ---------------------------------------------------------------------------------------------

std::string format_dimen(double pt) {
  // TeX §103 print_scaled on the value in scaled points.
  constexpr long long unity = 65536;
  long long s = std::llround(pt * unity);
  std::string out;
  if (s < 0) {
    out += '-';
    s = -s;
  }
  out += std::to_string(s / unity);
  out += '.';
  s = 10 * (s % unity) + 5;
  long long delta = 10;
  do {
    if (delta > unity) s = s + 0x8000 - 50000;
    out += static_cast<char>('0' + s / unity);
    s = 10 * (s % unity);
    delta *= 10;
  } while (s > delta);
  return out + "pt";
}

namespace {

// pgfmanual / TeXbook §458: units of measure in pt.
struct Unit {
  const char* name;
  double pt;
};
constexpr Unit kUnits[] = {
    {"pt", 1.0},           {"in", 72.27},          {"cm", 72.27 / 2.54}, {"mm", 72.27 / 25.4},
    {"bp", 72.27 / 72.0},  {"pc", 12.0},           {"dd", 1238.0 / 1157.0},
    {"cc", 12 * 1238.0 / 1157.0}, {"sp", 1.0 / 65536.0},
};

// Commands whose arguments are read and dropped: (optional before, mandatory, optional after).
struct Skipped {
  const char* name;
  int opt_before, mandatory, opt_after;
};
constexpr Skipped kSkipped[] = {
    {"DeclareOption", 0, 2, 0},     {"ProcessOptions", 0, 0, 0},   {"ExecuteOptions", 0, 1, 0},
    {"PassOptionsToClass", 0, 2, 0}, {"PassOptionsToPackage", 0, 2, 0},
    {"NeedsTeXFormat", 0, 1, 1},    {"ProvidesClass", 0, 1, 1},    {"ProvidesPackage", 0, 1, 1},
    {"ProvidesFile", 0, 1, 1},      {"typeout", 0, 1, 0},          {"message", 0, 1, 0},
    {"definecolor", 1, 3, 0},       {"colorlet", 1, 2, 0},         {"usetikzlibrary", 0, 1, 0},
    {"usepgfplotslibrary", 0, 1, 0}, {"usepgflibrary", 0, 1, 0},
    {"newcounter", 0, 1, 1},        {"setcounter", 0, 2, 0},       {"addtocounter", 0, 2, 0},
    {"stepcounter", 0, 1, 0},       {"pgfdeclarelayer", 0, 1, 0},  {"pgfsetlayers", 0, 1, 0},
    {"pgfdeclaredecoration", 0, 3, 0}, {"geometry", 0, 1, 0},      {"pagestyle", 0, 1, 0},
    {"thispagestyle", 0, 1, 0},     {"protect", 0, 0, 0},          {"listfiles", 0, 0, 0},
    {"tikzexternalize", 1, 0, 0},   {"pgfplotstableread", 0, 1, 0}, {"hypersetup", 0, 1, 0},
    {"graphicspath", 0, 1, 0},      {"sisetup", 0, 1, 0},          {"pgfmathsetseed", 0, 1, 0},
};

// TeX conditionals, counted while skipping a false branch.
bool is_conditional(const std::string& n) {
  static const std::unordered_set<std::string> names = {
      "if", "ifcat", "ifnum", "ifdim", "ifodd", "ifvmode", "ifhmode", "ifmmode", "ifinner",
      "ifvoid", "ifhbox", "ifvbox", "ifx", "ifeof", "iftrue", "iffalse", "ifcase", "ifdefined",
      "ifcsname"};
  return names.count(n) != 0;
}

bool same_token(const Token& a, const Token& b) {
  if (a.cat == Cat::space && b.cat == Cat::space) return true;
  return a.cat == b.cat && a.text == b.text;
}

std::string trim(std::string s) {
  auto b = s.find_first_not_of(" \t\n\r");
  if (b == std::string::npos) return "";
  auto e = s.find_last_not_of(" \t\n\r");
  return s.substr(b, e - b + 1);
}

// Split at top-level separators (outside braces).
std::vector<TokenList> split_top(const TokenList& tokens, char sep) {
  // The separators first, then each part copied once at its size (a part grown token by token
  // moved every token of it several times).
  std::vector<std::size_t> cuts;
  int depth = 0;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const Token& t = tokens[i];
    if (t.cat == Cat::begin_group) ++depth;
    if (t.cat == Cat::end_group) --depth;
    if (depth == 0 && t.is_char(sep) && t.cat != Cat::param) cuts.push_back(i);
  }
  std::vector<TokenList> out;
  out.reserve(cuts.size() + 1);
  std::size_t from = 0;
  for (std::size_t c : cuts) {
    out.emplace_back(tokens.begin() + static_cast<long>(from), tokens.begin() + static_cast<long>(c));
    from = c + 1;
  }
  out.emplace_back(tokens.begin() + static_cast<long>(from), tokens.end());
  return out;
}

}  // namespace

TokenList trim_tokens(TokenList t) {
  while (!t.empty() && (t.front().cat == Cat::space || t.front().cat == Cat::par)) t.erase(t.begin());
  while (!t.empty() && (t.back().cat == Cat::space || t.back().cat == Cat::par)) t.pop_back();
  return t;
}

// `{...}` as a whole loses one pair of braces.
TokenList strip_braces(TokenList t) {
  t = trim_tokens(std::move(t));
  if (t.size() >= 2 && t.front().cat == Cat::begin_group && t.back().cat == Cat::end_group) {
    int depth = 0;
    for (std::size_t i = 0; i < t.size(); ++i) {
      if (t[i].cat == Cat::begin_group) ++depth;
      if (t[i].cat == Cat::end_group && --depth == 0 && i + 1 != t.size()) return t;
    }
    return TokenList(t.begin() + 1, t.end() - 1);
  }
  return t;
}

// ---------------------------------------------------------------------------------------------

// The primitives and the skipped commands: the same for every expander, built once.
const std::unordered_map<std::string, Expander::Primitive>& Expander::primitive_table() {
  static const std::unordered_map<std::string, Primitive> table = [] {
    return std::unordered_map<std::string, Primitive>{
      {"def", &Expander::p_def},
      {"gdef", &Expander::p_gdef},
      {"edef", &Expander::p_edef},
      {"xdef", &Expander::p_xdef},
      {"long", &Expander::p_long},
      {"outer", &Expander::p_long},
      {"protected", &Expander::p_long},
      {"global", &Expander::p_global},
      {"let", &Expander::p_let},
      {"newcommand", &Expander::p_newcommand},
      {"renewcommand", &Expander::p_renewcommand},
      {"providecommand", &Expander::p_providecommand},
      {"DeclareRobustCommand", &Expander::p_renewcommand},
      {"NewDocumentCommand", &Expander::p_newdocumentcommand},
      {"RenewDocumentCommand", &Expander::p_newdocumentcommand},
      {"DeclareDocumentCommand", &Expander::p_newdocumentcommand},
      {"ProvideDocumentCommand", &Expander::p_newdocumentcommand},
      {"newdimen", &Expander::p_newdimen},
      {"newlength", &Expander::p_newdimen},
      {"newskip", &Expander::p_newdimen},
      {"newcount", &Expander::p_newcount},
      {"setlength", &Expander::p_setlength},
      {"pgfmathsetlength", &Expander::p_setlength},
      {"addtolength", &Expander::p_addtolength},
      {"the", &Expander::p_the},
      {"relax", &Expander::p_relax},
      {"makeatletter", &Expander::p_makeatletter},
      {"makeatother", &Expander::p_makeatother},
      {"begingroup", &Expander::p_begingroup},
      {"endgroup", &Expander::p_endgroup},
      {"csname", &Expander::p_csname},
      {"expandafter", &Expander::p_expandafter},
      {"noexpand", &Expander::p_noexpand},
      {"pgfmathsetmacro", &Expander::p_pgfmathsetmacro},
      {"pgfmathtruncatemacro", &Expander::p_pgfmathtruncatemacro},
      {"pgfmathsetlengthmacro", &Expander::p_pgfmathsetlengthmacro},
      {"pgfmathparse", &Expander::p_pgfmathparse},
      {"tikzmath", &Expander::p_tikzmath},
      // \pgfmath<function>{x}{y}: pgfmath's command form of each function (pgfmanual 94.3..)
      {"pgfmathadd", &Expander::p_pgfmathfunction},
      {"pgfmathsubtract", &Expander::p_pgfmathfunction},
      {"pgfmathmultiply", &Expander::p_pgfmathfunction},
      {"pgfmathdivide", &Expander::p_pgfmathfunction},
      {"pgfmathdiv", &Expander::p_pgfmathfunction},
      {"pgfmathmod", &Expander::p_pgfmathfunction},
      {"pgfmathpow", &Expander::p_pgfmathfunction},
      {"pgfmathveclen", &Expander::p_pgfmathfunction},
      {"pgfmathatantwo", &Expander::p_pgfmathfunction},
      {"pgfmathless", &Expander::p_pgfmathfunction},
      {"pgfmathlessthan", &Expander::p_pgfmathfunction},
      {"pgfmathgreater", &Expander::p_pgfmathfunction},
      {"pgfmathgreaterthan", &Expander::p_pgfmathfunction},
      {"pgfmathequal", &Expander::p_pgfmathfunction},
      {"pgfmathnotequal", &Expander::p_pgfmathfunction},
      {"pgfmathnotless", &Expander::p_pgfmathfunction},
      {"pgfmathnotgreater", &Expander::p_pgfmathfunction},
      {"pgfmathneg", &Expander::p_pgfmathfunction},
      {"pgfmathabs", &Expander::p_pgfmathfunction},
      {"pgfmathsqrt", &Expander::p_pgfmathfunction},
      {"pgfmathsin", &Expander::p_pgfmathfunction},
      {"pgfmathcos", &Expander::p_pgfmathfunction},
      {"pgfmathtan", &Expander::p_pgfmathfunction},
      {"pgfmathasin", &Expander::p_pgfmathfunction},
      {"pgfmathacos", &Expander::p_pgfmathfunction},
      {"pgfmathatan", &Expander::p_pgfmathfunction},
      {"pgfmathexp", &Expander::p_pgfmathfunction},
      {"pgfmathln", &Expander::p_pgfmathfunction},
      {"pgfmathround", &Expander::p_pgfmathfunction},
      {"pgfmathfloor", &Expander::p_pgfmathfunction},
      {"pgfmathceil", &Expander::p_pgfmathfunction},
      {"pgfmathint", &Expander::p_pgfmathfunction},
      {"pgfmathfrac", &Expander::p_pgfmathfunction},
      {"pgfmathdeg", &Expander::p_pgfmathfunction},
      {"pgfmathrad", &Expander::p_pgfmathfunction},
      {"tkzGetAngle", &Expander::p_tkzget},
      {"tkzGetLength", &Expander::p_tkzget},
      {"tkzGetResult", &Expander::p_tkzget},
      {"ifthenelse", &Expander::p_ifthenelse},
      {"ifnum", &Expander::p_ifnum},
      {"ifdim", &Expander::p_ifdim},
      {"ifx", &Expander::p_ifx},
      {"iftrue", &Expander::p_iftrue},
      {"iffalse", &Expander::p_iffalse},
      {"else", &Expander::p_else},
      {"fi", &Expander::p_fi},
      {"documentclass", &Expander::p_documentclass},
      {"LoadClass", &Expander::p_loadclass},
      {"usepackage", &Expander::p_usepackage},
      {"RequirePackage", &Expander::p_usepackage},
      {"input", &Expander::p_input},
      {"include", &Expander::p_input},
      {"IfFileExists", &Expander::p_if_file_exists},
      {"InputIfFileExists", &Expander::p_if_file_exists},
      {"endinput", &Expander::p_endinput},
      {"tikzset", &Expander::p_tikzset},
      {"tikzdatavisualizationset", &Expander::p_tikzdatavisualizationset},
      {"tikzcdset", &Expander::p_tikzcdset},
      {"pgfplotsset", &Expander::p_pgfplotsset},
      {"tikzstyle", &Expander::p_tikzstyle},
      {"foreach", &Expander::p_foreach},
    };
  }();
  return table;
}

const std::unordered_map<std::string, std::pair<int, int>>& Expander::skipped_table() {
  static const std::unordered_map<std::string, std::pair<int, int>> table = [] {
    std::unordered_map<std::string, std::pair<int, int>> skipped;
    for (const Skipped& s : kSkipped) skipped[s.name] = {s.opt_before * 100 + s.mandatory, s.opt_after};
    return skipped;
  }();
  return table;
}

Expander::Expander(SourceManager& sm, FileId input, const FrontendOptions& opts,
                   ExpandedDocument& doc)
    : sm_(sm), input_(input), limits_(opts.limits), doc_(doc) {
  include_dirs_ = opts.include_dirs;
  allow_read_ = opts.allow_read;
  {
    const std::string& path = sm.get(input).path();
    const std::size_t slash = path.rfind('/');
    std::vector<std::string> roots = include_dirs_;
    roots.insert(roots.end(), allow_read_.begin(), allow_read_.end());
    gate_ = std::make_shared<const ReadGate>(slash == std::string::npos ? std::string() : path.substr(0, slash + 1),
                                             std::move(roots));
    doc_.read_gate = gate_;
  }
  cache = opts.cache;
  first_file_ = sm.size();
}

Expander::~Expander() = default;

void Expander::push_file(FileId id, bool at_letter) {
  auto in = std::make_unique<Input>();
  in->reader = std::make_unique<Reader>(sm_.get(id), id);
  in->saved_at_letter = at_letter_;
  at_letter_ = at_letter;
  inputs_.push_back(std::move(in));
}

SourceRange Expander::range_of(const Token& t) const {
  return SourceRange{t.origin_file, t.origin_begin, std::max(t.origin_end, t.origin_begin), true};
}

void Expander::diagnose(const char* code, Severity sev, std::string message, const Token& at,
                        nlohmann::json evidence) {
  // Problems inside class/package code the document never called are not the document's.
  if (sev != Severity::note && at.origin_file != input_ && !stopped_) return;
  Diagnostic d;
  d.rule = code;
  d.severity = sev;
  d.message = std::move(message);
  d.range = range_of(at);
  d.evidence = std::move(evidence);
  doc_.diagnostics.push_back(std::move(d));
}

void Expander::fatal(const char* code, std::string message, const Token& at, nlohmann::json evidence) {
  if (stopped_) return;
  stopped_ = true;
  Diagnostic d;
  d.rule = code;
  d.severity = Severity::error;
  d.message = std::move(message);
  d.range = range_of(at);
  d.evidence = std::move(evidence);
  doc_.diagnostics.push_back(std::move(d));
  inputs_.clear();  // free what was pending: the stop is final
  live_tokens_ = 0;
}

bool Expander::at_end() {
  Token t;
  if (!next_raw(t)) return true;
  push_back(std::move(t));
  return false;
}

bool Expander::next_raw(Token& out) {
  while (!stopped_ && !inputs_.empty()) {
    Input& in = *inputs_.back();
    if (in.reader) {
      if (in.reader->next(out, at_letter_)) {
        std::uint32_t bad = 0;
        if (in.reader->take_invalid_utf8(bad)) {
          Token at = out;
          diagnose("syntax-error", Severity::error, "invalid utf-8 or binary data in the input", at,
                   {{"offset", bad}});
        }
        return true;
      }
      at_letter_ = in.saved_at_letter;
      inputs_.pop_back();
      if (!snapshot_key_.empty() && inputs_.size() + 1 == snapshot_depth_) take_snapshot();
      continue;
    }
    if (in.pos < in.tokens.size()) {
      out = std::move(in.tokens[in.pos++]);
      if (live_tokens_) --live_tokens_;
      if (in.pos == in.tokens.size()) inputs_.pop_back();  // tail position: do not grow the stack
      return true;
    }
    inputs_.pop_back();
  }
  return false;
}

bool Expander::next_plain(Token& out) {
  if (stopped_ || inputs_.empty()) return false;
  Input& in = *inputs_.back();
  if (!in.reader || !in.reader->next_plain(out)) return false;
  if (out.cat == Cat::space) {
    last_out_digit_ = false;
    return true;
  }
  prefix_global_ = false;
  const char last = out.text.back();  // m_value_needs_star of the (last) character token
  last_out_digit_ = (last >= '0' && last <= '9') || last == '.';
  return true;
}

void Expander::push_back(Token t) {
  // A token read from a token list goes back into the slot it came from, without a new input
  // level (the common case: a lookahead for `[` or `*` that was not there).
  if (!stopped_ && !inputs_.empty() && live_tokens_ < limits_.max_token_count) {
    Input& in = *inputs_.back();
    if (!in.reader && in.pos > 0) {
      in.tokens[--in.pos] = std::move(t);
      ++live_tokens_;
      return;
    }
  }
  TokenList l;
  l.push_back(std::move(t));
  push_back(std::move(l));
}

void Expander::push_back(TokenList tokens) {
  if (tokens.empty() || stopped_) return;
  live_tokens_ += tokens.size();
  if (live_tokens_ > limits_.max_token_count) {
    Token at = tokens.front();
    fatal("expansion-limit",
          "expansion produced more than " + std::to_string(limits_.max_token_count) + " pending tokens",
          at, {{"limit", limits_.max_token_count}, {"name", "max_token_count"}});
    return;
  }
  if (inputs_.size() >= limits_.max_macro_depth + 64) {
    Token at = tokens.front();
    fatal("expansion-limit",
          "macro expansion nested deeper than " + std::to_string(limits_.max_macro_depth) + " levels",
          at, {{"limit", limits_.max_macro_depth}, {"name", "max_macro_depth"}});
    return;
  }
  auto in = std::make_unique<Input>();
  in->tokens = std::move(tokens);
  inputs_.push_back(std::move(in));
}

bool Expander::begin_group(const Token& at) {
  if (env_.depth() >= limits_.max_nesting_depth) {
    fatal("expansion-limit",
          "groups nested deeper than " + std::to_string(limits_.max_nesting_depth) + " levels", at,
          {{"limit", limits_.max_nesting_depth}, {"name", "max_nesting_depth"}});
    return false;
  }
  env_.push();
  return true;
}

void Expander::end_group() { env_.pop(); }

// The front end's own state that TeX keeps per group (the body font, the layer list): a local
// definition under a name no control sequence can have (it holds a space), so that TeX's save
// stack restores it at the end of the group as it restores a definition. Its text, or `fallback`.
static const std::string kBodyFontName = " tikzlint body font";
static const std::string kLayersName = " tikzlint layers";

std::string Expander::group_text(const std::string& name, const std::string& fallback) const {
  const Meaning* m = env_.find(name);
  return m && !m->body.empty() ? m->body.front().text : fallback;
}

void Expander::set_group_text(const std::string& name, const std::string& text) {
  auto m = std::make_shared<Meaning>();
  Token t;
  t.cat = Cat::other;
  t.text = text;
  m->body.push_back(std::move(t));
  env_.set(name, std::move(m), false);
}

std::string Expander::body_font() const { return group_text(kBodyFontName, ""); }
std::string Expander::layers() const { return group_text(kLayersName, "main"); }
void Expander::set_layers(const std::string& list) { set_group_text(kLayersName, list); }
void Expander::set_body_font(const std::string& commands) { set_group_text(kBodyFontName, commands); }

void Expander::define(const std::string& name, MeaningPtr m, bool global) {
  user_macros_.insert(name);
  env_.set(name, std::move(m), global);
}

// ---------------------------------------------------------------------------------------------
// The main loop.

bool Expander::next(Token& out) {
  // Read into `out` itself (a token moved per call was a tenth of the cost of a character).
  Token& t = out;
  while (!stopped_) {
    if (!next_raw(t)) return false;
    if (t.cat == Cat::marker) {
      if (!loops_.empty() && loop_marker(t.marker_id)) {
        finish_iteration(t.marker_id);
        continue;
      }
      return true;
    }
    if (t.cat == Cat::control || t.cat == Cat::active) {
      const Meaning* m = env_.find(t.text);
      if (t.cat == Cat::active && !m) return true;
      if (m) {
        switch (m->kind) {
          case Meaning::Kind::macro:
            if (expand_macro(t, *m)) continue;
            break;
          case Meaning::Kind::dimen:
          case Meaning::Kind::count:
            handle_register(t, *m);
            continue;
          case Meaning::Kind::alias: {
            Token a = m->alias;
            a.file = t.file;
            a.offset = t.offset;
            a.origin_file = t.origin_file;
            a.origin_begin = t.origin_begin;
            a.origin_end = t.origin_end;
            a.frame = t.frame;
            a.loop = t.loop;
            t = std::move(a);
            if (t.cat != Cat::control) {
              last_out_digit_ = m_value_needs_star(out);
              return true;
            }
            break;
          }
        }
        if (m->kind == Meaning::Kind::macro) {  // could not expand: leave it as it is
          prefix_global_ = false;
          last_out_digit_ = m_value_needs_star(out);
          return true;
        }
      }
      if (t.cat == Cat::control) {
        auto p = primitives_.find(t.text);
        if (p != primitives_.end()) {
          (this->*(p->second))(t);
          if (pending_out_) {
            out = std::move(*pending_out_);
            pending_out_.reset();
            last_out_digit_ = m_value_needs_star(out);
            return true;
          }
          continue;
        }
        if (skipped_.count(t.text)) {
          p_skip_args(t);
          continue;
        }
      }
    }
    if (collecting_ == 0) {
      if (t.cat == Cat::begin_group && !begin_group(t)) return false;
      if (t.cat == Cat::end_group) end_group();
    }
    if (t.cat != Cat::space) prefix_global_ = false;
    last_out_digit_ = m_value_needs_star(out);
    return true;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// Macros: argument matching (TeXbook p. 202) and replacement.

bool Expander::expand_macro(const Token& t, const Meaning& m) {
  if (++steps_ > limits_.max_expansion_steps) {
    fatal("expansion-limit",
          "more than " + std::to_string(limits_.max_expansion_steps) + " macro expansions",
          t, {{"limit", limits_.max_expansion_steps}, {"name", "max_expansion_steps"}});
    return true;
  }
  if (frames_[t.frame].depth + 1 > limits_.max_macro_depth) {
    fatal("expansion-limit",
          "macro expansion nested deeper than " + std::to_string(limits_.max_macro_depth) +
              " levels (\\" + t.text + " calls itself?)",
          t, {{"limit", limits_.max_macro_depth}, {"name", "max_macro_depth"}});
    return true;
  }
  std::vector<TokenList> args;
  if (!match_arguments(t, m, args)) return stopped_;
  push_back(instantiate(t, m, args, true));
  return true;
}

bool Expander::read_balanced(TokenList& out, const Token& owner) {
  std::size_t depth = 1;
  if (out.capacity() < 16) out.reserve(16);  // growing 1, 2, 4, 8 moved every token three times
  while (true) {
    // Read into the token's slot at the end of `out` (no token moved per token); the slot is
    // dropped again when the token is not part of the argument.
    Token& t = out.emplace_back();
    const bool got = next_raw(t);
    if (!got || t.cat == Cat::marker) {
      Token marker = std::move(t);
      out.pop_back();
      if (got) push_back(std::move(marker));
      fatal("unterminated", "unterminated group: missing '}' in the argument of \\" + owner.text, owner);
      return false;
    }
    if (t.cat == Cat::begin_group) {
      if (++depth > limits_.max_nesting_depth) {
        fatal("expansion-limit",
              "braces nested deeper than " + std::to_string(limits_.max_nesting_depth) + " levels", t,
              {{"limit", limits_.max_nesting_depth}, {"name", "max_nesting_depth"}});
        out.pop_back();
        return false;
      }
    } else if (t.cat == Cat::end_group) {
      if (--depth == 0) {
        out.pop_back();
        return true;
      }
    }
    if (out.size() > limits_.max_token_count) {
      fatal("expansion-limit", "argument longer than " + std::to_string(limits_.max_token_count) + " tokens",
            owner, {{"limit", limits_.max_token_count}, {"name", "max_token_count"}});
      return false;
    }
  }
}

bool Expander::read_group_raw(TokenList& out, const Token& owner) {
  Token t;
  do {
    if (!next_raw(t) || t.cat == Cat::marker) {
      if (t.cat == Cat::marker) push_back(t);
      fatal("unterminated", "missing argument of \\" + owner.text, owner);
      return false;
    }
  } while (t.cat == Cat::space || t.cat == Cat::par);
  if (t.cat == Cat::begin_group) return read_balanced(out, owner);
  if (t.cat == Cat::end_group) {
    push_back(std::move(t));
    // `{\f}`: TeX reports "Argument of \f has an extra }" only where it expands \f, and a macro
    // closing a group is usually handed on as a token (operator=\foreach...{\f}, a key's code)
    // which tikzlint expands earlier than TeX would. Unknown, not wrong.
    diagnose("unsupported-construct", Severity::warning,
             "\\" + owner.text + " is followed by '}', not its argument: expanded where TeX may not expand it", owner);
    return true;
  }
  out.push_back(std::move(t));
  return true;
}

bool Expander::read_optional_raw(TokenList& out, const Token& owner, bool& present) {
  present = false;
  Token t;
  bool got = false;
  while ((got = next_raw(t)) && (t.cat == Cat::space || t.cat == Cat::par)) {
  }
  if (stopped_) return false;
  if (!got) return true;
  if (!t.is_char('[') || t.cat == Cat::marker) {
    push_back(std::move(t));
    return true;
  }
  present = true;
  // LaTeX: the first ']' outside braces ends the optional argument.
  std::size_t depth = 0;
  const Token open = t;
  while (true) {
    if (!next_raw(t) || t.cat == Cat::marker) {
      if (t.cat == Cat::marker) push_back(t);
      fatal("unterminated", "unterminated option list: missing ']' after \\" + owner.text, open);
      return false;
    }
    if (t.cat == Cat::begin_group) {
      if (++depth > limits_.max_nesting_depth) {
        fatal("expansion-limit",
              "braces nested deeper than " + std::to_string(limits_.max_nesting_depth) + " levels", t,
              {{"limit", limits_.max_nesting_depth}, {"name", "max_nesting_depth"}});
        return false;
      }
    } else if (t.cat == Cat::end_group) {
      if (depth > 0) --depth;
    } else if (depth == 0 && t.is_char(']')) {
      return true;
    }
    out.push_back(std::move(t));
    if (out.size() > limits_.max_token_count) {
      fatal("expansion-limit", "option list longer than " + std::to_string(limits_.max_token_count) + " tokens",
            open, {{"limit", limits_.max_token_count}, {"name", "max_token_count"}});
      return false;
    }
  }
}

bool Expander::match_arguments(const Token& t, const Meaning& m, std::vector<TokenList>& args) {
  args.assign(static_cast<std::size_t>(std::max(m.arity, 0)), {});
  if (m.optional_default) {
    bool present = false;
    TokenList opt;
    if (!read_optional_raw(opt, t, present)) return false;
    if (!args.empty()) args[0] = present ? std::move(opt) : *m.optional_default;
  }
  const TokenList& p = m.params;
  std::size_t i = 0;
  Token x;
  // Leading delimiter tokens must match literally.
  while (i < p.size() && !(p[i].cat == Cat::param && p[i].marker_id > 0)) {
    if (!next_raw(x) || x.cat == Cat::marker) {
      if (x.cat == Cat::marker) push_back(x);
      fatal("unterminated", "input ended in the arguments of \\" + t.text, t);
      return false;
    }
    if (!same_token(x, p[i])) {
      push_back(std::move(x));
      diagnose("syntax-error", Severity::error,
               "use of \\" + t.text + " does not match its definition (expected '" +
                   (p[i].cat == Cat::control ? "\\" + p[i].text : p[i].text) + "')",
               t);
      return false;
    }
    ++i;
  }
  while (i < p.size()) {
    const std::size_t n = p[i].marker_id;
    ++i;
    TokenList delim;
    while (i < p.size() && !(p[i].cat == Cat::param && p[i].marker_id > 0)) delim.push_back(p[i++]);
    TokenList arg;
    if (delim.empty()) {
      if (!read_group_raw(arg, t)) return false;
    } else {
      std::size_t depth = 0;
      int groups_at_zero = 0;  // the argument is one {...}: strip the braces
      while (true) {
        if (!next_raw(x) || x.cat == Cat::marker) {
          if (x.cat == Cat::marker) push_back(x);
          fatal("unterminated", "input ended in the arguments of \\" + t.text + " (delimiter '" +
                                    to_string(delim) + "' not found)", t);
          return false;
        }
        if (x.cat == Cat::begin_group) {
          if (depth == 0) ++groups_at_zero;
          if (++depth > limits_.max_nesting_depth) {
            fatal("expansion-limit",
                  "braces nested deeper than " + std::to_string(limits_.max_nesting_depth) + " levels",
                  x, {{"limit", limits_.max_nesting_depth}, {"name", "max_nesting_depth"}});
            return false;
          }
        } else if (x.cat == Cat::end_group) {
          if (depth == 0) {
            push_back(std::move(x));
            diagnose("syntax-error", Severity::error, "unbalanced '}' in the arguments of \\" + t.text, t);
            return false;
          }
          --depth;
        }
        arg.push_back(std::move(x));
        if (arg.size() > limits_.max_token_count) {
          fatal("expansion-limit", "argument longer than " + std::to_string(limits_.max_token_count) + " tokens",
                t, {{"limit", limits_.max_token_count}, {"name", "max_token_count"}});
          return false;
        }
        if (depth == 0 && arg.size() >= delim.size()) {
          bool match = true;
          for (std::size_t k = 0; k < delim.size() && match; ++k)
            match = same_token(arg[arg.size() - delim.size() + k], delim[k]);
          if (match) {
            arg.resize(arg.size() - delim.size());
            break;
          }
        }
      }
      if (groups_at_zero == 1 && arg.size() >= 2 && arg.front().cat == Cat::begin_group &&
          arg.back().cat == Cat::end_group)
        arg = TokenList(arg.begin() + 1, arg.end() - 1);
    }
    if (n >= 1 && n <= args.size()) args[n - 1] = std::move(arg);
  }
  return true;
}

TokenList Expander::instantiate(const Token& call, const Meaning& m, const std::vector<TokenList>& args,
                                bool new_frame) {
  std::uint32_t fid = call.frame;
  if (new_frame) {
    FrameNode node;
    node.macro = "\\" + call.text;
    node.call_site = {call.file, call.offset,
                      call.offset + static_cast<std::uint32_t>(call.text.size() + 1), true};
    node.parent = call.frame;
    node.depth = frames_[call.frame].depth + 1;
    fid = frames_.push_back(std::move(node));
  }
  TokenList out;
  out.reserve(m.body.size());
  for (const Token& b : m.body) {
    if (b.cat == Cat::param && b.marker_id > 0) {
      if (b.marker_id <= args.size()) {
        const TokenList& a = args[b.marker_id - 1];
        out.insert(out.end(), a.begin(), a.end());
      }
      continue;
    }
    Token& c = out.emplace_back(b);  // copied once, in place
    c.origin_file = call.origin_file;
    c.origin_begin = call.origin_begin;
    c.origin_end = call.origin_end;
    c.frame = fid;
    c.loop = call.loop;
  }
  return out;
}

TokenList Expander::parse_body(const TokenList& raw, int arity) {
  TokenList out;
  out.reserve(raw.size());
  for (std::size_t i = 0; i < raw.size(); ++i) {
    const Token& t = raw[i];
    if (t.cat == Cat::param && t.marker_id == 0 && i + 1 < raw.size()) {
      const Token& n = raw[i + 1];
      if (n.cat == Cat::param) {  // ## -> a literal # for an inner definition
        Token lit = t;
        lit.marker_id = 0;
        out.push_back(lit);
        ++i;
        continue;
      }
      if (n.cat == Cat::other && n.text.size() == 1 && n.text[0] >= '1' && n.text[0] <= '9' &&
          n.text[0] - '0' <= arity) {
        Token ref = t;
        ref.marker_id = static_cast<std::uint32_t>(n.text[0] - '0');
        out.push_back(ref);
        ++i;
        continue;
      }
    }
    out.push_back(t);
  }
  return out;
}

bool Expander::parse_parameter_text(const Token& owner, TokenList& params, int& arity) {
  arity = 0;
  Token t;
  while (true) {
    if (!next_raw(t) || t.cat == Cat::marker) {
      if (t.cat == Cat::marker) push_back(t);
      fatal("unterminated", "definition of \\" + owner.text + " has no body", owner);
      return false;
    }
    if (t.cat == Cat::begin_group) return true;
    if (t.cat == Cat::param && t.marker_id == 0) {
      Token n;
      if (!next_raw(n)) continue;
      if (n.cat == Cat::other && n.text.size() == 1 && n.text[0] >= '1' && n.text[0] <= '9') {
        t.marker_id = static_cast<std::uint32_t>(n.text[0] - '0');
        arity = std::max(arity, static_cast<int>(t.marker_id));
        params.push_back(t);
        continue;
      }
      if (n.cat == Cat::begin_group) return true;  // #{ : rare, treated as undelimited end
      params.push_back(n);
      continue;
    }
    params.push_back(std::move(t));
  }
}

bool Expander::read_cs_name(const Token& owner, std::string& name, Token& name_token) {
  Token t;
  do {
    if (!next_raw(t) || t.cat == Cat::marker) {
      if (t.cat == Cat::marker) push_back(t);
      fatal("unterminated", "\\" + owner.text + " needs a control sequence", owner);
      return false;
    }
  } while (t.cat == Cat::space || t.cat == Cat::par);
  if (t.cat == Cat::begin_group) {
    TokenList inner;
    if (!read_balanced(inner, owner)) return false;
    inner = trim_tokens(std::move(inner));
    if (inner.size() == 1 && (inner[0].cat == Cat::control || inner[0].cat == Cat::active)) {
      name = inner[0].text;
      name_token = inner[0];
      return true;
    }
    diagnose("syntax-error", Severity::error, "\\" + owner.text + " needs a control sequence", owner);
    return false;
  }
  if (t.cat == Cat::control || t.cat == Cat::active) {
    name = t.text;
    name_token = t;
    return true;
  }
  push_back(t);
  diagnose("syntax-error", Severity::error, "\\" + owner.text + " needs a control sequence", owner);
  return false;
}

void Expander::skip_spaces() {
  Token t;
  while (next_raw(t)) {
    if (t.cat != Cat::space) {
      push_back(std::move(t));
      return;
    }
  }
}

bool Expander::peek_char(char c) {
  Token t;
  if (!next_raw(t)) return false;
  if (t.is_char(c)) return true;
  push_back(std::move(t));
  return false;
}

TokenList Expander::string_tokens(const std::string& s, const Token& at) const {
  TokenList out;
  for (char c : s) {
    Token t = at;
    t.text = std::string(1, c);
    t.marker_id = 0;
    t.cat = c == ' ' ? Cat::space
                     : ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) ? Cat::letter : Cat::other;
    out.push_back(std::move(t));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Registers: \FP=6.5in assigns; \FP elsewhere stands for its value (pgfmath reads it in pt).

bool Expander::handle_register(const Token& t, const Meaning& m) {
  Token n;
  std::vector<Token> spaces;
  bool got = false;
  while ((got = next_raw(n)) && n.cat == Cat::space) spaces.push_back(n);
  bool global = prefix_global_;
  prefix_global_ = false;
  if (!stopped_ && n.is_char('=')) {
    auto r = std::make_shared<Meaning>(m);
    if (m.kind == Meaning::Kind::dimen) {
      auto v = scan_dimen(t);
      if (!v) {
        diagnose("math-error", Severity::error, "cannot read the dimension assigned to \\" + t.text, t);
        return true;
      }
      r->dimen_pt = *v;
    } else {
      auto v = scan_int(t);
      if (!v) {
        diagnose("math-error", Severity::error, "cannot read the number assigned to \\" + t.text, t);
        return true;
      }
      r->count = *v;
    }
    define(t.text, r, global);
    return true;
  }
  if (!stopped_ && got) push_back(std::move(n));
  if (!spaces.empty()) push_back(spaces.front());
  std::string value = m.kind == Meaning::Kind::dimen ? format_dimen(m.dimen_pt) : std::to_string(m.count);
  output_value(t, value);
  return true;
}

void Expander::output_value(const Token& at, std::string value) {
  // `2\QP` in TeX multiplies; in the serialised text it becomes `2*117.43874pt`.
  if (last_out_digit_) value = "*" + value;
  push_back(string_tokens(value, at));
}

std::optional<long> Expander::scan_int(const Token& owner) {
  Token t;
  int sign = 1;
  std::string digits;
  while (next_raw(t)) {
    if (t.cat == Cat::control) {
      const Meaning* m = env_.find(t.text);
      if (m && m->kind == Meaning::Kind::macro && digits.empty()) {
        if (!expand_macro(t, *m)) break;
        continue;
      }
      if (m && (m->kind == Meaning::Kind::count || m->kind == Meaning::Kind::dimen) && digits.empty()) {
        long v = m->kind == Meaning::Kind::count ? m->count : std::lround(m->dimen_pt * 65536);
        return sign * v;
      }
      if (t.text == "the" && digits.empty()) continue;
      if (t.text == "relax") return digits.empty() ? std::nullopt : std::optional<long>(sign * std::atol(digits.c_str()));
      if (!m && digits.empty()) scan_undefined_ = t.text;
      push_back(std::move(t));
      break;
    }
    if (t.cat == Cat::space) {
      if (digits.empty()) continue;
      break;  // one space ends a number
    }
    if (digits.empty() && (t.is_char('-') || t.is_char('+'))) {
      if (t.is_char('-')) sign = -sign;
      continue;
    }
    if (t.text.size() == 1 && t.text[0] >= '0' && t.text[0] <= '9' && t.cat == Cat::other) {
      digits += t.text;
      continue;
    }
    push_back(std::move(t));
    break;
  }
  if (digits.empty()) return std::nullopt;
  return sign * std::atol(digits.c_str());
}

std::optional<double> Expander::scan_dimen(const Token& owner) {
  Token t;
  double sign = 1;
  std::string number;
  while (next_raw(t)) {
    if (t.cat == Cat::control) {
      const Meaning* m = env_.find(t.text);
      if (m && m->kind == Meaning::Kind::macro) {
        if (!expand_macro(t, *m)) break;
        continue;
      }
      if (m && m->kind == Meaning::Kind::dimen) {  // [factor]\register
        double f = number.empty() ? 1.0 : std::atof(number.c_str());
        return sign * f * m->dimen_pt;
      }
      if (t.text == "the") continue;
      if (!m && number.empty()) scan_undefined_ = t.text;
      push_back(std::move(t));
      return std::nullopt;
    }
    if (t.cat == Cat::space) {
      if (number.empty()) continue;
      break;
    }
    if (number.empty() && (t.is_char('-') || t.is_char('+'))) {
      if (t.is_char('-')) sign = -sign;
      continue;
    }
    if (t.cat == Cat::other && t.text.size() == 1 &&
        ((t.text[0] >= '0' && t.text[0] <= '9') || t.text[0] == '.' || t.text[0] == ',')) {
      number += t.text[0] == ',' ? '.' : t.text[0];
      continue;
    }
    push_back(std::move(t));
    break;
  }
  if (number.empty() || stopped_) return std::nullopt;
  double value = std::atof(number.c_str());
  // Unit: optional spaces, optional "true", then two letters.
  std::vector<Token> read;
  auto read_letter = [&](std::string& into) -> bool {
    Token x;
    if (!next_raw(x)) return false;
    read.push_back(x);
    if (x.cat != Cat::letter) return false;
    into += x.text;
    return true;
  };
  skip_spaces();
  std::string unit;
  bool ok = read_letter(unit) && read_letter(unit);
  if (ok && unit == "tr") {
    std::string rest;
    if (read_letter(rest) && read_letter(rest) && rest == "ue") {
      unit.clear();
      if (read_letter(unit)) read_letter(unit);
    }
  }
  double factor = 0;
  bool found = false;
  for (const Unit& u : kUnits)
    if (unit == u.name) factor = u.pt, found = true;
  if (unit == "em") factor = doc_.base_font_size_pt, found = true;
  if (unit == "ex") factor = doc_.base_font_size_pt * 0.430554, found = true;
  if (!found) {
    for (auto it = read.rbegin(); it != read.rend(); ++it) push_back(*it);
    return std::nullopt;
  }
  // One optional space after a unit.
  Token sp;
  if (next_raw(sp) && sp.cat != Cat::space) push_back(std::move(sp));
  return sign * value * factor;
}

std::optional<double> Expander::evaluate(const TokenList& expr, const Token& at, bool& is_length,
                                        std::string* result_text) {
  TokenList expanded = expand_fully(expr);
  if (stopped_) return std::nullopt;
  std::string text = trim(to_string(expanded));
  // A macro parameter (`#1`) in the expression: this is the body of a definition the expander
  // reads out of its context (a `/.code 2 args={\pgfmathsetmacro\t{100*#1/#2}}` in a picture's
  // options); TeX evaluates it only when the key is used, with the arguments in place.
  for (const Token& tok : expanded) {
    if (tok.cat == Cat::param) {
      diagnose("unsupported-construct", Severity::warning,
               "an expression with macro parameters ('" + text + "') is not evaluated where it is defined", at,
               {{"expression", text}});
      return std::nullopt;
    }
  }
  pgfmath::Context ctx;
  ctx.em_pt = doc_.base_font_size_pt;
  ctx.ex_pt = doc_.base_font_size_pt * 0.430554;
  // pgfmath arrays: {a,b,c}[i] (pgfmanual 94.2), as used by "right angle quadrant/.code".
  if (!text.empty() && text.front() == '{') {
    std::size_t depth = 0, close = std::string::npos;
    for (std::size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '{') ++depth;
      if (text[i] == '}' && --depth == 0) {
        close = i;
        break;
      }
    }
    if (close != std::string::npos && close + 1 < text.size() && text[close + 1] == '[' &&
        text.back() == ']') {
      auto idx = pgfmath::evaluate(text.substr(close + 2, text.size() - close - 3), ctx);
      if (idx) {
        std::vector<std::string> items;
        std::string cur;
        int d = 0;
        for (std::size_t i = 1; i < close; ++i) {
          char c = text[i];
          if (c == '{') ++d;
          if (c == '}') --d;
          if (c == ',' && d == 0) {
            items.push_back(cur);
            cur.clear();
          } else {
            cur += c;
          }
        }
        items.push_back(cur);
        long k = std::lround(idx.value->number);
        if (k >= 0 && static_cast<std::size_t>(k) < items.size()) text = trim(items[static_cast<std::size_t>(k)]);
      }
    }
  }
  auto r = pgfmath::evaluate(text, ctx);
  if (!r) {
    std::string msg = r.error ? r.error->message : "cannot evaluate";
    if (pgfmath::names_unexpanded_macro(msg))  // TeX may know the macro (see names_unexpanded_macro)
      diagnose("unsupported-construct", Severity::warning, msg + " in '" + text + "'", at, {{"expression", text}});
    else
      diagnose("math-error", Severity::error, msg + " in '" + text + "'", at, {{"expression", text}});
    return std::nullopt;
  }
  is_length = r.value->is_length;
  if (result_text) *result_text = pgfmath::result_text(*r.value);
  return r.value->number;
}

// ---------------------------------------------------------------------------------------------
// Definitions

void Expander::def_common(const Token& t, bool global, bool expand) {
  prefix_global_ = false;
  Token nt;
  if (!next_raw(nt)) {
    fatal("unterminated", "\\" + t.text + " at the end of the input", t);
    return;
  }
  if (nt.cat != Cat::control && nt.cat != Cat::active) {
    diagnose("syntax-error", Severity::error, "\\" + t.text + " must be followed by a control sequence", t);
    push_back(std::move(nt));
    return;
  }
  auto m = std::make_shared<Meaning>();
  if (!parse_parameter_text(t, m->params, m->arity)) return;
  TokenList body;
  if (!read_balanced(body, t)) return;
  if (expand) body = expand_fully(std::move(body));
  m->body = parse_body(body, m->arity);
  define(nt.text, m, global);
}

void Expander::p_def(const Token& t) { def_common(t, prefix_global_, false); }
void Expander::p_gdef(const Token& t) { def_common(t, true, false); }
void Expander::p_edef(const Token& t) { def_common(t, prefix_global_, true); }
void Expander::p_xdef(const Token& t) { def_common(t, true, true); }
void Expander::p_long(const Token&) {}
void Expander::p_global(const Token&) { prefix_global_ = true; }

void Expander::p_let(const Token& t) {
  bool global = prefix_global_;
  prefix_global_ = false;
  Token nt;
  if (!next_raw(nt)) return;
  if (nt.cat != Cat::control && nt.cat != Cat::active) {
    diagnose("syntax-error", Severity::error, "\\let must be followed by a control sequence", t);
    return;
  }
  Token target;
  do {
    if (!next_raw(target)) {
      fatal("unterminated", "\\let at the end of the input", t);
      return;
    }
  } while (target.cat == Cat::space);
  if (target.is_char('=')) {
    if (!next_raw(target)) return;
    if (target.cat == Cat::space && !next_raw(target)) return;
  }
  if (target.cat == Cat::control || target.cat == Cat::active) {
    if (const Meaning* m = env_.find(target.text)) {
      define(nt.text, std::make_shared<Meaning>(*m), global);
      return;
    }
  }
  auto m = std::make_shared<Meaning>();
  m->kind = Meaning::Kind::alias;
  m->alias = target;
  define(nt.text, m, global);
}

void Expander::define_command(const Token& t, int mode) {
  peek_char('*');
  std::string name;
  Token nt;
  if (!read_cs_name(t, name, nt)) return;
  bool present = false;
  TokenList n, def;
  if (!read_optional_raw(n, t, present)) return;
  int arity = 0;
  if (present) {
    std::string s = trim(to_string(n));
    arity = std::atoi(s.c_str());
    if (arity < 0 || arity > 9) {
      diagnose("syntax-error", Severity::error, "\\" + t.text + " takes 0 to 9 arguments", t);
      arity = 0;
    }
  }
  bool has_default = false;
  if (!read_optional_raw(def, t, has_default)) return;
  TokenList body;
  if (!read_group_raw(body, t)) return;
  if (mode == 2 && env_.find(name)) return;  // \providecommand keeps an existing definition
  auto m = std::make_shared<Meaning>();
  m->arity = arity;
  if (has_default) m->optional_default = def;
  for (int k = has_default ? 2 : 1; k <= arity; ++k) {
    Token p = t;
    p.cat = Cat::param;
    p.text = "#";
    p.marker_id = static_cast<std::uint32_t>(k);
    m->params.push_back(p);
  }
  m->body = parse_body(body, arity);
  define(name, m, false);
}

void Expander::p_newcommand(const Token& t) { define_command(t, 0); }
void Expander::p_renewcommand(const Token& t) { define_command(t, 1); }
void Expander::p_providecommand(const Token& t) { define_command(t, 2); }

// xparse: the m, o and O{default} argument types.
void Expander::p_newdocumentcommand(const Token& t) {
  std::string name;
  Token nt;
  if (!read_cs_name(t, name, nt)) return;
  TokenList spec, body;
  if (!read_group_raw(spec, t) || !read_group_raw(body, t)) return;
  auto m = std::make_shared<Meaning>();
  int k = 0;
  for (std::size_t i = 0; i < spec.size(); ++i) {
    const Token& s = spec[i];
    if (s.cat == Cat::space) continue;
    if (s.is_char('m')) {
      ++k;
      Token p = t;
      p.cat = Cat::param;
      p.text = "#";
      p.marker_id = static_cast<std::uint32_t>(k);
      m->params.push_back(p);
    } else if ((s.is_char('o') || s.is_char('O')) && k == 0) {
      ++k;
      TokenList d;
      if (s.is_char('O') && i + 1 < spec.size() && spec[i + 1].cat == Cat::begin_group) {
        int depth = 0;
        for (++i; i < spec.size(); ++i) {
          if (spec[i].cat == Cat::begin_group && depth++ == 0) continue;
          if (spec[i].cat == Cat::end_group && --depth == 0) break;
          d.push_back(spec[i]);
        }
      }
      m->optional_default = d;
    } else {
      diagnose("unsupported-construct", Severity::warning,
               "argument type '" + s.text + "' of \\" + t.text + " is not supported", t);
      return;
    }
  }
  m->arity = k;
  m->body = parse_body(body, k);
  define(name, m, false);
}

void Expander::p_newdimen(const Token& t) {
  std::string name;
  Token nt;
  if (!read_cs_name(t, name, nt)) return;
  auto m = std::make_shared<Meaning>();
  m->kind = Meaning::Kind::dimen;
  define(name, m, true);
}

void Expander::p_newcount(const Token& t) {
  std::string name;
  Token nt;
  if (!read_cs_name(t, name, nt)) return;
  auto m = std::make_shared<Meaning>();
  m->kind = Meaning::Kind::count;
  define(name, m, true);
}

void Expander::p_setlength(const Token& t) {
  std::string name;
  Token nt;
  if (!read_cs_name(t, name, nt)) return;
  TokenList expr;
  if (!read_group_raw(expr, t)) return;
  bool len = false;
  auto v = evaluate(expr, t, len);
  if (!v) return;
  auto m = std::make_shared<Meaning>();
  m->kind = Meaning::Kind::dimen;
  m->dimen_pt = *v;
  define(name, m, prefix_global_);
  prefix_global_ = false;
}

void Expander::p_addtolength(const Token& t) {
  std::string name;
  Token nt;
  if (!read_cs_name(t, name, nt)) return;
  TokenList expr;
  if (!read_group_raw(expr, t)) return;
  bool len = false;
  auto v = evaluate(expr, t, len);
  if (!v) return;
  const Meaning* old = env_.find(name);
  auto m = std::make_shared<Meaning>();
  m->kind = Meaning::Kind::dimen;
  m->dimen_pt = (old && old->kind == Meaning::Kind::dimen ? old->dimen_pt : 0) + *v;
  define(name, m, false);
}

void Expander::p_the(const Token& t) {
  Token n;
  if (!next_raw(n)) return;
  if (n.cat == Cat::control) {
    const Meaning* m = env_.find(n.text);
    if (m && m->kind == Meaning::Kind::dimen) {
      output_value(n, format_dimen(m->dimen_pt));
      return;
    }
    if (m && m->kind == Meaning::Kind::count) {
      output_value(n, std::to_string(m->count));
      return;
    }
  }
  push_back(std::move(n));
  pending_out_ = t;
}

void Expander::p_relax(const Token&) {}
void Expander::p_makeatletter(const Token&) { at_letter_ = true; }
void Expander::p_makeatother(const Token&) { at_letter_ = false; }
void Expander::p_begingroup(const Token& t) { begin_group(t); }
void Expander::p_endgroup(const Token&) { end_group(); }

void Expander::p_csname(const Token& t) {
  std::string name;
  Token x;
  while (next_raw(x)) {
    if (x.is_cs("endcsname")) {
      Token cs = t;
      cs.cat = Cat::control;
      cs.text = name;
      push_back(std::move(cs));
      return;
    }
    if (x.cat == Cat::control) {
      const Meaning* m = env_.find(x.text);
      if (m && m->kind == Meaning::Kind::macro) {
        if (!expand_macro(x, *m)) return;
        continue;
      }
      if (x.text == "relax") continue;
    }
    if (x.cat == Cat::marker) {
      push_back(x);
      break;
    }
    name += x.cat == Cat::control ? "\\" + x.text : x.text;
  }
  fatal("unterminated", "\\csname without \\endcsname", t);
}

void Expander::p_expandafter(const Token&) {
  Token a, b;
  if (!next_raw(a)) return;
  if (!next_raw(b)) {
    push_back(std::move(a));
    return;
  }
  if (b.cat == Cat::control) {
    const Meaning* m = env_.find(b.text);
    if (m && m->kind == Meaning::Kind::macro) {
      if (expand_macro(b, *m)) {
        push_back(std::move(a));
        return;
      }
    } else if (b.text == "csname" || b.text == "the" || b.text == "expandafter") {
      // Expand the second token once by running the primitive, then put the first back.
      auto p = primitives_.find(b.text);
      (this->*(p->second))(b);
      if (pending_out_) {
        push_back(std::move(*pending_out_));
        pending_out_.reset();
      }
      push_back(std::move(a));
      return;
    }
  }
  push_back(std::move(b));
  push_back(std::move(a));
}

void Expander::p_noexpand(const Token&) {
  Token n;
  if (next_raw(n)) pending_out_ = std::move(n);
}

// ---------------------------------------------------------------------------------------------
// pgfmath commands (pgfmanual 94.1)

void Expander::pgfmath_define(const Token& t, int mode) {
  std::string name = "pgfmathresult";
  Token nt = t;
  if (mode != 3 && !read_cs_name(t, name, nt)) return;
  TokenList expr;
  if (!read_group_raw(expr, t)) return;
  bool len = false;
  std::string text;
  auto v = evaluate(expr, t, len, &text);
  if (!v) return;
  switch (mode) {
    case 1: text = std::to_string(static_cast<long long>(std::trunc(*v))); break;
    case 2: text = pgfmath::format_number(*v) + "pt"; break;
    default: break;  // \pgfmathresult as pgf leaves it: "3" for `3`, "1" for `1<2`, "3.0" for `1+2`
  }
  auto m = std::make_shared<Meaning>();
  m->body = string_tokens(text, t);
  define(name, m, false);
}

void Expander::p_pgfmathsetmacro(const Token& t) { pgfmath_define(t, 0); }
void Expander::p_pgfmathtruncatemacro(const Token& t) { pgfmath_define(t, 1); }
void Expander::p_pgfmathsetlengthmacro(const Token& t) { pgfmath_define(t, 2); }
void Expander::p_pgfmathparse(const Token& t) { pgfmath_define(t, 3); }

// \tikzmath{...} (tikzlibrarymath.code.tex): declarations `integer \a, \b;` / `real \c;` and
// assignments `\a = expr;` define \a as \pgfmathparse leaves it (\tikz@math@assign: an integer
// variable truncated, as \pgfmathtruncatemacro), `let \a = text;` as the text. Loops,
// conditionals, functions, coordinates, arrays and printing are not followed: the first such
// statement is one unsupported-construct and the statements after it are not run (what they
// assign may depend on it), so their variables stay undefined rather than wrong.
void Expander::p_tikzmath(const Token& t) {
  TokenList body;
  if (!read_group_raw(body, t)) return;
  for (TokenList st : split_top(body, ';')) {
    st = trim_tokens(std::move(st));
    if (st.empty()) continue;
    std::string keyword;
    std::size_t i = 0;
    while (i < st.size() && st[i].cat == Cat::letter) keyword += st[i++].text;
    auto names_after = [&](std::size_t from) {
      std::vector<std::string> names;
      for (std::size_t k = from; k < st.size(); ++k)
        if (st[k].cat == Cat::control) names.push_back(st[k].text);
      return names;
    };
    if (keyword == "integer" || keyword == "int") {
      for (auto& n : names_after(i)) tikzmath_integers_.insert(n);
      continue;
    }
    if (keyword == "real") {
      for (auto& n : names_after(i)) tikzmath_integers_.erase(n);
      continue;
    }
    std::size_t k = keyword == "let" ? i : 0;
    while (k < st.size() && st[k].cat == Cat::space) ++k;
    std::size_t eq = k + 1;
    while (eq < st.size() && st[eq].cat == Cat::space) ++eq;
    const bool assignment = (keyword.empty() || keyword == "let") && k < st.size() && st[k].cat == Cat::control &&
                            eq < st.size() && st[eq].is_char('=');
    if (!assignment) {
      diagnose("unsupported-construct", Severity::warning,
               "\\tikzmath statement '" + trim(to_string(st)) +
                   "' is not followed; the statements after it in this \\tikzmath are not run",
               t);
      return;
    }
    const std::string name = st[k].text;
    TokenList value(st.begin() + static_cast<std::ptrdiff_t>(eq) + 1, st.end());
    auto m = std::make_shared<Meaning>();
    if (keyword == "let") {
      m->body = expand_fully(trim_tokens(std::move(value)));
    } else {
      bool len = false;
      std::string text;
      auto v = evaluate(value, t, len, &text);
      if (!v) return;  // reported by evaluate
      if (tikzmath_integers_.contains(name)) text = std::to_string(static_cast<long long>(std::trunc(*v)));
      m->body = string_tokens(text, t);
    }
    define(name, m, false);
  }
}

// \pgfmathdivide{x}{y} and kin: each argument is an expression, the result goes to \pgfmathresult
// (pgfmathfunctions.*.code.tex: \pgfmathdeclarefunction makes \pgfmath<name> read as many groups
// as the function takes; \pgfmathlessthan and \pgfmathgreaterthan are \let to less, greater).
void Expander::p_pgfmathfunction(const Token& t) {
  std::string_view f = std::string_view(t.text).substr(7);  // after "pgfmath"
  if (f == "lessthan") f = "less";
  else if (f == "greaterthan") f = "greater";
  else if (f == "atantwo") f = "atan2";
  const std::optional<int> arity = pgfmath::function_arity(f);
  if (!arity || *arity < 1) return;  // the table below names fixed-arity functions only
  TokenList expr = string_tokens(std::string(f) + "((", t);
  for (int i = 0; i < *arity; ++i) {
    TokenList arg;
    if (!read_group_raw(arg, t)) return;
    if (i > 0) for (Token& c : string_tokens("),(", t)) expr.push_back(std::move(c));
    for (Token& c : arg) expr.push_back(std::move(c));
  }
  for (Token& c : string_tokens("))", t)) expr.push_back(std::move(c));
  bool len = false;
  std::string text;
  if (!evaluate(expr, t, len, &text)) return;
  auto m = std::make_shared<Meaning>();
  m->body = string_tokens(text, t);
  define("pgfmathresult", m, false);
}

// tkz-euclide's \tkzGetAngle{name}, \tkzGetLength{name}, \tkzGetResult{name}: a global \edef of
// \name to the value the last \tkzFindAngle / \tkzCalcLength / ... left in \tkzAngleResult,
// \tkzLengthResult or \tkzMathResult (tkz-tools-eu-angles.tex, tkz-tools-eu-math.tex). The value is
// computed by tkz's geometry, which the expander does not run: \name is defined to a result macro,
// undefined here, so text that prints it stays an unknown command (measured with its uncertainty)
// and `\edef\name{\fpeval{round(\name)}}` refers to the result, not to itself.
// Inside a picture, for a name of letters, the result macro is one of that name
// (\tkzLengthResultrAB) and the command stays in the statement (\tkzGetLength{rAB}): the
// tkz-euclide model (packages/tkzeuclide) binds the name to the value of that moment, as the \edef
// does, and reads \tkzLengthResultrAB as it. Other names share \tkzLengthResult (value unknown).
void Expander::p_tkzget(const Token& t) {
  TokenList name_tokens;
  if (!read_group_raw(name_tokens, t)) return;
  std::string name = trim(to_string(name_tokens));
  if (name.empty()) return;
  const char* result = t.text == "tkzGetAngle" ? "tkzAngleResult" : t.text == "tkzGetLength" ? "tkzLengthResult" : "tkzMathResult";
  const bool bound = in_picture_ && std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalpha(static_cast<unsigned char>(c)) != 0;
  });
  Token r = t;
  r.cat = Cat::control;
  r.text = result;
  if (bound) r.text += name;
  auto m = std::make_shared<Meaning>();
  m->body.push_back(r);
  define(name, m, true);
  if (!bound) return;
  TokenList marker = string_tokens("{" + name + "}", t);
  marker.front().cat = Cat::begin_group;
  marker.back().cat = Cat::end_group;
  push_back(std::move(marker));
  pending_out_ = t;  // \tkzGetLength itself, not expanded again
}

// ---------------------------------------------------------------------------------------------
// Conditionals

bool Expander::cond_eval_ifthenelse(const TokenList& cond, const Token& at) {
  // ifthen package: terms joined by \AND / \OR, optionally negated by \NOT; evaluated left to right.
  bool result = false;
  int op = 0;  // 0 first, 1 and, 2 or
  std::size_t i = 0;
  auto next_group = [&](TokenList& g) {
    while (i < cond.size() && cond[i].cat == Cat::space) ++i;
    if (i >= cond.size()) return false;
    if (cond[i].cat != Cat::begin_group) {
      g.push_back(cond[i++]);
      return true;
    }
    int depth = 0;
    for (; i < cond.size(); ++i) {
      if (cond[i].cat == Cat::begin_group && depth++ == 0) continue;
      if (cond[i].cat == Cat::end_group && --depth == 0) {
        ++i;
        return true;
      }
      g.push_back(cond[i]);
    }
    return true;
  };
  while (i < cond.size()) {
    bool negate = false;
    while (i < cond.size() && (cond[i].cat == Cat::space || cond[i].is_cs("NOT") || cond[i].is_cs("not") ||
                               cond[i].is_cs("(") || cond[i].is_cs(")"))) {
      if (cond[i].is_cs("NOT") || cond[i].is_cs("not")) negate = !negate;
      ++i;
    }
    if (i >= cond.size()) break;
    bool term = false;
    if (cond[i].is_cs("equal")) {
      ++i;
      TokenList a, b;
      next_group(a);
      next_group(b);
      term = trim(to_string(expand_fully(a))) == trim(to_string(expand_fully(b)));
    } else if (cond[i].is_cs("isodd")) {
      ++i;
      TokenList a;
      next_group(a);
      bool len = false;
      auto v = evaluate(a, at, len);
      term = v && (std::llabs(std::llround(*v)) % 2 == 1);
    } else if (cond[i].is_cs("boolean")) {
      ++i;
      TokenList a;
      next_group(a);
      term = false;
    } else {
      TokenList num;
      while (i < cond.size() && !cond[i].is_cs("AND") && !cond[i].is_cs("OR") && !cond[i].is_cs("and") &&
             !cond[i].is_cs("or") && !cond[i].is_cs(")"))
        num.push_back(cond[i++]);
      std::string s = to_string(expand_fully(num));
      auto rel = s.find_first_of("<>=");
      if (rel == std::string::npos) {
        diagnose("syntax-error", Severity::error, "cannot read the \\ifthenelse condition '" + trim(s) + "'", at);
        return false;
      }
      pgfmath::Context ctx;
      auto l = pgfmath::evaluate(trim(s.substr(0, rel)), ctx);
      auto r = pgfmath::evaluate(trim(s.substr(rel + 1)), ctx);
      if (!l || !r) {
        diagnose("math-error", Severity::error, "cannot evaluate the \\ifthenelse condition '" + trim(s) + "'", at);
        return false;
      }
      double a = l.value->number, b = r.value->number;
      term = s[rel] == '<' ? a < b : s[rel] == '>' ? a > b : std::fabs(a - b) < 1e-9;
    }
    if (negate) term = !term;
    result = op == 0 ? term : op == 1 ? (result && term) : (result || term);
    while (i < cond.size() && (cond[i].cat == Cat::space || cond[i].is_cs(")"))) ++i;
    if (i < cond.size()) {
      if (cond[i].is_cs("AND") || cond[i].is_cs("and")) op = 1, ++i;
      else if (cond[i].is_cs("OR") || cond[i].is_cs("or")) op = 2, ++i;
      else break;
    }
  }
  return result;
}

void Expander::p_ifthenelse(const Token& t) {
  TokenList cond, yes, no;
  if (!read_group_raw(cond, t) || !read_group_raw(yes, t) || !read_group_raw(no, t)) return;
  push_back(cond_eval_ifthenelse(cond, t) ? std::move(yes) : std::move(no));
}

void Expander::skip_conditional(bool to_else) {
  int level = 0;
  Token t;
  while (next_raw(t)) {
    if (t.cat == Cat::marker) {
      push_back(t);
      return;
    }
    if (t.cat != Cat::control) continue;
    if (is_conditional(t.text)) {
      ++level;
    } else if (t.text == "fi") {
      if (level == 0) return;
      --level;
    } else if (t.text == "else" && level == 0 && to_else) {
      conditionals_.push_back(1);
      return;
    }
  }
}

// An \ifnum/\ifdim whose operands cannot be read. On a macro without a meaning here (pgfplots'
// \pgfplotspointmetatransformed in a `scatter/@pre marker code/.code`, \coordindex in an
// `x filter/.code`: code the expander reads where it is written, TeX runs it where the macro is
// defined) the comparison is unknown, not wrong; otherwise TeX stops with "Missing number".
void Expander::undecided_comparison(const Token& t) {
  if (!scan_undefined_.empty())
    diagnose("unsupported-construct", Severity::warning,
             "\\" + t.text + " on \\" + scan_undefined_ + ", which has no meaning here: the comparison is not evaluated", t);
  else
    diagnose("syntax-error", Severity::error, "cannot read the \\" + t.text + " comparison", t);
}

void Expander::p_ifnum(const Token& t) {
  scan_undefined_.clear();
  auto a = scan_int(t);
  skip_spaces();
  Token rel;
  next_raw(rel);
  auto b = scan_int(t);
  bool ok = a && b && (rel.is_char('<') || rel.is_char('>') || rel.is_char('='));
  bool v = ok && (rel.is_char('<') ? *a < *b : rel.is_char('>') ? *a > *b : *a == *b);
  if (!ok) undecided_comparison(t);
  if (v) conditionals_.push_back(1);
  else skip_conditional(true);
}

void Expander::p_ifdim(const Token& t) {
  scan_undefined_.clear();
  auto a = scan_dimen(t);
  skip_spaces();
  Token rel;
  next_raw(rel);
  auto b = scan_dimen(t);
  bool ok = a && b && (rel.is_char('<') || rel.is_char('>') || rel.is_char('='));
  bool v = ok && (rel.is_char('<') ? *a < *b : rel.is_char('>') ? *a > *b : std::fabs(*a - *b) < 1e-9);
  if (!ok) undecided_comparison(t);
  if (v) conditionals_.push_back(1);
  else skip_conditional(true);
}

void Expander::p_ifx(const Token&) {
  Token a, b;
  if (!next_raw(a) || !next_raw(b)) return;
  auto meaning_of = [&](const Token& x) -> const Meaning* {
    return x.cat == Cat::control || x.cat == Cat::active ? env_.find(x.text) : nullptr;
  };
  const Meaning* ma = meaning_of(a);
  const Meaning* mb = meaning_of(b);
  bool same;
  if (ma && mb) {
    same = ma == mb || (ma->kind == mb->kind && ma->arity == mb->arity &&
                        to_string(ma->body) == to_string(mb->body) && to_string(ma->params) == to_string(mb->params) &&
                        ma->dimen_pt == mb->dimen_pt && ma->count == mb->count);
  } else if (!ma && !mb) {
    same = a.cat == b.cat && a.text == b.text;
  } else {
    same = false;
  }
  if (same) conditionals_.push_back(1);
  else skip_conditional(true);
}

void Expander::p_iftrue(const Token&) { conditionals_.push_back(1); }
void Expander::p_iffalse(const Token&) { skip_conditional(true); }

void Expander::p_else(const Token&) {
  // Reached at the end of a true branch: skip the false branch.
  if (!conditionals_.empty()) conditionals_.pop_back();
  skip_conditional(false);
}

void Expander::p_fi(const Token&) {
  if (!conditionals_.empty()) conditionals_.pop_back();
}

// ---------------------------------------------------------------------------------------------
// Classes and packages

void Expander::record_class_options(const TokenList& opts) {
  for (const TokenList& item : split_top(opts, ',')) {
    std::string o = trim(to_string(item));
    if (o.size() > 2 && o.compare(o.size() - 2, 2, "pt") == 0) {
      char* end = nullptr;
      double v = std::strtod(o.c_str(), &end);
      if (end == o.c_str() + o.size() - 2 && v > 0) doc_.base_font_size_pt = v;
    }
  }
}

void Expander::p_documentclass(const Token& t) {
  TokenList opts, name;
  bool present = false;
  if (!read_optional_raw(opts, t, present) || !read_group_raw(name, t)) return;
  std::string n = trim(to_string(name));
  if (class_seen_) {
    record_class_options(opts);
    load_file(t, n, ".cls", true);
    return;
  }
  class_seen_ = true;
  doc_.document_class = n;
  for (const TokenList& item : split_top(opts, ',')) {
    std::string o = trim(to_string(item));
    if (!o.empty()) doc_.class_options.push_back(o);
  }
  record_class_options(opts);
  // A class read before for the same options and search path: reuse its definitions.
  std::string key;
  bool clean = cache && inputs_.size() == 1 && env_.depth() == 0 && conditionals_.empty() && loops_.empty() &&
               user_macros_.empty() && doc_.preamble_styles.empty();
  if (clean) {
    // The directory the class is searched from: the path up to its last '/' (lexically; two
    // spellings of one directory only miss the cache).
    const std::string& input_path = sm_.get(input_).path();
    const std::size_t slash = input_path.rfind('/');
    key = n + '\x1f' + to_string(opts) + '\x1f' +
          (slash == std::string::npos ? std::string() : input_path.substr(0, slash + 1));
    for (const auto& d : include_dirs_) key += '\x1f' + d;
    for (const auto& d : allow_read_) key += "\x1f+" + d;
    if (auto snap = cache->find(key); snap && restore_snapshot(*snap, t)) return;
  }
  snapshot_diags_ = doc_.diagnostics.size();
  snapshot_styles_ = doc_.preamble_styles.size();
  snapshot_steps_ = steps_;
  bool loaded = load_file(t, n, ".cls", true);
  if (clean && loaded) {
    snapshot_key_ = key;
    snapshot_depth_ = inputs_.size();
  }
}

void Expander::take_snapshot() {
  std::string key = std::move(snapshot_key_);
  snapshot_key_.clear();
  if (stopped_ || inputs_.size() != 1 || env_.depth() != 0 || !conditionals_.empty() || !loops_.empty()) return;
  auto s = std::make_shared<ClassSnapshot>();
  s->input = input_;
  for (std::size_t id = first_file_; id < sm_.size(); ++id) {
    const SourceFile& f = sm_.get(static_cast<FileId>(id));
    s->files.push_back({static_cast<FileId>(id), f});
  }
  s->table = std::make_shared<const std::unordered_map<std::string, MeaningPtr>>(env_.table());
  s->user_macros = user_macros_.all();
  s->loaded_files = loaded_files_.all();
  s->missing_notes = missing_notes_.all();
  s->key_code = key_code_;
  s->document_class = doc_.document_class;
  s->class_options = doc_.class_options;
  s->base_font_size_pt = doc_.base_font_size_pt;
  s->tikz_libraries = doc_.tikz_libraries;
  s->packages = doc_.packages;
  s->preamble_styles.assign(doc_.preamble_styles.begin() + static_cast<long>(snapshot_styles_),
                            doc_.preamble_styles.end());
  auto styles = std::make_shared<StyleTable>();
  for (const Statement& st : s->preamble_styles) styles->run_tikzset(st.text, nullptr);
  s->preamble_table = std::move(styles);
  s->diagnostics.assign(doc_.diagnostics.begin() + static_cast<long>(snapshot_diags_), doc_.diagnostics.end());
  s->frames = frames_.all();
  s->loop_nodes = loop_nodes_;
  s->steps = steps_ - snapshot_steps_;
  cache->put(key, std::move(s));
}

bool Expander::restore_snapshot(const ClassSnapshot& s, const Token& at) {
  std::unordered_map<FileId, FileId> remap;
  remap[s.input] = input_;
  bool identity = s.input == input_;
  for (const auto& f : s.files) {
    FileId id = sm_.add(f.file);
    remap[f.id] = id;
    identity = identity && id == f.id;
  }
  auto fix = [&](FileId& id) {
    auto it = remap.find(id);
    if (it != remap.end()) id = it->second;
  };
  auto fix_tokens = [&](TokenList& l) {
    for (Token& t : l) {
      fix(t.file);
      fix(t.origin_file);
    }
  };
  auto fix_prov = [&](Provenance& p) {
    fix(p.range.file);
    for (auto& m : p.macros) fix(m.call_site.file);
    for (auto& l : p.loops) fix(l.loop_site.file);
  };
  if (identity) {
    env_.replace_table(s.table);
    key_code_ = s.key_code;
  } else {
    std::unordered_map<std::string, MeaningPtr> table;
    for (const auto& [name, m] : *s.table) {
      auto c = std::make_shared<Meaning>(*m);
      fix_tokens(c->params);
      fix_tokens(c->body);
      if (c->optional_default) fix_tokens(*c->optional_default);
      fix(c->alias.file);
      fix(c->alias.origin_file);
      table.emplace(name, std::move(c));
    }
    env_.replace_table(std::make_shared<const std::unordered_map<std::string, MeaningPtr>>(std::move(table)));
    key_code_ = s.key_code;
    for (auto& [k, l] : key_code_) fix_tokens(l);
  }
  if (identity) {
    frames_.replace(s.frames);
  } else {
    auto frames = std::make_shared<FrameTable::Frames>(*s.frames);
    for (auto& f : *frames) fix(f.call_site.file);
    frames_.replace(std::move(frames));
  }
  loop_nodes_ = s.loop_nodes;
  for (auto& l : loop_nodes_)
    for (auto& b : l.bindings) fix(b.loop_site.file);
  user_macros_.replace(s.user_macros);
  loaded_files_.replace(s.loaded_files);
  missing_notes_.replace(s.missing_notes);
  doc_.base_font_size_pt = s.base_font_size_pt;
  doc_.tikz_libraries = s.tikz_libraries;
  doc_.packages = s.packages;
  if (doc_.preamble_styles.empty()) {
    doc_.preamble_table = s.preamble_table;  // the class's statements are in it
  } else {
    for (Statement st : s.preamble_styles) {
      fix_prov(st.prov);
      doc_.preamble_styles.push_back(std::move(st));
    }
  }
  for (Diagnostic d : s.diagnostics) {
    if (d.range.file == s.input) d.range = range_of(at);  // located at that file's \documentclass
    else fix(d.range.file);
    for (auto& n : d.notes) fix(n.range.file);
    doc_.diagnostics.push_back(std::move(d));
  }
  steps_ += s.steps;
  return true;
}

void Expander::p_loadclass(const Token& t) {
  TokenList opts, name;
  bool present = false;
  if (!read_optional_raw(opts, t, present) || !read_group_raw(name, t)) return;
  record_class_options(opts);
  load_file(t, trim(to_string(name)), ".cls", true);
}

void Expander::p_usepackage(const Token& t) {
  TokenList opts, names;
  bool present = false;
  if (!read_optional_raw(opts, t, present) || !read_group_raw(names, t)) return;
  skip_date_option();
  auto list = split_top(names, ',');
  // Load in reverse push order so that the first package is read first.
  for (auto it = list.rbegin(); it != list.rend(); ++it) {
    std::string n = trim(to_string(*it));
    if (!n.empty()) load_file(t, n, ".sty", true);
    if (!n.empty() && !doc_.loads(n)) doc_.packages.push_back({n, trim(to_string(opts))});
    if (n == "tikz-cd") tikzcd_styles(t);
    if (n == "tkz-euclide") tkzeuclide_styles(t);
    if (n == "circuitikz") circuitikz_styles(t, trim(to_string(opts)));
  }
}

// circuitikz's node shape `ground` has the name of a symbol of TikZ's circuits.ee library, whose
// styles the lowering keeps as a fallback for every document (ir/library_keys.cpp): in a document
// that loads circuitikz, `node[ground]` is circuitikz's shape (TikZ's /tikz/.unknown reads a key
// that names a shape as `shape=`; packages/circuitikz models it). Its other names collide with none.
// The symbol families (pgfcirc.defines.tex: `american`, `european`, `cute` and their `american
// resistors`... parts), the voltage styles (`straight voltages`, `raised voltages`) and `voltage
// dir` choose which drawing a component or its voltage gets: the same size for resistors and
// sources; the inductors and the voltages differ, and packages/circuitikz reads those keys from
// the picture's and scopes' options as written (Package::remember_options). For TikZ's own keys
// they are nothing.
void Expander::circuitikz_styles(const Token& t, std::string_view options) {
  if (circuitikz_styles_done_) return;
  circuitikz_styles_done_ = true;
  std::string defs = "ground/.style={shape=ground}";
  for (const char* family : {"american", "european", "cute"}) {
    // pgfcirc.defines.tex: `american` and `european` take their own ports, `cute` the american ones
    defs += std::string(",") + family + "/.style={" + (family[0] == 'e' ? "european" : "american") + " ports}";
    for (const char* part : {"resistors", "inductors", "voltages", "currents"})
      defs += std::string(",") + family + " " + part + "/.style={}";
  }
  // the logic ports' generic names (`and port`...) are styles that the logic ports family in force
  // points at its shapes (pgfcirctripoles.tex `logic ports/<family>/.code`); `american ports`,
  // `european ports` and `ieee ports` set that family where they are used
  for (const char* family : {"american", "european", "ieee"})
    defs += std::string(",") + family + " ports/.style={" + circuitikz_port_styles(family) + "}";
  defs += "," + circuitikz_port_styles(circuitikz_ports_family(options));
  defs += ",straight voltages/.style={},raised voltages/.style={},voltage dir/.style={}";
  emit_package_styles(defs, t);
}

// The logic ports family circuitikz's options choose: \ExecuteOptions's `americanports`, then
// the given options in the order circuitikz.sty declares them (\ProcessOptions).
std::string circuitikz_ports_family(std::string_view package_options) {
  const std::vector<RawItem> given = split_options(package_options);
  std::string family = "american";
  for (const auto& choice : std::initializer_list<std::pair<std::string_view, const char*>>{
           {"european", "european"}, {"american", "american"}, {"americanport", "american"},
           {"europeanport", "european"}, {"americanports", "american"}, {"europeanports", "european"}})
    if (std::any_of(given.begin(), given.end(), [&](const RawItem& it) { return it.key == choice.first; }))
      family = choice.second;
  return family;
}

// The styles \ctikzset{logic ports=<family>} defines (pgfcirctripoles.tex): each generic port name
// points at the family's shape; american and european share the plain Schmitt shapes.
std::string circuitikz_port_styles(std::string_view family) {
  const std::string prefix = family == "ieee" ? "ieeestd" : std::string(family);
  std::string out;
  for (const char* port : {"and", "or", "xor", "buffer", "not", "nand", "nor", "xnor"})
    out += (out.empty() ? "" : ",") + std::string(port) + " port/.style={shape=" + prefix + " " + port + " port}";
  if (family == "ieee") out += ",schmitt port/.style={shape=ieeestd schmitt port},invschmitt port/.style={shape=ieeestd invschmitt port}";
  else out += ",schmitt port/.style={shape=schmitt},invschmitt port/.style={shape=invschmitt}";
  return out;
}

// The styles tkz-euclide defines (tkz-euclide.cfg, version 4.25c), which its commands draw with
// (packages/tkzeuclide): points are filled circles of 2pt, labels below their point in
// \normalsize, lines 0.2pt with round caps. line style's `add = .2 and .2` (how far a line runs
// past its points) is tkz's own key, applied by packages/tkzeuclide itself, not a /tikz key here.
// The axes of \tkzDrawX / \tkzDrawY (tkz-obj-eu-axesmin.tex) draw with xaxe style / yaxe style and
// label with xlabel style / ylabel style. Also the cfg's other plain styles: rep, arrow coord,
// vector, the coordinate labels' xcoord / ycoord styles (filled with the background colour), and
// `\tikzset{help lines/.style=teal!30,ultra thin}`, which redefines help lines as the colour alone
// (their width is then the default 0.4pt) and runs `ultra thin` outside any picture. `tkz arrow=
// <tip>[ at <pos>]` (a .code key that appends ` at .5` when no position is given) is the same as a
// style that adds ` at .5 at` and reads the tip and the first position with `.style args`: a
// markings decoration with \arrow{tip} at the position, as a postaction.
void Expander::tkzeuclide_styles(const Token& t) {
  if (tkzeuclide_styles_done_) return;
  tkzeuclide_styles_done_ = true;
  std::string defs =
      "point style/.style={draw=black, inner sep=0pt, shape=circle, minimum size=2, fill=black},"
      "label style/.style={below, black, font=\\normalsize},"
      "label angle style/.style={black, font=\\normalsize},"
      "line style/.style={line width=0.2pt, color=black, solid, line cap=round},"
      "circle style/.style={color=black!50, line width=0.2pt, solid},"
      "compass style/.style={color=black!50, line width=0.2pt, solid},"
      "arc style/.style={color=black, line width=0.2pt},"
      "xaxe style/.style={>=latex, ->}, yaxe style/.style={>=latex, ->},"
      "xlabel style/.style={below=3pt, inner sep=1pt, outer sep=0pt},"
      "ylabel style/.style={left=3pt, inner sep=1pt, outer sep=0pt},"
      "label circle style/.style={color=black}, rep style/.style={->, >=latex},"
      "arrow coord style/.style={dashed, black, >=latex', ->}, vector style/.style={>=Latex, ->},"
      "xcoord style/.style={black, font=\\normalsize, text height=1ex, inner sep=0pt, outer sep=0pt, fill=white, below=3pt},"
      "ycoord style/.style={black, font=\\normalsize, text height=1ex, inner sep=0pt, outer sep=0pt, fill=white, left=3pt},"
      "help lines/.style={teal!30},"
      "tkz arrow/.style={tkz@arrow={#1 at .5 at}}, tkz arrow/.default=Latex,"
      "tkz@arrow/.style args={#1 at #2 at#3}{decoration={markings, mark=at position #2 with {\\arrow{#1}}},"
      " postaction={decorate}}";
  emit_package_styles(defs, t);
}

// The styles tikz-cd defines (tikzlibrarycd.code.tex "Default settings" and "Arrow tip selection
// styles"), in the /tikz terms tikzlint models, for pictures that use them outside a tikzcd
// environment (`[commutative diagrams/every diagram]`, `\path[commutative diagrams/.cd, every
// arrow]`); packages/tikzcd reads every cell / arrow / label / matrix from here too. Tips are
// drawn as tips: a style that changes only the tips' shapes keeps the arrow an arrow.
// A package's \tikzset, made where `\usepackage` (at `t`) loads it.
void Expander::emit_package_styles(const std::string& defs, const Token& t) {
  Statement st;
  st.kind = StatementKind::StyleDef;
  st.text = defs;
  st.origin.assign(defs.size(), t.origin_begin);
  st.prov = provenance(t, t);
  if (on_style) on_style(std::move(st));
}

void Expander::tikzcd_styles(const Token& t) {
  if (tikzcd_styles_done_) return;
  tikzcd_styles_done_ = true;
  std::string defs =
      "commutative diagrams/every diagram/.style={row sep=1.8em, column sep=2.4em, baseline=0pt},"
      "commutative diagrams/every cell/.style={inner xsep=1ex, inner ysep=0.85ex},"
      "commutative diagrams/every matrix/.style={inner sep=0pt},"
      "commutative diagrams/every arrow/.style={draw, line width=0.4pt, ->},"
      "commutative diagrams/every label/.style={auto, font=\\scriptsize, inner sep=0.5ex},"
      "commutative diagrams/description/.style={anchor=center, fill=white},"
      "commutative diagrams/marking/.style={font=, sloped, anchor=center},"
      "commutative diagrams/phantom/.style={draw=none},"
      "commutative diagrams/crossing over/.style={},"
      "commutative diagrams/shorten/.style={shorten <=#1, shorten >=#1},"
      "commutative diagrams/dashed/.style={dashed},"
      "commutative diagrams/double line/.style={double}";
  for (const char* k : {"rightarrow", "dashrightarrow", "rightsquigarrow", "twoheadrightarrow", "rightharpoonup",
                        "rightharpoondown", "two heads", "harpoon", "harpoon'", "to head"})
    defs += std::string(",commutative diagrams/") + k + "/.style={->}";
  for (const char* k : {"leftarrow", "dashleftarrow", "leftsquigarrow", "twoheadleftarrow", "leftharpoonup",
                        "leftharpoondown"})
    defs += std::string(",commutative diagrams/") + k + "/.style={<-}";
  for (const char* k : {"leftrightarrow", "mapsto", "mapsfrom", "hookrightarrow", "hookleftarrow", "rightarrowtail",
                        "leftarrowtail", "leftrightsquigarrow", "hook", "hook'", "tail", "maps to"})
    defs += std::string(",commutative diagrams/") + k + "/.style={<->}";
  for (const char* k : {"dash", "no head", "no tail"}) defs += std::string(",commutative diagrams/") + k + "/.style={-}";
  defs += ",commutative diagrams/equal/.style={double, -},commutative diagrams/equals/.style={double, -}";
  defs += ",commutative diagrams/Rightarrow/.style={double, ->},commutative diagrams/Leftarrow/.style={double, <-}";
  defs += ",commutative diagrams/Leftrightarrow/.style={double, <->},commutative diagrams/Mapsto/.style={double, <->}";
  defs += ",commutative diagrams/Mapsfrom/.style={double, <->}";
  emit_package_styles(defs, t);
}


// `\usepackage{x}[date]`: the date is looked for in the same file only, so that the class
// file ends exactly where its text ends (the snapshot of a class is taken there).
void Expander::skip_date_option() {
  if (inputs_.empty() || !inputs_.back()->reader) {
    TokenList date;
    bool present = false;
    read_optional_raw(date, Token{}, present);
    return;
  }
  Reader& r = *inputs_.back()->reader;
  Token t;
  while (r.next(t, at_letter_)) {
    if (t.cat == Cat::space || t.cat == Cat::par) continue;
    if (t.is_char('[')) {
      while (r.next(t, at_letter_) && !t.is_char(']')) {
      }
      return;
    }
    push_back(std::move(t));
    return;
  }
}

void Expander::p_input(const Token& t) {
  Token n;
  do {
    if (!next_raw(n)) return;
  } while (n.cat == Cat::space);
  std::string name;
  if (n.cat == Cat::begin_group) {
    TokenList g;
    if (!read_balanced(g, t)) return;
    name = trim(to_string(g));
  } else {  // \input file: a word up to a space
    name = n.text;
    Token x;
    while (next_raw(x)) {
      if (x.cat == Cat::space || x.cat == Cat::par) break;
      if (x.cat == Cat::control || x.cat == Cat::marker || x.cat == Cat::begin_group || x.cat == Cat::end_group) {
        push_back(std::move(x));
        break;
      }
      name += x.text;
    }
  }
  load_file(t, name, "", false);
}

// \IfFileExists{file}{then}{else} and \InputIfFileExists{file}{then}{else} (LaTeX's ltfiles):
// the branch by whether the file is found; \InputIfFileExists reads it after `then`. A file the
// read policy refuses counts as absent (and is reported).
void Expander::p_if_file_exists(const Token& t) {
  TokenList name, yes, no;
  if (!read_group_raw(name, t) || !read_group_raw(yes, t) || !read_group_raw(no, t)) return;
  const bool input = t.text == "InputIfFileExists";
  const bool found = load_file(t, trim(to_string(name)), "", input ? Load::always : Load::probe, true);
  push_back(found ? std::move(yes) : std::move(no));
}

void Expander::p_endinput(const Token&) {
  for (auto it = inputs_.rbegin(); it != inputs_.rend(); ++it) {
    if ((*it)->reader) {
      (*it)->reader->end_input();
      return;
    }
  }
}

// A read the policy refuses (support/read_policy.hpp): one warning naming the policy and the
// name as the document wrote it; nothing of the file is read.
void Expander::refuse_read(const Token& at, const std::string& name, ReadRefusal why) {
  Diagnostic d;
  d.rule = "refused-read";
  d.severity = Severity::warning;
  d.message = "refused to read '" + name + "': " + describe(why) + " is outside the read policy";
  d.range = range_of(at);
  d.evidence = {{"path", name}, {"policy", code_of(why)}};
  d.notes.push_back({std::string(ReadGate::summary()) + "; --allow-read DIR widens it", d.range});
  doc_.diagnostics.push_back(std::move(d));
}

bool Expander::load_file(const Token& at, const std::string& name, const char* ext, bool once) {
  return load_file(at, name, ext, once ? Load::once : Load::always, false);
}

bool Expander::load_file(const Token& at, const std::string& name, const char* ext, Load mode, bool quiet) {
  const bool once = mode == Load::once;
  if (ReadRefusal why = gate_->check_name(name); why != ReadRefusal::none) {
    refuse_read(at, name, why);
    return false;
  }
  std::vector<std::string> names;
  std::string e = ext;
  if (!e.empty()) {
    names.push_back(name.size() > e.size() && name.compare(name.size() - e.size(), e.size(), e) == 0 ? name
                                                                                                   : name + e);
  } else {
    names.push_back(name);
    names.push_back(name + ".tex");
  }
  std::vector<fs::path> dirs;
  dirs.push_back(fs::path(sm_.get(input_).path()).parent_path());
  for (const auto& d : include_dirs_) dirs.emplace_back(d);
  std::error_code ec;
  std::string probe;  // the candidate paths, for the batch's memory of searches that failed
  for (const auto& d : dirs)
    for (const auto& n : names) (probe += (d.empty() ? fs::path(n) : d / n).string()) += '\n';
  bool any_file = false;
  const bool known_absent = cache && cache->known_absent(probe);
  for (const auto& d : dirs) {
    if (known_absent) break;
    for (const auto& n : names) {
      fs::path p = d.empty() ? fs::path(n) : d / n;
      if (!fs::is_regular_file(p, ec)) continue;
      any_file = true;
      if (ReadRefusal why = gate_->check_found(p); why != ReadRefusal::none) {
        refuse_read(at, name, why);
        return false;
      }
      if (mode == Load::probe) return true;
      std::string key = fs::weakly_canonical(p, ec).string();
      if (once && loaded_files_.contains(key)) return true;
      if (files_nested_too_deep(at)) return false;
      auto size = fs::file_size(p, ec);
      if (ec || size > limits_.max_input_bytes) {
        diagnose("expansion-limit", Severity::error,
                 "file '" + n + "' is larger than the limit of " + std::to_string(limits_.max_input_bytes) +
                     " bytes",
                 at, {{"limit", limits_.max_input_bytes}, {"name", "max_input_bytes"}});
        return false;
      }
      std::ifstream in(p, std::ios::binary);
      if (!in) continue;
      std::ostringstream ss;
      ss << in.rdbuf();
      loaded_files_.insert(key);
      FileId id = sm_.add(p.string(), ss.str());
      bool at_letter = e == ".cls" || e == ".sty" ? true : at_letter_;
      push_file(id, at_letter);
      return true;
    }
  }
  if (!any_file && cache) cache->note_absent(probe);
  if (!any_file)
    for (const auto& n : names)
      if (const BundledFile* b = find_bundled(n)) return load_bundled(at, *b, mode);
  if (!quiet && !quiet_when_missing(names.front()) && missing_notes_.insert(names.front())) {
    Diagnostic d;
    d.rule = "missing-file";
    d.severity = Severity::note;
    d.message = "'" + names.front() + "' was not found; its definitions are not read";
    d.range = range_of(at);
    d.evidence = {{"file", names.front()}};
    doc_.diagnostics.push_back(std::move(d));
  }
  return false;
}

// Another file opened now would nest files deeper than 32 levels (an \input loop): a fatal error.
bool Expander::files_nested_too_deep(const Token& at) {
  std::size_t files = 0;
  for (const auto& in : inputs_) files += in->reader ? 1 : 0;
  if (files < 32) return false;
  fatal("expansion-limit", "files nested deeper than 32 levels (\\input loop?)", at, {{"limit", 32}});
  return true;
}

// A package tikzlint ships (tex/bundled.hpp), read as TeX reads the installed one.
bool Expander::load_bundled(const Token& at, const BundledFile& b, Load mode) {
  if (mode == Load::probe) return true;
  const std::string key = "<bundled>/" + std::string(b.name);
  if (mode == Load::once && loaded_files_.contains(key)) return true;
  if (files_nested_too_deep(at)) return false;
  loaded_files_.insert(key);
  const bool package = b.name.ends_with(".sty") || b.name.ends_with(".cls");
  push_file(sm_.add(key, std::string(b.text)), package ? true : at_letter_);
  return true;
}

void Expander::p_skip_args(const Token& t) {
  auto [code, after] = skipped_.at(t.text);
  int before = code / 100, mandatory = code % 100;
  if (peek_char('*') && t.text == "DeclareOption") mandatory = 1;
  TokenList scratch;
  bool present = false;
  for (int i = 0; i < before; ++i)
    if (!read_optional_raw(scratch, t, present)) return;
  for (int i = 0; i < mandatory; ++i) {
    scratch.clear();
    if (!read_group_raw(scratch, t)) return;
  }
  if (t.text == "usetikzlibrary") {
    // the names, comma separated (`{calc, positioning}`; a group's braces are in `scratch`)
    std::string names;
    for (const Token& x : scratch)
      if (x.cat != Cat::begin_group && x.cat != Cat::end_group) names += x.cat == Cat::space ? " " : x.text;
    std::size_t at = 0;
    while (at <= names.size()) {
      std::size_t comma = names.find(',', at);
      std::string name = trim(names.substr(at, comma == std::string::npos ? std::string::npos : comma - at));
      if (!name.empty() && std::find(doc_.tikz_libraries.begin(), doc_.tikz_libraries.end(), name) ==
                               doc_.tikz_libraries.end()) {
        // tikzlibrarybackgrounds.code.tex, when it is loaded: \pgfsetlayers{background,main}
        if (name == "backgrounds") set_layers("background,main");
        doc_.tikz_libraries.push_back(std::move(name));
      }
      if (comma == std::string::npos) break;
      at = comma + 1;
    }
  }
  if (t.text == "pgfsetlayers") {
    // pgfcorelayers.code.tex \pgf@dosetlayer: the names, comma separated, each trimmed
    std::string names, list;
    for (const Token& x : expand_fully(scratch))
      if (x.cat != Cat::begin_group && x.cat != Cat::end_group) names += x.cat == Cat::space ? " " : x.text;
    std::size_t at = 0;
    while (at <= names.size()) {
      std::size_t comma = names.find(',', at);
      std::string name = trim(names.substr(at, comma == std::string::npos ? std::string::npos : comma - at));
      if (!name.empty()) list += (list.empty() ? "" : ",") + name;
      if (comma == std::string::npos) break;
      at = comma + 1;
    }
    set_layers(list);
  }
  for (int i = 0; i < after; ++i) {
    scratch.clear();
    if (!read_optional_raw(scratch, t, present)) return;
  }
}

// ---------------------------------------------------------------------------------------------
// Full expansion (\edef) and style-body expansion (user macros only).

TokenList Expander::expand_fully(TokenList tokens) {
  TokenList out;
  if (stopped_) return out;
  out.reserve(tokens.size());  // most of what is expanded comes out at least as long
  Token mk;
  mk.cat = Cat::marker;
  mk.marker_id = next_marker_++;
  push_back(mk);
  push_back(std::move(tokens));
  ++collecting_;
  bool saved_last = last_out_digit_;
  last_out_digit_ = m_value_needs_star(Token{});
  Token t;
  while (next(t)) {
    if (t.cat == Cat::marker && t.marker_id == mk.marker_id) break;
    if (t.cat == Cat::marker) continue;
    out.push_back(std::move(t));
  }
  last_out_digit_ = saved_last;
  --collecting_;
  return out;
}

TokenList Expander::expand_style(TokenList tokens) {
  static const std::unordered_set<std::string> defining = {
      "def", "gdef", "edef", "xdef", "let", "pgfmathsetmacro", "pgfmathtruncatemacro",
      "pgfmathsetlengthmacro", "newcommand", "renewcommand", "providecommand", "newlength",
      "setlength", "addtolength", "newdimen", "global", "foreach", "pgfmathparse"};
  TokenList out;
  if (stopped_) return out;
  Token mk;
  mk.cat = Cat::marker;
  mk.marker_id = next_marker_++;
  push_back(mk);
  push_back(std::move(tokens));
  Token t;
  while (next_raw(t)) {
    if (t.cat == Cat::marker) {
      if (t.marker_id == mk.marker_id) break;
      continue;
    }
    if (t.cat == Cat::control) {
      const Meaning* m = env_.find(t.text);
      if (m && m->kind == Meaning::Kind::macro) {
        if (expand_macro(t, *m)) continue;
      } else if (m && (m->kind == Meaning::Kind::dimen || m->kind == Meaning::Kind::count)) {
        std::string v = m->kind == Meaning::Kind::dimen ? format_dimen(m->dimen_pt) : std::to_string(m->count);
        if (!out.empty() && m_value_needs_star(out.back())) v = "*" + v;
        TokenList vt = string_tokens(v, t);
        out.insert(out.end(), vt.begin(), vt.end());
        continue;
      } else if (m && m->kind == Meaning::Kind::alias) {
        Token a = m->alias;
        a.origin_file = t.origin_file;
        a.origin_begin = t.origin_begin;
        a.origin_end = t.origin_end;
        out.push_back(std::move(a));
        continue;
      }
      if (defining.count(t.text)) {  // keep the defined name as it is
        out.push_back(t);
        Token n;
        if (next_raw(n)) {
          if (n.cat == Cat::marker && n.marker_id == mk.marker_id) break;
          out.push_back(std::move(n));
        }
        continue;
      }
    }
    out.push_back(std::move(t));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// \tikzset and \tikzstyle: one StyleDef statement each; `key/.code` bodies run when the key is set.

namespace {

std::string key_name(const TokenList& key) {
  std::string k = trim(to_string(key));
  if (k.rfind("/tikz/", 0) == 0) k = k.substr(6);
  std::string norm;
  for (char c : k) {
    if (c == ' ' && (norm.empty() || norm.back() == ' ')) continue;
    norm += c;
  }
  return trim(norm);
}

}  // namespace

void Expander::p_tikzset(const Token& t) {
  TokenList body;
  if (!read_group_raw(body, t)) return;
  // pgfkeys processes the list item by item, so a `.code` key set earlier affects later items.
  TokenList out;
  bool first = true;
  for (TokenList& item : split_top(body, ',')) {
    TokenList expanded = expand_style(std::move(item));
    if (stopped_) return;
    // The key: the tokens before the first top-level '='. The value is split out only for a
    // `.code` key or a key that has one (most items are neither).
    std::size_t eq = 0;
    for (int depth = 0; eq < expanded.size(); ++eq) {
      const Token& e = expanded[eq];
      if (e.cat == Cat::begin_group) ++depth;
      if (e.cat == Cat::end_group) --depth;
      if (depth == 0 && e.is_char('=') && e.cat != Cat::param) break;
    }
    std::string key = key_name(TokenList(expanded.begin(), expanded.begin() + static_cast<long>(eq)));
    if (eq < expanded.size() && !key.empty()) {
      const std::string suffix = "/.code";
      const bool code = key.size() > suffix.size() && key.compare(key.size() - suffix.size(), suffix.size(), suffix) == 0;
      auto it = code ? key_code_.end() : key_code_.find(key);
      if (code || it != key_code_.end()) {
        TokenList value = item_value(split_top(expanded, '='), t);
        if (code) key_code_[trim(key.substr(0, key.size() - suffix.size()))] = strip_braces(value);
        else run_key_code(it->second, strip_braces(value), t);
      }
    }
    if (!first) out.push_back(string_tokens(",", t)[0]);
    first = false;
    out.insert(out.end(), std::make_move_iterator(expanded.begin()), std::make_move_iterator(expanded.end()));
  }
  emit_style(t, trim_tokens(std::move(out)));
}

// \tikzdatavisualizationset, \pgfplotsset, \tikzcdset: each is a \tikzset of its own key family,
// written as a \tikzset after `rewrite` has put each top-level item into the /tikz/ names the
// lowering reads (an empty result drops the item). Nothing is emitted when no item is left.
void Expander::tikzset_rewritten(const Token& t, const std::function<TokenList(TokenList item)>& rewrite) {
  TokenList body;
  if (!read_group_raw(body, t)) return;
  TokenList out{group_token(t, true)};
  bool first = true;
  for (TokenList& item : split_top(body, ',')) {
    TokenList it = trim_tokens(std::move(item));
    if (it.empty()) continue;
    TokenList entry = rewrite(std::move(it));
    if (entry.empty()) continue;
    if (!first) out.push_back(string_tokens(",", t)[0]);
    first = false;
    out.insert(out.end(), entry.begin(), entry.end());
  }
  if (first) return;
  out.push_back(group_token(t, false));
  push_back(std::move(out));
  p_tikzset(t);
}

Token Expander::group_token(const Token& at, bool open) const {
  Token g = at;
  g.cat = open ? Cat::begin_group : Cat::end_group;
  g.text = open ? "{" : "}";
  return g;
}

// The value of a `key=value` item split at its top-level `=`: the parts after the first, joined
// by `=` again (a value may hold `=` itself).
TokenList Expander::item_value(const std::vector<TokenList>& kv, const Token& at) const {
  TokenList value;
  for (std::size_t i = 1; i < kv.size(); ++i) {
    if (i > 1) value.push_back(string_tokens("=", at)[0]);
    value.insert(value.end(), kv[i].begin(), kv[i].end());
  }
  return value;
}

// \tikzdatavisualizationset{...} is \pgfqkeys{/tikz/data visualization}{...}: a \tikzset whose
// relative keys live under `data visualization/` (the \datavisualization lowering reads them there).
void Expander::p_tikzdatavisualizationset(const Token& t) {
  tikzset_rewritten(t, [&](TokenList it) {
    if (it.front().text == "/") return it;
    TokenList out = string_tokens("data visualization/", t);
    out.insert(out.end(), it.begin(), it.end());
    return out;
  });
}

// \pgfplotsset{...} sets keys of /pgfplots/ (pgfplots.code.tex). A style definition (`name/.style`,
// `/.append style`, `/.code`...) goes to the style table as \tikzset's do, so an axis expands the
// style by name; a plain key (`width=8cm`, `grid=major`) set outside an axis holds for every axis
// that follows, which is what `every axis/.append style={key}` says (packages/pgfplots applies
// `every axis` before an axis' own options). `compat` goes there too: it selects where pgfplots
// puts the axis labels (labels absolute before 1.3; the axis line styles before and after 1.8).
// So do the code an axis runs at its end (`after end axis/.code`...) and the styles of what it
// draws (`every axis title/.append style`...), which it reads in order with its keys.
void Expander::p_pgfplotsset(const Token& t) {
  tikzset_rewritten(t, [&](TokenList it) {
    auto kv = split_top(it, '=');
    std::string key = trim(to_string(kv[0]));
    if (key.rfind("/pgfplots/", 0) == 0) key = key.substr(10);
    if (key.empty()) return TokenList{};
    TokenList entry = string_tokens(key, t);
    if (kv.size() >= 2) {
      entry.push_back(string_tokens("=", t)[0]);
      TokenList value = item_value(kv, t);
      entry.insert(entry.end(), value.begin(), value.end());
    }
    // the code an axis runs at its end, set here, is every later axis' (the axis reads it in
    // order with its keys, so its own `after end axis/.append code` adds to it)
    bool axis_code = key.rfind("after end axis/.", 0) == 0 || key.rfind("before end axis/.", 0) == 0 ||
                     key.rfind("extra description/.", 0) == 0;
    // so do the styles of what an axis draws (its title, labels, tick labels, legend, `every axis
    // post`): the axis reads them in order with its keys, as pgfplots reads them when it draws
    for (const char* element : {"every axis x label/", "every axis y label/", "every axis z label/", "every axis label/",
                                "every axis title/", "every tick label/", "every x tick label/", "every y tick label/",
                                "every z tick label/", "every axis legend/", "every axis post/"})
      if (key.rfind(element, 0) == 0 && (key.substr(std::strlen(element)) == ".style" ||
                                         key.substr(std::strlen(element)) == ".append style"))
        axis_code = true;
    if (key.find("/.") != std::string::npos && !axis_code) return entry;
    TokenList wrapped = string_tokens("every axis/.append style=", t);
    wrapped.push_back(group_token(t, true));
    wrapped.insert(wrapped.end(), entry.begin(), entry.end());
    wrapped.push_back(group_token(t, false));
    return wrapped;
  });
}

// \tikzcdset{...} is \pgfqkeys{/tikz/commutative diagrams}{...} (tikzlibrarycd.code.tex): a
// \tikzset whose relative keys live under `commutative diagrams/`; its `arrows=`, `labels=`,
// `cells=`, `diagrams=` are `.code`s appending to every arrow / label / cell / diagram.
void Expander::p_tikzcdset(const Token& t) {
  tikzset_rewritten(t, [&](TokenList it) {
    if (it.front().text == "/") return it;
    auto kv = split_top(it, '=');
    const std::string key = key_name(kv[0]);
    static const std::pair<const char*, const char*> kAppend[] = {
        {"arrows", "every arrow"}, {"labels", "every label"}, {"cells", "every cell"}, {"diagrams", "every diagram"}};
    for (const auto& [k, style] : kAppend) {
      if (key == k && kv.size() >= 2) {
        TokenList out = string_tokens(std::string("commutative diagrams/") + style + "/.append style=", t);
        TokenList value = item_value(kv, t);
        out.insert(out.end(), value.begin(), value.end());
        return out;
      }
    }
    TokenList out = string_tokens("commutative diagrams/", t);
    out.insert(out.end(), it.begin(), it.end());
    return out;
  });
}

void Expander::run_key_code(const TokenList& code, const TokenList& value, const Token& at) {
  Meaning m;
  m.arity = 1;
  m.body = parse_body(code, 1);
  std::vector<TokenList> args{value};
  TokenList rep = instantiate(at, m, args, false);
  expand_fully(std::move(rep));  // executes the definitions; the output is dropped
}

void Expander::p_tikzstyle(const Token& t) {
  TokenList name;
  if (!read_group_raw(name, t)) return;
  skip_spaces();
  bool append = peek_char('+');
  if (!peek_char('=')) {
    diagnose("syntax-error", Severity::error, "\\tikzstyle needs '=[...]'", t);
    return;
  }
  TokenList opts;
  bool present = false;
  if (!read_optional_raw(opts, t, present)) return;
  TokenList body = trim_tokens(std::move(name));
  TokenList mid = string_tokens(append ? "/.append style=" : "/.style=", t);
  body.insert(body.end(), mid.begin(), mid.end());
  Token open = t, close = t;
  open.cat = Cat::begin_group;
  open.text = "{";
  close.cat = Cat::end_group;
  close.text = "}";
  body.push_back(open);
  TokenList e = trim_tokens(expand_style(std::move(opts)));
  body.insert(body.end(), e.begin(), e.end());
  body.push_back(close);
  emit_style(t, std::move(body));
}

void Expander::emit_style(const Token& at, TokenList body) {
  Statement st;
  st.kind = StatementKind::StyleDef;
  serialise(body, st.text, &st.origin);
  st.prov = provenance(at, body.empty() ? at : body.back());
  if (on_style) on_style(std::move(st));
}

Provenance Expander::provenance(const Token& first, const Token& last) const {
  Provenance p;
  p.range = range_of(first);
  if (last.origin_file == first.origin_file && last.origin_end > p.range.begin) p.range.end = last.origin_end;
  std::vector<MacroFrame> frames;
  for (std::uint32_t f = first.frame; f != 0; f = frames_[f].parent)
    frames.push_back(MacroFrame{frames_[f].macro, frames_[f].call_site});
  p.macros.assign(frames.rbegin(), frames.rend());
  std::vector<const LoopNode*> loops;
  for (std::uint32_t l = first.loop; l != 0; l = loop_nodes_[l].parent) loops.push_back(&loop_nodes_[l]);
  for (auto it = loops.rbegin(); it != loops.rend(); ++it)
    p.loops.insert(p.loops.end(), (*it)->bindings.begin(), (*it)->bindings.end());
  return p;
}

}  // namespace tikzlint::tex
