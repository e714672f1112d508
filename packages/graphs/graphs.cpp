// packages/graphs/graphs.cpp: \graph (pgfmanual 19 "Specifying Graphs"), rewritten into plain \node and
// \path ... edge statements (ir/library.hpp), the way tikzlibrarygraphs.code.tex expands it.
//
// The model follows the library's own bookkeeping:
//  - a group is a list of chains separated by `,` or `;`; a chain is elements joined by `->`, `--`,
//    `<-`, `<->`, `-!-`; an element is a node, a `{group}`, a `(use list)`, a declared subgraph
//    (`subgraph K_n`...) or a `\foreach`;
//  - every key setting lives in a State that is copied where TeX opens a group, so options of a
//    group, a chain or a node end where the library's \begingroup/\endgroup end them;
//  - placement counters (width, depth, local width/depth, element and chain count) are updated
//    exactly where \tikz@lib@graph@placement@update, @after@chain@update and @hint@aftergroup do;
//  - edges come from "color classes" (source, target, source', target'...) and operators
//    (matching and star, clique, cycle, complete bipartite...) run on node lists.
// Nodes are emitted as they are created (later placements measure them); edges at the end.
// Graph drawing layouts (Lua) and the quick syntax are reported, never approximated.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ir/library.hpp"
#include "packages/support.hpp"
#include "support/ascii.hpp"

namespace tikzlint::ir {
namespace {

constexpr double kPi = 3.14159265358979323846;
// pgfmanual 17.2.3: outer sep defaults to .5\pgflinewidth, with the default line width 0.4pt. The
// `grow ... sep` placements measure nodes between their west and east (south and north) anchors,
// which lie on the outer border.
constexpr double kDefaultOuterSep = 0.2;
// tikzlibrarygraphs.code.tex: `grow right sep/.default=1em` (and the other seven sep variants).
constexpr const char* kDefaultSep = "1em";
// tikzlibrarygraphs.code.tex: chain shift={(1,0)}, group shift={(0,-1)}, chain polar shift={(0:1cm)},
// group polar shift={(60:0)}, radius=1cm, phase=90, wrap after=0, name separator=\space.
constexpr const char* kChainShift = "(1,0)";
constexpr const char* kGroupShift = "(0,-1)";
constexpr const char* kChainPolarShift = "(0:1cm)";
constexpr const char* kGroupPolarShift = "(60:0)";
constexpr const char* kRadius = "1cm";
constexpr const char* kPhase = "90";
// Bounds against runaway input (recursive declarations, huge \foreach lists).
constexpr int kMaxDepth = 64;
constexpr std::size_t kMaxNodes = 5000;
constexpr std::size_t kMaxListItems = 2000;

std::string trim(std::string_view s) {
  std::size_t b = 0, e = s.size();
  while (b < e && is_ascii_space(s[b])) ++b;
  while (e > b && is_ascii_space(s[e - 1])) --e;
  return std::string(s.substr(b, e - b));
}

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
bool ends_with(std::string_view s, std::string_view p) {
  return s.size() >= p.size() && s.substr(s.size() - p.size()) == p;
}

// Index after the group that opens at t[i] ('{', '[' or '"'); braces nest inside all three.
std::size_t skip_group(const std::string& t, std::size_t i) {
  const char open = t[i];
  if (open == '"') {
    std::size_t j = t.find('"', i + 1);
    return j == std::string::npos ? t.size() : j + 1;
  }
  const char close = open == '{' ? '}' : ']';
  int depth = 0, brace = 0;
  for (std::size_t j = i; j < t.size(); ++j) {
    const char c = t[j];
    if (c == '\\') {
      ++j;
      continue;
    }
    if (open == '[' && c == '{') ++brace;
    else if (open == '[' && c == '}') --brace;
    else if (brace > 0) continue;
    if (c == open) ++depth;
    else if (c == close && --depth == 0) return j + 1;
  }
  return t.size();
}

std::string strip_outer_braces(std::string s) {
  s = trim(s);
  if (s.size() >= 2 && s.front() == '{' && skip_group(s, 0) == s.size()) return trim(s.substr(1, s.size() - 2));
  return s;
}

// Top-level split of a group body into chains at `,` and `;` (braces, brackets, quotes protect).
std::vector<std::string> split_chains(const std::string& t) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i < t.size();) {
    const char c = t[i];
    if (c == '\\' && i + 1 < t.size()) {
      i += 2;
      continue;
    }
    if (c == '{' || c == '[' || c == '"') {
      i = skip_group(t, i);
      continue;
    }
    if (c == ',' || c == ';') {
      out.push_back(t.substr(start, i - start));
      start = i + 1;
    }
    ++i;
  }
  out.push_back(t.substr(start));
  return out;
}

// pgfkeys-like item list: "a, b=c, d={e,f}".
struct Item {
  std::string key, value;
  bool has_value = false;
};
std::vector<Item> items_of(const std::string& opts) {
  std::vector<Item> out;
  for (const auto& r : tex::split_options(opts)) {
    Item it;
    it.key = trim(r.key);
    it.value = tex::strip_braces(r.value);
    it.has_value = r.has_value;
    if (it.key.empty() && !it.has_value) continue;
    out.push_back(std::move(it));
  }
  return out;
}

