// ir/decorations.cpp: the decorations of pgfmanual 50 that the rules can reason about.
#include "ir/decorations.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "support/ascii.hpp"
#include "tex/styles.hpp"

namespace tikzlint::ir {

namespace {

// pgflibrarydecorations.shapes.code.tex: shape start/end width/height=2.5pt
constexpr double kDefaultDecorationShapeSize = 2.5;

std::string trimmed(std::string_view s) {
  while (!s.empty() && is_ascii_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_ascii_space(s.back())) s.remove_suffix(1);
  return std::string(s);
}

// Path-morphing and path-replacing decorations whose strokes never leave a band of `amplitude`
// around the path (pgflibrarydecorations.pathmorphing / .pathreplacing / .shapes code).
bool stays_within_amplitude(const std::string& name) {
  static const char* kNames[] = {"lineto", "straight zigzag", "random steps", "saw", "bent",
                                 "bumps", "coil", "curveto", "border", "ticks", "crosses",
                                 "triangles", "zigzag path"};
  for (const char* n : kNames)
    if (name == n) return true;
  return false;
}

}  // namespace

double DecorationKey::number(double fallback) const {
  auto v = host->eval(value);
  return v ? v->value : fallback;
}

std::vector<DecorationKey> decoration_keys(const std::string& spec, LibraryHost& host) {
  std::vector<DecorationKey> out;
  for (const auto& it : tex::split_options(spec))
    out.push_back({tex::normalise_key(it.key), trimmed(tex::strip_braces(trimmed(it.value))), it.has_value, &host});
  return out;
}

DecorationEffect classify_decoration(const std::string& spec, FontUnits units) {
  DecorationEffect e;
  std::string err;
  double shape_size = kDefaultDecorationShapeSize;
  bool effects_keys = false, reverse = false;
  for (const auto& it : tex::split_options(spec)) {
    const std::string key = tex::normalise_key(it.key);
    const std::string value = trimmed(tex::strip_braces(it.value));
    auto dim = [&](double fallback) {
      auto d = eval_dimension(value, units, &err);
      return d ? *d : fallback;
    };
    if (key == "text effects/.cd") {  // the bare keys that follow are text effects (path from text...)
      effects_keys = true;
      continue;
    }
    if (!it.has_value) {
      if (key == "mirror") e.mirror = true;
      else if (key == "reverse path") reverse = true;
      else if (key == "name" || key == "reset marks" || key.find('/') != std::string::npos) continue;
      else if (key == "shape scaled" || key == "shape sloped" || key == "shape evenly spread") continue;
      else if (!effects_keys || key.find("along path") != std::string::npos || key == "markings")
        e.name = key;  // `decoration={brace}`: a bare word is the decoration's name
      continue;
    }
    if (key == "name") e.name = value;
    else if (key == "amplitude") e.amplitude = dim(e.amplitude);
    else if (key == "aspect") e.aspect = dim(e.aspect);
    else if (key == "raise") e.raise = dim(e.raise);
    else if (key == "mirror") e.mirror = value != "false";
    else if (key == "shape size" || key == "shape width" || key == "shape height" || key == "shape start size" ||
             key == "shape end size" || key == "shape start width" || key == "shape end width" ||
             key == "shape start height" || key == "shape end height")
      shape_size = std::max(shape_size, dim(shape_size));
    else if (key == "mark") {
      // mark=at position <p> with {<code>}: the code runs in the mark's frame (decorations_draw.cpp)
      if (e.name.empty()) e.name = "markings";
    }
  }
  if (e.kind == DecorationEffect::Kind::unsupported) {
    if (e.name.empty()) e.name = "markings";
    return e;
  }
  if (e.name.empty() || stays_within_amplitude(e.name)) {
    e.kind = DecorationEffect::Kind::within_amplitude;
    if (e.name.empty()) e.name = "lineto";
  } else if (e.name == "Koch curve type 1" || e.name == "Koch curve type 2" || e.name == "Koch snowflake" ||
             e.name == "Cantor set") {
    e.kind = DecorationEffect::Kind::fractal;
  } else if (e.name == "shape backgrounds") {
    // shapes centered on the path, at most `shape ... width/height` across (decorations.shapes)
    e.kind = DecorationEffect::Kind::within_amplitude;
    e.amplitude = shape_size;
  } else if (e.name == "brace") {
    e.kind = DecorationEffect::Kind::brace;
    if (reverse) {  // walked from the end: the brace's left is the path's right, its tip mirrored
      e.mirror = !e.mirror;
      e.aspect = 1 - e.aspect;
    }
  } else if (e.name == "markings" || e.name == "text along path" || e.name == "text effects along path" ||
             e.name == "waves" || e.name == "expanding waves" || e.name == "footprints" ||
             e.name == "show path construction" || e.name == "zigzag" || e.name == "snake") {
    e.kind = DecorationEffect::Kind::drawn;
  } else {
    e.kind = DecorationEffect::Kind::unsupported;
    e.reason = "decoration '" + e.name + "' is not lowered";
  }
  return e;
}

std::vector<Point> brace_polyline(Point a, Point b, const DecorationEffect& e) {
  const Point d{b.x - a.x, b.y - a.y};
  const double L = std::hypot(d.x, d.y);
  if (L < 1e-9) return {a, b};
  const Point u{d.x / L, d.y / L};
  Point n{-u.y, u.x};  // left of the direction of travel
  if (e.mirror) n = {-n.x, -n.y};
  const double amp = e.amplitude, tip = e.aspect * L;
  // \pgf@yc and \pgf@xc: the arms' curve lengths, at most the amplitude, at most half an arm
  const double yc = std::min(amp, 0.5 * tip), xc = std::min(amp, 0.5 * (L - tip));
  auto at = [&](double x, double y) {
    return Point{a.x + u.x * x + n.x * (y + e.raise), a.y + u.y * x + n.y * (y + e.raise)};
  };
  return {at(0, 0), at(yc, 0.5 * amp), at(tip - yc, 0.5 * amp), at(tip, amp),
          at(tip + xc, 0.5 * amp), at(L - xc, 0.5 * amp), at(L, 0)};
}

std::vector<std::vector<Point>> fractal_pieces(const std::vector<Point>& pts, const std::string& name) {
  // the generators, in units of the input segment's length (x along it, y to its left)
  struct G {
    double x, y;
    bool move;  // \pgfpathmoveto: a gap before this point
  };
  std::vector<G> gen;
  if (name == "Koch curve type 1")
    gen = {{1.0 / 3, 0, false}, {1.0 / 3, 1.0 / 3, false}, {2.0 / 3, 1.0 / 3, false}, {2.0 / 3, 0, false}, {1, 0, false}};
  else if (name == "Koch curve type 2")
    gen = {{.25, 0, false}, {.25, .25, false}, {.5, .25, false}, {.5, 0, false},
           {.5, -.25, false}, {.75, -.25, false}, {.75, 0, false}, {1, 0, false}};
  else if (name == "Koch snowflake")
    gen = {{1.0 / 3, 0, false}, {.5, 0.2886751347, false}, {2.0 / 3, 0, false}, {1, 0, false}};
  else if (name == "Cantor set")
    gen = {{1.0 / 3, 0, false}, {2.0 / 3, 0, true}, {1, 0, false}};
  else
    return {pts};
  std::vector<std::vector<Point>> out;
  if (pts.empty()) return out;
  out.push_back({pts.front()});
  for (std::size_t i = 1; i < pts.size(); ++i) {
    const Point a = pts[i - 1], b = pts[i];
    const Point d{b.x - a.x, b.y - a.y};
    const Point n{-d.y, d.x};  // left, scaled by the segment's length like d
    for (const G& g : gen) {
      const Point p{a.x + d.x * g.x + n.x * g.y, a.y + d.y * g.x + n.y * g.y};
      if (g.move) out.push_back({});
      out.back().push_back(p);
    }
  }
  return out;
}

}  // namespace tikzlint::ir
