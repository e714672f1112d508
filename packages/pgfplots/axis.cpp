// packages/pgfplots/axis.cpp: the approximate pgfplots axis (pgfplots manual 4.10): the axis box
// and its data frame from explicit limits, \addplot of coordinates or of an expression as TikZ
// plots, `axis cs:`. Anything else in a picture with an axis is covered by one diagnostic: the
// note "approximate-axis" when the axis was lowered, else the warning "pgfplots axis is not
// lowered" that leaves the whole picture unplaced for the rules.
#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "ir/coords.hpp"
#include "ir/library.hpp"
#include "packages/support.hpp"
#include "tex/styles.hpp"

namespace tikzlint::packages {
namespace {

using ir::Point;

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

class AxisPicture final : public ir::PackagePicture {
 public:
  explicit AxisPicture(const tex::Picture& pic) : picture_range_(pic.range) {}

  // Inside a picture with an axis, every non-path statement is the axis': \begin{axis},
  // \addplot, \end{axis} are lowered; the rest (\addlegendentry, \legend...) is covered by the
  // axis diagnostic. Paths (\draw, \node in the axis) are lowered as plain TikZ.
  ir::Offer lower_statement(const ir::PackageStatement& s, ir::LibraryHost& host) override {
    if (s.path) return ir::Offer::pass;
    const std::string t(ir::text_trim(s.st.text));
    if (starts_with(t, "\\begin{axis}")) {
      begin_axis(s.st, host);
    } else if (starts_with(t, "\\end{axis}")) {
      if (lowered_) host.emit("\\end{scope}", 0, 0);
    } else if (starts_with(t, "\\addplot") && lowered_) {
      lower_addplot(s.st, host);
    }
    return ir::Offer::lowered;
  }

  // pgfplots' axis cs: positional data coordinates in the axis frame
  Coordinate coordinate(std::string_view system, std::string_view args, const ir::Settings& s,
                        const Eval& eval) override {
    if (system != "axis" || !lowered_) return {};
    Coordinate out;
    out.handled = true;
    auto items = tex::split_options(args);
    Point p{0, 0};
    const Point* vecs[3] = {&s.xvec, &s.yvec, &s.zvec};
    for (std::size_t k = 0; k < items.size() && k < 3; ++k) {
      auto v = eval(items[k].has_value ? items[k].value : items[k].key);
      if (!v) return out;
      p = p + v->value * *vecs[k];
    }
    out.local = p;
    return out;
  }

  // inside a pgfplots axis (axis cs:, \addplot...) the one axis diagnostic covers everything
  bool covers_problem(std::string_view code) const override { return !lowered_ && starts_with(code, "unsupported"); }

  void end_picture(ir::LibraryHost& host) override {
    if (lowered_) return;
    Diagnostic dg;
    dg.rule = "unsupported-construct";
    dg.severity = Severity::warning;
    dg.message = "pgfplots axis is not lowered";
    dg.range = picture_range_;
    host.report(dg, "pgfplots axis");
    host.mark_incomplete();
  }

 private:
  bool begin_axis(const tex::Statement& st, ir::LibraryHost& host);
  void lower_addplot(const tex::Statement& st, ir::LibraryHost& host);

