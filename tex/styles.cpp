// tex/styles.cpp: pgfkeys styles (pgfmanual 87.4 "Key Handlers") in a scoped table.
#include "tex/styles.hpp"

#include <cctype>
#include <cmath>

#include "support/ascii.hpp"
#include "tex/pgfmath.hpp"

namespace tikzlint::tex {
namespace {

// Where `delim` (the text between two parameters of a `.style args` pattern) first occurs in
// `val` from `pos`, outside braces, as TeX matches delimiter tokens: [begin, end). A run of
// spaces in it matches a run of spaces in `val`.
std::optional<std::pair<std::size_t, std::size_t>> find_delimiter(std::string_view val, std::string_view delim,
                                                                  std::size_t pos) {
  std::string d;
  for (char c : delim) {
    const bool space = is_ascii_space(c);
    if (space && !d.empty() && d.back() == ' ') continue;
    d += space ? ' ' : c;
  }
  int depth = 0;
  for (std::size_t i = pos; i < val.size(); ++i) {
    if (depth == 0) {
      std::size_t j = i;
      bool ok = true;
      for (char c : d) {
        if (c == ' ') {
          if (j >= val.size() || !is_ascii_space(val[j])) ok = false;
          while (ok && j < val.size() && is_ascii_space(val[j])) ++j;
        } else if (j < val.size() && val[j] == c) {
          ++j;
        } else {
          ok = false;
        }
        if (!ok) break;
      }
      if (ok) return std::make_pair(i, j);
    }
    if (val[i] == '{') ++depth;
    else if (val[i] == '}' && depth > 0) --depth;
  }
  return std::nullopt;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_ascii_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_ascii_space(s.back())) s.remove_suffix(1);
  return s;
}

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// Remove TeX comments (% to end of line), keeping \%.
std::string strip_comments(std::string_view s) {
  // Most option texts have no comment: they are their own result.
  if (s.find('%') == std::string_view::npos) return std::string(s);
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size()) {
      out += s[i];
      out += s[++i];
      continue;
    }
    if (s[i] == '%') {
      while (i < s.size() && s[i] != '\n') ++i;
      out += ' ';
      continue;
    }
    out += s[i];
  }
  return out;
}

// The index of the brace matching s[open] == '{', or npos.
std::size_t match_brace(std::string_view s, std::size_t open) {
  int depth = 0;
  for (std::size_t i = open; i < s.size(); ++i) {
    if (s[i] == '\\') {
      ++i;
      continue;
    }
    if (s[i] == '{') ++depth;
    if (s[i] == '}' && --depth == 0) return i;
  }
  return std::string_view::npos;
}

// The handler suffixes we understand, longest first so "/.style n args" wins over "/.style".
constexpr std::string_view kHandlers[] = {
    "/.style n args", "/.style 2 args", "/.style args", "/.code n args", "/.code 2 args", "/.code args",
    "/.append style", "/.prefix style", "/.add style", "/.append code", "/.prefix code", "/.style",
    "/.code",         "/.default",      "/.initial",    "/.store in",    "/.estore in",   "/.is choice",
    "/.is if",        "/.is family",    "/.search also", "/.unknown",    "/.cd",          "/.value required",
    "/.value forbidden", "/.ecode",     "/.estyle",     "/.forward to",  "/.get",         "/.try",
    "/.retry",        "/.list",         "/.belongs to family", "/.tip", "/.pic"};

}  // namespace

std::string strip_braces(std::string_view v) {
  v = trim(v);
  if (v.size() >= 2 && v.front() == '{' && match_brace(v, 0) == v.size() - 1) v = trim(v.substr(1, v.size() - 2));
  return std::string(v);
}

