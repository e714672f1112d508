// packages/trees/trees.cpp: child trees (pgfmanual 21 "Making Trees Grow"), the trees library
// (pgfmanual 75) and the mindmap library built on them (pgfmanual 58), rewritten into plain
// \node / \coordinate / \path statements (ir/library.hpp) the way tikz.code.tex typesets them:
//
//  - \tikz@children collects `child [opts] {...}` and `child [opts] foreach \x in {..} {...}`
//    (missing children count) and opens a group per level: `level=<n>` and `level <n>` styles, then
//    the origin moves to the parent's `growth parent anchor`;
//  - \tikz@childnode: in a scope of `every child` and the child's options, the growth function
//    places the child; its node is `\node[name=<parent>-<i>, every child node] <node spec>`
//    (a coordinate when the child has no node); the rest of the child is a path `\path <rest> edge
//    from parent;` where further `child`s are the grandchildren;
//  - `edge from parent [opts] node{..}` is `[style=edge from parent, opts] <edge from parent path>
//    <labels>`, the path (\tikzparentnode\tikzparentanchor) -- (\tikzchildnode\tikzchildanchor).
//
// Every key state lives in a TreeState copied where TeX opens a group; positions are computed in
// canvas pt through frames (the growth transformations compose like pgf's, so `grow cyclic`
// rotations accumulate) and handed back as local coordinates of the statement.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ir/library.hpp"
#include "ir/mindmap.hpp"
#include "packages/support.hpp"
#include "support/ascii.hpp"

