// ir/lower_keys.cpp: what each TikZ option key does to the lowering state, as data where possible.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <iterator>
#include <set>
#include <string_view>
#include <unordered_set>

#include "ir/coords.hpp"
#include "ir/lowering.hpp"
#include "ir/textmetrics.hpp"
#include "support/ascii.hpp"
#include "tex/pgfmath.hpp"

namespace tikzlint::ir {
namespace {

// pgfmanual 15.3.1: the line width styles.
struct NamedWidth {
  std::string_view name;
  double pt;
};
constexpr NamedWidth kLineWidths[] = {{"ultra thin", 0.1}, {"very thin", 0.2}, {"thin", 0.4},
                                      {"semithick", 0.6},  {"thick", 0.8},     {"very thick", 1.2},
                                      {"ultra thick", 1.6}};

// pgfmanual 17.8: named positions on a path.
struct NamedPos {
  std::string_view name;
  double pos;
};
constexpr NamedPos kPositions[] = {{"at start", 0},   {"very near start", 0.125}, {"near start", 0.25},
                                   {"midway", 0.5},   {"near end", 0.75},         {"very near end", 0.875},
                                   {"at end", 1}};

constexpr std::string_view kDashes[] = {"dashed",        "dotted",        "densely dotted", "loosely dotted",
                                   "densely dashed", "loosely dashed", "dash dot",      "densely dash dot",
                                   "loosely dash dot", "dash dot dot", "densely dash dot dot",
                                   "loosely dash dot dot", "dashdotted", "densely dashdotted",
                                   "loosely dashdotted"};

// Shapes from the shape libraries: known, sized like a rectangle (NodeShape::other).
constexpr std::string_view kOtherShapes[] = {
    "diamond", "regular polygon", "star", "trapezium", "semicircle", "isosceles triangle", "kite", "dart",
    "circular sector", "cylinder", "cloud", "signal", "tape", "rectangle callout", "ellipse callout",
    "cloud callout", "single arrow", "double arrow", "arrow box", "forbidden sign", "correct forbidden sign",
    "magnifying glass", "cross out", "strike out", "rounded rectangle", "chamfered rectangle", "circle split",
    "circle solidus", "ellipse split", "rectangle split", "starburst", "magnetic tape", "rectangle split",
    "shape example", "breakdown diode IEC", "crossed out", "circle ee", "trapezium"};

// Keys whose effect is not geometric (or below what the rules measure): accepted silently.
constexpr std::string_view kCosmetic[] = {
    // color and painting
    "color", "text", "opacity", "fill opacity", "draw opacity", "text opacity", "transparent",
    "even odd rule", "nonzero rule", "pattern", "pattern color", "shading", "shading angle", "top color",
    "bottom color", "left color", "right color", "middle color", "inner color", "outer color", "ball color",
    "blend mode", "blend group", "transparency group", "path fading", "fit fading", "fading angle", "fading transform",
    "scope fading", "double", "double distance", "double equal sign distance", "line cap", "line join",
    "miter limit", "cap", "join", "dash phase", "dash", "solid", "dash pattern", "rounded corners",
    "sharp corners", "help lines", "every path", "preaction", "postaction",
    "on layer", "behind path", "in front of path", "draw none", "shade", "general shadow", "drop shadow",
    "copy shadow", "double copy shadow", "circular drop shadow", "circular glow", "shadow xshift",
    "shadow yshift", "shadow scale", "color model", "fill none",
    // arrows
    "arrows", ">", "tips", "shorten >", "shorten <", "arrows.meta", "bend", "line width",
    "arrow", "-",
    // fonts and text (the size keys are handled; these only restyle)
    "node font", "text centered", "text badly centered", "text ragged", "text badly ragged",
    "text justified", "execute at begin node", "execute at end node", "every text node part",
    "font", "align", "text width", "text height", "text depth", "anchor", "alias",
    // naming and bookkeeping
    "name path", "name path global", "name prefix", "name suffix", "remember picture", "baseline",
    "every node", "every picture", "every scope", "every label", "every pin", "every edge", "every to",
    "every circle", "every rectangle", "every matrix", "every mark", "every plot", "every child",
    "every pin edge", "pin edge", "every label quotes", "every edge quotes", "node contents",
    "execute at begin picture", "execute at end picture", "execute at begin scope",
    "execute at end scope", "execute at begin to", "execute at end to", "trim left", "trim right",
    "every shadow",
    "quotes mean label", "quotes mean pin", "late options", "path picture", "local bounding box",
    "spy using outlines", "spy using overlays", "magnification", "size", "lens", "connect spies",
    // plots and marks
    "mark", "mark options", "mark size", "mark phase", "mark repeat", "mark indices", "only marks",
    "sharp plot", "smooth", "smooth cycle", "tension", "const plot", "const plot mark left",
    "const plot mark right", "jump mark left", "jump mark right", "ycomb", "xcomb", "polar comb",
    "ybar", "xbar", "ybar interval", "xbar interval", "bar width", "bar shift", "parametric",
    "id", "prefix", "raw gnuplot", "every plot",
    // shapes' own parameters (their size effect is not modelled; the shape is marked other)
    "regular polygon sides", "star points", "star point ratio", "star point height", "trapezium angle",
    "trapezium left angle", "trapezium right angle", "isosceles triangle apex angle", "shape border rotate",
    "shape border uses incircle", "shape aspect", "aspect", "kite upper vertex angle",
    "kite lower vertex angle", "dart tip angle", "dart tail angle", "circular sector angle",
    "cylinder uses custom fill", "cylinder end fill", "cylinder body fill", "rounded rectangle arc length",
    "chamfered rectangle corners", "rectangle split parts", "rectangle split horizontal",
    "callout pointer", "callout absolute pointer", "minimum aspect", "cloud puffs", "cloud puff arc",
    "cloud ignores aspect", "signal to", "signal from", "tape bend top", "tape bend bottom",
    "tape bend height", "single arrow head extend", "double arrow head extend", "single arrow tip angle",
    "starburst points", "starburst point height", "random starburst",
    // trees, graphs and matrices (their own statements are reported separately)
    "level distance", "sibling distance", "grow", "grow'", "level", "edge from parent",
    // trees and mindmap libraries: modelled by lower_tree (remember_tree_options)
    "growth parent anchor", "missing", "grow via three points", "grow cyclic", "sibling angle", "clockwise from",
    "counterclockwise from", "grow siblings on line", "concept color", "edge from parent fork down",
    "edge from parent fork up", "edge from parent fork left", "edge from parent fork right",
    "edge from parent path", "child anchor", "parent anchor", "row sep", "column sep", "matrix of nodes",
    "matrix of math nodes", "nodes", "cells", "ampersand replacement",
    // angles library (geometry handled in the pic)
    "angle eccentricity", "pic text", "pic text options", "pic type",
    // misc
    "/utils/exec", "pgf@nocache", "label position", "every node/.style", "transform canvas",
    "turn", "samples", "variable", "domain", "step", "xstep", "ystep", "spy scope",
};

constexpr std::string_view kColorNames[] = {
    "red", "green", "blue", "cyan", "magenta", "yellow", "black", "gray", "grey", "white", "darkgray",
    "lightgray", "brown", "lime", "olive", "orange", "pink", "purple", "teal", "violet",
    // xcolor dvipsnames / svgnames commonly used
    "Apricot", "Aquamarine", "Bittersweet", "Black", "Blue", "BlueGreen", "BlueViolet", "BrickRed", "Brown",
    "BurntOrange", "CadetBlue", "CarnationPink", "Cerulean", "CornflowerBlue", "Cyan", "Dandelion",
    "DarkOrchid", "Emerald", "ForestGreen", "Fuchsia", "Goldenrod", "Gray", "Green", "GreenYellow",
    "JungleGreen", "Lavender", "LimeGreen", "Magenta", "Mahogany", "Maroon", "Melon", "MidnightBlue",
    "Mulberry", "NavyBlue", "OliveGreen", "Orange", "OrangeRed", "Orchid", "Peach", "Periwinkle",
    "PineGreen", "Plum", "ProcessBlue", "Purple", "RawSienna", "Red", "RedOrange", "RedViolet", "Rhodamine",
    "RoyalBlue", "RoyalPurple", "RubineRed", "Salmon", "SeaGreen", "Sepia", "SkyBlue", "SpringGreen", "Tan",
    "TealBlue", "Thistle", "Turquoise", "Violet", "VioletRed", "White", "WildStrawberry", "Yellow",
    "YellowGreen", "YellowOrange", "DarkBlue", "DarkGreen", "DarkRed", "LightBlue", "LightGreen",
    "LightGray", "DarkGray", "Gold", "Navy", "Silver", "Crimson", "Coral", "Indigo", "Khaki", "Beige",
    "SteelBlue", "SlateGray", "Tomato", "Chocolate", "Firebrick", "DodgerBlue", "DeepSkyBlue",
    "LightCoral", "DarkOrange", "DarkViolet", "MediumBlue", "Olive", "Teal", "Lime", "Aqua", "Pink",
    "none", "."};

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_ascii_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_ascii_space(s.back())) s.remove_suffix(1);
  return s;
}

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

