// backtranslate/lower.cpp: the model's IR JSON (schema-valid) -> ir::Diagram in pt. The model
// transcribes; this file computes: unit vectors, transform chains (pgf order), node boxes.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <numbers>

#include "backtranslate/detail.hpp"
#include "ir/textmetrics.hpp"
#include "ir/transform.hpp"
#include "support/ascii.hpp"

namespace tikzlint::backtranslate::detail {
namespace {

using nlohmann::json;
using ir::Point;
using ir::Transform;

constexpr double kDegToRad = std::numbers::pi / 180.0;
constexpr double kLineWidth = 0.4;  // pgfmanual: thin, the default line width

// TeX units in pt (TeXbook ch. 10); em/ex of the 10pt Computer Modern font.
struct UnitScale {
  std::string_view unit;
  double pt;
};
constexpr UnitScale kUnits[] = {
    {"pt", 1.0},
    {"cm", ir::kPtPerCm},
    {"mm", ir::kPtPerCm / 10},
    {"in", ir::kPtPerIn},
    {"bp", ir::kPtPerBp},
    {"pc", 12.0},
    {"dd", 1238.0 / 1157.0},
    {"cc", 12 * 1238.0 / 1157.0},
    {"sp", 1.0 / 65536.0},
    {"em", 10.0},
    {"ex", 4.30554},
};

// Anchors of a rectangle node as fractions of its half extents (pgfmanual 71.1), and the
// placement keys that choose the opposite anchor (pgfmanual 17.5.2: above = anchor=south).
struct AnchorFactor {
  std::string_view name;
  double fx, fy;
};
constexpr AnchorFactor kAnchors[] = {
    {"center", 0, 0},       {"north", 0, 1},       {"south", 0, -1},      {"east", 1, 0},
    {"west", -1, 0},        {"north east", 1, 1},  {"north west", -1, 1}, {"south east", 1, -1},
    {"south west", -1, -1},
};
struct Placement {
  std::string_view key, anchor;
};
constexpr Placement kPlacements[] = {
    {"above", "south"},           {"below", "north"},           {"left", "east"},
    {"right", "west"},            {"above left", "south east"}, {"above right", "south west"},
    {"below left", "north east"}, {"below right", "north west"},
};

// The picture's unit vectors in pt (pgfmanual 25.2: x=1cm, y=1cm, z=(-3.85mm,-3.85mm)).
struct Frame {
  Point x{ir::kPtPerCm, 0}, y{0, ir::kPtPerCm}, z{-0.385 * ir::kPtPerCm, -0.385 * ir::kPtPerCm};
  Transform picture;  // the picture's own scale=
};

double num(const json& j) { return j.get<double>(); }

Point unit_vector(const json& j, Point fallback) {
  if (j.is_null()) return fallback;
  return {num(j[0]) * ir::kPtPerCm, num(j[1]) * ir::kPtPerCm};
}

// A TikZ coordinate in the picture's frame, before transforms.
Point to_frame(const json& p, const Frame& f) {
  double a = num(p[0]), b = num(p[1]), c = p.size() > 2 ? num(p[2]) : 0.0;
  return {a * f.x.x + b * f.y.x + c * f.z.x, a * f.x.y + b * f.y.y + c * f.z.y};
}

double length_pt(const json& j) {
  if (j.is_null()) return 0;
  auto v = parse_length_pt(j.get<std::string>());
  if (!v) throw std::runtime_error("unreadable dimension \"" + j.get<std::string>() + "\"");
  return *v;
}

// pgf semantics: keys act in the order written; each new one applies to points first
// (Transform::then_local). One step's keys act as if written shift, xshift, yshift, rotate, scale.
Transform chain(const json& steps, const Frame& f) {
  Transform t = f.picture;
  for (const auto& step : steps) {
    if (!step["shift"].is_null()) {
      Point d = to_frame(step["shift"], f);
      t = t.then_local(Transform::shift(d.x, d.y));
    }
    if (!step["xshift"].is_null()) t = t.then_local(Transform::shift(length_pt(step["xshift"]), 0));
    if (!step["yshift"].is_null()) t = t.then_local(Transform::shift(0, length_pt(step["yshift"])));
    if (!step["rotate"].is_null()) t = t.then_local(Transform::rotate(num(step["rotate"])));
    if (!step["scale"].is_null()) {
      double s = num(step["scale"]);
      t = t.then_local(Transform::scale(s, s));
    }
  }
  return t;
}

struct LineIndex {
  std::vector<std::uint32_t> starts;
  explicit LineIndex(const std::string& text) {
    starts.push_back(0);
    for (std::size_t i = 0; i < text.size(); ++i)
      if (text[i] == '\n') starts.push_back(static_cast<std::uint32_t>(i + 1));
    size = static_cast<std::uint32_t>(text.size());
  }
  std::uint32_t size = 0;

