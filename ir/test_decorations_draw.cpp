// Decorations that draw nodes and paths of their own (markings, text along path), placed in the
// frame pgf gives them; the expected values are what lualatex (pgf 3.1) computes for the same code.
#include "ir/coords.hpp"
#include "ir/decorations.hpp"
#include "ir/test_lower_support.hpp"

using namespace lowertest;

namespace {

const ir::NamedCoordinate* coordinate(const ir::Diagram& d, const std::string& name) {
  for (const auto& c : d.coordinates)
    if (c.name == name) return &c;
  return nullptr;
}

std::vector<const ir::Node*> nodes_with_text(const ir::Diagram& d, const std::string& text) {
  std::vector<const ir::Node*> out;
  for (const auto& n : d.nodes)
    if (n.text == text) out.push_back(&n);
  return out;
}

}  // namespace

TEST_CASE("decorated path: length and frames along lines and arcs") {
  ir::DecoratedPath p = ir::decorated_path_of({ir::Segment{{0, 0}, {30, 40}}, ir::Segment{{30, 40}, {30, 100}}});
  CHECK(p.subpaths.size() == 1);
  CHECK(p.length() == doctest::Approx(110));
  auto f = p.frame_at(80);
  CHECK(f.at.x == doctest::Approx(30));
  CHECK(f.at.y == doctest::Approx(70));
  CHECK(f.angle_deg == doctest::Approx(90));
  p.reverse();
  CHECK(p.frame_at(0).at.y == doctest::Approx(100));
  CHECK(p.frame_at(0).angle_deg == doctest::Approx(-90));
}

TEST_CASE("markings: a mark's code runs at its position, its x axis along the tangent") {
  // lualatex: m1 (53.98276pt,17.99396pt), m1x (80.97414pt,26.99094pt), m2 (15.72609pt,50.51494pt),
  // m2x (-9.27034pt,36.92679pt)
  Pic p;
  p.options = "decoration={markings, mark=at position 2cm with {\\coordinate (m1); \\coordinate (m1x) at (1,0);},"
              "mark=at position -1cm with {\\coordinate (m2); \\coordinate (m2x) at (1,0);}}";
  p.path("\\draw [postaction={decorate}] (0,0) -- (3,1) arc (0:180:1.5 and 1);");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  const auto *m1 = coordinate(d, "m1"), *m1x = coordinate(d, "m1x"), *m2 = coordinate(d, "m2"),
             *m2x = coordinate(d, "m2x");
  REQUIRE(m1);
  REQUIRE(m1x);
  REQUIRE(m2);
  REQUIRE(m2x);
  CHECK(m1->p.x == doctest::Approx(53.98276).epsilon(0.001));
  CHECK(m1->p.y == doctest::Approx(17.99396).epsilon(0.001));
  CHECK(m1x->p.x == doctest::Approx(80.97414).epsilon(0.001));
  CHECK(m1x->p.y == doctest::Approx(26.99094).epsilon(0.001));
  CHECK(m2->p.x == doctest::Approx(15.72609).epsilon(0.01));
  CHECK(m2->p.y == doctest::Approx(50.51494).epsilon(0.01));
  CHECK(m2x->p.x == doctest::Approx(-9.27034).epsilon(0.02));
  CHECK(m2x->p.y == doctest::Approx(36.92679).epsilon(0.01));
  // the postaction keeps the path: the line and the arc are still drawn
  std::size_t visible = 0;
  for (const auto& el : d.elements) visible += !el.style.invisible;
  CHECK(visible == 2);
}

TEST_CASE("markings: between positions places a mark every step, transform shape nodes turn with the path") {
  // lualatex picture size: (-7.60152pt,-7.29478pt) to (88.57565pt,62.8315pt)
  Pic p;
  p.path("\\draw[decorate, decoration={markings, mark=between positions 0 and 1 step 1cm with "
         "{\\node[draw,transform shape] {x};}}] (0,0) -- (3,1) arc (0:180:1.5 and 1);");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  CHECK(nodes_with_text(d, "x").size() == 8);  // the path is 7.13cm long
  CHECK(d.picture_bbox.xmin == doctest::Approx(-7.60152).epsilon(0.05));
  CHECK(d.picture_bbox.ymin == doctest::Approx(-7.29478).epsilon(0.05));
  CHECK(d.picture_bbox.xmax == doctest::Approx(88.57565).epsilon(0.01));
  CHECK(d.picture_bbox.ymax == doctest::Approx(62.8315).epsilon(0.01));
  // `decorate` with markings draws only the marks: the path itself is gone
  for (const auto& el : d.elements)
    if (std::holds_alternative<ir::Arc>(el.geom)) CHECK(el.style.invisible);
}