std::string normalise_key(std::string_view key) {
  const std::string_view t = trim(key);
  // Most keys are already normal: single blanks between words, no /tikz/ or /pgf/ prefix.
  bool normal = true;
  for (std::size_t i = 0; i < t.size() && normal; ++i)
    normal = !is_ascii_space(t[i]) || (t[i] == ' ' && !is_ascii_space(t[i + 1]));  // t ends in no blank
  if (normal && !starts_with(t, "/tikz/") && !starts_with(t, "/pgf/")) return std::string(t);
  std::string out;
  bool space = false;
  for (char ch : t) {
    if (is_ascii_space(ch)) {
      space = true;
      continue;
    }
    if (space && !out.empty()) out += ' ';
    space = false;
    out += ch;
  }
  for (std::string_view prefix : {"/tikz/", "/pgf/"}) {
    if (starts_with(out, prefix)) out.erase(0, prefix.size());
  }
  return out;
}

std::vector<RawItem> split_options(std::string_view text) {
  std::vector<RawItem> items;
  int brace = 0, bracket = 0, paren = 0;
  std::size_t start = 0;
  bool in_math = false;
  auto flush = [&](std::size_t end) {
    std::string_view item = text.substr(start, end - start);
    std::size_t lead = 0;
    while (lead < item.size() && is_ascii_space(item[lead])) ++lead;
    std::string_view t = trim(item);
    if (!t.empty()) {
      RawItem r;
      r.begin = static_cast<std::uint32_t>(start + lead);
      r.end = static_cast<std::uint32_t>(r.begin + t.size());
      // first '=' at depth 0 separates key and value
      int b = 0, k = 0;
      std::size_t eq = std::string_view::npos;
      for (std::size_t i = 0; i < t.size(); ++i) {
        char ch = t[i];
        if (ch == '\\') {
          ++i;
          continue;
        }
        if (ch == '{') ++b;
        if (ch == '}') --b;
        if (ch == '[') ++k;
        if (ch == ']') --k;
        if (ch == '=' && b == 0 && k == 0) {
          eq = i;
          break;
        }
      }
      if (eq == std::string_view::npos) {
        r.key = std::string(t);
      } else {
        r.key = std::string(trim(t.substr(0, eq)));
        r.value = strip_braces(t.substr(eq + 1));
        r.has_value = true;
      }
      items.push_back(std::move(r));
    }
    start = end + 1;
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    char ch = text[i];
    if (ch == '\\') {
      ++i;
      continue;
    }
    if (ch == '$') in_math = !in_math;
    if (ch == '{') ++brace;
    if (ch == '}') --brace;
    if (brace == 0 && !in_math) {
      if (ch == '[') ++bracket;
      if (ch == ']') --bracket;
      if (ch == '(') ++paren;
      if (ch == ')') --paren;
    }
    if (ch == ',' && brace <= 0 && bracket <= 0 && paren <= 0 && !in_math) flush(i);
  }
  flush(text.size());
  return items;
}

std::string substitute_args(std::string_view body, const std::vector<std::string>& args) {
  std::string out;
  for (std::size_t i = 0; i < body.size(); ++i) {
    if (body[i] == '#' && i + 1 < body.size()) {
      char n = body[i + 1];
      if (n == '#') {
        out += '#';
        ++i;
        continue;
      }
      if (n >= '1' && n <= '9') {
        std::size_t k = static_cast<std::size_t>(n - '1');
        if (k < args.size()) out += args[k];
        ++i;
        continue;
      }
    }
    out += body[i];
  }
  return out;
}

std::vector<std::string> split_brace_args(std::string_view value, int n) {
  std::vector<std::string> args;
  std::string_view v = trim(value);
  if (n <= 1) {
    args.push_back(strip_braces(v));
    return args;
  }
  std::size_t i = 0;
  while (static_cast<int>(args.size()) < n && i < v.size()) {
    while (i < v.size() && is_ascii_space(v[i])) ++i;
    if (i >= v.size()) break;
    if (v[i] == '{') {
      std::size_t close = match_brace(v, i);
      if (close == std::string_view::npos) close = v.size() - 1;
      args.emplace_back(v.substr(i + 1, close - i - 1));
      i = close + 1;
    } else {
      args.emplace_back(v.substr(i, 1));  // an undelimited argument is one token
      ++i;
    }
  }
  while (static_cast<int>(args.size()) < n) args.emplace_back();
  return args;
}