const std::unordered_set<std::string_view>& cosmetic_set() {
  static const std::unordered_set<std::string_view> s(std::begin(kCosmetic), std::end(kCosmetic));
  return s;
}

FontUnits em_of(const Settings& s) { return font_units_of(s); }

}  // namespace

bool is_size_command(std::string_view cs) {
  static constexpr std::string_view kSizes[] = {"\\tiny",  "\\scriptsize", "\\footnotesize", "\\small", "\\normalsize",
                                           "\\large", "\\Large",      "\\LARGE",        "\\huge",  "\\Huge"};
  for (std::string_view c : kSizes)
    if (cs == c) return true;
  return false;
}

bool is_font_switch_statement(std::string_view text) {
  // LaTeX's declarations of size, series, shape and family (and the old two-letter ones)
  static constexpr std::string_view kSwitches[] = {
      "\\bfseries", "\\mdseries", "\\itshape", "\\slshape", "\\upshape", "\\scshape", "\\sffamily", "\\rmfamily",
      "\\ttfamily", "\\normalfont", "\\bf", "\\it", "\\sl", "\\sc", "\\sf", "\\rm", "\\tt", "\\em"};
  std::size_t i = 0, seen = 0;
  while (i < text.size()) {
    if (std::isspace(static_cast<unsigned char>(text[i]))) {
      ++i;
      continue;
    }
    if (text[i] != '\\') return false;
    std::size_t j = i + 1;
    while (j < text.size() && std::isalpha(static_cast<unsigned char>(text[j]))) ++j;
    const std::string_view cs = text.substr(i, j - i);
    if (!is_size_command(cs) && std::find(std::begin(kSwitches), std::end(kSwitches), cs) == std::end(kSwitches))
      return false;
    ++seen;
    i = j;
  }
  return seen > 0;
}

bool is_color_name(const std::string& key_in) {
  std::string_view key = trim(key_in);
  if (key.empty()) return false;
  // xcolor expressions: red!50!black, -red, blue!20, {rgb,255:red,1;...}
  if (key.front() == '-' && key.size() > 1 && std::isalpha(static_cast<unsigned char>(key[1]))) key.remove_prefix(1);
  std::string_view head = key.substr(0, key.find('!'));
  static const std::unordered_set<std::string_view> names(std::begin(kColorNames), std::end(kColorNames));
  if (names.count(head)) return true;
  if (starts_with(key, "rgb") || starts_with(key, "{rgb") || starts_with(key, "RGB")) return true;
  return false;
}

