// ir/test_library_keys.cpp: keys of the TikZ libraries (library_keys.cpp). Expected sizes come from
// the library sources (tex/generic/pgf/frontendlayer/tikz/libraries/); 1cm = 72.27/2.54pt, and in
// the default 10pt Latin Modern font 1em = 10pt and \baselineskip = 12pt.
#include <numbers>

#include "ir/test_lower_support.hpp"
#include "ir/textmetrics.hpp"

using namespace lowertest;

namespace {
constexpr double kDeg = std::numbers::pi / 180;
const double kEx = ir::font_xheight_pt(ir::FontSpec{});  // the x-height lowering uses for 10pt lmr
constexpr double kEm = 10;

const ir::Node* node_named(const ir::Diagram& d, const std::string& name) {
  for (const auto& n : d.nodes)
    if (n.name == name) return &n;
  return nullptr;
}

std::size_t count_nodes(const ir::Diagram& d, const std::string& text) {
  std::size_t k = 0;
  for (const auto& n : d.nodes)
    if (n.text == text && !n.is_label) ++k;
  return k;
}

std::string diagnostics(const ir::Diagram& d) {
  std::string out;
  for (const auto& x : d.diagnostics) out += x.rule + ": " + x.message + "\n";
  return out;
}
}  // namespace

TEST_CASE(
    "petri: place and transition are drawn circles and squares of the library's sizes, tokens sit inside") {
  Pic p;
  p.path("\\node[place,tokens=2] (p) at (0,0) {};");
  p.path("\\node[transition] (t) at (2,0) {};");
  p.path("\\draw[post] (t) -- (p);");
  auto d = p.lower();
  INFO(diagnostics(d));
  CHECK(count_unsupported(d) == 0);
  const ir::Node* place = node_named(d, "p");
  REQUIRE(place != nullptr);
  CHECK(place->shape == ir::NodeShape::circle);
  CHECK(place->drawn);
  CHECK(place->box.width() == doctest::Approx(5 * kEx));  // minimum size=5ex, inner sep=0pt
  const ir::Node* tr = node_named(d, "t");
  REQUIRE(tr != nullptr);
  CHECK(tr->box.width() == doctest::Approx(0.4 * kCm));  // minimum size=4mm
  // two tokens, .5 token distance (1.5ex) left and right of the center, 1ex wide
  std::vector<const ir::Node*> tokens;
  for (const auto& n : d.nodes)
    if (n.filled && n.shape == ir::NodeShape::circle && &n != place) tokens.push_back(&n);
  REQUIRE(tokens.size() == 2);
  CHECK(tokens[0]->center.x == doctest::Approx(-0.75 * kEx));
  CHECK(tokens[1]->center.x == doctest::Approx(0.75 * kEx));
  CHECK(tokens[0]->box.width() == doctest::Approx(kEx));
  CHECK(tokens[0]->name.empty());
  CHECK(place->name == "p");
}

TEST_CASE("petri: a user's every place style and a preamble redefinition win over the library") {
  Pic p;
  p.pre("\\tikzset{transition/.style={minimum size=10pt,draw}}");
  p.options = "every place/.style={minimum size=9mm}";
  p.path("\\node[place] (p) {};");
  p.path("\\node[transition,inner sep=0pt] (t) at (2,0) {};");
  auto d = p.lower();
  CHECK(node_named(d, "p")->box.width() == doctest::Approx(0.9 * kCm));
  CHECK(node_named(d, "t")->box.width() == doctest::Approx(10));
  CHECK(node_named(d, "t")->shape == ir::NodeShape::rectangle);
}