std::string collapse(const std::string& s) {
  std::string out;
  bool space = false;
  for (char c : trim(s)) {
    if (is_ascii_space(c)) {
      space = true;
      continue;
    }
    if (space && !out.empty()) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

// The name a quoted node text gets: tikzlibrarygraphs.code.tex runs it through \scantokens with
// every special character active and spelled out (\tikz@lib@prepare@active).
std::string quoted_name(const std::string& q) {
  static const std::map<char, const char*> kSpelled = {
      {'$', "DOLLAR SIGN"},      {'&', "AMPERSAND"},          {'^', "CIRCUMFLEX ACCENT"},
      {'~', "TILDE"},            {'_', "LOW LINE"},           {'|', "VERTICAL LINE"},
      {'[', "LEFT SQUARE BRACKET"}, {']', "RIGHT SQUARE BRACKET"}, {'(', "LEFT PARENTHESIS"},
      {')', "RIGHT PARENTHESIS"}, {'/', "SOLIDUS"},           {'.', "FULL STOP"},
      {'-', "HYPHEN MINUS"},     {',', "COMMA"},              {'+', "PLUS SIGN"},
      {'*', "ASTERISK"},         {'\'', "APOSTROPHE"},        {'!', "EXCLAMATION MARK"},
      {'"', "QUOTATION MARK"},   {':', "COLON"},              {';', "SEMINCOLON"},
      {'<', "LESS THAN SIGN"},   {'=', "EQUALS SIGN"},        {'>', "GREATER THAN SIGN"},
      {'?', "QUESTION MARK"},    {'`', "GRAVE ACCENT"},       {'%', "PERCENT SIGN"},
      {'#', "NUMBER SIGN"},      {'\\', "REVERSE SOLIDUS"},   {'@', "COMMERCIAL AT"},
      {'{', "LEFT CURLY BRACE"}, {'}', "RIGHT CURLY BRACE"}};
  std::string out;
  for (char c : q) {
    auto it = kSpelled.find(c);
    if (it == kSpelled.end()) out += c;
    else out += std::string("@") + it->second + "@";
  }
  return out;
}

enum class Placement { cartesian, circular, grid, none };
// How far a node advances the width / depth counter (placement/logical node width|depth).
enum class Logical { one, sep_x, sep_y };

struct Op {
  std::string kind, a, b;
};

struct Edge {
  std::string kind, from, to, style, node, left_anchor, right_anchor;
};

// The /tikz/graphs key values and macros in force; copied where the library opens a TeX group.
struct State {
  std::vector<std::string> node_list;
  std::vector<std::string> nodes_styling;  // `nodes=` entries in order (graph keys or tikz keys)
  std::string edges_styling, edges_node;
  std::vector<Op> operators;
  std::string extra_group_options, parse_extras;
  std::string edge_kind = "--", edge_operator = "matching and star";
  std::string left_anchor, right_anchor;
  Placement placement = Placement::cartesian;
  std::string chain_shift = kChainShift, group_shift = kGroupShift;
  std::string chain_polar = kChainPolarShift, group_polar = kGroupPolarShift;
  std::string radius = kRadius, phase = kPhase, wrap_after = "0";
  Logical width_mode = Logical::one, depth_mode = Logical::one;
  std::string width_sep, depth_sep;
  std::string auto_h = "center", auto_v = "center";
  double element_count = 0, chain_count = 0, depth = 0, width = 0, level = 0, local_depth = 0, local_width = 0;
  bool placed_here = false;  // `placement/place` ran in this TeX group (\aftergroup resets group extents)
  std::string path, name_sep = " ";
  std::string typeset = "\\tikzgraphnodetext";
  bool trie = false, simple = false, fresh = false, number = false, use_existing = false;
  std::string number_sep = " ";
  std::vector<std::string> V{"1"}, W{"1"};
  std::map<std::string, std::pair<std::string, std::optional<std::string>>> styles;  // body, default
  std::map<std::string, std::string> declared;
  std::set<std::string> color_classes{"source", "source'", "source''", "target", "target'", "all"};
  std::string edge_quotes = "auto";  // quotes library: every edge quotes/.style=auto
  std::string gx = "0", gy = "0";     // graphs/x and graphs/y
};

// What the options of one node produce.
struct NodeBuild {
  std::vector<std::string> tikz;  // tikz option items, in order
  std::optional<std::string> as;
  std::optional<std::string> at;
  std::string display;  // \tikzgraphnodetext
  bool graph_keys_only = false;
};

enum class Ctx { graph, group, edge, node };

class GraphLowerer {
 public:
  GraphLowerer(const tex::Statement& st, LibraryHost& host) : st_(st), host_(host) {}
  bool run();

 private:
  const tex::Statement& st_;
  LibraryHost& host_;
  std::string anon_prefix_;
  int anon_count_ = 0, auto_number_ = 0, depth_ = 0;
  bool gave_up_ = false;
  std::map<std::string, std::vector<std::string>> colors_;  // local nodes and their color list
  std::map<std::string, std::pair<std::string, std::string>> ann_a_, ann_b_;  // source / target annotations
  std::map<std::pair<std::string, std::string>, Edge> simple_edges_;
  std::vector<Edge> edges_;
  std::map<std::string, std::vector<std::string>> sets_;
  std::set<std::string> created_, unresolved_;
  std::set<std::string> reported_;
  std::string current_node_;  // \tikz@lib@graph@name while a node's options run

  // ---- diagnostics
  std::pair<std::uint32_t, std::uint32_t> where(const std::string& piece) const {
    const std::string p = trim(piece);
    std::size_t at = p.empty() ? std::string::npos : st_.text.find(p);
    if (at == std::string::npos) return {0, static_cast<std::uint32_t>(st_.text.size())};
    return {static_cast<std::uint32_t>(at), static_cast<std::uint32_t>(at + p.size())};
  }
  void problem(const std::string& code, const std::string& msg, const std::string& piece) {
    if (!reported_.insert(code + msg).second) return;
    auto [b, e] = where(piece);
    host_.problem(code, msg, b, e, true);
  }

  // ---- numbers, points
  std::optional<double> number(const std::string& expr, bool* is_length = nullptr) {
    std::string err;
    auto v = host_.eval(trim(expr), &err);
    if (!v) return std::nullopt;
    if (is_length) *is_length = v->is_length;
    return v->value;
  }
  std::string with_vnum(std::string t, const State& s) const {
    const std::string key = "\\tikzgraphVnum";
    for (std::size_t at = t.find(key); at != std::string::npos; at = t.find(key, at))
      t.replace(at, key.size(), std::to_string(s.V.size()));
    return t;
  }
  // A coordinate as \tikz@scan@one@point reads it: canvas offsets, xy units through x and y.
  std::optional<Point> point(const std::string& text, const State& s) {
    std::string t = strip_outer_braces(with_vnum(text, s));
    if (t.size() < 2 || t.front() != '(' || t.back() != ')') return std::nullopt;
    t = t.substr(1, t.size() - 2);
    const Settings& cfg = host_.settings();
    std::size_t colon = t.find(':');
    if (colon != std::string::npos) {
      bool len = false;
      auto a = number(t.substr(0, colon));
      auto r = number(t.substr(colon + 1), &len);
      if (!a || !r) return std::nullopt;
      const double c = std::cos(*a * kPi / 180), sn = std::sin(*a * kPi / 180);
      if (len) return Point{*r * c, *r * sn};
      return Point{*r * (c * cfg.xvec.x + sn * cfg.yvec.x), *r * (c * cfg.xvec.y + sn * cfg.yvec.y)};
    }
    auto parts = split_chains(t);
    if (parts.size() != 2 || t.find(';') != std::string::npos) return std::nullopt;
    bool lx = false, ly = false;
    auto x = number(parts[0], &lx);
    auto y = number(parts[1], &ly);
    if (!x || !y) return std::nullopt;
    Point p;
    if (lx) p.x += *x;
    else p = Point{p.x + *x * cfg.xvec.x, p.y + *x * cfg.xvec.y};
    if (ly) p.y += *y;
    else p = Point{p.x + *y * cfg.yvec.x, p.y + *y * cfg.yvec.y};
    return p;
  }
  // \tikz@lib@graph@decompose@polar: both parts through \pgfmathsetlength (a plain number is pt).
  std::optional<std::pair<double, double>> polar(const std::string& text, const State& s) {
    std::string t = strip_outer_braces(with_vnum(text, s));
    if (t.size() < 2 || t.front() != '(' || t.back() != ')') return std::nullopt;
    t = t.substr(1, t.size() - 2);
    std::size_t colon = t.find(':');
    if (colon == std::string::npos) return std::nullopt;
    auto a = number(t.substr(0, colon));
    auto r = number(t.substr(colon + 1));
    if (!a || !r) return std::nullopt;
    return std::make_pair(*a, *r);
  }
  std::vector<std::string> expand_list(const std::string& text, const State& s);

  // ---- placement (tikzlibrarygraphs.code.tex placement/place and the compute position codes)
  void place(State& s);
  double logical(const State& s, Logical mode, const std::string& sep, const std::string& name);
  void placement_update(State& s, const std::string& name) {
    const double d = logical(s, s.depth_mode, s.depth_sep, name);
    const double w = logical(s, s.width_mode, s.width_sep, name);
    s.width += w;
    s.local_width += w;
    s.local_depth = std::max(d, s.local_depth);
    s.element_count += 1;
  }
  static void hint_aftergroup(State& s, double gdepth, double gwidth) {
    s.width += gwidth;
    s.local_width += gwidth;
    s.local_depth = std::max(gdepth, s.local_depth);
    s.element_count += 1;
  }
  static void start_hint_group(State& s) {
    s.local_depth = s.local_width = s.chain_count = s.element_count = 0;
  }
  static State enter(const State& s) {
    State g = s;
    g.placed_here = false;
    return g;
  }

  // ---- keys
  bool apply_keys(const std::string& opts, State& s, Ctx ctx, NodeBuild* nb, int depth = 0);
  bool apply_key(const Item& it, State& s, Ctx ctx, NodeBuild* nb, int depth);
  bool color_key(const std::string& key, const Item& it, State& s);
  std::string quote_node(const std::string& key, const State& s) const;
  void annotate(std::map<std::string, std::pair<std::string, std::string>>& ann, const std::string& name,
                const std::string& style, const std::string& node) {
    auto& a = ann[name];
    if (!style.empty()) a.first += "," + style;
    a.second += node;
  }

  // ---- colors and operators
  bool has_color(const std::string& n, const std::string& c) const {
    auto it = colors_.find(n);
    return it != colors_.end() && std::find(it->second.begin(), it->second.end(), c) != it->second.end();
  }
  std::vector<std::string> colored(const std::vector<std::string>& list, const std::string& c) const {
    std::vector<std::string> out;
    std::set<std::string> seen;
    for (const auto& n : list)
      if (seen.insert(n).second && has_color(n, c)) out.push_back(n);
    return out;
  }
  void recolor(const std::vector<std::string>& list, const std::string& from, const std::string& to) {
    std::set<std::string> seen;
    for (const auto& n : list) {
      if (!seen.insert(n).second) continue;
      auto it = colors_.find(n);
      if (it == colors_.end()) continue;
      std::vector<std::string> out;
      for (const auto& c : it->second) {
        if (c != from) out.push_back(c);
        else if (!to.empty()) out.push_back(to);
      }
      it->second = std::move(out);
    }
  }
  void run_operator(const Op& op, State& s, const std::vector<std::string>& list);
  void run_operators(const std::vector<Op>& ops, State& s, const std::vector<std::string>& list) {
    for (const auto& op : ops) run_operator(op, s, list);
  }
  void new_edge(const State& s, const std::string& from, const std::string& to, const std::string& kind);

  // ---- parsing
  void parse_group(const std::string& body, State& s);
  void parse_chain(const std::string& chain, State& outer);
  void parse_element_node(const std::string& text, State& s);
  void parse_foreach(const std::string& text, State& s);
  void handle_declared(const std::string& name, const std::string& opts, State& s);
  void create_node(const std::string& name_only, const std::string& display, const std::string& opts,
                   const std::string& piece, State& s);
  void joiner(const std::string& kind, const std::string& opts, State& s);
};

std::vector<std::string> GraphLowerer::expand_list(const std::string& text, const State& s) {
  std::string t = trim(text);
  if (t == "\\tikzgraphV") return s.V;
  if (t == "\\tikzgraphW") return s.W;
  t = strip_outer_braces(t);
  std::vector<std::string> raw;
  for (const auto& r : split_chains(t)) raw.push_back(strip_outer_braces(r));
  if (t.find(';') != std::string::npos) return {};
  std::vector<std::string> out;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] != "..." || out.empty() || i + 1 >= raw.size()) {
      if (raw[i] != "...") out.push_back(raw[i]);
      continue;
    }
    const std::string& last = out.back();
    const std::string& end = raw[i + 1];
    auto a = number(last), z = number(end);
    if (a && z) {
      double step = *z >= *a ? 1 : -1;
      if (out.size() >= 2)
        if (auto p = number(out[out.size() - 2])) step = *a - *p;
      if (step == 0) return {};
      for (double v = *a + step; step > 0 ? v < *z - 1e-9 : v > *z + 1e-9; v += step) {
        if (out.size() > kMaxListItems) return {};
        char buf[64];
        std::snprintf(buf, sizeof buf, "%g", v);
        out.push_back(buf);
      }
    } else if (last.size() == 1 && end.size() == 1 && std::isalpha(static_cast<unsigned char>(last[0]))) {
      const int step = end[0] >= last[0] ? 1 : -1;
      for (int c = last[0] + step; c != end[0]; c += step) out.push_back(std::string(1, static_cast<char>(c)));
    } else {
      return {};
    }
  }
  if (out.size() > kMaxListItems) return {};
  return out;
}

