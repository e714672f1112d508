// packages/circuitikz/circuitikz.cpp: circuitikz's path-style bipoles (circuitikz 1.6.0,
// pgfcircpath.tex \pgf@circ@bipole@path@base, pgfcirclabel.tex), rewritten into the plain TikZ
// they draw. `\draw (0,0) to[R=$R_1$, *-o] (2,0)` is, in circuitikz:
//
//   - a node of the bipole's shape at the middle of the segment, rotated along it (components keep
//     their size under the picture's scale: circuitikz does not transform shapes);
//   - the wires from the start to the shape's left anchor and from its right anchor to the target
//     (none for `open`; `short` is the wire alone);
//   - the label (l=, R=...) and annotation (a=) as nodes at the shape's border anchor 90 or -90,
//     anchored as pgfcirclabel.tex chooses from the segment's direction: straight labels with a
//     \strut, .75ex away; or, when labels are `smart` (the default) and the segment is between
//     20 and 70 degrees off an axis, rotated along it;
//   - the poles (`*-o`...) as nodes of the shapes circ and ocirc at the ends.
//
// The shapes' sizes are not written here: tools/circuitikz-table/generate reads them from TeX
// (each style drawn alone by lualatex) into bipoles.inc, and a test fails when that table is stale
// against the installed circuitikz. The shape is lowered as an undrawn box of the drawing's
// extent (strokes included), so that the picture grows as TeX's does; its inside (a resistor's
// zigzag) is not modelled, so rules see no line there.
//
// What is not modelled is reported once per picture (unsupported-construct: the picture is then
// incomplete for the rules) and not guessed: voltages (v=, V=$u$), currents (i=, I=$i$), flows,
// stacked labels (l2=), mirrored or inverted bipoles, a segment in a rotated or skewed frame,
// and \ctikzset in a picture.
//
// circuitikz's node shapes whose size does not depend on their text (circ, ocirc, ground, op amp,
// npn...: nodes.inc, measured by lualatex as the bipoles are) are library shapes here: a key that
// names one selects it (`node[ground]`), its anchors north, south, east, west, its corners and
// center, and the drawing's extent; their other anchors (an op amp's `out`, a transistor's `B`)
// are unknown anchors, reported where they are used.
#include <algorithm>
#include <cmath>
#include <numbers>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "ir/library.hpp"
#include "ir/package.hpp"
#include "tex/styles.hpp"
#include "tex/tex.hpp"