namespace tikzlint::ir {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kMm = kPtPerCm / 10;
constexpr int kMaxLevel = 64;             // nesting of children
constexpr std::size_t kMaxChildren = 5000;  // nodes one tree may create
constexpr int kMaxStyleDepth = 16;

// The style that carries the tree keys given to the picture and to enclosing scopes (level
// distance, grow, concept color...), which the key applier does not model: lowering appends them
// there (`/.append style`), so that they follow TeX grouping like the style table does.
constexpr const char* kInheritedTreeKeys = "tikzlint@tree keys";

std::string trim(std::string_view s) {
  std::size_t b = 0, e = s.size();
  while (b < e && is_ascii_space(s[b])) ++b;
  while (e > b && is_ascii_space(s[e - 1])) --e;
  return std::string(s.substr(b, e - b));
}

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

Point operator+(Point a, Point b) { return {a.x + b.x, a.y + b.y}; }
Point operator-(Point a, Point b) { return {a.x - b.x, a.y - b.y}; }

bool is_letter(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }

std::string fmt(double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.5f", std::abs(v) < 1e-9 ? 0.0 : v);
  return buf;
}

std::string point_text(Point p) { return "(" + fmt(p.x) + "pt," + fmt(p.y) + "pt)"; }

// ---------------------------------------------------------------- text scanning

// t[i] is `open`: the index after its matching `close` (braces inside count, \x escapes skip).
std::size_t group_end(std::string_view t, std::size_t i, char open, char close) {
  int depth = 0, braces = 0;
  for (; i < t.size(); ++i) {
    const char c = t[i];
    if (c == '\\') {
      ++i;
      continue;
    }
    if (open != '{' && c == '{') {
      ++braces;
      continue;
    }
    if (open != '{' && c == '}') {
      if (braces > 0) --braces;
      continue;
    }
    if (braces > 0) continue;
    if (c == open) ++depth;
    else if (c == close && --depth == 0) return i + 1;
  }
  return t.size();
}

std::size_t skip_space(std::string_view t, std::size_t i) {
  while (i < t.size()) {
    if (is_ascii_space(t[i])) {
      ++i;
    } else if (t[i] == '%') {  // a comment the expander left: to the end of the line
      while (i < t.size() && t[i] != '\n') ++i;
    } else {
      break;
    }
  }
  return i;
}

// The word `w` at t[i], not followed by a letter.
bool word_at(std::string_view t, std::size_t i, std::string_view w) {
  return t.substr(i, w.size()) == w && (i + w.size() >= t.size() || !is_letter(t[i + w.size()]));
}

// `edge from parent` at t[i] (any spacing between the words); the index after it, or npos.
std::size_t edge_from_parent_at(std::string_view t, std::size_t i) {
  if (!word_at(t, i, "edge")) return std::string_view::npos;
  std::size_t j = skip_space(t, i + 4);
  if (!word_at(t, j, "from")) return std::string_view::npos;
  j = skip_space(t, j + 4);
  if (!word_at(t, j, "parent")) return std::string_view::npos;
  return j + 6;
}

// One item of a path after its root node, or of the inside of a child.
struct Item {
  enum Kind { options, child, edge, other } kind = other;
  std::string text;                  // options: inside the brackets; other: the raw text
  std::string child_options;         // child: [..] before the body (or before foreach)
  std::string foreach_vars, foreach_list;  // child foreach \x in {list}
  bool is_foreach = false;
  std::string body;                  // child: inside the braces
  std::string edge_options, edge_labels;  // edge from parent [opts] node{..} node{..}
};

// Split `t` into options, children, edges from parent and the other path operations, as
// \tikz@collect@children and the path parser see them.
std::vector<Item> split_items(std::string_view t) {
  std::vector<Item> out;
  auto other = [&](std::string_view piece) {
    if (out.empty() || out.back().kind != Item::other) out.push_back(Item{});
    out.back().text += std::string(piece);
  };
  std::size_t i = 0;
  while (i < t.size()) {
    const std::size_t s = skip_space(t, i);
    if (s > i) {
      if (!out.empty() && out.back().kind == Item::other) out.back().text += ' ';
      i = s;
      continue;
    }
    const char c = t[i];
    if (c == '[') {
      const std::size_t e = group_end(t, i, '[', ']');
      Item it;
      it.kind = Item::options;
      it.text = std::string(t.substr(i + 1, e - i - 2 < t.size() ? e - i - 2 : 0));
      out.push_back(std::move(it));
      i = e;
      continue;
    }
    if ((i == 0 || (!is_letter(t[i - 1]) && t[i - 1] != '\\')) && word_at(t, i, "child")) {
      Item it;
      it.kind = Item::child;
      std::size_t j = skip_space(t, i + 5);
      if (j < t.size() && t[j] == '[') {
        const std::size_t e = group_end(t, j, '[', ']');
        it.child_options = std::string(t.substr(j + 1, e - j - 2));
        j = skip_space(t, e);
      }
      if (word_at(t, j, "foreach")) {
        // foreach <vars> in <list>: the list is a brace group or the text up to the body
        const std::size_t in = t.find(" in", j + 7);
        if (in != std::string_view::npos) {
          it.is_foreach = true;
          it.foreach_vars = trim(t.substr(j + 7, in - j - 7));
          std::size_t k = skip_space(t, in + 3);
          if (k < t.size() && t[k] == '{') {
            const std::size_t e = group_end(t, k, '{', '}');
            it.foreach_list = std::string(t.substr(k + 1, e - k - 2));
            k = e;
          } else {
            const std::size_t e = std::min(t.find('{', k), t.size());
            it.foreach_list = trim(t.substr(k, e - k));
            k = e;
          }
          j = skip_space(t, k);
        }
      }
      if (j < t.size() && t[j] == '{') {
        const std::size_t e = group_end(t, j, '{', '}');
        it.body = std::string(t.substr(j + 1, e - j - 2));
        j = e;
      }
      out.push_back(std::move(it));
      i = j;
      continue;
    }
    if (const std::size_t after = edge_from_parent_at(t, i); after != std::string_view::npos &&
                                                              (i == 0 || !is_letter(t[i - 1]))) {
      Item it;
      it.kind = Item::edge;
      std::size_t j = skip_space(t, after);
      if (j < t.size() && t[j] == '[') {
        const std::size_t e = group_end(t, j, '[', ']');
        it.edge_options = std::string(t.substr(j + 1, e - j - 2));
        j = skip_space(t, e);
      }
      // \tikz@edgetoparentcollect: the `node` operations that follow are the edge's labels. So are,
      // in effect, the nodes and coordinates written after them: the edge's path leaves
      // \tikz@node@is@a@label set (\tikz@edge@from@parent@macro's /utils/exec), so they too are
      // placed on its last operation, midway, not at its end (lualatex: `edge from parent
      // coordinate (w)` is halfway between the parent's and the child's borders)
      while (word_at(t, j, "node") || word_at(t, j, "coordinate")) {
        std::size_t k;
        if (word_at(t, j, "node")) {
          k = skip_space(t, j + 4);
          while (k < t.size() && t[k] != '{') {
            if (t[k] == '[') k = group_end(t, k, '[', ']');
            else if (t[k] == '(') k = group_end(t, k, '(', ')');
            else ++k;
            k = skip_space(t, k);
          }
          if (k < t.size()) k = group_end(t, k, '{', '}');
        } else {  // coordinate [options] (name) [at (point)]
          k = skip_space(t, j + 10);
          while (k < t.size() && t[k] == '[') k = skip_space(t, group_end(t, k, '[', ']'));
          if (k < t.size() && t[k] == '(') k = skip_space(t, group_end(t, k, '(', ')'));
          if (word_at(t, k, "at")) {
            k = skip_space(t, k + 2);
            if (k < t.size() && t[k] == '(') k = group_end(t, k, '(', ')');
          }
        }
        it.edge_labels += " " + std::string(t.substr(j, k - j));
        j = skip_space(t, k);
      }
      out.push_back(std::move(it));
      i = j;
      continue;
    }
    std::size_t e = i + 1;
    if (c == '{') e = group_end(t, i, '{', '}');
    else if (c == '(') e = group_end(t, i, '(', ')');
    else if (c == '\\') {
      e = i + 1;
      while (e < t.size() && is_letter(t[e])) ++e;
      if (e == i + 1 && e < t.size()) ++e;
    } else if (is_letter(c)) {
      while (e < t.size() && is_letter(t[e])) ++e;
    }
    other(t.substr(i, e - i));
    i = e;
  }
  return out;
}

// The first top-level `child` of a path statement (outside groups, options and coordinates).
std::size_t first_child(std::string_view t) {
  for (std::size_t i = 0; i < t.size();) {
    const char c = t[i];
    if (c == '\\') {
      i += 2;
      continue;
    }
    if (c == '{') {
      i = group_end(t, i, '{', '}');
      continue;
    }
    if (c == '[') {
      i = group_end(t, i, '[', ']');
      continue;
    }
    if (c == '(') {
      i = group_end(t, i, '(', ')');
      continue;
    }
    if (word_at(t, i, "child") && (i == 0 || !is_letter(t[i - 1]))) return i;
    ++i;
  }
  return std::string_view::npos;
}

// The node spec a child starts with (\tikz@parse@child@node): `node <specs> {text}`, `coordinate
// (name) [at (p)]`, or nothing (the child is then a coordinate).
struct ChildNode {
  bool present = false, is_coordinate = true;
  std::string options, name, at, text;
  std::string rest;  // what follows the spec: grandchildren, edge from parent, path operations
};

ChildNode parse_child_node(std::string_view body) {
  ChildNode n;
  std::size_t i = skip_space(body, 0);
  const bool node = word_at(body, i, "node"), coord = word_at(body, i, "coordinate");
  if (!node && !coord) {
    n.rest = std::string(body);
    return n;
  }
  n.present = true;
  n.is_coordinate = coord;
  i = skip_space(body, i + (node ? 4 : 10));
  while (i < body.size()) {
    if (body[i] == '[') {
      const std::size_t e = group_end(body, i, '[', ']');
      if (!n.options.empty()) n.options += ',';
      n.options += body.substr(i + 1, e - i - 2);
      i = skip_space(body, e);
    } else if (body[i] == '(') {
      const std::size_t e = group_end(body, i, '(', ')');
      n.name = trim(body.substr(i + 1, e - i - 2));
      i = skip_space(body, e);
      if (coord && !word_at(body, i, "at")) break;
    } else if (word_at(body, i, "at")) {
      std::size_t k = skip_space(body, i + 2);
      if (k < body.size() && (body[k] == '+')) ++k;
      if (k < body.size() && (body[k] == '+')) ++k;
      const std::size_t e = k < body.size() && body[k] == '(' ? group_end(body, k, '(', ')') : k;
      n.at = std::string(body.substr(i + 2, e - i - 2));
      i = skip_space(body, e);
      if (coord) break;
    } else if (!coord && body[i] == '{') {
      const std::size_t e = group_end(body, i, '{', '}');
      n.text = std::string(body.substr(i + 1, e - i - 2));
      i = e;
      break;
    } else {
      break;
    }
  }
  n.rest = std::string(body.substr(std::min(i, body.size())));
  return n;
}

// \foreach lists as pgffor reads them: `1,2,3`, `1,...,5`, `0,2,...,10`, `a/b,c/d`.
std::vector<std::string> foreach_items(const std::string& list, std::size_t limit) {
  std::vector<std::string> raw;
  for (const auto& it : tex::split_options(list)) raw.push_back(trim(it.has_value ? it.key + "=" + it.value : it.key));
  std::vector<std::string> out;
  for (std::size_t k = 0; k < raw.size() && out.size() < limit; ++k) {
    if (raw[k] == "..." && !out.empty() && k + 1 < raw.size()) {
      char* end = nullptr;
      const double last = std::strtod(out.back().c_str(), &end);
      const bool numeric = end && *end == 0 && !out.back().empty();
      const double target = std::strtod(raw[k + 1].c_str(), &end);
      if (numeric && end && *end == 0) {
        double step = last <= target ? 1 : -1;
        if (out.size() >= 2) {
          const double prev = std::strtod(out[out.size() - 2].c_str(), &end);
          if (end && *end == 0 && prev != last) step = last - prev;
        }
        for (double v = last + step; (step > 0 ? v < target - 1e-9 : v > target + 1e-9) && out.size() < limit; v += step) {
          char buf[32];
          std::snprintf(buf, sizeof buf, "%g", v);
          out.push_back(buf);
        }
        continue;
      }
      if (out.back().size() == 1 && raw[k + 1].size() == 1) {  // letters: a,...,e
        for (char ch = static_cast<char>(out.back()[0] + 1); ch < raw[k + 1][0] && out.size() < limit; ++ch)
          out.push_back(std::string(1, ch));
        continue;
      }
    }
    out.push_back(tex::strip_braces(raw[k]));
  }
  return out;
}


// ---------------------------------------------------------------- library styles

// tikzlibrarytrees.code.tex: the fork edges.
const std::map<std::string, std::string>& fork_paths() {
  static const std::map<std::string, std::string> m = {
      {"edge from parent fork down",
       "(\\tikzparentnode\\tikzparentanchor) -- +(0pt,-.5\\tikzleveldistance) -| (\\tikzchildnode\\tikzchildanchor)"},
      {"edge from parent fork up",
       "(\\tikzparentnode\\tikzparentanchor) -- +(0pt,.5\\tikzleveldistance) -| (\\tikzchildnode\\tikzchildanchor)"},
      {"edge from parent fork left",
       "(\\tikzparentnode\\tikzparentanchor) -- +(-.5\\tikzleveldistance,0pt) |- (\\tikzchildnode\\tikzchildanchor)"},
      {"edge from parent fork right",
       "(\\tikzparentnode\\tikzparentanchor) -- +(.5\\tikzleveldistance,0pt) |- (\\tikzchildnode\\tikzchildanchor)"},
  };
  return m;
}

// tikz.code.tex \tikz@grow@direction@...: the named growth directions.
std::optional<double> direction_angle(const std::string& v) {
  static const std::map<std::string, double> m = {
      {"down", -90},        {"up", 90},           {"left", 180},         {"right", 0},
      {"south", -90},       {"north", 90},        {"west", 180},         {"east", 0},
      {"north east", 45},   {"north west", 135},  {"south east", -45},   {"south west", -135}};
  auto it = m.find(v);
  if (it == m.end()) return std::nullopt;
  return it->second;
}

// Keys of coordinate transformations (pgfmanual 25.3): in a child's options they move the child's
// frame, never the node shape.
bool is_transform_key(const std::string& k) {
  static constexpr std::string_view kKeys[] = {"shift",  "xshift",   "yshift",        "rotate",    "scale",
                                               "xscale", "yscale",   "rotate around", "cm",        "xslant",
                                               "yslant", "reset cm", "scale around",  "shift only"};
  for (std::string_view x : kKeys)
    if (std::string_view(k) == x) return true;
  return false;
}

// Path modes do not carry from a group to the paths inside it (pgfmanual 15.3).
bool is_path_mode_key(const std::string& k) {
  return k == "draw" || k == "fill" || k == "pattern" || k == "shade" || k == "clip" || k == "use as bounding box";
}

std::string key_text(const tex::FlatKey& k) { return k.has_value ? k.key + "={" + k.value + "}" : k.key; }

std::string join(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) {
    if (s.empty()) continue;
    if (!out.empty()) out += ',';
    out += s;
  }
  return out;
}

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  if (from.empty()) return s;
  for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) {
    const std::size_t end = at + from.size();
    if (from[0] == '\\' && end < s.size() && is_letter(s[end])) {  // \x must not match \xa
      at += 1;
      continue;
    }
    s.replace(at, from.size(), to);
  }
  return s;
}