StyleTable::StyleTable() { scopes_.emplace_back(); }

StyleTable::StyleTable(std::shared_ptr<const StyleTable> base) : base_(std::move(base)) { scopes_.emplace_back(); }

void StyleTable::push() { scopes_.emplace_back(); }
void StyleTable::pop() {
  if (scopes_.size() <= 1) return;
  if (!scopes_.back().styles.empty() || !scopes_.back().macros.empty()) ++generation_;
  scopes_.pop_back();
}

const StyleDefinition* StyleTable::find(const std::string& name) const {
  for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
    auto f = it->styles.find(name);
    if (f != it->styles.end()) return &f->second;
  }
  if (base_)
    if (const StyleDefinition* d = base_->find(name)) return d;
  return fallback_ ? fallback_->find(name) : nullptr;
}

void StyleTable::define(const std::string& name, StyleDefinition def) {
  ++generation_;
  scopes_.back().styles[name] = std::move(def);
}

std::optional<std::string> StyleTable::macro(const std::string& name) const {
  for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
    auto f = it->macros.find(name);
    if (f != it->macros.end()) return f->second;
  }
  return base_ ? base_->macro(name) : std::nullopt;
}

std::string StyleTable::substitute_macros(std::string_view text) const {
  if (text.find('\\') == std::string_view::npos) return std::string(text);  // nothing to replace
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size() && std::isalpha(static_cast<unsigned char>(text[i + 1]))) {
      std::size_t j = i + 1;
      while (j < text.size() && std::isalpha(static_cast<unsigned char>(text[j]))) ++j;
      std::string name(text.substr(i + 1, j - i - 1));
      if (auto m = macro(name)) {
        out += *m;
        i = j - 1;
        continue;
      }
      out.append(text.substr(i, j - i));
      i = j - 1;
      continue;
    }
    out += text[i];
  }
  return out;
}

std::vector<FlatKey> StyleTable::run_tikzset(std::string_view body, std::vector<StyleProblem>* problems) {
  std::string text = strip_comments(body);
  std::string_view t = trim(text);
  for (std::string_view cmd : {"\\tikzset", "\\pgfkeys", "\\pgfset"}) {
    if (starts_with(t, cmd)) {
      std::string_view rest = trim(t.substr(cmd.size()));
      if (!rest.empty() && rest.front() == '{') {
        std::size_t close = match_brace(rest, 0);
        if (close != std::string_view::npos) return expand(rest.substr(1, close - 1), problems);
      }
    }
  }
  if (starts_with(t, "\\tikzstyle")) {
    // \tikzstyle{name}=[opts]  or  \tikzstyle{name}+=[opts]
    std::string_view rest = trim(t.substr(10));
    std::string name;
    bool append = false;
    if (!rest.empty() && rest.front() == '{') {
      std::size_t close = match_brace(rest, 0);
      if (close == std::string_view::npos) return {};
      name = normalise_key(rest.substr(1, close - 1));
      rest = trim(rest.substr(close + 1));
    } else {
      std::size_t eq = rest.find('=');
      name = normalise_key(rest.substr(0, eq == std::string_view::npos ? rest.size() : eq));
      rest = eq == std::string_view::npos ? std::string_view{} : rest.substr(eq);
      if (!name.empty() && name.back() == '+') {
        name.pop_back();
        append = true;
      }
    }
    append = append || starts_with(rest, "+=");
    rest = trim(rest.substr(rest.find('=') == std::string_view::npos ? rest.size() : rest.find('=') + 1));
    std::string value(rest);
    if (!value.empty() && value.front() == '[') {
      std::size_t close = value.rfind(']');
      value = value.substr(1, close == std::string::npos ? std::string::npos : close - 1);
    }
    const StyleDefinition* old = find(name);
    if (append && old) {
      StyleDefinition d = *old;
      d.body = d.body.empty() ? value : d.body + "," + value;
      define(name, std::move(d));
    } else {
      StyleDefinition d;
      d.body = value;
      define(name, std::move(d));
    }
    return {};
  }
  return expand(t, problems);
}

