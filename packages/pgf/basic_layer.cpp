// packages/pgf/basic_layer.cpp: pgf basic-layer commands (pgfmanual part IX) used directly inside a
// tikzpicture, rewritten into the plain TikZ statements they amount to (ir/library.hpp).
//
// A statement is a run of commands ("\pgfpathmoveto{...}\pgfpathlineto{...}\pgfusepath{stroke}").
// The soft path is collected in canvas pt, as pgf does (each point is transformed when it is
// added, pgfcorepathconstruct), and emitted as one `\path[...]` on \pgfusepath in the local
// system in force then. Graphic state and transformations persist to the end of the TeX group, so
// they are emitted as `\tikzset{...}`, which the lowering applies to the current scope.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <numbers>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/coords.hpp"
#include "ir/library.hpp"
#include "ir/transform.hpp"
#include "packages/support.hpp"
#include "support/ascii.hpp"

namespace tikzlint::ir {
namespace {

constexpr double kDeg = std::numbers::pi / 180;
// pgflibraryplothandlers \pgfsetplottension: a tension t stands for 0.2775 t; default 0.5.
constexpr double kPlotTensionFactor = 0.2775;
constexpr double kDefaultPlotTension = 0.5;
// pgflibraryplothandlers: /pgf/bar width=10pt, /pgf/bar shift=0pt.
constexpr double kDefaultBarWidth = 10;
// pgflibraryplothandlers: /pgf/bar interval width=1, /pgf/bar interval shift=0.5 (of the interval).
constexpr double kDefaultBarIntervalShift = 0.5;
// pgfcorepathconstruct \pgfpathsine / \pgfpathcosine: control points as fractions of the vector.
constexpr double kSine[4] = {.3260, .5120, .6380, 1};
constexpr double kCosine[4] = {.3620, 0, .6740, .4880};
// pgfcorepathconstruct \pgfpathparabola: controls "found by trial and error" there.
constexpr double kParabolaIn[4] = {.1125, .225, .5, 1};
constexpr double kParabolaOut[4] = {.5, 0, .8875, .775};
// Matrices that agree to this much are the same transformation (pt and unitless entries).
constexpr double kSameTransform = 1e-6;

std::string fmt(double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.6f", std::abs(v) < 5e-7 ? 0.0 : v);
  return buf;
}
std::string fmt_pt(double v) { return fmt(v) + "pt"; }
std::string coord(Point p) {
  std::string s = "(";  // appended in place (operator+ on a literal trips GCC 12's -Wrestrict at -O3)
  s += fmt_pt(p.x);
  s += ',';
  s += fmt_pt(p.y);
  s += ')';
  return s;
}

bool same_transform(const Transform& a, const Transform& b) {
  return std::abs(a.a - b.a) < kSameTransform && std::abs(a.b - b.b) < kSameTransform &&
         std::abs(a.c - b.c) < kSameTransform && std::abs(a.d - b.d) < kSameTransform &&
         std::abs(a.e - b.e) < kSameTransform && std::abs(a.f - b.f) < kSameTransform;
}

// One piece of the soft path, in canvas pt.
struct Piece {
  enum class Kind { move, line, curve, close, ellipse, arc, rectangle, grid } kind = Kind::move;
  Point p, c1, c2;   // target and controls; ellipse/arc: p = center, c1/c2 = axes (canvas vectors)
  double start = 0, end = 0;  // arc angles (degrees)
  Point la, lb;      // rectangle / grid: the corners in the local system of `ctm`
  double step_x = 0, step_y = 0;  // grid steps (pt, local)
  Transform ctm;     // in force when the piece was added
  bool data = false; // a bar a plot handler drew from a data point (ir::Element::role "data")
};

// A text range of the statement: [b, e).
struct Range {
  std::size_t b = 0, e = 0;
};

enum class PlotHandler {
  lineto, polygon, discard, curveto, closedcurve, xcomb, ycomb, polarcomb, xbar, ybar, xbarinterval, ybarinterval,
  constantlineto, constantlinetomarkright, constantlinetomarkmid, jumpmarkleft, jumpmarkright, jumpmarkmid
};

class PgfLowerer {
 public:
  PgfLowerer(const tex::Statement& st, LibraryHost& host) : t_(st.text), host_(host) {}

  void run() {
    std::size_t i = 0;
    run_range(i, t_.size(), 0);
    // a group left open by this statement closes with it (its end is in a later statement)
    while (open_groups_ > 0) {
      host_.emit("\\end{scope}", static_cast<std::uint32_t>(t_.size()), static_cast<std::uint32_t>(t_.size()));
      --open_groups_;
    }
    // a path built but never used still counts for the picture size (pgf protocols sizes while
    // the path is constructed, pgfcorepathconstruct \pgf@protocolsizes)
    if (!path_.empty()) use_path(false, false, false, false, {0, t_.size()});
  }

 private:
  const std::string& t_;
  LibraryHost& host_;
  std::vector<Piece> path_;
  Point cur_{}, subpath_start_{};  // canvas
  bool has_cur_ = false;
  bool built_any_ = false;  // some path construction command ran in this statement
  int open_groups_ = 0;
  bool sloped_at_time_ = false, reset_nontranslation_at_time_ = false, upside_down_at_time_ = false;
  PlotHandler handler_ = PlotHandler::lineto;
  bool plot_lineto_first_ = false;
  double plot_tension_ = kPlotTensionFactor * kDefaultPlotTension;
  double bar_width_ = kDefaultBarWidth, bar_shift_ = 0;
  double bar_interval_width_ = 1, bar_interval_shift_ = kDefaultBarIntervalShift;
  std::vector<Point> stream_;  // local points of the plot stream

  // ------------------------------------------------------------------ text scanning
  void skip_space(std::size_t& i, std::size_t e) const {
    while (i < e && is_ascii_space(t_[i])) ++i;
  }
  // A control word (or control symbol) at t_[i] == '\\'.
  std::string control(std::size_t& i, std::size_t e) const {
    std::size_t j = i + 1;
    while (j < e && (std::isalpha(static_cast<unsigned char>(t_[j])) || t_[j] == '@')) ++j;
    if (j == i + 1 && j < e) ++j;  // control symbol
    std::string cs = t_.substr(i, j - i);
    i = j;
    return cs;
  }
  // The matching close of the brace/bracket at t_[i].
  std::size_t matching(std::size_t i, std::size_t e, char open, char close) const {
    int depth = 0, braces = 0;
    for (std::size_t j = i; j < e; ++j) {
      const char c = t_[j];
      if (c == '\\') {
        ++j;
        continue;
      }
      if (open == '[') {
        if (c == '{') ++braces;
        else if (c == '}') --braces;
        if (braces > 0) continue;
      }
      if (c == open) ++depth;
      else if (c == close && --depth == 0) return j;
    }
    return std::string::npos;
  }
  // One TeX argument: a brace group (its content), a control sequence or one character.
  std::optional<Range> argument(std::size_t& i, std::size_t e) const {
    skip_space(i, e);
    if (i >= e) return std::nullopt;
    if (t_[i] == '{') {
      const std::size_t close = matching(i, e, '{', '}');
      if (close == std::string::npos) return std::nullopt;
      Range r{i + 1, close};
      i = close + 1;
      return r;
    }
    if (t_[i] == '}') return std::nullopt;
    Range r{i, i};
    if (t_[i] == '\\') control(i, e);
    else ++i;
    r.e = i;
    return r;
  }
  std::optional<Range> optional_argument(std::size_t& i, std::size_t e) const {
    std::size_t j = i;
    skip_space(j, e);
    if (j >= e || t_[j] != '[') return std::nullopt;
    const std::size_t close = matching(j, e, '[', ']');
    if (close == std::string::npos) return std::nullopt;
    i = close + 1;
    return Range{j + 1, close};
  }
  std::string text(Range r) const { return std::string(text_trim(std::string_view(t_).substr(r.b, r.e - r.b))); }

  // ------------------------------------------------------------------ problems and values
  void unsupported(const std::string& message, Range r) {
    host_.problem("unsupported-construct", message, static_cast<std::uint32_t>(r.b), static_cast<std::uint32_t>(r.e));
  }
  void emit(const std::string& statement, Range r) {
    host_.emit(statement, static_cast<std::uint32_t>(r.b), static_cast<std::uint32_t>(r.e));
  }
  Transform ctm() const { return host_.settings().ctm; }

  std::optional<double> number(Range r) {
    std::string err;
    auto v = host_.eval(text(r), &err);
    if (!v) {
      host_.problem("math-error", "cannot evaluate '" + text(r) + "'" + (err.empty() ? "" : ": " + err),
                    static_cast<std::uint32_t>(r.b), static_cast<std::uint32_t>(r.e));
      return std::nullopt;
    }
    return v->value;
  }
  // pgf's \pgfmathsetlength: a unitless value is in pt.
  std::optional<double> dimension(Range r) { return number(r); }