TEST_CASE("automata: a state is a 2.5em circle, initial draws the arrow and its text to the left") {
  Pic p;
  p.path("\\node[state,initial] (q) at (0,0) {$q_0$};");
  auto d = p.lower();
  INFO(diagnostics(d));
  CHECK(count_unsupported(d) == 0);
  const ir::Node* q = node_named(d, "q");
  REQUIRE(q != nullptr);
  CHECK(q->shape == ir::NodeShape::circle);
  CHECK(q->box.width() == doctest::Approx(2.5 * kEm));
  // the arrow: from 3ex left of q.180 to q's border; outer sep .5\pgflinewidth = .2pt
  const double border = 12.5 + 0.2;
  const auto& arrow = geom<ir::Segment>(d, 0);
  CHECK_PT(arrow.a, -border - 3 * kEx, 0);
  CHECK_PT(arrow.b, -border, 0);
  CHECK(d.elements[0].style.arrow_end);
  CHECK(d.elements[0].style.draw);
  const ir::Node* start = nullptr;
  for (const auto& n : d.nodes)
    if (n.text == "start") start = &n;
  REQUIRE(start != nullptr);
  CHECK(start->box.xmax + start->outer_sep == doctest::Approx(-border - 3 * kEx));
}

TEST_CASE("automata: accepting by arrow above with its distance and text, accepting is a double border") {
  Pic p;
  p.path("\\node[state,accepting above,accepting distance=5mm,accepting text=end] (q) {};");
  p.path("\\node[state,accepting] (r) at (3,0) {};");
  auto d = p.lower();
  INFO(diagnostics(d));
  CHECK(count_unsupported(d) == 0);
  const auto& arrow = geom<ir::Segment>(d, 0);
  CHECK_PT(arrow.a, 0, 12.7);
  CHECK_PT(arrow.b, 0, 12.7 + 0.5 * kCm);
  CHECK(count_nodes(d, "end") == 1);
  // accepting by double: outer sep=.5\pgflinewidth+.3pt
  CHECK(node_named(d, "r")->outer_sep == doctest::Approx(0.5));
}

TEST_CASE("topaths: loop above is pgf's curve from the node's 105 to its 75 degree anchor") {
  Pic p;
  p.path("\\node[circle,draw,minimum size=20pt,inner sep=0pt,outer sep=0pt] (q) {};");
  p.path("\\path (q) edge[loop above] node {a} ();");
  auto d = p.lower();
  INFO(diagnostics(d));
  CHECK(count_unsupported(d) == 0);
  const auto& bz = geom<ir::Bezier>(d, 0);
  CHECK_PT(bz.p0, 10 * std::cos(105 * kDeg), 10 * std::sin(105 * kDeg));
  CHECK_PT(bz.p1, 10 * std::cos(75 * kDeg), 10 * std::sin(75 * kDeg));
  // looseness 8 times 0.3915 times the anchors' distance, at least 5mm
  const double dist = 20 * std::sin(15 * kDeg);
  const double ctl = std::max(0.5 * kCm, 8 * 0.3915 * dist);
  CHECK_PT(bz.c1, bz.p0.x + ctl * std::cos(105 * kDeg), bz.p0.y + ctl * std::sin(105 * kDeg));
  CHECK_PT(bz.c2, bz.p1.x + ctl * std::cos(75 * kDeg), bz.p1.y + ctl * std::sin(75 * kDeg));
  CHECK(d.elements[0].style.arrow_end);  // every loop = ->
  REQUIRE(count_nodes(d, "a") == 1);
}

TEST_CASE("er: entity, relationship and attribute sizes in \\baselineskip") {
  Pic p;
  p.path("\\node[entity] (e) {};");
  p.path("\\node[attribute] (a) at (3,0) {};");
  auto d = p.lower();
  INFO(diagnostics(d));
  CHECK(count_unsupported(d) == 0);
  const double skip = 12;  // size10.clo
  CHECK(node_named(d, "e")->box.width() == doctest::Approx(4 * skip));
  CHECK(node_named(d, "e")->box.height() == doctest::Approx(2 * skip));
  CHECK(node_named(d, "a")->shape == ir::NodeShape::ellipse);
  CHECK(node_named(d, "a")->box.height() == doctest::Approx(1.5 * skip));
}

