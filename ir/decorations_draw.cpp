// ir/decorations_draw.cpp: decorations that draw things of their own along the path (pgfmanual 50:
// markings, text along path), run as pgf's decoration automaton runs them: a distance walked along
// the path, and code executed in the frame whose origin is the point reached and whose x axis is the
// path's tangent there (pgfmoduledecorations.code.tex: \pgftransformreset, then the shift and
// rotation to the input segment).
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>

#include "ir/coords.hpp"
#include "ir/decorations.hpp"
#include "tex/styles.hpp"

namespace tikzlint::ir {

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr int kCurveSamples = 720;  // per full turn: pgf takes the exact tangent, a chord is within half a step of it

std::string trimmed(std::string_view s) { return std::string(text_trim(s)); }  // library_text.cpp

std::string fmt(double v) { return text_number(v); }  // library_text.cpp

// The points pgf's path goes through for one piece of geometry, in drawing order.
std::vector<Point> geometry_points(const Geometry& g) {
  std::vector<Point> out;
  auto ellipse = [&](Point c, double rx, double ry, double rot_deg, double a0, double a1) {
    const double cr = std::cos(rot_deg * kPi / 180), sr = std::sin(rot_deg * kPi / 180);
    const int n = std::max(8, static_cast<int>(std::ceil(std::abs(a1 - a0) / 360.0 * kCurveSamples)));
    for (int i = 0; i <= n; ++i) {
      const double t = (a0 + (a1 - a0) * i / n) * kPi / 180;
      const double x = rx * std::cos(t), y = ry * std::sin(t);
      out.push_back({c.x + cr * x - sr * y, c.y + sr * x + cr * y});
    }
  };
  if (const auto* s = std::get_if<Segment>(&g)) out = {s->a, s->b};
  else if (const auto* p = std::get_if<Polyline>(&g)) {
    out = p->points;
    if (p->closed && !out.empty()) out.push_back(out.front());
  } else if (const auto* r = std::get_if<Rectangle>(&g)) {
    out.assign(r->corners.begin(), r->corners.end());
    out.push_back(r->corners[0]);
  } else if (const auto* c = std::get_if<Circle>(&g)) {
    ellipse(c->center, c->radius, c->radius, 0, 0, 360);  // \pgfpathcircle starts at angle 0
  } else if (const auto* e = std::get_if<Ellipse>(&g)) {
    ellipse(e->center, e->rx, e->ry, e->rotation_deg, 0, 360);
  } else if (const auto* a = std::get_if<Arc>(&g)) {
    ellipse(a->center, a->rx, a->ry, a->rotation_deg, a->start_deg, a->end_deg);
    if (!out.empty()) {  // the arc as lowered: its ends are exact
      out.front() = a->from;
      out.back() = a->to;
    }
  } else if (const auto* b = std::get_if<Bezier>(&g)) {
    for (int i = 0; i <= kCurveSamples; ++i) out.push_back(bezier_at(*b, static_cast<double>(i) / kCurveSamples));
  } else if (const auto* pl = std::get_if<Plot>(&g)) {
    out = pl->points;
  }
  return out;
}

bool near(Point a, Point b) { return std::abs(a.x - b.x) < 1e-3 && std::abs(a.y - b.y) < 1e-3; }

}  // namespace

DecoratedPath decorated_path_of(const std::vector<Geometry>& pieces) {
  DecoratedPath p;
  p.pieces = pieces;
  for (const Geometry& g : pieces) {
    std::vector<Point> pts = geometry_points(g);
    if (pts.empty()) continue;
    const bool closed_shape = std::holds_alternative<Circle>(g) || std::holds_alternative<Ellipse>(g) ||
                              std::holds_alternative<Rectangle>(g);
    if (!closed_shape && !p.subpaths.empty() && !p.subpaths.back().empty() && near(p.subpaths.back().back(), pts.front()))
      p.subpaths.back().insert(p.subpaths.back().end(), pts.begin() + 1, pts.end());
    else
      p.subpaths.push_back(std::move(pts));
  }
  return p;
}

void DecoratedPath::reverse() {
  std::reverse(subpaths.begin(), subpaths.end());
  for (auto& sp : subpaths) std::reverse(sp.begin(), sp.end());
}