  // ------------------------------------------------------------------ points (pgfcorepoints)
  // A point in the current (local) coordinate system, as \pgf@process would leave it.
  std::optional<Point> point(Range r, int depth = 0) {
    if (depth > 32) {
      unsupported("pgf point nested too deeply", r);
      return std::nullopt;
    }
    std::size_t i = r.b;
    skip_space(i, r.e);
    if (i < r.e && t_[i] == '{') {
      // a braced point, e.g. the value of at={\pgfpoint{..}{..}}
      const std::size_t close = matching(i, r.e, '{', '}');
      std::size_t j = close == std::string::npos ? r.e : close + 1;
      skip_space(j, r.e);
      if (close != std::string::npos && j >= r.e) return point({i + 1, close}, depth + 1);
    }
    if (i >= r.e || t_[i] != '\\') {
      unsupported("unsupported pgf point '" + text(r) + "'", r);
      return std::nullopt;
    }
    const std::size_t cb = i;
    const std::string cs = control(i, r.e);
    const Range here{cb, r.e};
    auto args = [&](int n) -> std::optional<std::vector<Range>> {
      std::vector<Range> out;
      for (int k = 0; k < n; ++k) {
        auto a = argument(i, r.e);
        if (!a) {
          unsupported("missing argument of '" + cs + "'", here);
          return std::nullopt;
        }
        out.push_back(*a);
      }
      return out;
    };
    const Settings& s = host_.settings();
    std::optional<Point> out;
    if (cs == "\\pgfpointorigin") {
      out = Point{0, 0};
    } else if (cs == "\\pgfpoint" || cs == "\\pgfqpoint") {
      auto a = args(2);
      if (!a) return std::nullopt;
      auto x = dimension((*a)[0]), y = dimension((*a)[1]);
      if (x && y) out = Point{*x, *y};
    } else if (cs == "\\pgfpointxy" || cs == "\\pgfqpointxy") {
      auto a = args(2);
      if (!a) return std::nullopt;
      auto x = number((*a)[0]), y = number((*a)[1]);
      if (x && y) out = *x * s.xvec + *y * s.yvec;
    } else if (cs == "\\pgfpointxyz" || cs == "\\pgfqpointxyz") {
      auto a = args(3);
      if (!a) return std::nullopt;
      auto x = number((*a)[0]), y = number((*a)[1]), z = number((*a)[2]);
      if (x && y && z) out = *x * s.xvec + *y * s.yvec + *z * s.zvec;
      if (out) host_.mark_3d();  // a point of the xyz frame, as a TikZ (x,y,z) coordinate
    } else if (cs == "\\pgfpointpolar" || cs == "\\pgfqpointpolar" || cs == "\\pgfpointpolarxy") {
      auto a = args(2);
      if (!a) return std::nullopt;
      auto ang = number((*a)[0]);
      // the radius may be "r" or "rx and ry" (pgfcorepoints \pgfpointpolar)
      std::string rad = text((*a)[1]);
      std::optional<double> rx, ry;
      const std::size_t and_at = rad.find(" and ");
      std::size_t base = (*a)[1].b;
      skip_space(base, (*a)[1].e);
      if (and_at != std::string::npos) {
        rx = number({base, base + and_at});
        ry = number({base + and_at + 5, base + rad.size()});
      } else {
        rx = ry = number((*a)[1]);
      }
      if (ang && rx && ry) {
        const double c = std::cos(*ang * kDeg), sn = std::sin(*ang * kDeg);
        if (cs == "\\pgfpointpolarxy") out = (*rx * c) * s.xvec + (*ry * sn) * s.yvec;
        else out = Point{*rx * c, *ry * sn};
      }
    } else if (cs == "\\pgfpointcylindrical") {
      // pgfcorepoints: \pgfpointxyz{r cos a}{r sin a}{z}
      auto a = args(3);
      if (!a) return std::nullopt;
      auto ang = number((*a)[0]), rad = number((*a)[1]), z = number((*a)[2]);
      if (ang && rad && z)
        out = (*rad * std::cos(*ang * kDeg)) * s.xvec + (*rad * std::sin(*ang * kDeg)) * s.yvec + *z * s.zvec;
      if (out) host_.mark_3d();
    } else if (cs == "\\pgfpointspherical") {
      // pgfcorepoints: \pgfpointxyz{r sin(lat+90) cos(lon)}{r sin(lat+90) sin(lon)}{r cos(lat+90)}... with
      // latitude measured from the equator: x = r cos(lat) cos(lon), y = r cos(lat) sin(lon), z = r sin(lat)
      auto a = args(3);
      if (!a) return std::nullopt;
      auto lon = number((*a)[0]), lat = number((*a)[1]), rad = number((*a)[2]);
      if (lon && lat && rad) {
        const double cl = std::cos(*lat * kDeg);
        out = (*rad * cl * std::cos(*lon * kDeg)) * s.xvec + (*rad * cl * std::sin(*lon * kDeg)) * s.yvec +
              (*rad * std::sin(*lat * kDeg)) * s.zvec;
      }
      if (out) host_.mark_3d();
    } else if (cs == "\\pgfpointadd" || cs == "\\pgfpointdiff") {
      auto a = args(2);
      if (!a) return std::nullopt;
      auto p = point((*a)[0], depth + 1), q = point((*a)[1], depth + 1);
      if (p && q) out = cs == "\\pgfpointadd" ? *p + *q : *q - *p;  // diff: second minus first
    } else if (cs == "\\pgfpointscale" || cs == "\\pgfqpointscale") {
      auto a = args(2);
      if (!a) return std::nullopt;
      auto f = number((*a)[0]);
      auto p = point((*a)[1], depth + 1);
      if (f && p) out = *f * *p;
    } else if (cs == "\\pgfpointlineattime") {
      auto a = args(3);
      if (!a) return std::nullopt;
      auto f = number((*a)[0]);
      auto p = point((*a)[1], depth + 1), q = point((*a)[2], depth + 1);
      if (f && p && q) out = *p + *f * (*q - *p);
    } else if (cs == "\\pgfpointlineatdistance") {
      auto a = args(3);
      if (!a) return std::nullopt;
      auto d = dimension((*a)[0]);
      auto p = point((*a)[1], depth + 1), q = point((*a)[2], depth + 1);
      if (d && p && q) {
        const double len = length(*q - *p);
        out = len > 0 ? *p + (*d / len) * (*q - *p) : *p;
      }
    } else if (cs == "\\pgfpointcurveattime") {
      auto a = args(5);
      if (!a) return std::nullopt;
      auto f = number((*a)[0]);
      auto p0 = point((*a)[1], depth + 1), p1 = point((*a)[2], depth + 1), p2 = point((*a)[3], depth + 1),
           p3 = point((*a)[4], depth + 1);
      if (f && p0 && p1 && p2 && p3) out = bezier(*p0, *p1, *p2, *p3, *f);
    } else if (cs == "\\pgfpointarcaxesattime") {
      auto a = args(6);
      if (!a) return std::nullopt;
      auto f = number((*a)[0]);
      auto c = point((*a)[1], depth + 1), ax = point((*a)[2], depth + 1), ay = point((*a)[3], depth + 1);
      auto s0 = number((*a)[4]), s1 = number((*a)[5]);
      if (f && c && ax && ay && s0 && s1) {
        const double ang = (*s0 + *f * (*s1 - *s0)) * kDeg;
        out = *c + std::cos(ang) * *ax + std::sin(ang) * *ay;
      }
    } else if (cs == "\\pgfpointnormalised") {
      auto a = args(1);
      if (!a) return std::nullopt;
      auto p = point((*a)[0], depth + 1);
      // pgfcorepoints: a unit vector of length 1pt; atan2(0,0) = 0 points along +x
      if (p) {
        const double ang = std::atan2(p->y, p->x);
        out = Point{std::cos(ang), std::sin(ang)};
      }
    } else if (cs == "\\pgfpointintersectionoflines") {
      auto a = args(4);
      if (!a) return std::nullopt;
      auto p1 = point((*a)[0], depth + 1), p2 = point((*a)[1], depth + 1), q1 = point((*a)[2], depth + 1),
           q2 = point((*a)[3], depth + 1);
      if (p1 && p2 && q1 && q2) {
        const Point d1 = *p2 - *p1, d2 = *q2 - *q1;
        const double den = d1.x * d2.y - d1.y * d2.x;
        if (std::abs(den) < 1e-12) {
          unsupported("the lines of '" + cs + "' are parallel", here);
          return std::nullopt;
        }
        const Point w = *q1 - *p1;
        out = *p1 + ((w.x * d2.y - w.y * d2.x) / den) * d1;
      }
    } else if (cs == "\\pgfpointintersectionofcircles") {
      auto a = args(5);
      if (!a) return std::nullopt;
      auto c1 = point((*a)[0], depth + 1), c2 = point((*a)[1], depth + 1);
      auto r1 = dimension((*a)[2]), r2 = dimension((*a)[3]);
      auto sol = number((*a)[4]);
      if (c1 && c2 && r1 && r2 && sol) {
        const Point d = *c2 - *c1;
        const double dist = length(d);
        if (dist < 1e-12 || dist > *r1 + *r2 || dist < std::abs(*r1 - *r2)) {
          unsupported("the circles of '" + cs + "' do not intersect", here);
          return std::nullopt;
        }
        const double along = (*r1 * *r1 - *r2 * *r2 + dist * dist) / (2 * dist);
        const double h = std::sqrt(std::max(0.0, *r1 * *r1 - along * along));
        const Point u = (1 / dist) * d, n{-u.y, u.x};
        // pgfpointintersectionofcircles: solution 1 lies to the left of c1 -> c2... pgf orders them
        // so that the first is on the right-hand side when looking from the first center
        const double side = std::lround(*sol) == 1 ? -1 : 1;
        out = *c1 + along * u + (side * h) * n;
      }
    } else if (cs == "\\pgfpointanchor") {
      auto a = args(2);
      if (!a) return std::nullopt;
      const std::string name = text((*a)[0]), anchor = text((*a)[1]);
      auto c = host_.named_anchor(name, anchor);
      if (!c) {
        host_.problem("unsupported-coordinate", "undefined node or anchor '" + name + "." + anchor + "'",
                      static_cast<std::uint32_t>(cb), static_cast<std::uint32_t>(r.e));
        return std::nullopt;
      }
      // pgfcorepoints: the anchor in the current coordinate system (the transformation inverted)
      out = ctm().inverse().apply(*c);
    } else if (cs == "\\pgfpointtransformed") {
      auto a = args(1);
      if (!a) return std::nullopt;
      auto p = point((*a)[0], depth + 1);
      if (p) out = ctm().apply(*p);
    } else if (cs == "\\pgfpointborderrectangle") {
      // the border of a rectangle centered at the origin with corner #2, toward #1
      auto a = args(2);
      if (!a) return std::nullopt;
      auto dir = point((*a)[0], depth + 1), corner = point((*a)[1], depth + 1);
      if (dir && corner) {
        const double w = std::abs(corner->x), h = std::abs(corner->y);
        const double sx = std::abs(dir->x) > 1e-12 ? w / std::abs(dir->x) : 1e300;
        const double sy = std::abs(dir->y) > 1e-12 ? h / std::abs(dir->y) : 1e300;
        const double k = std::min(sx, sy);
        out = k >= 1e300 ? Point{0, 0} : k * *dir;
      }
    } else if (cs == "\\pgfpointborderellipse") {
      auto a = args(2);
      if (!a) return std::nullopt;
      auto dir = point((*a)[0], depth + 1), corner = point((*a)[1], depth + 1);
      if (dir && corner) {
        const double rx = std::abs(corner->x), ry = std::abs(corner->y);
        const double q = (rx > 0 && ry > 0) ? std::sqrt(dir->x * dir->x / (rx * rx) + dir->y * dir->y / (ry * ry)) : 0;
        out = q > 0 ? (1 / q) * *dir : Point{0, 0};
      }
    } else {
      unsupported("unsupported pgf point '" + cs + "'", here);
      return std::nullopt;
    }
    skip_space(i, r.e);
    if (out && i < r.e) unsupported("unexpected text after '" + cs + "'", Range{i, r.e});
    return out;
  }