  // The line's text (without newline); the file start when the model gave no usable line.
  SourceRange range(const json& line, FileId file) const {
    if (!line.is_number_integer()) return {file, 0, 0, true};
    auto n = line.get<std::int64_t>();
    if (n < 1 || n > static_cast<std::int64_t>(starts.size())) return {file, 0, 0, true};
    std::uint32_t begin = starts[n - 1];
    std::uint32_t end = n < static_cast<std::int64_t>(starts.size()) ? starts[n] - 1 : size;
    return {file, begin, std::max(begin, end), true};
  }
};

void extend(ir::Box& b, bool& any, Point p) {
  if (!any) {
    b = {p.x, p.y, p.x, p.y};
    any = true;
    return;
  }
  b.xmin = std::min(b.xmin, p.x);
  b.ymin = std::min(b.ymin, p.y);
  b.xmax = std::max(b.xmax, p.x);
  b.ymax = std::max(b.ymax, p.y);
}

class Lowering {
 public:
  Lowering(const json& j, const std::string& source, FileId file)
      : j_(j), lines_(source), file_(file) {
    const json& pic = j["picture"];
    frame_.x = unit_vector(pic["x"], frame_.x);
    frame_.y = unit_vector(pic["y"], frame_.y);
    frame_.z = unit_vector(pic["z"], frame_.z);
    if (!pic["scale"].is_null()) {
      double s = num(pic["scale"]);
      frame_.picture = Transform::scale(s, s);
    }
    d_.file = file;
  }

  ir::Diagram run() {
    for (const auto& c : j_["coordinates"]) coordinate(c);
    for (const auto& s : j_["segments"]) segment(s);
    for (const auto& p : j_["polylines"]) polyline(p);
    for (const auto& c : j_["circles"]) circle(c);
    for (const auto& a : j_["arcs"]) arc(a);
    for (const auto& r : j_["rectangles"]) rectangle(r);
    for (const auto& m : j_["right_angles"]) right_angle(m);
    for (const auto& n : j_["nodes"]) node(n);
    for (const auto& c : j_["clips"]) clip(c);
    if (!d_.clips.empty()) {
      d_.canvas = d_.clips.front().bounds;
      d_.canvas_source = "clip";
    }
    d_.has_picture_bbox = any_bbox_;
    if (any_bbox_) d_.picture_bbox = bbox_;
    return std::move(d_);
  }

 private:
  const json& j_;
  LineIndex lines_;
  FileId file_;
  Frame frame_;
  ir::Diagram d_;
  std::uint32_t next_path_ = 0;
  ir::Box bbox_;
  bool any_bbox_ = false;

  Provenance prov(const json& e) const {
    Provenance p;
    p.range = lines_.range(e["line"], file_);
    p.origin = "llm";
    return p;
  }
  Transform transform_of(const json& e) const { return chain(e["transform"], frame_); }
  Point at(const json& p, const Transform& t) {
    if (p.size() > 2 && num(p[2]) != 0) d_.is_3d = true;
    return t.apply(to_frame(p, frame_));
  }
  void grow(Point p) { extend(bbox_, any_bbox_, p); }

  static ir::Style stroke(const json& e) {
    ir::Style st;
    st.draw = true;
    st.line_width = kLineWidth;
    if (e.contains("dash") && e["dash"] != "solid") st.dash = e["dash"].get<std::string>();
    if (e.contains("arrows")) {
      std::string a = e["arrows"].get<std::string>();
      st.arrow_start = a == "<-" || a == "<->";
      st.arrow_end = a == "->" || a == "<->";
    }
    if (e.contains("fill") && !e["fill"].is_null()) {
      st.fill = true;
      st.fill_color = e["fill"].get<std::string>();
    }
    return st;
  }

  void add(ir::Geometry g, const json& e) {
    ir::Element el;
    el.geom = std::move(g);
    el.style = stroke(e);
    el.prov = prov(e);
    el.path_id = next_path_++;
    d_.elements.push_back(std::move(el));
  }

  void coordinate(const json& c) {
    Point p = at(c["at"], transform_of(c));
    d_.coordinates.push_back({c["name"].get<std::string>(), p, prov(c)});
  }