double DecoratedPath::length() const {
  double L = 0;
  for (const auto& sp : subpaths)
    for (std::size_t i = 1; i < sp.size(); ++i) L += ir::length(sp[i] - sp[i - 1]);
  return L;
}

// pgf moves along the input segments; a moveto is a jump that adds nothing to the distance.
DecoratedPath::Frame DecoratedPath::frame_at(double s) const {
  Frame f;
  const std::vector<Point>* last = nullptr;
  std::size_t last_i = 0;
  for (const auto& sp : subpaths) {
    for (std::size_t i = 1; i < sp.size(); ++i) {
      const Point d = sp[i] - sp[i - 1];
      const double l = ir::length(d);
      if (l < 1e-9) continue;
      last = &sp;
      last_i = i;
      if (s <= l) {
        const double t = std::max(0.0, s) / l;
        f.at = {sp[i - 1].x + d.x * t, sp[i - 1].y + d.y * t};
        f.angle_deg = angle_deg(d);
        return f;
      }
      s -= l;
    }
  }
  if (last) {
    f.at = (*last)[last_i];
    f.angle_deg = angle_deg((*last)[last_i] - (*last)[last_i - 1]);
  } else if (!subpaths.empty() && !subpaths.front().empty()) {
    f.at = subpaths.front().front();
  }
  return f;
}

std::vector<std::string> split_tikz_code(const std::string& c) {
  std::vector<std::string> out;
  std::size_t start = 0;
  int depth = 0;
  for (std::size_t i = 0; i <= c.size(); ++i) {
    if (i < c.size() && c[i] == '\\') {
      ++i;
      continue;
    }
    if (i < c.size() && c[i] == '{') ++depth;
    if (i < c.size() && c[i] == '}') --depth;
    if (i == c.size() || (c[i] == ';' && depth == 0)) {
      std::string one = trimmed(std::string_view(c).substr(start, std::min(i + 1, c.size()) - start));
      start = i + 1;
      if (!one.empty() && one != ";") out.push_back(one);
    }
  }
  return out;
}

std::string decoration_frame_scope(const DecoratedPath::Frame& f, double raise) {
  // the shift to the point, the rotation to the tangent, then the decoration's `raise`
  // (\pgfsetdecorationsegmenttransformation{\pgftransformyshift{raise}})
  std::string s = "reset cm,xshift=" + fmt(f.at.x) + "pt,yshift=" + fmt(f.at.y) + "pt,rotate=" + fmt(f.angle_deg);
  if (raise != 0) s += ",yshift=" + fmt(raise) + "pt";
  return "\\begin{scope}[" + s + "]";
}

}  // namespace tikzlint::ir