  static Point bezier(Point p0, Point p1, Point p2, Point p3, double u) {
    const double v = 1 - u;
    return (v * v * v) * p0 + (3 * v * v * u) * p1 + (3 * v * u * u) * p2 + (u * u * u) * p3;
  }
  static Point bezier_tangent(Point p0, Point p1, Point p2, Point p3, double u) {
    const double v = 1 - u;
    return (3 * v * v) * (p1 - p0) + (6 * v * u) * (p2 - p1) + (3 * u * u) * (p3 - p2);
  }

  // ------------------------------------------------------------------ the soft path
  void add(Piece pc) {
    built_any_ = true;
    pc.ctm = ctm();
    switch (pc.kind) {
      case Piece::Kind::move:
        cur_ = subpath_start_ = pc.p;
        break;
      case Piece::Kind::line:
      case Piece::Kind::curve:
        if (!has_cur_) {  // pgf: a path must start with a moveto; the driver moves there
          Piece m;
          m.kind = Piece::Kind::move;
          m.p = pc.p;
          m.ctm = pc.ctm;
          path_.push_back(m);
          subpath_start_ = pc.p;
        }
        cur_ = pc.p;
        break;
      case Piece::Kind::close:
        cur_ = subpath_start_;
        break;
      case Piece::Kind::ellipse:
        cur_ = subpath_start_ = pc.p;  // \pgfpathellipse ends with a moveto to the center
        break;
      case Piece::Kind::arc: {
        const double e = pc.end * kDeg, s = pc.start * kDeg;
        cur_ = cur_ + (std::cos(e) - std::cos(s)) * pc.c1 + (std::sin(e) - std::sin(s)) * pc.c2;
        break;
      }
      case Piece::Kind::rectangle:
        cur_ = subpath_start_ = pc.ctm.apply(pc.la);
        break;
      case Piece::Kind::grid:
        cur_ = subpath_start_ = pc.ctm.apply(pc.lb);
        break;
    }
    has_cur_ = true;
    path_.push_back(pc);
  }
  void add_close() {
    Piece pc;
    pc.kind = Piece::Kind::close;
    add(pc);
  }
  void move_local(Point l) {
    Piece pc;
    pc.kind = Piece::Kind::move;
    pc.p = ctm().apply(l);
    add(pc);
  }
  void line_local(Point l) {
    Piece pc;
    pc.kind = Piece::Kind::line;
    pc.p = ctm().apply(l);
    add(pc);
  }
  void curve_canvas(Point c1, Point c2, Point p) {
    Piece pc;
    pc.kind = Piece::Kind::curve;
    pc.c1 = c1;
    pc.c2 = c2;
    pc.p = p;
    add(pc);
  }
  void curve_local(Point c1, Point c2, Point p) {
    const Transform T = ctm();
    curve_canvas(T.apply(c1), T.apply(c2), T.apply(p));
  }
  // Bezier pieces of an elliptic arc with canvas axes (each at most 90 degrees).
  void arc_as_curves(std::vector<std::string>& out, const Transform& Ti, Point center, Point ax, Point ay, double s,
                     double e) const {
    const int n = std::max(1, static_cast<int>(std::ceil(std::abs(e - s) / 90 - 1e-9)));
    const double step = (e - s) / n * kDeg;
    const double k = 4.0 / 3.0 * std::tan(step / 4);
    for (int i = 0; i < n; ++i) {
      const double a0 = s * kDeg + i * step, a1 = a0 + step;
      auto at = [&](double a) { return center + std::cos(a) * ax + std::sin(a) * ay; };
      auto d = [&](double a) { return -std::sin(a) * ax + std::cos(a) * ay; };
      const Point p0 = at(a0), p1 = at(a1);
      out.push_back(" .. controls " + coord(Ti.apply(p0 + k * d(a0))) + " and " + coord(Ti.apply(p1 - k * d(a1))) +
                    " .. " + coord(Ti.apply(p1)));
    }
  }

  void arc_to(double rx, double ry, double rot_deg, bool large, bool ccw, Point target) {
    const Transform T = ctm();
    const Point p1 = T.inverse().apply(cur_), p2 = target;
    if (length(p2 - p1) < 1e-9) return;
    if (rx < 1e-9 || ry < 1e-9) return line_local(p2);
    const double phi = rot_deg * kDeg, cp = std::cos(phi), sp = std::sin(phi);
    const Point h = 0.5 * (p1 - p2);
    const Point q{cp * h.x + sp * h.y, -sp * h.x + cp * h.y};
    const double lambda = q.x * q.x / (rx * rx) + q.y * q.y / (ry * ry);
    if (lambda > 1) {
      rx *= std::sqrt(lambda);
      ry *= std::sqrt(lambda);
    }
    const double num = rx * rx * ry * ry - rx * rx * q.y * q.y - ry * ry * q.x * q.x;
    const double den = rx * rx * q.y * q.y + ry * ry * q.x * q.x;
    const double coef = (large == ccw ? -1 : 1) * std::sqrt(std::max(0.0, num / den));
    const Point cq{coef * rx * q.y / ry, -coef * ry * q.x / rx};
    const Point u{(q.x - cq.x) / rx, (q.y - cq.y) / ry}, v{(-q.x - cq.x) / rx, (-q.y - cq.y) / ry};
    const double th1 = std::atan2(u.y, u.x) / kDeg;
    double dth = (std::atan2(v.y, v.x) - std::atan2(u.y, u.x)) / kDeg;
    if (!ccw && dth > 0) dth -= 360;
    if (ccw && dth < 0) dth += 360;
    Piece pc;
    pc.kind = Piece::Kind::arc;
    pc.start = th1;
    pc.end = th1 + dth;
    pc.c1 = T.apply_linear({rx * cp, rx * sp});
    pc.c2 = T.apply_linear({-ry * sp, ry * cp});
    add(pc);
  }

