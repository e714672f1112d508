// packages/lsystems/lsystems.cpp: Lindenmayer systems (pgfmanual 57, pgflibrarylindenmayersystems.code.tex
// and tikzlibrarylindenmayersystems.code.tex).
//
//  - \pgfdeclarelindenmayersystem{name}{\symbol{X}{\pgflsystem...} \rule{A -> ...}} declares a
//    system for the rest of the document (pgf's \global\let): kept in the document definitions;
//  - `l-system={...}` / `lindenmayer system={...}` keys (name, axiom, order, step, angle, left/right
//    angle, rule set, anchor) hold in the TeX group they are given in (LibrarySettings::lsystem);
//  - the path operation `lindenmayer system [opts]` (or `l-system`) expands the axiom `order` times
//    by the rules, then traces the turtle from the current point, heading along the x axis: F draws
//    a step forward, f moves, + and - turn by the left and right angle, [ and ] save and restore the
//    position and heading (a restore moves there). pgf moves to the current point, but the turtle
//    starts at the origin of the path's system: the operation is rewritten into a move there and
//    the points the turtle visits, `-- (x,y)` (moves as `(x,y)`), in pt of the path's system.
//  - with `anchor=` the system is a box (a rectangle node of zero seps around its points) placed
//    with that anchor at the current point.
//
// The expanded string is capped (kMaxSymbols); beyond it the operation is reported. Randomized
// steps and angles (pgfmathrand per symbol) are not reproduced: reported, the unrandomized turtle
// is drawn.
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/library.hpp"
#include "packages/support.hpp"
#include "support/ascii.hpp"