// A dimension register in an expression: `-.5\tikzleveldistance` is a factor times the register.
std::string replace_dimension(std::string s, const std::string& name, double pt) {
  for (std::size_t at = s.find(name); at != std::string::npos; at = s.find(name, at + 1)) {
    const std::size_t end = at + name.size();
    if (end < s.size() && is_letter(s[end])) continue;
    const bool factor = at > 0 && (std::isdigit(static_cast<unsigned char>(s[at - 1])) || s[at - 1] == '.');
    std::string out = s.substr(0, at);
    if (factor) out.push_back('*');
    out.append(fmt(pt)).append("pt").append(s, end, std::string::npos);
    s = std::move(out);
  }
  return s;
}

// ---------------------------------------------------------------- state

enum class Growth { direction, three_points, cyclic, clockwise, counterclockwise, unknown };

struct TreeState {
  double level_distance = 15 * kMm, sibling_distance = 15 * kMm;  // tikz.code.tex: 15mm each
  double sibling_angle = 20;                                      // tikzlibrarytrees: .initial=20
  Growth growth = Growth::direction;
  double angle = -90, angle_left = -180, angle_right = 0;  // grow=down
  int special_level = -1;                                   // \tikz@special@level: never
  Point three[3];                                           // grow via three points
  double from_angle = 0;                                    // (counter)clockwise from
  std::string growth_anchor = "center", parent_anchor, child_anchor;
  std::string edge_path;       // edge from parent path; empty: (parent) -- (child)
  bool circle_bar = false;     // mindmap: the edge is a circle connection bar
  bool edge_reset_cm = false;  // grow cyclic: edge from parent/.append style={reset cm}
  bool missing = false;
  bool mindmap = false;
  std::string concept_color = "black";
  std::vector<std::string> pass;  // keys every statement of the group gets (colors, line width...)
};

// scope: a group's keys (transformations move the frame, path modes end); node: a node's own
// options (tree keys are local to it); path: a path's options, re-emitted with the path.
enum class Mode { scope, node, path };

class TreeLowerer {
 public:
  TreeLowerer(const tex::Statement& st, LibraryHost& host)
      : st_(st), host_(host), end_(static_cast<std::uint32_t>(st.text.size())) {
    ctm_ = host_.settings().ctm;
    ctm_inv_ = ctm_.inverse();
    keys_.base_font_size = host_.settings().picture_font.size_pt;
    keys_.local_point = [this](const std::string& text, const Settings&, std::uint32_t, std::uint32_t) {
      return point(text);
    };
  }

  bool run();

 private:
  const tex::Statement& st_;
  LibraryHost& host_;
  std::uint32_t end_;
  Transform ctm_, ctm_inv_;
  KeyApplier keys_;
  std::size_t created_ = 0;
  bool reported_limit_ = false;

  void emit(const std::string& s) { host_.emit(s, 0, end_); }
  void problem(const std::string& code, const std::string& msg, bool incomplete = true) {
    host_.problem(code, msg, 0, end_, incomplete);
  }

