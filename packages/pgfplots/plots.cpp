// packages/pgfplots/plots.cpp: plot types (pgfplots manual 4.5) and pgf's plot handlers
// (pgflibraryplothandlers.code.tex).
#include "packages/pgfplots/plots.hpp"

#include <cmath>

#include "ir/library.hpp"
#include "tex/styles.hpp"

namespace tikzlint::pgfplots {

namespace {
const char* const kNoValue = "\x01";  // a key written without a value
}  // namespace

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
  } else if (key == "hist" || key.rfind("hist/", 0) == 0) {
    // hist/.code={handler: histogram, \pgfqkeys{/pgfplots/hist}{#1}}; its handler ybar interval
    kind.hist = true;
    kind.handler = H::interval_y;
    std::vector<std::pair<std::string, std::string>> items;
    if (key == "hist") {
      for (const auto& it : tex::split_options(value))
        items.push_back({tex::normalise_key(it.key), it.has_value ? std::string(ir::text_trim(tex::strip_braces(it.value))) : kNoValue});
    } else {
      items.push_back({key.substr(5), has_value ? value : kNoValue});
    }
    for (const auto& [k, v] : items) {
      const bool none = v == kNoValue;
      if (k == "bins" && !none) kind.hist_bins = v;
      else if (k == "data min" && !none) kind.hist_min = v;
      else if (k == "data max" && !none) kind.hist_max = v;
      else if (k == "data" && (v == "x" || v == "y")) kind.hist_data = v[0];
      else if (k == "intervals") kind.hist_intervals = none || v == "true";
      else if (k == "cumulative") kind.hist_cumulative = none || v == "true";
      else if (k == "density") kind.hist_density = none || v == "true";
      else if (k == "handler/.style" && (v == "sharp plot" || v == "const plot" || v == "ybar interval"))
        kind.handler = v == "sharp plot" ? H::line : v == "const plot" ? H::const_left : H::interval_y;
      else if (!k.empty()) kind.unsupported = "'hist/" + k + (none ? "" : "=" + v) + "' is not modelled";
    }
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

std::vector<ir::Point> histogram(const std::vector<double>& values, double lo, double hi, int bins, bool intervals,
                                 bool cumulative, bool density) {
  std::vector<ir::Point> out;
  if (bins < 1 || !(hi > lo)) return out;
  const double h = (hi - lo) / bins;
  std::vector<double> count(static_cast<std::size_t>(bins), 0.0);
  for (double v : values) {
    const double b = std::floor((v - lo) / h + 1e-4);  // \pgfplotsplothandlerhistsettol{1e-4}
    count[static_cast<std::size_t>(b < 0 ? 0 : b >= bins ? bins - 1 : b)] += 1;
  }
  const double total = static_cast<double>(values.size());
  double sum = 0;
  for (int i = 0; i < bins; ++i) {
    double c = count[static_cast<std::size_t>(i)];
    if (cumulative) c = sum += c;
    if (density) c = cumulative ? c / total : c / (total * h);
    out.push_back({lo + i * h, c});
  }
  if (intervals) out.push_back({hi, out.back().y});
  return out;
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