namespace tikzlint::ir {

namespace {

// \pgfkeysvalueof{/pgf/decoration/mark info/...}, \pgfdecoratedpathlength: the values pgf has
// when the mark's code runs (pgflibrarydecorations.markings.code.tex).
std::string substitute_mark_info(std::string code, int sequence, double distance, double path_length) {
  auto replace_all = [&](const std::string& from, const std::string& to) {
    for (std::size_t at = code.find(from); at != std::string::npos; at = code.find(from, at + to.size()))
      code.replace(at, from.size(), to);
  };
  replace_all("\\pgfkeysvalueof{/pgf/decoration/mark info/sequence number}", std::to_string(sequence));
  replace_all("\\pgfkeysvalueof{/pgf/decoration/mark info/distance from start}", fmt(distance) + "pt");
  replace_all("\\pgfdecoratedpathlength", fmt(path_length) + "pt");
  return code;
}

// \arrow[opts]{tip} and \arrowreversed: a tip at the mark's origin, which the rules do not
// measure (the same as the path's own arrow tips).
std::string strip_arrow_commands(const std::string& code) {
  std::string out;
  for (std::size_t i = 0; i < code.size();) {
    if (code.compare(i, 6, "\\arrow") == 0 && (i + 6 >= code.size() || !std::isalpha(static_cast<unsigned char>(code[i + 6])) ||
                                               code.compare(i, 14, "\\arrowreversed") == 0)) {
      std::size_t j = i + (code.compare(i, 14, "\\arrowreversed") == 0 ? 14 : 6);
      j = text_skip_space(code, j);
      if (j < code.size() && code[j] == '[') j = text_skip_space(code, text_skip_group(code, j));
      if (j < code.size() && code[j] == '{') j = text_skip_group(code, j);
      if (j == std::string::npos) return out;
      i = j;
      continue;
    }
    out += code[i++];
  }
  return out;
}

struct MarkSpec {
  bool between = false;
  std::string at, from, to, step, code;
};

std::optional<MarkSpec> parse_mark(const std::string& v) {
  MarkSpec m;
  const std::string t = trimmed(v);
  const std::size_t with = t.find("with");
  if (with == std::string::npos) return std::nullopt;
  m.code = trimmed(tex::strip_braces(trimmed(std::string_view(t).substr(with + 4))));
  const std::string head = trimmed(std::string_view(t).substr(0, with));
  if (head.rfind("at position", 0) == 0) {
    m.at = trimmed(std::string_view(head).substr(11));
    return m;
  }
  if (head.rfind("between positions", 0) != 0) return std::nullopt;
  const std::string rest = head.substr(17);
  const std::size_t and_at = rest.find(" and "), step_at = rest.find(" step ");
  if (and_at == std::string::npos || step_at == std::string::npos || step_at < and_at) return std::nullopt;
  m.between = true;
  m.from = trimmed(std::string_view(rest).substr(0, and_at));
  m.to = trimmed(std::string_view(rest).substr(and_at + 5, step_at - and_at - 5));
  m.step = trimmed(std::string_view(rest).substr(step_at + 6));
  return m;
}

}  // namespace

std::optional<DrawnDecoration> lower_markings(const std::string& spec, DecoratedPath path, LibraryHost& host,
                                              std::uint32_t b, std::uint32_t e) {
  std::vector<MarkSpec> marks;
  std::string connection_node;
  double raise = 0;
  bool mirror = false, reverse = false;
  std::string err;
  for (const auto& it : tex::split_options(spec)) {
    const std::string key = tex::normalise_key(it.key);
    const std::string value = trimmed(it.value);
    if (key == "reset marks") marks.clear();
    else if (key == "mark" && it.has_value) {
      auto m = parse_mark(value);
      if (!m) {
        host.problem("unsupported-key", "cannot read mark '" + value.substr(0, 40) + "'", b, e);
        continue;
      }
      marks.push_back(*m);
    } else if (key == "mark connection node") connection_node = trimmed(tex::strip_braces(value));
    else if (key == "raise") {
      if (auto v = host.eval(tex::strip_braces(value))) raise = v->value;
    } else if (key == "mirror") mirror = !it.has_value || value != "false";
    else if (key == "reverse path") reverse = !it.has_value || value != "false";
  }
  if (reverse) path.reverse();
  const double L = path.length();
  // \pgf@lib@dec@parsenum: a dimension is a distance, a number a fraction of the length; either
  // counts from the end when negative
  auto position = [&](const std::string& text) -> std::optional<double> {
    std::string x = text;
    for (std::size_t at = x.find("\\pgfdecoratedpathlength"); at != std::string::npos;
         at = x.find("\\pgfdecoratedpathlength"))
      x.replace(at, 23, "(" + fmt(L) + "pt)");
    auto v = host.eval(x);
    if (!v) {
      host.problem("unsupported-key", "cannot evaluate mark position '" + text + "'", b, e);
      return std::nullopt;
    }
    double d = v->is_length ? v->value : v->value * L;
    if (d < 0) d += L;
    return d;
  };
  std::vector<std::pair<double, std::string>> placed;  // distance, code
  constexpr double kSp = 1.0 / 65536;
  bool stop = false;
  for (const MarkSpec& m : marks) {
    if (stop) break;
    if (!m.between) {
      auto p = position(m.at);
      if (!p) continue;
      if (*p > L + kSp) break;  // the skipper's width runs past the end: final state
      placed.push_back({*p, m.code});
      continue;
    }
    auto from = position(m.from), to = position(m.to), step = position(m.step);
    if (!from || !to || !step) continue;
    if (*step <= 0) {
      host.problem("unsupported-key", "mark step '" + m.step + "' does not advance", b, e);
      continue;
    }
    for (double p = *from; p <= *to + 1e-6 && placed.size() < 10000; p += *step) {
      if (p > L + kSp) {
        stop = true;
        break;
      }
      placed.push_back({p, m.code});
    }
  }
  DrawnDecoration out;
  const DecoratedPath::Frame first = path.frame_at(0);
  std::vector<Point> piece{first.at};
  int sequence = 0;
  for (const auto& [dist, code] : placed) {
    const DecoratedPath::Frame f = path.frame_at(dist);
    std::string scope = decoration_frame_scope(f, 0);
    if (mirror || raise != 0) {
      scope.pop_back();
      if (mirror) scope += ",yscale=-1";
      if (raise != 0) scope += ",yshift=" + fmt(raise) + "pt";
      scope += "]";
    }
    host.emit(scope, b, e);
    for (const std::string& st : split_tikz_code(substitute_mark_info(strip_arrow_commands(code), ++sequence, dist, L)))
      host.emit(st, b, e);
    host.emit("\\end{scope}", b, e);
    if (connection_node.empty()) continue;
    // \pgf@lib@mark@connect@node: a line to the node's border behind the mark, a move to the one ahead
    auto west = host.named_anchor(connection_node, "west"), east = host.named_anchor(connection_node, "east");
    if (!west || !east) {
      host.problem("unsupported-key", "mark connection node '" + connection_node + "' is not a node the mark drew", b, e);
      continue;
    }
    const double rho = angle_deg(*east - *west);
    auto border = [&](double canvas_deg) {
      double a = std::fmod(canvas_deg - rho, 360.0);
      if (a < 0) a += 360;
      return host.named_anchor(connection_node, fmt(a));
    };
    auto behind = border(f.angle_deg + 180), ahead = border(f.angle_deg);
    if (!behind || !ahead) continue;
    piece.push_back(*behind);
    out.path.push_back(piece);
    piece = {*ahead};
  }
  if (!connection_node.empty()) {
    piece.push_back(path.frame_at(L).at);
    out.path.push_back(piece);
  }
  return out;
}

}  // namespace tikzlint::ir