  std::optional<double> dimension(const std::string& v) {
    std::string err;
    auto r = host_.eval(replace_all(trim(v), "\\tikztreelevel", "0"), &err);
    if (!r) {
      problem("math-error", "cannot evaluate '" + trim(v) + "'" + (err.empty() ? "" : ": " + err), false);
      return std::nullopt;
    }
    return r->value;
  }
  std::optional<double> number(const std::string& v) { return dimension(v); }

  // A coordinate written in an option, "(1,2)" or "(30:1cm)", in pt of the frame it is used in.
  std::optional<Point> point(std::string text) {
    text = trim(text);
    if (text.size() >= 2 && text.front() == '(' && text.back() == ')') text = trim(text.substr(1, text.size() - 2));
    const Settings& s = host_.settings();
    auto split_top = [&](char sep) -> std::optional<std::pair<std::string, std::string>> {
      int depth = 0;
      for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '{' || text[i] == '(') ++depth;
        else if (text[i] == '}' || text[i] == ')') --depth;
        else if (depth == 0 && text[i] == sep) return std::make_pair(text.substr(0, i), text.substr(i + 1));
      }
      return std::nullopt;
    };
    std::string err;
    if (auto polar = split_top(':')) {
      auto a = host_.eval(polar->first, &err), r = host_.eval(polar->second, &err);
      if (!a || !r) return std::nullopt;
      const double c = std::cos(a->value * kPi / 180), sn = std::sin(a->value * kPi / 180);
      if (r->is_length) return Point{r->value * c, r->value * sn};
      return Point{r->value * (c * s.xvec.x + sn * s.yvec.x), r->value * (c * s.xvec.y + sn * s.yvec.y)};
    }
    auto xy = split_top(',');
    if (!xy) return std::nullopt;
    auto x = host_.eval(xy->first, &err), y = host_.eval(xy->second, &err);
    if (!x || !y) return std::nullopt;
    Point p{0, 0};
    if (x->is_length) p.x += x->value;
    else p = p + Point{x->value * s.xvec.x, x->value * s.xvec.y};
    if (y->is_length) p.y += y->value;
    else p = p + Point{y->value * s.yvec.x, y->value * s.yvec.y};
    return p;
  }

  // The keys of a style, or nothing when no such style is defined (the key comes back as is).
  std::vector<tex::FlatKey> style(const std::string& name, const std::string& value = "") {
    auto keys = host_.expand_keys(value.empty() ? name : name + "={" + value + "}");
    if (keys.size() == 1 && keys[0].via.empty() && keys[0].key == name) return {};
    return keys;
  }

  void apply_keys(TreeState& s, const std::vector<tex::FlatKey>& keys, Mode mode, int level, Transform* t,
                  std::vector<std::string>& out, int depth = 0);
  void apply_text(TreeState& s, const std::string& text, Mode mode, int level, Transform* t,
                  std::vector<std::string>& out, int depth = 0) {
    if (trim(text).empty()) return;
    apply_keys(s, host_.expand_keys(text), mode, level, t, out, depth);
  }
  // A library style: its definition in the library, then what the user appended to it.
  void apply_library(TreeState& s, const std::string& name, const std::string& body, Mode mode, int level,
                     Transform* t, std::vector<std::string>& out, int depth) {
    if (depth > kMaxStyleDepth) return;
    apply_text(s, body, mode, level, t, out, depth + 1);
    apply_keys(s, style(name), mode, level, t, out, depth + 1);
  }

  std::optional<Point> anchor_point(const std::string& name, const std::string& anchor);
  Transform grow(const TreeState& s, int n, int i, int level);
  std::string translate_node_options(const TreeState& s, const std::string& raw);

  struct Child {
    std::string options, body;
  };
  std::vector<Child> expand_children(const std::vector<Item>& items);
  // The rest of a node's path: options, children groups, other operations; the edge to its
  // parent (if written) is returned in `edge`.
  void lower_rest(const std::vector<Item>& items, const std::string& name, const Transform& frame, TreeState& s,
                  int level, bool is_child, std::optional<Item>& edge, std::string& after_edge);
  void lower_children(const std::vector<Item>& kids, const std::string& parent, const Transform& parent_frame,
                      const TreeState& s, int level);
  void lower_edge(const std::string& parent, const std::string& child, const TreeState& s, const Item* edge,
                  const std::string& after_edge, const Transform& frame);
  void emit_in_frame(const Transform& frame, const std::string& statement, bool linear_only);
};