namespace tikzlint::ir {
namespace {

struct Bipole {
  std::string_view name;
  char value;  // 'l': a value given to the style is its label (R=x is l=x); 'x': something else
  double north, south, half_length, label_up, label_down, drawn_up, drawn_down;
};

constexpr Bipole kBipoles[] = {
#include "packages/circuitikz/bipoles.inc"
};

// A node shape whose size does not depend on its text (circ, ground, op amp, npn...), as lualatex
// measured it (nodes.inc): anchors north, south, east, west from the center, and the extent of the
// drawing, strokes included.
struct NodeShapeSize {
  std::string_view name;
  double north, south, east, west, min_x, max_x, min_y, max_y;
};

constexpr NodeShapeSize kNodeShapes[] = {
#include "packages/circuitikz/nodes.inc"
};

const NodeShapeSize* find_node_shape(std::string_view name) {
  auto it = std::lower_bound(std::begin(kNodeShapes), std::end(kNodeShapes), name,
                             [](const NodeShapeSize& b, std::string_view n) { return b.name < n; });
  return it != std::end(kNodeShapes) && it->name == name ? &*it : nullptr;
}

// The named anchors circuitikz declares for those shapes (an op amp's `out`, `+`, `-`; a
// transistor's `B`, `C`, `E`), where lualatex put them: node_anchors.inc, sorted by shape.
struct NodeAnchor {
  std::string_view shape, anchor;
  double x, y;
};

constexpr NodeAnchor kNodeAnchors[] = {
#include "packages/circuitikz/node_anchors.inc"
};

const Bipole* find_bipole(std::string_view name) {
  auto it = std::lower_bound(std::begin(kBipoles), std::end(kBipoles), name,
                             [](const Bipole& b, std::string_view n) { return b.name < n; });
  return it != std::end(kBipoles) && it->name == name ? &*it : nullptr;
}

constexpr double kDeg = std::numbers::pi / 180;
// pgfcirclabel.tex \pgf@circ@ls: the space between a bipole and its label, .75ex of the font.
constexpr double kLabelSpaceEx = 0.75;

std::string num(double v) { return text_number(v); }
std::string pt(double v) { return text_number(v) + "pt"; }

// The option list as pgfkeys splits it (tex::split_options: braces, brackets, math and control
// symbols such as `\,` hold no separator), keys normalised as TikZ reads them.
std::vector<tex::RawItem> split_options(std::string_view s) {
  auto items = tex::split_options(s);
  for (auto& it : items) it.key = tex::normalise_key(it.key);
  return items;
}

// The keys of a label or annotation (pgfcirclabel.tex) and the side they put it on (90: the
// shape's border anchor 90, left of the direction of travel; -90: right of it).
std::optional<int> label_side(std::string_view k, bool& annotation) {
  annotation = false;
  if (k == "l" || k == "label" || k == "l^" || k == "label above") return 90;
  if (k == "l_" || k == "label below") return -90;
  annotation = true;
  if (k == "a" || k == "annotation" || k == "a_" || k == "annotation below") return -90;
  if (k == "a^" || k == "annotation above") return 90;
  return std::nullopt;
}

// circuitikz keys of a bipole that draw what is not modelled here.
bool unmodelled_key(std::string_view k) {
  auto starts = [&](std::string_view p) { return k.substr(0, p.size()) == p; };
  auto ornament = [&](char c) {  // v, v^, v_, v<, v>, i>^, i_<, f... (voltage, current, flow)
    if (k.empty() || k[0] != c) return false;
    return std::all_of(k.begin() + 1, k.end(), [](char x) { return x == '<' || x == '>' || x == '^' || x == '_'; });
  };
  return ornament('v') || ornament('i') || ornament('f') || starts("l2") || starts("a2") || k == "voltage" ||
         k == "current" || k == "flow" || k == "mirror" || k == "mirrored" || k == "invert" || k == "inverted" ||
         k == "reversed" || k == "bipole nodes";
}

// `*-o`, `-*`, `o-`... : the poles at the start and the end ('*' circ, 'o' ocirc, 0 none);
// nullopt when the key is not a pole key, and `modelled` false for d (diamond) and . (rectjoin).
struct Poles {
  char start = 0, end = 0;
  bool modelled = true;
};
std::optional<Poles> poles(std::string_view k) {
  auto dash = k.find('-');
  if (dash == std::string_view::npos || k.size() > 3 || k.size() < 2) return std::nullopt;
  std::string_view a = k.substr(0, dash), b = k.substr(dash + 1);
  if (a.size() > 1 || b.size() > 1 || (a.empty() && b.empty())) return std::nullopt;
  auto ok = [](std::string_view x) { return x.empty() || x == "*" || x == "o" || x == "d" || x == "."; };
  if (!ok(a) || !ok(b)) return std::nullopt;
  Poles p;
  p.start = a.empty() ? 0 : a[0];
  p.end = b.empty() ? 0 : b[0];
  for (char c : {p.start, p.end})
    if (c == 'd' || c == '.') p.modelled = false;
  return p;
}

enum class LabelAlign { smart, straight, rotate };

// The inductor family in force (pgfcircbipoles.tex \ctikzvalof{inductor}: cute by default;
// `american`, `european`, `cute` and `... inductors` set it), kept per scope in the style table as
// the body of this style (Package::remember_options), as the trees package keeps its keys.
constexpr std::string_view kInductorFamily = "tikzlint circuitikz inductors";

std::string inductor_family_of(const std::string& key) {
  if (key == "american" || key == "american inductors") return "american";
  if (key == "european" || key == "european inductors") return "european";
  if (key == "cute" || key == "cute inductors") return "cute";
  return "";
}

class CircuitikzPicture final : public PackagePicture {
 public:
  explicit CircuitikzPicture(LabelAlign align) : align_(align) {}