  void segment(const json& s) {
    Transform t = transform_of(s);
    ir::Segment seg{at(s["from"], t), at(s["to"], t)};
    grow(seg.a);
    grow(seg.b);
    add(seg, s);
  }

  void polyline(const json& p) {
    Transform t = transform_of(p);
    ir::Polyline pl;
    for (const auto& q : p["points"]) {
      pl.points.push_back(at(q, t));
      grow(pl.points.back());
    }
    pl.explicit_cycle = p["cycle"].get<bool>();
    const Point& first = pl.points.front();
    const Point& last = pl.points.back();
    pl.closed = pl.explicit_cycle || std::hypot(first.x - last.x, first.y - last.y) < 1e-6;
    add(pl, p);
  }

  void circle(const json& c) {
    Transform t = transform_of(c);
    Point center = at(c["center"], t);
    double r = num(c["radius"]);
    // The radius is in the x unit (pgfmanual 14.6: circle (r) uses the xy coordinate system).
    double unit = std::hypot(frame_.x.x, frame_.x.y);
    double rx = r * unit * t.scale_x(), ry = r * unit * t.scale_y();
    if (t.is_similarity()) {
      add(ir::Circle{center, rx}, c);
    } else {
      add(ir::Ellipse{center, rx, ry, t.rotation_deg()}, c);
    }
    grow({center.x - std::max(rx, ry), center.y - std::max(rx, ry)});
    grow({center.x + std::max(rx, ry), center.y + std::max(rx, ry)});
  }

  void arc(const json& a) {
    Transform t = transform_of(a);
    Point c_local = to_frame(a["center"], frame_);
    double unit = std::hypot(frame_.x.x, frame_.x.y);
    double r = num(a["radius"]) * unit;
    double s = num(a["start_angle"]), e = num(a["end_angle"]);
    auto on_arc = [&](double deg) {
      return t.apply({c_local.x + r * std::cos(deg * kDegToRad), c_local.y + r * std::sin(deg * kDegToRad)});
    };
    ir::Arc arc;
    arc.center = at(a["center"], t);
    arc.rx = r * t.scale_x();
    arc.ry = r * t.scale_y();
    arc.start_deg = s;
    arc.end_deg = e;
    arc.rotation_deg = t.rotation_deg();
    arc.from = on_arc(s);
    arc.to = on_arc(e);
    constexpr int kSamples = 32;  // for the bounding box only
    for (int i = 0; i <= kSamples; ++i) grow(on_arc(s + (e - s) * i / kSamples));
    add(arc, a);
  }

  void rectangle(const json& r) {
    Transform t = transform_of(r);
    Point a = to_frame(r["corner_a"], frame_), b = to_frame(r["corner_b"], frame_);
    ir::Rectangle rect{{t.apply(a), t.apply({b.x, a.y}), t.apply(b), t.apply({a.x, b.y})}};
    for (const auto& p : rect.corners) grow(p);
    add(rect, r);
  }

  void right_angle(const json& m) {
    Transform t = transform_of(m);
    ir::RightAngleMark mark{at(m["vertex"], t), at(m["leg_a"], t), at(m["leg_b"], t), 0};
    mark.size = (std::hypot(mark.leg_a.x - mark.corner.x, mark.leg_a.y - mark.corner.y) +
                 std::hypot(mark.leg_b.x - mark.corner.x, mark.leg_b.y - mark.corner.y)) /
                2;
    grow(mark.corner);
    grow(mark.leg_a);
    grow(mark.leg_b);
    add(mark, m);
  }