void TreeLowerer::apply_keys(TreeState& s, const std::vector<tex::FlatKey>& keys, Mode mode, int level, Transform* t,
                             std::vector<std::string>& out, int depth) {
  for (const auto& k : keys) {
    const std::string& key = k.key;
    const std::string v = trim(k.value);
    // mindmap library styles (tikzlibrarymindmap.code.tex)
    if (const ConceptSizes* z = mindmap_variant(key)) {
      s.mindmap = true;
      s.circle_bar = true;
      // `small mindmap` and the others redefine the concept styles in the style table first
      if (z != &kConceptSizes[0]) host_.expand_keys(concept_style_definitions(*z, true));
      apply_library(s, key, mindmap_keys(*z), mode, level, t, out, depth);
      continue;
    }
    if (key == "root concept" ||
        (starts_with(key, "level ") && key.size() == 15 && key.substr(7) == " concept" && key[6] >= '1' &&
         key[6] <= '4')) {
      // the library's definition and what the user appended, both in the style table
      apply_keys(s, style(key), mode, level, t, out, depth + 1);
      continue;
    }
    if (key == "concept") {
      apply_library(s, key, "circle,fill={" + s.concept_color + "},draw={" + s.concept_color + "},every concept", mode,
                    level, t, out, depth);
      continue;
    }
    if (key == "extra concept") {
      apply_library(s, key, "concept color=black!50,level 2 concept,concept,every extra concept", mode, level, t, out,
                    depth);
      continue;
    }
    if (key == "annotation") {
      apply_library(s, key,
                    "shape=rectangle,minimum size=0pt,text width=3.5cm,outer sep=1.5mm,inner sep=1mm,"
                    "rounded corners,font=\\tiny,every annotation",
                    mode, level, t, out, depth);
      continue;
    }
    if (key == "concept connection") {
      apply_library(s, key, "line width=1mm,shorten <=2mm,shorten >=2mm,cap=round,draw=black!50", mode, level, t, out,
                    depth);
      continue;
    }
    if (key == "every concept" || key == "every extra concept" || key == "every mindmap" ||
        key == "every annotation" || key == "every circle connection bar" || key == "segment angle")
      continue;  // empty library styles; a user's definition came through the style table
    if (key == "concept color") {
      s.concept_color = v;
      s.circle_bar = true;  // \tikz@edge@to@parent@path becomes a circle connection bar
      continue;
    }
    // trees library
    if (key == "grow cyclic") {
      s.growth = Growth::cyclic;
      s.edge_reset_cm = true;
      apply_keys(s, style(key), mode, level, t, out, depth + 1);
      continue;
    }
    if (auto f = fork_paths().find(key); f != fork_paths().end()) {
      s.edge_path = f->second;
      s.circle_bar = false;
      continue;
    }
    if (key == "grow via three points") {
      // one child at (x) and two children at (y) and (z)
      std::vector<Point> pts;
      for (std::size_t at = v.find('('); at != std::string::npos && pts.size() < 3; at = v.find('(', at)) {
        const std::size_t e = group_end(v, at, '(', ')');
        auto p = point(v.substr(at, e - at));
        if (!p) break;
        pts.push_back(*p);
        at = e;
      }
      if (pts.size() == 3) {
        s.growth = Growth::three_points;
        std::copy(pts.begin(), pts.end(), s.three);
      } else {
        problem("unsupported-key", "cannot read 'grow via three points=" + v + "'");
      }
      continue;
    }
    if (key == "sibling angle") {
      if (auto d = number(v)) s.sibling_angle = *d;
      continue;
    }
    if (key == "clockwise from" || key == "counterclockwise from") {
      if (auto d = number(v)) {
        s.growth = key == "clockwise from" ? Growth::clockwise : Growth::counterclockwise;
        s.from_angle = *d;
      }
      continue;
    }
    // tikz.code.tex tree options
    if (key == "level distance" || key == "sibling distance") {
      if (auto d = dimension(v)) (key == "level distance" ? s.level_distance : s.sibling_distance) = *d;
      continue;
    }
    if (key == "grow" || key == "grow'") {
      std::optional<double> a = direction_angle(v);
      if (!a) a = number(v);
      if (a) {
        s.growth = Growth::direction;
        s.angle = *a;
        s.angle_left = *a - 90;
        s.angle_right = *a + 90;
        if (key == "grow'") std::swap(s.angle_left, s.angle_right);
        s.special_level = level;
      }
      continue;
    }
    if (key == "growth parent anchor") {
      s.growth_anchor = v;
      continue;
    }
    if (key == "parent anchor" || key == "child anchor") {
      (key == "parent anchor" ? s.parent_anchor : s.child_anchor) = v == "border" ? "" : v;
      continue;
    }
    if (key == "edge from parent path") {
      s.edge_path = v;
      s.circle_bar = false;
      continue;
    }
    if (key == "missing") {
      s.missing = !(k.has_value && v == "false");
      continue;
    }
    if (key == "growth function") {
      problem("unsupported-key", "growth function '" + v + "' is not modelled");
      s.growth = Growth::unknown;
      continue;
    }
    if (key == "grow siblings on line") {
      s.growth = Growth::direction;
      continue;
    }
    if (key == "every child" || key == "every child node" || key == "level" || key == "edge from parent macro" ||
        key == "tikz@concept@setting" || key == "tikz@concept@color@set")
      continue;
    if (starts_with(key, "level ") && key.find_first_not_of("0123456789", 6) == std::string::npos) continue;
    if (mode == Mode::scope || mode == Mode::path) {
      if (is_transform_key(key)) {
        if (t) {
          Settings plain = host_.settings();
          plain.ctm = Transform{};
          std::vector<LowerProblem> probs;
          keys_.apply_one(plain, k, KeyTarget::scope, 0, end_, probs);
          for (const auto& p : probs) problem(p.code, p.message, p.makes_incomplete);
          *t = key == "reset cm" ? Transform{} : t->then_local(plain.ctm);
        }
        if (mode == Mode::path) out.push_back(key_text(k));
        continue;
      }
      if (is_path_mode_key(key) && mode == Mode::scope) continue;
    }
    out.push_back(key_text(k));
  }
}

// An anchor of a node lowered so far, from its border box (canvas pt).
std::optional<Point> TreeLowerer::anchor_point(const std::string& name, const std::string& anchor) {
  auto c = host_.named_center(name);
  if (!c) return std::nullopt;
  if (anchor.empty() || anchor == "center") return c;
  if (auto a = host_.named_anchor(name, anchor)) return a;
  auto b = host_.named_box(name);
  if (!b) return c;
  const double mx = c->x, my = c->y;
  static const std::map<std::string, std::pair<int, int>> kAnchors = {
      {"north", {0, 1}},       {"south", {0, -1}},      {"east", {1, 0}},        {"west", {-1, 0}},
      {"north east", {1, 1}},  {"north west", {-1, 1}}, {"south east", {1, -1}}, {"south west", {-1, -1}}};
  auto it = kAnchors.find(anchor);
  if (it == kAnchors.end()) return c;
  const auto [dx, dy] = it->second;
  return Point{dx < 0 ? b->xmin : dx > 0 ? b->xmax : mx, dy < 0 ? b->ymin : dy > 0 ? b->ymax : my};
}

// The growth functions: tikz.code.tex \tikz@grow@direction, tikzlibrarytrees.code.tex
// \tikz@grow@three, \tikz@grow@circle, \tikz@grow@circle@from(@). `i` counts from 1.
Transform TreeLowerer::grow(const TreeState& s, int n, int i, int level) {
  auto polar = [](double a, double r) { return Point{r * std::cos(a * kPi / 180), r * std::sin(a * kPi / 180)}; };
  switch (s.growth) {
    case Growth::direction:
    case Growth::unknown: {
      Point p = polar(s.angle, s.level_distance);
      if (level != s.special_level) {
        p = p + polar(s.angle_left, (n + 1) * s.sibling_distance / 2);
        p = p + polar(s.angle_right, i * s.sibling_distance);
      }
      return Transform::shift(p.x, p.y);
    }
    case Growth::three_points: {
      const Point one = s.three[0], left = s.three[1] - s.three[0], step = s.three[2] - s.three[1];
      const Point p = one + Point{(n - 1) * left.x, (n - 1) * left.y} + Point{(i - 1) * step.x, (i - 1) * step.y};
      return Transform::shift(p.x, p.y);
    }
    case Growth::cyclic:
      return Transform::rotate(s.sibling_angle * (-.5 - .5 * n + i)).then_local(Transform::shift(s.level_distance, 0));
    case Growth::clockwise:
    case Growth::counterclockwise: {
      const double a = s.from_angle + (s.growth == Growth::clockwise ? -1 : 1) * s.sibling_angle * (i - 1);
      const Point p = polar(a, s.level_distance);
      return Transform::shift(p.x, p.y);
    }
  }
  return Transform{};
}

std::string TreeLowerer::translate_node_options(const TreeState& s, const std::string& raw) {
  TreeState local = s;
  std::vector<std::string> out;
  apply_text(local, raw, Mode::node, 0, nullptr, out);
  return join(out);
}