double GraphLowerer::logical(const State& s, Logical mode, const std::string& sep, const std::string& name) {
  if (mode == Logical::one) return 1;
  // \tikz@lib@graph@width@sep / @depth@sep: east minus west (north minus south) plus the sep
  auto box = host_.named_box(name);
  auto gap = number(sep.empty() ? kDefaultSep : sep);
  if (!box || !gap) {
    problem("unsupported-key", "graph 'sep' placement could not measure node '" + name + "'", "");
    return 1;
  }
  const double extent = mode == Logical::sep_x ? box->width() : box->height();
  return extent + 2 * kDefaultOuterSep + *gap;
}

void GraphLowerer::place(State& s) {
  s.placed_here = true;
  std::optional<Point> shift;
  switch (s.placement) {
    case Placement::none:
      break;
    case Placement::cartesian: {
      auto c = point(s.chain_shift, s), g = point(s.group_shift, s);
      if (c && g) shift = Point{c->x * s.width + g->x * s.depth, c->y * s.width + g->y * s.depth};
      else problem("unsupported-key", "graph chain/group shift '" + s.chain_shift + "' is not modelled", s.chain_shift);
      break;
    }
    case Placement::circular: {
      auto c = polar(s.chain_polar, s), g = polar(s.group_polar, s);
      auto r = number(s.radius), ph = number(s.phase);
      if (c && g && r && ph) {
        const double angle = c->first * s.width + g->first * s.depth + *ph;
        const double radius = c->second * s.width + g->second * s.depth + *r;
        shift = Point{radius * std::cos(angle * kPi / 180), radius * std::sin(angle * kPi / 180)};
      } else {
        problem("unsupported-key", "graph circular placement values are not modelled", "");
      }
      break;
    }
    case Placement::grid: {
      double wrap = 0;
      if (auto w = number(s.wrap_after)) wrap = std::floor(*w);
      if (wrap <= 0) wrap = std::floor(std::sqrt(static_cast<double>(s.V.size())));
      if (wrap <= 0) wrap = 1;
      const double idx = std::max(s.depth, s.width);
      const double col = std::fmod(idx, wrap), row = std::floor(idx / wrap);
      auto c = point(s.chain_shift, s), g = point(s.group_shift, s);
      if (c && g) shift = Point{row * g->x + col * c->x, row * g->y + col * c->y};
      else problem("unsupported-key", "graph chain/group shift is not modelled", "");
      break;
    }
  }
  if (shift) {
    char buf[128];
    std::snprintf(buf, sizeof buf, "\x02%.6f %.6f", shift->x, shift->y);
    s.nodes_styling.push_back(buf);
  }
  s.element_count = s.chain_count = s.depth = s.width = s.local_depth = s.local_width = 0;
}

std::string GraphLowerer::quote_node(const std::string& key, const State& s) const {
  // quotes library: "text"opts  ->  node[every edge quotes, opts]{text}; ' is swap
  std::size_t close = key.find('"', 1);
  const std::string text = key.substr(1, close == std::string::npos ? std::string::npos : close - 1);
  std::string rest = close == std::string::npos ? "" : trim(key.substr(close + 1));
  std::string opts = s.edge_quotes;
  if (!rest.empty()) {
    if (rest.front() == '\'') rest = "swap" + rest.substr(1);
    opts += (opts.empty() ? "" : ",") + rest;
  }
  return "node[" + opts + "]{" + text + "}";
}

bool GraphLowerer::color_key(const std::string& key, const Item& it, State& s) {
  if (s.color_classes.count(key) && !it.has_value) {
    s.operators.push_back({"colorize", key, ""});
    return true;
  }
  for (const char* neg : {"not ", "!"}) {
    if (starts_with(key, neg) && s.color_classes.count(trim(key.substr(std::string(neg).size())))) {
      s.operators.push_back({"recolor", trim(key.substr(std::string(neg).size())), ""});
      return true;
    }
  }
  if (starts_with(key, "recolor ") && ends_with(key, " by")) {
    const std::string c = trim(key.substr(8, key.size() - 11));
    if (s.color_classes.count(c)) {
      s.operators.push_back({"recolor", c, trim(it.value)});
      return true;
    }
  }
  return false;
}

bool GraphLowerer::apply_keys(const std::string& opts, State& s, Ctx ctx, NodeBuild* nb, int depth) {
  bool ok = true;
  for (const auto& it : items_of(opts)) ok = apply_key(it, s, ctx, nb, depth) && ok;
  return ok;
}

