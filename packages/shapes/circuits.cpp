// packages/shapes/circuits.cpp: the circuit shapes (libraries/shapes/circuits/): the ee symbols'
// `input`/`output` anchors, and the logic gates (IEC rectangles; US and CDH and/nand/or/nor
// outlines) with their `input N` and `output` anchors, as pgflibraryshapes.gates.*.code.tex.
#include <algorithm>
#include <cmath>

#include "packages/shapes/shapes.hpp"
#include "ir/textmetrics.hpp"

namespace tikzlint::ir::shapes {
namespace {

// pgf@lib@sh@logicgate@parseinputs: `logic gate inputs` is either a comma list of
// normal/inverted or a word of n/i letters; true marks an inverted input.
std::vector<bool> gate_inputs(const NodeShapeInput& in, std::size_t max_inputs) {
  const std::string spec = text_param(in, "logic gate inputs", "normal,normal");
  std::vector<bool> out;
  if (spec.find(',') != std::string::npos) {
    std::size_t start = 0;
    while (start <= spec.size() && out.size() < max_inputs) {
      std::size_t comma = spec.find(',', start);
      if (comma == std::string::npos) comma = spec.size();
      std::string item = spec.substr(start, comma - start);
      item.erase(0, item.find_first_not_of(" \t"));
      item.erase(item.find_last_not_of(" \t") + 1);
      out.push_back(item == "inverted");
      start = comma + 1;
    }
  } else {
    for (char c : spec) {
      if (out.size() >= max_inputs) break;
      if (c == ' ') continue;
      out.push_back(c == 'i');
    }
  }
  return out;
}

// The rectangle of pgf's `rectangle` shape ((w/2 + inner xsep) floored by minimum width/2...)
// with the outer sep; ee symbols inherit its saved anchors and border.
void rectangle_body(const NodeShapeInput& in, OutlineBuilder& b, double& hx, double& hy) {
  const Box2 t = inner_half(in);
  const double x = std::max(t.hw, in.minimum_width / 2), y = std::max(t.hh, in.minimum_height / 2);
  hx = x + in.outer_xsep;
  hy = y + in.outer_ysep;
  b.o.border = {{hx, hy}, {-hx, hy}, {-hx, -hy}, {hx, -hy}};
  b.path = {{x, y}, {-x, y}, {-x, -y}, {x, -y}};
  b.anchor("north east", {hx, hy});
  b.anchor("north west", {-hx, hy});
  b.anchor("south east", {hx, -hy});
  b.anchor("south west", {-hx, -hy});
}

std::shared_ptr<const ShapeOutline> ee_symbol(const NodeShapeInput& in) {
  OutlineBuilder b;
  double hx = 0, hy = 0;
  rectangle_body(in, b, hx, hy);
  // rectangle ee: input/output are the middles of the west and east sides
  b.anchor("input", {-hx, 0});
  b.anchor("output", {hx, 0});
  return b.finish(in);
}

std::shared_ptr<const ShapeOutline> circle_ee(const NodeShapeInput& in) {
  const Box2 t = inner_half(in);
  double r = std::max({std::hypot(t.hw, t.hh), in.minimum_width / 2, in.minimum_height / 2});
  const double ro = r + std::max(in.outer_xsep, in.outer_ysep);
  OutlineBuilder b;
  b.arc(b.o.border, {0, 0}, ro, ro, 0, 360, 96);
  b.o.border.pop_back();
  b.arc(b.path, {0, 0}, r, r, 0, 360, 96);
  for (const auto& [name, deg] : {std::pair<const char*, double>{"north east", 45}, {"north west", 135},
                                  {"south west", 225}, {"south east", 315}})
    b.anchor(name, polar(deg, ro));
  b.anchor("input", {-ro, 0});
  b.anchor("output", {ro, 0});
  return b.finish(in);
}

// inductor IEC: its own box from minimum width and height only, standing on the center line
// (\northeast = (outer xsep + minimum width/2, outer ysep + minimum height), \southwest =
// (-outer xsep - minimum width/2, -outer ysep)); anchors as rectangle ee's from that box.
std::shared_ptr<const ShapeOutline> inductor(const NodeShapeInput& in) {
  const double x1 = in.outer_xsep + in.minimum_width / 2, y1 = in.outer_ysep + in.minimum_height;
  const double x0 = -x1, y0 = -in.outer_ysep, ym = (y0 + y1) / 2;
  OutlineBuilder b;
  b.o.border = {{x1, y1}, {x0, y1}, {x0, y0}, {x1, y0}};
  b.path = {{x1 - in.outer_xsep, y1 - in.outer_ysep}, {x0 + in.outer_xsep, 0}};
  b.anchor("north", {0, y1});
  b.anchor("south", {0, y0});
  b.anchor("east", {x1, ym});
  b.anchor("west", {x0, ym});
  b.anchor("north east", {x1, y1});
  b.anchor("north west", {x0, y1});
  b.anchor("south east", {x1, y0});
  b.anchor("south west", {x0, y0});
  b.anchor("input", {x0, ym});
  b.anchor("output", {x1, ym});
  return b.finish(in);
}

struct GateKind {
  std::string_view name;
  enum Family { iec, us_and, us_or, cdh } family;
  bool inverted_output;
  std::size_t max_inputs;
  std::string_view iec_symbol;  // the IEC gate's symbol, which the box must hold
};
constexpr GateKind kGates[] = {
    {"and gate IEC", GateKind::iec, false, 1024, "&"},     {"nand gate IEC", GateKind::iec, true, 1024, "&"},
    {"or gate IEC", GateKind::iec, false, 1024, "$\\geq1$"}, {"nor gate IEC", GateKind::iec, true, 1024, "$\\geq1$"},
    {"xor gate IEC", GateKind::iec, false, 1024, "$=1$"},  {"xnor gate IEC", GateKind::iec, true, 1024, "$=1$"},
    {"not gate IEC", GateKind::iec, true, 1, "1"},         {"buffer gate IEC", GateKind::iec, false, 1, "1"},
    {"and gate US", GateKind::us_and, false, 1024, ""},    {"nand gate US", GateKind::us_and, true, 1024, ""},
    {"or gate US", GateKind::us_or, false, 1024, ""},      {"nor gate US", GateKind::us_or, true, 1024, ""},
    {"and gate CDH", GateKind::cdh, false, 1024, ""},      {"nand gate CDH", GateKind::cdh, true, 1024, ""},
};

std::shared_ptr<const ShapeOutline> iec_gate(const NodeShapeInput& in, const GateKind& k, const std::vector<bool>& inputs) {
  const double r = param(in, "logic gate inverted radius", 2);
  const double input_sep = param(in, "logic gate input sep", 0.125 * kPtPerCm);
  const double outer_r = r + 0.5 * in.line_width;
  // pgf@lib@sh@logicgates@dimensions@IEC: the larger of the text and the symbol, plus inner sep
  FontSpec f;
  f.size_pt = in.font_size_pt;
  const TextBox sym = measure_text(k.iec_symbol, f);
  double x = std::max(in.text_width, sym.width) / 2 + in.inner_xsep;
  double y = std::max(in.text_height + in.text_depth, sym.height + sym.depth) / 2 + in.inner_ysep;
  x = std::max(x, in.minimum_width / 2);
  y = std::max(y, in.minimum_height / 2);
  const double per_input = std::max(2 * r + in.line_width, input_sep);
  y = std::max(y, per_input * static_cast<double>(inputs.size() + 1) / 2);
  const double hw = x + in.outer_xsep, hh = y + in.outer_ysep;
  OutlineBuilder b;
  b.o.border = {{hw, hh}, {-hw, hh}, {-hw, -hh}, {hw, -hh}};
  // the path is drawn outer xsep inside \halfwidth and \halfheight (pgf subtracts xsep from both)
  const double px = hw - in.outer_xsep, py = hh - in.outer_xsep;
  b.path = {{px, py}, {-px, py}, {-px, -py}, {px, -py}};
  b.anchor("north east", {hw, hh});
  b.anchor("north west", {-hw, hh});
  b.anchor("south east", {hw, -hh});
  b.anchor("south west", {-hw, -hh});
  const double step = 2 * hh / static_cast<double>(inputs.size() + 1);
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    double ix = -hw;
    if (inputs[i]) {
      ix -= r + outer_r;
      b.path.push_back({-hw - 2 * r, hh - step * static_cast<double>(i + 1)});
    }
    b.anchor("input " + std::to_string(i + 1), {ix, hh - step * static_cast<double>(i + 1)});
  }
  b.anchor("output", {hw + (k.inverted_output ? r + outer_r : 0), 0});
  if (k.inverted_output) b.path.push_back({hw + 2 * r, 0});
  return b.finish(in);
}

std::shared_ptr<const ShapeOutline> us_gate(const NodeShapeInput& in, const GateKind& k, const std::vector<bool>& inputs) {
  const double r = param(in, "logic gate inverted radius", 2);
  const double input_sep = param(in, "logic gate input sep", 0.125 * kPtPerCm);
  const double outer_r = r + 0.5 * in.line_width;
  const double ox = in.outer_xsep, oy = in.outer_ysep;
  const bool or_dims = k.family != GateKind::us_and;
  // pgf@lib@sh@logicgates@dimensions@andUS / @orUS: the half side s
  const Box2 t = inner_half(in);
  double x = t.hw, y = t.hh;
  y = std::max(y, std::max(r + in.line_width, input_sep / 2) * static_cast<double>(inputs.size() + 1));
  x = y = std::max(x, y);
  y = std::max(y, in.minimum_height / 2);
  if (or_dims) {
    if (x + 1.732051 * y < in.minimum_width) x = 0.366025 * in.minimum_width;
  } else {
    if (2.5 * x < in.minimum_width) x = 0.4 * in.minimum_width;
  }
  const double s = std::max(x, y);
  const double hw = s + ox, hh = s + oy;
  const double back = -1.16666 * s;  // the straight back of the gate
  OutlineBuilder b;
  double east = 0;
  if (or_dims) {
    east = -0.16666 * s + 0.866025 * 2 * s + 1.154701 * ox;  // \tipanchor
  } else {
    east = 0.333333 * s + hw;
  }
  // outline: the back, the top and bottom, and the nose (an arc for and gates, a point for or)
  b.path = {{back, -s}, {back, s}};
  b.o.border = {{back - ox, -hh}, {back - ox, hh}};
  if (k.family == GateKind::us_and) {
    b.arc(b.path, {0.333333 * s, 0}, s, s, 90, -90);
    b.arc(b.o.border, {0.333333 * s, 0}, hw, hh, 90, -90);
  } else {
    // the or gate's nose: two arcs of radius 2s meeting at the tip (sampled)
    for (int side : {1, -1}) {
      std::vector<Point> arc;
      const Point c{-0.16666 * s, -side * s};
      const double a0 = side > 0 ? 90 : -90, a1 = side > 0 ? 30 : -30;
      b.arc(arc, c, 2 * s, 2 * s, a0, a1, 24);
      if (side < 0) std::reverse(arc.begin(), arc.end());
      for (Point p : arc) b.path.push_back(p);
    }
    b.o.border.push_back({-0.16666 * s, hh});
    b.o.border.push_back({east, 0});
    b.o.border.push_back({-0.16666 * s, -hh});
  }
  b.anchor("west", {back - ox, 0});
  b.anchor("north west", {back - ox, hh});
  b.anchor("south west", {back - ox, -hh});
  b.anchor("north", {0, hh});
  b.anchor("south", {0, -hh});
  b.anchor("east", {east, 0});
  if (k.family == GateKind::us_and) {
    b.anchor("north east", {0.333333 * s + 0.707106 * hw, 0.707106 * hh});
    b.anchor("south east", {0.333333 * s + 0.707106 * hw, -0.707106 * hh});
  }
  // base/mid east/west: the x of east and of the back (west), at the base and mid heights
  const double base_y = -(in.text_height - in.text_depth) / 2, mid_y = base_y + 0.5 * in.ex;
  b.anchor("base east", {east, base_y});
  b.anchor("mid east", {east, mid_y});
  b.anchor("base west", {back - ox, base_y});
  b.anchor("mid west", {back - ox, mid_y});
  double output = east;
  if (k.inverted_output) {
    // nand gate US: 1.33333 s; nor gate US, nand gate CDH: the tip -.166666 s + 1.73205 s
    output = (or_dims ? -0.166666 * s + 0.866025 * 2 * s : 1.33333 * s) + r + outer_r + ox;
    b.path.push_back({output - ox, 0});
  }
  b.anchor("output", {output, 0});
  const double step = 2 * s / static_cast<double>(inputs.size() + 1);
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const double iy = s - step * static_cast<double>(i + 1);
    double ix = 0;
    if (k.family == GateKind::us_or) {
      // pgf@lib@sh@logicgate@OR@inputanchor: on the curved back, radius 2s - .5 line width
      const double rb = 2 * s - 0.5 * in.line_width;
      const double a = std::asin(std::clamp(iy / rb, -1.0, 1.0));
      ix = -1.166666 * s - 0.866025 * 2 * s + std::cos(a) * rb + 0.5 * in.line_width - ox;
    } else {
      ix = -0.166666 * s - hw;  // pgf@lib@sh@logicgate@AND@inputanchor
    }
    if (inputs[i]) {
      ix -= r + outer_r;
      b.path.push_back({ix + ox, iy});
    }
    b.anchor("input " + std::to_string(i + 1), {ix, iy});
  }
  return b.finish(in);
}

}  // namespace

std::shared_ptr<const ShapeOutline> build_circuit(const NodeShapeInput& in) {
  const std::string& n = in.shape_name;
  for (const auto& k : kGates) {
    if (k.name != n) continue;
    const std::vector<bool> inputs = gate_inputs(in, k.max_inputs);
    if (inputs.empty()) return nullptr;
    if (k.family == GateKind::iec) return iec_gate(in, k, inputs);
    return us_gate(in, k, inputs);
  }
  if (n == "circle ee" || n == "generic circle IEC") return circle_ee(in);
  if (n == "inductor IEC") return inductor(in);
  // rectangle ee and the IEC ee symbols that inherit its saved anchors (gates.ee.IEC)
  static constexpr std::string_view kRectangleEe[] = {
      "rectangle ee",      "var resistor IEC",    "capacitor IEC",
      "ground IEC",        "battery IEC",         "breakdown diode IEC",  "generic diode IEC",
      "make contact IEC",  "var make contact IEC", "break contact IEC"};
  for (std::string_view r : kRectangleEe)
    if (r == n) return ee_symbol(in);
  return nullptr;
}

}  // namespace tikzlint::ir::shapes