  // Emit the soft path as one \path with the given usage.
  void use_path(bool stroke, bool fill, bool clip, bool bbox, Range r) {
    if (path_.empty()) {
      // nothing built in this statement: the path was begun before a blank line or a group end,
      // which end the statement, and its pieces went out unused
      if (!built_any_ && (stroke || fill || clip || bbox))
        unsupported("\\pgfusepath of a path built in an earlier statement is not modelled", r);
      return;
    }
    const Transform T = ctm();
    if (std::abs(T.determinant()) < 1e-12) {
      unsupported("pgf path under a singular transformation", r);
      path_.clear();
      has_cur_ = false;
      return;
    }
    const Transform Ti = T.inverse();
    std::vector<std::string> ops;
    std::string grid_opts;
    Point at{}, start{};  // canvas current point and subpath start while emitting
    // TikZ reads a '(' right after `circle[...]` as an old-style radius (tikz.code.tex
    // \tikz@circle): after a circle or ellipse the next point is written relative to its center
    std::optional<Point> round_center;
    for (const Piece& pc : path_) {
      const bool same = same_transform(pc.ctm, T);
      const std::optional<Point> after_round = round_center;
      round_center.reset();
      auto start_at = [&](Point l) { return after_round ? " ++" + coord(l - *after_round) : " " + coord(l); };
      switch (pc.kind) {
        case Piece::Kind::move:
          ops.push_back(start_at(Ti.apply(pc.p)));
          at = start = pc.p;
          break;
        case Piece::Kind::line:
          ops.push_back(" -- " + coord(Ti.apply(pc.p)));
          at = pc.p;
          break;
        case Piece::Kind::curve:
          ops.push_back(" .. controls " + coord(Ti.apply(pc.c1)) + " and " + coord(Ti.apply(pc.c2)) + " .. " +
                        coord(Ti.apply(pc.p)));
          at = pc.p;
          break;
        case Piece::Kind::close:
          ops.push_back(" -- cycle");
          at = start;
          break;
        case Piece::Kind::ellipse: {
          const Point a = Ti.apply_linear(pc.c1), b = Ti.apply_linear(pc.c2);
          const double eps = 1e-6 * (length(a) + length(b) + 1);
          std::optional<std::pair<double, double>> radii;
          if (std::abs(a.y) < eps && std::abs(b.x) < eps) radii = {std::abs(a.x), std::abs(b.y)};
          else if (std::abs(a.x) < eps && std::abs(b.y) < eps) radii = {std::abs(b.x), std::abs(a.y)};
          const Point lc = Ti.apply(pc.p);
          if (radii && std::abs(radii->first - radii->second) < eps) {
            ops.push_back(start_at(lc) + " circle[radius=" + fmt_pt(radii->first) + "]");
            round_center = lc;
          } else if (radii) {
            ops.push_back(start_at(lc) + " ellipse[x radius=" + fmt_pt(radii->first) + ", y radius=" +
                          fmt_pt(radii->second) + "]");
            round_center = lc;
          } else {
            // pgfcorepathconstruct \pgfpathellipse: four quarter curves from center + first axis
            ops.push_back(start_at(Ti.apply(pc.p + pc.c1)));
            arc_as_curves(ops, Ti, pc.p, pc.c1, pc.c2, 0, 360);
            ops.push_back(" -- cycle " + coord(lc));
          }
          at = start = pc.p;
          break;
        }
        case Piece::Kind::arc: {
          const Point a = Ti.apply_linear(pc.c1), b = Ti.apply_linear(pc.c2);
          const double eps = 1e-6 * (length(a) + length(b) + 1);
          const Point center = at - std::cos(pc.start * kDeg) * pc.c1 - std::sin(pc.start * kDeg) * pc.c2;
          if (std::abs(a.y) < eps && std::abs(b.x) < eps && a.x > 0 && b.y > 0) {
            ops.push_back(" arc[start angle=" + fmt(pc.start) + ", end angle=" + fmt(pc.end) +
                          ", x radius=" + fmt_pt(a.x) + ", y radius=" + fmt_pt(b.y) + "]");
          } else {
            arc_as_curves(ops, Ti, center, pc.c1, pc.c2, pc.start, pc.end);
          }
          at = center + std::cos(pc.end * kDeg) * pc.c1 + std::sin(pc.end * kDeg) * pc.c2;
          break;
        }
        case Piece::Kind::rectangle:
          if (same) {
            ops.push_back(start_at(pc.la) + " rectangle " + coord(pc.lb));
          } else {
            const Point q[4] = {pc.la, {pc.lb.x, pc.la.y}, pc.lb, {pc.la.x, pc.lb.y}};
            ops.push_back(start_at(Ti.apply(pc.ctm.apply(q[0]))));
            for (int k = 1; k < 4; ++k) ops.push_back(" -- " + coord(Ti.apply(pc.ctm.apply(q[k]))));
            ops.push_back(" -- cycle");
          }
          at = start = pc.ctm.apply(pc.la);
          break;
        case Piece::Kind::grid:
          if (!same) {
            unsupported("\\pgfpathgrid used under another transformation than it was built in", r);
            break;
          }
          ops.push_back(start_at(pc.la) + " grid[xstep=" + fmt_pt(pc.step_x) + ", ystep=" + fmt_pt(pc.step_y) +
                        "] " + coord(pc.lb));
          at = start = pc.ctm.apply(pc.lb);
          break;
      }
    }
    std::vector<std::string> opts;
    if (stroke) opts.push_back("draw");
    if (fill) opts.push_back("fill");
    if (clip) opts.push_back("clip");
    if (bbox) opts.push_back("use as bounding box");
    std::string stmt = "\\path";
    if (!opts.empty()) {
      stmt += "[";
      for (std::size_t k = 0; k < opts.size(); ++k) stmt += (k ? ", " : "") + opts[k];
      stmt += "]";
    }
    for (const auto& op : ops) stmt += op;
    stmt += ";";
    const bool data = std::any_of(path_.begin(), path_.end(), [](const Piece& pc) { return pc.data; });
    const std::size_t first = host_.element_count();
    emit(stmt, r);
    if (data) host_.set_element_role(first, "data");
    path_.clear();
    has_cur_ = false;
  }

  // \pgfusepath{stroke, fill, ...} (pgfcorepathusage)
  void use_path_keys(Range keys, Range r) {
    bool stroke = false, fill = false, clip = false, bbox = false;
    std::string k = text(keys);
    std::size_t pos = 0;
    while (pos <= k.size()) {
      std::size_t comma = k.find(',', pos);
      if (comma == std::string::npos) comma = k.size();
      const std::string key(text_trim(std::string_view(k).substr(pos, comma - pos)));
      if (key == "stroke" || key == "draw") stroke = true;
      else if (key == "fill") fill = true;
      else if (key == "clip") clip = true;
      else if (key == "use as bounding box") bbox = true;
      else if (key == "discard" || key.empty() || key == "tips" || key == "arrows") {
      } else unsupported("unsupported \\pgfusepath key '" + key + "'", r);
      pos = comma + 1;
    }
    use_path(stroke, fill, clip, bbox, r);
  }