TEST_CASE("markings: mark info, later marks past the end, reset marks") {
  Pic p;
  p.path("\\path[postaction=decorate, decoration={markings, mark=at position 1 with {\\coordinate (gone);}, reset marks,"
         "mark=at position 1cm with {\\coordinate (n\\pgfkeysvalueof{/pgf/decoration/mark info/sequence number});},"
         "mark=at position 2cm with {\\coordinate (n\\pgfkeysvalueof{/pgf/decoration/mark info/sequence number});},"
         "mark=at position 5cm with {\\coordinate (past);}}] (0,0) -- (3,0);");
  auto d = p.lower();
  CHECK(coordinate(d, "gone") == nullptr);
  CHECK(coordinate(d, "past") == nullptr);
  REQUIRE(coordinate(d, "n1"));
  REQUIRE(coordinate(d, "n2"));
  CHECK(coordinate(d, "n2")->p.x == doctest::Approx(2 * kCm));
}

TEST_CASE("markings: mark connection node interrupts the path at the node") {
  // lualatex picture size: (-0.2pt,-0.2pt) to (85.55823pt,57.10548pt)
  Pic p;
  p.path("\\draw[decorate, decoration={markings, mark connection node=n, mark=at position .5 with "
         "{\\node[draw] (n) {node};}}] (0,0) -- (3,2);");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  std::vector<const ir::Plot*> pieces;
  for (const auto& el : d.elements)
    if (const auto* pl = std::get_if<ir::Plot>(&el.geom); pl && !el.style.invisible) pieces.push_back(pl);
  REQUIRE(pieces.size() == 2);
  const auto nodes = nodes_with_text(d, "node");
  REQUIRE(nodes.size() == 1);
  const ir::Box bx = nodes[0]->box;
  CHECK(ir::length(pieces[0]->points.front() - ir::Point{0, 0}) < 1e-6);
  CHECK(ir::length(pieces[1]->points.back() - ir::Point{3 * kCm, 2 * kCm}) < 1e-6);
  // the line stops on the node's border, on the line's own direction (the node is wider than tall)
  const ir::Point in = pieces[0]->points.back(), out = pieces[1]->points.front();
  CHECK(in.y == doctest::Approx(bx.ymin).epsilon(0.01));
  CHECK(out.y == doctest::Approx(bx.ymax).epsilon(0.01));
  CHECK(in.x / in.y == doctest::Approx(1.5).epsilon(0.01));
  CHECK(d.picture_bbox.xmax == doctest::Approx(85.55823).epsilon(0.001));
  CHECK(d.picture_bbox.ymax == doctest::Approx(57.10548).epsilon(0.001));
}

TEST_CASE("text along path: each character a node, set at its advance, aligned as asked") {
  // lualatex (pdftotext -bbox, converted to pt): "xy" starts at 18.329pt; centred, "abc" starts at
  // 28.234pt; fitted to the path, "b" starts at 20.367pt and "d" ends at the path's end
  Pic p;
  p.path("\\path[decorate, decoration={text along path, text={abc xy}}] (0,0) -- (3,0);");
  p.path("\\path[decorate, decoration={text along path, text={abc xy}, text align=center}] (0,-1) -- (3,-1);");
  p.path("\\path[decorate, decoration={text along path, text={ab cd}, text align=fit to path}] (0,-2) -- (3,-2);");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  const auto a = nodes_with_text(d, "a"), x = nodes_with_text(d, "x"), b = nodes_with_text(d, "b"),
             dd = nodes_with_text(d, "d");
  REQUIRE(a.size() == 3);
  REQUIRE(x.size() == 2);
  REQUIRE(b.size() == 3);
  REQUIRE(dd.size() == 1);
  CHECK(std::abs(a[0]->box.xmin) < 0.01);
  CHECK(x[0]->box.xmin == doctest::Approx(18.329).epsilon(0.005));
  CHECK(a[1]->box.xmin == doctest::Approx(28.234).epsilon(0.005));
  CHECK(b[2]->box.xmin == doctest::Approx(20.367).epsilon(0.005));
  CHECK(dd[0]->box.xmax == doctest::Approx(3 * kCm).epsilon(0.001));
  CHECK(a[0]->center.y == doctest::Approx(a[0]->box.ymin + 0.5 * (a[0]->box.ymax - a[0]->box.ymin)));
  CHECK(std::abs(a[0]->box.ymin) < 0.2);  // on the baseline ("a" has no depth)
  // \pgfqboxsynced: the characters do not make the picture larger than the path
  CHECK(d.picture_bbox.ymax == doctest::Approx(0));
}

