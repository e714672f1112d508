// ir/svg.cpp: ir::to_svg, the IR drawn as the verifier sees it, to set beside TeX's rendering.
// Units are pt (the viewBox is in pt, y flipped as TeX's y grows upwards). Node boxes are blue,
// clips and the canvas dashed, elements and nodes that a finding points at are red.
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string_view>

#include "ir/ir.hpp"

namespace tikzlint::ir {

namespace {

constexpr double kMarginPt = 10;
constexpr const char* kFindingColor = "#d62728";

std::string n(double v) {
  if (!std::isfinite(v)) v = 0;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  std::string s = buf;
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s == "-0" ? "0" : s;
}

// TeX's y grows upwards, SVG's downwards.
std::string xy(const Point& p) { return n(p.x) + "," + n(-p.y); }

std::string xml_escape(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n') out += '?';
        else out += c;
    }
  }
  return out;
}

// xcolor's base names as SVG colours; mixes such as "red!50!black" use their first colour.
std::string svg_color(const std::string& tikz, const char* fallback) {
  static const std::pair<std::string_view, const char*> table[] = {
      {"black", "#000000"},   {"white", "#ffffff"}, {"red", "#ff0000"},     {"green", "#00ff00"},
      {"blue", "#0000ff"},    {"cyan", "#00ffff"},  {"magenta", "#ff00ff"}, {"yellow", "#ffff00"},
      {"gray", "#808080"},    {"darkgray", "#404040"}, {"lightgray", "#bfbfbf"}, {"brown", "#bf8040"},
      {"lime", "#bfff00"},    {"olive", "#808000"}, {"orange", "#ff8000"},  {"pink", "#ffbfbf"},
      {"purple", "#bf0040"},  {"teal", "#008080"},  {"violet", "#800080"},
  };
  std::string base = tikz.substr(0, tikz.find('!'));
  for (const auto& [name, hex] : table)
    if (base == name) return hex;
  return fallback;
}

std::vector<Point> ellipse_points(Point c, double rx, double ry, double rot_deg, double from_deg, double to_deg) {
  std::vector<Point> pts;
  double sweep = to_deg - from_deg;
  int steps = std::clamp(static_cast<int>(std::ceil(std::abs(sweep) / 5.0)), 2, 400);
  double rot = rot_deg * std::numbers::pi / 180;
  for (int i = 0; i <= steps; ++i) {
    double t = (from_deg + sweep * i / steps) * std::numbers::pi / 180;
    double x = rx * std::cos(t), y = ry * std::sin(t);
    pts.push_back({c.x + x * std::cos(rot) - y * std::sin(rot), c.y + x * std::sin(rot) + y * std::cos(rot)});
  }
  return pts;
}

std::string poly_d(const std::vector<Point>& pts, bool closed) {
  std::string d;
  for (std::size_t i = 0; i < pts.size(); ++i) d += (i ? " L" : "M") + xy(pts[i]);
  if (closed && !pts.empty()) d += " Z";
  return d;
}

// The SVG path data of one geometry, plus whether it encloses an area (for the fill).
struct PathData {
  std::string d;
  bool area = false;
};

struct GeometryPath {
  PathData operator()(const Segment& g) const { return {"M" + xy(g.a) + " L" + xy(g.b)}; }
  PathData operator()(const Polyline& g) const { return {poly_d(g.points, g.closed), g.closed}; }
  PathData operator()(const Rectangle& g) const {
    return {poly_d({g.corners.begin(), g.corners.end()}, true), true};
  }
  PathData operator()(const Circle& g) const {
    return {poly_d(ellipse_points(g.center, g.radius, g.radius, 0, 0, 360), true), true};
  }
  PathData operator()(const Ellipse& g) const {
    return {poly_d(ellipse_points(g.center, g.rx, g.ry, g.rotation_deg, 0, 360), true), true};
  }
  PathData operator()(const Arc& g) const {
    return {poly_d(ellipse_points(g.center, g.rx, g.ry, g.rotation_deg, g.start_deg, g.end_deg), false)};
  }
  PathData operator()(const Bezier& g) const {
    return {"M" + xy(g.p0) + " C" + xy(g.c1) + " " + xy(g.c2) + " " + xy(g.p1)};
  }
  PathData operator()(const Grid& g) const {
    // corners[0] is the origin; corners[1] and corners[3] its neighbours along the two axes.
    const Point o = g.corners[0], u{g.corners[1].x - o.x, g.corners[1].y - o.y},
                v{g.corners[3].x - o.x, g.corners[3].y - o.y};
    std::string d;
    auto lines = [&](Point along, Point across, double step) {
      double len = std::hypot(along.x, along.y);
      if (!(step > 0) || len <= 0) return;
      int count = std::min(500, static_cast<int>(std::floor(len / step + 1e-9)));
      for (int i = 0; i <= count; ++i) {
        double t = std::min(1.0, i * step / len);
        Point a{o.x + along.x * t, o.y + along.y * t};
        d += " M" + xy(a) + " L" + xy({a.x + across.x, a.y + across.y});
      }
    };
    lines(u, v, g.step_x);
    lines(v, u, g.step_y);
    d += " " + poly_d({g.corners.begin(), g.corners.end()}, true);
    return {d};
  }
  PathData operator()(const RightAngleMark& g) const {
    Point far{g.leg_a.x + g.leg_b.x - g.corner.x, g.leg_a.y + g.leg_b.y - g.corner.y};
    return {"M" + xy(g.leg_a) + " L" + xy(far) + " L" + xy(g.leg_b)};
  }
  PathData operator()(const Face3D& g) const { return {poly_d(g.points, true), true}; }
  PathData operator()(const Plot& g) const { return {poly_d(g.points, false)}; }
};