bool GraphLowerer::apply_key(const Item& it, State& s, Ctx ctx, NodeBuild* nb, int depth) {
  if (depth > kMaxDepth) {
    problem("unsupported-key", "graph styles nested too deeply", it.key);
    return false;
  }
  std::string key = collapse(it.key);
  for (const char* prefix : {"/tikz/graphs/", "graphs/"})
    if (starts_with(key, prefix)) key = key.substr(std::string(prefix).size());
  const std::string& v = it.value;
  auto value_or = [&](const char* d) { return it.has_value ? trim(v) : std::string(d); };
  auto unsupported = [&](const std::string& why) {
    problem("unsupported-key", why, it.key);
    return false;
  };

  // first char syntax (node options): >opts / >"text"opts on incoming edges, < on outgoing
  if (ctx == Ctx::node && !key.empty() && (key[0] == '>' || key[0] == '<') && nb) {
    auto& ann = key[0] == '>' ? ann_b_ : ann_a_;
    std::string rest = trim(it.key.substr(1));
    if (it.has_value) rest += "=" + it.value;
    if (!rest.empty() && rest[0] == '"') annotate(ann, current_node_, "", quote_node(rest, s));
    else annotate(ann, current_node_, rest, "");
    return true;
  }
  if (!key.empty() && key[0] == '"') {
    // edge quotes (`->["x"]`) and quotes in `edges=`-like places add an edge node
    if (ctx == Ctx::edge || ctx == Ctx::graph || ctx == Ctx::group) {
      s.edges_node += quote_node(it.key + (it.has_value ? "=" + it.value : ""), s);
      return true;
    }
  }

  // style definitions and handlers
  std::size_t handler = key.find("/.");
  if (handler != std::string::npos) {
    const std::string name = trim(key.substr(0, handler)), h = key.substr(handler + 2);
    if (h == "style") s.styles[name] = {v, s.styles.count(name) ? s.styles[name].second : std::nullopt};
    else if (h == "append style") s.styles[name].first += "," + v;
    else if (h == "default") s.styles[name].second = v;
    else if (h == "try") {
      if (s.styles.count(name)) return apply_key(Item{name, v, it.has_value}, s, ctx, nb, depth + 1);
    } else if (h == "expand once" && name == "parse") s.parse_extras += v;
    else if (h == "expand once" && name == "V") s.V = expand_list(v, s);
    else if (h == "expand once" && name == "W") s.W = expand_list(v, s);
    else return unsupported("graph key '" + key + "' is not modelled");
    return true;
  }
  if (auto st = s.styles.find(key); st != s.styles.end()) {
    const std::string arg = it.has_value ? v : st->second.second.value_or("");
    return apply_keys(tex::substitute_args(st->second.first, {arg}), s, ctx, nb, depth + 1);
  }
  if (color_key(key, it, s)) return true;

  if (key == "nodes") s.nodes_styling.push_back(v);
  else if (key == "edges" || key == "edge") s.edges_styling += "," + v;
  else if (key == "edge node") s.edges_node += v;
  else if (key == "edge label") s.edges_node += "node[auto]{" + v + "}";
  else if (key == "edge label'") s.edges_node += "node[auto,swap]{" + v + "}";
  else if (key == "edge quotes") s.edge_quotes = v;
  else if (key == "edge quotes center") s.edge_quotes = "anchor=center";
  else if (key == "edge quotes mid") s.edge_quotes = "anchor=mid";
  else if (key == "--" || key == "->" || key == "<-" || key == "<->" || key == "-!-") s.edge_kind = key;
  else if (key == "default edge kind") s.edge_kind = trim(v);
  else if (key == "default edge operator") s.edge_operator = trim(v);
  else if (key == "left anchor") s.left_anchor = trim(v).empty() ? "" : "." + trim(v);
  else if (key == "right anchor") s.right_anchor = trim(v).empty() ? "" : "." + trim(v);
  else if (key == "use existing nodes") s.use_existing = value_or("true") == "true";
  else if (key == "simple") {
    if (!s.simple) s.operators.push_back({"simple", "", ""});
    s.simple = true;
  } else if (key == "multi") s.simple = false;
  else if (key == "color class") s.color_classes.insert(collapse(v));
  else if (key == "clique" || key == "induced independent set" || key == "path" || key == "cycle" || key == "grid")
    s.operators.push_back({key, collapse(value_or("all")), ""});
  else if (key == "induced path" || key == "induced cycle") {
    s.operators.push_back({"induced independent set", collapse(value_or("all")), ""});
    s.operators.push_back({key.substr(8), collapse(value_or("all")), ""});
  } else if (key == "complete bipartite" || key == "matching and star" || key == "matching" ||
             key == "induced complete bipartite") {
    std::string a = "target'", b = "source'";
    if (it.has_value) {
      auto args = tex::split_brace_args(v, 2);
      if (args.size() == 2) a = collapse(args[0]), b = collapse(args[1]);
    }
    if (key == "induced complete bipartite") {
      s.operators.push_back({"induced independent set", a, ""});
      s.operators.push_back({"induced independent set", b, ""});
      s.operators.push_back({"complete bipartite", a, b});
    } else {
      s.operators.push_back({key, a, b});
    }
  } else if (key == "no edges") s.operators.push_back({"no edges", "", ""});
  else if (key == "Cartesian placement") {
    place(s);
    s.placement = Placement::cartesian;
  } else if (key == "no placement") {
    place(s);
    s.placement = Placement::none;
  } else if (key == "circular placement") {
    place(s);
    s.placement = Placement::circular;
    s.width_mode = s.depth_mode = Logical::one;
  } else if (key == "clockwise" || key == "counterclockwise") {
    place(s);
    s.placement = Placement::circular;
    s.width_mode = s.depth_mode = Logical::one;
    s.group_polar = std::string("(") + (key == "clockwise" ? "-" : "") + "360/(" + value_or("\\tikzgraphVnum") + "):0)";
  } else if (key == "grid placement") {
    place(s);
    s.placement = Placement::grid;
  } else if (key == "chain shift") s.chain_shift = v;
  else if (key == "group shift") s.group_shift = v;
  else if (key == "chain polar shift") s.chain_polar = v;
  else if (key == "group polar shift") s.group_polar = v;
  else if (key == "radius") s.radius = v;
  else if (key == "phase") s.phase = v;
  else if (key == "wrap after") s.wrap_after = v;
  else if (key == "grow right" || key == "grow left" || key == "grow up" || key == "grow down" ||
           key == "branch right" || key == "branch left" || key == "branch up" || key == "branch down") {
    // placement/place first (with the old shifts), then the new shift; the auto anchor stays center
    place(s);
    const std::string d = "(" + value_or("1") + ")";
    const bool grow = key[0] == 'g';
    const std::string dir = key.substr(key.find(' ') + 1);
    const std::string amount = value_or("1");
    const std::string shift = dir == "right" ? "(" + amount + ",0)"
                              : dir == "left" ? "(-(" + amount + "),0)"
                              : dir == "up"   ? "(0," + amount + ")"
                                              : "(0,-(" + amount + "))";
    (void)d;
    (grow ? s.chain_shift : s.group_shift) = shift;
    // tikzlibrarygraphs.code.tex: grow/branch down and branch up set the vertical part, the rest
    // the horizontal part of the automatic anchor
    if (dir == "down" || (!grow && dir == "up")) s.auto_v = "center";
    else s.auto_h = "center";
    s.nodes_styling.push_back("\x01" "anchor");
    (grow ? s.width_mode : s.depth_mode) = Logical::one;
  } else if (key == "grow right sep" || key == "grow left sep" || key == "grow up sep" || key == "grow down sep" ||
             key == "branch right sep" || key == "branch left sep" || key == "branch up sep" ||
             key == "branch down sep") {
    place(s);
    s.placement = Placement::cartesian;
    const bool grow = key[0] == 'g';
    const std::string dir = key.substr(key.find(' ') + 1, key.rfind(' ') - key.find(' ') - 1);
    const std::string shift = dir == "right" ? "(1pt,0)" : dir == "left" ? "(-1pt,0)" : dir == "up" ? "(0,1pt)" : "(0,-1pt)";
    (grow ? s.chain_shift : s.group_shift) = shift;
    if (dir == "right") s.auto_h = "west";
    else if (dir == "left") s.auto_h = "east";
    else if (dir == "up") s.auto_v = "south";
    else s.auto_v = "north";
    s.nodes_styling.push_back("\x01" "anchor");
    const Logical mode = dir == "right" || dir == "left" ? Logical::sep_x : Logical::sep_y;
    if (grow) {
      s.width_mode = mode;
      s.width_sep = value_or(kDefaultSep);
    } else {
      s.depth_mode = mode;
      s.depth_sep = value_or(kDefaultSep);
    }
  } else if (key == "name") s.path += trim(v) + s.name_sep;
  else if (key == "name separator") s.name_sep = v;
  else if (key == "trie") s.trie = value_or("true") == "true";
  else if (key == "fresh nodes") s.fresh = value_or("true") == "true";
  else if (key == "number nodes") {
    s.number = true;
    if (auto n = number(value_or("1"))) auto_number_ = static_cast<int>(*n);
  } else if (key == "number nodes sep") s.number_sep = v;
  else if (key == "math nodes") s.typeset = "$\\tikzgraphnodetext$";
  else if (key == "empty nodes") s.typeset = "";
  else if (key == "typeset") s.typeset = v;
  else if (key == "as") {
    if (nb) nb->as = v;
  } else if (key == "put node text on incoming edges" || key == "put node text on outgoing edges") {
    s.nodes_styling.push_back(std::string("\x01") + (key.find("incoming") != std::string::npos ? "in:" : "out:") + v);
  } else if (key == "source edge style" || key == "target edge style" || key == "source edge node" ||
             key == "target edge node") {
    if (ctx != Ctx::node) return unsupported("graph key '" + key + "' outside node options is not modelled");
    annotate(key[0] == 's' ? ann_a_ : ann_b_, current_node_, ends_with(key, "style") ? v : "",
             ends_with(key, "node") ? v : "");
  } else if (key == "source edge clear" || key == "clear <") {
    if (ctx == Ctx::node) ann_a_.erase(current_node_);
  } else if (key == "target edge clear" || key == "clear >") {
    if (ctx == Ctx::node) ann_b_.erase(current_node_);
  } else if (key == "V") s.V = expand_list(v, s);
  else if (key == "W") s.W = expand_list(v, s);
  else if (key == "n") {
    s.V = expand_list("1,...," + trim(v), s);
    s.styles["name shore V"] = {"name=V", std::nullopt};
  } else if (key == "m") {
    s.W = expand_list("1,...," + trim(v), s);
    s.styles["name shore W"] = {"name=W", std::nullopt};
  } else if (key == "name shore V" || key == "name shore W" || key == "every graph" || key == "every group") {
    // empty styles unless defined
  } else if (key == "declare") {
    auto args = tex::split_brace_args(v, 2);
    if (args.size() != 2) return unsupported("graph key 'declare' needs {name}{graph}");
    s.declared[collapse(args[0])] = args[1];
  } else if (key == "parse") s.parse_extras += v;
  else if (key == "x" || key == "y") {
    (key == "x" ? s.gx : s.gy) = trim(v);
    if (ctx == Ctx::node && nb) nb->at = "(" + s.gx + "," + s.gy + ")";
  } else if (key == "quick") return unsupported("graph 'quick' syntax is not modelled");
  else if (key == "butterfly" || key == "butterfly'") return unsupported("graph operator '" + key + "' is not modelled");
  else if (key == "operator" || starts_with(key, "placement/") || key == "level distance" ||
           key == "sibling distance")
    return unsupported("graph key '" + key + "' is not modelled");
  else if (key == "set" && ctx == Ctx::node) {
    sets_[collapse(v)].push_back(current_node_);
  } else if (ends_with(key, "layout")) {
    return unsupported("graph drawing layout '" + key + "' needs Lua; the graph is not lowered");
  } else if (ctx == Ctx::node) {
    if (nb) nb->tikz.push_back(it.has_value ? it.key + "={" + it.value + "}" : it.key);
  } else if (ctx == Ctx::edge) {
    s.edges_styling += "," + (it.has_value ? it.key + "={" + it.value + "}" : it.key);
  } else {
    return unsupported("graph option '" + key + "' is not modelled");
  }
  return true;
}