TEST_CASE("text along path: raise and right alignment on a vertical path") {
  Pic p;
  p.path("\\path[decorate, decoration={text along path, text={ab}, text align=right, raise=2pt}] (0,0) -- (0,3);");
  auto d = p.lower();
  const auto b = nodes_with_text(d, "b");
  REQUIRE(b.size() == 1);
  CHECK(b[0]->rotation_deg == doctest::Approx(90));
  CHECK(b[0]->box.ymax == doctest::Approx(3 * kCm).epsilon(0.001));  // ends at the path's end
  CHECK(b[0]->box.xmin == doctest::Approx(-2 - 6.94445).epsilon(0.01));  // raised 2pt to the left, b is 6.94pt tall
}

TEST_CASE("text along path: groups, format delimiters and math are single boxes") {
  auto cs = ir::scan_decoration_text("|\\bf|a{bc} $x$\\ y", "|", "");
  REQUIRE(cs.size() == 6);
  CHECK(cs[0].text == "a");
  CHECK(cs[0].format == "\\bf");
  CHECK(cs[1].text == "{bc}");
  CHECK(cs[2].space);
  CHECK(cs[3].text == "x");
  CHECK(cs[3].math);
  CHECK(cs[4].space);
  CHECK(cs[5].text == "y");
  CHECK_FALSE(cs[5].math);
  auto br = ir::scan_decoration_text("a[+\\it]b", "[", "]");
  REQUIRE(br.size() == 2);
  CHECK(br[1].format == "\\it");
}

TEST_CASE("footprints: human and bird feet along a line, as large as pgf draws them") {
  // lualatex picture sizes: foot length=20pt (-1.3812pt,-12.67337pt) to (85.35823pt,12.67337pt);
  // foot of=bird (-1.21965pt,-12.37167pt) to (85.35823pt,12.37167pt)
  // a foot every half stride while half a stride is left: 5 on 85.36pt; a human foot has 6 outlines
  for (const auto& [spec, xmin, ymax, outlines] :
       {std::tuple<const char*, double, double, std::size_t>{"footprints, foot length=20pt", -1.3812, 12.67337, 30},
        {"footprints, foot of=bird", -1.21965, 12.37167, 5}}) {
    const std::string spec_text = spec;  // CAPTURE's lambda cannot capture a structured binding in clang 14
    CAPTURE(spec_text);
    Pic p;
    p.path(std::string("\\fill[decorate, decoration={") + spec + "}] (0,0) -- (3,0);");
    auto d = p.lower();
    CHECK(count_unsupported(d) == 0);
    CHECK(d.picture_bbox.xmin == doctest::Approx(xmin).epsilon(0.02));
    CHECK(d.picture_bbox.ymax == doctest::Approx(ymax).epsilon(0.01));
    CHECK(d.picture_bbox.ymin == doctest::Approx(-ymax).epsilon(0.01));
    std::size_t feet = 0;
    for (const auto& el : d.elements) feet += std::holds_alternative<ir::Plot>(el.geom) && !el.style.invisible;
    CHECK(feet == outlines);
  }
}

TEST_CASE("waves and expanding waves: the arcs pgf constructs") {
  // lualatex: expanding waves, angle=10 (-0.2pt,-14.0916pt) to (85.55823pt,14.0916pt);
  // waves, radius=4mm (-0.2pt,-8.24765pt) to (85.55823pt,8.24765pt)
  Pic p;
  p.path("\\draw[decorate, decoration={expanding waves, angle=10}] (0,0) -- (3,0);");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  CHECK(d.picture_bbox.ymax == doctest::Approx(14.0916).epsilon(0.005));
  CHECK(d.picture_bbox.xmax == doctest::Approx(85.55823).epsilon(0.001));
  Pic q;
  q.path("\\draw[decorate, decoration={waves, radius=4mm}] (0,0) -- (3,0);");
  auto w = q.lower();
  CHECK(w.picture_bbox.ymax == doctest::Approx(8.24765).epsilon(0.005));
  CHECK(w.picture_bbox.ymin == doctest::Approx(-8.24765).epsilon(0.005));
}

namespace {

const ir::Node* node_named(const ir::Diagram& d, const std::string& name) {
  for (const auto& n : d.nodes)
    if (n.name == name) return &n;
  return nullptr;
}

}  // namespace

TEST_CASE("text effects along path: one node per character, as wide as the node, counts in its styles") {
  // lualatex: c-1..c-4 at x = 5.83298, 17.77893, 28.88988, 39.44083 (inner sep .3333em on each side)
  Pic p;
  p.options = "decoration={text effects along path, text={ab c}, text effects/.cd, character count=\\i, "
              "characters={name=c-\\i}}";
  p.path("\\path[decorate] (0,0) -- (3,0);");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  const double xs[] = {5.83298, 17.77893, 28.88988, 39.44083};
  for (int i = 0; i < 4; ++i) {
    const ir::Node* n = node_named(d, "c-" + std::to_string(i + 1));
    REQUIRE(n);
    CHECK(n->center.x == doctest::Approx(xs[i]).epsilon(0.002));
  }
}