  // ------------------------------------------------------------------ plot streams (pgfmoduleplot)
  void plot_first(Point p) {
    if (plot_lineto_first_ && has_cur_) line_local(p);
    else move_local(p);
  }
  void flush_plot() {
    const std::vector<Point> q = stream_;
    stream_.clear();
    if (q.empty()) return;
    const std::size_t n = q.size();
    switch (handler_) {
      case PlotHandler::discard:
        break;
      case PlotHandler::lineto:
      case PlotHandler::polygon:
        plot_first(q[0]);
        for (std::size_t k = 1; k < n; ++k) line_local(q[k]);
        if (handler_ == PlotHandler::polygon) add_close();
        break;
      case PlotHandler::curveto: {
        // pgflibraryplothandlers \pgfplothandlercurveto
        plot_first(q[0]);
        if (n < 2) break;
        Point support = q[0];
        for (std::size_t k = 2; k < n; ++k) {
          const Point d = plot_tension_ * (q[k] - q[k - 2]);
          curve_local(support, q[k - 1] - d, q[k - 1]);
          support = q[k - 1] + d;
        }
        curve_local(support, q[n - 1], q[n - 1]);
        break;
      }
      case PlotHandler::closedcurve: {
        // pgflibraryplothandlers \pgfplothandlerclosedcurve: moves to the second point
        if (n < 2) break;
        move_local(q[1]);
        if (n < 3) break;
        const double t = plot_tension_;
        Point d = t * (q[2] - q[0]);
        const Point presupport = q[1] - d;
        Point support = q[1] + d;
        Point first = q[1], second = q[2];
        for (std::size_t k = 3; k < n; ++k) {
          d = t * (q[k] - first);
          curve_local(support, second - d, second);
          first = second;
          support = second + d;
          second = q[k];
        }
        d = t * (q[0] - first);
        curve_local(support, second - d, second);
        support = second + d;
        d = t * (q[1] - second);
        curve_local(support, q[0] - d, q[0]);
        curve_local(q[0] + d, presupport, q[1]);
        add_close();
        break;
      }
      case PlotHandler::xcomb:
        for (Point p : q) {
          move_local({0, p.y});
          line_local(p);
        }
        break;
      case PlotHandler::ycomb:
        for (Point p : q) {
          move_local({p.x, 0});
          line_local(p);
        }
        break;
      case PlotHandler::polarcomb:
        for (Point p : q) {
          move_local({0, 0});
          line_local(p);
        }
        break;
      case PlotHandler::ybar:
      case PlotHandler::xbar:
        // pgflibraryplothandlers \pgf@plot@ybar@handler: a bar of `bar width` from the zero level
        for (Point p : q) {
          Piece pc;
          pc.kind = Piece::Kind::rectangle;
          pc.data = true;
          if (handler_ == PlotHandler::ybar) {
            const double x0 = p.x - bar_width_ / 2 + bar_shift_;
            pc.la = {x0, 0};
            pc.lb = {x0 + bar_width_, p.y};
          } else {
            const double y0 = p.y - bar_width_ / 2 + bar_shift_;
            pc.la = {0, y0};
            pc.lb = {p.x, y0 + bar_width_};
          }
          add(pc);
        }
        break;
      case PlotHandler::ybarinterval:
      case PlotHandler::xbarinterval:
        // pgflibraryplothandlers \pgf@plot@ybarinterval@handler: a bar over each interval
        for (std::size_t k = 1; k < n; ++k) {
          Piece pc;
          pc.kind = Piece::Kind::rectangle;
          pc.data = true;
          const bool y = handler_ == PlotHandler::ybarinterval;
          const double w = y ? q[k].x - q[k - 1].x : q[k].y - q[k - 1].y;
          const double from = (y ? q[k - 1].x : q[k - 1].y) + bar_interval_shift_ * w - 0.5 * bar_interval_width_ * w;
          const double len = bar_interval_width_ * w;
          if (y) {
            pc.la = {from, 0};
            pc.lb = {from + len, q[k - 1].y};
          } else {
            pc.la = {0, from};
            pc.lb = {q[k - 1].x, from + len};
          }
          add(pc);
        }
        break;
      case PlotHandler::constantlineto:
        plot_first(q[0]);
        for (std::size_t k = 1; k < n; ++k) {
          line_local({q[k].x, q[k - 1].y});
          line_local(q[k]);
        }
        break;
      case PlotHandler::constantlinetomarkright:
        plot_first(q[0]);
        for (std::size_t k = 1; k < n; ++k) {
          line_local({q[k - 1].x, q[k].y});
          line_local(q[k]);
        }
        break;
      case PlotHandler::constantlinetomarkmid:
        plot_first(q[0]);
        for (std::size_t k = 1; k < n; ++k) {
          const double xm = (q[k].x + q[k - 1].x) / 2;
          line_local({xm, q[k - 1].y});
          line_local({xm, q[k].y});
          line_local(q[k]);
        }
        break;
      case PlotHandler::jumpmarkleft:
        plot_first(q[0]);
        for (std::size_t k = 1; k < n; ++k) {
          line_local({q[k].x, q[k - 1].y});
          move_local(q[k]);
        }
        break;
      case PlotHandler::jumpmarkright:
        plot_first(q[0]);
        for (std::size_t k = 1; k < n; ++k) {
          move_local({q[k - 1].x, q[k].y});
          line_local(q[k]);
        }
        break;
      case PlotHandler::jumpmarkmid:
        plot_first(q[0]);
        for (std::size_t k = 1; k < n; ++k) {
          const double xm = (q[k].x + q[k - 1].x) / 2;
          line_local({xm, q[k - 1].y});
          move_local({xm, q[k].y});
          line_local(q[k]);
        }
        break;
    }
  }

  // ------------------------------------------------------------------ graphic state
  void tikzset(const std::string& keys, Range r) { emit("\\tikzset{" + keys + "}", r); }

  // \pgfsetdash{{on}{off}...}{phase}
  void set_dash(Range pattern, Range r) {
    std::size_t i = pattern.b;
    std::string spec;
    bool on = true;
    while (true) {
      skip_space(i, pattern.e);
      if (i >= pattern.e) break;
      auto a = argument(i, pattern.e);
      if (!a) {
        unsupported("unsupported dash pattern '" + text(pattern) + "'", r);
        return;
      }
      auto d = dimension(*a);
      if (!d) return;
      spec += std::string(spec.empty() ? "" : " ") + (on ? "on " : "off ") + fmt_pt(*d);
      on = !on;
    }
    tikzset(spec.empty() ? "solid" : "dash pattern=" + spec, r);
  }

  // Concatenate a transformation given in the local system (pgf: applied before the current one).
  void transform_cm(const Transform& m, Range r) {
    tikzset("cm={" + fmt(m.a) + "," + fmt(m.b) + "," + fmt(m.c) + "," + fmt(m.d) + "," + coord({m.e, m.f}) + "}", r);
  }
  // pgfcoretransformations \pgftransformresetnontranslations: keep the canvas shift only.
  void reset_nontranslations(Range r) {
    const Transform T = ctm();
    tikzset("reset cm, shift={" + coord({T.e, T.f}) + "}", r);
  }
  // The shift, and (for sloped placement) the rotation along `dir`, of \pgftransform...attime.
  void transform_at(Point p, Point dir, Range r) {
    transform_cm(Transform::shift(p.x, p.y), r);
    if (reset_nontranslation_at_time_) reset_nontranslations(r);
    if (sloped_at_time_) {
      if (!upside_down_at_time_ && dir.x < 0) dir = -1 * dir;
      const double ang = std::atan2(dir.y, dir.x);
      const double c = std::cos(ang), s = std::sin(ang);
      transform_cm(Transform::cm(c, s, -s, c, 0, 0), r);
    }
  }

  // \pgftext[options]{text} (pgfcorescopes): an hbox placed by its left/right/top/bottom/base.
  void text_box(std::optional<Range> opts, Range body, Range r) {
    std::string h, v;
    Transform local;  // the options' transformations, in order
    if (opts) {
      for (const auto& k : host_.expand_keys(text(*opts))) {
        const std::string key(text_trim(k.key));
        const Range kr = r;
        if (key == "left" || key == "right") h = key == "left" ? "west" : "east";
        else if (key == "top" || key == "bottom") v = key == "top" ? "north" : "south";
        else if (key == "base") v = "base";
        else if (key == "center") {
        } else if (key == "at") {
          const std::size_t vb = t_.find(k.value, opts->b);
          auto p = vb == std::string::npos || vb >= opts->e ? std::nullopt : point({vb, vb + k.value.size()});
          if (!p) {
            if (vb == std::string::npos || vb >= opts->e) unsupported("unsupported \\pgftext at= value", kr);
            return;
          }
          local = local.then_local(Transform::shift(p->x, p->y));
        } else if (key == "x" || key == "y") {
          std::string err;
          auto d = host_.eval(k.value, &err);
          if (!d) {
            unsupported("cannot evaluate \\pgftext " + key + "='" + k.value + "'", kr);
            return;
          }
          local = local.then_local(key == "x" ? Transform::shift(d->value, 0) : Transform::shift(0, d->value));
        } else if (key == "rotate") {
          std::string err;
          auto d = host_.eval(k.value, &err);
          if (!d) {
            unsupported("cannot evaluate \\pgftext rotate='" + k.value + "'", kr);
            return;
          }
          local = local.then_local(Transform::rotate(d->value));
        } else {
          unsupported("unsupported \\pgftext option '" + key + "'", kr);
        }
      }
    }
    std::string anchor = v.empty() && h.empty() ? "center" : v.empty() ? h : h.empty() ? v : v + " " + h;
    const double rot = std::atan2(local.b, local.a) / kDeg;
    // the box goes through the whole current transformation (pgfcorescopes \pgfqboxsynced)
    std::string o = "inner sep=0pt, outer sep=0pt, transform shape, anchor=" + anchor;
    if (std::abs(rot) > 1e-9) o += ", rotate=" + fmt(rot);
    emit("\\node[" + o + "] at " + coord({local.e, local.f}) + " {" + std::string(t_.substr(body.b, body.e - body.b)) +
             "};",
         r);
  }

  // \pgfnode{shape}{anchor}{text}{name}{path usage} (pgfmoduleshapes)
  void node(Range shape, Range anchor, Range body, Range name, Range usage, Range r) {
    // pgfmoduleshapes: the node is placed at the origin and transformed by the whole current
    // transformation, like TikZ's `transform shape`
    std::string u = text(usage), opts = "shape=" + text(shape) + ", anchor=" + text(anchor) + ", transform shape";
    bool draw = false, fill = false;
    if (u.find("\\pgfusepathqfillstroke") != std::string::npos) draw = fill = true;
    else if (u.find("\\pgfusepathqstroke") != std::string::npos) draw = true;
    else if (u.find("\\pgfusepathqfill") != std::string::npos) fill = true;
    else if (u.rfind("\\pgfusepath", 0) == 0) {
      draw = u.find("stroke") != std::string::npos || u.find("draw") != std::string::npos;
      fill = u.find("fill") != std::string::npos;
      if (u.find("clip") != std::string::npos) unsupported("\\pgfnode clipping is not modelled", usage);
    } else if (!u.empty()) {
      unsupported("unsupported \\pgfnode path usage '" + u + "'", usage);
    }
    if (draw) opts += ", draw";
    if (fill) opts += ", fill";
    const std::string nm = text(name);
    emit("\\node[" + opts + "]" + (nm.empty() ? "" : " (" + nm + ")") + " at (0pt,0pt) {" +
             std::string(t_.substr(body.b, body.e - body.b)) + "};",
         r);
  }