void GraphLowerer::new_edge(const State& s, const std::string& from, const std::string& to, const std::string& kind) {
  Edge e;
  e.kind = kind;
  e.from = from;
  e.to = to;
  e.style = s.edges_styling;
  e.node = s.edges_node;
  if (auto a = ann_a_.find(from); a != ann_a_.end()) {
    e.style += a->second.first;
    e.node += a->second.second;
  }
  if (auto b = ann_b_.find(to); b != ann_b_.end()) {
    e.style += b->second.first;
    e.node += b->second.second;
  }
  e.left_anchor = s.left_anchor;
  e.right_anchor = s.right_anchor;
  if (s.simple) {
    // \tikz@lib@graph@set@simple@edge: one edge per pair, the last one wins in either direction
    simple_edges_.erase({to, from});
    simple_edges_[{from, to}] = e;
    return;
  }
  if (kind != "-!-") edges_.push_back(e);
}

void GraphLowerer::run_operator(const Op& op, State& s, const std::vector<std::string>& list) {
  const std::string kind = s.edge_kind;
  if (op.kind == "colorize") {
    for (const auto& n : list)
      if (auto it = colors_.find(n); it != colors_.end()) it->second.push_back(op.a);
  } else if (op.kind == "recolor") {
    recolor(list, op.a, op.b);
  } else if (op.kind == "clique" || op.kind == "induced independent set") {
    auto L = colored(list, op.a);
    for (std::size_t a = L.size(); a >= 1; --a)
      for (std::size_t b = a - 1; b >= 1; --b) {
        if (op.kind == "clique") new_edge(s, L[b - 1], L[a - 1], kind);
        else new_edge(s, L[a - 1], L[b - 1], "-!-");
      }
  } else if (op.kind == "path" || op.kind == "cycle") {
    auto L = colored(list, op.a);
    for (std::size_t i = 1; i < L.size(); ++i) new_edge(s, L[i - 1], L[i], kind);
    if (op.kind == "cycle" && L.size() >= 2) new_edge(s, L.back(), L.front(), kind);
  } else if (op.kind == "matching and star" || op.kind == "matching") {
    auto T = colored(list, op.a);
    auto S = colored(list, op.b);
    const std::size_t a = T.size();
    std::size_t b = 0;
    for (const auto& n : S) {
      ++b;
      if (op.kind == "matching") {
        if (b <= a) new_edge(s, T[b - 1], n, kind);
        continue;
      }
      if (b > a) b = a;
      if (b > 0) new_edge(s, T[b - 1], n, kind);
    }
    if (op.kind == "matching and star" && !S.empty())
      while (b < a && b > 0) {
        ++b;
        new_edge(s, T[b - 1], S.back(), kind);
      }
  } else if (op.kind == "complete bipartite") {
    for (const auto& f : colored(list, op.a))
      for (const auto& t : colored(list, op.b))
        if (t != f) new_edge(s, f, t, kind);
  } else if (op.kind == "grid") {
    auto L = colored(list, op.a);
    std::size_t wrap = 0;
    if (auto w = number(s.wrap_after); w && *w > 0) wrap = static_cast<std::size_t>(*w);
    if (wrap == 0) wrap = static_cast<std::size_t>(std::sqrt(static_cast<double>(s.V.size())));
    if (wrap == 0) wrap = 1;
    for (std::size_t b = 1; b <= L.size(); ++b) {
      if ((b - 1) % wrap > 0) new_edge(s, L[b - 1], L[b - 2], kind);
      if (b > wrap) new_edge(s, L[b - wrap - 1], L[b - 1], kind);
    }
  } else if (op.kind == "simple") {
    std::vector<std::string> packed;
    std::set<std::string> seen;
    for (const auto& n : list)
      if (seen.insert(n).second) packed.push_back(n);
    for (const auto& f : packed)
      for (const auto& t : packed) {
        auto it = simple_edges_.find({f, t});
        if (it == simple_edges_.end()) continue;
        if (it->second.kind != "-!-") edges_.push_back(it->second);
        simple_edges_.erase(it);
      }
  }
}

