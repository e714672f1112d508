// packages/pgfplots/fillbetween.cpp: the region of `\addplot fill between` (fillbetween.hpp).
#include "packages/pgfplots/fillbetween.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <string_view>

#include "ir/library.hpp"
#include "ir/lowering.hpp"
#include "tex/styles.hpp"

namespace tikzlint::pgfplots {
namespace {

using ir::Point;

bool ends_with(std::string_view s, std::string_view p) {
  return s.size() >= p.size() && s.substr(s.size() - p.size()) == p;
}

// Keys that only choose how a piece of the region is painted (pgfmanual 15.4 fill, 62 patterns,
// 69 shadings): the region stays the same.
bool paint_key(const std::string& k) {
  static const std::set<std::string> keys = {
      "fill", "pattern", "pattern color", "shading", "shading angle", "top color", "bottom color", "middle color",
      "left color", "right color", "inner color", "outer color", "ball color", "color", "fill opacity", "opacity"};
  return keys.count(k) != 0 || ir::is_color_name(k);
}

// `every segment no 3/.style`, `every odd segment/.append style`...: the style's name, or "" when
// the key is not a segment style.
bool segment_style(const std::string& k) {
  std::string name;
  for (const char* h : {"/.style", "/.append style"})
    if (ends_with(k, h)) name = k.substr(0, k.size() - std::string_view(h).size());
  if (name == "every segment" || name == "every odd segment" || name == "every even segment" ||
      name == "every last segment")
    return true;
  constexpr std::string_view no = "every segment no ";
  if (name.compare(0, no.size(), no) != 0 || name.size() == no.size()) return false;
  return std::all_of(name.begin() + no.size(), name.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

FillBetween read_fill_between(const std::string& options) {
  FillBetween out;
  for (const auto& it : tex::split_options(options)) {
    std::string k = tex::normalise_key(it.key);
    for (const char* prefix : {"/tikz/fill between/", "/pgf/fill between/", "fill between/"})
      if (k.rfind(prefix, 0) == 0) k = k.substr(std::string_view(prefix).size());
    const std::string v(ir::text_trim(tex::strip_braces(it.value)));
    if (k == "of") {
      const std::size_t a = v.find(" and ");
      if (a == std::string::npos) {
        out.unsupported = "fill between: 'of=" + v + "' names no two paths";
        return out;
      }
      out.first = std::string(ir::text_trim(v.substr(0, a)));
      out.second = std::string(ir::text_trim(v.substr(a + 5)));
    } else if (k == "reverse") {
      if (!it.has_value || v == "true") out.reverse = 1;
      else if (v == "false") out.reverse = 0;
      else if (v == "auto") out.reverse = 2;
      else out.unsupported = "fill between: 'reverse=" + v + "' is not modelled";
    } else if (k == "soft clip") {
      out.soft_clip = v;
    } else if (k == "split" || k == "on layer") {
      // split: the same region cut where the paths cross, each piece painted with its segment
      // style; on layer: where it is painted (pre main by default), not what
    } else if (segment_style(k)) {
      for (const auto& s : tex::split_options(tex::strip_braces(it.value)))
        if (const std::string sk = tex::normalise_key(s.key); !sk.empty() && !paint_key(sk)) {
          out.unsupported = "fill between: the segment style key '" + sk + "' is not modelled";
          return out;
        }
    } else {
      out.unsupported = "fill between: the key '" + k + "' is not modelled";
      return out;
    }
    if (!out.unsupported.empty()) return out;
  }
  if (out.first.empty() || out.second.empty()) out.unsupported = "fill between without 'of=A and B'";
  return out;
}

std::vector<Point> clip_to_box(const std::vector<Point>& line, Point lo, Point hi) {
  std::vector<Point> out;
  auto add = [&](Point p) {
    if (out.empty() || std::hypot(out.back().x - p.x, out.back().y - p.y) > 1e-9) out.push_back(p);
  };
  for (std::size_t i = 0; i + 1 < line.size(); ++i) {
    const Point a = line[i], b = line[i + 1];
    const double dx = b.x - a.x, dy = b.y - a.y;
    double t0 = 0, t1 = 1;
    bool inside = true;
    // p t <= q for each of the four sides
    const double p[4] = {-dx, dx, -dy, dy}, q[4] = {a.x - lo.x, hi.x - a.x, a.y - lo.y, hi.y - a.y};
    for (int s = 0; s < 4 && inside; ++s) {
      if (p[s] == 0) {
        inside = q[s] >= 0;
      } else {
        const double t = q[s] / p[s];
        if (p[s] < 0) t0 = std::max(t0, t);
        else t1 = std::min(t1, t);
        inside = t0 <= t1;
      }
    }
    if (!inside) continue;
    add({a.x + t0 * dx, a.y + t0 * dy});
    add({a.x + t1 * dx, a.y + t1 * dy});
  }
  if (line.size() == 1 && line[0].x >= lo.x && line[0].x <= hi.x && line[0].y >= lo.y && line[0].y <= hi.y)
    out.push_back(line[0]);
  return out;
}

char path_direction(const std::vector<Point>& line) {
  if (line.size() < 2) return '+';
  const Point a = line[0], b = line[1];
  if (a.x < b.x) return '+';
  if (a.x == b.x && a.y < b.y) return '+';
  return '-';
}

std::vector<Point> fill_between_outline(const std::vector<Point>& first, std::vector<Point> second, bool reverse) {
  std::vector<Point> out = first;
  if (reverse) std::reverse(second.begin(), second.end());
  out.insert(out.end(), second.begin(), second.end());
  return out;
}

}  // namespace tikzlint::pgfplots