  SourceRange picture_range_;
  bool lowered_ = false;  // the axis' data coordinates are mapped (begin_axis)
  std::optional<std::pair<double, double>> domain_;
};

// With compat >= 1.11 plain coordinates inside the axis are data coordinates. The axis box starts
// at the picture origin (anchor south west) and is width/height minus 45pt for the labels unless
// `scale only axis` (pgfplots.scaling.code.tex).
bool AxisPicture::begin_axis(const tex::Statement& st, ir::LibraryHost& host) {
  std::string t(ir::text_trim(st.text));
  std::string opts;
  std::size_t open = t.find('[');
  if (open != std::string::npos && t.back() == ']') opts = t.substr(open + 1, t.size() - open - 2);
  std::map<std::string, std::string> kv;
  bool scale_only = false, middle = false;
  for (const auto& it : tex::split_options(opts)) {
    const std::string k = tex::normalise_key(it.key);
    if (k == "scale only axis") scale_only = true;
    if (k == "axis lines" && ir::text_trim(it.value) == "middle") middle = true;
    if (it.has_value) kv[k] = it.value;
  }
  std::string err;
  auto num = [&](const char* k) -> std::optional<double> {
    auto f = kv.find(k);
    if (f == kv.end()) return std::nullopt;
    auto v = host.eval(f->second, &err);
    if (!v) return std::nullopt;
    return v->value;
  };
  auto xmin = num("xmin"), xmax = num("xmax"), ymin = num("ymin"), ymax = num("ymax");
  if (!xmin || !xmax || !ymin || !ymax || *xmax <= *xmin || *ymax <= *ymin) return false;
  double width = num("width").value_or(240), height = num("height").value_or(207);
  if (!scale_only) {
    width = std::max(1.0, width - 45);
    height = std::max(1.0, height - 45);
  }
  ir::Settings s = host.settings();
  const double sx = width / (*xmax - *xmin), sy = height / (*ymax - *ymin);
  s.xvec = {sx, 0};
  s.yvec = {0, sy};
  s.ctm = s.ctm.then_local(ir::Transform::shift(-*xmin * sx, -*ymin * sy));
  if (auto d = kv.find("domain"); d != kv.end()) {
    auto colon = d->second.find(':');
    std::string e2;
    auto a = host.eval(d->second.substr(0, colon), &e2);
    auto b = colon == std::string::npos ? std::nullopt : host.eval(d->second.substr(colon + 1), &e2);
    if (a && b) domain_ = std::make_pair(a->value, b->value);
  }
  host.begin_scope(s);
  lowered_ = true;
  // the axis box (or its middle lines), and pgfplots' default clip to the box
  Point lo = s.ctm.apply({*xmin * sx, *ymin * sy}), hi = s.ctm.apply({*xmax * sx, *ymax * sy});
  ir::Style st2;
  st2.draw = true;
  if (middle) {
    const double x0 = std::clamp(0.0, *xmin, *xmax), y0 = std::clamp(0.0, *ymin, *ymax);
    Point ox = s.ctm.apply({x0 * sx, 0}), oy = s.ctm.apply({0, y0 * sy});
    host.add_path({ir::Segment{{lo.x, oy.y}, {hi.x, oy.y}}, ir::Segment{{ox.x, lo.y}, {ox.x, hi.y}}}, st2);
  } else {
    ir::Rectangle r;
    r.corners = {lo, Point{hi.x, lo.y}, hi, Point{lo.x, hi.y}};
    host.add_path({r}, st2);
  }
  ir::ClipRegion cr;
  cr.polygon = {lo, {hi.x, lo.y}, hi, {lo.x, hi.y}};
  cr.is_rectangle = true;
  cr.bounds = {lo.x, lo.y, hi.x, hi.y};
  cr.prov = st.prov;
  host.add_clip(cr);
  host.grow_picture_bbox(ir::Box{lo.x, lo.y, hi.x, hi.y});
  Diagnostic dg;
  dg.rule = "approximate-axis";
  dg.severity = Severity::note;
  dg.message = "pgfplots axis lowered approximately: data coordinates mapped, tick labels not modelled";
  dg.range = st.prov.range;
  host.report(dg);
  return true;
}

// \addplot[opts] coordinates {...}; and \addplot[opts] {expr}; as TikZ plots in the axis frame.
void AxisPicture::lower_addplot(const tex::Statement& st, ir::LibraryHost& host) {
  std::string t(ir::text_trim(st.text));
  std::size_t i = std::string("\\addplot").size();
  while (i < t.size() && (t[i] == '+' || t[i] == '3' || t[i] == ' ')) ++i;
  std::string opts;
  if (i < t.size() && t[i] == '[') {
    int d = 0;
    std::size_t j = i;
    for (; j < t.size(); ++j) {
      if (t[j] == '[' || t[j] == '{') ++d;
      if ((t[j] == ']' || t[j] == '}') && --d == 0) break;
    }
    opts = t.substr(i + 1, j - i - 1);
    i = j + 1;
  }
  std::string rest(ir::text_trim(std::string_view(t).substr(std::min(i, t.size()))));
  if (!rest.empty() && rest.back() == ';') rest.pop_back();
  std::string synth;
  if (starts_with(rest, "coordinates")) {
    synth = "\\draw[" + opts + "] plot " + rest + ";";
  } else if (!rest.empty() && rest.front() == '{') {
    const auto dom = domain_.value_or(std::make_pair(-5.0, 5.0));
    char buf[96];
    std::snprintf(buf, sizeof buf, "domain=%.10g:%.10g, ", dom.first, dom.second);
    synth = "\\draw[" + std::string(buf) + opts + "] plot (\\x, " + rest + ");";
  } else {
    host.problem("unsupported-construct", "\\addplot form is not lowered", 0, static_cast<std::uint32_t>(st.text.size()));
    return;
  }
  // every byte of the plot stands for the \addplot's first character
  host.emit(synth, 0, 0);
}

class Pgfplots final : public ir::Package {
 public:
  std::string_view name() const override { return "pgfplots"; }
  std::unique_ptr<ir::PackagePicture> begin_picture(const tex::Picture& pic) const override {
    if (!pic.is_axis) return nullptr;
    return std::make_unique<AxisPicture>(pic);
  }
};

}  // namespace

std::unique_ptr<ir::Package> pgfplots() { return std::make_unique<Pgfplots>(); }

}  // namespace tikzlint::packages