void GraphLowerer::joiner(const std::string& kind, const std::string& opts, State& s) {
  recolor(s.node_list, "source", "source'");
  recolor(s.node_list, "source''", "source");
  {
    State j = enter(s);
    j.edge_kind = kind;
    j.operators.clear();
    apply_keys(opts, j, Ctx::edge, nullptr);
    std::vector<Op> ops = j.operators;
    if (ops.empty()) {
      State probe = j;
      probe.operators.clear();
      apply_keys(j.edge_operator, probe, Ctx::group, nullptr);
      ops = probe.operators;
    }
    run_operators(ops, j, s.node_list);
  }
  recolor(s.node_list, "source'", "");
  recolor(s.node_list, "target'", "");
}

void GraphLowerer::parse_group(const std::string& body_in, State& s) {
  if (gave_up_) return;
  if (++depth_ > kMaxDepth) {
    problem("unsupported-construct", "graph nested too deeply", "");
    gave_up_ = true;
    --depth_;
    return;
  }
  std::string body = trim(body_in);
  std::string opts;
  if (!body.empty() && body[0] == '[') {
    const std::size_t e = skip_group(body, 0);
    opts = body.substr(1, e >= 2 ? e - 2 : 0);
    body = body.substr(e);
  }
  s.parse_extras.clear();
  s.operators.clear();
  const std::string extra = s.extra_group_options;
  s.extra_group_options.clear();
  if (s.styles.count("every group")) apply_key(Item{"every group", "", false}, s, Ctx::group, nullptr, 0);
  apply_keys(extra, s, Ctx::group, nullptr);
  apply_keys(opts, s, Ctx::group, nullptr);
  body = s.parse_extras + body;
  s.parse_extras.clear();
  for (const auto& chain : split_chains(body)) {
    if (gave_up_) break;
    parse_chain(chain, s);
  }
  run_operators(s.operators, s, s.node_list);
  --depth_;
}

void GraphLowerer::parse_chain(const std::string& t, State& outer) {
  State s = enter(outer);
  s.local_depth = s.local_width = 0;
  s.node_list.clear();
  std::optional<std::pair<std::string, std::string>> pending;  // joiner to run after the next element
  std::size_t pos = 0;
  auto ws = [&] {
    while (pos < t.size() && is_ascii_space(t[pos])) ++pos;
  };
  while (!gave_up_) {
    ws();
    std::size_t arrow = std::string::npos;
    if (pos < t.size() && t[pos] == '{') {
      const std::size_t e = skip_group(t, pos);
      const std::string inner = t.substr(pos + 1, e >= pos + 2 ? e - pos - 2 : 0);
      // \tikz@lib@graph@scope
      State g = enter(s);
      g.node_list.clear();
      start_hint_group(g);
      parse_group(inner, g);
      double gdepth = g.local_depth, gwidth = g.local_width;
      if (g.placed_here) gdepth = gwidth = 0;
      s.node_list.insert(s.node_list.end(), g.node_list.begin(), g.node_list.end());
      hint_aftergroup(s, gdepth, gwidth);
      pos = e;
      ws();
      arrow = pos;
    } else {
      std::size_t j = pos;
      while (j < t.size() && t[j] != '-') {
        if (t[j] == '\\' && j + 1 < t.size()) {
          j += 2;
          continue;
        }
        if (t[j] == '{' || t[j] == '[' || t[j] == '"') j = skip_group(t, j);
        else ++j;
      }
      std::size_t lt = std::string::npos;
      for (std::size_t k = pos; k < j;) {
        if (t[k] == '\\' && k + 1 < j) {
          k += 2;
          continue;
        }
        if (t[k] == '{' || t[k] == '[' || t[k] == '"') {
          k = skip_group(t, k);
          continue;
        }
        if (t[k] == '<') {
          lt = k;
          break;
        }
        ++k;
      }
      const std::string node_text = t.substr(pos, (lt == std::string::npos ? j : lt) - pos);
      parse_element_node(node_text, s);
      arrow = lt == std::string::npos ? j : lt;
    }
    if (pending) {
      joiner(pending->first, pending->second, s);
      pending.reset();
    }
    pos = arrow;
    if (pos >= t.size()) break;
    std::string kind;
    if (t[pos] == '<') {
      std::size_t d = t.find('-', pos);
      pos = d == std::string::npos ? t.size() : d + 1;
      if (pos < t.size() && t[pos] == '>') {
        kind = "<->";
        ++pos;
      } else {
        kind = "<-";
      }
    } else if (pos + 1 < t.size() && t[pos + 1] == '>') {
      kind = "->";
      pos += 2;
    } else if (pos + 1 < t.size() && t[pos + 1] == '-') {
      kind = "--";
      pos += 2;
    } else if (pos + 2 < t.size() && t[pos + 1] == '!' && t[pos + 2] == '-') {
      kind = "-!-";
      pos += 3;
    } else {
      std::size_t rest = pos + 1;
      while (rest < t.size() && is_ascii_space(t[rest])) ++rest;
      if (rest >= t.size()) break;  // a trailing `-`: pgf's end-of-chain marker
      problem("unsupported-construct", "graph edge operator expected (one of <-, --, ->, -!-, <->)",
              t.substr(pos, std::min<std::size_t>(t.size() - pos, 8)));
      kind = "--";
      pos += 1;
    }
    ws();
    std::string opts;
    if (pos < t.size() && t[pos] == '[') {
      const std::size_t e = skip_group(t, pos);
      opts = t.substr(pos + 1, e >= pos + 2 ? e - pos - 2 : 0);
      pos = e;
    }
    // \tikz@lib@graph@after@arrow@opt: mark the left side before the right one is parsed
    recolor(s.node_list, "source", "source''");
    recolor(s.node_list, "target", "target'");
    pending = std::make_pair(kind, opts);
  }
  // \tikz@lib@graph@graph@done and @placement@after@chain@update
  const double cdepth = s.local_depth, cwidth = s.local_width;
  outer.node_list.insert(outer.node_list.end(), s.node_list.begin(), s.node_list.end());
  outer.depth += cdepth;
  outer.local_depth += cdepth;
  outer.local_width = std::max(cwidth, outer.local_width);
  outer.chain_count += 1;
}

void GraphLowerer::parse_foreach(const std::string& text, State& s) {
  // \foreach \var in {list} {body}   (also `in \macro`)
  std::size_t p = 8;
  auto ws = [&] {
    while (p < text.size() && is_ascii_space(text[p])) ++p;
  };
  ws();
  std::size_t in = text.find(" in", p);
  if (in == std::string::npos) {
    problem("unsupported-construct", "graph \\foreach form is not modelled", text);
    return;
  }
  const std::string var = trim(text.substr(p, in - p));
  p = in + 3;
  ws();
  std::string list;
  if (p < text.size() && text[p] == '{') {
    const std::size_t e = skip_group(text, p);
    list = text.substr(p, e - p);
    p = e;
  } else {
    std::size_t e = p + 1;
    while (e < text.size() && (std::isalpha(static_cast<unsigned char>(text[e])) || text[e] == '@')) ++e;
    list = text.substr(p, e - p);
    p = e;
  }
  ws();
  if (var.empty() || var.find('[') != std::string::npos || p >= text.size() || text[p] != '{') {
    problem("unsupported-construct", "graph \\foreach form is not modelled", text);
    return;
  }
  const std::size_t e = skip_group(text, p);
  const std::string body = text.substr(p + 1, e >= p + 2 ? e - p - 2 : 0);
  auto values = expand_list(list, s);
  if (values.empty()) {
    problem("unsupported-construct", "graph \\foreach list '" + trim(list) + "' is not modelled", list);
    return;
  }
  // \tikz@lib@graph@do@foreach@normal: each pass is a TeX group that hands its counters and node
  // list on to the next one
  for (const auto& value : values) {
    std::string b = body;
    for (std::size_t at = b.find(var); at != std::string::npos; at = b.find(var, at)) {
      const std::size_t after = at + var.size();
      if (after < b.size() && (std::isalpha(static_cast<unsigned char>(b[after])) || b[after] == '@')) {
        at = after;
        continue;
      }
      b.replace(at, var.size(), value);
      at += value.size();
    }
    State it = enter(s);
    parse_group(b, it);
    s.node_list = it.node_list;
    s.local_depth = it.local_depth;
    s.local_width = it.local_width;
    s.chain_count = it.chain_count;
    s.element_count = it.element_count;
    s.width = it.width;
    s.depth = it.depth;
    if (gave_up_) return;
  }
}