bool is_known_cosmetic_key(const std::string& key) {
  if (cosmetic_set().count(key)) return true;
  // `every xyz/.style` lookups and pgfplots keys are bookkeeping
  if (starts_with(key, "every ") || starts_with(key, "/pgfplots/") || starts_with(key, "/utils/")) return true;
  return false;
}

const char* auto_anchor_for(double tangent_deg, bool left) {
  // the unit tangent in pt, compared with 0.05pt as \tikz@auto@anchor and ..@prime do
  const double x = std::cos(tangent_deg * std::acos(-1.0) / 180), y = std::sin(tangent_deg * std::acos(-1.0) / 180);
  constexpr double eps = 0.05;
  if (x > eps) {
    if (y > eps) return left ? "south east" : "north west";
    if (y < -eps) return left ? "south west" : "north east";
    return left ? "south" : "north";
  }
  if (x < -eps) {
    if (y > eps) return left ? "north east" : "south west";
    if (y < -eps) return left ? "north west" : "south east";
    return left ? "north" : "south";
  }
  if (y > 0) return left ? "east" : "west";
  return left ? "west" : "east";
}

std::optional<QuoteKey> parse_quote_key(std::string_view key) {
  // \tikz@quote@@parser: "#1" then `'` (a swap: options become `',#2`) and the options
  if (key.empty() || key.front() != '"') return std::nullopt;
  std::size_t close = key.find('"', 1);
  if (close == std::string_view::npos) return std::nullopt;
  QuoteKey q;
  q.text = std::string(key.substr(1, close - 1));
  std::string_view rest = trim(key.substr(close + 1));
  if (!rest.empty() && rest.front() == '\'') {
    q.swap = true;
    rest = trim(rest.substr(1));
  }
  // \tikz@quote@@parser@group: "text"{options} takes the group's contents as the options
  std::string opts(rest);
  if (!rest.empty() && rest.front() == '{') opts = tex::strip_braces(rest);
  q.options = (q.swap ? std::string("'") + (opts.empty() ? "" : ",") : std::string()) + opts;
  return q;
}

bool parse_arrow_spec(const std::string& key, bool* start, bool* end, std::string* start_tips,
                      std::string* end_tips) {
  // exactly one '-' outside braces and brackets separates start and end tips
  int depth = 0;
  std::size_t dash = std::string::npos;
  int count = 0;
  for (std::size_t i = 0; i < key.size(); ++i) {
    char c = key[i];
    if (c == '{' || c == '[') ++depth;
    if (c == '}' || c == ']') --depth;
    if (c == '-' && depth == 0) {
      ++count;
      dash = i;
    }
  }
  if (count != 1) return false;
  auto tip_ok = [](std::string_view side) {
    side = trim(side);
    if (side.size() > 80) return false;
    int d = 0;
    for (char c : side) {
      if (c == '{' || c == '[') ++d;
      if (c == '}' || c == ']') --d;
      if (d > 0) continue;
      // `_` is arrows.meta's `_` shorthand (Stealth's `[sep]`: a gap between tips)
      if (!(std::isalnum(static_cast<unsigned char>(c)) || std::strchr("<>|*()' ._}]", c) != nullptr)) return false;
    }
    return d == 0;
  };
  std::string_view l = trim(std::string_view(key).substr(0, dash));
  std::string_view r = trim(std::string_view(key).substr(dash + 1));
  if (!tip_ok(l) || !tip_ok(r)) return false;
  if (start) *start = !l.empty();
  if (end) *end = !r.empty();
  if (start_tips) *start_tips = std::string(l);
  if (end_tips) *end_tips = std::string(r);
  return true;
}

void apply_font_commands(FontSpec& font, std::string_view f) {
  // the last size command wins; \bfseries / \itshape set the series/shape
  std::size_t i = 0;
  while ((i = f.find('\\', i)) != std::string_view::npos) {
    std::size_t j = i + 1;
    while (j < f.size() && std::isalpha(static_cast<unsigned char>(f[j]))) ++j;
    std::string_view cs = f.substr(i, j - i);
    const double base = font.base_size_pt > 0 ? font.base_size_pt : font.size_pt;
    if (is_size_command(cs)) font.size_pt = font_size_for_command(cs, base);
    if (cs == "\\bfseries" || cs == "\\bf") font.bold = true;
    if (cs == "\\itshape" || cs == "\\it" || cs == "\\slshape") font.italic = true;
    if ((cs == "\\sffamily" || cs == "\\sf") && (font.family == "lmr" || font.family == "lmtt")) font.family = "lmss";
    if ((cs == "\\ttfamily" || cs == "\\tt") && (font.family == "lmr" || font.family == "lmss")) font.family = "lmtt";
    i = j;
  }
}

FontSpec node_font_of(const Settings& s) {
  FontSpec f = s.picture_font;
  apply_font_commands(f, s.node_font);
  return f;
}

namespace {

// Equal fonts, their sizes compared bit for bit (the one-entry memos below).
bool same_font(const FontSpec& a, const FontSpec& b) {
  auto same = [](double x, double y) { return std::memcmp(&x, &y, sizeof x) == 0; };
  return same(a.size_pt, b.size_pt) && same(a.base_size_pt, b.base_size_pt) && a.bold == b.bold &&
         a.italic == b.italic && a.family == b.family;
}

}  // namespace

FontSpec text_font_of(const Settings& s) {
  // Asked for every node, with the same fonts nearly every time: a one-entry memo of this pure
  // function, as font_units_of below.
  struct Memo {
    bool valid = false;
    FontSpec picture;
    std::string node_font, text_font;
    FontSpec font;
  };
  thread_local Memo memo;
  if (memo.valid && same_font(memo.picture, s.picture_font) && memo.node_font == s.node_font &&
      memo.text_font == s.text_font)
    return memo.font;
  FontSpec f = node_font_of(s);
  apply_font_commands(f, s.text_font);
  memo.picture = s.picture_font;
  memo.node_font = s.node_font;
  memo.text_font = s.text_font;
  memo.font = f;
  memo.valid = true;
  return f;
}