  bool claims_to(std::string_view options) const override {
    for (const auto& it : split_options(options))
      if (find_bipole(it.key)) return true;
    return false;
  }

  Offer lower_statement(const PackageStatement& s, LibraryHost& host) override {
    if (s.command == "\\ctikzset") {
      unsupported(host, "\\ctikzset", "circuitikz settings (\\ctikzset) are not modelled: sizes are the package's defaults",
                  0, static_cast<std::uint32_t>(s.st.text.size()));
      return Offer::lowered;
    }
    return Offer::pass;
  }

  std::optional<ToRewrite> lower_to(const ToOperation& op, LibraryHost& host) override {
    const Bipole* bp = nullptr;
    std::string name, rest;
    struct Label {
      std::string text;
      int side = 90;
    };
    std::optional<Label> label, annotation;
    Poles pl;
    for (const auto& it : split_options(op.options)) {
      bool is_annotation = false;
      if (const Bipole* b = find_bipole(it.key)) {
        bp = b;
        if (it.has_value && !it.value.empty()) {
          if (b->value == 'l') label = Label{it.value, 90};
          else unsupported(host, "value", "circuitikz voltages and currents of sources (V=, I=...) are not modelled", op.b, op.e);
        }
      } else if (auto side = label_side(it.key, is_annotation)) {
        (is_annotation ? annotation : label) = Label{it.value, *side};
      } else if (it.key == "n" || it.key == "name") {
        name = it.value;
      } else if (auto p = poles(it.key)) {
        pl = *p;
        if (!p->modelled) unsupported(host, "poles", "circuitikz poles d and . are not modelled", op.b, op.e);
      } else if (unmodelled_key(it.key)) {
        unsupported(host, "ornament", "circuitikz voltages, currents, flows, stacked labels and mirrored or inverted bipoles (" +
                                          it.key + ") are not modelled", op.b, op.e);
      } else {
        if (!rest.empty()) rest += ", ";
        rest += it.has_value ? it.key + "={" + it.value + "}" : it.key;
      }
    }
    if (bp == nullptr) return std::nullopt;
    if (bp->name == "L" || bp->name == "inductor") {  // the family's drawing: not the same size
      std::string family = "cute";
      for (const auto& k : host.expand_keys(std::string(kInductorFamily)))
        if (k.key == "inductor family" && !k.value.empty()) family = k.value;
      if (const Bipole* b = find_bipole(family + " inductor")) bp = b;
    }
    ToRewrite rw;
    rw.options = rest;
    const Transform inv = op.ctm.inverse();
    auto local = [&](Point canvas) {
      Point p = inv.apply(canvas);
      return "(" + pt(p.x) + "," + pt(p.y) + ")";
    };
    if (std::abs(op.ctm.b) > 1e-9 || std::abs(op.ctm.c) > 1e-9) {
      // circuitikz takes the direction from the anchors in the picture's frame and rotates the
      // shape on the canvas: in a rotated or skewed frame the two are not modelled together
      unsupported(host, "frame", "a circuitikz bipole in a rotated or skewed frame is not modelled", op.b, op.e);
      rw.path = "-- (" + op.target_text + ")";
      return rw;
    }
    const Point S = op.start_canvas, E = op.target_canvas;
    double dir = std::atan2(E.y - S.y, E.x - S.x) / kDeg;  // \pgfmathanglebetweenpoints: [0, 360)
    if (dir < 0) dir += 360;
    const Point u{std::cos(dir * kDeg), std::sin(dir * kDeg)}, n{-u.y, u.x};
    const Point mid{(S.x + E.x) / 2, (S.y + E.y) / 2};
    auto at = [&](double along, double across) {
      return Point{mid.x + u.x * along + n.x * across, mid.y + u.y * along + n.y * across};
    };
    const bool open = bp->name == "open";
    const bool wire_only = bp->half_length == 0 && bp->north == 0 && bp->south == 0;  // short
    std::string path;
    if (open) path = "(" + op.target_text + ")";
    else if (wire_only) path = "-- (" + op.target_text + ")";
    else path = "-- " + local(at(-bp->half_length, 0)) + " " + local(at(bp->half_length, 0)) + " -- (" + op.target_text + ")";
    if (!open && !wire_only) {
      // the shape: an undrawn box of the drawing's extent, so that the picture grows as TeX's
      const double h = bp->drawn_up - bp->drawn_down;
      path += " node[shape=rectangle, inner sep=0pt, outer sep=0pt, minimum width=" + pt(2 * bp->half_length) +
              ", minimum height=" + pt(h) + ", rotate=" + num(dir) + ", anchor=center] " +
              (name.empty() ? "" : "(" + name + ") ") + "at " + local(at(0, (bp->drawn_up + bp->drawn_down) / 2)) + " {}";
    }
    const auto ls = host.eval(num(kLabelSpaceEx) + "ex");
    const double space = ls && ls->is_length ? ls->value : kLabelSpaceEx * 4.30554;
    // pgfcirclabel.tex divides the label distances by the picture's scale (sqrt of the
    // determinant, "\myscale") so that, measured in the scaled frame, they stay .75ex on the page;
    // the inner sep of a straight label, half that, is a node's dimension, which no scale shrinks
    const double scale = std::sqrt(std::abs(op.ctm.determinant()));
    for (const auto* lab : {&label, &annotation}) {
      if (!*lab) continue;
      const int side = (*lab)->side;
      const Point anchor_point = at(0, side > 0 ? bp->label_up : bp->label_down);
      path += " " + label_node(anchor_point, dir, side, space, scale, (*lab)->text, local);
    }
    for (int end = 0; end < 2; ++end) {
      const char c = end == 0 ? pl.start : pl.end;
      if (c != '*' && c != 'o') continue;
      path += std::string(" node[shape=") + (c == '*' ? "circ" : "ocirc") + "] at " + local(end == 0 ? S : E) + " {}";
    }
    rw.path = path;
    return rw;
  }

