// packages/tkzeuclide/tkzeuclide.cpp: tkz-euclide's commands (tkz-euclide 4.25c,
// tex/latex/tkz-euclide/tkz-obj-eu-*.tex) rewritten into the plain TikZ each one expands to, the
// way the package's own macros do: a point is a `\coordinate`, \tkzDrawSegment a `\draw[line
// style] (A) to (B)`, \tkzLabelPoint a `\node[label style]`, \tkzMarkAngle an arc about the
// vertex. The styles (point style, label style, line style...) are defined by the expander when
// the document loads tkz-euclide (tex/expander.cpp tkzeuclide_styles, from tkz-euclide.cfg).
//
// A statement of the front end is a run of commands ("\tkzDefPoint(0,0){A}\tkzDefPoint(4,0){B}");
// each is read with its arguments and lowered in turn. What tkz-euclide computes in TeX (a
// midpoint, an image by a rotation, the foot of a projection, a bisector's direction) is computed
// here from the points' canvas positions and emitted as a coordinate in the local frame, so the
// picture's transformation applies to it as it applies to tkz's own \coordinate.
//
// A command that is not modelled is reported once per picture (unsupported-construct: the picture
// is then incomplete for the rules), and so is a command that names a point nothing defined
// (because an unmodelled construction was to define it): nothing is guessed.
#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <map>
#include <numbers>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "ir/library.hpp"
#include "ir/transform.hpp"
#include "packages/support.hpp"

namespace tikzlint::ir {
namespace {

constexpr double kDeg = std::numbers::pi / 180;
// tkz's `dim` fences run 1.2 times the dimension line's distance from the segment.
constexpr double kDimFence = 1.2;
constexpr double kPtPerCmTkz = 28.45274;  // tkz-obj-eu-draw-angles.tex: the cm it writes as a number
// tkz-euclide.cfg \tkz@euc@lineleft / \tkz@euc@lineright: a line extends past its points by .2
// of their distance on each side (line style's `add = .2 and .2`).
constexpr double kDefaultLineAdd = 0.2;
// tkz-obj-eu-draw-angles.tex /tkzmkangle size=1 (cm, x units), /tkzrightangle size=.25 (cm),
// /tkzlabelangle dist=1 (x units), /tkzFill size=1.
constexpr double kMarkAngleSize = 1;
constexpr double kRightAngleSize = 0.25;
constexpr double kLabelAngleDist = 1;
// tkz-obj-eu-draw-lines.tex /@tkzmarkoptions: mark `|` of size 4pt at pos .5.
constexpr double kSegmentMarkSize = 4;
constexpr double kTexMaxDimen = 16383.99998;  // TeX's \maxdimen in pt: no coordinate lies beyond it
// A direction whose other component is below this (pt) is horizontal or vertical as TeX holds it
// (a scaled point, 1sp = 1.5e-5pt, is far coarser): pgf's atan2 of it is exact.
constexpr double kAxisExactPt = 1e-9;

std::string num(double v) { return text_number(v); }

// Plane geometry in the picture's local frame (pt), where tkz-euclide computes: its
// \pgfpointanchor answers in the current coordinate system, its results are written back as
// coordinates there (\path (P)--++(..) coordinate, \pgfcoordinate).
Point operator+(Point a, Point b) { return {a.x + b.x, a.y + b.y}; }
Point operator-(Point a, Point b) { return {a.x - b.x, a.y - b.y}; }
Point operator*(double k, Point a) { return {k * a.x, k * a.y}; }
double norm(Point v) { return std::hypot(v.x, v.y); }
Point rot90(Point v) { return {-v.y, v.x}; }
Point rotated(Point v, double deg) {
  double c = std::cos(deg * kDeg), s = std::sin(deg * kDeg);
  return {c * v.x - s * v.y, s * v.x + c * v.y};
}
// Where the lines a--b and p--q cross (\pgfpointintersectionoflines); nullopt when they do not
// within TeX's dimensions.
std::optional<Point> lines_cross(Point a, Point b, Point p, Point q) {
  Point u = b - a, v = q - p;
  double den = u.x * v.y - u.y * v.x;
  if (den == 0) return std::nullopt;
  double t = ((p.x - a.x) * v.y - (p.y - a.y) * v.x) / den;
  Point x = a + t * u;
  if (std::abs(x.x) > kTexMaxDimen || std::abs(x.y) > kTexMaxDimen) return std::nullopt;
  return x;
}
// tkz-obj-eu-points-by.tex \tkzUProjection(A,B)(P): the foot of P on the line A--B.
std::optional<Point> foot(Point a, Point b, Point p) { return lines_cross(a, b, p, p + rot90(b - a)); }
// pgfmathanglebetweenpoints: the direction from p to q in degrees, [0, 360).
double slope(Point p, Point q) {
  double a = std::atan2(q.y - p.y, q.x - p.x) / kDeg;
  return a < 0 ? a + 360 : a;
}
// tkz-tools-eu-angles.tex \tkzFindAngle(P,V,Q): from the ray V->P counterclockwise to V->Q, in
// [0, 360) (\tkzNormalizeAngle).
double find_angle(Point p, Point v, Point q) {
  double f = slope(v, p), s = slope(v, q);
  if (f > s) return s - f + 360;
  return s - f;
}
// tkz-obj-eu-points-spc.tex \tkzCircumCenter, \tkzInCenter, \tkzExCenter (the one opposite the
// second vertex: the outer bisectors at the first and the third meet there).
std::optional<Point> circumcenter(Point a, Point b, Point c) {
  Point mab = 0.5 * (a + b), mac = 0.5 * (a + c);
  return lines_cross(mab, mab + rot90(b - a), mac, mac + rot90(c - a));
}
std::optional<Point> weighted(Point a, double wa, Point b, double wb, Point c, double wc) {
  double w = wa + wb + wc;
  if (std::abs(w) < 1e-9) return std::nullopt;
  return (1 / w) * (wa * a + wb * b + wc * c);
}
std::optional<Point> incenter(Point a, Point b, Point c) {
  return weighted(a, norm(c - b), b, norm(c - a), c, norm(b - a));
}
std::optional<Point> excenter_opposite_b(Point a, Point b, Point c) {
  return weighted(a, norm(c - b), b, -norm(c - a), c, norm(b - a));
}

// One argument group as written: its kind ('[', '(', '{') and its text without the delimiters.
struct Arg {
  char kind = 0;
  std::string text;
  std::uint32_t b = 0, e = 0;
};

struct Command {
  std::string name;  // without the backslash
  std::vector<Arg> args;
  std::uint32_t b = 0, e = 0;
};

// The plot marks tkz-euclide draws on segments and angle arcs (tkz-lib-eu-marks.tex, and pgf's
// `|`, `+`, `x`), in the marking's frame: x along the path, y to its left. A coordinate is
// lw * \pgflinewidth + s * \pgfplotmarksize; a piece is a polyline, or one Bezier curve
// (moveto, two controls, end).
struct MarkCoord {
  double xl, xs, yl, ys;
};
struct MarkPiece {
  bool curve;
  std::vector<MarkCoord> pts;
};
struct PlotMark {
  std::string_view name;
  std::vector<MarkPiece> pieces;
  bool uses_line_width;  // its strokes are spaced by the line width (||, |||)
};
const std::vector<PlotMark>& plot_marks() {
  constexpr double r = 0.70710678;
  static const std::vector<PlotMark> marks = {
      {"|", {{false, {{0, 0, 0, 1}, {0, 0, 0, -1}}}}, false},
      // pgflibraryplothandlers.code.tex's + and x
      {"+", {{false, {{0, -1, 0, 0}, {0, 1, 0, 0}}}, {false, {{0, 0, 0, 1}, {0, 0, 0, -1}}}}, false},
      {"x", {{false, {{0, -r, 0, -r}, {0, r, 0, r}}}, {false, {{0, -r, 0, r}, {0, r, 0, -r}}}}, false},
      {"||", {{false, {{2, 0, 0, 1}, {2, 0, 0, -1}}}, {false, {{-2, 0, 0, 1}, {-2, 0, 0, -1}}}}, true},
      {"|||",
       {{false, {{0, 0, 0, 1}, {0, 0, 0, -1}}},
        {false, {{-3, 0, 0, 1}, {-3, 0, 0, -1}}},
        {false, {{3, 0, 0, 1}, {3, 0, 0, -1}}}},
       true},
      {"s|", {{false, {{0, -r, 0, -r}, {0, r, 0, r}}}}, false},
      {"s||", {{false, {{0, -0.75, 0, -1}, {0, 0.25, 0, 1}}}, {false, {{0, 0, 0, -1}, {0, 1, 0, 1}}}}, false},
      {"s|||",
       {{false, {{0, -0.75, 0, -1}, {0, 0.25, 0, 1}}},
        {false, {{0, 0, 0, -1}, {0, 1, 0, 1}}},
        {false, {{0, 0.75, 0, -1}, {0, 1.75, 0, 1}}}},
       false},
      {"z", {{false, {{0, 0.75, 0, -1}, {0, -0.75, 0, -1}, {0, 0.75, 0, 1}, {0, -0.75, 0, 1}}}}, false},
      {"s",
       {{true, {{0, 0, 0, 0}, {0, 0, 0, 0}, {0, -1, 0, 1}, {0, 1, 0, 1}}},
        {true, {{0, 0, 0, 0}, {0, 0, 0, 0}, {0, 1, 0, -1}, {0, -1, 0, -1}}}},
       false},
      {"oo",
       {{true, {{0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0.5, 0, 1}, {0, 1, 0, 0}}},
        {true, {{0, 0, 0, 0}, {0, 0, 0, 0}, {0, -0.5, 0, 1}, {0, -1, 0, 0}}},
        {true, {{0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0.5, 0, -1}, {0, 1, 0, 0}}},
        {true, {{0, 0, 0, 0}, {0, 0, 0, 0}, {0, -0.5, 0, -1}, {0, -1, 0, 0}}}},
       false},
  };
  return marks;
}
const PlotMark* plot_mark(std::string_view name) {
  for (const auto& m : plot_marks())
    if (m.name == name) return &m;
  return nullptr;
}
// A key that changes \pgflinewidth (the spacing of || and |||).
bool sets_line_width(const std::string& tikz) {
  return tikz.find("line width") != std::string::npos || tikz.find("thin") != std::string::npos ||
         tikz.find("thick") != std::string::npos;
}

std::string trim(std::string_view s) { return std::string(text_trim(s)); }

// Split at top-level `sep` (braces, brackets and parentheses nest).
std::vector<std::string> split_top(std::string_view s, char sep) {
  std::vector<std::string> out;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '{' || c == '(' || c == '[') ++depth;
    else if (c == '}' || c == ')' || c == ']') --depth;
    else if (c == sep && depth == 0) {
      out.push_back(trim(s.substr(start, i - start)));
      start = i + 1;
    }
  }
  out.push_back(trim(s.substr(start)));
  return out;
}

// Point lists of the plural commands: "A,B C,D" (pairs separated by blanks) for segments,
// lines, circles, angles; "A,B,C" for points.
std::vector<std::vector<std::string>> groups(std::string_view s) {
  std::vector<std::vector<std::string>> out;
  std::string cur;
  int depth = 0;
  auto flush = [&] {
    std::string t = trim(cur);
    if (!t.empty()) {
      std::vector<std::string> g;
      for (auto& p : split_top(t, ','))
        if (!p.empty()) g.push_back(p);
      out.push_back(std::move(g));
    }
    cur.clear();
  };
  for (char c : s) {
    if (c == '{' || c == '(') ++depth;
    if (c == '}' || c == ')') --depth;
    if ((c == ' ' || c == '\n' || c == '\t') && depth == 0) {
      // a blank right after a comma belongs to the group ("A, B")
      std::string t = trim(cur);
      if (!t.empty() && t.back() != ',') flush();
      continue;
    }
    cur += c;
  }
  flush();
  return out;
}

// pgffor's `...` in a list that tkz-euclide hands to \foreach (\tkzDrawPoints, \tkzLabelPoints,
// \tkzDrawPolygon, \tkzDrawPolySeg, \tkzClipPolygon, \tkzDefPointsBy, \tkzAutoLabelPoints):
// pgffor.code.tex \pgffor@@handledots. The dots item may carry a context ("P_..." after "P_1":
// the text around the dots is stripped from the previous item and the end, and put back around
// each value); the values are single letters (an alphabetic sequence) or integers; the step is
// the difference of the two items before the dots, else +-1. Nullopt: a range that is neither
// (not read; the caller reports it).
std::optional<std::vector<std::string>> foreach_items(const std::vector<std::string>& raw) {
  std::vector<std::string> out;
  std::size_t literal_from = 0;  // items before this index were produced by a range
  for (std::size_t i = 0; i < raw.size(); ++i) {
    const std::string& item = raw[i];
    std::size_t dots = item.find("...");
    if (dots == std::string::npos) {
      out.push_back(item);
      continue;
    }
    if (out.empty() || i + 1 >= raw.size()) return std::nullopt;
    const std::string pre = item.substr(0, dots), post = item.substr(dots + 3);
    auto strip = [&](const std::string& v) -> std::optional<std::string> {
      if (v.size() < pre.size() + post.size() || v.compare(0, pre.size(), pre) != 0 ||
          v.compare(v.size() - post.size(), post.size(), post) != 0)
        return std::nullopt;
      return trim(v.substr(pre.size(), v.size() - pre.size() - post.size()));
    };
    auto last = strip(out.back()), end = strip(raw[i + 1]);
    bool has_prev = out.size() >= 2 && out.size() - 2 >= literal_from;
    auto prev = has_prev ? strip(out[out.size() - 2]) : std::nullopt;
    if (!last || !end || (has_prev && !prev)) return std::nullopt;
    auto letter = [](const std::string& v) { return v.size() == 1 && std::isalpha(static_cast<unsigned char>(v[0])); };
    auto integer = [](const std::string& v) -> std::optional<long> {
      if (v.empty() || v.size() > 9) return std::nullopt;
      std::size_t k = v[0] == '-' ? 1 : 0;
      if (k == v.size()) return std::nullopt;
      for (std::size_t j = k; j < v.size(); ++j)
        if (!std::isdigit(static_cast<unsigned char>(v[j]))) return std::nullopt;
      return std::stol(v);
    };
    const bool alpha = letter(*last) && letter(*end);
    std::optional<long> a = alpha ? std::optional<long>((*last)[0]) : integer(*last);
    std::optional<long> e = alpha ? std::optional<long>((*end)[0]) : integer(*end);
    std::optional<long> p = !has_prev ? std::nullopt : alpha && letter(*prev) ? std::optional<long>((*prev)[0]) : integer(*prev);
    if (!a || !e || (has_prev && !p)) return std::nullopt;
    long step = p ? *a - *p : (*e > *a ? 1 : -1);
    if (step == 0 || std::abs(*e - *a) / std::abs(step) > 1000) return std::nullopt;
    for (long v = *a + step; step > 0 ? v <= *e : v >= *e; v += step)
      out.push_back(pre + (alpha ? std::string(1, static_cast<char>(v)) : std::to_string(v)) + post);
    ++i;  // the end item is consumed by the range
    literal_from = out.size();
  }
  return out;
}

// The options of a command with the keys tkz-euclide itself consumes taken out (`size=`, `add=`,
// `dist=`...): what is left are /tikz keys, passed to the statement as written.
struct Options {
  std::vector<std::pair<std::string, std::string>> own;  // consumed key -> value
  std::string tikz;                                      // the rest
  const std::string* get(std::string_view k) const {
    for (auto it = own.rbegin(); it != own.rend(); ++it)
      if (it->first == k) return &it->second;
    return nullptr;
  }
};

Options split_options(const std::string& text, std::initializer_list<std::string_view> consumed) {
  Options o;
  for (const std::string& item : split_top(text, ',')) {
    if (item.empty()) continue;
    std::size_t eq = item.find('=');
    std::string key = trim(item.substr(0, eq));
    bool mine = false;
    for (auto c : consumed)
      if (key == c) mine = true;
    if (mine) {
      std::string v = eq == std::string::npos ? "" : trim(item.substr(eq + 1));
      if (v.size() >= 2 && v.front() == '{' && v.back() == '}') v = v.substr(1, v.size() - 2);
      o.own.emplace_back(key, v);
    } else {
      if (!o.tikz.empty()) o.tikz += ",";
      o.tikz += item;
    }
  }
  return o;
}

std::string with(const std::string& a, const std::string& b) {
  if (a.empty()) return b;
  if (b.empty()) return a;
  return a + "," + b;
}

// The argument pattern of each modelled command: 'o' an optional [..], 'p' a (..), 'q' an optional
// (..), 'g' a {..}.
struct Signature {
  std::string_view name;
  std::string_view args;
};
constexpr Signature kSignatures[] = {
    {"tkzDefPoint", "opg"},        {"tkzDefPoints", "og"},         {"tkzDefMidPoint", "p"},
    {"tkzDefPointBy", "op"},       {"tkzDefPointsBy", "opg"},  {"tkzDefCircleBy", "op"}, {"tkzDrawX", "o"}, {"tkzDrawY", "o"},      {"tkzGetPoint", "g"},
    {"tkzGetPoints", "gg"},        {"tkzGetFirstPoint", "g"},      {"tkzGetSecondPoint", "g"},
    {"tkzDrawPoint", "op"},        {"tkzDrawPoints", "op"},        {"tkzLabelPoint", "opg"},
    {"tkzLabelPoints", "op"},      {"tkzAutoLabelPoints", "op"},      {"tkzDrawSegment", "op"},       {"tkzDrawSegments", "op"},
    {"tkzDrawLine", "op"},         {"tkzDrawLines", "op"},         {"tkzDrawPolygon", "op"},
    {"tkzDrawPolygons", "op"},     {"tkzFillPolygon", "op"},       {"tkzDrawCircle", "op"},
    {"tkzDrawCircles", "op"},      {"tkzLabelSegment", "opg"},     {"tkzLabelSegments", "opg"},
    {"tkzLabelLine", "opg"},       {"tkzMarkAngle", "op"},         {"tkzMarkAngles", "op"},
    {"tkzMarkRightAngle", "op"},   {"tkzMarkRightAngles", "op"},   {"tkzLabelAngle", "opg"},
    {"tkzLabelAngles", "opg"},     {"tkzFillAngle", "op"},         {"tkzFillAngles", "op"},
    {"tkzMarkSegment", "op"},      {"tkzMarkSegments", "op"},      {"tkzSetUpPoint", "o"},
    {"tkzSetUpLine", "o"},         {"tkzSetUpStyle", "og"},        {"tkzInterLL", "pp"},
    {"tkzDefCircle", "op"},        {"tkzInterLC", "opp"},          {"tkzInterCC", "opp"},
    {"tkzDefLine", "op"},          {"tkzDefPointWith", "op"},      {"tkzDefShiftPoint", "opg"},    {"tkzDefPointOnCircle", "o"},  {"tkzGrid", "oqq"},
    {"tkzCalcLength", "op"},       {"tkzDrawArc", "opp"},          {"tkzDrawSector", "opp"},
    {"tkzFillSector", "opp"},      {"tkzInit", "o"},               {"tkzClip", "o"},
    {"tkzDefTriangle", "op"},      {"tkzDefSquare", "op"},         {"tkzDefParallelogram", "op"},
    {"tkzDefRectangle", "op"},     {"tkzDefTriangleCenter", "op"}, {"tkzDefSpcTriangle", "opg"},
    {"tkzClipBB", ""},             {"tkzDefTangent", "op"}, {"tkzDefRadicalAxis", "pp"},
    {"tkzDuplicateSegment", "pp"}, {"tkzDuplicateLength", "pp"},   {"tkzDefGoldenRatio", "p"},
    {"tkzLabelCircle", "oppg"},    {"pgfinterruptboundingbox", ""}, {"endpgfinterruptboundingbox", ""},
    {"pgfkeys", "g"},
    {"tkzSetUpArc", "o"},          {"tkzSetUpCircle", "o"},        {"tkzSetUpLabel", "o"},
    {"tkzSetUpColors", "o"},       {"tkzGetLength", "g"},         {"tkzGetAngle", "g"},           {"tkzGetResult", "g"},
    {"tkzFindAngle", "p"},         {"tkzFindSlopeAngle", "p"},
    {"tkzCompass", "op"}, {"tkzShowLine", "op"},          {"tkzCompasss", "op"},          {"tkzSetUpCompass", "o"},
    {"tkzClipPolygon", "op"},      {"tkzDrawPolySeg", "op"},       {"tkzDrawSemiCircle", "op"},
    {"tkzDrawSemiCircles", "op"},  {"tkzFillCircle", "op"},        {"tkzFillCircles", "op"},             {"tkzShowBB", "o"},             {"tkzClipCircle", "op"},
};