void GraphLowerer::handle_declared(const std::string& name, const std::string& opts, State& s) {
  // \tikz@lib@graph@handle@graph
  State g = enter(s);
  g.node_list.clear();
  g.extra_group_options = opts;
  start_hint_group(g);
  parse_group(g.declared.at(name), g);
  double gdepth = g.local_depth, gwidth = g.local_width;
  if (g.placed_here) gdepth = gwidth = 0;
  s.node_list.insert(s.node_list.end(), g.node_list.begin(), g.node_list.end());
  hint_aftergroup(s, gdepth, gwidth);
}

void GraphLowerer::parse_element_node(const std::string& raw, State& s) {
  std::string text = trim(raw);
  if (text.empty()) return;
  if (starts_with(text, "\\foreach")) {
    parse_foreach(text, s);
    return;
  }
  if (text[0] == '(') {
    // a use list: existing nodes or node sets, neither created nor placed
    const std::size_t close = text.find(')');
    const std::string inner = text.substr(1, close == std::string::npos ? std::string::npos : close - 1);
    if (close != std::string::npos && !trim(text.substr(close + 1)).empty())
      problem("unsupported-construct", "options after a graph use list are not modelled", text);
    for (const auto& part : split_chains(inner)) {
      const std::string n = collapse(part);
      if (n.empty()) continue;
      std::vector<std::string> names{n};
      if (auto set = sets_.find(n); set != sets_.end()) names = set->second;
      else if (!host_.named_center(n) && !colors_.count(n)) {
        problem("unsupported-construct", "graph use list '" + n + "' names no node or set known here", part);
        unresolved_.insert(n);
      }
      for (const auto& m : names) {
        colors_[m] = {"all", "source", "target"};
        s.node_list.push_back(m);
      }
    }
    return;
  }
  std::string name_only, display, opts;
  std::string head = text;
  auto take_opts = [&](std::string& from) {
    std::size_t k = 0;
    while (k < from.size()) {
      if (from[k] == '\\' && k + 1 < from.size()) {
        k += 2;
        continue;
      }
      if (from[k] == '{' || from[k] == '"') {
        k = skip_group(from, k);
        continue;
      }
      if (from[k] == '[') break;
      ++k;
    }
    if (k < from.size()) {
      const std::size_t e = skip_group(from, k);
      opts = from.substr(k + 1, e >= k + 2 ? e - k - 2 : 0);
      from = from.substr(0, k);
    }
  };
  auto slash_text = [&](std::string rest) {
    rest = trim(rest);
    if (!rest.empty() && rest[0] == '"') {
      const std::size_t e = skip_group(rest, 0);
      return rest.substr(1, e >= 2 ? e - 2 : 0);
    }
    return strip_outer_braces(rest);
  };
  auto anon = [&] { return anon_prefix_ + std::to_string(++anon_count_); };
  if (head[0] == '"') {
    const std::size_t e = skip_group(head, 0);
    const std::string q = head.substr(1, e >= 2 ? e - 2 : 0);
    std::string rest = trim(head.substr(e));
    name_only = quoted_name(q);
    display = q;
    if (name_only.empty()) name_only = anon();
    if (!rest.empty() && rest[0] == '/' && !starts_with(rest, "//")) {
      rest = rest.substr(1);
      take_opts(rest);
      display = slash_text(rest);
    } else {
      take_opts(rest);
    }
  } else {
    take_opts(head);
    if (head.find("//") != std::string::npos) {
      problem("unsupported-key", "graph drawing sublayout '//' needs Lua; it is not lowered", text);
      return;
    }
    std::size_t slash = std::string::npos;
    for (std::size_t k = 0; k < head.size(); ++k) {
      if (head[k] == '{') {
        k = skip_group(head, k) - 1;
        continue;
      }
      if (head[k] == '/') {
        slash = k;
        break;
      }
    }
    std::size_t sep_len = 1;
    if (slash == std::string::npos && head.find("__") != std::string::npos) {
      slash = head.find("__");
      sep_len = 2;
    }
    if (slash != std::string::npos) {
      name_only = trim(head.substr(0, slash));
      if (name_only.empty()) name_only = anon();
      display = slash_text(head.substr(slash + sep_len));
    } else {
      name_only = trim(head);
      display = name_only;
    }
  }
  if (name_only.empty()) return;
  create_node(name_only, display, opts, text, s);
}

void GraphLowerer::create_node(const std::string& name_only_in, const std::string& display,
                               const std::string& opts, const std::string& piece, State& s) {
  std::string name_only = name_only_in;
  if (s.number) name_only += s.number_sep + std::to_string(auto_number_++);
  if (s.declared.count(name_only)) {
    handle_declared(name_only, opts, s);
    return;
  }
  std::string full = s.path + name_only;
  if (s.fresh)
    while (colors_.count(full)) {
      name_only += "'";
      full = s.path + name_only;
    }
  if (created_.size() > kMaxNodes) {
    problem("resource-limit", "graph has too many nodes", piece);
    gave_up_ = true;
    return;
  }
  // placement/level and the level styles, in the chain's group
  s.level += 1;
  {
    char lv[32];
    std::snprintf(lv, sizeof lv, "%d", static_cast<int>(s.level));
    if (s.styles.count("level")) apply_key(Item{"level", lv, true}, s, Ctx::group, nullptr, 0);
    if (s.styles.count(std::string("level ") + lv)) apply_key(Item{std::string("level ") + lv, "", false}, s, Ctx::group, nullptr, 0);
  }
  bool created = false;
  {
    State ns = enter(s);
    ns.node_list = {full};
    ns.operators.clear();
    const std::string saved_node = current_node_;
    current_node_ = full;
    NodeBuild nb;
    nb.display = display;
    if (colors_.count(full)) {
      // \tikz@lg@local@node@handle: the node is mentioned again
      colors_[full].push_back("source");
      colors_[full].push_back("target");
      apply_keys(opts, ns, Ctx::node, &nb);
      for (const auto& k : nb.tikz) {
        const std::string key = collapse(k.substr(0, k.find('=')));
        if (!is_known_cosmetic_key(key) && !is_color_name(key))
          problem("unsupported-key", "option '" + key + "' on a graph node mentioned again (\\node also) is not modelled",
                  k);
      }
      run_operators(ns.operators, ns, ns.node_list);
    } else {
      colors_[full] = {"all", "source", "target"};
      if (s.use_existing) {
        apply_keys(opts, ns, Ctx::node, &nb);
        if (!host_.named_center(full)) {
          problem("unsupported-construct", "graph 'use existing nodes': no node '" + full + "' is known here", piece);
          unresolved_.insert(full);
        }
        run_operators(ns.operators, ns, ns.node_list);
      } else {
        place(ns);
        std::string text_override;
        bool have_override = false;
        Point total;  // the placement shifts, applied as pgf does: in the picture's coordinate system
        for (const auto& entry : ns.nodes_styling) {
          if (!entry.empty() && entry[0] == '\x02') {
            double x = 0, y = 0;
            if (std::sscanf(entry.c_str() + 1, "%lf %lf", &x, &y) == 2) total = Point{total.x + x, total.y + y};
            continue;
          }
          if (!entry.empty() && entry[0] == '\x01') {
            if (entry == "\x01" "anchor") {
              static const std::map<std::string, std::string> kAuto = {
                  {"center@center", "center"},     {"west@center", "west"},   {"east@center", "east"},
                  {"center@north", "north"},       {"west@north", "north west"}, {"east@north", "north east"},
                  {"center@south", "south"},       {"west@south", "south west"}, {"east@south", "south east"}};
              auto a = kAuto.find(ns.auto_h + "@" + ns.auto_v);
              nb.tikz.push_back("anchor=" + (a == kAuto.end() ? std::string("center") : a->second));
            } else {
              const bool in = starts_with(entry, "\x01" "in:");
              const std::string o = entry.substr(in ? 4 : 5);
              annotate(in ? ann_b_ : ann_a_, full, "", "node[" + o + "]{" + display + "}");
              text_override.clear();
              have_override = true;
            }
            continue;
          }
          apply_keys(entry, ns, Ctx::node, &nb);
        }
        if (have_override) nb.as = text_override;
        apply_keys(opts, ns, Ctx::node, &nb);
        std::string typeset = nb.as ? *nb.as : ns.typeset;
        auto sub = [&](const std::string& macro, const std::string& value) {
          for (std::size_t at = typeset.find(macro); at != std::string::npos; at = typeset.find(macro, at)) {
            const std::size_t after = at + macro.size();
            if (after < typeset.size() && std::isalpha(static_cast<unsigned char>(typeset[after]))) {
              at = after;
              continue;
            }
            typeset.replace(at, macro.size(), value);
            at += value.size();
          }
        };
        sub("\\tikzgraphnodetext", display);
        sub("\\tikzgraphnodename", name_only);
        sub("\\tikzgraphnodefullname", full);
        sub("\\tikzgraphnodepath", s.path);
        std::string at;
        std::string optlist;
        for (const auto& k : nb.tikz) {
          const std::string key = collapse(k.substr(0, k.find('=')));
          if (key == "at" && k.find('=') != std::string::npos) {
            at = " at " + tex::strip_braces(k.substr(k.find('=') + 1));
            continue;
          }
          if (key == "name") continue;
          optlist += (optlist.empty() ? "" : ",") + k;
        }
        if (nb.at) at = " at " + *nb.at;
        auto [b, e] = where(piece);
        const bool shifted = std::abs(total.x) > 1e-9 || std::abs(total.y) > 1e-9;
        if (shifted) {
          char buf[128];
          std::snprintf(buf, sizeof buf, "\\begin{scope}[shift={(%.5fpt,%.5fpt)}]", total.x, total.y);
          host_.emit(buf, b, e);
        }
        host_.emit("\\node[" + optlist + "] (" + full + ")" + at + " {" + typeset + "};", b, e);
        if (shifted) host_.emit("\\end{scope}", b, e);
        created_.insert(full);
        created = true;
        run_operators(ns.operators, ns, ns.node_list);
      }
    }
    current_node_ = saved_node;
  }
  if (created) placement_update(s, full);
  s.node_list.push_back(full);
  if (s.trie) s.path += name_only + s.name_sep;
}

