// checks/test_support.hpp: building small ir::Diagrams by hand for the rule tests.
#pragma once
#include <string>

#include "checks/check.hpp"
#include "ir/diagram.hpp"

namespace tikzlint::checks::testing {

constexpr double cm = ir::kPtPerCm;

inline SourceRange at_line(std::uint32_t n) { return {0, n * 10, n * 10 + 5, true}; }

inline ir::Element drawn(ir::Geometry g, std::uint32_t line = 1) {
  ir::Element e;
  e.geom = std::move(g);
  e.style.draw = true;
  e.prov.range = at_line(line);
  return e;
}

inline ir::Element segment(double x0, double y0, double x1, double y1, std::uint32_t line = 1) {
  return drawn(ir::Segment{{x0, y0}, {x1, y1}}, line);
}

inline ir::Element polygon(std::vector<ir::Point> pts, bool cycle = true, std::uint32_t line = 1) {
  ir::Polyline p;
  p.points = std::move(pts);
  p.closed = cycle;
  p.explicit_cycle = cycle;
  return drawn(p, line);
}

// A text node centred at (x, y) with a box sized like 12pt text (0.6em per character).
inline ir::Node text_node(const std::string& text, double x, double y, std::uint32_t line = 2, double font = 12) {
  ir::Node n;
  n.text = text;
  n.center = {x, y};
  double chars = 0;
  for (char c : text)
    if (c != '$' && c != '{' && c != '}' && c != '\\' && c != '^') ++chars;
  n.inner_sep = 3.33;
  n.text_width = 0.6 * font * std::max(1.0, chars);
  n.text_height = 0.7 * font;
  n.text_depth = 0.2 * font;
  double w = n.text_width / 2 + n.inner_sep, h = (n.text_height + n.text_depth) / 2 + n.inner_sep;
  n.box = {x - w, y - h, x + w, y + h};
  n.corners = {{{x - w, y - h}, {x + w, y - h}, {x + w, y + h}, {x - w, y + h}}};
  n.font_size_pt = font;
  n.prov.range = at_line(line);
  return n;
}

inline const RuleResult run(const std::string& rule, const ir::Diagram& d, const Config& cfg = {}) {
  const Rule* r = find_rule(rule);
  return r->run(d, cfg);
}

}  // namespace tikzlint::checks::testing
