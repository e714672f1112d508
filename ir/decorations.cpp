// ir/decorations.cpp: the decorations of pgfmanual 50 that the rules can reason about.
#include "ir/decorations.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "tex/styles.hpp"

namespace tikzlint::ir {

namespace {

std::string trimmed(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return std::string(s);
}

// Path-morphing and path-replacing decorations whose strokes never leave a band of `amplitude`
// around the path (pgflibrarydecorations.pathmorphing / .pathreplacing / .shapes code).
bool stays_within_amplitude(const std::string& name) {
  static const char* kNames[] = {"lineto", "straight zigzag", "random steps", "saw", "zigzag", "bent",
                                 "bumps", "coil", "curveto", "snake", "border", "ticks", "crosses",
                                 "triangles", "zigzag path"};
  for (const char* n : kNames)
    if (name == n) return true;
  return false;
}

// \arrow / \arrowreversed only place arrow tips: no node, no path the rules measure.
bool code_only_arrows(const std::string& code) {
  for (std::size_t i = 0; i < code.size(); ++i) {
    if (code[i] != '\\') continue;
    std::size_t j = i + 1;
    while (j < code.size() && std::isalpha(static_cast<unsigned char>(code[j]))) ++j;
    const std::string cs = code.substr(i + 1, j - i - 1);
    if (cs != "arrow" && cs != "arrowreversed" && cs != "pgfdecoratedpathlength" && cs != "relax") return false;
    i = j - 1;
  }
  return true;
}

}  // namespace

DecorationEffect classify_decoration(const std::string& spec, FontUnits units) {
  DecorationEffect e;
  std::string err;
  for (const auto& it : tex::split_options(spec)) {
    const std::string key = tex::normalise_key(it.key);
    const std::string value = trimmed(tex::strip_braces(it.value));
    auto dim = [&](double fallback) {
      auto d = eval_dimension(value, units, &err);
      return d ? *d : fallback;
    };
    if (!it.has_value) {
      if (key == "mirror") e.mirror = true;
      else if (key == "name") continue;
      else e.name = key;  // `decoration={brace}`: a bare word is the decoration's name
      continue;
    }
    if (key == "name") e.name = value;
    else if (key == "amplitude") e.amplitude = dim(e.amplitude);
    else if (key == "aspect") e.aspect = dim(e.aspect);
    else if (key == "raise") e.raise = dim(e.raise);
    else if (key == "mirror") e.mirror = value != "false";
    else if (key == "mark") {
      // mark=at position <p> with {<code>} / mark=between positions a and b step s with {<code>}
      const std::size_t with = value.find(" with");
      const std::string code = with == std::string::npos ? value : value.substr(with + 5);
      if (!code_only_arrows(code)) {
        e.kind = DecorationEffect::Kind::unsupported;
        e.reason = "markings that draw nodes or paths are not lowered";
      }
    }
  }
  if (e.kind == DecorationEffect::Kind::unsupported) {
    if (e.name.empty()) e.name = "markings";
    return e;
  }
  if (e.name.empty() || stays_within_amplitude(e.name)) {
    e.kind = DecorationEffect::Kind::within_amplitude;
    if (e.name.empty()) e.name = "lineto";
  } else if (e.name == "brace") {
    e.kind = DecorationEffect::Kind::brace;
  } else if (e.name == "markings") {
    e.kind = DecorationEffect::Kind::arrows_only;
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

}  // namespace tikzlint::ir