bool GraphLowerer::run() {
  const std::string& t = st_.text;
  anon_prefix_ = "tikz@f@" + std::to_string(st_.prov.range.begin) + "@";
  // \graph is \path graph: the options, then the group
  std::size_t p = t.find("\\graph");
  if (p == std::string::npos) return false;
  p += 6;
  while (p < t.size() && is_ascii_space(t[p])) ++p;
  std::string opts;
  if (p < t.size() && t[p] == '[') {
    const std::size_t e = skip_group(t, p);
    opts = t.substr(p + 1, e >= p + 2 ? e - p - 2 : 0);
    p = e;
    while (p < t.size() && is_ascii_space(t[p])) ++p;
  }
  if (p >= t.size() || t[p] != '{') return false;
  const std::size_t e = skip_group(t, p);
  // The front end unrolls a \foreach inside the graph into its passes, one after the other. A pass
  // starts where the source offsets jump back; pgf parses the passes as successive groups, so a
  // chain separator goes where two elements would otherwise meet without an edge operator.
  std::string body;
  for (std::size_t i = p + 1; i + 1 < e && i < t.size(); ++i) {
    if (i > p + 1 && i < st_.origin.size() && st_.origin[i] < st_.origin[i - 1]) {
      const std::string before = trim(body), after = trim(t.substr(i, std::min<std::size_t>(e - 1 - i, 4)));
      if (!before.empty() && !after.empty() && std::string("-<>![,;{/=").find(before.back()) == std::string::npos &&
          std::string("-<],;}[").find(after.front()) == std::string::npos)
        body += ',';
    }
    body += t[i];
  }
  std::string rest = trim(t.substr(e));
  if (!rest.empty() && rest.back() == ';') rest.pop_back();
  if (!trim(rest).empty()) {
    problem("unsupported-construct", "path operations after \\graph's group are not lowered", rest);
  }
  // Graph drawing (Lua) layouts place every node themselves: nothing can be placed honestly.
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (t[i] != '[') continue;
    const std::size_t close = skip_group(t, i);
    for (const auto& it : items_of(t.substr(i + 1, close >= i + 2 ? close - i - 2 : 0))) {
      const std::string k = collapse(it.key);
      if (ends_with(k, " layout") || k == "layout" || ends_with(k, " layout'")) {
        problem("unsupported-key", "graph drawing layout '" + k + "' needs Lua; the graph is not lowered", it.key);
        return true;
      }
      if (k == "quick") {
        problem("unsupported-key", "graph 'quick' syntax is not lowered", it.key);
        return true;
      }
    }
  }
  State s;
  // graphs.standard (tikzlibrarygraphs.standard.code.tex)
  const std::string in = "\\foreach \\tikz@lib@graph@node@num in \\tikzgraphV {\\tikz@lib@graph@node@num}";
  s.declared["subgraph I_n"] = in;
  s.declared["subgraph I_nm"] =
      "subgraph I_n [name shore V] -- [no edges] subgraph I_n [name shore W, V/.expand once=\\tikzgraphW]";
  s.declared["subgraph K_n"] = "[clique] subgraph I_n";
  s.declared["subgraph K_nm"] =
      "[color class=shore V, color class=shore W, complete bipartite={shore V}{shore W}] "
      "subgraph I_n [name shore V, shore V] -- [no edges] subgraph I_n [name shore W, V/.expand once=\\tikzgraphW, shore W]";
  s.declared["subgraph C_n"] = "[cycle] subgraph I_n";
  s.declared["subgraph P_n"] = "[path] subgraph I_n";
  s.declared["subgraph Grid_n"] = "[grid] subgraph I_n";
  s.styles["name shore V"] = {"", std::nullopt};
  s.styles["name shore W"] = {"", std::nullopt};
  if (body.find("subgraph G_np") != std::string::npos) {
    problem("unsupported-construct", "random graph 'subgraph G_np' is not lowered", "subgraph G_np");
    return true;
  }
  // \tikz@lib@graph@parser@ and \tikz@lib@graphs@normal@main
  s.operators.clear();
  apply_keys(opts, s, Ctx::graph, nullptr);
  const std::vector<Op> outer = s.operators;
  s.node_list.clear();
  s.depth = s.width = s.level = 0;
  start_hint_group(s);
  parse_group(body, s);
  run_operators(outer, s, s.node_list);
  for (const auto& ed : edges_) {
    if (unresolved_.count(ed.from) || unresolved_.count(ed.to)) continue;
    const std::string arrow = ed.kind == "--" ? "-" : ed.kind;
    std::string style = ed.style;
    while (!style.empty() && style.front() == ',') style.erase(0, 1);
    host_.emit("\\path[" + arrow + "] (" + ed.from + ed.left_anchor + ") edge[" + style + "] " + ed.node + " (" + ed.to +
                   ed.right_anchor + ");",
               0, static_cast<std::uint32_t>(t.size()));
  }
  return true;
}

}  // namespace

bool lower_graph(const tex::Statement& st, LibraryHost& host) {
  GraphLowerer g(st, host);
  return g.run();
}

}  // namespace tikzlint::ir

namespace tikzlint::packages {

std::unique_ptr<ir::Package> graphs() {
  return statement_package("graphs", [](const ir::PackageStatement& s, ir::LibraryHost& host) {
    if (!s.path || s.command != "\\graph") return ir::Offer::pass;
    return ir::lower_graph(s.st, host) ? ir::Offer::lowered : ir::Offer::declined;
  });
}

}  // namespace tikzlint::packages
