// packages/tikzcd/test_tikzcd.cpp: the tikzcd environment lowered by packages/tikzcd/tikzcd.cpp.
// Expected numbers are lualatex's (tikz-cd 1.0, pgf 3.1.10) for the same diagram, read at the end
// of the picture with \pgfpointanchor (cells' `real center`, the labels' `center`) and
// \pgf@picminx..\pgf@picmaxy.
#include "ir/test_lower_support.hpp"

using namespace lowertest;

namespace {

const ir::Node* find_node(const ir::Diagram& d, const std::string& name) {
  for (const auto& n : d.nodes)
    if (n.name == name) return &n;
  return nullptr;
}

void check_center(const ir::Diagram& d, const std::string& name, double x, double y, double tol) {
  INFO(name);
  const ir::Node* n = find_node(d, name);
  REQUIRE(n != nullptr);
  CHECK(std::abs(n->center.x - x) < tol);
  CHECK(std::abs(n->center.y - y) < tol);
}

const char* kSquare =
    "\\begin{tikzcd}[column sep=large]\n"
    "  A \\arrow[r, \"f\"{name=f}] \\arrow[d, \"g\"'{name=g}] & B_1 \\arrow[d, \"h\"] \\\\\n"
    "  C \\arrow[r, bend right, \"k\"'{name=k}] & D \\arrow[u, shift left, \"e\"{name=e}]\n"
    "\\end{tikzcd}";

}  // namespace

TEST_CASE("tikzcd: cells as a matrix of math nodes, arrows between them, quoted labels") {
  Pic p;
  p.other(kSquare);
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  // the cells, math nodes with inner xsep 1ex / ysep 0.85ex, column sep large (3.6em), row sep normal
  check_center(d, "tikzcd@-1-1", -28.34563, 16.83017, 0.01);
  check_center(d, "tikzcd@-1-2", 26.24127, 16.08018, 0.01);
  // labels: auto (f above the arrow, g' left of it), \scriptstyle, inner sep 0.5ex; the
  // horizontal arrow runs on the math axis, not through the cells' box centers
  check_center(d, "f", -2.19498, 21.3796, 0.05);
  check_center(d, "g", -32.77682, 0.0, 0.05);
  // bend right below the bottom row, its label swapped below it
  check_center(d, "k", -1.25516, -32.98898, 0.05);
  // shift left=0.56ex moves the upward arrow (and its label) to the left
  check_center(d, "e", 19.57567, -0.74998, 0.05);
  // the picture: the cells' matrix, the bent arrow's control points (pgf counts them) and labels
  CHECK(std::abs(d.picture_bbox.xmin - -37.00804) < 0.05);
  CHECK(std::abs(d.picture_bbox.ymin - -37.57452) < 0.05);
  CHECK(std::abs(d.picture_bbox.xmax - 36.58687) < 0.05);
  CHECK(std::abs(d.picture_bbox.ymax - 26.64569) < 0.05);
}

TEST_CASE("tikzcd: the old arrow syntax, \\rar, from= and to= with cell numbers and aliases") {
  Pic p;
  p.other(
      "\\begin{tikzcd}\n"
      "  A \\arrow{r}[near start]{\\phi} \\dar & B \\\\\n"
      "  |[alias=Z]| C \\arrow[to=1-2, \"x\"{name=x}] & D \\arrow[from=Z]\n"
      "\\end{tikzcd}");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  std::size_t labels = 0, arrows = 0;
  for (const auto& n : d.nodes) labels += n.on_path.has_value();
  for (const auto& e : d.elements) arrows += e.style.arrow_end;
  CHECK(labels == 2);  // \phi and x
  CHECK(arrows == 4);  // r, \dar, to=1-2, from=Z
  // "x" is on the arrow from C up to B: between the two cells
  const ir::Node* x = find_node(d, "x");
  REQUIRE(x != nullptr);
  CHECK(x->center.y > find_node(d, "tikzcd@-2-1")->center.y);
  CHECK(x->center.y < find_node(d, "tikzcd@-1-2")->center.y);
}

TEST_CASE("tikzcd: a cell that holds only arrows is still a node, an arrow to no cell is reported") {
  Pic p;
  p.other("\\begin{tikzcd} \\arrow[r] & B \\arrow[rr] \\end{tikzcd}");
  auto d = p.lower();
  CHECK(find_node(d, "tikzcd@-1-1") != nullptr);  // pgf sees a non-empty cell: an empty math node
  CHECK(count_unsupported(d) == 1);                // \arrow[rr] from B: column 4 does not exist
}

TEST_CASE("tikzcd: sep, cramped and ampersand replacement") {
  Pic a, b;
  a.other("\\begin{tikzcd}[sep=tiny] A \\arrow[r] & B \\end{tikzcd}");
  b.other("\\begin{tikzcd}[ampersand replacement=\\&, column sep=0.6em] A \\arrow[r] \\& B \\end{tikzcd}");
  auto da = a.lower(), db = b.lower();
  const double wa = find_node(da, "tikzcd@-1-2")->center.x - find_node(da, "tikzcd@-1-1")->center.x;
  const double wb = find_node(db, "tikzcd@-1-2")->center.x - find_node(db, "tikzcd@-1-1")->center.x;
  CHECK(wa == doctest::Approx(wb));
  // column sep tiny is 0.6em between the cells' borders: 6pt + two half widths of A and B
  CHECK(wa > 6.0);
  CHECK(wa < 6.0 + 2 * 10);
}