bool StyleTable::defines_nothing() const {
  if (fallback_) return false;
  for (const Scope& sc : scopes_)
    if (!sc.styles.empty() || !sc.macros.empty()) return false;
  return true;
}

StyleTable::KeyList StyleTable::memoised(
    std::unordered_map<std::string, Memo>& memo, std::string key, std::vector<StyleProblem>* problems,
    const std::function<void(std::vector<FlatKey>&, std::vector<StyleProblem>*)>& run) {
  auto add_problems = [&](const std::vector<StyleProblem>& found) {
    if (problems) problems->insert(problems->end(), found.begin(), found.end());
  };
  auto compute = [&] {  // a miss: the expansion, its problems reported
    Memo m;
    std::vector<FlatKey> keys;
    run(keys, &m.problems);
    add_problems(m.problems);
    m.keys = std::make_shared<const std::vector<FlatKey>>(std::move(keys));
    return m;
  };
  if (base_ && defines_nothing()) {  // the base's memo (see SharedMemo)
    SharedMemo& shared = *base_->shared_.memo;
    auto& table = &memo == &memo_ ? shared.options : shared.styles;
    {
      std::lock_guard lock(shared.mutex);
      auto hit = table.find(key);
      if (hit != table.end()) {
        add_problems(hit->second.problems);
        return hit->second.keys;
      }
    }
    const std::uint64_t before = generation_;
    Memo m = compute();
    if (generation_ != before) return m.keys;  // it defined something: not repeatable
    KeyList out = m.keys;
    std::lock_guard lock(shared.mutex);
    if (table.size() >= kMemoLimit) table.clear();
    table.insert_or_assign(std::move(key), std::move(m));
    return out;
  }
  auto hit = memo.find(key);
  if (hit != memo.end() && hit->second.generation == generation_) {
    add_problems(hit->second.problems);
    return hit->second.keys;
  }
  const std::uint64_t before = generation_;
  Memo m = compute();
  if (generation_ != before) return m.keys;  // it defined something: not repeatable
  if (memo.size() >= kMemoLimit) memo.clear();
  m.generation = before;
  return memo.insert_or_assign(std::move(key), std::move(m)).first->second.keys;
}

StyleTable::KeyList StyleTable::expand_shared(std::string_view options, std::vector<StyleProblem>* problems) {
  // The memo key: the option text as given (comments are stripped only on a miss).
  return memoised(memo_, std::string(options), problems, [&](std::vector<FlatKey>& out, std::vector<StyleProblem>* probs) {
    const std::string text = strip_comments(options);
    start_expansion();
    expand_into(text, 0, 0, false, "", 0, out, probs);
  });
}

StyleTable::KeyList StyleTable::expand_style_shared(const std::string& name,
                                                    std::vector<StyleProblem>* problems) {
  static const KeyList kNone = std::make_shared<const std::vector<FlatKey>>();
  if (!find(name)) return kNone;
  return memoised(style_memo_, name, problems, [&](std::vector<FlatKey>& out, std::vector<StyleProblem>* probs) {
    start_expansion();
    expand_into(name, 0, 0, true, "", 0, out, probs);
  });
}

// The styles of what a pgfplots axis draws (pgfplots.code.tex), which the axis reads when it
// draws it: a definition set among an axis' keys or in `every axis` matters in order with them.
constexpr std::string_view kAxisElementStyles[] = {
    "every axis x label", "every axis y label", "every axis z label", "every axis label",   "every axis title",
    "every tick label",   "every x tick label", "every y tick label", "every z tick label", "every axis legend",
    "every axis post"};

