#include <doctest/doctest.h>

#include "checks/test_support.hpp"
#include "spec/spec.hpp"

using namespace tikzlint;
using namespace tikzlint::checks::testing;
using checks::Verdict;

namespace {

spec::Spec parsed(const std::string& text) {
  std::vector<std::string> errors;
  auto s = spec::parse(text, errors);
  INFO(text);
  for (const auto& e : errors) INFO(e);
  REQUIRE(s.has_value());
  return *s;
}

std::vector<std::string> errors_of(const std::string& text) {
  std::vector<std::string> errors;
  auto s = spec::parse(text, errors);
  CHECK_FALSE(s.has_value());
  return errors;
}

spec::Outcome run_spec(const std::string& text, const ir::Diagram& d,
                       std::vector<std::pair<std::string, Verdict>> verdicts = {}) {
  return spec::evaluate(parsed(text), {d}, verdicts, checks::Config{});
}

ir::Element arrow(double x0, double y0, double x1, double y1, bool end = true, bool start = false, std::uint32_t line = 5) {
  ir::Element e = segment(x0, y0, x1, y1, line);
  e.style.arrow_end = end;
  e.style.arrow_start = start;
  return e;
}

// Two boxed nodes ATP (left) and ADP (right), 4cm apart.
ir::Diagram two_nodes() {
  ir::Diagram d;
  d.nodes.push_back(text_node("ATP", 0, 0, 2));
  d.nodes.push_back(text_node("ADP", 4 * cm, 0, 3));
  return d;
}

}  // namespace

TEST_CASE("spec text is normalised as a reader reads it") {
  CHECK(spec::normalise_text("$\\mathrm{H_2O}$") == "H2O");
  CHECK(spec::normalise_text("\\textbf{ATP}\\\\synthase") == "ATP synthase");
  CHECK(spec::normalise_text("\\textbf{ATP}\\\\[2pt]synthase") == "ATP synthase");
  CHECK(spec::normalise_text("5\\,cm") == "5 cm");
  CHECK(spec::normalise_text("\\small \\textcolor{red}{Input}") == "Input");
  CHECK(spec::normalise_text("A\\hspace{1cm}B") == "A B");
  CHECK(spec::normalise_text("$60^\\circ$") == "60°");
}

