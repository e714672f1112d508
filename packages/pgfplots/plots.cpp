// packages/pgfplots/plots.cpp: plot types (pgfplots manual 4.5) and pgf's plot handlers
// (pgflibraryplothandlers.code.tex).
#include "packages/pgfplots/plots.hpp"

#include "ir/library.hpp"

namespace tikzlint::pgfplots {

bool read_plot_kind_key(const std::string& key, const std::string& value0, bool has_value, PlotKind& kind) {
  using H = PlotKind::Handler;
  const std::string value(ir::text_trim(value0));
  if (key == "sharp plot") {
    kind.handler = H::line;
  } else if (key == "const plot" || key == "const plot mark left") {
    kind.handler = H::const_left;
  } else if (key == "const plot mark right") {
    kind.handler = H::const_right;
  } else if (key == "const plot mark mid") {
    kind.handler = H::const_mid;
  } else if (key == "jump mark left") {
    kind.handler = H::jump_left;
  } else if (key == "jump mark right") {
    kind.handler = H::jump_right;
  } else if (key == "only marks") {
    kind.only_marks = !(has_value && value == "false");
  } else if (key == "ybar" || key == "xbar") {
    // /pgfplots/ybar/.style={bar direction=y, bar cycle list, xtick align=outside, ...,
    // bar shift auto={#1}, /tikz/ybar}, #1 defaults to 2pt
    kind.handler = key == "ybar" ? H::bar_y : H::bar_x;
    kind.shift_auto = true;
    kind.bar_sep = has_value && !value.empty() ? value : "2pt";
  } else if (key == "ybar interval" || key == "xbar interval") {
    // /pgfplots/ybar interval/.style={bar direction=y, bar cycle list, x tick label as interval,
    // xtick=data, bar interval width={#1/\numplotsofactualtype}, bar interval shift=
    // {(\plotnumofactualtype+0.5)/\numplotsofactualtype}, /tikz/ybar interval}, #1 defaults to 1
    kind.handler = key == "ybar interval" ? H::interval_y : H::interval_x;
    kind.interval_width = has_value && !value.empty() ? value : "1";
  } else if (key == "ybar stacked" || key == "xbar stacked") {
    // stack plots=y (x), stack dir=#1 (plus), /tikz/ybar (xbar): the bars keep bar shift
    kind.handler = key == "ybar stacked" ? H::bar_y : H::bar_x;
    kind.stacked = true;
    if (has_value && !value.empty() && value != "plus")
      kind.unsupported = "'" + key + "=" + value + "' (stacking downwards) is not modelled";
  } else if (key == "bar width") {
    kind.bar_width = value;
  } else if (key == "bar shift") {
    kind.bar_shift = value;
    kind.shift_auto = false;
  } else if (key == "bar shift auto") {
    kind.shift_auto = true;
    kind.bar_sep = has_value && !value.empty() ? value : "2pt";
  } else if (key == "nodes near coords" || key == "nodes near coords*") {
    // the default text, \pgfmathprintnumber\pgfplotspointmeta; a text of one's own is not modelled
    std::string v;
    for (char c : value)
      if (c != '{' && c != '}' && c != ' ') v += c;
    kind.nodes_near_coords = !(has_value && value == "false");
    if (has_value && !v.empty() && v != "\\pgfmathprintnumber\\pgfplotspointmeta" && value != "false" && value != "true")
      kind.near_unsupported = "nodes near coords with a text of their own are not modelled";
  } else if (key == "nodes near coords align") {
    if (value == "auto" || value == "vertical" || value == "horizontal") kind.near_align = value;
    else kind.near_unsupported = "'nodes near coords align=" + value + "' is not modelled";
  } else if (key == "every node near coord/.append style" || key == "every node near coord/.style" ||
             key == "nodes near coords style" || key == "node near coords style" || key == "node near coord style") {
    kind.near_style = (key == "every node near coord/.style" ? "" : kind.near_style) + "," + value;
  } else if (key.rfind("nodes near coords", 0) == 0) {
    kind.near_unsupported = "'" + key + "' is not modelled";
  } else if (key == "point meta") {
    kind.point_meta = value == "x" || value == "rawx" ? 'x' : value == "y" || value == "rawy" || value == "f(x)" ? 'y' : '?';
  } else if (key == "stack dir") {
    if (value != "plus") kind.unsupported = "'stack dir=" + value + "' (stacking downwards) is not modelled";
  } else if (key == "stack plots") {
    if (value == "y") kind.stacked = true;
    else if (value == "false") kind.stacked = false;
    else kind.unsupported = "'stack plots=" + value + "' is not modelled";
  } else {
    return false;
  }
  return true;
}

char outside_ticks_of(const std::string& key) {
  if (key == "ybar" || key == "ybar interval") return 'x';
  if (key == "xbar" || key == "xbar interval") return 'y';
  return 0;
}

std::vector<std::vector<ir::Point>> handler_pieces(const std::vector<ir::Point>& pts, PlotKind::Handler h) {
  using H = PlotKind::Handler;
  std::vector<std::vector<ir::Point>> out;
  if (pts.empty()) return out;
  if (h == H::line || h == H::bar_x || h == H::bar_y || h == H::interval_x || h == H::interval_y) return {pts};
  std::vector<ir::Point> cur{pts[0]};
  for (std::size_t i = 1; i < pts.size(); ++i) {
    const ir::Point a = pts[i - 1], b = pts[i];
    switch (h) {
      case H::const_left:  // \pgf@plot@const@line@handler: to (x_i, y_{i-1}), then to (x_i, y_i)
        cur.push_back({b.x, a.y});
        cur.push_back(b);
        break;
      case H::const_right:  // ...mark@right: to (x_{i-1}, y_i), then to (x_i, y_i)
        cur.push_back({a.x, b.y});
        cur.push_back(b);
        break;
      case H::const_mid: {  // ...mark@mid: at the middle x
        const double xc = 0.5 * (a.x + b.x);
        cur.push_back({xc, a.y});
        cur.push_back({xc, b.y});
        cur.push_back(b);
        break;
      }
      case H::jump_left:  // \pgf@plot@jumpmarkleft: to (x_i, y_{i-1}), move to (x_i, y_i)
        cur.push_back({b.x, a.y});
        out.push_back(std::move(cur));
        cur = {b};
        break;
      case H::jump_right:  // \pgf@plot@jumpmarkright: move to (x_{i-1}, y_i), to (x_i, y_i)
        if (cur.size() >= 2) out.push_back(std::move(cur));
        cur = {{a.x, b.y}, b};
        break;
      default:
        break;
    }
  }
  if (cur.size() >= 2) out.push_back(std::move(cur));
  return out;
}

}  // namespace tikzlint::pgfplots