// Definitions an expansion passes on as keys (see expand_into), with or without /pgfplots/:
// `/.style` and `/.append style` of kAxisElementStyles, and the code pgfplots runs around an axis
// (`after end axis/.code`, `before end axis/.code`, `extra description/.code` and their
// `/.append code`, `/.prefix code`), which the axis runs at its end.
static bool passed_on_definition(const std::string& key) {
  std::string_view k = key;
  if (k.substr(0, 10) == "/pgfplots/") k.remove_prefix(10);
  for (std::string_view name : kAxisElementStyles)
    if (k.substr(0, name.size()) == name) {
      const std::string_view h = k.substr(name.size());
      if (h == "/.style" || h == "/.append style") return true;
    }
  for (std::string_view name : {"after end axis", "before end axis", "extra description"})
    if (k.substr(0, name.size()) == name) {
      const std::string_view h = k.substr(name.size());
      if (h == "/.code" || h == "/.append code" || h == "/.prefix code") return true;
    }
  return false;
}

bool StyleTable::handle_definition(const RawItem& item, const std::string& key, std::uint32_t b, std::uint32_t e,
                                   std::vector<StyleProblem>* problems) {
  std::size_t slash = key.find("/.");
  if (slash == std::string::npos) return false;
  std::string name = normalise_key(key.substr(0, slash));
  std::string handler = key.substr(slash);
  std::string_view matched;
  for (std::string_view h : kHandlers) {
    if (handler == h || (starts_with(handler, h) && h == "/.unknown")) {
      matched = h;
      break;
    }
  }
  if (matched.empty()) {
    if (problems) problems->push_back({"unsupported-key", "unknown key handler '" + handler + "' on '" + name + "'", b, e});
    return true;
  }
  const std::string& v = item.value;
  const StyleDefinition* old = find(name);
  if (matched == "/.style" || matched == "/.estyle") {
    StyleDefinition d;
    d.body = v;
    if (old) d.default_value = old->default_value;
    define(name, std::move(d));
  } else if (matched == "/.code" || matched == "/.ecode") {
    StyleDefinition d;
    d.body = v;
    d.is_code = true;
    if (old) d.default_value = old->default_value;
    define(name, std::move(d));
  } else if (matched == "/.style n args" || matched == "/.code n args") {
    // value = {n}{body}
    auto parts = split_brace_args(item.value, 2);
    StyleDefinition d;
    d.nargs = std::max(0, std::atoi(parts[0].c_str()));
    d.body = parts[1];
    d.is_code = matched == "/.code n args";
    define(name, std::move(d));
  } else if (matched == "/.style 2 args" || matched == "/.code 2 args") {
    StyleDefinition d;
    d.nargs = 2;
    d.body = v;
    d.is_code = matched == "/.code 2 args";
    define(name, std::move(d));
  } else if (matched == "/.style args" || matched == "/.code args") {
    auto parts = split_brace_args(item.value, 2);
    StyleDefinition d;
    d.arg_pattern = parts[0];
    d.body = parts[1];
    d.nargs = 0;
    for (char ch : parts[0])
      if (ch == '#') ++d.nargs;
    d.is_code = matched == "/.code args";
    define(name, std::move(d));
  } else if (matched == "/.append style" || matched == "/.prefix style" || matched == "/.add style" ||
             matched == "/.append code" || matched == "/.prefix code") {
    StyleDefinition d = old ? *old : StyleDefinition{};
    if (matched == "/.append code" || matched == "/.prefix code") d.is_code = true;
    bool prefix = matched == "/.prefix style" || matched == "/.prefix code";
    if (d.body.empty())
      d.body = v;
    else
      d.body = prefix ? v + "," + d.body : d.body + "," + v;
    if (d.is_code && !(matched == "/.append code" || matched == "/.prefix code") && problems)
      problems->push_back({"unsupported-key", "cannot append a style to the code key '" + name + "'", b, e});
    define(name, std::move(d));
  } else if (matched == "/.default") {
    StyleDefinition d = old ? *old : StyleDefinition{};
    d.default_value = v;
    define(name, std::move(d));
  } else if (matched == "/.initial") {
    StyleDefinition d;
    d.is_code = true;  // a value key: setting it changes nothing geometric we model
    d.body = "";
    define(name, std::move(d));
  } else if (matched == "/.store in" || matched == "/.estore in") {
    StyleDefinition d;
    d.is_code = true;
    d.body = "\\def" + std::string(trim(v)) + "{#1}";
    define(name, std::move(d));
  } else if (matched == "/.pic") {
    // tikz.code.tex /handlers/.pic: NAME/.pic={code} is pics/NAME/.style={code={code}}
    StyleDefinition d;
    d.body = "code={" + v + "}";
    std::string pic = name;
    if (pic.rfind("/tikz/", 0) == 0) pic = pic.substr(6);
    define("pics/" + pic, std::move(d));
  } else if (matched == "/.forward to") {
    StyleDefinition d;
    d.body = normalise_key(v) + "={#1}";
    define(name, std::move(d));
  } else {
    // /.is family, /.cd, /.is choice, /.is if, /.search also, /.unknown...: bookkeeping only.
    // /.tip (pgfmanual 16.3: `foo/.tip=Stealth` names an arrow tip): tips are drawn as their
    // end flags only (the tip's kind does not change the geometry the rules measure).
    if (matched == "/.is choice" || matched == "/.is if") {
      StyleDefinition d;
      d.is_code = true;
      define(name, std::move(d));
    }
  }
  return true;
}