namespace tikzlint::ir {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr std::size_t kMaxSymbols = 200000;  // symbols of the expanded string
constexpr const char* kDefinitions = "lindenmayer systems";

std::string trim_copy(std::string_view s) {
  while (!s.empty() && is_ascii_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_ascii_space(s.back())) s.remove_suffix(1);
  return std::string(s);
}

std::string fmt(double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.5fpt", std::abs(v) < 5e-6 ? 0.0 : v);
  return buf;
}

enum class Action { none, draw, move, left, right, save, restore };

Action action_of(const std::string& code) {
  const std::string c = trim_copy(code);
  if (c == "\\pgflsystemdrawforward") return Action::draw;
  if (c == "\\pgflsystemmoveforward") return Action::move;
  if (c == "\\pgflsystemturnleft") return Action::left;
  if (c == "\\pgflsystemturnright") return Action::right;
  if (c == "\\pgflsystemsavestate") return Action::save;
  if (c == "\\pgflsystemrestorestate") return Action::restore;
  return Action::none;
}

// A declared system: its symbols' actions and its rules (head symbol -> body without spaces).
struct LSystem {
  std::map<char, Action> symbols;
  std::map<char, std::string> rules;
  bool unknown_code = false;
};

// The text of a \pgfdeclarelindenmayersystem body: \symbol{X}{code} and \rule{H -> body}.
LSystem parse_system(const std::string& body) {
  LSystem out;
  auto group = [&](std::size_t& i) -> std::optional<std::string> {
    i = text_skip_space(body, i);
    if (i >= body.size() || body[i] != '{') return std::nullopt;
    const std::size_t e = text_skip_group(body, i);
    if (e == std::string::npos) return std::nullopt;
    std::string g = body.substr(i + 1, e - i - 2);
    i = e;
    return g;
  };
  for (std::size_t i = 0; i < body.size();) {
    if (body.compare(i, 7, "\\symbol") == 0) {
      i += 7;
      auto sym = group(i);
      auto code = group(i);
      if (!sym || !code) break;
      const std::string s = trim_copy(*sym);
      if (s.size() != 1) continue;
      const Action a = action_of(*code);
      if (a == Action::none && !trim_copy(*code).empty()) out.unknown_code = true;
      out.symbols[s[0]] = a;
    } else if (body.compare(i, 5, "\\rule") == 0) {
      i += 5;
      auto r = group(i);
      if (!r) break;
      const std::size_t arrow = r->find("->");
      const std::string head = trim_copy(std::string_view(*r).substr(0, arrow == std::string::npos ? 0 : arrow));
      if (arrow == std::string::npos || head.size() != 1) continue;
      std::string rhs;
      for (char ch : r->substr(arrow + 2))
        if (!is_ascii_space(ch)) rhs += ch;
      out.rules[head[0]] = rhs;
    } else {
      ++i;
    }
  }
  return out;
}

// The settings of /pgf/lindenmayer system in force: pgf's defaults, then each key in order.
struct Params {
  std::string name, axiom, order = "", step = "5pt", left = "90", right = "90", rules, anchor;
  bool randomized = false;
};

void apply_params(Params& p, const std::string& options, LibraryHost& host) {
  for (const auto& item : tex::split_options(options)) {
    const std::string key = tex::normalise_key(item.key);
    const std::string v = tex::strip_braces(trim_copy(item.value));
    if (key == "lindenmayer system" || key == "l-system") {
      apply_params(p, v, host);
    } else if (key == "name") {
      p.name = v;
      p.rules.clear();
    } else if (key == "axiom") {
      p.axiom = v;
    } else if (key == "order") {
      p.order = v;
    } else if (key == "step") {
      p.step = v;
    } else if (key == "angle") {
      p.left = p.right = v;
    } else if (key == "left angle") {
      p.left = v;
    } else if (key == "right angle") {
      p.right = v;
    } else if (key == "rule set") {
      p.rules = v;
    } else if (key == "anchor") {
      p.anchor = v;
    } else if (key == "randomize step percent" || key == "randomize angle percent") {
      auto r = host.eval(v);
      if (r && std::abs(r->value) > 1e-12) p.randomized = true;
    } else if (!item.has_value) {
      p.name = key;  // .unknown: the name of a declared system
      p.rules.clear();
    }
  }
}

// The path operation `lindenmayer system` / `l-system` at t[i] (a word, not inside a key).
std::size_t operation_length(const std::string& t, std::size_t i) {
  for (std::string_view w : {std::string_view("lindenmayer system"), std::string_view("l-system")}) {
    if (t.compare(i, w.size(), w) != 0) continue;
    const std::size_t e = i + w.size();
    if (e < t.size() && (std::isalpha(static_cast<unsigned char>(t[e])) || t[e] == '=')) continue;
    if (i > 0 && (std::isalpha(static_cast<unsigned char>(t[i - 1])) || t[i - 1] == '\\')) continue;
    return w.size();
  }
  return 0;
}

// Where the operation stands in a path statement, outside brackets, braces and parentheses.
std::size_t find_operation(const std::string& t, std::size_t* len) {
  int depth = 0;
  for (std::size_t i = 0; i < t.size(); ++i) {
    const char c = t[i];
    if (c == '\\' && i + 1 < t.size() && !std::isalpha(static_cast<unsigned char>(t[i + 1]))) {
      ++i;
      continue;
    }
    if (c == '[' || c == '{' || c == '(') ++depth;
    else if (c == ']' || c == '}' || c == ')') --depth;
    else if (depth == 0 && (c == 'l')) {
      if (std::size_t n = operation_length(t, i)) {
        *len = n;
        return i;
      }
    }
  }
  return std::string::npos;
}

}  // namespace

bool mentions_lsystem_operation(const std::string& text) {
  // Both spellings end in "system": most statements are ruled out by one fast search.
  if (text.find("system") == std::string::npos) return false;
  std::size_t len = 0;
  return find_operation(text, &len) != std::string::npos;
}

bool lower_lsystem_declaration(const tex::Statement& st, LibraryHost& host) {
  const std::string& t = st.text;
  const std::uint32_t end = static_cast<std::uint32_t>(t.size());
  std::size_t i = t.find("\\pgfdeclarelindenmayersystem");
  if (i == std::string::npos) return false;
  i = text_skip_space(t, i + 28);
  if (i >= t.size() || t[i] != '{') return false;
  const std::size_t ne = text_skip_group(t, i);
  if (ne == std::string::npos) return false;
  const std::string name = trim_copy(std::string_view(t).substr(i + 1, ne - i - 2));
  std::size_t j = text_skip_space(t, ne);
  if (j >= t.size() || t[j] != '{') return false;
  const std::size_t be = text_skip_group(t, j);
  if (be == std::string::npos) return false;
  auto* defs = host.document_definitions(kDefinitions);
  if (!defs) {
    host.problem("unsupported-construct", "\\pgfdeclarelindenmayersystem outside a document is not kept", 0, end);
    return true;
  }
  // pgf: `Lindenmayer system ... is already defined` keeps the first definition
  defs->emplace(name, t.substr(j + 1, be - j - 2));
  return true;
}