 private:
  template <class Local>
  std::string label_node(Point p, double dir, int side, double space, double scale, const std::string& text,
                         const Local& local) const {
    auto strip = [](double v) { return static_cast<long>(v); };  // \pgf@circ@stripdecimals
    auto tmod = [](long a, long m) { return a % m; };             // \pgfmathmod: the sign of a
    const double m90 = std::fmod(dir, 90.0);
    const bool rotated = align_ == LabelAlign::rotate ||
                         (align_ == LabelAlign::smart && strip(m90) > 20 && strip(m90) < 70);
    if (rotated) {  // \pgf@circ@drawrotlabels
      double res = 1.5 * space;
      if (side <= 0) res *= 1.5;
      long rot = strip(std::round(dir));
      double labrot = static_cast<double>(rot);
      if (rot > 90 && rot < 270) {
        labrot = static_cast<double>(strip(dir - 180));
        if (side > 0) res *= 1.5;
      }
      const double posangle = static_cast<double>(strip(side > 0 ? dir + 90 : dir - 90));
      const Point c{p.x + res * std::cos(posangle * kDeg), p.y + res * std::sin(posangle * kDeg)};
      return "node[anchor=mid, rotate=" + num(labrot) + "] at " + local(c) + " {" + text + "}";
    }
    // \pgf@circ@drawreglabels
    long labanc = strip(std::round(dir - 90));
    if (side < 0) labanc += 180;
    labanc = tmod(labanc, 360);
    const long t = strip(std::round(static_cast<double>(labanc + 90)));
    long r = tmod(t, 180);
    if (r > 135) r -= 180;
    std::string anchor = std::to_string(labanc);
    bool shift = false;
    if (r > 84 && r < 96) {
      const long labpos = strip(dir);
      if (labpos > 180) anchor = side > 0 ? "mid west" : "mid east";
      else anchor = side > 0 ? "mid east" : "mid west";
    } else if (r < 6 && r > -6) {
      if (side < 0) shift = labanc > 90;
      else shift = labanc < 90 || labanc > 180;
      anchor = shift ? "base" : "north";
    }
    if (shift) {
      const double a = -static_cast<double>(labanc) * kDeg;
      p = {p.x + space * std::cos(a), p.y + space * std::sin(a)};
    }
    return "node[anchor=" + anchor + ", inner sep=" + pt(0.5 * space / (scale > 0 ? scale : 1)) + ", outer sep=0pt] at " + local(p) +
           " {\\strut " + text + "}";
  }