  // ------------------------------------------------------------------ commands
  // Runs the commands of [i, e); stops at an unmatched '}' (the end of a group).
  void run_range(std::size_t& i, std::size_t e, int depth) {
    while (true) {
      skip_space(i, e);
      if (i >= e) return;
      const char c = t_[i];
      if (c == '{') {
        // a TeX group: what it sets ends with it
        const std::size_t close = matching(i, e, '{', '}');
        emit("\\begin{scope}", {i, i + 1});
        if (close == std::string::npos) {
          ++open_groups_;
          ++i;
          run_range(i, e, depth + 1);
          continue;
        }
        std::size_t j = i + 1;
        if (depth < 64) run_range(j, close, depth + 1);
        else unsupported("pgf groups nested too deeply", {i, close + 1});
        emit("\\end{scope}", {close, close + 1});
        i = close + 1;
        continue;
      }
      if (c == '}') {
        // closes a group opened in an earlier statement: not ours to end
        unsupported("unbalanced '}' in pgf code", {i, i + 1});
        ++i;
        continue;
      }
      if (c == '%') {
        while (i < e && t_[i] != '\n') ++i;
        continue;
      }
      if (c != '\\') {
        std::size_t j = i;
        while (j < e && t_[j] != '\\' && t_[j] != '{' && t_[j] != '}') ++j;
        unsupported("unexpected text '" + text({i, j}) + "' in pgf code", {i, j});
        i = j;
        continue;
      }
      command(i, e);
    }
  }