TEST_CASE("circuits: a resistor on a to is a 4x1 unit node in the middle, the line stops at its borders") {
  Pic p;
  p.options = "circuit ee IEC";
  p.path("\\draw (0,0) to [resistor={info=$R$}] (2,0) to [diode] (2,2);");
  auto d = p.lower();
  INFO(diagnostics(d));
  CHECK(count_unsupported(d) == 0);
  const ir::Node* r = nullptr;
  const ir::Node* diode = nullptr;
  const ir::Node* label = nullptr;
  for (const auto& n : d.nodes) {
    if (n.is_label)
      label = &n;
    else if (!r)
      r = &n;
    else
      diode = &n;
  }
  REQUIRE(r != nullptr);
  REQUIRE(diode != nullptr);
  REQUIRE(label != nullptr);
  CHECK_PT(r->center, kCm, 0);
  CHECK(r->box.width() == doctest::Approx(28));  // circuit symbol size=width 4 height 1, unit 7pt
  CHECK(r->box.height() == doctest::Approx(7));
  CHECK(r->drawn);
  CHECK(r->name.empty());
  CHECK(label->center.y > r->box.ymax);  // info = a label above
  // the diode on the upward line is turned by 90 degrees (transform shape)
  CHECK_PT(diode->center, 2 * kCm, kCm);
  CHECK(diode->rotation_deg == doctest::Approx(90));
  // the wire: 0 -> resistor's west border (outer sep .2pt), then east border -> corner -> diode
  const auto& first = d.elements[0].geom;
  const auto* seg = std::get_if<ir::Segment>(&first);
  REQUIRE(seg != nullptr);
  CHECK_PT(seg->a, 0, 0);
  CHECK_PT(seg->b, kCm - 14.2, 0);
  bool resumed = false;
  for (const auto& el : d.elements) {
    if (const auto* pl = std::get_if<ir::Polyline>(&el.geom))
      resumed =
          resumed || (std::abs(pl->points[0].x - (kCm + 14.2)) < 1e-6 && std::abs(pl->points[0].y) < 1e-6);
    if (const auto* sg = std::get_if<ir::Segment>(&el.geom))
      resumed = resumed || (std::abs(sg->a.x - (kCm + 14.2)) < 1e-6 && std::abs(sg->a.y) < 1e-6);
  }
  CHECK(resumed);
}

TEST_CASE("circuits: symbols outside a circuit or on a node apply their keys to the node") {
  Pic p;
  p.options = "circuit ee IEC, small circuit symbols";
  p.path("\\node[resistor,point up] (r) at (0,0) {};");
  p.path("\\draw (1,0) to [resistor={near start},capacitor={near end}] (5,0);");
  auto d = p.lower();
  INFO(diagnostics(d));
  CHECK(count_unsupported(d) == 0);
  const ir::Node* r = node_named(d, "r");
  REQUIRE(r != nullptr);
  CHECK(r->rotation_deg == doctest::Approx(90));
  CHECK(r->box.height() == doctest::Approx(24));  // 4 units of 6pt, turned up
  std::vector<double> xs;
  for (const auto& n : d.nodes)
    if (&n != r && !n.is_label) xs.push_back(n.center.x);
  REQUIRE(xs.size() == 2);
  CHECK(xs[0] == doctest::Approx(2 * kCm));
  CHECK(xs[1] == doctest::Approx(4 * kCm));
}

TEST_CASE("circuits: units are math labels, a user's circuit declare unit works") {
  Pic p;
  p.options = "circuit ee IEC, circuit declare unit={my ohm}{O}";
  p.path("\\draw (0,0) to [resistor={ohm=3}] (2,0) to [resistor={my ohm'=5}] (4,0);");
  auto d = p.lower();
  INFO(diagnostics(d));
  CHECK(count_unsupported(d) == 0);
  std::vector<const ir::Node*> labels;
  for (const auto& n : d.nodes)
    if (n.is_label) labels.push_back(&n);
  REQUIRE(labels.size() == 2);
  CHECK(labels[0]->text == "$\\mathrm{3\\Omega}$");
  CHECK(labels[0]->center.y > 0);
  CHECK(labels[1]->text == "$\\mathrm{5O}$");
  CHECK(labels[1]->center.y < 0);  // the primed form is below
}