  void unsupported(LibraryHost& host, const std::string& what, const std::string& message, std::uint32_t b,
                   std::uint32_t e) {
    if (!reported_.insert(what).second) return;
    host.problem("unsupported-construct", message, b, e);
  }

  LabelAlign align_;
  std::set<std::string> reported_;
};

class Circuitikz final : public Package {
 public:
  std::string_view name() const override { return "circuitikz"; }

  bool names_shape(std::string_view name, const tex::ExpandedDocument& doc) const override {
    return doc.loads("circuitikz") && find_node_shape(name) != nullptr;
  }

  void remember_options(tex::StyleTable& styles, const std::string& options) const override {
    std::string family;
    for (const auto& it : split_options(options))
      if (auto f = inductor_family_of(it.key); !f.empty()) family = f;
    if (family.empty()) return;
    tex::StyleDefinition def;
    def.body = "inductor family=" + family;  // a key, not the family's own (empty) style
    styles.define(std::string(kInductorFamily), def);
  }

  // The shape as pgf sees it: its anchors, a rectangular border through them, and as its path
  // box the drawing's extent that lualatex measured (strokes included: the picture grows by it,
  // and pgf adds nothing for the node's border, which circuitikz's shapes do not draw).
  std::shared_ptr<const ShapeOutline> shape(const NodeShapeInput& in) const override {
    const NodeShapeSize* n = find_node_shape(in.shape_name);
    if (n == nullptr) return nullptr;
    auto o = std::make_shared<ShapeOutline>();
    auto first = std::lower_bound(std::begin(kNodeAnchors), std::end(kNodeAnchors), n->name,
                                  [](const NodeAnchor& a, std::string_view s) { return a.shape < s; });
    for (auto it = first; it != std::end(kNodeAnchors) && it->shape == n->name; ++it)
      o->anchors.emplace_back(std::string(it->anchor), Point{it->x, it->y});
    o->anchors.insert(o->anchors.end(), {{"center", {0, 0}},           {"north", {0, n->north}},          {"south", {0, n->south}},
                  {"east", {n->east, 0}},       {"west", {n->west, 0}},            {"north east", {n->east, n->north}},
                  {"north west", {n->west, n->north}}, {"south east", {n->east, n->south}},
                  {"south west", {n->west, n->south}}});
    o->border = {{n->west, n->south}, {n->east, n->south}, {n->east, n->north}, {n->west, n->north}};
    o->outer_box = Box{n->min_x, n->min_y, n->max_x, n->max_y};
    o->path_box = o->outer_box;
    // where a circuitikz shape writes its text (beside a transistor, above a vcc arrow, inside an
    // op amp) is the shape's own affair: not modelled
    o->text_unplaced = true;
    // its symbol (a transistor's leads and body) is drawn by the shape, not modelled as elements
    o->paints_symbol = true;
    return o;
  }
  std::unique_ptr<PackagePicture> begin_document_picture(const tex::Picture&,
                                                         const tex::ExpandedDocument& doc) const override {
    for (const auto& p : doc.packages) {
      if (p.name != "circuitikz") continue;
      // circuitikz.sty's options straightlabels, rotatelabels, smartlabels (smart when none)
      LabelAlign align = LabelAlign::smart;
      for (const auto& it : split_options(p.options)) {
        if (it.key == "straightlabels") align = LabelAlign::straight;
        else if (it.key == "rotatelabels") align = LabelAlign::rotate;
        else if (it.key == "smartlabels") align = LabelAlign::smart;
      }
      return std::make_unique<CircuitikzPicture>(align);
    }
    return nullptr;
  }
};

}  // namespace
}  // namespace tikzlint::ir

namespace tikzlint::packages {
std::unique_ptr<ir::Package> circuitikz() { return std::make_unique<ir::Circuitikz>(); }
}  // namespace tikzlint::packages