void StyleTable::expand_into(std::string_view options, std::uint32_t base_begin, std::uint32_t base_end,
                             bool use_spans, const std::string& via, int depth, std::vector<FlatKey>& out,
                             std::vector<StyleProblem>* problems) {
  if (stopped_) return;
  if (depth > kMaxDepth) {
    if (!too_deep_ && problems)
      problems->push_back({"expansion-limit", "style expansion deeper than " + std::to_string(kMaxDepth) +
                                                  " levels (recursive style?)",
                           base_begin, base_end});
    too_deep_ = true;
    return;
  }
  std::string cd_path;  // set by `path/.cd`
  for (const RawItem& item : split_options(options)) {
    if (stopped_) return;
    if (out.size() >= kMaxKeys || ++steps_ > kMaxSteps) {
      if (problems)
        problems->push_back({"expansion-limit",
                             out.size() >= kMaxKeys
                                 ? "style expansion gives more than " + std::to_string(kMaxKeys) +
                                       " keys (styles that multiply?)"
                                 : "style expansion takes more than " + std::to_string(kMaxSteps) +
                                       " steps (styles that multiply or use each other in a cycle?)",
                             base_begin, base_end});
      stopped_ = true;
      return;
    }
    std::uint32_t b = use_spans ? base_begin : item.begin;
    std::uint32_t e = use_spans ? base_end : item.end;
    std::string key = normalise_key(item.key);
    if (key.empty()) continue;
    // pgfkeys' `path/.cd`: the list's later relative keys are looked up under `path` first; one
    // not found there is taken as a /tikz key (tikz-cd's `commutative diagrams/.cd, every arrow`:
    // its .unknown handler forwards to /tikz).
    if (key == ".cd" || (key.size() > 4 && key.compare(key.size() - 4, 4, "/.cd") == 0)) {
      cd_path = key.size() > 4 ? key.substr(0, key.size() - 4) : "";
      if (cd_path == "tikz" || cd_path == "/tikz" || cd_path == "pgf" || cd_path == "/pgf") cd_path.clear();
      continue;
    }
    if (!cd_path.empty() && key.front() != '/') {
      const std::string full = cd_path + "/" + key;
      if (key.find("/.") != std::string::npos || find(full) ||
          (item.has_value && find(full + "/" + normalise_key(item.value))))
        key = full;
    }
    if (handle_definition(item, key, b, e, problems)) {
      // pgfplots places an axis label by its `every axis x label` style as it stands when the
      // label is typeset, so a definition set among an axis' keys (`xlabel near ticks` and the
      // axis line keys redefine it) matters in order with them: it is passed on as a key too.
      // So is the code an axis runs at its end (`after end axis/.code`): the axis runs it.
      if (passed_on_definition(key)) {
        FlatKey fk;
        fk.key = key;
        fk.value = item.value;
        fk.has_value = true;
        fk.begin = b;
        fk.end = e;
        fk.via = via;
        out.push_back(std::move(fk));
      }
      continue;
    }

    const StyleDefinition* def = find(key);
    std::string choice_value;
    if (!def && item.has_value) {
      // a choice key: `name=value` where `name/value` is a style
      def = find(key + "/" + normalise_key(item.value));
      if (def) choice_value = item.value;
    }
    if (!def) {
      FlatKey fk;
      fk.key = key;
      fk.value = item.value;
      fk.has_value = item.has_value;
      fk.begin = b;
      fk.end = e;
      fk.via = via;
      out.push_back(std::move(fk));
      continue;
    }
    const std::string style_via = via.empty() ? key : via;
    std::string value = item.has_value && choice_value.empty() ? item.value : def->default_value.value_or("");
    std::vector<std::string> args;
    if (!def->arg_pattern.empty()) {
      // delimited arguments: split the value at the literal text between #i in the pattern
      std::string_view pat = def->arg_pattern;
      std::string_view val = value;
      std::vector<std::string> delims;
      std::string cur;
      for (std::size_t i = 0; i < pat.size(); ++i) {
        if (pat[i] == '#' && i + 1 < pat.size() && std::isdigit(static_cast<unsigned char>(pat[i + 1]))) {
          delims.push_back(cur);
          cur.clear();
          ++i;
        } else {
          cur += pat[i];
        }
      }
      delims.push_back(cur);  // delims[0] before #1, delims[k] between #k and #k+1
      std::size_t pos = std::string_view(val).find(delims[0]) == 0 ? delims[0].size() : 0;
      for (std::size_t k = 1; k < delims.size(); ++k) {
        // TeX reads #k up to the first occurrence of the delimiter's tokens, its spaces included
        // (`{#1 at #2}`: " at ", so "Latex at .5" splits after Latex, not inside it); a space
        // there matches a run of spaces, as the tokenizer makes one space of them. A delimiter
        // not found with its spaces is looked for without them (TeX would stop on it).
        std::string d(trim(delims[k]));
        std::size_t next = val.size(), after = val.size();
        if (!d.empty()) {
          if (auto m = find_delimiter(val, delims[k], pos)) {
            next = m->first, after = m->second;
          } else if (std::size_t at = val.find(d, pos); at != std::string_view::npos) {
            next = at, after = at + d.size();
          }
        }
        args.push_back(strip_braces(val.substr(pos, next - pos)));
        pos = std::min(val.size(), after);
      }
    } else {
      args = split_brace_args(value, def->nargs);
    }
    std::string body = substitute_args(def->body, args);
    if (def->is_code) {
      run_code(body, b, e, style_via, depth + 1, out, problems);
    } else {
      body = substitute_macros(body);
      expand_into(body, b, e, true, style_via, depth + 1, out, problems);
    }
  }
}