TEST_CASE("perspective: 3d view sets the axis vectors, tpp coordinates divide by the homography") {
  Pic p;
  p.options = "3d view={30}{20}";
  p.path("\\draw (0,0,0) -- (1,0,0) -- (1,1,0) -- (1,1,1);");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  const auto& pl = geom<ir::Polyline>(d, 0);
  CHECK_PT(pl.points[1], kCm * std::cos(30 * kDeg), -kCm * std::sin(30 * kDeg) * std::sin(20 * kDeg));
  Pic q;
  q.options = "perspective={p={(4,0,0)},q={(0,4,0)}}";
  q.path("\\draw (tpp cs:x=2,y=0,z=0) -- (tpp cs:x=2,y=2,z=0);");
  auto e = q.lower();
  INFO(diagnostics(e));
  CHECK(count_unsupported(e) == 0);
  const auto& s = geom<ir::Segment>(e, 0);
  CHECK_PT(s.a, (2.0 / 1.5) * kCm, 0);  // w = 2/4 + 1
  CHECK_PT(s.b, kCm, kCm);              // w = 2/4 + 2/4 + 1, x = y = 2/2
}

TEST_CASE("3d library: canvas is xy plane at z and the cylindrical and spherical systems") {
  Pic p;
  p.options = "x={(1cm,0cm)}, y={(0cm,1cm)}, z={(0.5cm,0.5cm)}";
  p.scope("canvas is xy plane at z=2");
  p.path("\\draw (0,0) -- (1,0);");
  p.end();
  p.path("\\draw (xyz cylindrical cs:angle=90,radius=1,z=1) -- (xyz spherical cs:radius=1,latitude=90);");
  auto d = p.lower();
  INFO(diagnostics(d));
  CHECK(count_unsupported(d) == 0);
  const auto& a = geom<ir::Segment>(d, 0);
  CHECK_PT(a.a, kCm, kCm);
  CHECK_PT(a.b, 2 * kCm, kCm);
  const auto& b = geom<ir::Segment>(d, 1);
  CHECK_PT(b.a, 0.5 * kCm, 1.5 * kCm);
  CHECK_PT(b.b, 0.5 * kCm, 0.5 * kCm);
}

TEST_CASE("fit and through: the fit node covers the points, circle through passes the point") {
  Pic p;
  p.path("\\node[draw,minimum size=10pt,inner sep=0pt,outer sep=0pt] (a) at (0,0) {};");
  p.path("\\node[draw,inner sep=2pt,fit=(a) (2,1)] (f) {};");
  p.path("\\node[draw,circle through={(3,4)}] (c) at (0,0) {};");
  auto d = p.lower();
  INFO(diagnostics(d));
  CHECK(count_unsupported(d) == 0);
  const ir::Node* f = node_named(d, "f");
  REQUIRE(f != nullptr);
  CHECK(f->box.xmin == doctest::Approx(-5 - 2));
  CHECK(f->box.xmax == doctest::Approx(2 * kCm + 2));
  CHECK(f->box.ymin == doctest::Approx(-5 - 2));
  CHECK(f->box.ymax == doctest::Approx(kCm + 2));
  const ir::Node* c = node_named(d, "c");
  REQUIRE(c != nullptr);
  CHECK(c->box.width() == doctest::Approx(10 * kCm));
}

TEST_CASE("animations change nothing in the static picture, snapshots are reported") {
  Pic p;
  p.path("\\node[fill=green, animate={myself:fill={0s=\"red\",2s=\"blue\",base=\"orange\"}}] (a) {A};");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  Pic q;
  q.options = "make snapshot of=1s";
  q.path("\\node[animate={myself:xshift={0s=\"0cm\",2s=\"2cm\"}}] {A};");
  CHECK(count_unsupported(q.lower()) == 1);
}

TEST_CASE("to paths: edge label is a node on the to, parabola height, move to, distance") {
  Pic p;
  p.path("\\draw (0,0) to [edge label=x] (2,0);");
  p.path("\\draw (0,0) parabola[parabola height=1cm] (2,0);");
  p.path("\\draw (0,0) to [move to] (2,0);");
  auto d = p.lower();
  INFO(diagnostics(d));
  CHECK(count_unsupported(d) == 0);
  REQUIRE(count_nodes(d, "x") == 1);
  const auto& pl = geom<ir::Plot>(d, 1);
  double top = -1e9;
  for (auto pt : pl.points) top = std::max(top, pt.y);
  CHECK(top == doctest::Approx(kCm));
  CHECK(d.elements.size() == 2);  // move to draws nothing
}