TEST_CASE("text effects along path: text along path style, centred on a vertical path") {
  // lualatex: d-1 (-2.185pt,36.01411pt), d-2 (-3.41501pt,41.29411pt), d-4 (-2.185pt,49.6241pt)
  Pic p;
  p.options = "decoration={text effects along path, text={ab c}, text align=center, text effects/.cd, "
              "character count=\\i, characters={text along path, name=d-\\i}}";
  p.path("\\path[decorate] (0,0) -- (0,3);");
  auto d = p.lower();
  const ir::Node *d1 = node_named(d, "d-1"), *d2 = node_named(d, "d-2"), *d4 = node_named(d, "d-4");
  REQUIRE(d1);
  REQUIRE(d2);
  REQUIRE(d4);
  CHECK(d1->center.y == doctest::Approx(36.01411).epsilon(0.002));
  CHECK(d2->center.y == doctest::Approx(41.29411).epsilon(0.002));
  CHECK(d4->center.y == doctest::Approx(49.6241).epsilon(0.002));
  CHECK(d1->center.x == doctest::Approx(-2.185).epsilon(0.05));
  CHECK(d1->rotation_deg == doctest::Approx(90));
}

TEST_CASE("text effects: path from text turns a lone point into a line as long as the text") {
  // lualatex: e-1 (28.45274pt,34.28572pt), e-2 (28.45274pt,46.23167pt); picture (22.33977pt,28.45274pt)
  // to (34.56572pt,53.08965pt)
  Pic p;
  p.options = "decoration={text effects along path, text={ab}, text effects/.cd, path from text, "
              "path from text angle=90, character count=\\i, characters={name=e-\\i}}";
  p.path("\\path[decorate] (1,1);");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  const ir::Node *e1 = node_named(d, "e-1"), *e2 = node_named(d, "e-2");
  REQUIRE(e1);
  REQUIRE(e2);
  CHECK(e1->center.x == doctest::Approx(28.45274).epsilon(0.001));
  CHECK(e1->center.y == doctest::Approx(34.28572).epsilon(0.002));
  CHECK(e2->center.y == doctest::Approx(46.23167).epsilon(0.002));
  CHECK(d.picture_bbox.ymax == doctest::Approx(53.08965).epsilon(0.005));
}

TEST_CASE("text effects: a control space at the end of the text is a character of its own") {
  Pic p;
  p.options = "decoration={text effects along path, text={ab\\ }, text effects/.cd, character count=\\i, "
              "characters={name=t-\\i}}";
  p.path("\\path[decorate] (0,0) -- (3,0);");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  CHECK_FALSE(has_rule(d, "syntax-error"));
  CHECK(node_named(d, "t-3") != nullptr);
}

TEST_CASE("shape backgrounds: shape scaled and shape sloped are options, not the decoration's name") {
  auto e = ir::classify_decoration("shape backgrounds,shape=rectangle,shape start size=4mm,shape scaled", {});
  CHECK(e.name == "shape backgrounds");
  CHECK(e.kind == ir::DecorationEffect::Kind::within_amplitude);
  CHECK(e.amplitude == doctest::Approx(4 * kCm / 10));
}

TEST_CASE("show path construction: each segment's code with its first, last and support points") {
  // lualatex, lineto and curveto code drawing each segment: picture (-0.2pt,-0.2pt) to (85.55823pt,57.10548pt)
  Pic p;
  p.options = "decoration={show path construction,"
              "lineto code={\\draw (\\tikzinputsegmentfirst) -- (\\tikzinputsegmentlast);},"
              "curveto code={\\draw (\\tikzinputsegmentfirst) .. controls (\\tikzinputsegmentsupporta) and "
              "(\\tikzinputsegmentsupportb) .. (\\tikzinputsegmentlast);}}";
  p.path("\\path[decorate] (0,0) -- (3,1) arc (0:180:1.5 and 1);");
  auto d = p.lower();
  CHECK(count_unsupported(d) == 0);
  std::vector<const ir::Bezier*> curves;
  for (const auto& el : d.elements)
    if (const auto* bz = std::get_if<ir::Bezier>(&el.geom)) curves.push_back(bz);
  REQUIRE(curves.size() == 2);  // the half ellipse is two quarter curvetos
  CHECK(ir::length(curves[0]->p0 - ir::Point{3 * kCm, kCm}) < 1e-3);
  CHECK(ir::length(curves[0]->p1 - ir::Point{1.5 * kCm, 2 * kCm}) < 1e-3);
  CHECK(ir::length(curves[0]->c1 - ir::Point{3 * kCm, kCm + 0.55228 * kCm}) < 0.01);
  CHECK(d.picture_bbox.xmax == doctest::Approx(85.55823).epsilon(0.001));
  CHECK(d.picture_bbox.ymax == doctest::Approx(57.10548).epsilon(0.001));
}