FontUnits font_units_of(const Settings& s) {
  // Asked for every expression lowered, with the same fonts nearly every time: a one-entry memo
  // of this pure function (doubles compared bit for bit) spares parsing the font commands.
  struct Memo {
    bool valid = false;
    FontSpec picture;
    std::string node_font;
    FontUnits units;
  };
  thread_local Memo memo;
  const FontSpec& p = s.picture_font;
  if (memo.valid && same_font(memo.picture, p) && memo.node_font == s.node_font) return memo.units;
  const FontSpec f = node_font_of(s);
  memo.units = FontUnits{font_quad_pt(f), font_xheight_pt(f)};
  memo.picture = p;
  memo.node_font = s.node_font;
  memo.valid = true;
  return memo.units;
}

std::optional<MathValue> eval_math(const std::string& expr_in, FontUnits units, std::string* error) {
  // strip_braces copies; most expressions have neither outer braces nor surrounding blanks.
  const bool bare = !expr_in.empty() && expr_in.front() != '{' && !is_ascii_space(expr_in.front()) &&
                    !is_ascii_space(expr_in.back());
  std::string stripped;
  if (!bare) stripped = tex::strip_braces(expr_in);
  const std::string& expr = bare ? expr_in : stripped;
  tex::pgfmath::Context ctx;
  ctx.em_pt = units.em;
  ctx.ex_pt = units.ex;
  auto r = tex::pgfmath::evaluate(expr, ctx);
  if (!r) {
    if (error) *error = r.error ? r.error->message : "cannot evaluate '" + expr + "'";
    return std::nullopt;
  }
  if (!std::isfinite(r.value->number)) {
    if (error) *error = "'" + expr + "' is not a finite number";
    return std::nullopt;
  }
  return MathValue{r.value->number, r.value->is_length};
}

std::optional<Point> positioning_shift(const std::string& dist, int sx, int sy, const Settings& s, std::string* error) {
  const std::size_t andp = dist.find("and");
  const FontUnits fu = font_units_of(s);
  const std::string vs(trim(std::string_view(dist).substr(0, andp)));
  const std::string hs(trim(andp == std::string::npos ? std::string_view(dist) : std::string_view(dist).substr(andp + 3)));
  auto v = eval_math(vs, fu, error);
  auto h = eval_math(hs, fu, error);
  if (!v || !h) return std::nullopt;
  Point p = h->is_length ? Point{h->value, 0} : h->value * s.xvec;
  p = p + (v->is_length ? Point{0, v->value} : v->value * s.yvec);
  const double single = (andp == std::string::npos && sx != 0 && sy != 0) ? 0.707106781 : 1.0;
  return Point{sx * single * p.x, sy * single * p.y};
}

std::optional<double> eval_dimension(const std::string& expr, FontUnits units, std::string* error) {
  auto v = eval_math(expr, units, error);
  if (!v) return std::nullopt;
  return v->value;  // a unitless value in a dimension key is pt (\pgfmathsetlength)
}

void apply_transform(Settings& s, const Transform& t) {
  s.ctm = s.ctm.then_local(t);
  if (!s.frame3) return;
  // A page translation moves a whole solid alike; a uniform scale scales its 3D frame. Anything
  // else (rotate, slant, xscale, cm) is not a map of the 3D frame.
  if (t.is_identity_linear()) return;
  if (t.b == 0 && t.c == 0 && t.a == t.d && t.a > 0) {
    s.frame3->scale *= t.a;
    return;
  }
  s.frame3.reset();
}

void shift_frame3(Settings& s, const Point3& p3) {
  if (!s.frame3) return;
  Frame3D& f = *s.frame3;
  f.shift = Point3{f.shift.x + f.scale * p3.x, f.shift.y + f.scale * p3.y, f.shift.z + f.scale * p3.z};
}

void KeyApplier::apply(Settings& s, const std::vector<tex::FlatKey>& keys, KeyTarget target, std::uint32_t base,
                       std::vector<LowerProblem>& problems) const {
  for (const auto& k : keys) apply_one(s, k, target, base + k.begin, base + k.end, problems);
}

