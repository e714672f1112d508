// packages/pgfplots/test_axis.cpp: the approximate pgfplots axis (axis.cpp): data frame, \addplot,
// axis cs:, the box and its clip; an axis it cannot lower leaves the picture unplaced.
#include "ir/test_lower_support.hpp"

using namespace lowertest;

TEST_CASE("pgfplots axis: data coordinates map onto the axis box (width - 45pt)") {
  Pic p;
  p.axis = true;
  p.other("\\begin{axis}[xmin=0,xmax=10,ymin=0,ymax=5,width=145pt,height=95pt]");
  p.path("\\draw (0,0) -- (10,5);");
  p.other("\\addplot coordinates {(0,0) (5,5)};");
  p.path("\\draw (axis cs:1,1) -- (axis cs:2,2);");
  p.other("\\end{axis}");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  // elements 0: the axis box; 1: the segment; 2: the plot; 3: axis cs segment
  CHECK_PT(geom<ir::Segment>(d, 1).b, 100, 50);
  CHECK_PT(geom<ir::Plot>(d, 2).points.back(), 50, 50);
  CHECK_PT(geom<ir::Segment>(d, 3).a, 10, 10);
  CHECK(d.clips.size() == 1);
}

TEST_CASE("pgfplots axis: without explicit limits the axis is reported once and the picture is unplaced") {
  Pic p;
  p.axis = true;
  p.other("\\begin{axis}");
  p.path("\\draw (0,0) -- (1,1);");
  p.other("\\addplot {x^2};");
  p.path("\\draw (axis cs:1,1) -- (axis cs:2,2);");
  p.other("\\end{axis}");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 1);
  REQUIRE(!d.elements.empty());
  for (const auto& el : d.elements) CHECK(el.incomplete);
  CHECK(d.uses_axis);
}
