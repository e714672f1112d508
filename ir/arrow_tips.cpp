// ir/arrow_tips.cpp: arrow tips' extents and convex hulls, from pgf's tip definitions
// (pgfcorearrows.code.tex, pgflibraryarrows.meta.code.tex, pgflibraryarrows.code.tex).
#include "ir/arrow_tips.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <string>

#include "ir/coords.hpp"
#include "support/ascii.hpp"
#include "tex/pgfmath.hpp"
#include "tex/styles.hpp"

namespace tikzlint::ir {
namespace {

constexpr double kDegToRad = 3.14159265358979323846 / 180.0;

// The arrow keys' values: \pgfarrowsthreeparameters reads "dimension factor factor" (missing
// ones are 0); `+` prefixes are TeX's own.
struct ThreeParameters {
  double dim = 0, a = 0, b = 0;
};
std::optional<double> number_of(std::string_view t) {
  t = trim_ascii(t);
  if (!t.empty() && t.front() == '+') t.remove_prefix(1);
  if (t.empty()) return 0.0;
  std::string s(t);
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end == s.c_str() || *end != '\0' || !std::isfinite(v)) return std::nullopt;
  return v;
}
std::optional<double> dimension_of(std::string_view t) {
  t = trim_ascii(t);
  if (!t.empty() && t.front() == '+') t.remove_prefix(1);
  if (auto d = tex::pgfmath::parse_dimension(t)) return *d;
  return number_of(t);  // \pgfmathsetlength of a bare number: pt
}
std::optional<ThreeParameters> three_parameters(std::string_view v) {
  std::vector<std::string_view> parts;
  std::size_t i = 0;
  while (i < v.size()) {
    while (i < v.size() && v[i] == ' ') ++i;
    std::size_t j = i;
    while (j < v.size() && v[j] != ' ') ++j;
    if (j > i) parts.push_back(v.substr(i, j - i));
    i = j;
  }
  if (parts.empty() || parts.size() > 3) return std::nullopt;
  ThreeParameters p;
  auto d = dimension_of(parts[0]);
  if (!d) return std::nullopt;
  p.dim = *d;
  if (parts.size() > 1) {
    auto a = number_of(parts[1]);
    if (!a) return std::nullopt;
    p.a = *a;
  }
  if (parts.size() > 2) {
    auto b = number_of(parts[2]);
    if (!b) return std::nullopt;
    p.b = *b;
  }
  return p;
}

enum class Kind { stealth, latex, cm_rightarrow, old_to, old_stealth, old_latex, old_triangle45 };

// What a tip name means. Aliases carry the options their `.tip` definition adds
// (pgflibraryarrows.meta.code.tex: Triangle, LaTeX).
struct TipName {
  std::string_view name;
  Kind kind;
  std::string_view alias_options;
};
constexpr TipName kTipNames[] = {
    {"Stealth", Kind::stealth, ""},
    {"Triangle", Kind::stealth, "inset=+0pt, angle=+60:+2.7pt +3.6"},
    {"Latex", Kind::latex, ""},
    {"LaTeX", Kind::latex, ""},
    {"Computer Modern Rightarrow", Kind::cm_rightarrow, ""},
    {"to", Kind::old_to, ""},
    {"stealth", Kind::old_stealth, ""},
    {"latex", Kind::old_latex, ""},
    {"triangle 45", Kind::old_triangle45, ""},
};

// Each tip's `defaults` (executed before the options written at the tip).
std::string_view defaults_of(Kind k) {
  switch (k) {
    case Kind::stealth: return "length=+3pt 4.5 .8, width'=+0pt .75, inset'=+0pt 0.325, line width=+0pt 1 1";
    case Kind::latex: return "length=+3pt 4.5 .8, width'=+0pt .75, line width=+0pt 1 1";
    case Kind::cm_rightarrow: return "length=+1.6pt 2.2, width'=+0pt 2.096774, line width=0pt 1 1, round";
    default: return "";
  }
}

// The arrow keys' state (pgfcorearrows.code.tex and pgflibraryarrows.meta.code.tex).
struct TipParameters {
  double length = 0, width = 0, inset = 0, line_width = 0, sep = 0;
  double length_scale = 1, width_scale = 1;
  bool harpoon = false, swap = false, reversed = false, round_join = false;
};

// Runs one option list over `p`: the keys pgf adds to its options run now, those it adds to its
// "late options" (width, inset, line width, and their primed forms) are queued, in order.
// false when a key changes the tip in a way not modelled.
bool run_options(std::string_view options, double path_lw, TipParameters& p,
                 std::vector<std::pair<std::string, std::string>>& late) {
  for (const auto& kv : tex::pgfmath::parse_keyval(options)) {
    const std::string& k = kv.key;
    const std::string v = tex::strip_braces(kv.value);
    if (k == "length") {
      auto t = three_parameters(v);
      if (!t) return false;
      p.length = t->dim + t->a * path_lw;  // \pgfarrowslinewidthdependent (single line)
    } else if (k == "angle") {
      // \pgfarrows@angle@setup: "angle:dimension factor"; the tip spans that distance at half the angle
      const std::size_t colon = v.find(':');
      if (colon == std::string::npos) return false;
      auto ang = number_of(std::string_view(v).substr(0, colon));
      auto t = three_parameters(std::string_view(v).substr(colon + 1));
      if (!ang || !t) return false;
      const double x = t->dim + t->a * path_lw, half = 0.5 * *ang * kDegToRad;
      p.length = x * std::cos(half);
      late.emplace_back("width@", std::to_string(2 * x * std::sin(half)));
    } else if (k == "width" || k == "width'" || k == "inset" || k == "inset'" || k == "line width" ||
               k == "line width'" || k == "angle'") {
      late.emplace_back(k, v);
    } else if (k == "scale" || k == "scale length" || k == "scale width") {
      auto s = number_of(v);
      if (!s) return false;
      if (k != "scale width") p.length_scale = *s;
      if (k != "scale length") p.width_scale = *s;
    } else if (k == "sep") {
      auto t = three_parameters(kv.has_value ? std::string_view(v) : std::string_view("0.88pt .3 1"));
      if (!t) return false;
      p.sep = t->dim + t->a * path_lw;
    } else if (k == "swap") {
      p.swap = !p.swap;
    } else if (k == "reversed") {
      p.reversed = !p.reversed;
    } else if (k == "harpoon") {
      p.harpoon = !(kv.has_value && trim_ascii(v) == "false");
    } else if (k == "left") {
      p.harpoon = true;
    } else if (k == "right") {
      p.harpoon = true;
      p.swap = !p.swap;
    } else if (k == "round") {
      p.round_join = true;
    } else if (k == "sharp") {
      p.round_join = false;
    } else if (k == "line join") {
      p.round_join = trim_ascii(v) == "round";
    } else if (k == "open" || k == "fill" || k == "color" || k == "line cap" || k == "quick" || k == "flex" ||
               k == "flex'" || k == "bend") {
      // the hull of a filled and an open tip is the same; colours and caps do not move it;
      // flexing turns the tip along a curve by the small angle its length subtends
    } else if (kv.has_value) {
      return false;  // slant and library keys: not modelled
    }
    // a bare unknown word is a colour (the `.unknown` handler); pgf errors on anything else
  }
  return true;
}

bool run_late(const std::vector<std::pair<std::string, std::string>>& late, double path_lw, TipParameters& p) {
  for (const auto& [k, v] : late) {
    if (k == "width@") {
      p.width = std::strtod(v.c_str(), nullptr);
      continue;
    }
    if (k == "angle'") {  // \pgfarrows@angle@setup@prime
      auto a = number_of(v);
      if (!a) return false;
      p.width = 2 * std::tan(0.5 * *a * kDegToRad) * p.length;
      continue;
    }
    auto t = three_parameters(v);
    if (!t) return false;
    const bool prime = k.back() == '\'';
    // \pgfarrowslinewidthdependent / \pgfarrowslengthdependent
    const double value = prime ? t->dim + t->a * p.length + t->b * path_lw : t->dim + t->a * path_lw;
    if (k.rfind("width", 0) == 0) p.width = value;
    else if (k.rfind("inset", 0) == 0) p.inset = value;
    else p.line_width = value;
  }
  return true;
}

void upper_hull_point(ArrowTip& t, const TipParameters& p, double x, double y) {  // \pgfarrowsupperhullpoint
  t.hull.push_back({x, y});
  if (y > 0 && !p.harpoon) t.hull.push_back({x, -y});
}

// The tips' setup code: tip end, back end and hull.
ArrowTip instantiate(Kind kind, TipParameters p, double lw) {
  ArrowTip t;
  switch (kind) {
    case Kind::stealth: {
      // Cap the line width at 1/4th distance from inset to tip
      const double alw = std::min(p.line_width, 0.25 * (p.length - p.inset));
      const double quot = p.width != 0 ? p.length / p.width : 0;
      const double xc = 0.5 * std::sqrt(4 * quot * quot + 1) * alw;  // front miter
      const double xa = quot * alw;                                  // extra harpoon miter
      double ya = std::atan2(p.inset, 0.5 * p.width);
      double yb = 0.5 * (std::atan2(p.length, 0.5 * p.width) - ya);
      const double yc = 0.5 * alw / std::tan(yb);
      ya += yb;
      double back_miter = std::sin(ya) * yc;
      if (p.inset == 0) back_miter = 0.5 * alw;
      const double inner = p.length - xc - back_miter;
      t.back_end = p.round_join ? back_miter - 0.5 * alw : 0;
      t.tip_end = p.round_join ? inner + back_miter + 0.5 * alw : p.length + (p.harpoon ? xa : 0);
      t.hull.push_back({p.length + (!p.round_join && p.harpoon ? xa : 0), p.harpoon ? -0.5 * alw : 0});
      upper_hull_point(t, p, 0, 0.5 * p.width);
      t.hull.push_back({p.inset, p.harpoon ? -0.5 * alw : 0});
      break;
    }
    case Kind::latex: {
      const double alw = std::min(p.line_width, 0.2 * p.length);
      const double quot = p.width != 0 ? p.length / p.width : 0;
      const double xc = std::sqrt(9 * quot * quot + 1) * alw;
      const double xa = quot * alw;
      const double inner = p.length - 0.5 * xc - 0.5 * alw;
      t.back_end = -0.5 * alw;
      t.tip_end = p.round_join ? inner + 0.5 * alw : p.length - 0.5 * alw + (p.harpoon ? 1.5 * xa : 0);
      t.hull.push_back(
          {p.length - 0.5 * alw + (!p.round_join && p.harpoon ? 1.5 * xa : 0), p.harpoon ? -0.5 * alw : 0});
      t.hull.push_back({-0.5 * alw, 0.5 * p.width - (p.harpoon ? 0.5 * alw : 0)});
      t.hull.push_back({-0.5 * alw, p.harpoon ? -0.5 * alw : -0.5 * p.width});
      break;
    }
    case Kind::cm_rightarrow: {
      const double alw = p.line_width;
      const double da = p.length - alw, db = p.width - alw;
      double xc = 0, xa = 0;
      if (!p.round_join) {
        const double quot = db != 0 ? da / db : 0;
        xc = 0.5 * std::sqrt(49.44662 * quot * quot + 1) * alw;
        xa = 3.51591 * quot * alw;
      }
      t.tip_end = p.round_join ? 0.5 * alw : xc + (p.harpoon ? xa : 0);
      t.back_end = -da - 0.5 * alw;
      t.hull.push_back({t.tip_end, 0.5 * alw});
      t.hull.push_back({t.tip_end, -0.5 * alw});
      upper_hull_point(t, p, -da + 0.5 * alw, 0.5 * db + 0.5 * alw);
      upper_hull_point(t, p, -da - 0.5 * alw, 0.5 * db + 0.5 * alw);
      if (p.harpoon) {
        t.hull.push_back({-alw, -0.5 * alw});
        t.hull.push_back({-da - 0.5 * alw, 0.5 * db - 0.5 * alw});
      }
      break;
    }
    // \pgfarrowsdeclare tips set their extents and declare no hull: cached, they do not reach
    // the picture's size at all (\pgf@arrows@rigid@hull skips an empty hull)
    case Kind::old_to:
      t.back_end = -0.84 - 1.3 * lw;
      t.tip_end = 0.21 + 0.625 * lw;
      break;
    case Kind::old_stealth:
      t.back_end = -3 * (0.28 + 0.3 * lw);
      t.tip_end = 5 * (0.28 + 0.3 * lw);
      break;
    case Kind::old_latex:
      t.back_end = -(0.28 + 0.3 * lw);
      t.tip_end = 9 * (0.28 + 0.3 * lw);
      break;
    case Kind::old_triangle45: {
      const double a = 0.5 + 0.25 * lw;
      t.back_end = -(8.705 * a + 0.5 * lw);
      t.tip_end = 0.5 * a + 1.28 * lw;
      break;
    }
  }
  if (p.swap)
    for (Point& h : t.hull) h.y = -h.y;
  if (p.reversed) {  // \pgf@arrows@handle@reverse
    const double te = t.tip_end;
    t.tip_end = -t.back_end;
    t.back_end = -te;
    for (Point& h : t.hull) h.x = -h.x;
  }
  t.sep = p.sep;
  return t;
}

// One named tip with the options written at it.
std::optional<ArrowTip> named_tip(std::string_view name, std::string_view options, double lw) {
  for (const TipName& tn : kTipNames) {
    if (tn.name != name) continue;
    TipParameters p;
    std::vector<std::pair<std::string, std::string>> late;
    if (!run_options(defaults_of(tn.kind), lw, p, late)) return std::nullopt;
    if (!run_options(tn.alias_options, lw, p, late)) return std::nullopt;
    if (!run_options(options, lw, p, late)) return std::nullopt;
    if (!run_late(late, lw, p)) return std::nullopt;
    // \pgfarrows@scale@list: length and inset by the length scale, width by the width scale
    p.length *= p.length_scale;
    p.inset *= p.length_scale;
    p.width *= p.width_scale;
    if (p.length <= 0 && (tn.kind == Kind::stealth || tn.kind == Kind::latex)) return std::nullopt;
    return instantiate(tn.kind, p, lw);
  }
  return std::nullopt;
}

// The longest tip name `text` starts with, ending at a blank, `[`, `{` or the end.
std::optional<std::string_view> leading_name(std::string_view text) {
  std::optional<std::string_view> best;
  for (const TipName& tn : kTipNames) {
    if (text.substr(0, tn.name.size()) != tn.name) continue;
    if (text.size() > tn.name.size()) {
      const char c = text[tn.name.size()];
      if (!(c == ' ' || c == '[' || c == '{' || c == '.')) continue;
    }
    if (!best || tn.name.size() > best->size()) best = tn.name;
  }
  return best;
}

bool parse_sequence(std::string_view text, bool at_start, std::string_view default_tip, double lw, int depth,
                    const std::string& extra_options, std::vector<ArrowTip>& out);

// `>` and `<`: the `>=` key's tip, reversed for `<` at the end and for `>` at the start
// (tikz.code.tex declares `>=X` as the tip `<->`, core pgf `>-<` as `>[reversed]`).
bool default_tips(bool reversed, std::string_view default_tip, double lw, int depth, const std::string& options,
                  std::vector<ArrowTip>& out) {
  std::string opts = options;
  if (reversed) opts = opts.empty() ? "reversed" : opts + ",reversed";
  std::string_view spec = default_tip.empty() ? std::string_view("to") : default_tip;
  return parse_sequence(spec, false, "", lw, depth + 1, opts, out);
}

bool parse_sequence(std::string_view text, bool at_start, std::string_view default_tip, double lw, int depth,
                    const std::string& extra_options, std::vector<ArrowTip>& out) {
  if (depth > 4) return false;
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == ' ' || c == '.') {  // `.` marks where the line ends: no effect on the tips' places
      ++i;
      continue;
    }
    std::vector<ArrowTip> group;
    std::string_view name;
    bool shorthand = false;
    if (c == '{') {
      int d = 0;
      std::size_t j = i;
      for (; j < text.size(); ++j) {
        if (text[j] == '{') ++d;
        if (text[j] == '}' && --d == 0) break;
      }
      if (j >= text.size()) return false;
      if (!parse_sequence(text.substr(i + 1, j - i - 1), false, default_tip, lw, depth + 1, extra_options, group))
        return false;
      i = j + 1;
      if (i < text.size() && text[i] == '[') return false;  // options on a group: not modelled
      out.insert(out.end(), group.begin(), group.end());
      continue;
    }
    if (c == '>' || c == '<') {
      name = text.substr(i, 1);
      shorthand = true;
      ++i;
    } else {
      auto n = leading_name(text.substr(i));
      if (!n) return false;
      name = *n;
      i += n->size();
    }
    std::string options;
    if (i < text.size() && text[i] == '[') {
      int d = 0;
      std::size_t j = i;
      for (; j < text.size(); ++j) {
        if (text[j] == '[' || text[j] == '{') ++d;
        if ((text[j] == ']' || text[j] == '}') && --d == 0) break;
      }
      if (j >= text.size()) return false;
      options = std::string(text.substr(i + 1, j - i - 1));
      i = j + 1;
    }
    if (!extra_options.empty()) options = options.empty() ? extra_options : extra_options + "," + options;
    if (shorthand) {
      const bool reversed = (name == "<") != at_start;
      if (!default_tips(reversed, default_tip, lw, depth, options, out)) return false;
      continue;
    }
    auto tip = named_tip(name, options, lw);
    if (!tip) return false;
    out.push_back(*tip);
  }
  return true;
}

}  // namespace