const Signature* signature(std::string_view name) {
  for (const auto& s : kSignatures)
    if (s.name == name) return &s;
  return nullptr;
}

class Lowerer {
 public:
  // What a picture's commands share: what was reported, the points an unmodelled construction
  // defined (unknown: what uses them is skipped, the construction was reported), whether the
  // tkz results (tkzPointResult...) are those of a modelled construction, line style's `add`.
  // \tkzInit's settings: the \tkzClip window (in steps) and what \tkzDefPoint divides by.
  struct Init {
    double xstep = 1, ystep = 1, xorigin = 0, yorigin = 0;
    double xa = 0, xb = 10, ya = 0, yb = 10;  // tkz-euclide.sty: \tkz@xa..\tkz@yb
    // \tkz@tmp@xa..: xmin..ymax as written, before the origin is moved (\tkzGrid's default corners)
    double xmin = 0, xmax = 10, ymin = 0, ymax = 10;
  };
  // \tkzGrid's keys, set by \pgfqkeys outside its group: they hold for the later grids of the
  // picture (tkz-euclide.cfg: sub off, sub steps .2)
  struct Grid {
    bool sub = false;
    std::string subxstep = "0.2", subystep = "0.2";
    std::string line_width = "0.4pt";  // \tkz@grid@lw
  };
  struct State {
    Init init;
    Grid grid;
    std::set<std::string> reported, unknown_points;
    bool results_known = true;
    double add_l = kDefaultLineAdd, add_r = kDefaultLineAdd;
    // \tkz@delta and \tkz@length as \tkzSetUpCompass / \tkzSetUpArc left them (stored, not scoped
    // to a command): /tkzcompass's delta (0: a compass arc is `length` cm long) is also the
    // default delta of \tkzDrawArc (/tkzdrawarc stores its delta in the same macro).
    double compass_delta = 0, compass_length = 1;
    int show_kind = 0;  // \tkz@numsh: the kind of \tkzShowLine without one
    // tkz's result macros as its last command left them (tkzLengthResult, tkzAngleResult; nullopt:
    // written by a command whose value is not computed), and the names \tkzGetLength{name} /
    // \tkzGetAngle{name} bound to them then, by the result macro the expander wrote for the name
    // ("tkzLengthResultrAB", tex/expander.cpp p_tkzget).
    std::optional<double> length_result, angle_result;
    bool length_in_cm = true;  // tkz-tools-eu-math.tex /tkzcalclen cm
    std::map<std::string, double, std::less<>> bound;
  };
  // `outside`: a setup command written outside the picture (ExpandedDocument::setup_commands): its
  // offsets are not the offered statement's, so what it emits and reports stands at that
  // statement's start.
  Lowerer(const PackageStatement& s, LibraryHost& host, State& state, bool outside = false)
      : text_(s.st.text), host_(host), state_(state), reported_(state.reported), add_l_(state.add_l),
        add_r_(state.add_r), outside_(outside) {}

  void run() {
    std::size_t i = 0;
    while (true) {
      i = text_skip_space(text_, i);
      if (i >= text_.size()) break;
      if (text_[i] != '\\') {
        // text that is not a command of the run (TeX would typeset or run it): not modelled
        std::size_t e = text_.find('\\', i);
        if (e == std::string::npos) e = text_.size();
        unsupported("text '" + trim(std::string_view(text_).substr(i, e - i)) + "' between tkz-euclide commands", i, e);
        i = e;
        continue;
      }
      std::size_t n = i + 1;
      while (n < text_.size() && std::isalpha(static_cast<unsigned char>(text_[n]))) ++n;
      Command c;
      c.name = text_.substr(i + 1, n - i - 1);
      c.b = static_cast<std::uint32_t>(i);
      const Signature* sig = signature(c.name);
      if (!sig) {
        std::size_t e = next_command(n);
        c.e = static_cast<std::uint32_t>(e);
        unsupported_command(c);
        i = e;
        continue;
      }
      std::size_t j = n;
      bool ok = true;
      for (char want : sig->args) {
        std::size_t k = text_skip_space(text_, j);
        char open = want == 'o' ? '[' : want == 'p' || want == 'q' ? '(' : '{';
        if (k >= text_.size() || text_[k] != open) {
          if (want == 'o' || want == 'q') continue;
          ok = false;
          break;
        }
        std::size_t end = text_skip_group(text_, k);
        if (end == std::string::npos) {
          ok = false;
          break;
        }
        c.args.push_back({open, text_.substr(k + 1, end - k - 2), static_cast<std::uint32_t>(k),
                          static_cast<std::uint32_t>(end)});
        j = end;
      }
      if (!ok) {
        std::size_t e = next_command(n);
        c.e = static_cast<std::uint32_t>(e);
        unsupported("\\" + c.name + " with arguments that are not in the form tkz-euclide reads", c.b, c.e);
        i = e;
        continue;
      }
      c.e = static_cast<std::uint32_t>(j);
      lower(c);
      i = j;
    }
    // a \pgfinterruptboundingbox whose end is in a later statement: what follows the run is not
    // modelled as interrupted (reported); the run's own commands were
    for (; interrupts_ > 0; --interrupts_) {
      unsupported("\\pgfinterruptboundingbox whose \\endpgfinterruptboundingbox is not in its run of tkz-euclide commands",
                  0, text_.size());
      host_.end_interrupt_bbox();
    }
  }

 private:
  std::size_t next_command(std::size_t from) const {
    std::size_t e = text_.find("\\tkz", from);
    return e == std::string::npos ? text_.size() : e;
  }

  void unsupported(const std::string& what, std::size_t b, std::size_t e) {
    if (!reported_.insert(what).second) return;  // once: the picture is already incomplete
    if (outside_) {
      host_.problem("unsupported-construct", what + " (before the picture) is not modelled", 0, 0);
      return;
    }
    host_.problem("unsupported-construct", what + " is not modelled", static_cast<std::uint32_t>(b),
                  static_cast<std::uint32_t>(e));
  }
  void unsupported_command(const Command& c) {
    state_.length_result.reset();
    state_.angle_result.reset();
    // a construction that is not modelled leaves tkz's results unknown, not those of the last one
    if (c.name.rfind("tkzDef", 0) == 0 || c.name.rfind("tkzInter", 0) == 0 || c.name.rfind("tkzCalc", 0) == 0)
      state_.results_known = false;
    unsupported("tkz-euclide's \\" + c.name, c.b, c.e);
    forget_redefined_points(c);
  }
  // tkz-euclide's families say what their commands do with the points they name: \tkzDef*,
  // \tkzInter*, \tkzCalc*, \tkzFind* write their results in tkzPointResult (.., tkzLengthResult),
  // and \tkzDraw*, \tkzFill*, \tkzLabel*, \tkzMark*, \tkzShow*, \tkzClip*, \tkzSetUp*,
  // \tkzPic*, \tkzProtract*, \tkzCompass* only paint or set styles: none moves a point it
  // names. Any other command that is not modelled may (\tkzPermute and \tkzSwapPoints redefine
  // the points of their (..) argument, tkz-tools-eu-utilities.tex), and a \tkzDef* or \tkzGet*
  // command may define the name of its {..} argument, an existing one too: the points named
  // there are no longer known. What uses them later is skipped (unknown_points) and a TikZ path
  // naming them is unplaced for the rules (LibraryHost::mark_unplaced): nothing is judged at a
  // place the model does not know.
  void forget_redefined_points(const Command& c) {
    static constexpr std::string_view kReadOnly[] = {"tkzDef",   "tkzInter", "tkzCalc",  "tkzFind",  "tkzDraw",
                                                     "tkzFill",  "tkzLabel", "tkzMark",  "tkzShow",  "tkzClip",
                                                     "tkzSetUp", "tkzPic",   "tkzProtract", "tkzCompass", "tkzGet",
                                                     "tkzInit",  "tkzText",  "tkzDuplicate"};
    static constexpr std::string_view kDefines[] = {"tkzDef", "tkzGet"};
    auto starts = [&](std::string_view pre) { return c.name.rfind(pre, 0) == 0; };
    const bool moves = std::none_of(std::begin(kReadOnly), std::end(kReadOnly), starts);
    const bool defines = std::any_of(std::begin(kDefines), std::end(kDefines), starts);
    if (!moves && !defines) return;
    // its arguments as written: those the signature read, else the (..) and {..} groups that
    // follow the command's name (a command without a signature was not read)
    std::vector<std::pair<char, std::string>> args;
    if (!c.args.empty()) {
      for (const Arg& a : c.args) args.push_back({a.kind, a.text});
    } else {
      std::size_t k = c.b + 1 + c.name.size();
      while (true) {
        k = text_skip_space(text_, k);
        if (k >= c.e || (text_[k] != '(' && text_[k] != '{' && text_[k] != '[')) break;
        const std::size_t end = text_skip_group(text_, k);
        if (end == std::string::npos || end > c.e) break;
        args.push_back({text_[k], text_.substr(k + 1, end - k - 2)});
        k = end;
      }
    }
    for (const auto& [kind, text] : args) {
      if (!((kind == '(' && moves) || (kind == '{' && (moves || defines)))) continue;
      for (const auto& g : groups(text))
        for (const std::string& raw : g) {
          const std::string name = trim(raw);
          if (name.empty() || !host_.named_center(name)) continue;
          state_.unknown_points.insert(name);
          host_.mark_unplaced(name);
        }
    }
  }

  // Options of command `c` (its '[' argument, or "").
  static std::string opts(const Command& c) {
    for (const Arg& a : c.args)
      if (a.kind == '[') return a.text;
    return "";
  }
  static const Arg* nth(const Command& c, char kind, int n = 0) {
    for (const Arg& a : c.args)
      if (a.kind == kind && n-- == 0) return &a;
    return nullptr;
  }

  // A point by name, in canvas pt; an unknown name is reported (once) and the command skipped.
  std::optional<Point> point(const std::string& name, const Command& c) {
    if (state_.unknown_points.count(name)) return std::nullopt;  // its construction was reported
    if (auto p = host_.named_center(name)) return p;
    // after a construction that is not modelled (reported), an unknown name is most likely one it
    // defined (`name=` prefixes, \tkzGetPoints): skipped without a second report
    if (!reported_.empty()) return std::nullopt;
    unsupported("a point '" + name + "' that nothing modelled defined (used by \\" + c.name + ")", c.b, c.e);
    return std::nullopt;
  }
  // A point list tkz-euclide hands to \foreach, with its `...` ranges expanded; a range pgffor
  // would read otherwise (not letters or integers) is reported and the list dropped.
  std::vector<std::string> foreach_points(const std::vector<std::string>& raw, const Command& c) {
    if (auto items = foreach_items(raw)) return *items;
    unsupported("the range in \\" + c.name + "'s list '" + nth(c, '(')->text + "'", c.b, c.e);
    return {};
  }
  bool known(const std::vector<std::string>& names, const Command& c) {
    for (const auto& n : names)
      if (!point(n, c)) return false;
    return true;
  }

