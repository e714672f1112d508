// packages/calendar/test_calendar.cpp: \calendar lowered by packages/calendar/calendar.cpp. The expected day centers are
// what lualatex (pgf 3.1.10) gives for the same calendars (\pgfpointanchor{..}{center});
// `outer sep=0pt` keeps pgf's node bounding boxes and lowering's the same. Heights of digits
// differ by a fraction of a point between the font tables and TeX, so y is checked to 0.25pt.
#include "ir/test_lower_support.hpp"

using namespace lowertest;

namespace {

const ir::Node* find_node(const ir::Diagram& d, const std::string& name) {
  for (const auto& n : d.nodes)
    if (n.name == name) return &n;
  return nullptr;
}

void check_center(const ir::Diagram& d, const std::string& name, double x, double y) {
  INFO(name);
  const ir::Node* n = find_node(d, name);
  REQUIRE(n != nullptr);
  CHECK(n->center.x == doctest::Approx(x).epsilon(1e-4));
  CHECK(std::abs(n->center.y - y) < 0.25);
}

}  // namespace

TEST_CASE("calendar: week list, month shift and labels") {
  Pic p;
  p.other("\\calendar (c) [dates=2000-01-01 to 2000-02-last,week list,month label above centered, outer sep=0pt];");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  check_center(d, "c-2000-01-01", 69.59198, 3.33);
  check_center(d, "c-2000-01-03", -5.83298, -9.70999);
  check_center(d, "c-2000-01-31", -8.33298, -61.42996);
  check_center(d, "c-2000-02-01", 9.25201, -100.10994);
  check_center(d, "c-2000-02-29", 6.75201, -151.93991);
  // a label for every first of a month in the range
  std::size_t labels = 0;
  for (const auto& n : d.nodes)
    if (n.text == "January" || n.text == "February") ++labels;
  CHECK(labels == 2);
}

TEST_CASE("calendar: day lists, at, if conditions and month list") {
  Pic p;
  p.other("\\calendar (d) [dates=2000-01-28 to 2000-02-03,day list downward,month yshift=1em, outer sep=0pt] at (5,0);");
  p.other(
      "\\calendar (e) [dates=2000-01-28 to 2000-02-03,day list right, outer sep=0pt] at (0,-5) "
      "if (weekend) [nodes={minimum width=1cm}];");
  p.other("\\calendar (f) [dates=2000-03-01 to 2000-04-03,month list, outer sep=0pt] at (0,-7);");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  check_center(d, "d-2000-01-28", 133.93074, 3.22);
  check_center(d, "d-2000-02-01", 136.43074, -58.38997);
  check_center(d, "d-2000-02-03", 136.43074, -84.35995);
  check_center(d, "e-2000-01-28", -8.33298, -139.04372);
  check_center(d, "e-2000-02-01", 93.29697, -138.93372);
  check_center(d, "e-2000-02-03", 123.46695, -139.04372);
  check_center(d, "f-2000-03-01", 24.337, -195.8392);
  check_center(d, "f-2000-03-31", 474.38675, -195.9492);
  check_center(d, "f-2000-04-03", 99.76196, -234.73918);
}

TEST_CASE("calendar: day text shorthands, code blocks and unknown conditions") {
  Pic p;
  p.other("\\calendar [dates=2000-01-30 to 2000-02-01, day text=\\%d0/\\%m.] if (equals=01-31) {\\draw (0,0) circle (8pt);};");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  REQUIRE(d.nodes.size() == 3);
  CHECK(d.nodes[0].text == "30/Jan");
  CHECK(d.nodes[2].text == "01/Feb");
  CHECK(d.elements.size() == 1);  // the circle of the 31st

  Pic q;
  q.other("\\calendar [dates=2000-01-01 to 2000-01-03] if (Easter) [red];");
  CHECK(has_rule(q.lower(), "unsupported-construct"));
}