TEST_CASE("spec validation names the place and the valid keys") {
  auto e = errors_of(R"({"required_labels": ["A"], "requried_relations": []})");
  REQUIRE(e.size() == 1);
  CHECK(e[0].find("unknown key 'requried_relations'") != std::string::npos);
  CHECK(e[0].find("required_relations") != std::string::npos);  // listed among the valid keys

  e = errors_of(R"({"required_relations": [{"from": "A"}]})");
  REQUIRE(e.size() == 1);
  CHECK(e[0] == "/required_relations/0: missing key 'to'");

  e = errors_of(R"({"required_components": [{"kind": "hexagon"}]})");
  REQUIRE(e.size() == 1);
  CHECK(e[0].find("/required_components/0/kind: unknown kind 'hexagon'") == 0);

  e = errors_of(R"({"geometry": [{"kind": "angle", "at": "B", "degrees": "sixty"}]})");
  REQUIRE(e.size() == 1);
  CHECK(e[0].find("/geometry/0/degrees") == 0);

  e = errors_of(R"({"negative_constraints": {"patterns": ["(unclosed"], "rules_pass": ["overlapp"]}})");
  CHECK(e.size() == 2);
  CHECK(errors_of("[1, 2]").size() == 1);
  CHECK(errors_of("{not json").front().find("not valid JSON") == 0);
}

TEST_CASE("required labels: present, missing with the nearest spelling, counted") {
  ir::Diagram d = two_nodes();
  CHECK(run_spec(R"({"required_labels": ["ATP", "ADP"]})", d).verdict == Verdict::pass);
  auto o = run_spec(R"({"required_labels": ["ATPase"]})", d);
  CHECK(o.verdict == Verdict::fail);
  REQUIRE(o.findings.size() == 1);
  CHECK(o.findings[0].rule == "spec");
  CHECK(o.findings[0].message.find("no label 'ATPase'") != std::string::npos);
  o = run_spec(R"({"required_labels": ["ATQ"]})", d);
  CHECK(o.findings.at(0).message.find("nearest is 'ATP'") != std::string::npos);
  CHECK(run_spec(R"({"required_labels": [{"text": "ATP", "min_count": 2}]})", d).verdict == Verdict::fail);
  CHECK(run_spec(R"({"required_labels": ["atp"]})", d).verdict == Verdict::fail);
  CHECK(run_spec(R"({"case_sensitive": false, "required_labels": ["atp"]})", d).verdict == Verdict::pass);
  d.nodes.push_back(text_node("ATP synthase", 0, 3 * cm, 4));
  CHECK(run_spec(R"({"required_labels": [{"text": "synthase", "match": "contains"}]})", d).verdict == Verdict::pass);
  CHECK(run_spec(R"({"required_labels": [{"text": "synth", "match": "contains"}]})", d).verdict == Verdict::fail);
}

TEST_CASE("required relations follow the arrow tip and name the nearest miss") {
  ir::Diagram d = two_nodes();
  const double right_of_atp = d.nodes[0].box.xmax, left_of_adp = d.nodes[1].box.xmin;
  d.elements.push_back(arrow(right_of_atp, 0, left_of_adp, 0));
  CHECK(run_spec(R"({"required_relations": [{"from": "ATP", "to": "ADP"}]})", d).verdict == Verdict::pass);
  auto o = run_spec(R"({"required_relations": [{"from": "ADP", "to": "ATP"}]})", d);
  CHECK(o.verdict == Verdict::fail);
  REQUIRE(o.findings.size() == 1);
  CHECK(o.findings[0].message.find("runs the other way") != std::string::npos);
  CHECK(o.findings[0].range.begin == at_line(5).begin);  // at the arrow
  CHECK(run_spec(R"({"required_relations": [{"from": "ADP", "to": "ATP", "directed": false}]})", d).verdict ==
        Verdict::pass);

  // a line without a tip joins them
  d.elements[0].style.arrow_end = false;
  o = run_spec(R"({"required_relations": [{"from": "ATP", "to": "ADP"}]})", d);
  CHECK(o.findings.at(0).message.find("has no arrow tip") != std::string::npos);

  // an edge label must be on that edge
  d.elements[0].style.arrow_end = true;
  d.elements[0].path_id = 7;
  ir::Node lab = text_node("hydrolysis", 2 * cm, 8, 6);
  lab.on_path = 7;
  d.nodes.push_back(lab);
  CHECK(run_spec(R"({"required_relations": [{"from": "ATP", "to": "ADP", "label": "hydrolysis"}]})", d).verdict ==
        Verdict::pass);
  o = run_spec(R"({"required_relations": [{"from": "ATP", "to": "ADP", "label": "synthesis"}]})", d);
  CHECK(o.verdict == Verdict::fail);
  CHECK(o.findings.at(0).message.find("carries 'hydrolysis', not 'synthesis'") != std::string::npos);

  // an endpoint too far from a node's border does not join it
  ir::Diagram far = two_nodes();
  far.elements.push_back(arrow(right_of_atp + 20, 0, left_of_adp, 0));
  CHECK(run_spec(R"({"required_relations": [{"from": "ATP", "to": "ADP"}]})", far).verdict == Verdict::fail);
}

TEST_CASE("required components: kinds, counts, sides and labels") {
  ir::Diagram d;
  d.elements.push_back(polygon({{0, 0}, {4 * cm, 0}, {0, 3 * cm}}));
  d.elements.push_back(drawn(ir::Circle{{10 * cm, 0}, 1 * cm}));
  d.nodes.push_back(text_node("O", 10 * cm, 0));
  CHECK(run_spec(R"({"required_components": [{"kind": "polygon", "sides": 3}, {"kind": "circle", "label": "O"}]})", d)
            .verdict == Verdict::pass);
  auto o = run_spec(R"({"required_components": [{"kind": "polygon", "sides": 4}]})", d);
  CHECK(o.verdict == Verdict::fail);
  CHECK(o.findings.at(0).message.find("the polygons drawn have 3 sides") != std::string::npos);
  CHECK(run_spec(R"({"required_components": [{"kind": "circle", "count": 2}]})", d).verdict == Verdict::fail);
  CHECK(run_spec(R"({"required_components": [{"kind": "arrow"}]})", d).verdict == Verdict::fail);
  d.elements.push_back(arrow(-1 * cm, -1 * cm, 12 * cm, -1 * cm));  // spans the picture: an axis
  CHECK(run_spec(R"({"required_components": [{"kind": "arrow"}, {"kind": "axis"}]})", d).verdict == Verdict::pass);
}

TEST_CASE("geometry: a labelled side, a right angle and a labelled angle at named vertices") {
  // right triangle A(0,0) B(4cm,0) C(0,3cm), right angle at A
  ir::Diagram d;
  d.elements.push_back(segment(0, 0, 4 * cm, 0, 3));
  d.elements.push_back(segment(4 * cm, 0, 0, 3 * cm, 4));
  d.elements.push_back(segment(0, 3 * cm, 0, 0, 5));
  d.elements.push_back(drawn(ir::RightAngleMark{{0, 0}, {8, 0}, {0, 8}, 8}, 6));
  d.nodes.push_back(text_node("A", -10, -10, 7));
  d.nodes.push_back(text_node("B", 4 * cm + 10, -10, 8));
  d.nodes.push_back(text_node("C", -10, 3 * cm + 10, 9));
  d.nodes.push_back(text_node("4 cm", 2 * cm, -12, 10));
  CHECK(run_spec(R"({"geometry": [{"kind": "side", "between": ["A", "B"], "label": "4 cm"}]})", d).verdict ==
        Verdict::pass);
  CHECK(run_spec(R"({"geometry": [{"kind": "side", "between": ["B", "A"]}]})", d).verdict == Verdict::pass);
  auto o = run_spec(R"({"geometry": [{"kind": "side", "between": ["A", "C"], "label": "4 cm"}]})", d);
  CHECK(o.verdict == Verdict::fail);
  CHECK(o.findings.at(0).message.find("carries no label '4 cm'") != std::string::npos);
  CHECK(run_spec(R"({"geometry": [{"kind": "right_angle", "at": "A"}]})", d).verdict == Verdict::pass);
  CHECK(run_spec(R"({"geometry": [{"kind": "right_angle", "at": "B"}]})", d).verdict == Verdict::fail);
  o = run_spec(R"({"geometry": [{"kind": "right_angle", "at": "D"}]})", d);
  CHECK(o.findings.at(0).message.find("no label 'D'") != std::string::npos);
  CHECK(run_spec(R"({"geometry": [{"kind": "angle", "at": "A", "degrees": 90}]})", d).verdict == Verdict::pass);
}

TEST_CASE("negative constraints are certain even when the geometry is incomplete") {
  ir::Diagram d = two_nodes();
  d.unsupported.push_back({"something", {}});
  d.diagnostics.push_back([] {
    Diagnostic dg;
    dg.rule = "unsupported-construct";
    dg.severity = Severity::warning;
    dg.message = "unsupported statement";
    return dg;
  }());
  auto o = run_spec(R"({"negative_constraints": {"labels": ["ADP"]}})", d);
  CHECK(o.verdict == Verdict::fail);
  CHECK(run_spec(R"({"negative_constraints": {"patterns": ["^A.P$"]}})", d).verdict == Verdict::fail);
  CHECK(run_spec(R"({"negative_constraints": {"patterns": ["^X"]}})", d).verdict == Verdict::pass);
  // a missing label in an incomplete picture is not certain
  o = run_spec(R"({"required_labels": ["NADH"]})", d);
  CHECK(o.verdict == Verdict::indeterminate);
  CHECK(o.findings.at(0).severity == Severity::note);
  // rules_pass reads the file's verdicts
  ir::Diagram clean = two_nodes();
  CHECK(run_spec(R"({"negative_constraints": {"rules_pass": ["overlap"]}})", clean, {{"overlap", Verdict::fail}})
            .verdict == Verdict::fail);
  CHECK(run_spec(R"({"negative_constraints": {"rules_pass": ["overlap"]}})", clean, {{"overlap", Verdict::pass}})
            .verdict == Verdict::pass);
}

TEST_CASE("spec text: Greek letters and accents read alike in TeX and in the spec") {
  CHECK(spec::normalise_text("$\\Sigma$") == "Σ");
  CHECK(spec::normalise_text("$\\hat y$") == spec::normalise_text("$\\hat{y}$"));
  CHECK(spec::normalise_text("$\\hat y$") != spec::normalise_text("y"));
  CHECK(spec::normalise_text("$a \\to b$") == "a → b");
}