struct Bounds {
  double xmin = INFINITY, ymin = INFINITY, xmax = -INFINITY, ymax = -INFINITY;
  void add(Point p) {
    if (!std::isfinite(p.x) || !std::isfinite(p.y)) return;
    xmin = std::min(xmin, p.x), xmax = std::max(xmax, p.x);
    ymin = std::min(ymin, p.y), ymax = std::max(ymax, p.y);
  }
  void add(const Box& b) {
    add(Point{b.xmin, b.ymin});
    add(Point{b.xmax, b.ymax});
  }
  bool empty() const { return !(xmin <= xmax); }
};

struct CollectPoints {
  Bounds& b;
  void operator()(const Segment& g) const { b.add(g.a), b.add(g.b); }
  void operator()(const Polyline& g) const { for (auto p : g.points) b.add(p); }
  void operator()(const Rectangle& g) const { for (auto p : g.corners) b.add(p); }
  void operator()(const Circle& g) const { b.add(Box{g.center.x - g.radius, g.center.y - g.radius, g.center.x + g.radius, g.center.y + g.radius}); }
  void operator()(const Ellipse& g) const { for (auto p : ellipse_points(g.center, g.rx, g.ry, g.rotation_deg, 0, 360)) b.add(p); }
  void operator()(const Arc& g) const { for (auto p : ellipse_points(g.center, g.rx, g.ry, g.rotation_deg, g.start_deg, g.end_deg)) b.add(p); }
  void operator()(const Bezier& g) const { b.add(g.p0), b.add(g.c1), b.add(g.c2), b.add(g.p1); }
  void operator()(const Grid& g) const { for (auto p : g.corners) b.add(p); }
  void operator()(const RightAngleMark& g) const { b.add(g.corner), b.add(g.leg_a), b.add(g.leg_b); }
  void operator()(const Face3D& g) const { for (auto p : g.points) b.add(p); }
  void operator()(const Plot& g) const { for (auto p : g.points) b.add(p); }
};

bool overlaps(const SourceRange& a, const SourceRange& b) {
  if (!a.valid || !b.valid || a.file != b.file) return false;
  if (a.begin == a.end || b.begin == b.end) return a.begin >= b.begin && a.begin <= b.end;
  return a.begin < b.end && b.begin < a.end;
}

// The messages of the findings that point into `range` (empty: not implicated).
std::string finding_titles(const std::vector<Diagnostic>& findings, const SourceRange& range) {
  std::string out;
  for (const auto& f : findings)
    if (overlaps(f.range, range)) out += (out.empty() ? "" : "\n") + f.message + " [" + f.rule + "]";
  return out;
}

std::string title_tag(const std::string& t) { return t.empty() ? "" : "<title>" + xml_escape(t) + "</title>"; }

std::string dash_array(const std::string& dash, double width) {
  if (dash.empty() || dash == "solid") return "";
  double w = std::max(width, 0.4);
  if (dash.find("dot") != std::string::npos) return n(w) + " " + n(2 * w + 1.5);
  return n(3 * w + 2) + " " + n(3 * w + 2);
}

}  // namespace