namespace {

// pgfmath with one extra form the IM styles use: an array literal indexed, {1,1,-1,-1}[i].
std::optional<std::string> evaluate_to_text(std::string_view expr) {
  std::string_view t = trim(expr);
  if (!t.empty() && t.front() == '{') {
    std::size_t close = match_brace(t, 0);
    if (close != std::string_view::npos) {
      std::string_view rest = trim(t.substr(close + 1));
      if (!rest.empty() && rest.front() == '[' && rest.back() == ']') {
        auto idx = pgfmath::evaluate(rest.substr(1, rest.size() - 2));
        if (!idx) return std::nullopt;
        auto items = split_options(t.substr(1, close - 1));
        long i = std::lround(idx.value->number);
        if (i < 0 || static_cast<std::size_t>(i) >= items.size()) return std::nullopt;
        std::string item = items[static_cast<std::size_t>(i)].key;
        return evaluate_to_text(item);
      }
    }
  }
  auto r = pgfmath::evaluate(t);
  if (!r) return std::nullopt;
  std::string s = pgfmath::format_number(r.value->number);
  if (r.value->is_length) s += "pt";
  return s;
}

}  // namespace

void StyleTable::run_code(const std::string& code_in, std::uint32_t b, std::uint32_t e, const std::string& via,
                          int depth, std::vector<FlatKey>& out, std::vector<StyleProblem>* problems) {
  std::string code = strip_comments(code_in);
  std::string_view s = code;
  std::size_t i = 0;
  auto skip_space = [&] {
    while (i < s.size() && (is_ascii_space(s[i]) || s[i] == ';')) ++i;
  };
  auto read_cs = [&]() -> std::string {  // \name -> "name"
    if (i >= s.size() || s[i] != '\\') return {};
    std::size_t j = i + 1;
    while (j < s.size() && (std::isalpha(static_cast<unsigned char>(s[j])) || s[j] == '@')) ++j;
    if (j == i + 1 && j < s.size()) ++j;
    std::string name(s.substr(i + 1, j - i - 1));
    i = j;
    return name;
  };
  auto read_group = [&]() -> std::optional<std::string> {
    skip_space();
    if (i < s.size() && s[i] == '{') {
      std::size_t close = match_brace(s, i);
      if (close == std::string_view::npos) return std::nullopt;
      std::string g(s.substr(i + 1, close - i - 1));
      i = close + 1;
      return g;
    }
    if (i < s.size() && s[i] == '\\') return "\\" + read_cs();
    return std::nullopt;
  };
  auto fail = [&](const std::string& what) {
    if (problems)
      problems->push_back({"unsupported-key", "cannot run the code of key '" + via + "': " + what, b, e});
  };
  while (true) {
    skip_space();
    if (i >= s.size()) break;
    if (s[i] != '\\') {
      fail("unexpected text '" + std::string(s.substr(i, 20)) + "'");
      return;
    }
    std::size_t at = i;
    std::string cs = read_cs();
    if (cs == "relax" || cs == "global" || cs == "noexpand") continue;
    if (cs == "def" || cs == "gdef" || cs == "edef" || cs == "xdef") {
      skip_space();
      std::string name = read_cs();
      auto body = read_group();
      if (name.empty() || !body) {
        fail("malformed \\" + cs);
        return;
      }
      std::string value = substitute_macros(*body);
      ++generation_;
      (cs == "gdef" || cs == "xdef" ? scopes_.front() : scopes_.back()).macros[name] = value;
      continue;
    }
    if (cs == "pgfmathsetmacro" || cs == "pgfmathtruncatemacro" || cs == "pgfmathsetlengthmacro") {
      auto target = read_group();
      auto expr = read_group();
      if (!target || !expr || target->empty() || (*target)[0] != '\\') {
        fail("malformed \\" + cs);
        return;
      }
      std::string name = target->substr(1);
      auto v = evaluate_to_text(substitute_macros(*expr));
      if (!v) {
        fail("cannot evaluate '" + *expr + "'");
        return;
      }
      if (cs == "pgfmathtruncatemacro") {
        v = std::to_string(static_cast<long>(std::trunc(std::atof(v->c_str()))));
      }
      ++generation_;
      scopes_.back().macros[name] = *v;
      continue;
    }
    if (cs == "tikzset" || cs == "pgfkeysalso" || cs == "pgfkeys" || cs == "pgfset") {
      auto body = read_group();
      if (!body) {
        fail("malformed \\" + cs);
        return;
      }
      expand_into(substitute_macros(*body), b, e, true, via, depth + 1, out, problems);
      continue;
    }
    (void)at;
    fail("command \\" + cs);
    return;
  }
}

}  // namespace tikzlint::tex
