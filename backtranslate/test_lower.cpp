// Lowering of a hand-written, schema-valid model answer (testdata/valid_ir.json, which
// transcribes testdata/picture.tex) into pt: units, transform chains in pgf order, node boxes.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "backtranslate/detail.hpp"
#include "ir/textmetrics.hpp"

using namespace tikzlint;
using namespace tikzlint::backtranslate;
using nlohmann::json;
using doctest::Approx;

namespace {

constexpr double cm = 72.27 / 2.54;

std::string read_testdata(const std::string& name) {
  std::ifstream in(std::string(TIKZLINT_SOURCE_DIR) + "/backtranslate/testdata/" + name);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

template <class T>
const T& geom(const ir::Diagram& d, std::size_t i) {
  REQUIRE(i < d.elements.size());
  REQUIRE(std::holds_alternative<T>(d.elements[i].geom));
  return std::get<T>(d.elements[i].geom);
}

void check_point(ir::Point p, double x, double y) {
  CHECK(p.x == Approx(x).epsilon(1e-9).scale(1));
  CHECK(p.y == Approx(y).epsilon(1e-9).scale(1));
}

json step(json shift, json xshift, json yshift, json rotate, json scale) {
  return {{"shift", shift}, {"xshift", xshift}, {"yshift", yshift}, {"rotate", rotate}, {"scale", scale}};
}

// An answer with nothing in it, to which a test adds one entity.
json empty_answer() {
  return {{"picture", {{"x", nullptr}, {"y", nullptr}, {"z", nullptr}, {"scale", nullptr}}},
          {"coordinates", json::array()}, {"segments", json::array()},
          {"polylines", json::array()},   {"circles", json::array()},
          {"arcs", json::array()},        {"rectangles", json::array()},
          {"right_angles", json::array()}, {"nodes", json::array()},
          {"clips", json::array()}};
}

json segment(json from, json to, json transform) {
  return {{"from", from}, {"to", to}, {"dash", "solid"}, {"arrows", "none"}, {"line", nullptr},
          {"transform", transform}};
}

}  // namespace

TEST_CASE("lowering the hand-written answer gives the expected pt geometry") {
  const std::string source = read_testdata("picture.tex");
  json answer = json::parse(read_testdata("valid_ir.json"));
  REQUIRE(detail::validate(answer, detail::llm_ir_schema()).empty());
  ir::Diagram d = detail::lower_llm_ir(answer, source, 7);

  CHECK(d.file == 7);
  REQUIRE(d.elements.size() == 7);
  REQUIRE(d.nodes.size() == 2);

  SUBCASE("plain segment: 1 unit is 1cm") {
    auto s = geom<ir::Segment>(d, 0);
    check_point(s.a, 0, 0);
    check_point(s.b, cm, 0);
    CHECK(d.elements[0].style.draw);
    CHECK(d.elements[0].style.dash.empty());
  }
  SUBCASE("shift={(1,2)}, xshift=10pt, rotate=90: rotate first, then the shifts") {
    auto s = geom<ir::Segment>(d, 1);
    check_point(s.a, cm + 10, 2 * cm);
    check_point(s.b, cm + 10, 3 * cm);
    CHECK(d.elements[1].style.dash == "dashed");
    CHECK(d.elements[1].style.arrow_end);
    CHECK_FALSE(d.elements[1].style.arrow_start);
  }
  SUBCASE("scaled cycle polyline with fill") {
    auto p = geom<ir::Polyline>(d, 2);
    REQUIRE(p.points.size() == 3);
    check_point(p.points[1], 4 * cm, 0);
    check_point(p.points[2], 0, 2 * cm);
    CHECK(p.closed);
    CHECK(p.explicit_cycle);
    CHECK(d.elements[2].style.fill);
    CHECK(d.elements[2].style.fill_color == "blue!20");
  }
  SUBCASE("scaled circle: center and radius both scale") {
    auto c = geom<ir::Circle>(d, 3);
    check_point(c.center, 2 * cm, 2 * cm);
    CHECK(c.radius == Approx(cm));
  }
  SUBCASE("arc endpoints from center, radius and angles") {
    auto a = geom<ir::Arc>(d, 4);
    check_point(a.center, 0, 0);
    CHECK(a.rx == Approx(cm));
    CHECK(a.sweep_deg() == Approx(90));
    check_point(a.from, cm, 0);
    check_point(a.to, 0, cm);
  }
  SUBCASE("rotated rectangle keeps its corners in order") {
    auto r = geom<ir::Rectangle>(d, 5);
    double h = cm / std::sqrt(2.0);
    check_point(r.corners[0], 0, 0);
    check_point(r.corners[1], h, h);
    check_point(r.corners[2], 0, 2 * h);
    check_point(r.corners[3], -h, h);
  }
  SUBCASE("right-angle mark") {
    auto m = geom<ir::RightAngleMark>(d, 6);
    check_point(m.corner, 2 * cm, 0);
    check_point(m.leg_a, 2 * cm, 0.2 * cm);
    CHECK(m.size == Approx(0.2 * cm));
  }
  SUBCASE("node placed below left of its point, shifted by xshift=-2in") {
    const ir::Node& n = d.nodes[0];
    CHECK(n.text == "$A$");
    CHECK(n.placement == "below left");
    CHECK(n.font_size_pt == Approx(10));
    CHECK(n.text_width > 0);
    // below left = anchor north east: the box's corner plus outer sep sits on the point.
    CHECK(n.box.xmax + n.outer_sep == Approx(-144.54));
    CHECK(n.box.ymax + n.outer_sep == Approx(0).scale(1));
    CHECK(n.box.width() == Approx(n.text_width + 2 * n.inner_sep));
    CHECK(n.box.height() == Approx(n.text_height + n.text_depth + 2 * n.inner_sep));
    CHECK(n.inner_sep == Approx(3.333));
  }
  SUBCASE("centered node with a font size command") {
    const ir::Node& n = d.nodes[1];
    check_point(n.center, cm, cm);
    CHECK(n.name == "b");
    CHECK(n.drawn);
    CHECK(n.placement.empty());
    CHECK(n.font_size_pt == Approx(ir::font_size_for_command("\\small", 10)));
    ir::FontSpec font;
    font.size_pt = n.font_size_pt;
    CHECK(n.text_width == Approx(ir::measure_text("B", font).width));
    CHECK((n.box.xmin + n.box.xmax) / 2 == Approx(cm));
  }
  SUBCASE("named coordinate") {
    REQUIRE(d.coordinates.size() == 1);
    CHECK(d.coordinates[0].name == "A");
    check_point(d.coordinates[0].p, 0, 0);
  }
  SUBCASE("the first clip is the canvas") {
    REQUIRE(d.clips.size() == 1);
    CHECK(d.clips[0].is_rectangle);
    CHECK(d.clips[0].bounds.xmin == Approx(-cm));
    CHECK(d.clips[0].bounds.ymax == Approx(3 * cm));
    REQUIRE(d.canvas.has_value());
    CHECK(d.canvas_source == "clip");
    CHECK(d.canvas->xmax == Approx(3 * cm));
  }
  SUBCASE("picture bounding box covers geometry and node boxes") {
    CHECK(d.has_picture_bbox);
    CHECK(d.picture_bbox.xmin <= d.nodes[0].box.xmin);
    CHECK(d.picture_bbox.xmax == Approx(4 * cm));  // the scaled triangle
  }
  SUBCASE("provenance: origin llm, range = the statement's line") {
    for (const auto& e : d.elements) CHECK(e.prov.origin == "llm");
    for (const auto& n : d.nodes) CHECK(n.prov.origin == "llm");
    const SourceRange& r = d.elements[0].prov.range;  // line 3
    CHECK(r.valid);
    CHECK(r.file == 7);
    CHECK(source.substr(r.begin, r.end - r.begin) == "\\draw (0,0) -- (1,0);");
  }
}

TEST_CASE("transform steps apply outermost first, each key in pgf order") {
  json a = empty_answer();
  // scope shift={(1,0)} around an entity rotated by 90: rotate, then shift.
  a["segments"].push_back(segment({0, 0}, {1, 0},
                                  {step({1, 0}, nullptr, nullptr, nullptr, nullptr),
                                   step(nullptr, nullptr, nullptr, 90, nullptr)}));
  // the other way round: scope rotate=90 around a shifted entity: shift, then rotate.
  a["segments"].push_back(segment({0, 0}, {1, 0},
                                  {step(nullptr, nullptr, nullptr, 90, nullptr),
                                   step({1, 0}, nullptr, nullptr, nullptr, nullptr)}));
  // within one step: shift, xshift, yshift, rotate, scale.
  a["segments"].push_back(segment({0, 0}, {1, 0}, json::array({step({0, 1}, "1cm", "-5mm", 180, 2)})));
  REQUIRE(detail::validate(a, detail::llm_ir_schema()).empty());
  ir::Diagram d = detail::lower_llm_ir(a, "", 0);
  check_point(geom<ir::Segment>(d, 0).b, cm, cm);
  check_point(geom<ir::Segment>(d, 1).a, 0, cm);
  check_point(geom<ir::Segment>(d, 1).b, 0, 2 * cm);
  check_point(geom<ir::Segment>(d, 2).a, cm, 0.5 * cm);
  check_point(geom<ir::Segment>(d, 2).b, -cm, 0.5 * cm);
}

TEST_CASE("picture unit vectors and scale, 3D points use the z vector") {
  json a = empty_answer();
  a["picture"] = {{"x", {2, 0}}, {"y", {0, 3}}, {"z", nullptr}, {"scale", 0.5}};
  a["segments"].push_back(segment({0, 0, 1}, {1, 1}, json::array()));
  a["circles"].push_back({{"center", {0, 0}}, {"radius", 1}, {"fill", nullptr}, {"line", 99},
                          {"transform", json::array()}});
  REQUIRE(detail::validate(a, detail::llm_ir_schema()).empty());
  ir::Diagram d = detail::lower_llm_ir(a, "one line\n", 0);
  auto s = geom<ir::Segment>(d, 0);
  check_point(s.a, -0.385 * cm * 0.5, -0.385 * cm * 0.5);  // default z = (-3.85mm, -3.85mm)
  check_point(s.b, cm, 1.5 * cm);
  CHECK(d.is_3d);
  CHECK(geom<ir::Circle>(d, 1).radius == Approx(cm));  // r=1 in x units (2cm), picture scale .5
  // A line the file does not have falls back to the start of the file.
  CHECK(d.elements[1].prov.range.valid);
  CHECK(d.elements[1].prov.range.begin == 0);
}

TEST_CASE("an unreadable dimension in a valid answer is an exception for translate to catch") {
  json a = empty_answer();
  a["segments"].push_back(segment({0, 0}, {1, 0}, json::array({step(nullptr, "3 parsecs", nullptr, nullptr, nullptr)})));
  REQUIRE(detail::validate(a, detail::llm_ir_schema()).empty());
  CHECK_THROWS(detail::lower_llm_ir(a, "", 0));
}