  void node(const json& n) {
    ir::Node node;
    node.text = n["text"].get<std::string>();
    if (n["name"].is_string()) node.name = n["name"].get<std::string>();
    node.shape = ir::NodeShape::rectangle;
    node.prov = prov(n);
    node.drawn = n["draw"].get<bool>();
    node.rotation_deg = n["rotate"].is_null() ? 0.0 : num(n["rotate"]);

    double base = d_.base_font_size_pt;
    node.font_size_pt = n["font_size"].is_null()
                            ? base
                            : ir::font_size_for_command("\\" + n["font_size"].get<std::string>(), base);
    ir::FontSpec font;
    font.size_pt = node.font_size_pt;
    ir::TextBox tb = ir::measure_text(node.text, font);
    node.text_width = tb.width;
    node.text_height = tb.height;
    node.text_depth = tb.depth;
    node.uncertainty_pt = tb.uncertainty;
    // pgfmanual 17.2.3: inner sep .3333em, outer sep .5\pgflinewidth.
    node.inner_sep = 0.3333 * node.font_size_pt;
    node.outer_sep = 0.5 * kLineWidth;
    double hw = tb.width / 2 + node.inner_sep;
    double hh = (tb.height + tb.depth) / 2 + node.inner_sep;

    // The anchor's offset from the center, in the node's own (unrotated) frame.
    std::string anchor = n["anchor"].get<std::string>();
    std::string shape_anchor = anchor;
    for (const auto& pl : kPlacements)
      if (pl.key == anchor) {
        shape_anchor = pl.anchor;
        node.placement = anchor;
      }
    if (node.placement.empty() && anchor != "center") node.placement = "anchor=" + anchor;
    Point off{0, 0};
    if (shape_anchor == "base") {
      off = {0, (tb.depth - tb.height) / 2};  // the baseline, relative to the box's middle
    } else {
      for (const auto& af : kAnchors)
        if (af.name == shape_anchor)
          off = {af.fx * (hw + node.outer_sep), af.fy * (hh + node.outer_sep)};
    }
    Transform rot = Transform::rotate(node.rotation_deg);
    Point p = at(n["at"], transform_of(n));
    Point r_off = rot.apply_linear(off);
    node.center = {p.x - r_off.x, p.y - r_off.y};
    const Point local[4] = {{-hw, -hh}, {hw, -hh}, {hw, hh}, {-hw, hh}};
    bool any = false;
    for (int i = 0; i < 4; ++i) {
      Point v = rot.apply_linear(local[i]);
      node.corners[i] = {node.center.x + v.x, node.center.y + v.y};
      extend(node.box, any, node.corners[i]);
      grow(node.corners[i]);
    }
    d_.nodes.push_back(std::move(node));
  }

  void clip(const json& c) {
    Transform t = transform_of(c);
    const json& pts = c["points"];
    std::string kind = c["kind"].get<std::string>();
    ir::ClipRegion region;
    region.prov = prov(c);
    if (kind == "rectangle") {
      if (pts.size() < 2) throw std::runtime_error("a rectangle clip needs two corners");
      Point a = to_frame(pts[0], frame_), b = to_frame(pts[1], frame_);
      region.polygon = {t.apply(a), t.apply({b.x, a.y}), t.apply(b), t.apply({a.x, b.y})};
      double rot = std::fmod(std::fabs(t.rotation_deg()), 90.0);
      region.is_rectangle = std::min(rot, 90.0 - rot) < 1e-6;
    } else if (kind == "circle") {
      if (c["radius"].is_null()) throw std::runtime_error("a circle clip needs a radius");
      Point center = to_frame(pts[0], frame_);
      double r = num(c["radius"]) * std::hypot(frame_.x.x, frame_.x.y);
      constexpr int kSides = 72;  // polygonised, as ClipRegion promises
      for (int i = 0; i < kSides; ++i) {
        double a = 2 * std::numbers::pi * i / kSides;
        region.polygon.push_back(t.apply({center.x + r * std::cos(a), center.y + r * std::sin(a)}));
      }
    } else {
      for (const auto& q : pts) region.polygon.push_back(at(q, t));
    }
    bool any = false;
    for (const auto& p : region.polygon) extend(region.bounds, any, p);
    d_.clips.push_back(std::move(region));
  }
};

}  // namespace

std::optional<double> parse_length_pt(std::string_view text) {
  while (!text.empty() && is_ascii_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_ascii_space(text.back())) text.remove_suffix(1);
  if (text.empty()) return std::nullopt;
  bool negative = false;
  if (text.front() == '+' || text.front() == '-') {
    negative = text.front() == '-';
    text.remove_prefix(1);
  }
  double value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc()) return std::nullopt;
  std::string_view unit(end, text.data() + text.size() - end);
  while (!unit.empty() && is_ascii_space(unit.front())) unit.remove_prefix(1);
  double scale = 0;
  if (unit.empty()) {
    scale = 1.0;  // TikZ: a dimension key given a bare number takes it in pt
  } else {
    for (const auto& u : kUnits)
      if (u.unit == unit) scale = u.pt;
    if (scale == 0) return std::nullopt;
  }
  return (negative ? -value : value) * scale;
}

ir::Diagram lower_llm_ir(const nlohmann::json& ir_json, const std::string& source_text, FileId file) {
  return Lowering(ir_json, source_text, file).run();
}

}  // namespace tikzlint::backtranslate::detail
