// ir/json.cpp: ir::to_json, the IR as JSON. Schema: docs/ir-schema.md. The fields
// picture_bbox, canvas and nodes[].{text,box} are compared with TeX by external tools: keep them.
#include <cmath>

#include "ir/ir.hpp"

namespace tikzlint::ir {

namespace {

using nlohmann::json;

// Points are rounded to 1e-4 pt: far below what TeX itself resolves (1sp = 1/65536 pt is
// finer, but the IR's own estimates are not), and it keeps the output diffable.
json num(double v) {
  if (!std::isfinite(v)) return nullptr;
  double r = std::round(v * 1e4) / 1e4;
  return r == 0 ? 0.0 : r;  // no "-0.0"
}
json pt(const Point& p) { return json::array({num(p.x), num(p.y)}); }
json box(const Box& b) { return json::array({num(b.xmin), num(b.ymin), num(b.xmax), num(b.ymax)}); }
template <class Seq>
json points(const Seq& ps) {
  json a = json::array();
  for (const auto& p : ps) a.push_back(pt(p));
  return a;
}

// `sm` plus the diagram's own file: ranges elsewhere (a class, a package) name their file.
struct Ctx {
  const SourceManager& sm;
  FileId main;
};

json range_json(const SourceRange& r, const Ctx& c) {
  const SourceManager& sm = c.sm;
  if (!r.valid || r.file >= sm.size()) return nullptr;
  const SourceFile& f = sm.get(r.file);
  auto b = f.line_col(r.begin), e = f.line_col(std::max(r.begin, r.end));
  json j = {{"line", b.line}, {"col", b.col}, {"end_line", e.line}, {"end_col", e.col}};
  if (r.file != c.main) j["file"] = f.path();
  return j;
}

json provenance(const Provenance& p, const Ctx& sm) {
  json j = {{"range", range_json(p.range, sm)}, {"origin", p.origin}};
  if (!p.macros.empty()) {
    json m = json::array();
    for (const auto& f : p.macros) m.push_back({{"macro", f.macro}, {"call_site", range_json(f.call_site, sm)}});
    j["macros"] = std::move(m);
  }
  if (!p.loops.empty()) {
    json l = json::array();
    for (const auto& b : p.loops)
      l.push_back({{"variable", b.variable}, {"value", b.value}, {"iteration", b.iteration},
                   {"loop_site", range_json(b.loop_site, sm)}});
    j["loops"] = std::move(l);
  }
  return j;
}

json style_json(const Style& s) {
  return {{"draw", s.draw},
          {"fill", s.fill},
          {"draw_color", s.draw_color},
          {"fill_color", s.fill_color},
          {"line_width", num(s.line_width)},
          {"dash", s.dash},
          {"arrow_start", s.arrow_start},
          {"arrow_end", s.arrow_end},
          {"opacity", num(s.opacity)},
          {"invisible", s.invisible}};
}

// Each geometry kind: its "kind" name and its own fields (a table, one entry per alternative).
struct GeometryJson {
  json operator()(const Segment& g) const { return {{"kind", "segment"}, {"a", pt(g.a)}, {"b", pt(g.b)}}; }
  json operator()(const Polyline& g) const {
    return {{"kind", "polyline"}, {"points", points(g.points)}, {"closed", g.closed},
            {"explicit_cycle", g.explicit_cycle}};
  }
  json operator()(const Rectangle& g) const { return {{"kind", "rectangle"}, {"corners", points(g.corners)}}; }
  json operator()(const Circle& g) const {
    return {{"kind", "circle"}, {"center", pt(g.center)}, {"radius", num(g.radius)}};
  }
  json operator()(const Ellipse& g) const {
    return {{"kind", "ellipse"}, {"center", pt(g.center)}, {"rx", num(g.rx)}, {"ry", num(g.ry)},
            {"rotation_deg", num(g.rotation_deg)}};
  }
  json operator()(const Arc& g) const {
    return {{"kind", "arc"},           {"center", pt(g.center)},       {"rx", num(g.rx)},
            {"ry", num(g.ry)},         {"start_deg", num(g.start_deg)}, {"end_deg", num(g.end_deg)},
            {"sweep_deg", num(g.sweep_deg())}, {"rotation_deg", num(g.rotation_deg)},
            {"from", pt(g.from)},      {"to", pt(g.to)}};
  }
  json operator()(const Bezier& g) const {
    return {{"kind", "bezier"}, {"p0", pt(g.p0)}, {"c1", pt(g.c1)}, {"c2", pt(g.c2)}, {"p1", pt(g.p1)}};
  }
  json operator()(const Grid& g) const {
    return {{"kind", "grid"}, {"corners", points(g.corners)}, {"step_x", num(g.step_x)}, {"step_y", num(g.step_y)}};
  }
  json operator()(const RightAngleMark& g) const {
    return {{"kind", "right_angle_mark"}, {"corner", pt(g.corner)}, {"leg_a", pt(g.leg_a)},
            {"leg_b", pt(g.leg_b)}, {"size", num(g.size)}};
  }
  json operator()(const Face3D& g) const {
    json p3 = json::array();
    for (const auto& p : g.points3) p3.push_back({num(p.x), num(p.y), num(p.z)});
    return {{"kind", "face3d"}, {"points3", std::move(p3)}, {"points", points(g.points)}};
  }
  json operator()(const Plot& g) const { return {{"kind", "plot"}, {"points", points(g.points)}}; }
};

const char* shape_name(NodeShape s) {
  switch (s) {
    case NodeShape::rectangle: return "rectangle";
    case NodeShape::circle: return "circle";
    case NodeShape::ellipse: return "ellipse";
    case NodeShape::coordinate: return "coordinate";
    case NodeShape::other: return "other";
  }
  return "other";
}

json node_json(const Node& n, const Ctx& sm) {
  json j = {{"text", n.text},
            {"box", box(n.box)},
            {"name", n.name},
            {"shape", shape_name(n.shape)},
            {"center", pt(n.center)},
            {"corners", points(n.corners)},
            {"rotation_deg", num(n.rotation_deg)},
            {"text_width", num(n.text_width)},
            {"text_height", num(n.text_height)},
            {"text_depth", num(n.text_depth)},
            {"font_size_pt", num(n.font_size_pt)},
            {"uncertainty_pt", num(n.uncertainty_pt)},
            {"inner_sep", num(n.inner_sep)},
            {"outer_sep", num(n.outer_sep)},
            {"drawn", n.drawn},
            {"filled", n.filled},
            {"is_label", n.is_label},
            {"role", n.role},
            {"label_of", n.label_of ? json(*n.label_of) : json(nullptr)},
            {"on_path", n.on_path ? json(*n.on_path) : json(nullptr)},
            {"pos_on_path", n.pos_on_path >= 0 ? num(n.pos_on_path) : json(nullptr)},
            {"placed_by", n.placed_by},
            {"symbol", n.symbol},
            {"along_path", n.along_path ? json{{"path_id", n.along_path->path_id}, {"run", n.along_path->run}}
                                        : json(nullptr)},
            {"placement", n.placement},
            {"incomplete", n.incomplete},
            {"unplaced_reference", n.unplaced_reference},
            {"layer", n.layer},
            {"source", provenance(n.prov, sm)}};
  return j;
}

json diagnostic_json(const Diagnostic& d, const Ctx& sm) {
  json notes = json::array();
  for (const auto& n : d.notes) notes.push_back({{"message", n.message}, {"range", range_json(n.range, sm)}});
  return {{"rule", d.rule},   {"severity", to_string(d.severity)}, {"message", d.message},
          {"range", range_json(d.range, sm)}, {"evidence", d.evidence}, {"notes", std::move(notes)}};
}

}  // namespace

json to_json(const Diagram& d, const SourceManager& source_manager) {
  const Ctx sm{source_manager, d.file};
  json j;
  j["schema_version"] = 1;
  j["picture_bbox"] = d.has_picture_bbox ? box(d.picture_bbox) : json(nullptr);
  j["canvas"] = d.canvas ? box(*d.canvas) : json(nullptr);
  j["canvas_source"] = d.canvas_source;
  j["base_font_size_pt"] = num(d.base_font_size_pt);
  j["is_3d"] = d.is_3d;
  j["uses_axis"] = d.uses_axis;
  j["drawn_as"] = d.drawn_as;
  j["text_beside"] = d.text_beside;
  j["text_block"] = d.text_block ? json{{"width_pt", num(d.text_block->width)},
                                        {"height_pt", num(d.text_block->height)},
                                        {"source", d.text_block->source}}
                                 : json(nullptr);

  json nodes = json::array();
  for (const auto& n : d.nodes) nodes.push_back(node_json(n, sm));
  j["nodes"] = std::move(nodes);

  json elements = json::array();
  for (const auto& e : d.elements) {
    json ej = std::visit(GeometryJson{}, e.geom);
    ej["style"] = style_json(e.style);
    ej["path_id"] = e.path_id;
    ej["incomplete"] = e.incomplete;
    ej["unplaced_reference"] = e.unplaced_reference;
    ej["role"] = e.role;
    ej["clips"] = e.clips;
    ej["clip_unknown"] = e.clip_unknown;
    ej["layer"] = e.layer;
    ej["source"] = provenance(e.prov, sm);
    elements.push_back(std::move(ej));
  }
  j["elements"] = std::move(elements);

  json coords = json::array();
  for (const auto& c : d.coordinates)
    coords.push_back({{"name", c.name}, {"at", pt(c.p)}, {"source", provenance(c.prov, sm)}});
  j["coordinates"] = std::move(coords);

  json clips = json::array();
  for (const auto& c : d.clips)
    clips.push_back({{"polygon", points(c.polygon)}, {"is_rectangle", c.is_rectangle}, {"owner", c.owner},
                     {"to_bounding_box", c.to_bounding_box}, {"bounds", box(c.bounds)}, {"source", provenance(c.prov, sm)}});
  j["clips"] = std::move(clips);

  json unsupported = json::array();
  for (const auto& u : d.unsupported) unsupported.push_back({{"what", u.what}, {"range", range_json(u.range, sm)}});
  j["unsupported"] = std::move(unsupported);

  json diags = json::array();
  for (const auto& dg : d.diagnostics) diags.push_back(diagnostic_json(dg, sm));
  j["diagnostics"] = std::move(diags);
  return j;
}

}  // namespace tikzlint::ir