namespace tikzlint::ir {

namespace {

// A point given in a decoration state's frame (x along the tangent), in canvas pt.
Point in_frame(const DecoratedPath::Frame& f, Point local) {
  const double a = f.angle_deg * kPi / 180;
  return {f.at.x + std::cos(a) * local.x - std::sin(a) * local.y, f.at.y + std::sin(a) * local.x + std::cos(a) * local.y};
}

// \pgfpatharc{a0}{a1}{r} from the point at angle a0 of the circle around `center` (frame coordinates);
// `hull` gets the control points of the Bézier pieces pgf draws it with
std::vector<Point> frame_arc(const DecoratedPath::Frame& f, Point center, double r, double a0, double a1, double ysign,
                             std::vector<Point>& hull) {
  std::vector<Point> out;
  const double fa = f.angle_deg * kPi / 180;
  const Point u{std::cos(fa) * r, std::sin(fa) * r}, v{-std::sin(fa) * r * ysign, std::cos(fa) * r * ysign};
  const ConjugateEllipse el{in_frame(f, {center.x, ysign * center.y}), u, v};
  for (Point p : arc_hull_points(el, a0, a1)) hull.push_back(p);
  const int n = std::max(4, static_cast<int>(std::ceil(std::abs(a1 - a0) / 360.0 * kCurveSamples)));
  for (int i = 0; i <= n; ++i) {
    const double t = (a0 + (a1 - a0) * i / n) * kPi / 180;
    out.push_back(in_frame(f, {center.x + r * std::cos(t), ysign * (center.y + r * std::sin(t))}));
  }
  return out;
}

}  // namespace

// pgflibrarydecorations.pathreplacing.code.tex: `waves` (an arc of `start radius` ahead of each
// segment) and `expanding waves` (arcs around the path's start, one per segment length).
std::optional<DrawnDecoration> lower_waves(const std::string& name, const std::string& spec, DecoratedPath path,
                                           LibraryHost& host) {
  double seg = 10, angle = 45, radius = 2.5;
  bool mirror = false, reverse = false;
  for (const DecorationKey& k : decoration_keys(spec, host)) {
    if (k.key == "segment length") seg = k.number(seg);
    else if (k.key == "angle") angle = k.number(angle);
    else if (k.key == "start radius" || k.key == "radius") radius = k.number(radius);
    else if (k.key == "mirror") mirror = k.flag();
    else if (k.key == "reverse path") reverse = k.flag();
  }
  if (reverse) path.reverse();
  const double L = path.length(), ys = mirror ? -1 : 1;
  DrawnDecoration out;
  if (seg <= 0) return out;
  if (name == "waves") {
    for (double c = 0; L - c >= seg && out.path.size() < 10000; c += seg) {
      const auto f = path.frame_at(c);
      out.path.push_back(frame_arc(f, {seg - radius, 0}, radius, angle, -angle, ys, out.control_points));
    }
  } else {
    for (double c = seg; c <= L + 1e-9 && out.path.size() < 10000; c += seg) {
      const auto f = path.frame_at(c);
      out.path.push_back(frame_arc(f, {-c, 0}, c, angle, -angle, ys, out.control_points));
      if (L - c < seg) break;  // `last`: the wave at the remaining distance, then final
    }
  }
  return out;
}

}  // namespace tikzlint::ir