std::vector<TreeLowerer::Child> TreeLowerer::expand_children(const std::vector<Item>& items) {
  std::vector<Child> out;
  for (const auto& it : items) {
    if (!it.is_foreach) {
      out.push_back({it.child_options, it.body});
      continue;
    }
    // pgffor: `\x` or `\x/\y` bound to each item (split at '/')
    std::vector<std::string> vars;
    for (std::size_t p = 0; p <= it.foreach_vars.size();) {
      std::size_t q = it.foreach_vars.find('/', p);
      if (q == std::string::npos) q = it.foreach_vars.size();
      vars.push_back(trim(std::string_view(it.foreach_vars).substr(p, q - p)));
      p = q + 1;
    }
    for (const auto& value : foreach_items(it.foreach_list, kMaxChildren)) {
      std::vector<std::string> parts;
      for (std::size_t p = 0; p <= value.size();) {
        std::size_t q = vars.size() > 1 ? value.find('/', p) : std::string::npos;
        if (q == std::string::npos) q = value.size();
        parts.push_back(trim(std::string_view(value).substr(p, q - p)));
        p = q + 1;
      }
      Child c{it.child_options, it.body};
      for (std::size_t v = 0; v < vars.size(); ++v) {
        const std::string val = v < parts.size() ? parts[v] : parts.empty() ? "" : parts.back();
        c.options = replace_all(c.options, vars[v], val);
        c.body = replace_all(c.body, vars[v], val);
      }
      out.push_back(std::move(c));
      if (out.size() >= kMaxChildren) break;
    }
  }
  return out;
}

void TreeLowerer::emit_in_frame(const Transform& frame, const std::string& statement, bool linear_only) {
  Transform rel = ctm_inv_.then_local(frame);
  if (linear_only) rel.e = rel.f = 0;
  const bool identity = rel.is_identity_linear() && std::abs(rel.e) < 1e-9 && std::abs(rel.f) < 1e-9;
  if (identity) {
    emit(statement);
    return;
  }
  emit("\\begin{scope}[cm={" + fmt(rel.a) + "," + fmt(rel.b) + "," + fmt(rel.c) + "," + fmt(rel.d) + "," +
       point_text({rel.e, rel.f}) + "}]");
  emit(statement);
  emit("\\end{scope}");
}

void TreeLowerer::lower_rest(const std::vector<Item>& items, const std::string& name, const Transform& frame,
                             TreeState& s, int level, bool is_child, std::optional<Item>& edge,
                             std::string& after_edge) {
  Transform path_t;  // transformations given mid-path
  std::vector<Item> group;
  std::string others;
  auto flush = [&] {
    if (group.empty()) return;
    Transform f = frame.then_local(path_t);
    lower_children(group, name, f, s, level + 1);
    group.clear();
  };
  for (const auto& it : items) {
    if (it.kind == Item::child) {
      group.push_back(it);
      continue;
    }
    flush();
    switch (it.kind) {
      case Item::options:
        apply_text(s, it.text, Mode::scope, level, &path_t, s.pass);
        if (!others.empty()) others += " [" + it.text + "]";
        break;
      case Item::edge:
        edge = it;
        break;
      case Item::other: {
        const std::string text = trim(it.text);
        if (text.empty() || text == ";") break;
        if (edge) after_edge += " " + text;
        else others += " " + text;
        break;
      }
      case Item::child:
        break;
    }
  }
  flush();
  others = trim(others);
  if (others.empty()) return;
  if (!is_child) {
    problem("unsupported-path-operation", "path operations after the children of a tree are not lowered ('" +
                                              others.substr(0, std::min<std::size_t>(others.size(), 30)) + "')");
    return;
  }
  // \path <rest>: a new path in the child's frame, whose origin is the child
  emit_in_frame(frame, "\\path[" + join(s.pass) + "] (0pt,0pt) " + others + ";", false);
}

void TreeLowerer::lower_children(const std::vector<Item>& kids, const std::string& parent,
                                 const Transform& parent_frame, const TreeState& s, int level) {
  if (level > kMaxLevel) {
    problem("resource-limit", "tree nested deeper than " + std::to_string(kMaxLevel) + " levels");
    return;
  }
  const std::vector<Child> children = expand_children(kids);
  const int n = static_cast<int>(children.size());
  // \tikz@children@collected: level styles, then the origin at the parent's growth anchor
  TreeState g = s;
  Transform level_t;
  const std::string lv = std::to_string(level);
  apply_keys(g, style("level", lv), Mode::scope, level, &level_t, g.pass);
  apply_keys(g, style("level " + lv), Mode::scope, level, &level_t, g.pass);
  if (g.mindmap && level <= 4) {
    const std::vector<tex::FlatKey> concept_keys = {tex::FlatKey{"level " + lv + " concept", "", false, 0, 0, ""}};
    apply_keys(g, concept_keys, Mode::scope, level, &level_t, g.pass);
  }
  Transform linear = parent_frame.then_local(level_t);
  linear.e = linear.f = 0;
  const auto anchor = anchor_point(parent, g.growth_anchor);
  if (!anchor) {
    problem("unsupported-coordinate", "the parent of a tree child ('" + parent + "') is not a node");
    return;
  }
  const Transform origin = Transform::shift(anchor->x, anchor->y).then_local(linear);
  for (int i = 1; i <= n; ++i) {
    if (++created_ > kMaxChildren) {
      if (!reported_limit_) problem("resource-limit", "tree has more than " + std::to_string(kMaxChildren) + " children");
      reported_limit_ = true;
      return;
    }
    const Child& ch = children[static_cast<std::size_t>(i - 1)];
    TreeState c = g;
    c.missing = false;
    Transform child_t;
    apply_keys(c, style("every child"), Mode::scope, level, &child_t, c.pass);
    std::string opts = replace_all(ch.options, "\\tikznumberofcurrentchild", std::to_string(i));
    opts = replace_all(opts, "\\tikznumberofchildren", std::to_string(n));
    opts = replace_all(opts, "\\tikztreelevel", lv);
    apply_text(c, opts, Mode::scope, level, &child_t, c.pass);
    if (c.missing) continue;
    const Transform frame = origin.then_local(child_t).then_local(grow(c, n, i, level));
    const Point at = ctm_inv_.apply(frame.apply({0, 0}));
    ChildNode cn = parse_child_node(ch.body);
    // tikzlibrarytrees.code.tex \tikz@grow@three decrements \tikznumberofcurrentchild before the
    // name <parent>-<number> is made: its children are named from <parent>-0
    const int number = c.growth == Growth::three_points ? i - 1 : i;
    const std::string name = cn.present && !cn.name.empty() ? cn.name : parent + "-" + std::to_string(number);
    // \node[name=<parent>-<i>, style=every child node] <node spec>
    std::vector<std::string> node_opts = c.pass;
    {
      TreeState local = c;
      apply_keys(local, style("every child node"), Mode::node, level, nullptr, node_opts);
    }
    node_opts.push_back(translate_node_options(c, cn.options));
    const std::string o = join(node_opts);
    if (!cn.present || cn.is_coordinate) {
      if (!cn.at.empty())
        emit_in_frame(frame, "\\coordinate[" + o + "] (" + name + ") at " + cn.at + ";", false);
      else
        emit("\\coordinate[" + o + "] (" + name + ") at " + point_text(at) + ";");
    } else if (!cn.at.empty()) {
      emit_in_frame(frame, "\\node[" + o + "] (" + name + ") at " + cn.at + " {" + cn.text + "};", false);
    } else {
      emit("\\node[" + o + "] (" + name + ") at " + point_text(at) + " {" + cn.text + "};");
    }
    std::optional<Item> edge;
    std::string after_edge;
    lower_rest(split_items(cn.rest), name, frame, c, level, true, edge, after_edge);
    lower_edge(parent, name, c, edge ? &*edge : nullptr, after_edge, frame);
  }
}