  void command(std::size_t& i, std::size_t e) {
    const std::size_t cb = i;
    const std::string cs = control(i, e);
    std::vector<Range> a;
    bool missing = false;
    auto args = [&](int n) {
      a.clear();
      for (int k = 0; k < n; ++k) {
        auto r = argument(i, e);
        if (!r) {
          missing = true;
          return false;
        }
        a.push_back(*r);
      }
      return true;
    };
    auto here = [&] { return Range{cb, i}; };
    auto fail_args = [&] {
      unsupported("missing argument of '" + cs + "'", here());
      return;
    };

    // ---- path construction (pgfcorepathconstruct)
    if (cs == "\\pgfpathmoveto" || cs == "\\pgfpathlineto") {
      if (!args(1)) return fail_args();
      auto p = point(a[0]);
      if (!p) return;
      if (cs == "\\pgfpathmoveto") move_local(*p);
      else line_local(*p);
      return;
    }
    if (cs == "\\pgfpathqmoveto" || cs == "\\pgfpathqlineto") {
      // the quick versions take canvas coordinates and skip the transformation
      if (!args(2)) return fail_args();
      auto x = dimension(a[0]), y = dimension(a[1]);
      if (!x || !y) return;
      Piece pc;
      pc.kind = cs == "\\pgfpathqmoveto" ? Piece::Kind::move : Piece::Kind::line;
      pc.p = {*x, *y};
      add(pc);
      return;
    }
    if (cs == "\\pgfpathcurveto") {
      if (!args(3)) return fail_args();
      auto c1 = point(a[0]), c2 = point(a[1]), p = point(a[2]);
      if (c1 && c2 && p) curve_local(*c1, *c2, *p);
      return;
    }
    if (cs == "\\pgfpathqcurveto") {
      if (!args(6)) return fail_args();
      double v[6];
      for (int k = 0; k < 6; ++k) {
        auto d = dimension(a[static_cast<std::size_t>(k)]);
        if (!d) return;
        v[k] = *d;
      }
      curve_canvas({v[0], v[1]}, {v[2], v[3]}, {v[4], v[5]});
      return;
    }
    if (cs == "\\pgfpathquadraticcurveto") {
      if (!args(2)) return fail_args();
      auto c = point(a[0]), p = point(a[1]);
      if (!c || !p) return;
      // a quadratic curve is the cubic with controls 2/3 of the way to the control point
      const Transform T = ctm();
      const Point cc = T.apply(*c), pc = T.apply(*p), s = has_cur_ ? cur_ : cc;
      curve_canvas(s + (2.0 / 3) * (cc - s), pc + (2.0 / 3) * (cc - pc), pc);
      return;
    }
    if (cs == "\\pgfpathclose") {
      if (has_cur_) add_close();
      return;
    }
    if (cs == "\\pgfpathcircle" || cs == "\\pgfpathellipse" || cs == "\\pgfpathqcircle") {
      Piece pc;
      pc.kind = Piece::Kind::ellipse;
      const Transform T = ctm();
      if (cs == "\\pgfpathqcircle") {
        if (!args(1)) return fail_args();
        auto rad = dimension(a[0]);
        if (!rad) return;
        pc.p = {0, 0};
        pc.c1 = {*rad, 0};
        pc.c2 = {0, *rad};
      } else if (cs == "\\pgfpathcircle") {
        if (!args(2)) return fail_args();
        auto c = point(a[0]);
        auto rad = dimension(a[1]);
        if (!c || !rad) return;
        pc.p = T.apply(*c);
        pc.c1 = T.apply_linear({*rad, 0});
        pc.c2 = T.apply_linear({0, *rad});
      } else {
        if (!args(3)) return fail_args();
        auto c = point(a[0]), ax = point(a[1]), ay = point(a[2]);
        if (!c || !ax || !ay) return;
        pc.p = T.apply(*c);
        pc.c1 = T.apply_linear(*ax);
        pc.c2 = T.apply_linear(*ay);
      }
      add(pc);
      return;
    }
    if (cs == "\\pgfpatharc" || cs == "\\pgfpatharcaxes") {
      const bool axes = cs == "\\pgfpatharcaxes";
      if (!args(axes ? 4 : 3)) return fail_args();
      auto s = number(a[0]), en = number(a[1]);
      if (!s || !en) return;
      Point ax, ay;
      if (axes) {
        auto p = point(a[2]), q = point(a[3]);
        if (!p || !q) return;
        ax = *p;
        ay = *q;
      } else {
        // the radius is "r" or "rx and ry"
        const std::string rad = text(a[2]);
        const std::size_t and_at = rad.find(" and ");
        std::optional<double> rx, ry;
        if (and_at == std::string::npos) {
          rx = ry = dimension(a[2]);
        } else {
          std::size_t b = a[2].b;
          skip_space(b, a[2].e);
          rx = dimension({b, b + and_at});
          ry = dimension({b + and_at + 5, b + rad.size()});
        }
        if (!rx || !ry) return;
        ax = {*rx, 0};
        ay = {0, *ry};
      }
      if (!has_cur_) {
        unsupported("'" + cs + "' without a current point", here());
        return;
      }
      Piece pc;
      pc.kind = Piece::Kind::arc;
      pc.start = *s;
      pc.end = *en;
      pc.c1 = ctm().apply_linear(ax);
      pc.c2 = ctm().apply_linear(ay);
      add(pc);
      return;
    }
    if (cs == "\\pgfpatharcto") {
      // {rx}{ry}{rotation}{large arc}{counterclockwise}{target}: SVG's arc, converted to the
      // center parameterisation (SVG 1.1 implementation notes F.6.5) in the local system
      if (!args(6)) return fail_args();
      auto rx = dimension(a[0]), ry = dimension(a[1]), rot = number(a[2]), large = number(a[3]),
           ccw = number(a[4]);
      auto target = point(a[5]);
      if (!rx || !ry || !rot || !large || !ccw || !target) return;
      if (!has_cur_) {
        unsupported("'" + cs + "' without a current point", here());
        return;
      }
      arc_to(std::abs(*rx), std::abs(*ry), *rot, *large != 0, *ccw != 0, *target);
      return;
    }
    if (cs == "\\pgfpathrectangle" || cs == "\\pgfpathrectanglecorners") {
      if (!args(2)) return fail_args();
      auto p = point(a[0]), q = point(a[1]);
      if (!p || !q) return;
      Piece pc;
      pc.kind = Piece::Kind::rectangle;
      pc.la = *p;
      pc.lb = cs == "\\pgfpathrectangle" ? *p + *q : *q;
      add(pc);
      return;
    }
    if (cs == "\\pgfpathgrid") {
      auto opts = optional_argument(i, e);
      if (!args(2)) return fail_args();
      auto p = point(a[0]), q = point(a[1]);
      if (!p || !q) return;
      // pgfcorepathconstruct: /pgf/stepx and /pgf/stepy default to 1cm
      double sx = kPtPerCm, sy = kPtPerCm;
      if (opts) {
        for (const auto& k : host_.expand_keys(text(*opts))) {
          const std::string key(text_trim(k.key));
          std::string err;
          auto d = host_.eval(k.value, &err);
          if (!d) {
            unsupported("cannot evaluate \\pgfpathgrid " + key + "='" + k.value + "'", here());
            continue;
          }
          if (key == "stepx" || key == "step") sx = d->value;
          if (key == "stepy" || key == "step") sy = d->value;
          if (key != "stepx" && key != "stepy" && key != "step")
            unsupported("unsupported \\pgfpathgrid option '" + key + "'", here());
        }
      }
      Piece pc;
      pc.kind = Piece::Kind::grid;
      pc.la = {std::min(p->x, q->x), std::min(p->y, q->y)};
      pc.lb = {std::max(p->x, q->x), std::max(p->y, q->y)};
      pc.step_x = sx;
      pc.step_y = sy;
      add(pc);
      return;
    }
    if (cs == "\\pgfpathsine" || cs == "\\pgfpathcosine") {
      if (!args(1)) return fail_args();
      auto v = point(a[0]);
      if (!v) return;
      if (!has_cur_) {
        unsupported("'" + cs + "' without a current point", here());
        return;
      }
      // the controls are the vector's fractions, transformed linearly, from the last point
      const double* k = cs == "\\pgfpathsine" ? kSine : kCosine;
      const Transform T = ctm();
      const Point o = cur_;
      curve_canvas(o + T.apply_linear({k[0] * v->x, k[1] * v->y}), o + T.apply_linear({k[2] * v->x, k[3] * v->y}),
                   o + T.apply_linear(*v));
      return;
    }
    if (cs == "\\pgfpathparabola") {
      if (!args(2)) return fail_args();
      auto bend = point(a[0]), end = point(a[1]);
      if (!bend || !end) return;
      if (!has_cur_) {
        unsupported("'" + cs + "' without a current point", here());
        return;
      }
      const Transform T = ctm();
      auto piece = [&](Point v, const double* k) {
        const Point o = cur_;
        curve_canvas(o + T.apply_linear({k[0] * v.x, k[1] * v.y}), o + T.apply_linear({k[2] * v.x, k[3] * v.y}),
                     o + T.apply_linear(v));
      };
      if (bend->x != 0 || bend->y != 0) piece(*bend, kParabolaIn);
      if (end->x != 0 || end->y != 0) piece(*end, kParabolaOut);
      return;
    }

    // ---- path usage (pgfcorepathusage)
    if (cs == "\\pgfusepath") {
      if (!args(1)) return fail_args();
      use_path_keys(a[0], here());
      return;
    }
    if (cs == "\\pgfusepathqstroke") return use_path(true, false, false, false, here());
    if (cs == "\\pgfusepathqfill") return use_path(false, true, false, false, here());
    if (cs == "\\pgfusepathqfillstroke") return use_path(true, true, false, false, here());
    if (cs == "\\pgfusepathqclip") return use_path(false, false, true, false, here());

    // ---- transformations (pgfcoretransformations)
    if (cs == "\\pgftransformshift") {
      if (!args(1)) return fail_args();
      if (auto p = point(a[0])) transform_cm(Transform::shift(p->x, p->y), here());
      return;
    }
    if (cs == "\\pgftransformxshift" || cs == "\\pgftransformyshift") {
      if (!args(1)) return fail_args();
      if (auto d = dimension(a[0]))
        transform_cm(cs == "\\pgftransformxshift" ? Transform::shift(*d, 0) : Transform::shift(0, *d), here());
      return;
    }
    if (cs == "\\pgftransformscale" || cs == "\\pgftransformxscale" || cs == "\\pgftransformyscale") {
      if (!args(1)) return fail_args();
      if (auto f = number(a[0])) {
        const double sx = cs == "\\pgftransformyscale" ? 1 : *f, sy = cs == "\\pgftransformxscale" ? 1 : *f;
        transform_cm(Transform::scale(sx, sy), here());
      }
      return;
    }
    if (cs == "\\pgftransformxslant" || cs == "\\pgftransformyslant") {
      if (!args(1)) return fail_args();
      if (auto f = number(a[0]))
        transform_cm(cs == "\\pgftransformxslant" ? Transform::xslant(*f) : Transform::yslant(*f), here());
      return;
    }
    if (cs == "\\pgftransformrotate") {
      if (!args(1)) return fail_args();
      if (auto f = number(a[0])) transform_cm(Transform::rotate(*f), here());
      return;
    }
    if (cs == "\\pgftransformcm") {
      if (!args(5)) return fail_args();
      auto m0 = number(a[0]), m1 = number(a[1]), m2 = number(a[2]), m3 = number(a[3]);
      auto p = point(a[4]);
      if (m0 && m1 && m2 && m3 && p) transform_cm(Transform::cm(*m0, *m1, *m2, *m3, p->x, p->y), here());
      return;
    }
    if (cs == "\\pgftransformtriangle") {
      // (0,0) -> #1, (1pt,0) -> #2, (0,1pt) -> #3
      if (!args(3)) return fail_args();
      auto p = point(a[0]), q = point(a[1]), w = point(a[2]);
      if (p && q && w) transform_cm(Transform::cm(q->x - p->x, q->y - p->y, w->x - p->x, w->y - p->y, p->x, p->y), here());
      return;
    }
    if (cs == "\\pgftransformarrow") {
      // shift to #2 and turn the x axis along #1 -> #2
      if (!args(2)) return fail_args();
      auto p = point(a[0]), q = point(a[1]);
      if (!p || !q) return;
      const double ang = std::atan2(q->y - p->y, q->x - p->x);
      const double c = std::cos(ang), s = std::sin(ang);
      transform_cm(Transform::cm(c, s, -s, c, q->x, q->y), here());
      return;
    }
    if (cs == "\\pgftransformlineattime") {
      if (!args(3)) return fail_args();
      auto f = number(a[0]);
      auto p = point(a[1]), q = point(a[2]);
      if (f && p && q) transform_at(*p + *f * (*q - *p), *q - *p, here());
      return;
    }
    if (cs == "\\pgftransformcurveattime") {
      if (!args(5)) return fail_args();
      auto f = number(a[0]);
      auto p0 = point(a[1]), p1 = point(a[2]), p2 = point(a[3]), p3 = point(a[4]);
      if (f && p0 && p1 && p2 && p3)
        transform_at(bezier(*p0, *p1, *p2, *p3, *f), bezier_tangent(*p0, *p1, *p2, *p3, *f), here());
      return;
    }
    if (cs == "\\pgftransformarcaxesattime") {
      if (!args(6)) return fail_args();
      auto f = number(a[0]);
      auto c = point(a[1]), ax = point(a[2]), ay = point(a[3]);
      auto s0 = number(a[4]), s1 = number(a[5]);
      if (!f || !c || !ax || !ay || !s0 || !s1) return;
      const double ang = (*s0 + *f * (*s1 - *s0)) * kDeg;
      const double sgn = *s1 >= *s0 ? 1 : -1;
      transform_at(*c + std::cos(ang) * *ax + std::sin(ang) * *ay, sgn * (-std::sin(ang) * *ax + std::cos(ang) * *ay),
                   here());
      return;
    }
    if (cs == "\\pgftransformreset") return tikzset("reset cm", here());
    if (cs == "\\pgftransformresetnontranslations") return reset_nontranslations(here());
    if (cs == "\\pgftransforminvert") {
      const Transform inv = ctm().inverse();
      tikzset("reset cm", here());
      transform_cm(inv, here());
      return;
    }
    if (cs == "\\pgfslopedattimetrue" || cs == "\\pgfslopedattimefalse") {
      sloped_at_time_ = cs == "\\pgfslopedattimetrue";
      return;
    }
    if (cs == "\\pgfresetnontranslationattimetrue" || cs == "\\pgfresetnontranslationattimefalse") {
      reset_nontranslation_at_time_ = cs == "\\pgfresetnontranslationattimetrue";
      return;
    }
    if (cs == "\\pgfallowupsidedownattimetrue" || cs == "\\pgfallowupsidedownattimefalse") {
      upside_down_at_time_ = cs == "\\pgfallowupsidedownattimetrue";
      return;
    }

    // ---- graphic state (pgfcoregraphicstate)
    if (cs == "\\pgfsetlinewidth") {
      if (!args(1)) return fail_args();
      if (auto d = dimension(a[0])) tikzset("line width=" + fmt_pt(*d), here());
      return;
    }
    if (cs == "\\pgfsetdash") {
      if (!args(2)) return fail_args();
      set_dash(a[0], here());
      return;
    }
    if (cs == "\\pgfsetcolor" || cs == "\\color") {
      if (!args(1)) return fail_args();
      tikzset("color=" + text(a[0]), here());
      return;
    }
    if (cs == "\\pgfsetcornersarced") {
      if (!args(1)) return fail_args();
      auto p = point(a[0]);
      if (!p) return;
      tikzset(p->x == 0 && p->y == 0 ? "sharp corners" : "rounded corners=" + fmt_pt(std::max(p->x, p->y)), here());
      return;
    }
    if (cs == "\\pgfsetarrows" || cs == "\\pgfsetarrowsstart" || cs == "\\pgfsetarrowsend") {
      if (!args(1)) return fail_args();
      const Style& st = host_.settings().style;
      bool s0 = st.arrow_start, s1 = st.arrow_end;
      const std::string spec = text(a[0]);
      if (cs == "\\pgfsetarrows") {
        const std::size_t dash = spec.find('-');
        if (dash == std::string::npos) {
          unsupported("unsupported arrow specification '" + spec + "'", here());
          return;
        }
        s0 = !text_trim(std::string_view(spec).substr(0, dash)).empty();
        s1 = !text_trim(std::string_view(spec).substr(dash + 1)).empty();
      } else {
        (cs == "\\pgfsetarrowsstart" ? s0 : s1) = !spec.empty();
      }
      tikzset(std::string("arrows=") + (s0 ? "<" : "") + "-" + (s1 ? ">" : ""), here());
      return;
    }
    if (cs == "\\pgfsetxvec" || cs == "\\pgfsetyvec" || cs == "\\pgfsetzvec") {
      if (!args(1)) return fail_args();
      if (auto p = point(a[0])) tikzset(std::string(1, cs[7]) + "={" + coord(*p) + "}", here());
      return;
    }
    if (cs == "\\pgfset") {
      // /pgf/ keys (inner sep, minimum width, ...) are TikZ keys too; the plot handlers' bar keys
      // are read here (pgflibraryplothandlers)
      if (!args(1)) return fail_args();
      std::string rest;
      for (const auto& k : host_.expand_keys(text(a[0]))) {
        const std::string key(text_trim(k.key));
        double* slot = key == "bar width"            ? &bar_width_
                       : key == "bar shift"          ? &bar_shift_
                       : key == "bar interval width" ? &bar_interval_width_
                       : key == "bar interval shift" ? &bar_interval_shift_
                                                     : nullptr;
        if (slot) {
          std::string err;
          if (auto d = host_.eval(k.value, &err)) *slot = d->value;
          else unsupported("cannot evaluate " + key + "='" + k.value + "'", here());
          continue;
        }
        rest += (rest.empty() ? "" : ", ") + k.key + (k.has_value ? "={" + k.value + "}" : "");
      }
      if (!rest.empty()) tikzset(rest, here());
      return;
    }
    // colors, opacity, caps, joins, fill rules: no geometry (pgfcoregraphicstate, pgfcoretransparency)
    static const std::pair<const char*, int> kCosmetic[] = {
        {"\\pgfsetstrokecolor", 1}, {"\\pgfsetfillcolor", 1},     {"\\pgfsetfillopacity", 1},
        {"\\pgfsetstrokeopacity", 1}, {"\\pgfsetopacity", 1},     {"\\pgfsetroundcap", 0},
        {"\\pgfsetbuttcap", 0},       {"\\pgfsetrectcap", 0},     {"\\pgfsetroundjoin", 0},
        {"\\pgfsetbeveljoin", 0},     {"\\pgfsetmiterjoin", 0},   {"\\pgfsetmiterlimit", 1},
        {"\\pgfseteorule", 0},        {"\\pgfsetnonzerorule", 0}, {"\\pgfsetinnerlinewidth", 1},
        {"\\pgfsetinnerstrokecolor", 1}, {"\\pgfsetblendmode", 1}, {"\\pgfsetbaseline", 1},
        {"\\pgfsetplotmarksize", 1},  {"\\relax", 0},             {"\\ignorespaces", 0},
        {"\\pgfdeclarelayer", 1},   {"\\pgfsetlayers", 1},       {"\\pgfmathsetmacro", 2},
        {"\\pgfmathtruncatemacro", 2}, {"\\pgfmathparse", 1},   {"\\pgfmathsetseed", 1}};
    for (const auto& [name, n] : kCosmetic) {
      if (cs == name) {
        if (!args(n)) return fail_args();
        return;
      }
    }

    // Animations and the ids they target (pgfmoduleanimations, pgfcorescopes): only the svg driver
    // animates; in PDF \pgfsys@animate only warns and the static picture is what is drawn
    // (pgfmanual "Animations"). Snapshots do change the static picture and stay unsupported.
    static const std::pair<const char*, int> kAnimation[] = {
        {"\\pgfanimateattribute", 2}, {"\\pgfanimateattributecode", 2}, {"\\pgfidrefnextuse", 2},
        {"\\pgfidrefprevuse", 2},     {"\\pgfaliasid", 2},              {"\\pgfidscope", 0},
        {"\\endpgfidscope", 0}};
    for (const auto& [name, n] : kAnimation) {
      if (cs == name) {
        if (!args(n)) return fail_args();
        return;
      }
    }

    // ---- scopes and text (pgfcorescopes)
    if (cs == "\\pgfscope") return emit("\\begin{scope}", here());
    if (cs == "\\endpgfscope") return emit("\\end{scope}", here());
    if (cs == "\\pgftext") {
      auto opts = optional_argument(i, e);
      if (!args(1)) return fail_args();
      text_box(opts, a[0], here());
      return;
    }

    // ---- nodes (pgfmoduleshapes)
    if (cs == "\\pgfnode") {
      if (!args(5)) return fail_args();
      node(a[0], a[1], a[2], a[3], a[4], here());
      return;
    }
    if (cs == "\\pgfcoordinate") {
      if (!args(2)) return fail_args();
      if (auto p = point(a[1])) emit("\\coordinate (" + text(a[0]) + ") at " + coord(*p) + ";", here());
      return;
    }

    // ---- plots (pgfmoduleplot, pgflibraryplothandlers)
    static const std::pair<const char*, PlotHandler> kHandlers[] = {
        {"\\pgfplothandlerlineto", PlotHandler::lineto},
        {"\\pgfplothandlerpolygon", PlotHandler::polygon},
        {"\\pgfplothandlerdiscard", PlotHandler::discard},
        {"\\pgfplothandlercurveto", PlotHandler::curveto},
        {"\\pgfplothandlerclosedcurve", PlotHandler::closedcurve},
        {"\\pgfplothandlerxcomb", PlotHandler::xcomb},
        {"\\pgfplothandlerycomb", PlotHandler::ycomb},
        {"\\pgfplothandlerpolarcomb", PlotHandler::polarcomb},
        {"\\pgfplothandlerxbar", PlotHandler::xbar},
        {"\\pgfplothandlerybar", PlotHandler::ybar},
        {"\\pgfplothandlerxbarinterval", PlotHandler::xbarinterval},
        {"\\pgfplothandlerybarinterval", PlotHandler::ybarinterval},
        {"\\pgfplothandlerconstantlineto", PlotHandler::constantlineto},
        {"\\pgfplothandlerconstantlinetomarkright", PlotHandler::constantlinetomarkright},
        {"\\pgfplothandlerconstantlinetomarkmid", PlotHandler::constantlinetomarkmid},
        {"\\pgfplothandlerjumpmarkleft", PlotHandler::jumpmarkleft},
        {"\\pgfplothandlerjumpmarkright", PlotHandler::jumpmarkright},
        {"\\pgfplothandlerjumpmarkmid", PlotHandler::jumpmarkmid},
    };
    for (const auto& [name, h] : kHandlers) {
      if (cs == name) {
        handler_ = h;
        return;
      }
    }
    if (cs == "\\pgfsetlinetofirstplotpoint" || cs == "\\pgfsetmovetofirstplotpoint") {
      plot_lineto_first_ = cs == "\\pgfsetlinetofirstplotpoint";
      return;
    }
    if (cs == "\\pgfsetplottension") {
      if (!args(1)) return fail_args();
      if (auto f = number(a[0])) plot_tension_ = kPlotTensionFactor * *f;
      return;
    }
    if (cs == "\\pgfplotstreamstart") {
      stream_.clear();
      return;
    }
    if (cs == "\\pgfplotstreampoint") {
      if (!args(1)) return fail_args();
      if (auto p = point(a[0])) stream_.push_back(*p);
      return;
    }
    if (cs == "\\pgfplotstreamend") {
      flush_plot();
      return;
    }

    // anything else: reported, with what looks like its arguments skipped
    while (optional_argument(i, e)) {
    }
    while (true) {
      std::size_t j = i;
      skip_space(j, e);
      if (j >= e || t_[j] != '{') break;
      if (!argument(i, e)) break;
    }
    unsupported("unsupported pgf command '" + cs + "'", here());
    (void)missing;
  }
};

}  // namespace

bool lower_pgf_basic(const tex::Statement& st, LibraryHost& host) {
  PgfLowerer(st, host).run();
  return true;
}

}  // namespace tikzlint::ir

namespace tikzlint::packages {

std::unique_ptr<ir::Package> pgf() {
  return statement_package("pgf", [](const ir::PackageStatement& s, ir::LibraryHost& host) {
    // every other \\pgf command of a picture is the basic layer's (\\pgfmathsetmacro and the like
    // are bookkeeping the plain lowering skips before offering)
    if (s.path || !(s.command.substr(0, 4) == "\\pgf" || s.command == "\\color")) return ir::Offer::pass;
    return ir::lower_pgf_basic(s.st, host) ? ir::Offer::lowered : ir::Offer::declined;
  });
}

}  // namespace tikzlint::packages