namespace tikzlint::ir {

// pgflibrarydecorations.pathreplacing.code.tex: the path's soft-path segments one by one (an arc is
// curvetos of at most 90 degrees, a circle four and a closepath), each running its kind's code.
std::optional<DrawnDecoration> lower_show_path_construction(const std::string& spec, const DecoratedPath& path,
                                                            LibraryHost& host, std::uint32_t b, std::uint32_t e) {
  std::map<std::string, std::string> code;
  for (const auto& it : tex::split_options(spec)) {
    const std::string key = tex::normalise_key(it.key);
    if (key == "moveto code" || key == "lineto code" || key == "curveto code" || key == "closepath code")
      code[key.substr(0, key.size() - 5)] = tex::strip_braces(trimmed(it.value));
  }
  auto run = [&](const std::string& kind, Point first, Point last, Point sa, Point sb) {
    auto c = code.find(kind);
    if (c == code.end() || trimmed(c->second).empty()) return;
    std::string t = c->second;
    auto put = [&](const std::string& name, Point p) {
      const std::string v = fmt(p.x) + "pt," + fmt(p.y) + "pt";
      for (std::size_t at = t.find(name); at != std::string::npos; at = t.find(name, at + v.size())) {
        const std::size_t end = at + name.size();
        if (end < t.size() && std::isalpha(static_cast<unsigned char>(t[end]))) {
          at = end - v.size();
          continue;
        }
        t.replace(at, name.size(), v);
      }
    };
    put("\\tikzinputsegmentsupporta", sa);
    put("\\tikzinputsegmentsupportb", sb);
    put("\\tikzinputsegmentfirst", first);
    put("\\tikzinputsegmentlast", last);
    host.emit("\\begin{scope}[reset cm]", b, e);
    for (const std::string& st : split_tikz_code(t)) host.emit(st, b, e);
    host.emit("\\end{scope}", b, e);
  };
  bool have = false;
  Point cur{0, 0};
  auto move_to = [&](Point p) {
    run("moveto", p, p, p, p);
    cur = p;
    have = true;
  };
  auto start = [&](Point p) {
    if (!have || !near(cur, p)) move_to(p);
  };
  auto line_to = [&](Point p, const char* kind = "lineto") {
    run(kind, cur, p, cur, p);
    cur = p;
  };
  auto curves = [&](const std::vector<Point>& hull) {  // p0 c1 c2 p1, repeated
    for (std::size_t i = 0; i + 3 < hull.size(); i += 4) {
      run("curveto", hull[i], hull[i + 3], hull[i + 1], hull[i + 2]);
      cur = hull[i + 3];
    }
  };
  for (const Geometry& g : path.pieces) {
    if (const auto* sg = std::get_if<Segment>(&g)) {
      start(sg->a);
      line_to(sg->b);
    } else if (const auto* pl = std::get_if<Polyline>(&g)) {
      if (pl->points.empty()) continue;
      start(pl->points.front());
      for (std::size_t i = 1; i < pl->points.size(); ++i) line_to(pl->points[i]);
      if (pl->closed) line_to(pl->points.front(), "closepath");
    } else if (const auto* pt = std::get_if<Plot>(&g)) {
      if (pt->points.empty()) continue;
      start(pt->points.front());
      for (std::size_t i = 1; i < pt->points.size(); ++i) line_to(pt->points[i]);
    } else if (const auto* r = std::get_if<Rectangle>(&g)) {
      move_to(r->corners[0]);
      for (int i = 1; i < 4; ++i) line_to(r->corners[static_cast<std::size_t>(i)]);
      line_to(r->corners[0], "closepath");
    } else if (const auto* bz = std::get_if<Bezier>(&g)) {
      start(bz->p0);
      curves({bz->p0, bz->c1, bz->c2, bz->p1});
    } else if (const auto* a = std::get_if<Arc>(&g)) {
      const double rr = a->rotation_deg * kPi / 180;
      const ConjugateEllipse el{a->center, {a->rx * std::cos(rr), a->rx * std::sin(rr)},
                                {-a->ry * std::sin(rr), a->ry * std::cos(rr)}};
      start(a->from);
      curves(arc_hull_points(el, a->start_deg, a->end_deg));
    } else if (std::holds_alternative<Circle>(g) || std::holds_alternative<Ellipse>(g)) {
      ConjugateEllipse el;
      if (const auto* c = std::get_if<Circle>(&g)) el = {c->center, {c->radius, 0}, {0, c->radius}};
      if (const auto* x = std::get_if<Ellipse>(&g)) {
        const double rr = x->rotation_deg * kPi / 180;
        el = {x->center, {x->rx * std::cos(rr), x->rx * std::sin(rr)}, {-x->ry * std::sin(rr), x->ry * std::cos(rr)}};
      }
      move_to(el.at(0));
      curves(arc_hull_points(el, 0, 360));
      line_to(el.at(0), "closepath");
    }
  }
  return DrawnDecoration{};
}

// pgflibrarydecorations.pathmorphing.code.tex: `zigzag` and `snake` run as pgf's decoration
// automaton runs them (pgfmoduledecorations.code.tex): each state draws in the frame of the point
// reached, `switch if less than` and a state's `width` compare with the distance remaining, and the
// final state draws a line to the end of the decorated part. TikZ's pre/post length leave straight
// stretches at the ends (tikzlibrarydecorations.code.tex's tikz@internal meta-decoration), mirror
// and raise move the frame (yscale -1, then yshift). A path of several subpaths is not walked.
std::optional<DrawnDecoration> lower_path_morphing(const std::string& name, const std::string& spec,
                                                   DecoratedPath path, LibraryHost& host) {
  double seg = 10, amp = kDefaultDecorationAmplitude, pre = 0, post = 0, raise = 0;
  bool mirror = false, reverse = false;
  for (const DecorationKey& k : decoration_keys(spec, host)) {
    if (k.key == "mirror") mirror = k.flag();
    else if (k.key == "reverse path") reverse = k.flag();
    else if (!k.has_value) continue;
    else if (k.key == "segment length") seg = k.number(seg);
    else if (k.key == "amplitude") amp = k.number(amp);
    else if (k.key == "pre length") pre = k.number(pre);
    else if (k.key == "post length") post = k.number(post);
    else if (k.key == "raise") raise = k.number(raise);
    else if (k.key == "pre" || k.key == "post" || k.key == "transform" || k.key == "meta-segment length")
      return std::nullopt;  // another decoration at the ends, a transformation: not walked here
  }
  if (path.subpaths.size() != 1 || path.subpaths.front().size() < 2 || seg <= 0) return std::nullopt;
  if (reverse) path.reverse();
  const std::vector<Point>& input = path.subpaths.front();
  const double L = path.length();
  const double ys = mirror ? -1 : 1;
  DrawnDecoration out;
  std::vector<Point> pts{input.front()};
  // the input path's own points from distance s0 to s1 (the `lineto` decoration of pre and post)
  auto follow = [&](double s0, double s1) {
    double at = 0;
    for (std::size_t i = 1; i < input.size(); ++i) {
      at += ir::length(input[i] - input[i - 1]);
      if (at > s0 + 1e-9 && at < s1 - 1e-9) pts.push_back(input[i]);
    }
    pts.push_back(path.frame_at(s1).at);
  };
  if (pre > 0) follow(0, std::min(pre, L));
  const double D = std::max(0.0, L - std::max(0.0, pre) - std::max(0.0, post));
  const double p0 = std::max(0.0, pre);
  auto frame = [&](double s) { return path.frame_at(p0 + s); };
  auto local = [&](const DecoratedPath::Frame& f, double x, double y) { return in_frame(f, {x, ys * (y + raise)}); };
  // a cubic from the last point, sampled for the rules; pgf's picture size counts its controls.
  // `rel`: the points are offsets from the last point in the frame's directions (\pgfpathsine's
  // and \pgfpathcosine's "transform to the last point"), else frame coordinates.
  auto curve = [&](const DecoratedPath::Frame& f, bool rel, Point c1, Point c2, Point to) {
    const Point q0 = pts.back();
    auto place = [&](Point c) {
      if (!rel) return local(f, c.x, c.y);
      const double a = f.angle_deg * kPi / 180, y = ys * c.y;
      return Point{q0.x + std::cos(a) * c.x - std::sin(a) * y, q0.y + std::sin(a) * c.x + std::cos(a) * y};
    };
    const Point q1 = place(c1), q2 = place(c2), q3 = place(to);
    out.control_points.push_back(q1);
    out.control_points.push_back(q2);
    for (int k = 1; k <= 8; ++k) {
      const double t = k / 8.0, u = 1 - t;
      pts.push_back({u * u * u * q0.x + 3 * u * u * t * q1.x + 3 * u * t * t * q2.x + t * t * t * q3.x,
                     u * u * u * q0.y + 3 * u * u * t * q1.y + 3 * u * t * t * q2.y + t * t * t * q3.y});
    }
  };
  constexpr double kEps = 1e-6;
  double s = 0;
  if (name == "zigzag") {
    // up from center, then big down / big up in turn, center finish, final
    if (D >= 0.5 * seg - kEps) {
      pts.push_back(local(frame(0), 0.25 * seg, amp));
      s = 0.5 * seg;
      double sign = -1;
      while (D - s >= 0.5 * seg - kEps && D - s > kEps && pts.size() < 20000) {
        pts.push_back(local(frame(s), 0.25 * seg, sign * amp));
        s += 0.5 * seg;
        sign = -sign;
      }
      pts.push_back(local(frame(s), 0, 0));  // center finish
    }
  } else if (name == "snake") {
    // initial, then down / up in turn (a cosine and a sine each), end down / end up, final
    if (D >= 0.625 * seg - kEps) {
      curve(frame(0), false, {0.125 * seg, 0}, {0.1875 * seg, amp}, {0.3125 * seg, amp});
      s = 0.3125 * seg;
      double sign = -1;  // down first
      while (pts.size() < 20000) {
        const auto f = frame(s);
        if (D - s <= kEps || D - s < 0.8125 * seg - kEps) {
          curve(f, false, {0.125 * seg, -sign * amp}, {0.1875 * seg, 0}, {0.3125 * seg, 0});
          break;
        }
        const double x = 0.25 * seg, y = sign * amp;
        curve(f, true, {0.362 * x, 0}, {0.674 * x, 0.488 * y}, {x, y});
        curve(f, true, {0.326 * x, 0.512 * y}, {0.638 * x, y}, {x, y});
        s += 0.5 * seg;
        sign = -sign;
      }
    }
  } else {
    return std::nullopt;
  }
  pts.push_back(path.frame_at(p0 + D).at);  // final: a line to the end of the decorated part
  if (post > 0) follow(p0 + D, L);
  out.path.push_back(std::move(pts));
  return out;
}

std::optional<DrawnDecoration> lower_drawing_decoration(const std::string& name, const std::string& spec,
                                                        const DecoratedPath& path, LibraryHost& host,
                                                        std::uint32_t b, std::uint32_t e) {
  if (name == "markings") return lower_markings(spec, path, host, b, e);
  if (name == "text along path") return lower_text_along_path(spec, path, host, b, e);
  if (name == "text effects along path") return lower_text_effects(spec, path, host, b, e);
  if (name == "waves" || name == "expanding waves") return lower_waves(name, spec, path, host);
  if (name == "footprints") return lower_footprints(spec, path, host, b, e);
  if (name == "show path construction") return lower_show_path_construction(spec, path, host, b, e);
  if (name == "zigzag" || name == "snake") return lower_path_morphing(name, spec, path, host);
  return std::nullopt;
}

}  // namespace tikzlint::ir