// [style=edge from parent, opts] <edge from parent path> <labels> (tikz.code.tex
// \tikz@edge@from@parent@macro); the labels sit on the path like nodes written inside it.
void TreeLowerer::lower_edge(const std::string& parent, const std::string& child, const TreeState& s,
                             const Item* edge, const std::string& after_edge, const Transform& frame) {
  std::vector<std::string> opts = s.pass;
  const std::vector<tex::FlatKey> style_keys = style("edge from parent");
  bool draws = style_keys.empty();
  std::vector<std::string> style_text;
  for (const auto& k : style_keys) {
    if (k.key == "draw") draws = true;
    style_text.push_back(key_text(k));
  }
  if (!style_keys.empty() && !draws) style_text.insert(style_text.begin(), "draw");  // /.append style to {draw}
  if (style_keys.empty()) style_text.push_back("draw");
  std::string path;
  if (s.circle_bar) {
    // tikzlibrarymindmap.code.tex: a bar between the two circles, .175 of the smaller radius wide,
    // filled with the concept color; modelled as a line of that width between the borders
    double r = 1e9;
    for (const std::string& n : {parent, child})
      if (auto b = host_.named_box(n)) r = std::min(r, (b->xmax - b->xmin) / 2);
    if (r > 1e8) r = 0;
    style_text = {"draw={" + s.concept_color + "}", "line width=" + fmt(std::max(0.4, .175 * r)) + "pt"};
    path = "(" + parent + ") -- (" + child + ")";
  } else if (!s.edge_path.empty()) {
    path = s.edge_path;
    path = replace_all(path, "\\tikzparentnode", parent);
    path = replace_all(path, "\\tikzchildnode", child);
    path = replace_all(path, "\\tikzparentanchor", s.parent_anchor.empty() ? "" : "." + s.parent_anchor);
    path = replace_all(path, "\\tikzchildanchor", s.child_anchor.empty() ? "" : "." + s.child_anchor);
    path = replace_dimension(path, "\\tikzleveldistance", s.level_distance);
    path = replace_dimension(path, "\\tikzsiblingdistance", s.sibling_distance);
  } else {
    path = "(" + parent + (s.parent_anchor.empty() ? "" : "." + s.parent_anchor) + ") -- (" + child +
           (s.child_anchor.empty() ? "" : "." + s.child_anchor) + ")";
  }
  for (const auto& t : style_text) opts.push_back(t);
  if (edge && !trim(edge->edge_options).empty()) opts.push_back(edge->edge_options);
  if (edge && !trim(edge->edge_labels).empty()) {
    // before the path's last coordinate: the labels are placed midway, as inside `-- node{} (c)`
    std::size_t last = std::string::npos;
    for (std::size_t i = 0; i < path.size();) {
      if (path[i] == '(') {
        last = i;
        i = group_end(path, i, '(', ')');
      } else if (path[i] == '{') {
        i = group_end(path, i, '{', '}');
      } else {
        ++i;
      }
    }
    const std::size_t at = last == std::string::npos ? path.size() : last;
    path.insert(at, trim(edge->edge_labels) + " ");
  }
  if (!after_edge.empty()) path += " " + trim(after_edge);
  const std::string statement = "\\path[" + join(opts) + "] " + path + ";";
  const bool relative = path.find("+(") != std::string::npos;
  if (relative && !s.edge_reset_cm) emit_in_frame(frame, statement, true);
  else emit(statement);
}