std::string to_svg(const Diagram& d, const std::vector<Diagnostic>& findings) {
  Bounds b;
  if (d.has_picture_bbox) b.add(d.picture_bbox);
  if (d.canvas) b.add(*d.canvas);
  for (const auto& c : d.clips) b.add(c.bounds);
  for (const auto& e : d.elements) std::visit(CollectPoints{b}, e.geom);
  for (const auto& nd : d.nodes) b.add(nd.box);
  if (b.empty()) b.add(Box{0, 0, 0, 0});
  double x0 = b.xmin - kMarginPt, y0 = b.ymin - kMarginPt;
  double w = b.xmax - b.xmin + 2 * kMarginPt, h = b.ymax - b.ymin + 2 * kMarginPt;

  std::string s;
  s += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  s += "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" + n(w) + "pt\" height=\"" + n(h) +
       "pt\" viewBox=\"" + n(x0) + " " + n(-(y0 + h)) + " " + n(w) + " " + n(h) + "\">\n";
  s += "<!-- tikzlint ir: units are TeX points; node boxes blue, clips dashed, findings red -->\n";
  s += "<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"6\" "
       "markerHeight=\"6\" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\"/></marker></defs>\n";
  s += "<rect x=\"" + n(x0) + "\" y=\"" + n(-(y0 + h)) + "\" width=\"" + n(w) + "\" height=\"" + n(h) +
       "\" fill=\"#ffffff\"/>\n";

  if (d.canvas) {
    const Box& c = *d.canvas;
    s += "<rect class=\"canvas\" x=\"" + n(c.xmin) + "\" y=\"" + n(-c.ymax) + "\" width=\"" + n(c.width()) +
         "\" height=\"" + n(c.height()) + "\" fill=\"none\" stroke=\"#7f7f7f\" stroke-width=\"0.5\" "
         "stroke-dasharray=\"4 2\"><title>canvas (" + xml_escape(d.canvas_source) + ")</title></rect>\n";
  }
  for (const auto& c : d.clips)
    s += "<path class=\"clip\" d=\"" + poly_d(c.polygon, true) +
         "\" fill=\"none\" stroke=\"#17becf\" stroke-width=\"0.6\" stroke-dasharray=\"2 2\"/>\n";

  s += "<g class=\"elements\" stroke-linecap=\"round\" stroke-linejoin=\"round\">\n";
  for (const auto& e : d.elements) {
    PathData pd = std::visit(GeometryPath{}, e.geom);
    std::string titles = finding_titles(findings, e.prov.range);
    const Style& st = e.style;
    bool painted = (st.draw || st.fill) && !st.invisible;
    std::string stroke = !titles.empty() ? kFindingColor
                         : !painted      ? "#c7c7c7"
                                         : svg_color(st.draw_color, "#000000");
    double width = painted ? std::max(st.line_width, 0.2) : 0.3;
    if (!titles.empty()) width = std::max(width, 1.2);
    std::string fill = "none";
    if (pd.area && st.fill && !st.invisible) fill = svg_color(st.fill_color, "#7f7f7f");
    s += "<path d=\"" + pd.d + "\" stroke=\"" + stroke + "\" stroke-width=\"" + n(width) + "\" fill=\"" + fill + "\"";
    if (fill != "none") s += " fill-opacity=\"" + n(0.35 * st.opacity) + "\"";
    if (auto da = painted ? dash_array(st.dash, width) : std::string("1 1"); !da.empty())
      s += " stroke-dasharray=\"" + da + "\"";
    if (st.arrow_end) s += " marker-end=\"url(#arrow)\"";
    if (st.arrow_start) s += " marker-start=\"url(#arrow)\"";
    if (e.incomplete) s += " class=\"incomplete\"";
    s += ">" + title_tag(titles) + "</path>\n";
  }
  s += "</g>\n<g class=\"nodes\">\n";
  for (const auto& nd : d.nodes) {
    if (nd.shape == NodeShape::coordinate) continue;
    std::string titles = finding_titles(findings, nd.prov.range);
    std::string color = !titles.empty() ? kFindingColor : "#1f77b4";
    std::vector<Point> corners(nd.corners.begin(), nd.corners.end());
    bool degenerate = true;
    for (const auto& p : corners) degenerate &= p.x == 0 && p.y == 0;
    if (degenerate)
      corners = {{nd.box.xmin, nd.box.ymin}, {nd.box.xmax, nd.box.ymin}, {nd.box.xmax, nd.box.ymax}, {nd.box.xmin, nd.box.ymax}};
    s += "<g class=\"node\">" + title_tag(titles.empty() ? nd.text : nd.text + "\n" + titles);
    s += "<path d=\"" + poly_d(corners, true) + "\" fill=\"none\" stroke=\"" + color + "\" stroke-width=\"" +
         (titles.empty() ? "0.4" : "1.2") + "\"" + (nd.drawn ? "" : " stroke-dasharray=\"1.5 1\"") + "/>";
    if (!nd.text.empty()) {
      s += "<text x=\"" + n(nd.center.x) + "\" y=\"" + n(-nd.center.y) + "\" font-size=\"" +
           n(nd.font_size_pt > 0 ? nd.font_size_pt : 10) +
           "\" font-family=\"serif\" text-anchor=\"middle\" dominant-baseline=\"central\" fill=\"" +
           (titles.empty() ? "#000000" : kFindingColor) + "\"";
      if (nd.rotation_deg != 0)
        s += " transform=\"rotate(" + n(-nd.rotation_deg) + " " + n(nd.center.x) + " " + n(-nd.center.y) + ")\"";
      s += ">" + xml_escape(nd.text) + "</text>";
    }
    s += "</g>\n";
  }
  s += "</g>\n</svg>\n";
  return s;
}

}  // namespace tikzlint::ir
