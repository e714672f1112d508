#include <doctest/doctest.h>

#include "ir/ir.hpp"

using namespace tikzlint;
using namespace tikzlint::ir;

namespace {

struct Sample {
  SourceManager sm;
  Diagram d;
  Sample() {
    FileId f = sm.add("t.tex", "\\draw (0,0) -- (1,0);\n\\node at (0,1) {A};\n");
    d.file = f;
    Element e;
    e.geom = Segment{{0, 0}, {kPtPerCm, 0}};
    e.style.draw = true;
    e.prov.range = {f, 0, 21, true};
    d.elements.push_back(e);
    Element arc;
    arc.geom = Arc{{0, 0}, 10, 10, 0, 90, 0, {10, 0}, {0, 10}};
    d.elements.push_back(arc);
    Node n;
    n.text = "A";
    n.center = {0, kPtPerCm};
    n.box = {-3.5, kPtPerCm - 4, 3.5, kPtPerCm + 4};
    n.prov.range = {f, 22, 41, true};
    d.nodes.push_back(n);
    d.picture_bbox = {-3.5, 0, kPtPerCm, kPtPerCm + 4};
    d.has_picture_bbox = true;
  }
};

}  // namespace

TEST_CASE("to_json: the fixed fields picture_bbox, canvas and nodes[].text/box, in pt") {
  Sample s;
  auto j = to_json(s.d, s.sm);
  REQUIRE(j["picture_bbox"].is_array());
  CHECK(j["picture_bbox"].size() == 4);
  CHECK(j["picture_bbox"][2].get<double>() == doctest::Approx(28.4528));
  CHECK(j["canvas"].is_null());
  REQUIRE(j["nodes"].size() == 1);
  CHECK(j["nodes"][0]["text"] == "A");
  CHECK(j["nodes"][0]["box"][0].get<double>() == doctest::Approx(-3.5));
  CHECK(j["nodes"][0]["source"]["range"]["line"] == 2);

  s.d.canvas = Box{0, 0, 100, 50};
  s.d.canvas_source = "clip";
  auto k = to_json(s.d, s.sm);
  REQUIRE(k["canvas"].is_array());
  CHECK(k["canvas"][3].get<double>() == doctest::Approx(50));
  CHECK(k["canvas_source"] == "clip");
}

TEST_CASE("to_json: each element names its kind and keeps its provenance") {
  Sample s;
  auto j = to_json(s.d, s.sm);
  REQUIRE(j["elements"].size() == 2);
  CHECK(j["elements"][0]["kind"] == "segment");
  CHECK(j["elements"][0]["b"][0].get<double>() == doctest::Approx(28.4528));
  CHECK(j["elements"][0]["style"]["draw"] == true);
  CHECK(j["elements"][0]["source"]["range"]["line"] == 1);
  CHECK(j["elements"][1]["kind"] == "arc");
  CHECK(j["elements"][1]["sweep_deg"].get<double>() == doctest::Approx(90));
  CHECK(j["elements"][1]["source"]["range"].is_null());  // no location known
  for (const char* key : {"coordinates", "clips", "unsupported", "diagnostics"}) CHECK(j[key].is_array());
}

TEST_CASE("to_json: no picture bbox is null, not zeros") {
  Sample s;
  s.d.has_picture_bbox = false;
  CHECK(to_json(s.d, s.sm)["picture_bbox"].is_null());
}

TEST_CASE("to_svg: an svg document with the elements, node boxes and text, y flipped") {
  Sample s;
  std::string svg = to_svg(s.d, {});
  CHECK(svg.find("<svg xmlns=\"http://www.w3.org/2000/svg\"") != std::string::npos);
  CHECK(svg.find("M0,0 L28.453,0") != std::string::npos);  // the segment
  CHECK(svg.find(">A</text>") != std::string::npos);
  CHECK(svg.find("y=\"-28.453\"") != std::string::npos);  // the node's centre, flipped
  CHECK(svg.find("#d62728") == std::string::npos);         // no finding, no red
  CHECK(svg.rfind("</svg>\n") == svg.size() - 7);
}

TEST_CASE("to_svg: what a finding points at is drawn red with the message as its title") {
  Sample s;
  Diagnostic f;
  f.rule = "in_frame";
  f.message = "label 'A' & co is outside";
  f.range = {s.d.file, 30, 35, true};  // inside the \node statement
  std::string svg = to_svg(s.d, {f});
  CHECK(svg.find("#d62728") != std::string::npos);
  CHECK(svg.find("label 'A' &amp; co is outside [in_frame]") != std::string::npos);
}

TEST_CASE("to_svg: a clip and the canvas are drawn") {
  Sample s;
  s.d.canvas = Box{0, 0, 10, 10};
  ClipRegion c;
  c.polygon = {{0, 0}, {10, 0}, {10, 10}, {0, 10}};
  c.bounds = {0, 0, 10, 10};
  s.d.clips.push_back(c);
  std::string svg = to_svg(s.d, {});
  CHECK(svg.find("class=\"canvas\"") != std::string::npos);
  CHECK(svg.find("class=\"clip\" d=\"M0,0 L10,0 L10,-10 L0,-10 Z\"") != std::string::npos);
}