std::optional<std::vector<ArrowTip>> arrow_tip_sequence(std::string_view side, bool at_start,
                                                        std::string_view default_tip, double line_width) {
  side = trim_ascii(side);
  std::vector<ArrowTip> tips;
  if (!parse_sequence(side, at_start, trim_ascii(default_tip), line_width, 0, "", tips)) return std::nullopt;
  // \pgfsetarrowsstart prepends each tip: the one written first is the outermost
  if (at_start) std::reverse(tips.begin(), tips.end());
  return tips;
}

std::optional<std::pair<Point, Point>> path_end(const Geometry& g, bool at_start) {
  constexpr double eps = 1e-9;
  // the last point of `pts` (the first, at_start) and the direction from the nearest different one
  auto from_points = [&](const std::vector<Point>& pts) -> std::optional<std::pair<Point, Point>> {
    if (pts.size() < 2) return std::nullopt;
    const std::size_t n = pts.size();
    const Point e = at_start ? pts.front() : pts.back();
    for (std::size_t k = 1; k < n; ++k) {
      const Point q = at_start ? pts[k] : pts[n - 1 - k];
      if (length(e - q) > eps) return std::make_pair(e, e - q);
    }
    return std::nullopt;
  };
  if (const auto* s = std::get_if<Segment>(&g)) return from_points({s->a, s->b});
  if (const auto* pl = std::get_if<Polyline>(&g)) {
    if (pl->closed) return std::nullopt;
    return from_points(pl->points);
  }
  if (const auto* p = std::get_if<Plot>(&g)) return from_points(p->points);
  if (const auto* b = std::get_if<Bezier>(&g)) return from_points({b->p0, b->c1, b->c2, b->p1});
  if (const auto* a = std::get_if<Arc>(&g)) {
    // c + R(rotation) (rx cos t, ry sin t); the tangent's sense follows the sweep
    const double t = (at_start ? a->start_deg : a->end_deg) * kDegToRad, r = a->rotation_deg * kDegToRad;
    auto rot = [&](Point v) { return Point{v.x * std::cos(r) - v.y * std::sin(r), v.x * std::sin(r) + v.y * std::cos(r)}; };
    const Point at = a->center + rot({a->rx * std::cos(t), a->ry * std::sin(t)});
    const Point expected = at_start ? a->from : a->to;
    if (length(at - expected) > 1e-3 * std::max(1.0, std::max(a->rx, a->ry))) return std::nullopt;
    Point tangent = rot({-a->rx * std::sin(t), a->ry * std::cos(t)});
    const double sense = a->sweep_deg() >= 0 ? 1 : -1;
    tangent = (at_start ? -sense : sense) * tangent;
    if (length(tangent) <= eps) return std::nullopt;
    return std::make_pair(expected, tangent);
  }
  return std::nullopt;
}

std::vector<Point> arrow_hull_points(const std::vector<ArrowTip>& tips, Point end, Point dir) {
  std::vector<Point> pts;
  const double len = length(dir);
  if (!(len > 0) || tips.empty()) return pts;
  const Point d{dir.x / len, dir.y / len}, n{-d.y, d.x};
  // \pgf@arrow@draw@arrow: start at minus the total length, each tip shifted by its back end
  double total = 0;
  for (const ArrowTip& t : tips) total += t.tip_end - t.back_end + t.sep;
  double cursor = -total;
  for (const ArrowTip& t : tips) {
    const double origin = cursor - t.back_end;
    for (Point h : t.hull) pts.push_back(end + (origin + h.x) * d + h.y * n);
    cursor += t.tip_end + t.sep - t.back_end;
  }
  return pts;
}

}  // namespace tikzlint::ir