  // `expr` with each bound result macro (\tkzLengthResultrAB: the value \tkzGetLength{rAB} took)
  // written as its number (lengths and tkz's angles are never negative: no parentheses needed,
  // and a unit after it reads as after any number); an unbound one is left, for pgfmath to fail
  // on (reported).
  std::string with_results(const std::string& expr) const {
    if (expr.find("\\tkz") == std::string::npos) return expr;
    std::string out;
    std::size_t i = 0;
    while (i < expr.size()) {
      if (expr[i] != '\\') {
        out += expr[i++];
        continue;
      }
      std::size_t j = i + 1;
      while (j < expr.size() && std::isalpha(static_cast<unsigned char>(expr[j]))) ++j;
      std::string_view cs(expr.data() + i + 1, j - i - 1);
      auto it = state_.bound.find(cs);
      if (it != state_.bound.end()) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.6f", it->second);
        out += buf;
      } else {
        out.append(expr, i, j - i);
      }
      i = j;
    }
    return out;
  }
  // tkz-tools-eu-math.tex \tkzGetLength{name} / tkz-tools-eu-angles.tex \tkzGetAngle{name}: the name
  // takes the result's value now (\global\edef).
  void get_result(const Command& c) {
    std::string name = trim(nth(c, '{')->text);
    const bool length = c.name == "tkzGetLength";
    const std::string cs = (length ? "tkzLengthResult" : c.name == "tkzGetAngle" ? "tkzAngleResult" : "tkzMathResult") + name;
    const std::optional<double>& v = length ? state_.length_result : c.name == "tkzGetAngle" ? state_.angle_result
                                                                                                 : std::optional<double>{};
    if (v) state_.bound[cs] = *v;
    else state_.bound.erase(cs);
  }

  // A number tkz-euclide evaluates (with \fpeval or pgfmath).
  std::optional<double> number(const std::string& expr, const Command& c) {
    std::string err;
    auto v = host_.eval(with_results(expr), &err);
    if (!v) {
      unsupported("the value '" + expr + "' of \\" + c.name, c.b, c.e);
      return std::nullopt;
    }
    return v->value;
  }

  // Canvas pt -> the local frame's pt, as a TikZ coordinate.
  std::string local(Point canvas) const {
    Point l = host_.settings().ctm.inverse().apply(canvas);
    return "(" + num(l.x) + "pt," + num(l.y) + "pt)";
  }
  // A canvas vector -> the local frame's, as a `++` offset.
  std::string local_vec(Point v) const {
    Transform inv = host_.settings().ctm.inverse();
    Point l = inv.apply_linear(v);
    return "(" + num(l.x) + "pt," + num(l.y) + "pt)";
  }

  void emit(const std::string& st, const Command& c) {
    if (outside_) host_.emit(st, 0, 0);
    else host_.emit(st, c.b, c.e);
  }

  void define(const std::string& name, Point canvas, const Command& c) {
    state_.results_known = true;
    emit("\\coordinate (" + name + ") at " + local(canvas) + ";", c);
  }

  void lower(const Command& c) {
    const std::string& n = c.name;
    // a construction that fails (a point it names is unknown) leaves no result to get
    if (n == "tkzDefMidPoint" || n == "tkzDefPointBy" || n == "tkzInterLL" || n == "tkzDefCircle" ||
        n == "tkzInterLC" || n == "tkzInterCC" || n == "tkzDefLine" || n == "tkzDefPointWith" ||
        n == "tkzDefTriangle" || n == "tkzDefSquare" || n == "tkzDefParallelogram" || n == "tkzDefRectangle" ||
        n == "tkzDefTriangleCenter" || n == "tkzDefTangent" || n == "tkzDefPointsBy" || n == "tkzDefCircleBy" ||
        n == "tkzDefPointOnCircle")
      state_.results_known = false;
    if (n == "tkzGetLength" || n == "tkzGetAngle" || n == "tkzGetResult") return get_result(c);
    // pgf's \pgfinterruptboundingbox .. \endpgfinterruptboundingbox between tkz commands of the
    // run: what is drawn in between does not grow the picture. A pair split across statements
    // (a path command between them) is reported (see run()), never guessed.
    if (n == "pgfinterruptboundingbox") {
      ++interrupts_;
      return host_.begin_interrupt_bbox();
    }
    if (n == "endpgfinterruptboundingbox") {
      if (interrupts_ == 0)
        return unsupported("\\endpgfinterruptboundingbox whose \\pgfinterruptboundingbox is not in its run of tkz-euclide commands", c.b, c.e);
      --interrupts_;
      return host_.end_interrupt_bbox();
    }
    if (n == "pgfkeys") {
      // \pgfkeys{/pgf/number format/.cd, ..}: how \pgfmathprintnumber prints, no geometry
      const std::string keys = trim(nth(c, '{')->text);
      if (keys.rfind("/pgf/number format", 0) != 0)
        return unsupported("\\pgfkeys{" + keys.substr(0, 30) + "} between tkz-euclide commands", c.b, c.e);
      return;
    }
    if (n == "tkzDuplicateSegment" || n == "tkzDuplicateLength" || n == "tkzDefGoldenRatio") {
      state_.results_known = false;
      return duplicate(c);
    }
    if (n == "tkzLabelCircle") return label_circle(c);
    // tkz's commands that leave a tkzLengthResult this model does not compute (\tkzDrawArc,
    // \tkzClipCircle, \tkzInterLC, ...): a name bound after them is unknown
    if (n == "tkzDrawArc" || n == "tkzClipCircle" || n == "tkzInterLC" || n == "tkzInterCC" ||
        n == "tkzDefCircleBy" || n == "tkzDefTangent" || n == "tkzDefCircle" || n == "tkzCalcLength")
      state_.length_result.reset();
    if (n == "tkzFindAngle" || n == "tkzFindSlopeAngle") return find_angle_cmd(c);
    if (n == "tkzDefPoint") return def_point(c);
    if (n == "tkzDefPoints") return def_points(c);
    if (n == "tkzDefMidPoint") return def_midpoint(c);
    if (n == "tkzInterLL") return inter_ll(c);
    if (n == "tkzDefCircle") return def_circle(c);
    if (n == "tkzInterLC") return inter_lc(c);
    if (n == "tkzInterCC") return inter_cc(c);
    if (n == "tkzDefLine") return def_line(c);
    if (n == "tkzDefTangent") return def_tangent(c);
    if (n == "tkzDefRadicalAxis") return def_radical_axis(c);
    if (n == "tkzDefPointWith") return def_point_with(c);
    if (n == "tkzDefShiftPoint") return def_shift_point(c);
    if (n == "tkzDefPointOnCircle") return def_point_on_circle(c);
    if (n == "tkzCalcLength") return calc_length(c);
    if (n == "tkzDefTriangle") return def_triangle(c);
    if (n == "tkzDefSquare" || n == "tkzDefParallelogram" || n == "tkzDefRectangle") return def_polygon(c);
    if (n == "tkzDefTriangleCenter") return def_triangle_center(c);
    if (n == "tkzDefSpcTriangle") return def_spc_triangle(c);
    if (n == "tkzDrawArc") return draw_arc(c);
    if (n == "tkzDrawSector" || n == "tkzFillSector") return sector(c);
    if (n == "tkzInit") return init(c);
    if (n == "tkzGrid") return grid(c);
    if (n == "tkzClip") return clip(c);
    if (n == "tkzClipBB" || n == "tkzShowBB") return bounding_box(c);
    if (n == "tkzClipCircle") return clip_circle(c);
    if (n == "tkzDefPointBy") return def_point_by(c);
    if (n == "tkzDefPointsBy") return def_points_by(c);
    if (n == "tkzDefCircleBy") return def_circle_by(c);
    if (n == "tkzDrawX" || n == "tkzDrawY") return draw_axis(c);
    if (n == "tkzGetPoint" || n == "tkzGetFirstPoint" || n == "tkzGetSecondPoint") {
      std::string from = n == "tkzGetPoint" ? "tkzPointResult" : n == "tkzGetFirstPoint" ? "tkzFirstPointResult"
                                                                                         : "tkzSecondPointResult";
      return get_point(from, trim(nth(c, '{')->text), c);
    }
    if (n == "tkzGetPoints") {
      get_point("tkzFirstPointResult", trim(nth(c, '{', 0)->text), c);
      get_point("tkzSecondPointResult", trim(nth(c, '{', 1)->text), c);
      return;
    }
    if (n == "tkzDrawPoint" || n == "tkzDrawPoints") return draw_points(c);
    if (n == "tkzLabelPoint") return label_point(c);
    if (n == "tkzLabelPoints") return label_points(c);
    if (n == "tkzAutoLabelPoints") return auto_label_points(c);
    if (n == "tkzDrawSegment" || n == "tkzDrawSegments") return draw_lines(c, false);
    if (n == "tkzDrawLine" || n == "tkzDrawLines") return draw_lines(c, true);
    if (n == "tkzDrawPolygon" || n == "tkzDrawPolygons" || n == "tkzFillPolygon") return polygons(c);
    if (n == "tkzDrawCircle" || n == "tkzDrawCircles") return circles(c);
    if (n == "tkzLabelSegment" || n == "tkzLabelSegments" || n == "tkzLabelLine") return label_segments(c);
    if (n == "tkzMarkAngle" || n == "tkzMarkAngles" || n == "tkzFillAngle" || n == "tkzFillAngles")
      return mark_angles(c);
    if (n == "tkzMarkRightAngle" || n == "tkzMarkRightAngles") return right_angles(c);
    if (n == "tkzLabelAngle" || n == "tkzLabelAngles") return label_angles(c);
    if (n == "tkzMarkSegment" || n == "tkzMarkSegments") return mark_segments(c);
    if (n == "tkzSetUpPoint") return setup_point(c);
    if (n == "tkzCompass" || n == "tkzCompasss") return compasses(c);
    if (n == "tkzShowLine") return show_line(c);
    if (n == "tkzSetUpCompass" || n == "tkzSetUpArc" || n == "tkzSetUpCircle" || n == "tkzSetUpLabel" ||
        n == "tkzSetUpColors")
      return setup_other(c);
    if (n == "tkzClipPolygon") return clip_polygon(c);
    if (n == "tkzDrawPolySeg") return poly_seg(c);
    if (n == "tkzDrawSemiCircle" || n == "tkzDrawSemiCircles") return semicircles(c);
    if (n == "tkzFillCircle" || n == "tkzFillCircles") return fill_circles(c);
    if (n == "tkzSetUpLine") return setup_line(c);
    if (n == "tkzSetUpStyle") {
      emit("\\tikzset{" + trim(nth(c, '{')->text) + "/.style={" + opts(c) + "}}", c);
      return;
    }
    unsupported_command(c);
  }

  // tkz-obj-eu-points.tex \tkzDefPoint[opts](x,y){A} / (a:r){A}: \coordinate[opts] (A) at (x,y),
  // x and y evaluated by \fpeval and divided by \tkzInit's steps (1 unless \tkzInit says).
  void def_point(const Command& c) {
    std::string xy = nth(c, '(')->text, name = trim(nth(c, '{')->text);
    std::optional<Point> p = coordinate(xy, c);
    if (!p) {
      state_.unknown_points.insert(name);
      return;
    }
    state_.unknown_points.erase(name);
    Point q = stepped(*p);
    emit("\\coordinate[" + opts(c) + "] (" + name + ") at (" + num(q.x) + "," + num(q.y) + ");", c);
  }
  // tkz@ptStar: ((x - xorigin) / xstep, (y - yorigin) / ystep) of \tkzInit
  Point stepped(Point p) const {
    const Init& in = state_.init;
    return {(p.x - in.xorigin) / in.xstep, (p.y - in.yorigin) / in.ystep};
  }
  std::optional<Point> coordinate(const std::string& xy, const Command& c) {
    auto parts = split_top(xy, ',');
    if (parts.size() == 2) {
      auto x = number(parts[0], c), y = number(parts[1], c);
      if (!x || !y) return std::nullopt;
      return Point{*x, *y};
    }
    auto polar = split_top(xy, ':');
    if (polar.size() == 2) {
      auto a = number(polar[0], c), r = number(polar[1], c);
      if (!a || !r) return std::nullopt;
      return Point{*r * std::cos(*a * kDeg), *r * std::sin(*a * kDeg)};
    }
    unsupported("the coordinate '(" + xy + ")' of \\" + c.name, c.b, c.e);
    return std::nullopt;
  }
  // \tkzDefPoints[opts]{x/y/A, ...}: \foreach \ptx/\pty/\name in {...} {\tkzDefPoint[opts](\ptx,\pty){\name}}
  void def_points(const Command& c) {
    for (const std::string& item : split_top(nth(c, '{')->text, ',')) {
      if (item.empty()) continue;
      auto f = split_top(item, '/');
      if (f.size() != 3) {
        unsupported("the point '" + item + "' of \\tkzDefPoints", c.b, c.e);
        continue;
      }
      auto x = number(f[0], c), y = number(f[1], c);
      if (!x || !y) {
        state_.unknown_points.insert(f[2]);
        continue;
      }
      state_.unknown_points.erase(f[2]);
      Point q = stepped({*x, *y});
      emit("\\coordinate[" + opts(c) + "] (" + f[2] + ") at (" + num(q.x) + "," + num(q.y) + ");", c);
    }
  }
  // tkz-obj-eu-points-spc.tex \tkzDefMidPoint(A,B): tkzPointResult halfway.
  void def_midpoint(const Command& c) {
    auto ps = split_top(nth(c, '(')->text, ',');
    if (ps.size() != 2) return unsupported_command(c);
    auto a = point(ps[0], c), b = point(ps[1], c);
    if (!a || !b) return;
    define("tkzPointResult", {(a->x + b->x) / 2, (a->y + b->y) / 2}, c);
  }
  // tkz-tools-eu-intersections.tex \tkzInterLL(A,B)(C,D): `\path (intersection of A--B and C--D)
  // coordinate (tkzPointResult)`, where the two lines (not the segments) cross. Lines that do
  // not cross within TeX's largest dimension (parallel, or nearly) are pgf's error
  // (\pgfpointintersectionoflines divides by their cross product): not placed, reported.
  void inter_ll(const Command& c) {
    auto l1 = split_top(nth(c, '(', 0)->text, ','), l2 = split_top(nth(c, '(', 1)->text, ',');
    if (l1.size() != 2 || l2.size() != 2) return unsupported_command(c);
    auto a = point(l1[0], c), b = point(l1[1], c), p = point(l2[0], c), q = point(l2[1], c);
    if (!a || !b || !p || !q) return;
    const double dx1 = b->x - a->x, dy1 = b->y - a->y, dx2 = q->x - p->x, dy2 = q->y - p->y;
    const double den = dx1 * dy2 - dy1 * dx2;
    const double t = den == 0 ? 0 : ((p->x - a->x) * dy2 - (p->y - a->y) * dx2) / den;
    const Point x{a->x + t * dx1, a->y + t * dy1};
    if (den == 0 || std::abs(x.x) > kTexMaxDimen || std::abs(x.y) > kTexMaxDimen)
      return unsupported("\\tkzInterLL of lines that do not cross within TeX's dimensions", c.b, c.e);
    // `\path (intersection of ..) coordinate`: the path's point grows the picture
    state_.results_known = true;
    emit("\\path " + local(x) + " coordinate (tkzPointResult);", c);
  }
  void get_point(const std::string& from, const std::string& name, const Command& c) {
    if (!state_.results_known || !host_.named_center(from)) {
      state_.unknown_points.insert(name);
      if (state_.results_known) unsupported("\\" + c.name + "{" + name + "} with no construction before it", c.b, c.e);
      return;
    }
    state_.unknown_points.erase(name);
    emit("\\coordinate (" + name + ") at (" + from + ");", c);
  }

  // --- Constructions computed in the local frame (see `lines_cross`): their results are defined
  // there, as tkz's \pgfcoordinate / `\path ... coordinate` define them.
  std::optional<Point> lpoint(const std::string& name, const Command& c) {
    auto p = point(name, c);
    if (!p) return std::nullopt;
    return host_.settings().ctm.inverse().apply(*p);
  }
  std::optional<std::vector<Point>> lpoints(const std::vector<std::string>& names, const Command& c) {
    std::vector<Point> out;
    for (const auto& n : names) {
      auto p = lpoint(n, c);
      if (!p) return std::nullopt;
      out.push_back(*p);
    }
    return out;
  }
  void define_local(const std::string& name, Point l, const Command& c) {
    state_.results_known = true;
    emit("\\coordinate (" + name + ") at (" + num(l.x) + "pt," + num(l.y) + "pt);", c);
  }
  // A length tkz reads as `#1 cm` (R= radii): a number of cm.
  std::optional<double> cm_length(const std::string& expr, const Command& c) {
    auto v = number(expr, c);
    if (!v) return std::nullopt;
    return *v * kPtPerCmTkz;
  }
  // The option list of a construction: its first key chooses the variant (`circum`, `R`,
  // `perpendicular=through C`), the rest are its settings (`K=2`, `normed`, `common=A`).
  struct Variant {
    std::string kind, value;
    std::vector<std::pair<std::string, std::string>> keys;
    const std::string* get(std::string_view k) const {
      for (auto it = keys.rbegin(); it != keys.rend(); ++it)
        if (it->first == k) return &it->second;
      return nullptr;
    }
  };
  static Variant variant(const std::string& options, std::initializer_list<std::string_view> kinds) {
    Variant v;
    for (const std::string& item : split_top(options, ',')) {
      if (item.empty()) continue;
      std::size_t eq = item.find('=');
      std::string key = trim(item.substr(0, eq));
      std::string val = eq == std::string::npos ? "" : trim(item.substr(eq + 1));
      if (val.size() >= 2 && val.front() == '{' && val.back() == '}') val = trim(val.substr(1, val.size() - 2));
      bool is_kind = false;
      for (auto k : kinds)
        if (key == k) is_kind = true;
      if (is_kind) {
        v.kind = key;
        v.value = val;
      } else {
        v.keys.emplace_back(key, val);
      }
    }
    return v;
  }
  // Settings a construction reads: anything else is not modelled (reported, nothing defined).
  bool only_keys(const Variant& v, std::initializer_list<std::string_view> allowed, const Command& c) {
    for (const auto& [k, val] : v.keys) {
      bool ok = false;
      for (auto a : allowed)
        if (k == a) ok = true;
      if (!ok) {
        unsupported("\\" + c.name + "[" + k + "]", c.b, c.e);
        return false;
      }
    }
    return true;
  }
  // `through C` of perpendicular= / parallel=, `at C` of colinear=.
  static std::optional<std::string> after_word(const std::string& value, std::string_view word) {
    std::string t = trim(value);
    if (t.rfind(word, 0) != 0) return std::nullopt;
    std::string rest = trim(t.substr(word.size()));
    if (rest.empty()) return std::nullopt;
    return rest;
  }
  std::optional<double> koeff(const Variant& v, const Command& c) {
    if (const auto* k = v.get("K")) return number(*k, c);
    return 1.0;
  }
  bool normed(const Variant& v) const {
    const auto* n = v.get("normed");
    return n && (n->empty() || *n == "true");
  }

  // tkz-obj-eu-circles.tex \tkzDefCircle[variant](...): tkzPointResult (and tkzFirstPointResult,
  // tkzSecondPointResult) and tkzLengthResult (the radius in cm).
  void def_circle(const Command& c) {
    Variant v = variant(opts(c), {"R", "diameter", "circum", "in", "ex", "euler", "nine", "apollonius", "spieker",
                                  "orthogonal from", "orthogonal through"});
    if (v.kind.empty()) v.kind = "circum";
    if (!only_keys(v, {}, c)) return;
    auto args = split_top(nth(c, '(')->text, ',');
    if (v.kind == "R") {
      // \path (A)--++(r,0) coordinate (tkzSecondPointResult), renamed tkzPointResult: the path
      // is not in \pgfinterruptboundingbox, so both its points grow the picture
      if (args.size() != 2) return unsupported_command(c);
      if (!point(args[0], c)) return;
      auto r = number(args[1], c);
      if (!r) return;
      state_.results_known = true;
      state_.length_result = std::round(*r * 1e5) / 1e5;
      emit("\\path (" + args[0] + ") --++(" + num(*r) + ",0) coordinate (tkzSecondPointResult);", c);
      emit("\\coordinate (tkzPointResult) at (tkzSecondPointResult);", c);
      return;
    }
    if (v.kind == "diameter") {
      if (args.size() != 2) return unsupported_command(c);
      auto p = lpoints(args, c);
      if (!p) return;
      Point m = 0.5 * ((*p)[0] + (*p)[1]);
      state_.length_result = std::round(norm(m - (*p)[0]) / kPtPerCmTkz * 1e6) / 1e6;
      define_local("tkzPointResult", m, c);
      define_local("tkzFirstPointResult", m, c);
      define_local("tkzSecondPointResult", (*p)[1], c);
      return;
    }
    if (v.kind != "circum" && v.kind != "in" && v.kind != "ex" && v.kind != "euler" && v.kind != "nine")
      return unsupported("\\tkzDefCircle[" + v.kind + "]", c.b, c.e);
    if (args.size() != 3) return unsupported_command(c);
    auto p = lpoints(args, c);
    if (!p) return;
    Point A = (*p)[0], B = (*p)[1], C = (*p)[2];
    std::optional<Point> centre, through;
    if (v.kind == "circum") {
      centre = circumcenter(A, B, C);
      through = A;
    } else if (v.kind == "in" || v.kind == "ex") {
      centre = v.kind == "in" ? incenter(A, B, C) : excenter_opposite_b(A, B, C);
      if (centre) through = foot(A, C, *centre);  // \tkzUProjection(#1,#3)(centre)
    } else {
      Point e1 = 0.5 * (A + B), e2 = 0.5 * (B + C), e3 = 0.5 * (A + C);
      centre = circumcenter(e1, e2, e3);
      through = e1;
    }
    if (!centre || !through)
      return unsupported("\\tkzDefCircle[" + v.kind + "] of points on one line", c.b, c.e);
    state_.length_result = std::round(norm(*through - *centre) / kPtPerCmTkz * 1e6) / 1e6;
    define_local("tkzPointResult", *centre, c);
    define_local("tkzFirstPointResult", *centre, c);
    define_local("tkzSecondPointResult", *through, c);
  }

  // The two results of an intersection, in tkz's order: `first` and `second` are swapped when
  // the rule of the command says so.
  void define_pair(Point first, Point second, bool swap, const Command& c) {
    if (swap) std::swap(first, second);
    define_local("tkzFirstPointResult", first, c);
    define_local("tkzSecondPointResult", second, c);
  }

  // tkz-tools-eu-intersections.tex \tkzInterLC[node|R|with nodes, near, common=, next to=]
  // (A,B)(O,M): the line A--B and the circle about O (through M; radius R cm; radius |CD|).
  void inter_lc(const Command& c) {
    Variant v = variant(opts(c), {"node", "R", "with nodes"});
    if (!only_keys(v, {"near", "common", "next to"}, c)) return;
    auto line = split_top(nth(c, '(', 0)->text, ','), circle = split_top(nth(c, '(', 1)->text, ',');
    if (line.size() != 2) return unsupported_command(c);
    auto ab = lpoints(line, c);
    if (!ab) return;
    Point A = (*ab)[0], B = (*ab)[1];
    std::optional<Point> O;
    std::optional<double> r;
    if ((v.kind.empty() || v.kind == "node") && circle.size() == 2) {
      O = lpoint(circle[0], c);
      auto M = lpoint(circle[1], c);
      if (O && M) r = norm(*M - *O);
    } else if (v.kind == "R" && circle.size() == 2) {
      O = lpoint(circle[0], c);
      if (O) r = cm_length(circle[1], c);
    } else if (v.kind == "with nodes" && circle.size() == 3) {
      O = lpoint(circle[0], c);
      auto P = lpoint(circle[1], c), Q = lpoint(circle[2], c);
      if (O && P && Q) r = norm(*Q - *P);
    } else {
      return unsupported_command(c);
    }
    if (!O || !r) return;
    if (norm(B - A) == 0) return unsupported("\\tkzInterLC with a line of two equal points", c.b, c.e);
    // \tkzInterLCR: H the foot of O; a line through O (|OH| < .05pt) meets the circle at O -+ r u;
    // else the radius towards H is turned by +-acos(|OH|/r) about O (pgf's acos fails past 1)
    Point H = *foot(A, B, *O);
    double d = norm(H - *O);
    Point first, second;
    if (d < 0.05) {
      Point u = (*r / norm(B - A)) * (B - A);
      second = *O + u;
      first = *O - u;
    } else {
      if (d > *r) return unsupported("\\tkzInterLC of a line that does not meet the circle", c.b, c.e);
      double a = std::acos(d / *r) / kDeg;
      Point u = (*r / d) * (H - *O);
      first = *O + rotated(u, a);
      second = *O + rotated(u, -a);
    }
    bool swap = false;
    const auto* near = v.get("near");
    const auto* common = v.get("common");
    const auto* next = v.get("next to");
    if (near && (near->empty() || *near == "true")) {
      swap = !(norm(first - A) < norm(second - A));
    } else if (common && !common->empty()) {
      auto P = lpoint(*common, c);
      if (!P) return;
      swap = !(norm(*P - second) < 1);
    } else if (next && !next->empty()) {
      auto P = lpoint(*next, c);
      if (!P) return;
      swap = !(norm(*P - first) < norm(*P - second));
    } else {
      // a line through the centre: tkz's first point is the reflection of its second, and
      // \tkzFindAngle(second, first, O) compares the directions first->second and first->O, the
      // same direction: pgf's atan2 of a horizontal or vertical one is exact in both (0, 90, 180,
      // 270: the angle is 0, no swap); any other is the same up to pgfmath's rounding (0 or
      // 359.99..), and which point TeX takes first is not known here
      if (d < 0.05) {
        const Point u = second - first;
        if (std::abs(u.x) > kAxisExactPt && std::abs(u.y) > kAxisExactPt)
          return unsupported("\\tkzInterLC of a slanted line through the circle's centre without near / common / next to",
                             c.b, c.e);
      } else {
        swap = !(find_angle(second, first, *O) < 180);
      }
    }
    define_pair(first, second, swap, c);
  }

  // tkz-tools-eu-intersections.tex \tkzInterCCR(O1,r1)(O2,r2): the two points in tkz's raw order
  // (first = the radical centre + the turned offset); it takes |r^2 - a^2| under the root, so
  // circles that do not meet still give two points. nullopt for one centre (TeX divides by 0).
  static std::optional<std::pair<Point, Point>> inter_ccr(Point O1, double r1, Point O2, double r2) {
    double dd = norm(O2 - O1);
    if (dd == 0) return std::nullopt;
    double aa = (r1 + r2) / (2 * dd) * (r1 - r2) + dd / 2;
    Point X = O1 + (aa / dd) * (O2 - O1);
    double hh = std::sqrt(std::abs((r1 + aa) * (r1 - aa)));
    Point rr{hh / dd * (O1.y - O2.y), hh / dd * (O2.x - O1.x)};
    return std::make_pair(X + rr, X - rr);
  }
  // \tkz@@CalcLengthcm: a length as tkz hands it on in cm, rounded to 6 decimals (back in pt).
  static double cm_rounded(double pt) { return std::round(pt / kPtPerCmTkz * 1e6) / 1e6 * kPtPerCmTkz; }

  // tkz-tools-eu-intersections.tex \tkzInterCC[node|R|with nodes, common=](O,A)(P,B): the two
  // circles; \tkzInterCCR takes |r^2 - a^2| under the root, so circles that do not meet still
  // give TeX two points (on the line of the centres' radical axis), placed as TeX places them.
  void inter_cc(const Command& c) {
    Variant v = variant(opts(c), {"node", "R", "with nodes"});
    if (!only_keys(v, {"common"}, c)) return;
    auto c1 = split_top(nth(c, '(', 0)->text, ','), c2 = split_top(nth(c, '(', 1)->text, ',');
    auto circle = [&](const std::vector<std::string>& a) -> std::optional<std::pair<Point, double>> {
      if ((v.kind.empty() || v.kind == "node") && a.size() == 2) {
        auto O = lpoint(a[0], c), M = lpoint(a[1], c);
        if (!O || !M) return std::nullopt;
        // \tkz@@CalcLengthcm rounds to 6 decimals of a cm
        return std::make_pair(*O, cm_rounded(norm(*M - *O)));
      }
      if (v.kind == "R" && a.size() == 2) {
        auto O = lpoint(a[0], c);
        if (!O) return std::nullopt;
        auto r = cm_length(a[1], c);
        if (!r) return std::nullopt;
        return std::make_pair(*O, *r);
      }
      if (v.kind == "with nodes" && a.size() == 3) {
        auto O = lpoint(a[0], c), P = lpoint(a[1], c), Q = lpoint(a[2], c);
        if (!O || !P || !Q) return std::nullopt;
        return std::make_pair(*O, cm_rounded(norm(*Q - *P)));
      }
      unsupported_command(c);
      return std::nullopt;
    };
    auto k1 = circle(c1);
    if (!k1) return;
    auto k2 = circle(c2);
    if (!k2) return;
    auto [O1, r1] = *k1;
    auto [O2, r2] = *k2;
    auto both = inter_ccr(O1, r1, O2, r2);
    if (!both) return unsupported("\\tkzInterCC of circles with one centre", c.b, c.e);
    auto [first, second] = *both;
    bool swap = false;
    if (const auto* common = v.get("common"); common && !common->empty()) {
      auto P = lpoint(*common, c);
      if (!P) return;
      swap = !(norm(*P - second) < 0.05);
    } else {
      swap = !(find_angle(O1, first, O2) < 180);
    }
    define_pair(first, second, swap, c);
  }

  // tkz-tools-eu-math.tex \tkzDefRadicalAxis(O1,A)(O2,B): two points of the radical axis of the
  // circle about O1 through A and that about O2 through B, in the local frame where tkz's
  // \pgfpointanchor answers. With d = |O1O2| and the radii in cm (\tkz@@CalcLengthcm):
  //  - tangent circles (| d - |r1 - r2| | or | d - (r1 + r2) | below 0.1cm): O2 turned about A
  //    by +90 and -90 degrees (\tkzURotateAngle);
  //  - circles more than 1cm apart (d - (r1 + r2) > 1): the radical centre R of the two circles
  //    and the circle about O1 turned by 60 degrees about O1 through O1 (aux), from the common
  //    chords \tkzInterCC gives, and R's foot on O1O2; \tkzInterLL's \path grows the picture
  //    by R;
  //  - else \tkzInterCCR(O1,r1)(O2,r2) in its raw order (the common points when they meet).
  void def_radical_axis(const Command& c) {
    auto c1 = split_top(nth(c, '(', 0)->text, ','), c2 = split_top(nth(c, '(', 1)->text, ',');
    if (c1.size() != 2 || c2.size() != 2) return unsupported_command(c);
    auto O1 = lpoint(c1[0], c), A = lpoint(c1[1], c), O2 = lpoint(c2[0], c), B = lpoint(c2[1], c);
    if (!O1 || !A || !O2 || !B) {
      state_.results_known = false;
      return;
    }
    auto cm = [](double pt) { return std::round(pt / kPtPerCmTkz * 1e6) / 1e6; };
    const double d = cm(norm(*O2 - *O1)), ra = cm(norm(*A - *O1)), rb = cm(norm(*B - *O2));
    if (std::abs(d - std::abs(ra - rb)) < 0.1 || std::abs(d - (ra + rb)) < 0.1)
      return define_pair(*A + rotated(*O2 - *A, 90), *A + rotated(*O2 - *A, -90), false, c);
    if (d - (ra + rb) > 1) {
      const Point aux = *O1 + rotated(*O2 - *O1, 60);
      const double raux = cm_rounded(norm(*O1 - aux));
      auto k1 = inter_ccr(*O1, cm_rounded(norm(*A - *O1)), aux, raux);
      auto k2 = inter_ccr(*O2, cm_rounded(norm(*B - *O2)), aux, raux);
      std::optional<Point> R = k1 && k2 ? lines_cross(k1->first, k1->second, k2->first, k2->second) : std::nullopt;
      std::optional<Point> H = R ? foot(*O1, *O2, *R) : std::nullopt;
      if (!R || !H) {
        state_.results_known = false;
        return unsupported("\\tkzDefRadicalAxis whose chords do not cross", c.b, c.e);
      }
      emit("\\path (" + num(R->x) + "pt," + num(R->y) + "pt);", c);
      return define_pair(*R, *H, false, c);
    }
    auto both = inter_ccr(*O1, ra * kPtPerCmTkz, *O2, rb * kPtPerCmTkz);
    if (!both) {
      state_.results_known = false;
      return unsupported("\\tkzDefRadicalAxis of circles with one centre", c.b, c.e);
    }
    define_pair(both->first, both->second, false, c);
  }

  // tkz-obj-eu-lines.tex \tkzDefLine[variant, K=, normed](...). The `\ifx\tkz@koeff=1` of the
  // mediator and the bisectors is never true, so K always scales (K=1 changes nothing).
  void def_line(const Command& c) {
    Variant v = variant(opts(c), {"mediator", "perpendicular", "orthogonal", "parallel", "bisector", "bisector out",
                                  "symmedian", "altitude", "euler", "tangent from", "tangent at"});
    if (v.kind.empty()) v.kind = "mediator";
    if (!only_keys(v, {"K", "normed"}, c)) return;
    auto k = koeff(v, c);
    if (!k) return;
    const double K = *k;
    const bool unit = normed(v);
    auto args = split_top(nth(c, '(')->text, ',');
    // \tkzVecKNorm[k](P,Q): P + k cm along P->Q
    auto knorm = [](Point P, Point Q, double kk) {
      double n = norm(Q - P);
      return n > 0 ? P + (kk * kPtPerCmTkz / n) * (Q - P) : P;
    };
    if (v.kind == "mediator") {
      if (args.size() != 2) return unsupported_command(c);
      auto p = lpoints(args, c);
      if (!p) return;
      Point A = (*p)[0], B = (*p)[1], M = 0.5 * (A + B);
      // \tkzDefEquilateral(A,B) and (B,A): B turned 60 degrees about A, A about B
      Point e1 = A + rotated(B - A, 60), e2 = B + rotated(A - B, 60);
      e1 = M + K * (e1 - M);
      e2 = M + K * (e2 - M);
      if (unit) {
        e1 = knorm(M, e1, K);
        e2 = knorm(M, e2, K);
      }
      define_local("tkzFirstPointResult", e1, c);
      define_local("tkzSecondPointResult", e2, c);
      return;
    }
    if (v.kind == "perpendicular" || v.kind == "orthogonal" || v.kind == "parallel") {
      auto through = after_word(v.value, "through");
      if (!through || args.size() != 2) return unsupported_command(c);
      auto p = lpoints(args, c);
      auto T = lpoint(*through, c);
      if (!p || !T) return;
      Point d = (*p)[1] - (*p)[0];
      if (v.kind != "parallel") d = rot90(d);
      Point r = *T + K * d;
      // normed: \tkzVecKNorm(through, result), a cm along it (towards -d when K < 0)
      if (unit) r = knorm(*T, r, 1);
      define_local("tkzPointResult", r, c);
      return;
    }
    if (v.kind == "tangent at") return tangent_at(v.value, args, c);
    if (v.kind == "tangent from") return tangent_from(v.value, args, false, c);
    if (args.size() != 3) return unsupported_command(c);
    auto p = lpoints(args, c);
    if (!p) return;
    Point A = (*p)[0], O = (*p)[1], B = (*p)[2];
    if (v.kind == "euler") {
      // \tkzDefEulerLine: the orthocentre and the centre of the nine-point circle
      auto H = orthocenter(A, O, B);
      auto E = circumcenter(0.5 * (A + O), 0.5 * (A + B), 0.5 * (O + B));
      if (!H || !E) return unsupported("\\tkzDefLine[euler] of points on one line", c.b, c.e);
      define_local("tkzFirstPointResult", *H, c);
      define_local("tkzSecondPointResult", *E, c);
      return;
    }
    if (v.kind == "symmedian") {
      // \tkzDefSymmedianLine: the midpoint of the opposite side mirrored in the bisector
      // (\tkzUSymOrth), then \tkz@VecK[K] from the vertex. `normed` reaches tkz's inner VecK
      // calls too: not modelled.
      if (unit) return unsupported("\\tkzDefLine[symmedian, normed]", c.b, c.e);
      double ob = norm(B - O);
      if (ob == 0) return unsupported("\\tkzDefLine[symmedian] of an angle with equal points", c.b, c.e);
      Point D = O + (norm(A - O) / ob) * (B - O);
      Point m = 0.5 * (D + A), mid = 0.5 * (A + B);
      auto f = foot(O, m, mid);
      if (!f) return unsupported("\\tkzDefLine[symmedian] of points on one line", c.b, c.e);
      define_local("tkzPointResult", O + K * ((2 * *f - mid) - O), c);
      return;
    }
    if (v.kind == "bisector" || v.kind == "bisector out") {
      double ob = norm(B - O);
      if (ob == 0) return unsupported("\\tkzDefLine[" + v.kind + "] of an angle with equal points", c.b, c.e);
      // \tkzDuplicateSegment(O,A)(O,B): the point of O->B at |OA|; the bisector through the
      // midpoint of it and A; the outer one that midpoint turned 90 degrees about O
      Point D = O + (norm(A - O) / ob) * (B - O);
      Point m = 0.5 * (D + A);
      if (v.kind == "bisector out") m = O + rotated(m - O, 90);
      Point r = O + K * (m - O);
      if (unit) r = knorm(O, r, K);
      define_local("tkzPointResult", r, c);
      return;
    }
    if (v.kind == "altitude") {
      // \tkzUProjection(A,B')(O): the foot of the middle point on the line of the others
      auto f = foot(A, B, O);
      if (!f) return unsupported("\\tkzDefLine[altitude] of points on one line", c.b, c.e);
      define_local("tkzPointResult", *f, c);
      return;
    }
    unsupported("\\tkzDefLine[" + v.kind + "]", c.b, c.e);
  }

  // tkz-obj-eu-lines.tex \tkzTgtAt(O)(A): the tangent at A of the circle about O, as the point
  // \tkz@VecKOrthNorm[-1](A,O): 1cm from A, at right angles to A->O (clockwise).
  void tangent_at(const std::string& at, const std::vector<std::string>& args, const Command& c) {
    if (args.size() != 1 || trim(at).empty()) return unsupported_command(c);
    auto O = lpoint(args[0], c), A = lpoint(trim(at), c);
    if (!O || !A) return;
    double d = norm(*O - *A);
    if (d == 0) return unsupported("\\" + c.name + " at the circle's centre", c.b, c.e);
    define_local("tkzPointResult", *A - (kPtPerCmTkz / d) * rot90(*O - *A), c);
  }
  // \tkzTgtFromP(O,A)(P) / \tkzTgtFromPR(O,r)(P): the points of contact of the tangents from P,
  // where the circle about O meets the circle on the diameter O--P (\tkzInterCCR, radii in cm
  // rounded as \tkz@@CalcLengthcm rounds them); the first is the one from which P and O turn
  // counterclockwise by less than 180 degrees (\tkzFindAngle(P, first, O)).
  void tangent_from(const std::string& from, const std::vector<std::string>& args, bool with_r, const Command& c) {
    if (args.size() != 2 || trim(from).empty()) return unsupported_command(c);
    auto O = lpoint(args[0], c), P = lpoint(trim(from), c);
    if (!O || !P) return;
    double r1 = 0;
    if (with_r) {
      auto r = cm_length(args[1], c);
      if (!r) return;
      r1 = *r;
    } else {
      auto A = lpoint(args[1], c);
      if (!A) return;
      r1 = cm_rounded(norm(*A - *O));
    }
    Point M = 0.5 * (*O + *P);
    auto both = inter_ccr(*O, r1, M, cm_rounded(norm(*O - M)));
    if (!both) return unsupported("\\" + c.name + " from the circle's centre", c.b, c.e);
    define_local("tkzPointResult", M, c);  // \tkzDefMidPoint's, left behind
    define_pair(both->first, both->second, !(find_angle(*P, both->first, *O) < 180), c);
  }
  // tkz-obj-eu-lines.tex \tkzDefTangent[at=A](O), [from=P](O,A), [from with R=P](O,r).
  void def_tangent(const Command& c) {
    Variant v = variant(opts(c), {"at", "from", "from with R"});
    if (!only_keys(v, {}, c)) return;
    auto args = split_top(nth(c, '(')->text, ',');
    if (v.kind == "at" || v.kind.empty()) return tangent_at(v.value, args, c);
    return tangent_from(v.value, args, v.kind == "from with R", c);
  }

  // tkz-obj-eu-points-with.tex \tkzDefPointWith[variant, K=, normed](A,B): tkzPointResult from A
  // (or the `at` point) along A->B, or along A->B turned 90 degrees; normed: K cm long.
  void def_point_with(const Command& c) {
    Variant v = variant(opts(c), {"colinear", "orthogonal", "linear", "orthogonal normed", "linear normed",
                                  "colinear normed"});
    if (v.kind.empty()) v.kind = "orthogonal";
    if (!only_keys(v, {"K", "normed"}, c)) return;
    auto k = koeff(v, c);
    if (!k) return;
    auto args = split_top(nth(c, '(')->text, ',');
    if (args.size() != 2) return unsupported_command(c);
    auto p = lpoints(args, c);
    if (!p) return;
    Point A = (*p)[0], d = (*p)[1] - (*p)[0];
    bool unit = normed(v) || v.kind.find(" normed") != std::string::npos;
    Point from = A;
    if (v.kind.rfind("colinear", 0) == 0) {
      auto at = after_word(v.value, "at");
      if (!at) return unsupported_command(c);
      auto F = lpoint(*at, c);
      if (!F) return;
      from = *F;
    }
    if (v.kind.rfind("orthogonal", 0) == 0) d = rot90(d);
    if (unit) {
      double n = norm(d);
      if (n == 0) return unsupported("\\tkzDefPointWith of two equal points", c.b, c.e);
      d = (kPtPerCmTkz / n) * d;
    }
    define_local("tkzPointResult", from + *k * d, c);
  }

  // tkz-obj-eu-points.tex \tkzDefShiftPoint[O](coordinate){M}: \begin{scope}[shift={(O)}]
  // \coordinate (M) at (coordinate); -- the coordinate as TikZ reads it, moved by O.
  void def_shift_point(const Command& c) {
    const Arg* o = nth(c, '[');
    std::string name = trim(nth(c, '{')->text), xy = trim(nth(c, '(')->text);
    if (!o) return unsupported_command(c);
    std::string O = trim(o->text);
    if (!point(O, c)) {
      state_.unknown_points.insert(name);
      return;
    }
    // a name \tkzGetLength bound (\rOA) is its value, as in every number tkz reads here; a
    // result macro no modelled command bound is not known (reported, never read as 0)
    const std::string xy_values = with_results(xy);
    if (xy_values.find("\\tkz") != std::string::npos) {
      state_.unknown_points.insert(name);
      return unsupported("the coordinate '(" + xy + ")' of \\tkzDefShiftPoint", c.b, c.e);
    }
    auto at = host_.locate({}, "(" + xy_values + ")");
    auto zero = host_.locate({}, "(0,0)");
    if (!at || !zero) {
      state_.unknown_points.insert(name);
      return unsupported("the coordinate '(" + xy + ")' of \\tkzDefShiftPoint", c.b, c.e);
    }
    state_.unknown_points.erase(name);
    Point shifted = *host_.named_center(O) + (*at - *zero);
    emit("\\coordinate (" + name + ") at " + local(shifted) + ";", c);
  }

  // tkz-obj-eu-points-spc.tex \tkzDefPointOnCircle[through=center O angle a point M]: `\path (O)
  // --++(a:r) coordinate (tkzPointResult)`, r the radius |OM| in cm (\tkz@@CalcLengthcm, rounded
  // to 6 decimals) written without a unit, so TikZ's polar point runs along the x and y vectors;
  // `R=center O angle a radius r` takes r as written; `through in rad`, `R in rad` read the angle
  // in radians (pgfmath's `a r`). The path grows the picture by O and the point, as in TeX.
  void def_point_on_circle(const Command& c) {
    Variant v = variant(opts(c), {"through", "R", "through in rad", "R in rad"});
    if (v.kind.empty() || !v.keys.empty()) return unsupported_command(c);
    const bool by_point = v.kind.rfind("through", 0) == 0, radians = v.kind.find("in rad") != std::string::npos;
    // the key's `.code args={center #1 angle #2 point #3}` (radius #3 for R): TeX reads each
    // argument up to the next word of the pattern, spaces collapsed as TeX's tokenizer does
    std::string value;
    for (char ch : v.value) {
      const bool space = ch == ' ' || ch == '\t' || ch == '\n';
      if (space && (value.empty() || value.back() == ' ')) continue;
      value += space ? ' ' : ch;
    }
    const std::string last = by_point ? " point " : " radius ";
    const std::size_t a = value.find(" angle "), b = a == std::string::npos ? a : value.find(last, a + 7);
    if (value.rfind("center ", 0) != 0 || a == std::string::npos || b == std::string::npos) return unsupported_command(c);
    const std::string center = trim(value.substr(7, a - 7)), angle = trim(value.substr(a + 7, b - a - 7)),
                      third = trim(value.substr(b + last.size()));
    auto O = point(center, c);
    if (!O) return;
    auto deg = number(angle, c);
    if (!deg) return;
    if (radians) *deg /= kDeg;
    std::string radius;
    if (by_point) {
      auto M = lpoint(third, c), Ol = lpoint(center, c);
      if (!M || !Ol) return;
      radius = num(std::round(norm(*M - *Ol) / kPtPerCmTkz * 1e6) / 1e6);  // \tkz@@CalcLengthcm
    } else {
      radius = with_results(third);
    }
    auto at = host_.locate({}, "(" + num(*deg) + ":" + radius + ")");
    auto zero = host_.locate({}, "(0,0)");
    if (!at || !zero) return unsupported("the radius '" + third + "' of \\tkzDefPointOnCircle", c.b, c.e);
    state_.results_known = true;
    emit("\\path " + local(*O) + " -- " + local(*O + (*at - *zero)) + " coordinate (tkzPointResult);", c);
  }

  // tkz-tools-eu-math.tex \tkzCalcLength[cm](A,B): tkzLengthResult, which \tkzGetLength binds.
  void calc_length(const Command& c) {
    Options o = split_options(opts(c), {"cm"});
    if (!o.tikz.empty()) return unsupported("\\tkzCalcLength[" + o.tikz + "]", c.b, c.e);
    auto args = split_top(nth(c, '(')->text, ',');
    if (args.size() != 2) return unsupported_command(c);
    auto p = lpoints(args, c);
    if (!p) return;
    // \tkz@@CalcLength: pt rounded to 6 decimals; with `cm` (the default; \pgfqkeys outside the
    // command's group: `cm=false` holds for the later calls) that in cm, rounded again
    if (const auto* cm = o.get("cm")) state_.length_in_cm = cm->empty() || *cm == "true";
    double pt = std::round(norm((*p)[1] - (*p)[0]) * 1e6) / 1e6;
    state_.length_result = state_.length_in_cm ? std::round(pt / kPtPerCmTkz * 1e6) / 1e6 : pt;
  }
  // tkz-obj-eu-points-with.tex \tkzDuplicateSegment(A,B)(C,D): C + |AB|/|CD| (D - C) (\tkz@VecKCoLinear);
  // tkz-obj-eu-points-spc.tex \tkzDefGoldenRatio(A,B): A + 0.618034 (B - A) (\tkzInvPhi).
  void duplicate(const Command& c) {
    if (c.name == "tkzDefGoldenRatio") {
      auto args = split_top(nth(c, '(')->text, ',');
      if (args.size() != 2) return unsupported_command(c);
      auto p = lpoints(args, c);
      if (!p) return;
      return define_local("tkzPointResult", (*p)[0] + 0.618034 * ((*p)[1] - (*p)[0]), c);
    }
    auto ab = split_top(nth(c, '(', 0)->text, ','), cd = split_top(nth(c, '(', 1)->text, ',');
    if (ab.size() != 2 || cd.size() != 2) return unsupported_command(c);
    auto p = lpoints(ab, c), q = lpoints(cd, c);
    if (!p || !q) return;
    double first = std::round(norm((*p)[1] - (*p)[0]) * 1e6) / 1e6, second = std::round(norm((*q)[1] - (*q)[0]) * 1e6) / 1e6;
    if (second == 0) return unsupported("\\" + c.name + " onto two equal points", c.b, c.e);
    define_local("tkzPointResult", (*q)[0] + (first / second) * ((*q)[1] - (*q)[0]), c);
  }
  // tkz-obj-eu-draw-circles.tex \tkzLabelCircle[#1](O,A)(angle){text}: A turned about O by the
  // angle (\tkzURotateAngle), labelled there: \node[label style,#1] at (..) {text}.
  void label_circle(const Command& c) {
    auto oa = split_top(nth(c, '(', 0)->text, ',');
    if (oa.size() != 2) return unsupported_command(c);
    auto p = lpoints(oa, c);
    auto a = number(nth(c, '(', 1)->text, c);
    if (!p || !a) return;
    Point at = (*p)[0] + rotated((*p)[1] - (*p)[0], *a);
    emit("\\node[" + with("label style", opts(c)) + "] at (" + num(at.x) + "pt," + num(at.y) + "pt) {" + nth(c, '{')->text +
             "};",
         c);
  }

  // tkz-tools-eu-angles.tex \tkzFindAngle(A,O,B): tkzAngleResult, from O->A counterclockwise to
  // O->B in [0, 360); \tkzFindSlopeAngle(A,B): the direction of A->B (pgfmathanglebetweenpoints).
  void find_angle_cmd(const Command& c) {
    auto args = split_top(nth(c, '(')->text, ',');
    const bool three = c.name == "tkzFindAngle";
    if (args.size() != (three ? 3u : 2u)) return unsupported_command(c);
    state_.angle_result.reset();
    auto p = lpoints(args, c);
    if (!p) return;
    state_.angle_result = three ? find_angle((*p)[0], (*p)[1], (*p)[2]) : slope((*p)[0], (*p)[1]);
  }

  // tkz-obj-eu-draw-angles.tex \tkzDrawArc[towards|rotate|angles|R|R with nodes, delta, reverse]
  // and tkz-obj-eu-sectors.tex \tkzDrawSector / \tkzFillSector[towards|rotate|R|R with nodes]:
  // the centre, the radius as tkz writes it in `(a:r)`, and the two angles (degrees).
  struct ArcSpec {
    std::string centre, radius;
    double first = 0, second = 0;
  };
  std::optional<ArcSpec> arc_spec(const std::string& kind, bool sector, const Command& c) {
    auto a1 = split_top(nth(c, '(', 0)->text, ','), a2 = split_top(nth(c, '(', 1)->text, ',');
    ArcSpec s;
    if (a1.size() != 2) {
      unsupported_command(c);
      return std::nullopt;
    }
    s.centre = a1[0];
    auto O = lpoint(a1[0], c);
    if (!O) return std::nullopt;
    // the radius of towards / rotate / angles: |OA| in local pt (an arc) or cm (a sector)
    auto radius_to = [&](const std::string& through) -> bool {
      auto A = lpoint(through, c);
      if (!A) return false;
      double r = norm(*A - *O);
      s.radius = sector ? num(std::round(r / kPtPerCmTkz * 1e6) / 1e6) : num(r) + "pt";
      return true;
    };
    auto slope_to = [&](const std::string& to) -> std::optional<double> {
      auto B = lpoint(to, c);
      if (!B) return std::nullopt;
      return slope(*O, *B);
    };
    if (kind == "towards" && a2.size() == 1) {
      if (!radius_to(a1[1])) return std::nullopt;
      auto f = slope_to(a1[1]), t = slope_to(a2[0]);
      if (!f || !t) return std::nullopt;
      s.first = *f;
      s.second = *t;
    } else if (kind == "rotate" && a2.size() == 1) {
      if (!radius_to(a1[1])) return std::nullopt;
      auto f = slope_to(a1[1]);
      auto by = number(a2[0], c);
      if (!f || !by) return std::nullopt;
      s.first = *by > 0 ? *f : *f + *by;
      s.second = *by > 0 ? *f + *by : *f;
    } else if (kind == "angles" && !sector && a2.size() == 2) {
      if (!radius_to(a1[1])) return std::nullopt;
      auto f = number(a2[0], c), t = number(a2[1], c);
      if (!f || !t) return std::nullopt;
      s.first = *f;
      s.second = *t;
    } else if (kind == "R" && a2.size() == 2) {
      s.radius = with_results(a1[1]);
      if (!number(a1[1], c)) return std::nullopt;
      auto f = number(a2[0], c), t = number(a2[1], c);
      if (!f || !t) return std::nullopt;
      s.first = *f;
      s.second = *t;
    } else if (kind == "R with nodes" && a2.size() == 2) {
      s.radius = with_results(a1[1]);
      if (!number(a1[1], c)) return std::nullopt;
      auto f = slope_to(a2[0]), t = slope_to(a2[1]);
      if (!f || !t) return std::nullopt;
      s.first = *f;
      s.second = *t;
    } else {
      unsupported("\\" + c.name + "[" + kind + "] of '" + nth(c, '(', 1)->text + "'", c.b, c.e);
      return std::nullopt;
    }
    // \tkzNormalizeAngle: the arc runs counterclockwise from the first angle to the second
    if (s.first > 0) {
      if (s.first > s.second) s.first -= 360;
    } else if (s.first > s.second) {
      s.second += 360;
    }
    return s;
  }

  void draw_arc(const Command& c) {
    Options o = split_options(opts(c), {"towards", "rotate", "angles", "R", "R with nodes", "type", "delta", "reverse",
                                        "diameter", "arc", "size", "mark", "mkpos", "mksize", "mkcolor"});
    std::string kind = "towards";
    for (const auto& [k, v] : o.own)
      if (k == "towards" || k == "rotate" || k == "angles" || k == "R" || k == "R with nodes") kind = k;
      else if (k == "type") kind = v.empty() ? "towards" : v;
    double delta = state_.compass_delta;
    if (const auto* d = o.get("delta")) {
      auto v = number(*d, c);
      if (!v) return;
      delta = *v;
    }
    auto s = arc_spec(kind, false, c);
    if (!s) return;
    double f = s->first - delta, t = s->second + delta;
    if (const auto* r = o.get("reverse"); r && (r->empty() || *r == "true")) std::swap(f, t);
    emit("\\draw[" + with("shift={(" + s->centre + ")},arc style", o.tikz) + "] (" + num(f) + ":" + s->radius +
             ") arc (" + num(f) + ":" + num(t) + ":" + s->radius + ");",
         c);
  }

  // \draw[shift={(O)},#1] (O) -- (a1:r) arc (a1:a2:r) -- cycle: (O) names the point, which the
  // shift does not move.
  void sector(const Command& c) {
    bool fill = c.name == "tkzFillSector";
    Options o = split_options(opts(c), {"towards", "rotate", "R", "R with nodes"});
    std::string kind = "towards";
    for (const auto& [k, v] : o.own) kind = k;
    auto s = arc_spec(kind, true, c);
    if (!s) return;
    std::string f = num(s->first), t = num(s->second);
    emit(std::string(fill ? "\\fill[" : "\\draw[") + with("shift={(" + s->centre + ")}", o.tikz) + "] (" + s->centre +
             ") -- (" + f + ":" + s->radius + ") arc (" + f + ":" + t + ":" + s->radius + ") -- cycle;",
         c);
  }

  // tkz-tools-eu-base.tex \tkzInit[xmin, xmax, xstep, ymin, ymax, ystep]: the window \tkzClip
  // clips to, in steps; an axis whose ends have one sign starts at its xmin (the origin
  // \tkzDefPoint subtracts). It draws nothing.
  void init(const Command& c) {
    Options o = split_options(opts(c), {"xmin", "xmax", "xstep", "ymin", "ymax", "ystep", "NO"});
    if (!o.tikz.empty()) return unsupported("\\tkzInit[" + o.tikz + "]", c.b, c.e);
    auto get = [&](std::string_view k, double dflt) -> std::optional<double> {
      const auto* v = o.get(k);
      return v ? number(*v, c) : std::optional<double>(dflt);
    };
    auto xmin = get("xmin", 0), xmax = get("xmax", 10), xstep = get("xstep", 1);
    auto ymin = get("ymin", 0), ymax = get("ymax", 10), ystep = get("ystep", 1);
    if (!xmin || !xmax || !xstep || !ymin || !ymax || !ystep) return;
    if (*xstep == 0 || *ystep == 0) return unsupported("\\tkzInit with a step of 0", c.b, c.e);
    auto sign = [](double v) { return v > 0 ? 1 : v < 0 ? -1 : 0; };
    bool same_x = sign(*xmin) == sign(*xmax), same_y = sign(*ymin) == sign(*ymax);
    Init in;
    in.xmin = *xmin, in.xmax = *xmax, in.ymin = *ymin, in.ymax = *ymax;
    in.xstep = *xstep;
    in.ystep = *ystep;
    if (same_x || same_y) {
      if (same_x) {
        *xmax -= *xmin;
        in.xorigin = *xmin;
        *xmin = 0;
      }
      if (same_y) {
        *ymax -= *ymin;
        in.yorigin = *ymin;
        *ymin = 0;
      }
    }
    in.xa = *xmin / *xstep;
    in.xb = *xmax / *xstep;
    in.ya = *ymin / *ystep;
    in.yb = *ymax / *ystep;
    state_.init = in;
  }
  // tkz-obj-eu-axesmin.tex \tkzDrawX[opts] / \tkzDrawY[opts]: the axis over \tkzInit's window,
  // `left space` (0) before it and `right space` (.5) after it (`down space`, `up space` for y):
  // `\path (a,0)--(b,0) node(tkz@xline){}` (an empty node at its end grows the picture), then
  // `\draw[xaxe style,color,#1] (a,0)--(b,0) node[xlabel style,#1]{label}` (label $x$ / $y$).
  // Ticks (`noticks=false`) are not modelled.
  void draw_axis(const Command& c) {
    const bool x = c.name == "tkzDrawX";
    Options o = split_options(opts(c), {"color", "label", "right space", "left space", "up space", "down space",
                                        "step", "noticks", "tickwd", "tickup", "tickdn", "ticklt", "tickrt"});
    if (const auto* t = o.get("noticks"); t && !t->empty() && *t != "true")
      return unsupported("\\" + c.name + "[noticks=" + *t + "] (ticks)", c.b, c.e);
    auto space = [&](const char* key, double dflt) -> std::optional<double> {
      const auto* v = o.get(key);
      return v ? number(*v, c) : std::optional<double>(dflt);
    };
    auto before = space(x ? "left space" : "down space", 0), after = space(x ? "right space" : "up space", 0.5);
    if (!before || !after) return;
    const Init& in = state_.init;
    const double a = (x ? in.xa : in.ya) - *before, b = (x ? in.xb : in.yb) + *after;
    auto at = [&](double v) { return x ? "(" + num(v) + ",0)" : "(0," + num(v) + ")"; };
    std::string label = o.get("label") ? *o.get("label") : (x ? "$x$" : "$y$");
    std::string style = x ? "xaxe style" : "yaxe style";
    if (const auto* col = o.get("color")) style = with(style, "color=" + *col);
    emit("\\path " + at(a) + "--" + at(b) + " node{};", c);
    emit("\\draw[" + with(style, o.tikz) + "] " + at(a) + "--" + at(b) + " node[" +
             with(x ? "xlabel style" : "ylabel style", o.tikz) + "]{" + label + "};",
         c);
  }
  // tkz-tools-eu-utilities.tex \tkzClip[space=s]: \clip the \tkzInit window (grown by s).
  void clip(const Command& c) {
    Options o = split_options(opts(c), {"space"});
    if (!o.tikz.empty()) return unsupported("\\tkzClip[" + o.tikz + "]", c.b, c.e);
    double sp = 0;
    if (const auto* s = o.get("space")) {
      auto v = number(*s, c);
      if (!v) return;
      sp = *v;
    }
    const Init& in = state_.init;
    emit("\\clip (" + num(in.xa - sp) + "," + num(in.ya - sp) + ") rectangle (" + num(in.xb + sp) + "," +
             num(in.yb + sp) + ");",
         c);
  }

  // tkz-obj-eu-grids.tex \tkzGrid[sub, subxstep, subystep, color, ratio, line width](xa,ya)(xb,yb):
  // `\draw (gxa,gya) grid (gxb,gyb)` at TikZ's 1cm step, g = (corner - origin) / step of \tkzInit,
  // the corners \tkzInit's xmin..ymax as written by default; with `sub` first a finer grid at
  // subxstep / xstep cm. The lines' widths grow the picture (0.4pt, `line width`; the sub grid's
  // 0.75pt); colours change no geometry; other TikZ keys are not modelled.
  void grid(const Command& c) {
    Options o = split_options(opts(c), {"sub", "subxstep", "subystep", "color", "ratio", "line width"});
    for (const std::string& k : split_top(o.tikz, ','))
      if (!trim(k).empty() && (k.find('=') != std::string::npos || trim(k).find(' ') != std::string::npos))
        return unsupported("\\tkzGrid[" + trim(k) + "]", c.b, c.e);
    Grid& g = state_.grid;
    if (const auto* v = o.get("sub")) g.sub = v->empty() || trim(*v) == "true";
    if (const auto* v = o.get("subxstep")) g.subxstep = *v;
    if (const auto* v = o.get("subystep")) g.subystep = *v;
    if (const auto* v = o.get("line width")) g.line_width = trim(*v);
    const Init& in = state_.init;
    double x0 = in.xmin, y0 = in.ymin, x1 = in.xmax, y1 = in.ymax;
    const Arg* a = nth(c, '(', 0);
    const Arg* b = nth(c, '(', 1);
    if (a || b) {
      if (!a || !b) return unsupported_command(c);
      auto p = split_top(a->text, ','), q = split_top(b->text, ',');
      if (p.size() != 2 || q.size() != 2) return unsupported_command(c);
      auto px = number(p[0], c), py = number(p[1], c), qx = number(q[0], c), qy = number(q[1], c);
      if (!px || !py || !qx || !qy) return;
      x0 = *px, y0 = *py, x1 = *qx, y1 = *qy;
    }
    const std::string corners = "(" + num((x0 - in.xorigin) / in.xstep) + "," + num((y0 - in.yorigin) / in.ystep) +
                                ") grid (" + num((x1 - in.xorigin) / in.xstep) + "," +
                                num((y1 - in.yorigin) / in.ystep) + ");";
    if (g.sub) {
      auto sx = number(g.subxstep, c), sy = number(g.subystep, c);
      if (!sx || !sy) return;
      // its width is \tkzRatioLineGrid as written, 0.75 (pt), whatever `line width` says
      emit("\\draw[xstep=" + num(*sx / in.xstep) + "cm, ystep=" + num(*sy / in.ystep) + "cm, line width=0.75pt] " +
               corners,
           c);
    }
    emit("\\draw[line width=" + g.line_width + "] " + corners, c);
  }

  // tkz-tools-eu-BB.tex \tkzClipBB / \tkzShowBB[#1]: the picture's box so far, clipped to or drawn.
  void bounding_box(const Command& c) {
    std::string box = "(current bounding box.south west) rectangle (current bounding box.north east);";
    if (c.name == "tkzClipBB") emit("\\clip " + box, c);
    else emit("\\draw[" + opts(c) + "] " + box, c);
  }
  // tkz-obj-eu-draw-circles.tex \tkzClipCircle(O,A): \clip (O) circle (|OA| pt); `out` clips to
  // the outside (a reversed clip), not modelled.
  void clip_circle(const Command& c) {
    if (!trim(opts(c)).empty()) return unsupported("\\tkzClipCircle[" + opts(c) + "]", c.b, c.e);
    auto args = split_top(nth(c, '(')->text, ',');
    if (args.size() != 2) return unsupported_command(c);
    auto p = lpoints(args, c);
    if (!p) return;
    emit("\\clip (" + args[0] + ") circle (" + num(norm((*p)[1] - (*p)[0])) + "pt);", c);
  }

  // tkz-obj-eu-triangles.tex \tkzDefTriangle[kind, swap](A,B): the third vertex, tkzPointResult.
  // tkz's constants (tkz-euclide.cfg): \tkzPhi 1.618034, \tkzInvPhi 0.618034, \tkzSqrtPhi
  // 1.27202, \tkzSqrTwobyTwo 0.7071065.
  void def_triangle(const Command& c) {
    Variant v = variant(opts(c), {"equilateral", "half", "two one", "pythagore", "pythagoras", "right", "egyptian",
                                  "school", "golden", "sublime", "euclid", "euclide", "gold", "cheops", "two angles",
                                  "isosceles right"});
    if (v.kind.empty()) v.kind = "equilateral";
    if (!only_keys(v, {"swap"}, c)) return;
    const auto* sw = v.get("swap");
    const bool swap = sw && (sw->empty() || *sw == "true");
    auto args = split_top(nth(c, '(')->text, ',');
    if (args.size() != 2) return unsupported_command(c);
    auto p = lpoints(args, c);
    if (!p) return;
    Point A = (*p)[0], B = (*p)[1];
    // \tkzDefPointWith[K=k](B,A): B + k (A - B) turned 90 degrees
    auto with_k = [&](double k) { return B + k * rot90(A - B); };
    auto turn = [&](Point centre, Point q, double deg) { return centre + rotated(q - centre, deg); };
    const std::string& k = v.kind;
    std::optional<Point> r;
    if (k == "equilateral") r = turn(A, B, 60);
    else if (k == "half" || k == "two one") r = with_k(swap ? -.5 : .5);
    else if (k == "pythagore" || k == "pythagoras" || k == "right" || k == "egyptian") r = with_k(swap ? -.75 : .75);
    else if (k == "school") r = lines_cross(A, turn(A, B, swap ? -30 : 30), B, with_k(1));
    else if (k == "golden" || k == "sublime") r = A + 1.618034 * (turn(A, B, 72) - A);
    else if (k == "euclid" || k == "euclide") r = turn(A, B, swap ? 36 : -36);
    else if (k == "gold") r = with_k(swap ? -0.618034 : 0.618034);
    else if (k == "cheops") {
      Point M = 0.5 * (A + B);
      r = M + -1.27202 * rot90(A - M);
    } else if (k == "isosceles right") {
      r = A + 0.7071065 * (turn(A, B, 45) - A);
    } else if (k == "two angles") {
      auto pos = v.value.find(" and ");
      if (pos == std::string::npos) return unsupported_command(c);
      auto a = number(trim(v.value.substr(0, pos)), c), b = number(trim(v.value.substr(pos + 5)), c);
      if (!a || !b) return;
      r = lines_cross(A, turn(A, B, *a), B, turn(B, A, -*b));
    }
    if (!r) return unsupported("\\tkzDefTriangle[" + k + "] whose sides do not meet", c.b, c.e);
    define_local("tkzPointResult", *r, c);
  }

  // tkz-obj-eu-polygons.tex \tkzDefSquare(A,B): A turned -90 degrees about B, B turned 90 about
  // A; \tkzDefParallelogram(A,B,C): C + (A - B); \tkzDefRectangle(A,B): `\path (A) -|
  // coordinate (first) (B) -| coordinate (second) (A)`, whose points grow the picture.
  void def_polygon(const Command& c) {
    auto args = split_top(nth(c, '(')->text, ',');
    const bool par = c.name == "tkzDefParallelogram";
    if (args.size() != (par ? 3u : 2u) || (c.name != "tkzDefRectangle" && !trim(opts(c)).empty()))
      return unsupported_command(c);
    auto p = lpoints(args, c);
    if (!p) return;
    Point A = (*p)[0], B = (*p)[1];
    if (par) return define_local("tkzPointResult", (*p)[2] + (A - B), c);
    if (c.name == "tkzDefSquare") {
      define_local("tkzFirstPointResult", B + rotated(A - B, -90), c);
      define_local("tkzSecondPointResult", A + rotated(B - A, 90), c);
      return;
    }
    if (!trim(opts(c)).empty()) return unsupported("\\tkzDefRectangle[" + opts(c) + "]", c.b, c.e);
    define_local("tkzFirstPointResult", {B.x, A.y}, c);
    define_local("tkzSecondPointResult", {A.x, B.y}, c);
    emit("\\path (" + args[0] + ") -- (tkzFirstPointResult) -- (" + args[1] + ") -- (tkzSecondPointResult);", c);
  }

  // The excentre opposite vertex i of the triangle t (weights a, b, c with that one negated).
  static std::optional<Point> excenter(const std::vector<Point>& t, int i) {
    double w[3] = {norm(t[2] - t[1]), norm(t[0] - t[2]), norm(t[1] - t[0])};
    w[i] = -w[i];
    return weighted(t[0], w[0], t[1], w[1], t[2], w[2]);
  }
  static std::optional<Point> orthocenter(Point A, Point B, Point C) {
    auto hb = foot(A, C, B), hc = foot(A, B, C);
    if (!hb || !hc) return std::nullopt;
    return lines_cross(B, *hb, C, *hc);
  }

  // tkz-obj-eu-points-spc.tex \tkzDefTriangleCenter[kind](A,B,C): tkzPointResult, computed by
  // tkz's own construction of each centre.
  void def_triangle_center(const Command& c) {
    Variant v = variant(opts(c), {"ortho", "orthic", "centroid", "median", "circum", "in", "ex", "euler", "symmedian",
                                  "lemoine", "grebe", "spieker", "gergonne", "nagel", "mittenpunkt", "feuerbach"});
    if (v.kind.empty()) v.kind = "circum";
    if (!only_keys(v, {}, c)) return;
    auto args = split_top(nth(c, '(')->text, ',');
    if (args.size() != 3) return unsupported_command(c);
    auto p = lpoints(args, c);
    if (!p) return;
    const std::vector<Point>& t = *p;
    Point A = t[0], B = t[1], C = t[2];
    auto mid = [](Point a, Point b) { return 0.5 * (a + b); };
    const std::string& k = v.kind;
    std::optional<Point> r;
    if (k == "ortho" || k == "orthic") r = orthocenter(A, B, C);
    else if (k == "centroid" || k == "median") r = (1.0 / 3) * (A + B + C);
    else if (k == "circum") r = circumcenter(A, B, C);
    else if (k == "in") r = incenter(A, B, C);
    else if (k == "ex") r = excenter(t, 1);
    else if (k == "euler") r = circumcenter(mid(B, C), mid(A, C), mid(A, B));
    else if (k == "spieker") r = incenter(mid(B, C), mid(A, C), mid(A, B));
    else if (k == "symmedian" || k == "lemoine" || k == "grebe") {
      auto ha = foot(B, C, A), hb = foot(A, C, B);
      if (ha && hb) r = lines_cross(mid(B, C), mid(A, *ha), mid(A, C), mid(B, *hb));
    } else if (k == "gergonne") {
      auto I = incenter(A, B, C);
      if (I) {
        auto ta = foot(B, C, *I), tb = foot(A, C, *I);
        if (ta && tb) r = lines_cross(A, *ta, B, *tb);
      }
    } else if (k == "nagel") {
      auto ea = excenter(t, 0), ec = excenter(t, 2);
      if (ea && ec) {
        auto ta = foot(B, C, *ea), tc = foot(A, B, *ec);
        if (ta && tc) r = lines_cross(A, *ta, C, *tc);
      }
    } else if (k == "mittenpunkt") {
      auto ec = excenter(t, 2), ea = excenter(t, 0);
      if (ec && ea) r = lines_cross(*ec, mid(A, B), *ea, mid(B, C));
    } else {
      return unsupported("\\tkzDefTriangleCenter[" + k + "]", c.b, c.e);
    }
    if (!r) return unsupported("\\tkzDefTriangleCenter[" + k + "] of points on one line", c.b, c.e);
    define_local("tkzPointResult", *r, c);
  }

  // tkz-obj-eu-triangles.tex \tkzDefSpcTriangle[kind, name=N](A,B,C){a,b,c}: three points named
  // N a, N b, N c; the i-th belongs to vertex i (its foot, its midpoint of the other two...).
  void def_spc_triangle(const Command& c) {
    Variant v = variant(opts(c), {"in", "incentral", "ex", "excentral", "extouch", "intouch", "contact", "centroid",
                                  "medial", "orthic", "ortho", "feuerbach", "euler", "tangential", "symmedial"});
    if (v.kind.empty()) v.kind = "centroid";
    std::string prefix;
    if (const auto* n = v.get("name")) prefix = *n;
    auto args = split_top(nth(c, '(')->text, ',');
    auto names = split_top(nth(c, '{')->text, ',');
    auto forget = [&] {
      for (const auto& n : names) state_.unknown_points.insert(prefix + n);
    };
    if (!only_keys(v, {"name"}, c) || args.size() != 3 || names.size() != 3) {
      forget();
      if (args.size() != 3 || names.size() != 3) unsupported_command(c);
      return;
    }
    auto p = lpoints(args, c);
    if (!p) return forget();
    const std::vector<Point>& t = *p;
    const std::string& k = v.kind;
    std::vector<std::optional<Point>> r(3);
    auto I = incenter(t[0], t[1], t[2]);
    auto H = orthocenter(t[0], t[1], t[2]);
    auto O = circumcenter(t[0], t[1], t[2]);
    for (int i = 0; i < 3; ++i) {
      Point P = t[i], Q = t[(i + 1) % 3], R = t[(i + 2) % 3];
      if (k == "in" || k == "incentral") {
        // the bisector at P (\tkzDefBisectorLine) meets the opposite side
        double qr = norm(R - P);
        if (qr > 0) {
          Point D = P + (norm(Q - P) / qr) * (R - P);
          r[i] = lines_cross(Q, R, P, 0.5 * (D + Q));
        }
      } else if (k == "ex" || k == "excentral") {
        r[i] = excenter(t, i);
      } else if (k == "intouch" || k == "contact") {
        if (I) r[i] = foot(Q, R, *I);
      } else if (k == "extouch") {
        auto e = excenter(t, i);
        if (e) r[i] = foot(Q, R, *e);
      } else if (k == "centroid" || k == "medial") {
        r[i] = 0.5 * (Q + R);
      } else if (k == "orthic" || k == "ortho") {
        r[i] = foot(Q, R, P);
      } else if (k == "euler") {
        if (H) r[i] = 0.5 * (P + *H);
      } else if (k == "tangential") {
        // the tangents to the circumcircle at Q and R meet
        if (O) r[i] = lines_cross(Q, Q + rot90(Q - *O), R, R + rot90(R - *O));
      } else {
        forget();
        return unsupported("\\tkzDefSpcTriangle[" + k + "]", c.b, c.e);
      }
    }
    for (const auto& x : r)
      if (!x) {
        forget();
        return unsupported("\\tkzDefSpcTriangle[" + k + "] of points on one line", c.b, c.e);
      }
    for (int i = 0; i < 3; ++i) {
      state_.unknown_points.erase(prefix + names[i]);
      emit("\\coordinate (" + prefix + names[i] + ") at (" + num(r[i]->x) + "pt," + num(r[i]->y) + "pt);", c);
    }
  }

  // tkz-obj-eu-points-by.tex's transformations (`rotation=center O angle a`, `homothety=center O
  // ratio k`, `symmetry=center O`, `translation=from A to B`, `reflection=over A--B`,
  // `projection=onto A--B`, `rotation in rad=center O angle a`, `inversion=center O through A`,
  // `inversion negative=...`, `rotation with nodes=center O from A to B`), read from the option text.
  struct Transformation {
    std::string kind;
    std::vector<std::string> words;
    std::optional<Point> centre;  // symmetry: tkz's \path runs from it (the picture grows by it)
  };
  std::optional<Transformation> transformation(const Command& c) {
    std::string o = trim(opts(c));
    auto eq = o.find('=');
    if (eq == std::string::npos) {
      unsupported_command(c);
      return std::nullopt;
    }
    Transformation t;
    t.kind = trim(o.substr(0, eq));
    std::string spec = trim(o.substr(eq + 1));
    if (spec.size() >= 2 && spec.front() == '{' && spec.back() == '}') spec = trim(spec.substr(1, spec.size() - 2));
    std::size_t i = 0;
    while (i < spec.size()) {
      while (i < spec.size() && spec[i] == ' ') ++i;
      std::size_t j = i;
      int depth = 0;
      while (j < spec.size() && (spec[j] != ' ' || depth > 0)) {
        if (spec[j] == '{') ++depth;
        if (spec[j] == '}') --depth;
        ++j;
      }
      if (j > i) t.words.push_back(spec.substr(i, j - i));
      i = j;
    }
    return t;
  }
  // The image of P (canvas pt); nullopt when a point is unknown or the transformation is not
  // modelled (reported).
  std::optional<Point> image(Transformation& t, Point P, const Command& c) {
    const auto& w = t.words;
    const std::string& kind = t.kind;
    auto line = [&](const std::string& s) -> std::optional<std::pair<Point, Point>> {
      auto dash = s.find("--");
      if (dash == std::string::npos) return std::nullopt;
      auto a = point(trim(s.substr(0, dash)), c), b = point(trim(s.substr(dash + 2)), c);
      if (!a || !b) return std::nullopt;
      return std::make_pair(*a, *b);
    };
    if ((kind == "rotation" || kind == "rotation in rad") && w.size() == 4 && w[0] == "center" && w[2] == "angle") {
      auto O = point(w[1], c);
      auto a = number(w[3], c);
      if (!O || !a) return std::nullopt;
      return *O + rotated(P - *O, kind == "rotation" ? *a : *a / kDeg);
    }
    if (kind == "rotation with nodes" && w.size() == 6 && w[0] == "center" && w[2] == "from" && w[4] == "to") {
      auto O = point(w[1], c), A = point(w[3], c), B = point(w[5], c);
      if (!O || !A || !B) return std::nullopt;
      return *O + rotated(P - *O, find_angle(*A, *O, *B));
    }
    if (kind == "homothety" && w.size() == 4 && w[0] == "center" && w[2] == "ratio") {
      auto O = point(w[1], c);
      auto k = number(w[3], c);
      if (!O || !k) return std::nullopt;
      return *O + *k * (P - *O);
    }
    if (kind == "symmetry" && w.size() == 2 && w[0] == "center") {
      auto O = point(w[1], c);
      if (!O) return std::nullopt;
      t.centre = O;
      return 2 * *O - P;
    }
    if (kind == "translation" && w.size() == 4 && w[0] == "from" && w[2] == "to") {
      auto A = point(w[1], c), B = point(w[3], c);
      if (!A || !B) return std::nullopt;
      return P + (*B - *A);
    }
    if ((kind == "inversion" || kind == "inversion negative") && w.size() == 4 && w[0] == "center" &&
        w[2] == "through") {
      // \tkzUInversePoint: on the ray O->P at |OA|^2 / |OP| (the negative one: the other way)
      auto O = point(w[1], c), A = point(w[3], c);
      if (!O || !A) return std::nullopt;
      double op = norm(P - *O);
      if (op == 0) {
        unsupported("\\" + c.name + "[" + kind + "] of its own centre", c.b, c.e);
        return std::nullopt;
      }
      double k = norm(*A - *O) * norm(*A - *O) / (op * op);
      return *O + (kind == "inversion" ? k : -k) * (P - *O);
    }
    if ((kind == "projection" && w.size() == 2 && w[0] == "onto") ||
        (kind == "reflection" && w.size() == 2 && w[0] == "over")) {
      auto l = line(w[1]);
      if (!l) return std::nullopt;
      auto [A, B] = *l;
      auto f = foot(A, B, P);
      if (!f) {
        unsupported("\\" + c.name + " onto a line of two equal points", c.b, c.e);
        return std::nullopt;
      }
      if (kind == "projection") return *f;
      return 2 * *f - P;
    }
    unsupported("\\" + c.name + "[" + kind + "=...]", c.b, c.e);
    return std::nullopt;
  }

  // tkz-obj-eu-points-by.tex \tkzDefPointBy[transformation](P): the image of P as tkzPointResult.
  // \tkzUCSym (symmetry) writes it as `\path (O)--++(..) coordinate`, outside
  // \pgfinterruptboundingbox: the picture grows by the centre and the image; the others do not.
  void def_point_by(const Command& c) {
    auto t = transformation(c);
    if (!t) return;
    auto P = point(trim(nth(c, '(')->text), c);
    if (!P) return;
    auto img = image(*t, *P, c);
    if (!img) return;
    if (t->centre) {
      state_.results_known = true;
      emit("\\path " + local(*t->centre) + " -- " + local(*img) + " coordinate (tkzPointResult);", c);
      return;
    }
    define("tkzPointResult", *img, c);
  }
  // tkz-obj-eu-circles-by.tex \tkzDefCircleBy[transformation](O,A): the image of the circle about
  // O through A. translation / homothety / reflection / symmetry / rotation: tkzFirstPointResult
  // the image of O, tkzSecondPointResult (and tkzPointResult) the image of A, as \tkzDefPointBy
  // gives them (symmetry's \tkzUCSym grows the picture by the centre and each image).
  // inversion (\tkzDefInversionCircle): |OA| and |O C| (C the inversion's centre) in cm closer
  // than 1 (tkz compares them as pt): the images of A turned by -90 degrees about O and of A; else
  // the circle through the images of A turned by +90 and -90 degrees and of A, as \tkzDefCircle
  // [circum] gives it (its centre first, then the image of A). inversion negative: those turned
  // by half a turn about the inversion's centre (\tkzUCSym).
  void def_circle_by(const Command& c) {
    state_.length_result.reset();
    auto args = split_top(nth(c, '(')->text, ',');
    if (args.size() != 2) return unsupported_command(c);
    auto t = transformation(c);
    if (!t) return;
    const std::string kind = t->kind;
    if (kind != "translation" && kind != "homothety" && kind != "reflection" && kind != "symmetry" &&
        kind != "rotation" && kind != "inversion" && kind != "inversion negative")
      return unsupported("\\tkzDefCircleBy[" + kind + "=...]", c.b, c.e);
    auto O = point(args[0], c), A = point(args[1], c);
    if (!O || !A) return;
    auto sym_path = [&](Point centre, Point img, const char* name) {
      emit("\\path " + local(centre) + " -- " + local(img) + " coordinate (" + name + ");", c);
    };
    if (kind != "inversion" && kind != "inversion negative") {
      auto first = image(*t, *O, c);
      if (!first) return;
      auto second = image(*t, *A, c);
      if (!second) return;
      state_.results_known = true;
      if (t->centre) {
        sym_path(*t->centre, *first, "tkzFirstPointResult");
        sym_path(*t->centre, *second, "tkzSecondPointResult");
      } else {
        define("tkzFirstPointResult", *first, c);
        define("tkzSecondPointResult", *second, c);
      }
      emit("\\coordinate (tkzPointResult) at (tkzSecondPointResult);", c);
      return;
    }
    // the inversion's centre and the point it passes through
    const auto& w = t->words;
    if (w.size() != 4 || w[0] != "center" || w[2] != "through") return unsupported_command(c);
    auto C = point(w[1], c);
    if (!C) return;
    Transformation inv = *t;
    inv.kind = "inversion";
    auto turned = [&](double deg) { return *O + rotated(*A - *O, deg); };
    const double lna = cm_rounded(norm(*A - *O)) / kPtPerCmTkz, lnb = cm_rounded(norm(*C - *O)) / kPtPerCmTkz;
    std::optional<Point> first, second;
    if (std::round(std::abs(lnb - lna) * 1e6) / 1e6 < 1) {
      first = image(inv, turned(-90), c);
      if (!first) return;
      second = image(inv, *A, c);
      if (!second) return;
    } else {
      auto p1 = image(inv, turned(90), c);
      if (!p1) return;
      auto p2 = image(inv, turned(-90), c);
      if (!p2) return;
      auto p3 = image(inv, *A, c);
      if (!p3) return;
      first = circumcenter(*p3, *p1, *p2);
      if (!first) return unsupported("\\tkzDefCircleBy[inversion] onto points on one line", c.b, c.e);
      second = p3;
    }
    state_.results_known = true;
    if (kind == "inversion negative") {
      sym_path(*C, 2 * *C - *first, "tkzFirstPointResult");
      sym_path(*C, 2 * *C - *second, "tkzSecondPointResult");
    } else {
      define("tkzFirstPointResult", *first, c);
      define("tkzSecondPointResult", *second, c);
    }
    emit("\\coordinate (tkzPointResult) at (tkzSecondPointResult);", c);
  }
  // \tkzDefPointsBy[transformation](A,B,...){A',B',...}: each image named by the list, or by the
  // point's name and a prime when the list is empty or shorter (\tkz@LastList runs out).
  void def_points_by(const Command& c) {
    auto pts = foreach_points(split_top(nth(c, '(')->text, ','), c);
    auto names = split_top(nth(c, '{')->text, ',');
    auto name_of = [&](std::size_t i) {
      return i < names.size() && !names[i].empty() ? names[i] : pts[i] + "'";
    };
    auto forget = [&] {
      for (std::size_t i = 0; i < pts.size(); ++i) state_.unknown_points.insert(name_of(i));
    };
    auto t = transformation(c);
    if (!t) return forget();
    for (std::size_t i = 0; i < pts.size(); ++i) {
      if (pts[i].empty()) continue;
      auto P = point(pts[i], c);
      std::optional<Point> img = P ? image(*t, *P, c) : std::nullopt;
      if (!img) {
        state_.unknown_points.insert(name_of(i));
        continue;
      }
      state_.unknown_points.erase(name_of(i));
      emit("\\coordinate (" + name_of(i) + ") at " + local(*img) + ";", c);
    }
  }

  // tkz-obj-eu-draw-points.tex: \node[point style,/tkzdrawpt/.cd,#1] at (P) {}; `size` is
  // point style's `minimum size`.
  void draw_points(const Command& c) {
    Options o = split_options(opts(c), {"size"});
    std::string style = "point style";
    if (const auto* s = o.get("size")) style += ",minimum size=" + *s;
    for (const auto& g : groups(nth(c, '(')->text))
      for (const auto& p : foreach_points(g, c)) {
        if (!point(p, c)) continue;
        emit("\\node[" + with(style, o.tikz) + "] at (" + p + ") {};", c);
      }
  }
  // \tkzLabelPoint[#1](P){text}: \node[label style,#1] at (P) {text};
  void label_point(const Command& c) {
    std::string p = trim(nth(c, '(')->text);
    if (!point(p, c)) return;
    emit("\\node[" + with("label style", opts(c)) + "] at (" + p + ") {" + nth(c, '{')->text + "};", c);
  }
  // \tkzLabelPoints[#1](A,B): each named by itself in math, $A$.
  void label_points(const Command& c) {
    for (const auto& g : groups(nth(c, '(')->text))
      for (const auto& p : foreach_points(g, c)) {
        if (!point(p, c)) continue;
        emit("\\node[" + with("label style", opts(c)) + "] at (" + p + ") {$" + p + "$};", c);
      }
  }

  // tkz-obj-eu-draw-points.tex \tkzAutoLabelPoints[center=O,dist=d,#1](A,B,..): for each point
  // \path (O) -- ($(P) + d*($(P)-(O)$)$) node[label style,#1] {$P$}; (dist .15): the label goes
  // out from the centre along OP, and the path (not drawn) grows the picture by O and that point.
  void auto_label_points(const Command& c) {
    Options o = split_options(opts(c), {"center", "dist"});
    const std::string* centre = o.get("center");
    if (!centre) return unsupported("\\tkzAutoLabelPoints without center=", c.b, c.e);
    double dist = 0.15;
    if (const auto* d = o.get("dist")) {
      auto v = number(*d, c);
      if (!v) return;
      dist = *v;
    }
    auto O = point(trim(*centre), c);
    if (!O) return;
    for (const auto& g : groups(nth(c, '(')->text))
      for (const auto& p : foreach_points(g, c)) {
        auto P = point(p, c);
        if (!P) continue;
        emit("\\path (" + trim(*centre) + ") -- " + local(*P + dist * (*P - *O)) + " node[" +
                 with("label style", o.tikz) + "] {$" + p + "$};",
             c);
      }
  }

  // `add=l and r` of a line (\tkzDrawLine(s), \tkzSetUpLine): how far it runs past each end, as
  // a fraction of its length; another form is reported (nullopt).
  std::optional<std::pair<double, double>> add_key(const std::string& a, const Command& c) {
    auto pos = a.find(" and ");
    if (pos == std::string::npos) {
      unsupported("\\" + c.name + "[add=" + a + "]", c.b, c.e);
      return std::nullopt;
    }
    auto lv = number(trim(a.substr(0, pos)), c), rv = number(trim(a.substr(pos + 5)), c);
    if (!lv || !rv) return std::nullopt;
    return std::make_pair(*lv, *rv);
  }
  // tkz's polygon paths start with their first point twice: (A)--(A)--(B)--...
  static std::string through(const std::vector<std::string>& g) {
    std::string path = "(" + g[0] + ")";
    for (const auto& p : g) path += "--(" + p + ")";
    return path;
  }

  // tkz-obj-eu-draw-lines.tex: a segment is `\draw[line style,add=0 and 0,#1] (A) to (B)`, a line
  // the same with line style's `add` (default .2 and .2): the `to path`
  // ($(A)!-l!(B)$)--($(B)!-r!(A)$), computed here. `dim={label,d,opts}` (tkz-obj-eu-draw-lines.tex,
  // a postaction on each segment): fences from both ends 1.2 d to the segment's left (calc's
  // `!1.2*(d)!90:`; a d without unit is that share of the segment), and a latex-latex line at d
  // with a node[inner sep=0pt, font=\footnotesize, fill=<background>, pos=.5, opts] {label}.
  void draw_lines(const Command& c, bool line) {
    Options o = split_options(opts(c), {"add", "dim"});
    std::optional<std::array<std::string, 3>> dim;
    if (const auto* d = o.get("dim")) {
      std::string v = trim(*d);
      if (v.size() >= 2 && v.front() == '{' && v.back() == '}') v = trim(v.substr(1, v.size() - 2));
      auto parts = split_top(v, ',');
      if (parts.size() < 2 || trim(parts[1]).empty()) return unsupported("\\" + c.name + "[dim=" + v + "]", c.b, c.e);
      std::string rest;  // #3: what follows the second comma
      for (std::size_t k = 2; k < parts.size(); ++k) rest += (k > 2 ? "," : "") + parts[k];
      dim = std::array<std::string, 3>{trim(parts[0]), trim(parts[1]), trim(rest)};
    }
    double l = line ? add_l_ : 0, r = line ? add_r_ : 0;
    if (const auto* a = o.get("add")) {
      auto lr = add_key(*a, c);
      if (!lr) return;
      std::tie(l, r) = *lr;
    }
    for (const auto& g : groups(nth(c, '(')->text)) {
      if (g.size() != 2) {
        unsupported("\\" + c.name + " of '" + nth(c, '(')->text + "'", c.b, c.e);
        continue;
      }
      auto A = point(g[0], c), B = point(g[1], c);
      if (!A || !B) continue;
      Point P{A->x - l * (B->x - A->x), A->y - l * (B->y - A->y)};
      Point Q{B->x - r * (A->x - B->x), B->y - r * (A->y - B->y)};
      const std::size_t first = host_.element_count();
      emit("\\draw[" + with("line style", o.tikz) + "] " + local(P) + " -- " + local(Q) + ";", c);
      // drawn on past both of its points: a line whose ends are free, no side of an outline
      if (l > 0 && r > 0) host_.set_element_role(first, "line");
      if (dim) dimension_line(P, Q, *dim, o.tikz, c);
    }
  }
  // The `dim` postaction of one segment P -> Q (canvas pt), in the segment's own style.
  void dimension_line(Point P, Point Q, const std::array<std::string, 3>& dim, const std::string& tikz, const Command& c) {
    const double len = norm(Q - P);
    if (len == 0) return;
    std::string err;
    auto d = host_.eval(with_results(dim[1]), &err);
    if (!d) return unsupported("the distance '" + dim[1] + "' of \\" + c.name + "[dim=..]", c.b, c.e);
    const double off = d->is_length ? d->value : d->value * len;
    const Point n{-(Q.y - P.y) / len, (Q.x - P.x) / len};  // the segment's left
    auto at = [&](Point p, double k) { return local(Point{p.x + k * off * n.x, p.y + k * off * n.y}); };
    emit("\\draw[" + with("line style", tikz) + "] " + local(P) + " -- " + at(P, kDimFence) + " " + local(Q) + " -- " +
             at(Q, kDimFence) + ";",
         c);
    emit("\\draw[" + with("line style", tikz) + ",latex-latex] " + at(P, 1) +
             " -- node[inner sep=0pt, font=\\footnotesize, fill=white, pos=.5" + (dim[2].empty() ? "" : "," + dim[2]) +
             "] {" + dim[0] + "} " + at(Q, 1) + ";",
         c);
  }

  // tkz-obj-eu-polygons.tex: \draw[line style,line join=round,#1] (A)--(A)--(B)--...--cycle;
  // \tkzFillPolygon: \fill[#1] ...
  void polygons(const Command& c) {
    bool fill = c.name == "tkzFillPolygon";
    std::vector<std::vector<std::string>> gs;
    if (c.name == "tkzDrawPolygons")
      for (const auto& g : groups(nth(c, '(')->text)) gs.push_back(foreach_points(g, c));
    else gs.push_back(foreach_points(split_top(nth(c, '(')->text, ','), c));
    for (const auto& g : gs) {
      if (g.size() < 2 || !known(g, c)) continue;
      const std::string path = through(g) + "--cycle;";
      if (fill) emit("\\fill[" + opts(c) + "] " + path, c);
      else emit("\\draw[" + with("line style,line join=round", opts(c)) + "] " + path, c);
    }
  }

  // tkz-obj-eu-draw-circles.tex: \node[draw,circle through=(A),circle style,#1] at (O) {}; the
  // through library's `circle through` is a circle node of inner sep 0 and minimum size twice
  // the distance.
  void circles(const Command& c) { circle_through_nodes(c, "draw", ",circle style"); }
  // A `circle through` node for each (O,A) of the command: `mode` draw or fill, `style` after its size.
  void circle_through_nodes(const Command& c, const char* mode, const char* style) {
    for (const auto& g : groups(nth(c, '(')->text)) {
      if (g.size() != 2) {
        unsupported("\\" + c.name + " of '" + nth(c, '(')->text + "'", c.b, c.e);
        continue;
      }
      auto O = point(g[0], c), A = point(g[1], c);
      if (!O || !A) continue;
      double r = std::hypot(A->x - O->x, A->y - O->y);
      emit("\\node[" + with(std::string(mode) + ",circle,inner sep=0pt,minimum size=" + num(2 * r) + "pt" + style, opts(c)) +
               "] at (" + g[0] + ") {};",
           c);
    }
  }

  // \tkzLabelSegment[#1](A,B){t}: \path (A) to node[label style,#1]{t} (B); \tkzLabelLine:
  // \path (A) to node[#1]{t} (B).
  void label_segments(const Command& c) {
    const std::string text = nth(c, '{')->text;
    std::string style = c.name == "tkzLabelLine" ? opts(c) : with("label style", opts(c));
    for (const auto& g : groups(nth(c, '(')->text)) {
      if (g.size() != 2 || !known(g, c)) continue;
      emit("\\path (" + g[0] + ") to node[" + style + "]{" + text + "} (" + g[1] + ");", c);
    }
  }

  // The directions (degrees) of the rays from the vertex, normalised as \tkzNormalizeAngle does.
  struct Angle {
    Point vertex;
    double first = 0, second = 0;
  };
  std::optional<Angle> angle(const std::vector<std::string>& g, const Command& c) {
    if (g.size() != 3) {
      unsupported("\\" + c.name + " of '" + nth(c, '(')->text + "'", c.b, c.e);
      return std::nullopt;
    }
    // in the local frame, where tkz's \pgfpointanchor answers (a rotated picture turns the
    // directions; the arc and the label are drawn in that frame)
    auto A = lpoint(g[0], c), O = lpoint(g[1], c), B = lpoint(g[2], c);
    if (!A || !O || !B) return std::nullopt;
    Angle a;
    a.vertex = host_.settings().ctm.apply(*O);
    a.first = std::atan2(A->y - O->y, A->x - O->x) / kDeg;
    a.second = std::atan2(B->y - O->y, B->x - O->x) / kDeg;
    // tkz-tools-eu-angles.tex \tkzFindSlopeAngle answers in [0, 360)? It answers atan2 (-180, 180];
    // \tkzNormalizeAngle: first > 0 and first > second: first -= 360; first <= 0 and first > second:
    // second += 360.
    if (a.first > 0) {
      if (a.first > a.second) a.first -= 360;
    } else if (a.first > a.second) {
      a.second += 360;
    }
    return a;
  }
  std::vector<std::vector<std::string>> angle_groups(const Command& c) {
    if (c.name.back() == 's') return groups(nth(c, '(')->text);
    return {split_top(nth(c, '(')->text, ',')};
  }

  // A plot mark as decorations.markings places it: at canvas point `at`, its x axis along the
  // canvas unit vector `dir`; size s and line width lw in pt (canvas lengths: the marking's frame
  // is not scaled by the picture).
  void draw_mark(const PlotMark& m, Point at, Point dir, double s, double lw, const std::string& style,
                 const Command& c) {
    const Point nrm = rot90(dir);
    auto place = [&](const MarkCoord& k) {
      return local(at + (k.xl * lw + k.xs * s) * dir + (k.yl * lw + k.ys * s) * nrm);
    };
    std::string path;
    for (const auto& piece : m.pieces) {
      if (piece.curve) {
        path += " " + place(piece.pts[0]) + " .. controls " + place(piece.pts[1]) + " and " + place(piece.pts[2]) +
                " .. " + place(piece.pts[3]);
        continue;
      }
      for (std::size_t i = 0; i < piece.pts.size(); ++i) path += (i ? " -- " : " ") + place(piece.pts[i]);
    }
    // \pgfusepathqstroke: the quick stroke adds no half line width to the picture, only the
    // path's points do (lualatex: a `|` of 4pt makes a picture 8pt high)
    host_.begin_interrupt_bbox();
    emit("\\draw[" + style + "]" + path + ";", c);
    host_.end_interrupt_bbox();
    emit("\\path" + path + ";", c);
  }
  // The length a mark option holds (mksize=, size=): a unitless one is pt (\pgfsetplotmarksize).
  std::optional<double> mark_length(const std::string& expr, const Command& c) {
    std::string err;
    auto v = host_.eval(expr, &err);
    if (!v) {
      unsupported("the value '" + expr + "' of \\" + c.name, c.b, c.e);
      return std::nullopt;
    }
    return v->value;
  }
  // Whether the picture's transformation keeps circles round (no xscale against yscale, no
  // slant) and its x and y vectors are TikZ's 1cm: a unitless radius is then size cm everywhere
  // and a position along an arc is a fraction of its angle.
  bool round_frame() const {
    const Settings& st = host_.settings();
    const Point u = st.ctm.apply_linear({1, 0}), v = st.ctm.apply_linear({0, 1});
    return std::abs(norm(u) - norm(v)) < 1e-9 * norm(u) && std::abs(u.x * v.x + u.y * v.y) < 1e-9 * norm(u) * norm(v) &&
           st.xvec.x == kPtPerCm && st.xvec.y == 0 && st.yvec.x == 0 && st.yvec.y == kPtPerCm;
  }

  // \tkzMarkAngle[#1](A,O,B): \draw[shift={(O)},/tkzdrawarc/.cd,#1,fill=none] (a1:size) arc
  // (a1:a2:size); arc=ll draws the arcs at size cm -+ 2.5\pgflinewidth instead (the one at size is
  // a \path), arc=lll all three. mark= is a plot mark (mksize, 4pt) at mkpos (.5) of the arc at
  // size, along it, in mkcolor (black), with the picture's line width (the marking path takes no
  // #1). \tkzFillAngle[#1]: \path[shift={(O)},fill=...!10,#1] (O) -- (a1:size) arc (...) -- cycle.
  void mark_angles(const Command& c) {
    bool fill = c.name.rfind("tkzFill", 0) == 0;
    Options o = split_options(opts(c), {"size", "arc", "mark", "mkpos", "mksize", "mkcolor"});
    const std::string arc = o.get("arc") ? trim(*o.get("arc")) : "l";
    if (arc != "l" && (fill || (arc != "ll" && arc != "lll")))
      return unsupported("\\" + c.name + "[arc=" + arc + "]", c.b, c.e);
    const PlotMark* mark = nullptr;
    if (const auto* mk = o.get("mark"); mk && trim(*mk) != "none") {
      mark = fill ? nullptr : plot_mark(trim(*mk));
      if (!mark) return unsupported("\\" + c.name + "[mark=" + *mk + "]", c.b, c.e);
    }
    std::string size = o.get("size") ? *o.get("size") : num(kMarkAngleSize);
    // the numbers the second arcs and the mark need: the radius in local pt
    double radius = 0, mkpos = 0.5, mksize = 4;
    const double lw = host_.settings().style.line_width;
    if (arc != "l" || mark) {
      std::string err;
      auto r = host_.eval(size, &err);
      if (!r) return unsupported("the value '" + size + "' of \\" + c.name, c.b, c.e);
      if (!round_frame() || (arc != "l" && (r->is_length || sets_line_width(o.tikz))))
        return unsupported("\\" + c.name + "[arc=" + arc + (mark ? ", mark" : "") + "] in this frame or with these keys", c.b, c.e);
      radius = r->is_length ? r->value : r->value * kPtPerCm;
      if (const auto* p = o.get("mkpos")) {
        auto v = number(*p, c);
        if (!v) return;
        mkpos = *v;
      }
      if (const auto* m = o.get("mksize")) {
        auto v = mark_length(*m, c);
        if (!v) return;
        mksize = *v;
      }
    }
    const std::string mkcolor = o.get("mkcolor") ? *o.get("mkcolor") : "black";
    for (const auto& g : angle_groups(c)) {
      auto a = angle(g, c);
      if (!a) continue;
      std::string shift = "shift={" + local(a->vertex) + "}";
      std::string f = num(a->first), s = num(a->second);
      auto arc_at = [&](const std::string& mode, const std::string& r) {
        emit("\\" + mode + "[" + with(shift, with(o.tikz, "fill=none")) + "] (" + f + ":" + r + ") arc (" + f + ":" + s +
                 ":" + r + ");",
             c);
      };
      if (fill) {
        emit("\\path[" + with(shift + ",fill=black!10", o.tikz) + "] (" + g[1] + ") -- (" + f + ":" + size + ") arc (" +
                 f + ":" + s + ":" + size + ") -- cycle;",
             c);
        continue;
      }
      if (arc == "ll") {
        arc_at("draw", num(radius - 2.5 * lw) + "pt");
        arc_at("path", size);
        arc_at("draw", num(radius + 2.5 * lw) + "pt");
      } else {
        arc_at("draw", size);
        if (arc == "lll") {
          arc_at("draw", num(radius - 2.5 * lw) + "pt");
          arc_at("draw", num(radius + 2.5 * lw) + "pt");
        }
      }
      if (mark) {
        // round frame: the point at mkpos of the arc's length is at that fraction of its angle
        const double t = (a->first + mkpos * (a->second - a->first)) * kDeg;
        const Transform& ctm = host_.settings().ctm;
        const Point at = a->vertex + ctm.apply_linear({radius * std::cos(t), radius * std::sin(t)});
        Point dir = ctm.apply_linear({-std::sin(t), std::cos(t)});
        dir = (1 / norm(dir)) * dir;
        draw_mark(*mark, at, dir, mksize, lw, mkcolor, c);
      }
    }
  }

  // \tkzMarkRightAngle[#1](A,O,B): \draw[#1] (O) --++(s u) --++(s v) --++(-s u) -- (O), u and v
  // the unit vectors towards A and B, s = size (cm, written as 28.45274 size pt).
  void right_angles(const Command& c) {
    Options o = split_options(opts(c), {"size", "dotsize", "german", "norm tkz code"});
    if (o.get("german")) return german_right_angles(c, o);
    double size = kRightAngleSize;
    if (const auto* s = o.get("size")) {
      auto v = number(*s, c);
      if (!v) return;
      size = *v;
    }
    for (const auto& g : angle_groups(c)) {
      if (g.size() != 3) {
        unsupported("\\" + c.name + " of '" + nth(c, '(')->text + "'", c.b, c.e);
        continue;
      }
      auto A = lpoint(g[0], c), O = lpoint(g[1], c), B = lpoint(g[2], c);  // tkz's frame
      if (!A || !O || !B) continue;
      auto unit = [&](Point p) {
        double d = std::hypot(p.x - O->x, p.y - O->y);
        return d > 0 ? Point{(p.x - O->x) / d, (p.y - O->y) / d} : Point{0, 0};
      };
      Point u = unit(*A), v = unit(*B);
      double k = kPtPerCmTkz * size;
      // the offsets are lengths in pt: the picture's transformation applies to them
      auto off = [&](Point w) { return "(" + num(k * w.x) + "pt," + num(k * w.y) + "pt)"; };
      emit("\\draw[" + o.tikz + "] (" + g[1] + ") --++" + off(u) + " --++" + off(v) + " --++" +
               off({-u.x, -u.y}) + " -- (" + g[1] + ");",
           c);
    }
  }

  // tkz-obj-eu-draw-angles.tex \tkzMarkRightAngle[german](A,O,B): \tkzDrawArcRAN of radius size
  // (.25) from OA to OB, then `\path (O) --+ (bisector:size/2) node[fill,circle,minimum
  // size=dotsize (3pt),inner sep=0pt,#1] {}`: an arc with a dot inside.
  void german_right_angles(const Command& c, const Options& o) {
    std::string size = o.get("size") ? *o.get("size") : num(kRightAngleSize);
    auto sz = number(size, c);
    if (!sz) return;
    std::string dot = o.get("dotsize") ? *o.get("dotsize") : "3pt";
    for (const auto& g : angle_groups(c)) {
      auto a = angle(g, c);
      if (!a) continue;
      std::string f = num(a->first), s = num(a->second), r = num(*sz);
      emit("\\draw[" + with("shift={" + local(a->vertex) + "}", o.tikz) + "] (" + f + ":" + r + ") arc (" + f + ":" + s +
               ":" + r + ");",
           c);
      emit("\\path (" + g[1] + ") --+ (" + num((a->first + a->second) / 2) + ":" + num(*sz / 2) +
               ") node[" + with("fill,circle,minimum size=" + dot + ",inner sep=0pt", o.tikz) + "] {};",
           c);
    }
  }

  // \tkzLabelAngle[#1](A,O,B){t}: \path (O) --+(bisector:dist) node[label angle style,#1] {t};
  // `angle=` replaces the bisector.
  void label_angles(const Command& c) {
    Options o = split_options(opts(c), {"dist", "angle"});
    std::string dist = o.get("dist") ? *o.get("dist") : num(kLabelAngleDist);
    const std::string text = nth(c, '{')->text;
    for (const auto& g : angle_groups(c)) {
      std::string dir;
      if (const auto* a = o.get("angle"); a && !a->empty()) {
        if (g.size() != 3 || !known(g, c)) continue;
        dir = *a;
      } else {
        auto a2 = angle(g, c);
        if (!a2) continue;
        dir = num((a2->first + a2->second) / 2);
      }
      emit("\\path (" + g[1] + ") --+(" + dir + ":" + dist + ") node[" + with("label angle style", o.tikz) + "] {" +
               text + "};",
           c);
    }
  }

  // \tkzMarkSegment[#1](A,B): a plot mark at pos .5 of A--B, drawn in the segment's direction
  // (decorations.markings rotates it): the default `|` is a stroke of +-size across the segment.
  void mark_segments(const Command& c) {
    Options o = split_options(opts(c), {"pos", "color", "mark", "size"});
    std::string mark = o.get("mark") ? *o.get("mark") : "|";
    double pos = 0.5, size = kSegmentMarkSize;
    if (const auto* p = o.get("pos")) {
      auto v = number(*p, c);
      if (!v) return;
      pos = *v;
    }
    if (const auto* s = o.get("size")) {
      std::string err;
      auto v = host_.eval(*s, &err);
      if (!v) return unsupported("the value '" + *s + "' of \\" + c.name, c.b, c.e);
      size = v->value;  // a unitless size is pt (\pgfsetplotmarksize)
    }
    const PlotMark* pm = plot_mark(trim(mark));
    if (!pm) return unsupported("\\" + c.name + "[mark=" + mark + "]", c.b, c.e);
    // the marking runs on the \path that takes #1: its line width spaces || and |||
    if (pm->uses_line_width && sets_line_width(o.tikz))
      return unsupported("\\" + c.name + "[mark=" + mark + "] with a line width of its own", c.b, c.e);
    const double lw = host_.settings().style.line_width;
    for (const auto& g : groups(nth(c, '(')->text)) {
      if (g.size() != 2) continue;
      auto A = point(g[0], c), B = point(g[1], c);
      if (!A || !B) continue;
      Point M{A->x + pos * (B->x - A->x), A->y + pos * (B->y - A->y)};
      double d = std::hypot(B->x - A->x, B->y - A->y);
      if (d <= 0) continue;
      std::string color = o.get("color") ? *o.get("color") : "";
      draw_mark(*pm, M, (1 / d) * (*B - *A), size, lw, with(color, o.tikz), c);
    }
  }

  // tkz-obj-eu-compass.tex \tkzCompass[delta, length, ..](A,B): an arc of the circle about A
  // through B, `delta` degrees either side of B; delta 0 (the default): an arc `length` cm long,
  // min(deg(length cm / r), 180) / 2. `\draw[shift={(A)},compass style,..] (a-d:r pt) arc
  // (a-d:a+d:r pt)`, r = |AB| as \tkz@@CalcLength rounds it. \tkzCompasss: "A,B C,D".
  void compasses(const Command& c) {
    Options o = split_options(opts(c), {"delta", "length"});
    double delta = state_.compass_delta, len = state_.compass_length;
    if (const auto* d = o.get("delta")) {
      auto v = number(*d, c);
      if (!v) return;
      delta = *v;
    }
    if (const auto* l = o.get("length")) {
      auto v = number(*l, c);
      if (!v) return;
      len = *v;
    }
    std::vector<std::vector<std::string>> gs;
    if (c.name == "tkzCompasss") gs = groups(nth(c, '(')->text);
    else gs.push_back(split_top(nth(c, '(')->text, ','));
    for (const auto& g : gs) {
      if (g.size() != 2) {
        unsupported("\\" + c.name + " of '" + nth(c, '(')->text + "'", c.b, c.e);
        continue;
      }
      auto p = lpoints(g, c);
      if (!p) continue;
      Point A = (*p)[0], B = (*p)[1];
      compass_arc(A, B, "(" + g[0] + ")", delta, len, o.tikz, c);
    }
  }
  // The arc of \tkzCompass[delta, length, tikz](A,B), A written as `at` in shift={..}.
  void compass_arc(Point A, Point B, const std::string& at, double delta, double len, const std::string& tikz,
                   const Command& c) {
    double r = std::round(norm(B - A) * 1e6) / 1e6;
    if (r == 0) return;  // pgfmath divides by 0: TeX stops with an error
    // \ifnum\tkz@delta=0: an integer test, as TeX reads delta's leading integer
    double d = std::trunc(delta) == 0 ? std::min(len * kPtPerCmTkz / r / kDeg, 180.0) / 2 : delta;
    double a = slope(A, B);
    std::string f = num(a - d), t = num(a + d), rad = num(r) + "pt";
    emit("\\draw[" + with("shift={" + at + "},compass style", tikz) + "] (" + f + ":" + rad + ") arc (" + f + ":" + t +
             ":" + rad + ");",
         c);
  }
  // tkz-obj-eu-show.tex \tkzShowLine[mediator | perpendicular=through C | orthogonal=through C |
  // parallel=through C | bisector, gap, ratio, length, size, tikz](A,B[,C]): the compass arcs
  // (\tkzCompass[compass style,#1,..]) a ruler-and-compass construction of the line would leave.
  // Each variant's points are computed as its macro computes them (\tkz@VecKNorm and friends,
  // inside \pgfinterruptboundingbox: only the arcs and the mediator's \path (A)--(B) grow the
  // picture). No kind key: tkz keeps the kind of the last \tkzShowLine that set it globally
  // (\tkz@numsh; mediator sets it locally).
  void show_line(const Command& c) {
    Options o = split_options(opts(c), {"mediator", "perpendicular", "orthogonal", "parallel", "bisector", "K",
                                        "length", "ratio", "gap", "size", "delta"});
    int kind = -1;
    std::string through;
    double gap = 2, ratio = .5, length = 1, size = 1, delta = state_.compass_delta,
           clen = state_.compass_length;  // \tkz@length of the compasses without their own length=
    bool gap_set = false, ratio_set = false;
    for (const auto& [k, v] : o.own) {
      if (k == "mediator") kind = 0;
      else if (k == "bisector") kind = 3;
      else if (k == "perpendicular" || k == "orthogonal" || k == "parallel") {
        auto t = after_word(v, "through");
        if (!t) return unsupported_command(c);
        through = *t;
        kind = k == "parallel" ? 2 : 1;
      } else if (k == "K") {
        continue;  // \tkz@koeff: no variant reads it
      } else {
        auto x = number(v, c);
        if (!x) return;
        if (k == "length") length = clen = *x;
        else if (k == "ratio") ratio = *x, ratio_set = true;
        else if (k == "gap") gap = *x, gap_set = true;
        else if (k == "size") size = *x;
        else if (k == "delta") delta = *x;
      }
    }
    if (kind < 0) {
      // a style among the options may set the kind: not modelled
      if (!trim(o.tikz).empty()) return unsupported("\\tkzShowLine[" + opts(c) + "] without its kind", c.b, c.e);
      kind = state_.show_kind;
    } else if (kind != 0) {
      state_.show_kind = kind;
    }
    // each variant's own defaults, under #1
    if (kind == 2 && !ratio_set) ratio = .75;
    if (kind == 1 && !ratio_set) ratio = .75;
    if (kind == 1 && !gap_set) gap = -1;
    auto args = split_top(nth(c, '(')->text, ',');
    if (args.size() != (kind == 3 ? 3u : 2u)) return unsupported_command(c);
    if (!through.empty()) args.push_back(through);
    auto p = lpoints(args, c);
    if (!p) return;
    const auto& P = *p;
    auto unit = [](Point v) { double n = norm(v); return n > 0 ? (1 / n) * v : Point{0, 0}; };
    const double cm = kPtPerCmTkz, rl = ratio * length;
    auto arc = [&](Point A, Point B, double len) {
      compass_arc(A, B, "(" + num(A.x) + "pt," + num(A.y) + "pt)", delta, len, o.tikz, c);
    };
    if (kind == 0) {  // \tkzShowMediatorLine(A,B)
      Point A = P[0], B = P[1], M = 0.5 * (A + B);
      emit("\\path (" + args[0] + ") -- (" + args[1] + ");", c);
      Point m1 = M + (gap * cm) * rot90(unit(A - M)), m2 = M + (gap * cm) * rot90(unit(B - M));
      arc(A, m1, rl), arc(B, m1, clen), arc(A, m2, rl), arc(B, m2, clen);
    } else if (kind == 2) {  // \tkzShowLLLine(A,B)(C)
      Point A = P[0], B = P[1], C = P[2], T = C + (B - A);
      arc(C, T, clen), arc(B, T, rl);
    } else if (kind == 3) {  // \tkzShowBisectorLine(B,A,C)
      Point B = P[0], A = P[1], C = P[2];
      Point p1 = A + cm * unit(B - A), p2 = A + cm * unit(C - A), p3 = 0.5 * (p1 + p2);
      Point p4 = p2 + rotated(p1 - p2, 60), pm = 0.5 * (p3 + p4);
      Point bis = A + gap * (cm * unit(pm - A));
      Point b1 = A + (size * cm) * unit(B - A), b2 = A + (size * cm) * unit(C - A);
      arc(A, b1, rl), arc(A, b2, rl), arc(b1, bis, clen), arc(b2, bis, rl);
    } else {  // \tkzShowOrthLine(A,B)(C): \tkzDefPointWith(A,B) is orthogonal (K=1)
      Point A = P[0], B = P[1], C = P[2];
      auto po = lines_cross(A, B, C, C + rot90(B - A));
      if (!po) return unsupported_command(c);
      Point PO = *po, u = cm * unit(B - A);
      Point po1 = PO + size * (-1 * u), po2 = PO + size * u;
      Point t1 = norm(C - PO) > 10 ? C + cm * unit(PO - C) : PO + cm * rot90(unit(po2 - PO));
      Point po3 = PO + gap * (t1 - PO);
      arc(C, po1, rl), arc(C, po2, rl), arc(po1, po3, rl), arc(po2, po3, clen);
    }
  }
  // tkz-obj-eu-draw-polygons.tex \tkzClipPolygon(A,B,...): \clip (A)--(A)--(B)--...--cycle;
  // [out] clips to the outside (a reversed clip), not modelled.
  void clip_polygon(const Command& c) {
    if (!trim(opts(c)).empty()) return unsupported("\\tkzClipPolygon[" + opts(c) + "]", c.b, c.e);
    auto g = foreach_points(split_top(nth(c, '(')->text, ','), c);
    if (g.size() < 2 || !known(g, c)) return;
    emit("\\clip " + through(g) + "--cycle;", c);
  }
  // tkz-obj-eu-draw-lines.tex \tkzDrawPolySeg[#1](A,B,...): \draw[line style,#1] (A)--(A)--(B)...
  void poly_seg(const Command& c) {
    auto g = foreach_points(split_top(nth(c, '(')->text, ','), c);
    if (g.size() < 2 || !known(g, c)) return;
    emit("\\draw[" + with("line style", opts(c)) + "] " + through(g) + ";", c);
  }
  // tkz-obj-eu-draw-circles.tex \tkzDrawSemiCircle[#1](O,A): `\path (O)--++(O-A) coordinate
  // (tkz@pt)` (the picture grows by O and the opposite point), then \tkzDrawArc[#1,delta=0]
  // (O,A)(tkz@pt): half the circle, counterclockwise from A. \tkzDrawSemiCircles: "O,A P,B".
  void semicircles(const Command& c) {
    std::vector<std::vector<std::string>> gs;
    if (c.name == "tkzDrawSemiCircles") gs = groups(nth(c, '(')->text);
    else gs.push_back(split_top(nth(c, '(')->text, ','));
    Options o = split_options(opts(c), {"delta", "reverse"});
    for (const auto& g : gs) {
      if (g.size() != 2) {
        unsupported("\\" + c.name + " of '" + nth(c, '(')->text + "'", c.b, c.e);
        continue;
      }
      auto p = lpoints(g, c);
      if (!p) continue;
      Point O = (*p)[0], A = (*p)[1];
      double r = norm(A - O);
      if (r == 0) continue;
      Point far = 2 * O - A;
      emit("\\path (" + num(O.x) + "pt," + num(O.y) + "pt) -- (" + num(far.x) + "pt," + num(far.y) + "pt);", c);
      double f = slope(O, A), t = slope(O, far);
      if (f > 0) {
        if (f > t) f -= 360;
      } else if (f > t) {
        t += 360;
      }
      emit("\\draw[" + with("shift={(" + g[0] + ")},arc style", o.tikz) + "] (" + num(f) + ":" + num(r) + "pt) arc (" +
               num(f) + ":" + num(t) + ":" + num(r) + "pt);",
           c);
    }
  }
  // \tkzFillCircle[#1](O,A): \node[fill,circle through=(A),#1] at (O) {}; \tkzFillCircles.
  void fill_circles(const Command& c) { circle_through_nodes(c, "fill", ""); }

  // tkz-obj-eu-compass.tex \tkzSetUpCompass, tkz-obj-eu-draw-angles.tex \tkzSetUpArc and
  // tkz-obj-eu-draw-circles.tex \tkzSetUpCircle [color, line width, style, delta, length]: compass
  // style, arc style or circle style appended from the stored keys. \tkzSetUpCompass and
  // \tkzSetUpArc search /tkzcompass too: their delta and length (one macro each, \tkz@delta and
  // \tkz@length) hold for later compasses and arcs; \tkzSetUpCircle takes and ignores them.
  // tkz-obj-eu-draw-points.tex \tkzSetUpLabel[..] (label style/.style={..}), tkz-tools-eu-colors.tex
  // \tkzSetUpColors[background, text] (the page's and the text's colour: no geometry).
  void setup_other(const Command& c) {
    if (c.name == "tkzSetUpColors") {
      Options o = split_options(opts(c), {"background", "text"});
      if (!o.tikz.empty()) unsupported("\\tkzSetUpColors[" + o.tikz + "]", c.b, c.e);
      return;
    }
    if (c.name == "tkzSetUpLabel") {
      emit("\\tikzset{label style/.style={" + opts(c) + "}}", c);
      return;
    }
    Options o = split_options(opts(c), {"color", "line width", "style", "delta", "length"});
    if (c.name == "tkzSetUpCompass" || c.name == "tkzSetUpArc") {
      if (const auto* d = o.get("delta")) {
        auto v = number(*d, c);
        if (!v) return;
        state_.compass_delta = *v;
      }
      if (const auto* l = o.get("length")) {
        auto v = number(*l, c);
        if (!v) return;
        state_.compass_length = *v;
      }
    }
    std::string st;
    if (const auto* v = o.get("color")) st = with(st, "color=" + *v);
    if (const auto* v = o.get("line width")) st = with(st, "line width=" + *v);
    if (const auto* v = o.get("style")) st = with(st, *v);
    st = with(st, o.tikz);
    const char* style = c.name == "tkzSetUpCompass" ? "compass style" : c.name == "tkzSetUpArc" ? "arc style" : "circle style";
    if (!st.empty()) emit(std::string("\\tikzset{") + style + "/.append style={" + st + "}}", c);
  }

  // tkz-obj-eu-draw-points.tex \tkzSetUpPoint[size, color, fill, shape]: point style redefined.
  void setup_point(const Command& c) {
    Options o = split_options(opts(c), {"size", "color", "fill", "shape"});
    std::string st;
    if (const auto* s = o.get("size")) st = with(st, "minimum size=" + *s);
    if (const auto* s = o.get("shape")) st = with(st, "shape=" + *s);
    if (const auto* s = o.get("color")) st = with(st, "draw=" + *s + ",fill=" + *s);
    if (const auto* s = o.get("fill")) st = with(st, "fill=" + *s);
    st = with(st, o.tikz);
    emit("\\tikzset{point style/.append style={" + st + "}}", c);
  }
  // tkz-obj-eu-draw-lines.tex \tkzSetUpLine[line width, color, style, add]: line style appended.
  void setup_line(const Command& c) {
    Options o = split_options(opts(c), {"add", "style"});
    if (const auto* a = o.get("add")) {
      auto lr = add_key(*a, c);
      if (!lr) return;
      std::tie(add_l_, add_r_) = *lr;
    }
    std::string st = o.tikz;
    if (const auto* s = o.get("style")) st = with(st, *s);
    if (!st.empty()) emit("\\tikzset{line style/.append style={" + st + "}}", c);
  }

  const std::string& text_;
  LibraryHost& host_;
  State& state_;
  std::set<std::string>& reported_;
  double& add_l_;
  double& add_r_;
  bool outside_ = false;
  int interrupts_ = 0;  // \pgfinterruptboundingbox open in this run
};