bool KeyApplier::apply_one(Settings& s, const tex::FlatKey& k, KeyTarget target, std::uint32_t b, std::uint32_t e,
                           std::vector<LowerProblem>& problems) const {
  tex::KeyName key(k.key);  // compares with literals by length first (tex/styles.hpp)
  const std::string& v = k.value;
  auto math_problem = [&](const std::string& msg) {
    problems.push_back({"math-error", "in key '" + key + "': " + msg, b, e, true});
  };
  auto dim = [&](const std::string& text) -> std::optional<double> {
    std::string err;
    auto d = eval_dimension(substitute_library_lengths(text, s), em_of(s), &err);
    if (!d) math_problem(err);
    return d;
  };
  auto num = [&](const std::string& text) -> std::optional<double> {
    std::string err;
    auto d = eval_math(substitute_library_lengths(text, s), em_of(s), &err);
    if (!d) {
      math_problem(err);
      return std::nullopt;
    }
    return d->value;
  };
  auto transform = [&](const Transform& t) { apply_transform(s, t); };

  // --- quotes library on a to/edge: "text"options is `edge node={node[every edge quotes,options]{text}}`
  // (tikzlibraryquotes.code.tex; every edge quotes is `auto` unless restyled)
  if (target == KeyTarget::op && !k.key.empty() && k.key.front() == '"') {
    if (auto q = parse_quote_key(k.has_value ? k.key + "=" + k.value : k.key)) {
      s.lib.mut().to_nodes.push_back("node[auto,every edge quotes" + (q->options.empty() ? "" : "," + q->options) + "]{" +
                               q->text + "}");
      return true;
    }
  }
  // --- decorations (pgfmanual 24.2): what they draw is judged when the path ends (decorations.cpp)
  if (key == "decorate") {
    s.decorate = !(k.has_value && trim(v) == "false");
    return true;
  }
  if (key == "decoration") {
    // /pgf/decoration= sets keys in the decoration family; later ones add to earlier ones
    std::string& decoration = s.ops.mut().decoration;
    decoration += (decoration.empty() ? "" : ",") + std::string(trim(tex::strip_braces(v)));
    return true;
  }
  if ((key == "postaction" || key == "preaction") && k.has_value) {
    // the action repeats the path with its own options: a decorating action decorates it
    bool decorates = false;
    std::string own;
    for (const auto& it : tex::split_options(tex::strip_braces(v))) {
      const std::string ik = tex::normalise_key(it.key);
      if (ik == "decorate") decorates = !(it.has_value && trim(it.value) == "false");
      if (ik == "decoration") own += "," + std::string(trim(tex::strip_braces(it.value)));
      // /tikz/text effects={...} sets the action's own text effects (tikzlibrarydecorations.text)
      if (ik == "text effects") own += ",text effects={" + std::string(trim(tex::strip_braces(it.value))) + "}";
    }
    if (decorates) s.ops.mut().decorating_actions.push_back(own);  // joined to the path's decoration= at its end
    return true;
  }

  // --- line widths, dashes, positions, colors (tables)
  for (const auto& w : kLineWidths) {
    if (key == w.name) {
      s.style.line_width = w.pt;
      return true;
    }
  }
  if (key == "line width") {
    if (auto d = dim(v)) s.style.line_width = *d;
    return true;
  }
  if (key == "help lines") {
    s.style.line_width = 0.2;
    s.style.draw_color = "gray";
    return true;
  }
  for (std::string_view d : kDashes) {
    if (key == d) {
      s.style.dash = key;
      return true;
    }
  }
  if (key == "solid") {
    s.style.dash.clear();
    return true;
  }
  if (key == "dash pattern") {
    s.style.dash = v;
    return true;
  }
  for (const auto& p : kPositions) {
    if (key == p.name) {
      s.pos = p.pos;
      return true;
    }
  }
  if (key == "pos") {
    if (auto d = num(v)) s.pos = *d;
    return true;
  }
  auto user_color = [&](const std::string& c) {
    if (!user_colors) return false;
    std::string head = c.substr(0, c.find('!'));
    if (!head.empty() && head.front() == '-') head.erase(0, 1);
    return user_colors->contains(head);
  };
  if (!k.has_value && (is_color_name(key) || user_color(key))) {
    s.style.draw_color = key;
    s.style.fill_color = key;
    return true;
  }
  if (key == "color") {
    s.style.draw_color = v;
    s.style.fill_color = v;
    return true;
  }
  // --- painting modes
  if (key == "draw") {
    const bool none = k.has_value && trim(v) == "none";
    if (target == KeyTarget::node) s.node_drawn = !none;
    else s.style.draw = !none;
    if (k.has_value && !none) s.style.draw_color = v;
    return true;
  }
  if (key == "fill") {
    const bool none = k.has_value && trim(v) == "none";
    if (target == KeyTarget::node) s.node_filled = !none;
    else s.style.fill = !none;
    if (k.has_value && !none) s.style.fill_color = v;
    return true;
  }
  if (key == "top color" || key == "bottom color" || key == "left color" || key == "right color" ||
      key == "inner color" || key == "outer color" || key == "ball color" || key == "shade" ||
      key == "pattern") {
    if (target == KeyTarget::node) s.node_filled = true;
    else s.style.fill = true;
    return true;
  }
  if (key == "opacity" || key == "draw opacity") {
    if (auto d = num(v)) s.style.opacity = *d;
    return true;
  }
  // pgfmanual 23.2 "Specifying a Uniform Opacity": the named opacity levels set `opacity`.
  static constexpr std::pair<std::string_view, double> kOpacityLevels[] = {
      {"transparent", 0},         {"ultra nearly transparent", 0.05}, {"very nearly transparent", 0.1},
      {"nearly transparent", 0.25}, {"semitransparent", 0.5},         {"nearly opaque", 0.75},
      {"very nearly opaque", 0.9},  {"ultra nearly opaque", 0.95},    {"opaque", 1}};
  if (!k.has_value) {
    for (const auto& [name, level] : kOpacityLevels) {
      if (key == name) {
        s.style.opacity = level;
        return true;
      }
    }
  }
  if (key == "clip") {
    s.clip = !(k.has_value && trim(v) == "false");
    return true;
  }
  if (key == "use as bounding box") {
    s.use_as_bbox = !(k.has_value && trim(v) == "false");
    return true;
  }
  if (key == "overlay") {
    s.overlay = !(k.has_value && trim(v) == "false");
    return true;
  }
  bool as = false, ae = false;
  if (!k.has_value && parse_arrow_spec(key, &as, &ae, &s.arrow_start_tips, &s.arrow_end_tips)) {
    s.style.arrow_start = as;
    s.style.arrow_end = ae;
    return true;
  }
  if (key == "arrows" && parse_arrow_spec(v, &as, &ae, &s.arrow_start_tips, &s.arrow_end_tips)) {
    s.style.arrow_start = as;
    s.style.arrow_end = ae;
    return true;
  }
  if (key == ">" && k.has_value) {  // tikz.code.tex: `>=X` declares the tip `<->` as X
    s.arrow_default = std::string(trim(v));
    return true;
  }

  // --- plot handlers (pgfmanual 22.8): the curve `plot` draws through its points
  if (key == "smooth" || key == "smooth cycle" || key == "sharp plot") {
    s.plot_handler = key == "smooth"         ? Settings::PlotHandler::smooth
                     : key == "smooth cycle" ? Settings::PlotHandler::smooth_cycle
                                             : Settings::PlotHandler::sharp;
    return true;
  }
  if (key == "tension") {
    if (auto d = num(v)) s.plot_tension = *d;
    return true;
  }
  if (key == "mark" && k.has_value) {
    const std::string m(trim(v));
    s.ops.mut().plot_mark = m == "none" ? std::string() : m;
    return true;
  }
  if (key == "no marks" || key == "no markers") {
    if (!s.ops->plot_mark.empty()) s.ops.mut().plot_mark.clear();
    return true;
  }
  if (key == "mark size" && k.has_value) {
    if (auto d = dim(v)) s.ops.mut().mark_size = *d;
    return true;
  }
  if (key == "only marks") {
    s.ops.mut().only_marks = true;
    return true;
  }
  if (key == "mark repeat" || key == "mark phase" || key == "mark indices") {
    s.ops.mut().mark_subset = true;
    return true;
  }
  if (key == "mark options" && k.has_value) {
    s.ops.mut().mark_options = std::string(trim(v));
    return true;
  }

  // --- transformations (pgfmanual 25.3); for nodes they form the node's own transformation
  if (key == "shift") {
    if (local_point_3d) {
      if (auto p = local_point_3d(v, s, b, e)) {
        // a 3D coordinate moves the scope's solid in 3D (its depth too), then on the page
        // (a page shift moves whole solids alike: the 3D frame stays, Settings::frame3)
        if (p->second) shift_frame3(s, *p->second);
        transform(Transform::shift(p->first.x, p->first.y));
      }
    } else if (local_point) {
      if (auto p = local_point(v, s, b, e)) transform(Transform::shift(p->x, p->y));
    }
    return true;
  }
  if (key == "xshift") {
    if (auto d = dim(v)) transform(Transform::shift(*d, 0));
    return true;
  }
  if (key == "yshift") {
    if (auto d = dim(v)) transform(Transform::shift(0, *d));
    return true;
  }
  if (key == "scale") {
    if (auto d = num(v)) transform(Transform::scale(*d, *d));
    return true;
  }
  if (key == "xscale") {
    if (auto d = num(v)) transform(Transform::scale(*d, 1));
    return true;
  }
  if (key == "yscale") {
    if (auto d = num(v)) transform(Transform::scale(1, *d));
    return true;
  }
  if (key == "rotate") {
    if (auto d = num(v)) transform(Transform::rotate(*d));
    return true;
  }
  if (key == "xslant") {
    if (auto d = num(v)) transform(Transform::xslant(*d));
    return true;
  }
  if (key == "yslant") {
    if (auto d = num(v)) transform(Transform::yslant(*d));
    return true;
  }
  if (key == "reset cm") {
    s.ctm = Transform{};
    s.frame3.reset();
    return true;
  }
  if (key == "row sep" || key == "column sep") {
    (key == "row sep" ? s.lib.mut().matrix_row_sep : s.lib.mut().matrix_column_sep) = v;
    return true;
  }
  if (key == "rotate around") {
    // "angle:(point)"
    std::size_t colon = v.find(':');
    if (colon == std::string::npos) {
      math_problem("expected 'angle:(point)'");
      return true;
    }
    auto a = num(v.substr(0, colon));
    std::string pt(trim(std::string_view(v).substr(colon + 1)));
    std::optional<Point> p = local_point ? local_point(pt, s, b, e) : std::nullopt;
    if (a && p) {
      transform(Transform::shift(p->x, p->y));
      transform(Transform::rotate(*a));
      transform(Transform::shift(-p->x, -p->y));
    }
    return true;
  }
  if (key == "cm") {
    auto items = tex::split_options(v);
    if (items.size() != 5) {
      math_problem("cm needs a,b,c,d,(point)");
      return true;
    }
    double m[4];
    for (int i = 0; i < 4; ++i) {
      auto d = num(items[static_cast<std::size_t>(i)].key);
      if (!d) return true;
      m[i] = *d;
    }
    std::optional<Point> p = local_point ? local_point(items[4].key, s, b, e) : std::nullopt;
    if (p) transform(Transform::cm(m[0], m[1], m[2], m[3], p->x, p->y));
    return true;
  }
  if (key == "x" || key == "y" || key == "z") {
    std::string t(trim(v));
    Point vec;
    if (!t.empty() && t.front() == '(') {
      // a coordinate: the vector itself (pgfmanual 25.2)
      Settings plain = s;
      plain.ctm = Transform{};
      std::optional<Point> p = local_point ? local_point(t, plain, b, e) : std::nullopt;
      if (!p) return true;
      vec = *p;
    } else {
      auto d = dim(t);
      if (!d) return true;
      vec = key == "x" ? Point{*d, 0} : key == "y" ? Point{0, *d} : Point{*d, *d};
    }
    (key == "x" ? s.xvec : key == "y" ? s.yvec : s.zvec) = vec;
    // a 3D shift made with the old axes is not one along the new axes
    if (s.frame3 && (s.frame3->shift.x != 0 || s.frame3->shift.y != 0 || s.frame3->shift.z != 0)) s.frame3.reset();
    return true;
  }
  if (key == "transform shape") {
    s.transform_shape = !(k.has_value && trim(v) == "false");
    return true;
  }

  // --- nodes (pgfmanual 17)
  if (key == "shape" || key == "rectangle" || key == "circle" || key == "ellipse" || key == "coordinate" ||
      key == "inner sep" || key == "inner xsep" || key == "inner ysep" || key == "outer sep" ||
      key == "outer xsep" || key == "outer ysep" || key == "minimum size" || key == "minimum width" ||
      key == "minimum height") {
    const std::string shape = key == "shape" ? std::string(trim(v)) : key;
    if (key == "shape" || key == "rectangle" || key == "circle" || key == "ellipse" || key == "coordinate") {
      s.shape_name = shape;
      s.shape = shape == "rectangle"   ? NodeShape::rectangle
                : shape == "circle"    ? NodeShape::circle
                : shape == "ellipse"   ? NodeShape::ellipse
                : shape == "coordinate" ? NodeShape::coordinate
                                        : NodeShape::other;
      return true;
    }
    auto d = dim(v);
    if (!d) return true;
    if (key == "inner sep") s.inner_xsep = s.inner_ysep = *d;
    if (key == "inner xsep") s.inner_xsep = *d;
    if (key == "inner ysep") s.inner_ysep = *d;
    if (key == "outer sep") s.outer_xsep = s.outer_ysep = *d;
    if (key == "outer xsep") s.outer_xsep = *d;
    if (key == "outer ysep") s.outer_ysep = *d;
    if (key == "minimum size") s.minimum_width = s.minimum_height = *d;
    if (key == "minimum width") s.minimum_width = *d;
    if (key == "minimum height") s.minimum_height = *d;
    return true;
  }
  static const std::unordered_set<std::string_view> other_shapes(std::begin(kOtherShapes), std::end(kOtherShapes));
  if (other_shapes.count(key)) {
    s.shape = NodeShape::other;
    s.shape_name = key;
    return true;
  }
  if (key == "auto") {
    // auto[=left|right|false] (tikz.code.tex \tikz@install@auto@anchor@...)
    const std::string side(trim(v));
    s.auto_anchor = side != "false";
    if (side == "left" || side == "right") s.auto_left = side == "left";
    return true;
  }
  if (key == "swap" || key == "'") {
    s.auto_left = !s.auto_left;
    return true;
  }
  if (key == "anchor") {
    s.auto_anchor = false;
    s.anchor = std::string(trim(v));
    s.placement = "anchor=" + s.anchor;  // a relative placement's reference point stays (tikz.code.tex)
    return true;
  }
  if (key == "above" || key == "below" || key == "left" || key == "right" || key == "above left" ||
      key == "above right" || key == "below left" || key == "below right") {
    // pgfmanual 17.5.2 and the positioning library (17.5.3)
    static const std::map<std::string, const char*> anchor_for = {
        {"above", "south"},          {"below", "north"},          {"left", "east"},
        {"right", "west"},           {"above left", "south east"}, {"above right", "south west"},
        {"below left", "north east"}, {"below right", "north west"}};
    s.anchor = anchor_for.at(key);
    s.auto_anchor = false;  // anchor= is how tikz.code.tex places above/below/...
    s.placement = k.has_value ? key + "=" + v : key;
    s.of_direction.clear();
    std::string val(trim(v));
    // tikzlibrarypositioning.code.tex: `\pgfutil@in@{of }` then `#1of #2`: the first "of " splits
    // distance from target, also where TeX ate the space after a macro (`\d of A` is `1cmof A`)
    const std::size_t of = val.find("of ");
    if (of != std::string::npos) {
      s.of_direction = key;
      s.of_distance = std::string(trim(std::string_view(val).substr(0, of)));
      s.of_target = std::string(trim(std::string_view(val).substr(of + 3)));
      return true;
    }
    if (!val.empty()) {
      const int sx = key.find("left") != std::string::npos ? -1 : key.find("right") != std::string::npos ? 1 : 0;
      const int sy = key.find("above") != std::string::npos ? 1 : key.find("below") != std::string::npos ? -1 : 0;
      // "V and H" and unitless values are positioning's (core TikZ takes one length, and shifts
      // diagonals by it on both axes, pgfmanual 17.5.2)
      std::string err;
      if (positioning_loaded) {
        // tikzlibrarypositioning.code.tex \tikz@lib@place@handle@@: the shift waits in
        // \tikz@lib@pos@call, run first among the node's transformations
        if (auto shift = positioning_shift(substitute_library_lengths(val, s), sx, sy, s, &err))
          s.positioning_pre_shift = *shift;
        else
          math_problem(err);
        return true;
      }
      auto m = eval_math(substitute_library_lengths(val, s), em_of(s), &err);
      if (val.find("and") != std::string::npos || (m && !m->is_length)) {
        if (auto shift = positioning_shift(val, sx, sy, s, &err)) transform(Transform::shift(shift->x, shift->y));
        else math_problem(err);
      } else if (auto d = dim(val)) {
        transform(Transform::shift(sx * *d, sy * *d));
      }
    }
    return true;
  }
  if (key == "node distance") {
    s.node_distance = std::string(trim(v));  // read where a node is placed (units, x/y vectors)
    return true;
  }
  if (key == "above of" || key == "below of" || key == "left of" || key == "right of" ||
      key == "above left of" || key == "above right of" || key == "below left of" || key == "below right of") {
    // tikz.code.tex \tikz@of: centre on the target's centre, shifted by the node distance
    s.anchor = "center";
    s.auto_anchor = false;
    s.placement = key + "=" + std::string(trim(v));
    s.of_direction = key;
    s.of_distance.clear();
    s.of_target = std::string(trim(v));
    return true;
  }
  if (key == "on grid") {
    s.on_grid = !(k.has_value && trim(v) == "false");
    return true;
  }
  if (key == "sloped") {
    s.sloped = !(k.has_value && trim(v) == "false");
    return true;
  }
  if (key == "allow upside down") return true;
  if (key == "label") {
    s.labels.push_back(v);
    return true;
  }
  if (key == "pin") {
    s.pins.push_back(v);
    return true;
  }
  if (key == "label distance") {
    if (auto d = dim(v)) s.label_distance = *d;
    return true;
  }
  if (key == "pin distance") {
    if (auto d = dim(v)) s.pin_distance = *d;
    return true;
  }
  if (key == "label position") {
    s.label_position = v;
    return true;
  }
  if (key == "name") {
    s.node_name = std::string(trim(v));
    return true;
  }
  if (key == "font") {
    s.text_font = v;
    return true;
  }
  if (key == "node font") {
    s.node_font = v;
    return true;
  }
  if (key == "text width") {
    if (auto d = dim(v)) s.text_width = *d;
    return true;
  }
  if (key == "text height") {
    if (auto d = dim(v)) s.text_height = *d;
    return true;
  }
  if (key == "text depth") {
    if (auto d = dim(v)) s.text_depth = *d;
    return true;
  }

  // --- path operation parameters (pgfmanual 14)
  auto radius_value = [&](const std::string& text, std::optional<double>& out, bool& unit) {
    std::string err;
    auto m = eval_math(text, em_of(s), &err);
    if (!m) {
      math_problem(err);
      return;
    }
    out = m->value;
    unit = m->is_length;
  };
  if (key == "radius") {
    radius_value(v, s.radius_x, s.radius_x_unit);
    s.radius_y = s.radius_x;
    s.radius_y_unit = s.radius_x_unit;
    return true;
  }
  if (key == "x radius") {
    radius_value(v, s.radius_x, s.radius_x_unit);
    return true;
  }
  if (key == "y radius") {
    radius_value(v, s.radius_y, s.radius_y_unit);
    return true;
  }
  if (key == "start angle" || key == "end angle" || key == "delta angle") {
    auto d = num(v);
    if (!d) return true;
    (key == "start angle" ? s.start_angle : key == "end angle" ? s.end_angle : s.delta_angle) = *d;
    return true;
  }
  if (key == "step") {
    std::string t(trim(v));
    if (!t.empty() && t.front() == '(') {
      std::string inner = t.substr(1, t.size() >= 2 ? t.size() - 2 : 0);
      auto items = tex::split_options(inner);
      if (items.size() == 2) {
        s.ops.mut().step_x = items[0].key;
        s.ops.mut().step_y = items[1].key;
      }
    } else {
      PathOpSettings& ops = s.ops.mut();
      ops.step_x = ops.step_y = t;
    }
    return true;
  }
  if (key == "xstep") {
    s.ops.mut().step_x = v;
    return true;
  }
  if (key == "ystep") {
    s.ops.mut().step_y = v;
    return true;
  }
  if (key == "out" || key == "in") {
    if (auto d = num(v)) (key == "out" ? s.out_angle : s.in_angle) = *d;
    return true;
  }
  if (key == "bend left" || key == "bend right") {
    double a = s.bend_angle;
    if (k.has_value && !trim(v).empty()) {
      auto d = num(v);
      if (!d) return true;
      a = *d;
    }
    s.bend = key == "bend left" ? a : -a;
    s.bend_set = true;
    return true;
  }
  if (key == "bend angle") {
    if (auto d = num(v)) s.bend_angle = *d;
    return true;
  }
  if (key == "looseness" || key == "in looseness" || key == "out looseness") {
    auto d = num(v);
    if (!d) return true;
    if (key != "in looseness") s.out_looseness = *d;
    if (key != "out looseness") s.in_looseness = *d;
    return true;
  }
  if (key == "relative") {
    s.relative_angles = !(k.has_value && trim(v) == "false");
    return true;
  }
  if (key == "domain") {
    std::size_t colon = v.find(':');
    if (colon == std::string::npos) {
      math_problem("domain needs 'start:end'");
      return true;
    }
    auto a = num(v.substr(0, colon));
    auto c = num(v.substr(colon + 1));
    if (a && c) {
      s.domain_min = *a;
      s.domain_max = *c;
    }
    return true;
  }
  if (key == "samples") {
    if (auto d = num(v)) s.samples = std::clamp(static_cast<int>(std::lround(*d)), 2, 10000);
    return true;
  }
  if (key == "samples at") {
    s.ops.mut().samples_at.clear();
    for (const auto& item : tex::split_options(v)) {
      if (auto d = num(item.key)) s.ops.mut().samples_at.push_back(*d);
    }
    return true;
  }
  if (key == "variable") {
    s.ops.mut().variable = std::string(trim(v));
    return true;
  }
  if (key == "angle radius") {
    if (auto d = dim(v)) s.angle_radius = *d;
    return true;
  }
  if (key == "at" && k.has_value) {  // circle [at=(c)], \pic [at=(c)] (pgfmanual 14.6, 18.2)
    s.ops.mut().at = std::string(trim(tex::strip_braces(v)));
    return true;
  }
  if (key == "to path") {
    s.custom_to_path = true;  // lowered where a `to` uses it (lower.cpp lower_custom_to_path)
    s.ops.mut().to_path = std::string(trim(tex::strip_braces(v)));
    return true;
  }
  if (key == "controls" && k.has_value) {
    // tikzlibrarytopaths.code.tex: controls/.style={to path={.. controls #1 .. (\tikztotarget) \tikztonodes}}
    s.custom_to_path = true;
    s.ops.mut().to_path = ".. controls " + std::string(trim(tex::strip_braces(v))) + " .. (\\tikztotarget) \\tikztonodes";
    return true;
  }
  if (key == "insert path") {
    s.ops.mut().insert_paths.push_back(v);
    return true;
  }
  if (key == "name path" || key == "name path global") {
    s.ops.mut().name_path = std::string(trim(v));
    return true;
  }
  if (key == "name intersections") {
    s.ops.mut().name_intersections = v;
    return true;
  }
  if (record_shape_parameter(s.shape_params, key, v, dim, num)) return true;  // shape_keys.cpp
  if (apply_library_key(*this, s, k, target, b, e, problems)) return true;
  if (is_known_cosmetic_key(key)) return true;
  if (shapes != nullptr && doc != nullptr && !k.has_value && shapes->names_shape(key, *doc)) {  // /tikz/.unknown
    s.shape = NodeShape::other;
    s.shape_name = key;
    return true;
  }
  if (key == "layout" || (key.size() > 7 && key.compare(key.size() - 7, 7, " layout") == 0)) s.placed_by_layout = true;
  problems.push_back({"unsupported-key", "unknown key '" + key + "'", b, e, true});
  return false;
}

}  // namespace tikzlint::ir