TEST_CASE("turtle: home, forward and right insert the path") {
  Pic p;
  p.options = "turtle/distance=1cm";
  p.path("\\draw [turtle={home,forward,right,forward}];");
  auto d = p.lower();
  INFO(diagnostics(d));
  CHECK(count_unsupported(d) == 0);
  const auto& pl = geom<ir::Polyline>(d, 0);
  REQUIRE(pl.points.size() == 3);
  CHECK_PT(pl.points[1], 0, kCm);
  CHECK_PT(pl.points[2], kCm, kCm);
  // option lists in the middle of the path insert there (the library's \foreach example)
  Pic q;
  q.path("\\draw [turtle=home] [turtle={forward,right=144}] [turtle={forward,right=144}];");
  auto e = q.lower();
  CHECK(count_unsupported(e) == 0);
  const auto& star = geom<ir::Polyline>(e, 0);
  REQUIRE(star.points.size() == 3);
  CHECK_PT(star.points[2], kCm * std::cos(-54 * kDeg), kCm + kCm * std::sin(-54 * kDeg));
}

TEST_CASE("library keys that are not modelled stay unknown") {
  Pic p;
  p.path("\\node[rotate fit=30, fit=(0,0)] {};");
  auto d = p.lower();
  CHECK(has_rule(d, "unsupported-key"));
}

// lualatex (pgf 3.1.10) on this picture: r.east = (32.7207pt,0), x.east = (130.65741pt,0),
// a.north east = (146.53165pt,9.33316pt), a.south west = (32.7207pt,-9.33316pt); the annotation's
// anchors lie 1.5mm (its outer sep) outside the box lowering records.
TEST_CASE("mindmap: small mindmap concepts, extra concept and annotation have the library's sizes") {
  Pic p;
  p.options = "small mindmap,concept color=red!50";
  p.path("\\node [concept] (r) {Root};");
  p.path("\\node [extra concept] (x) at (4,0) {extra};");
  p.path("\\node [annotation,right] (a) at (r.east) {The root concept is important.};");
  auto d = p.lower();
  CHECK_MESSAGE(count_unsupported(d) == 0, diagnostics(d));
  const ir::Node* r = node_named(d, "r");
  const ir::Node* x = node_named(d, "x");
  const ir::Node* a = node_named(d, "a");
  REQUIRE(r);
  REQUIRE(x);
  REQUIRE(a);
  CHECK(r->shape == ir::NodeShape::circle);
  CHECK(r->drawn);
  CHECK(r->filled);
  CHECK(r->box.xmax == doctest::Approx(32.7207).epsilon(1e-4));  // minimum size=2.3cm, outer sep=0pt
  CHECK(x->box.xmax == doctest::Approx(130.65741).epsilon(1e-4));  // level 2 concept: 1.1cm
  const double outer = 0.15 * kCm;
  CHECK(a->box.xmin == doctest::Approx(32.7207 + outer).epsilon(1e-4));
  CHECK(a->box.xmax == doctest::Approx(146.53165 - outer).epsilon(1e-4));  // text width=3.5cm, inner sep 1mm
  CHECK(a->box.ymax == doctest::Approx(9.33316 - outer).epsilon(1e-3));
}

TEST_CASE("mindmap: a user's root concept/.append style adds to the library's root concept") {
  Pic p;
  p.options = "root concept/.append style={concept color=blue!20,minimum size=2cm},mindmap";
  p.path("\\node [concept] (r) {Root};");
  auto d = p.lower();
  CHECK_MESSAGE(count_unsupported(d) == 0, diagnostics(d));
  const ir::Node* r = node_named(d, "r");
  REQUIRE(r);
  // lualatex: r.east = (50.99146pt,0): the circle around the 3.5cm text box, larger than the
  // appended 2cm and smaller than the library's 4cm (0.1pt for the \large text height)
  CHECK(r->box.xmax == doctest::Approx(50.99146).epsilon(2e-3));
  CHECK(r->shape == ir::NodeShape::circle);
}