class TkzPicture final : public PackagePicture {
 public:
  explicit TkzPicture(std::vector<const tex::Statement*> setups) : setups_(std::move(setups)) {}

  Offer lower_statement(const PackageStatement& s, LibraryHost& host) override {
    // the document's \tkzSetUp... before the picture hold in it from its start
    for (const tex::Statement* st : setups_) {
      PackageStatement setup{*st, "\\tkzSetUp", false};
      Lowerer(setup, host, state_, true).run();
    }
    setups_.clear();
    if (s.path || s.command.rfind("\\tkz", 0) != 0) return Offer::pass;
    Lowerer(s, host, state_).run();
    return Offer::lowered;
  }

 private:
  std::vector<const tex::Statement*> setups_;
  Lowerer::State state_;
};

class TkzEuclide final : public Package {
 public:
  std::string_view name() const override { return "tkzeuclide"; }
  std::unique_ptr<PackagePicture> begin_picture(const tex::Picture&) const override {
    return std::make_unique<TkzPicture>(std::vector<const tex::Statement*>{});
  }
  std::unique_ptr<PackagePicture> begin_document_picture(const tex::Picture& pic,
                                                         const tex::ExpandedDocument& doc) const override {
    std::vector<const tex::Statement*> setups;
    if (!doc.pictures.empty() && &pic >= doc.pictures.data() && &pic < doc.pictures.data() + doc.pictures.size()) {
      const auto index = static_cast<std::size_t>(&pic - doc.pictures.data());
      for (const auto& sc : doc.setup_commands)
        if (sc.pictures_before <= index && sc.st.text.rfind("\\tkz", 0) == 0) setups.push_back(&sc.st);
    }
    return std::make_unique<TkzPicture>(std::move(setups));
  }
};

}  // namespace
}  // namespace tikzlint::ir

namespace tikzlint::packages {
std::unique_ptr<ir::Package> tkzeuclide() { return std::make_unique<ir::TkzEuclide>(); }
}  // namespace tikzlint::packages