bool lower_lsystem_path(const tex::Statement& st, LibraryHost& host) {
  const std::string& t = st.text;
  const std::uint32_t end = static_cast<std::uint32_t>(t.size());
  std::size_t len = 0;
  const std::size_t at = find_operation(t, &len);
  if (at == std::string::npos) return false;
  // the operation's own options, then the path's
  std::size_t after = text_skip_space(t, at + len);
  std::string op_options;
  if (after < t.size() && t[after] == '[') {
    const std::size_t e = text_skip_group(t, after);
    if (e == std::string::npos) return false;
    op_options = t.substr(after + 1, e - after - 2);
    after = e;
  }
  Params p;
  apply_params(p, host.settings().lib->lsystem, host);
  // the options of the path before the operation: `\draw[...] [l-system={...}] (0,0) ...`
  bool has_point = false;
  for (std::size_t i = 0; i < at;) {
    const char c = t[i];
    if (c == '[') {
      const std::size_t e = text_skip_group(t, i);
      if (e == std::string::npos) break;
      for (const auto& k : host.expand_keys(t.substr(i + 1, e - i - 2)))
        if (k.key == "l-system" || k.key == "lindenmayer system") apply_params(p, k.value, host);
      i = e;
    } else if (c == '(' || c == '{') {
      has_point = has_point || c == '(';
      const std::size_t e = text_skip_group(t, i);
      if (e == std::string::npos) break;
      i = e;
    } else {
      ++i;
    }
  }
  for (const auto& k : host.expand_keys(op_options)) {
    if (k.key == "l-system" || k.key == "lindenmayer system") apply_params(p, k.value, host);
  }
  // the system: a `rule set` of the options, or a declared one
  LSystem sys;
  if (!p.rules.empty()) {
    std::string body;
    for (const auto& r : tex::split_options(p.rules)) body += "\\rule{" + r.key + (r.has_value ? "=" + r.value : "") + "}";
    sys = parse_system(body);
  } else {
    auto* defs = host.document_definitions(kDefinitions);
    auto it = defs ? defs->find(p.name) : decltype(defs->end()){};
    if (!defs || it == defs->end()) {
      host.problem("unsupported-construct",
                   "Lindenmayer system '" + p.name + "' is not declared in this document before its use", 0, end);
      return true;
    }
    sys = parse_system(it->second);
  }
  if (sys.unknown_code) {
    host.problem("unsupported-construct", "a Lindenmayer symbol runs code other than the \\pgflsystem... commands",
                 0, end);
    return true;
  }
  std::string err;
  auto order = host.eval(p.order.empty() ? "0" : p.order, &err);
  auto step = host.eval(p.step, &err);
  auto left = host.eval(p.left, &err), right = host.eval(p.right, &err);
  if (!order || !step || !left || !right) {
    host.problem("math-error", "cannot evaluate the Lindenmayer system's settings" + (err.empty() ? "" : ": " + err), 0,
                 end);
    return true;
  }
  // \pgfmathtruncatemacro: the order's integer part
  const long n = static_cast<long>(std::trunc(order->value));
  std::string s;
  for (char ch : p.axiom)
    if (!is_ascii_space(ch)) s += ch;
  for (long k = 0; k < n; ++k) {
    std::string next;
    for (char ch : s) {
      auto r = sys.rules.find(ch);
      next += r == sys.rules.end() ? std::string(1, ch) : r->second;
      if (next.size() > kMaxSymbols) {
        host.problem("resource-limit",
                     "Lindenmayer system '" + p.name + "' grows beyond " + std::to_string(kMaxSymbols) +
                         " symbols at order " + std::to_string(k + 1) + "; not drawn",
                     0, end);
        return true;
      }
    }
    s = std::move(next);
  }
  if (p.randomized)
    host.problem("unsupported-key",
                 "randomized Lindenmayer steps or angles change with pgf's random seed; drawn without randomization",
                 0, end);
  // the turtle, in pt of the path's system, from (0,0) heading along x
  struct Turtle {
    double x = 0, y = 0, heading = 0;
  };
  Turtle tu;
  std::vector<Turtle> saved;
  std::vector<std::pair<bool, std::pair<double, double>>> visits;  // (draws, point)
  double minx = 0, miny = 0, maxx = 0, maxy = 0;
  auto visit = [&](bool draws) {
    visits.push_back({draws, {tu.x, tu.y}});
    minx = std::min(minx, tu.x);
    maxx = std::max(maxx, tu.x);
    miny = std::min(miny, tu.y);
    maxy = std::max(maxy, tu.y);
  };
  for (char ch : s) {
    Action a = Action::none;
    if (auto f = sys.symbols.find(ch); f != sys.symbols.end()) a = f->second;
    else if (ch == 'F') a = Action::draw;
    else if (ch == 'f') a = Action::move;
    else if (ch == '+') a = Action::left;
    else if (ch == '-') a = Action::right;
    else if (ch == '[') a = Action::save;
    else if (ch == ']') a = Action::restore;
    switch (a) {
      case Action::draw:
      case Action::move:
        tu.x += step->value * std::cos(tu.heading * kPi / 180);
        tu.y += step->value * std::sin(tu.heading * kPi / 180);
        visit(a == Action::draw);
        break;
      case Action::left:
        tu.heading += left->value;
        break;
      case Action::right:
        tu.heading -= right->value;
        break;
      case Action::save:
        saved.push_back(tu);
        break;
      case Action::restore:
        if (!saved.empty()) {
          tu = saved.back();
          saved.pop_back();
        }
        visit(false);
        break;
      case Action::none:
        break;
    }
  }
  // anchor: the box of the points is a rectangle node placed with that anchor at the current point
  double ox = 0, oy = 0;
  if (!p.anchor.empty()) {
    const std::string before = t.substr(0, at);
    for (const char* k : {"rotate", "scale", "slant", "cm="}) {
      if (before.find(k) != std::string::npos) {
        host.problem("unsupported-key", "an anchored Lindenmayer system under a rotation or scaling is not lowered", 0,
                     end);
        return true;
      }
    }
    static const std::map<std::string, std::pair<double, double>> kAnchors = {
        {"center", {.5, .5}},     {"north", {.5, 1}},    {"south", {.5, 0}},     {"east", {1, .5}},
        {"west", {0, .5}},        {"north east", {1, 1}}, {"north west", {0, 1}}, {"south east", {1, 0}},
        {"south west", {0, 0}}};
    auto f = kAnchors.find(p.anchor);
    if (f == kAnchors.end()) {
      host.problem("unsupported-key", "Lindenmayer system anchor '" + p.anchor + "' is not lowered", 0, end);
      return true;
    }
    // the box is the inner picture's: the points and half the line width around them (lualatex)
    const double m = host.settings().style.line_width / 2;
    minx -= m;
    miny -= m;
    maxx += m;
    maxy += m;
    ox = -(minx + f->second.first * (maxx - minx));
    oy = -(miny + f->second.second * (maxy - miny));
  }
  // \pgfpathmoveto{\tikz@lastxsaved,\tikz@lastysaved}: a new subpath at the current point; the
  // turtle itself starts at the origin of the path's system (checked with lualatex: after `(1,1)`
  // the first line runs from (1,1) to (step,0)). Anchored, the box's turtle origin is the start.
  std::string path;
  if (p.anchor.empty()) {
    path = has_point ? " ++(0pt,0pt)" : " (0pt,0pt)";
    for (const auto& [draws, pt] : visits)
      path += std::string(draws ? " -- " : " ") + "(" + fmt(pt.first) + "," + fmt(pt.second) + ")";
  } else {
    path = has_point ? " ++(" + fmt(ox) + "," + fmt(oy) + ")" : " (" + fmt(ox) + "," + fmt(oy) + ")";
    double px = 0, py = 0;
    for (const auto& [draws, pt] : visits) {
      path += std::string(draws ? " -- " : " ") + "++(" + fmt(pt.first - px) + "," + fmt(pt.second - py) + ")";
      px = pt.first;
      py = pt.second;
    }
  }
  std::string text = t.substr(0, at) + path + " " + t.substr(after);
  host.emit(text, 0, end);
  return true;
}

}  // namespace tikzlint::ir

namespace tikzlint::packages {

std::unique_ptr<ir::Package> lsystems() {
  return statement_package("lindenmayersystems", [](const ir::PackageStatement& s, ir::LibraryHost& host) {
    if (s.path) {
      if (!ir::mentions_lsystem_operation(s.st.text)) return ir::Offer::pass;
      return ir::lower_lsystem_path(s.st, host) ? ir::Offer::lowered : ir::Offer::declined;
    }
    if (s.command != "\\pgfdeclarelindenmayersystem") return ir::Offer::pass;
    return ir::lower_lsystem_declaration(s.st, host) ? ir::Offer::lowered : ir::Offer::declined;
  });
}

}  // namespace tikzlint::packages