bool TreeLowerer::run() {
  const std::string& t = st_.text;
  const std::size_t at = first_child(t);
  if (at == std::string::npos) return false;
  std::string prefix = t.substr(0, at);
  std::string rest = trim(std::string_view(t).substr(at));
  if (!rest.empty() && rest.back() == ';') rest.pop_back();
  auto parsed = grammar::parse(trim(prefix) + ";");
  if (!parsed.errors.empty() || parsed.statements.size() != 1) return false;
  prefix = trim(prefix);
  const grammar::Statement& gs = parsed.statements.back();

  TreeState s;
  std::vector<std::string> unused;
  apply_keys(s, style(kInheritedTreeKeys), Mode::scope, 0, nullptr, s.pass);
  const std::vector<std::string> inherited_pass = s.pass;
  Transform path_t;
  const bool node_command = gs.command == "node" || gs.command == "coordinate";
  if (gs.options && !node_command) apply_text(s, gs.options->raw, Mode::scope, 0, &path_t, s.pass);

  // the root: the last node or coordinate before the first child
  std::size_t k = gs.ops.size();
  for (std::size_t i = gs.ops.size(); i-- > 0;) {
    if ((gs.ops[i].kind == grammar::OpKind::NodeOp || gs.ops[i].kind == grammar::OpKind::CoordinateOp) &&
        gs.ops[i].node) {
      k = i;
      break;
    }
  }
  std::string root = "tikz@f@" + std::to_string(st_.prov.range.begin);
  std::string text = prefix;
  struct Edit {
    std::uint32_t b, e;
    std::string with;
  };
  std::vector<Edit> edits;
  if (gs.options && !node_command) {
    // the path's own options, without the tree keys (which the key applier does not know)
    TreeState scratch;
    std::vector<std::string> path_opts;
    apply_text(scratch, gs.options->raw, Mode::path, 0, nullptr, path_opts);
    edits.push_back({gs.options->span.begin, gs.options->span.end, "[" + join(path_opts) + "]"});
  }
  if (k == gs.ops.size()) {
    text += " coordinate (" + root + ")";
  } else {
    const grammar::PathOp& op = gs.ops[k];
    const grammar::Node& nd = *op.node;
    if (!nd.name.empty()) root = nd.name;
    // options after the root (`\node {root} [grow'=up] child ...`) are the path's: they apply to
    // the children
    for (std::size_t i = k + 1; i < gs.ops.size(); ++i) {
      if (gs.ops[i].kind != grammar::OpKind::Options || !gs.ops[i].options) continue;
      apply_text(s, gs.ops[i].options->raw, Mode::scope, 0, &path_t, s.pass);
      edits.push_back({gs.ops[i].span.begin, gs.ops[i].span.end, ""});
    }
    if (nd.unsupported.empty()) {
      std::string keyword;
      const std::string_view spec = std::string_view(prefix).substr(op.span.begin);
      if (word_at(spec, 0, "node")) keyword = "node";
      else if (word_at(spec, 0, "coordinate")) keyword = "coordinate";
      std::string node_raw = nd.options ? nd.options->raw : "";
      if (nd.is_coordinate) {
        // tikz.code.tex \tikz@coordinate: only the options before `(name)` are the coordinate's;
        // those after its name or its `at (..)` are the path's, and reach the children
        node_raw.clear();
        const std::string_view spec_text = std::string_view(prefix).substr(op.span.begin, op.span.end - op.span.begin);
        bool after_name = false;
        for (std::size_t i = 0; i < spec_text.size();) {
          if (spec_text[i] == '(') {
            after_name = true;
            i = group_end(spec_text, i, '(', ')');
          } else if (spec_text[i] == '[') {
            const std::size_t e = group_end(spec_text, i, '[', ']');
            const std::string raw(spec_text.substr(i + 1, e - i - 2));
            if (after_name) apply_text(s, raw, Mode::scope, 0, &path_t, s.pass);
            else {
              if (!node_raw.empty()) node_raw += ',';
              node_raw += raw;
            }
            i = e;
          } else {
            ++i;
          }
        }
      }
      std::vector<std::string> opts = inherited_pass;
      opts.push_back(translate_node_options(s, node_raw));
      std::string rebuilt = keyword + "[" + join(opts) + "] (" + root + ")";
      if (nd.at) rebuilt += " at " + prefix.substr(nd.at->span.begin, nd.at->span.end - nd.at->span.begin);
      if (!nd.is_coordinate) rebuilt += " {" + nd.text + "}";
      edits.push_back({op.span.begin, op.span.end, rebuilt});
    } else if (nd.name.empty()) {
      if (nd.has_text) edits.push_back({nd.text_span.begin - 1, nd.text_span.begin - 1, "(" + root + ") "});
      else edits.push_back({op.span.end, op.span.end, " (" + root + ")"});
    }
  }
  std::sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) { return a.b > b.b; });
  for (const auto& e : edits)
    if (e.b <= text.size() && e.e <= text.size() && e.b <= e.e) text.replace(e.b, e.e - e.b, e.with);
  emit(text + ";");

  if (!host_.named_center(root)) {
    problem("unsupported-coordinate", "the root of the tree could not be placed");
    return true;
  }
  Transform frame = ctm_.then_local(path_t);
  std::optional<Item> edge;
  std::string after_edge;
  lower_rest(split_items(rest), root, frame, s, 0, false, edge, after_edge);
  return true;
}

// The keys lower_tree models that the key applier does not (pgfmanual 21.5, 75, 58).
bool is_tree_key(const std::string& key) {
  static constexpr std::string_view kKeys[] = {"level distance",
                                               "sibling distance",
                                               "grow",
                                               "grow'",
                                               "growth parent anchor",
                                               "parent anchor",
                                               "child anchor",
                                               "edge from parent path",
                                               "missing",
                                               "grow via three points",
                                               "grow cyclic",
                                               "sibling angle",
                                               "clockwise from",
                                               "counterclockwise from",
                                               "growth function",
                                               "grow siblings on line",
                                               "concept color",
                                               "mindmap",
                                               "small mindmap",
                                               "large mindmap",
                                               "huge mindmap"};
  for (std::string_view k : kKeys)  // lengths first: no strlen, few compares
    if (std::string_view(key) == k) return true;
  return fork_paths().count(key) > 0;
}

}  // namespace

void remember_tree_options(tex::StyleTable& styles, const std::string& options) {
  std::string kept;
  for (const auto& it : tex::split_options(options)) {
    if (!is_tree_key(tex::normalise_key(it.key))) continue;
    if (!kept.empty()) kept += ',';
    kept += it.has_value ? it.key + "=" + it.value : it.key;
  }
  if (kept.empty()) return;
  kept = replace_all(kept, "#", "##");  // the style's body is substituted like any style's
  const tex::StyleDefinition* old = styles.find(kInheritedTreeKeys);
  tex::StyleDefinition def;
  def.body = old ? old->body + "," + kept : kept;
  styles.define(kInheritedTreeKeys, def);
}

bool lower_tree(const tex::Statement& st, LibraryHost& host) {
  TreeLowerer lowerer(st, host);
  return lowerer.run();
}

}  // namespace tikzlint::ir

namespace tikzlint::packages {
namespace {

// `child` as a path operation (pgfmanual 21): the word, then an option list, a brace group, another
// child or the end of the path.
bool mentions_child_operation(const std::string& t) {
  for (std::size_t at = t.find("child"); at != std::string::npos; at = t.find("child", at + 5)) {
    if (at > 0 && (std::isalpha(static_cast<unsigned char>(t[at - 1])) || t[at - 1] == '\\')) continue;
    std::size_t j = at + 5;
    while (j < t.size() && (t[j] == ' ' || t[j] == '\n' || t[j] == '\t')) ++j;
    if (j < t.size() && (t[j] == '{' || t[j] == '[' || t[j] == ';' || t.compare(j, 7, "foreach") == 0 ||
                         t.compare(j, 5, "child") == 0))  // `child child;` (bare children)
      return true;
  }
  return false;
}

class Trees final : public ir::Package {
 public:
  std::string_view name() const override { return "trees"; }
  std::unique_ptr<ir::PackagePicture> begin_picture(const tex::Picture&) const override {
    return std::make_unique<Handler>();
  }
  // the tree keys of picture and scope options (level distance, grow...), for lower_tree
  void remember_options(tex::StyleTable& styles, const std::string& options) const override {
    ir::remember_tree_options(styles, options);
  }

 private:
  class Handler final : public ir::PackagePicture {
    ir::Offer lower_statement(const ir::PackageStatement& s, ir::LibraryHost& host) override {
      if (!s.path || !mentions_child_operation(s.st.text)) return ir::Offer::pass;
      return ir::lower_tree(s.st, host) ? ir::Offer::lowered : ir::Offer::declined;
    }
  };
};

}  // namespace

std::unique_ptr<ir::Package> trees() { return std::make_unique<Trees>(); }

}  // namespace tikzlint::packages
