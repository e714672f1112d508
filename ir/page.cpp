#include "ir/page.hpp"

#include <cmath>
#include <cstdlib>
#include <map>
#include <string_view>

#include "tex/styles.hpp"

namespace tikzlint::ir {

namespace {

constexpr double kMm = 72.27 / 25.4;  // pt per mm
constexpr double kIn = 72.27;         // pt per inch

struct Paper {
  double width, height;  // pt, portrait
};

// geometry.sty's paper names (and the classes' a4paper, letterpaper...): ISO A and B sizes in
// mm, the American ones in inches.
const std::map<std::string, Paper, std::less<>>& papers() {
  static const std::map<std::string, Paper, std::less<>> kPapers = {
      {"a3paper", {297 * kMm, 420 * kMm}},        {"a4paper", {210 * kMm, 297 * kMm}},
      {"a5paper", {148 * kMm, 210 * kMm}},        {"a6paper", {105 * kMm, 148 * kMm}},
      {"b4paper", {250 * kMm, 353 * kMm}},        {"b5paper", {176 * kMm, 250 * kMm}},
      {"b6paper", {125 * kMm, 176 * kMm}},        {"letterpaper", {8.5 * kIn, 11 * kIn}},
      {"legalpaper", {8.5 * kIn, 14 * kIn}},      {"executivepaper", {7.25 * kIn, 10.5 * kIn}},
  };
  return kPapers;
}

// TeX's units in pt (The TeXbook, chapter 10).
const std::map<std::string, double, std::less<>>& units() {
  static const std::map<std::string, double, std::less<>> kUnits = {
      {"pt", 1},         {"in", kIn},  {"cm", 10 * kMm}, {"mm", kMm},          {"bp", kIn / 72},
      {"pc", 12},        {"dd", 1238.0 / 1157}, {"cc", 12 * 1238.0 / 1157}, {"sp", 1.0 / 65536},
  };
  return kUnits;
}

std::string trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\n' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\n' || s.back() == '\t')) s.remove_suffix(1);
  return std::string(s);
}

// "1in", "2.5 cm", "20mm": pt; nullopt for anything else (a macro, a \paperwidth fraction).
std::optional<double> length_of(const std::string& text) {
  const std::string t = trimmed(text);
  char* end = nullptr;
  const double v = std::strtod(t.c_str(), &end);
  if (end == t.c_str()) return std::nullopt;
  const std::string unit = trimmed(std::string_view(end));
  auto u = units().find(unit);
  if (u == units().end()) return std::nullopt;
  return v * u->second;
}

// "{a,b}" or "a,b" -> {a, b}; one value -> {a}.
std::vector<std::string> values_of(const std::string& v) {
  std::vector<std::string> out;
  for (const auto& item : tex::split_options(std::string(tex::strip_braces(v)))) out.push_back(trimmed(item.key));
  return out;
}

// One direction of the block (geometry's auto-completion, manual section 5): the text length
// from the two margins and the length, whichever are given; the margins split what is left in
// `ratio` (first : second); `scale` of the paper when nothing is given.
struct Direction {
  std::optional<double> first, second, length, scale;
  bool unread = false;
};

std::optional<double> complete(const Direction& d, double paper, double ratio) {
  if (d.unread) return std::nullopt;
  if (d.length) return *d.length;
  if (d.first && d.second) return paper - *d.first - *d.second;
  if (d.first) return paper - *d.first * (1 + 1 / ratio);
  if (d.second) return paper - *d.second * (1 + ratio);
  return paper * d.scale.value_or(0.7);  // geometry's default scale
}

}  // namespace

std::optional<TextBlock> geometry_text_block(const std::vector<std::string>& class_options,
                                             const std::string& geometry_options) {
  Paper paper = papers().at("letterpaper");  // LaTeX's classes (classes.dtx: \@letterpaper)
  std::string paper_name = "letter";
  bool landscape = false;
  auto take_paper = [&](const std::string& name) {
    auto p = papers().find(name);
    if (p == papers().end()) return false;
    paper = p->second;
    paper_name = name.substr(0, name.size() - 5);
    return true;
  };
  for (const std::string& o : class_options) {
    if (o == "landscape") landscape = true;
    take_paper(o);
  }
  Direction h, v;
  for (const auto& item : tex::split_options(geometry_options)) {
    const std::string key = trimmed(item.key);
    const std::string val = item.value;
    if (!item.has_value) {
      if (key == "landscape") landscape = true;
      else if (key == "portrait") landscape = false;
      else if (!take_paper(key) && (key == "includemp" || key == "includeall" || key == "reversemp"))
        h.unread = true;  // the marginal notes' width joins the body: not modelled
      continue;
    }
    auto len = [&](std::optional<double>& slot, bool& unread, const std::string& text) {
      slot = length_of(text);
      if (!slot) unread = true;
    };
    auto pair = [&](Direction& d, std::optional<double> Direction::*a, std::optional<double> Direction::*b) {
      const auto vals = values_of(val);
      if (vals.empty() || vals.size() > 2) {
        d.unread = true;
        return;
      }
      len(d.*a, d.unread, vals[0]);
      len(d.*b, d.unread, vals.size() > 1 ? vals[1] : vals[0]);
    };
    if (key == "paper" || key == "papername") {
      if (!take_paper(trimmed(val))) h.unread = v.unread = true;
    } else if (key == "paperwidth") {
      if (auto w = length_of(val)) paper.width = *w, paper_name = "custom";
      else h.unread = true;
    } else if (key == "paperheight") {
      if (auto w = length_of(val)) paper.height = *w, paper_name = "custom";
      else v.unread = true;
    } else if (key == "papersize") {
      const auto vals = values_of(val);
      auto w = vals.size() == 2 ? length_of(vals[0]) : std::nullopt;
      auto ht = vals.size() == 2 ? length_of(vals[1]) : std::nullopt;
      if (w && ht) paper = {*w, *ht}, paper_name = "custom";
      else h.unread = v.unread = true;
    } else if (key == "margin") {
      // margin=<l> sets all four; margin={<h>,<v>} sets hmargin and vmargin
      const auto vals = values_of(val);
      if (vals.size() == 1 || vals.size() == 2) {
        len(h.first, h.unread, vals[0]);
        h.second = h.first;
        len(v.first, v.unread, vals.size() > 1 ? vals[1] : vals[0]);
        v.second = v.first;
      } else {
        h.unread = v.unread = true;
      }
    } else if (key == "hmargin") {
      pair(h, &Direction::first, &Direction::second);
    } else if (key == "vmargin") {
      pair(v, &Direction::first, &Direction::second);
    } else if (key == "left" || key == "lmargin" || key == "inner") {
      len(h.first, h.unread, val);
    } else if (key == "right" || key == "rmargin" || key == "outer") {
      len(h.second, h.unread, val);
    } else if (key == "top" || key == "tmargin") {
      len(v.first, v.unread, val);
    } else if (key == "bottom" || key == "bmargin") {
      len(v.second, v.unread, val);
    } else if (key == "textwidth" || key == "width") {
      len(h.length, h.unread, val);
    } else if (key == "textheight" || key == "height") {
      len(v.length, v.unread, val);
    } else if (key == "total" || key == "body" || key == "text") {
      pair(h, &Direction::length, &Direction::length);
      const auto vals = values_of(val);
      if (vals.size() == 2) len(v.length, v.unread, vals[1]);
    } else if (key == "hscale" || key == "vscale" || key == "scale") {
      const auto vals = values_of(val);
      char* end = nullptr;
      const double s = vals.empty() ? 0 : std::strtod(vals[0].c_str(), &end);
      if (vals.empty() || end == vals[0].c_str() || s <= 0) {
        (key == "vscale" ? v : h).unread = true;
        continue;
      }
      if (key != "vscale") h.scale = s;
      if (key != "hscale") v.scale = vals.size() > 1 ? std::strtod(vals[1].c_str(), nullptr) : s;
    } else if (key == "hmarginratio" || key == "vmarginratio" || key == "marginratio") {
      // another split of what the given margin leaves: not modelled
      (key == "vmarginratio" ? v : h).unread = true;
      if (key == "marginratio") v.unread = true;
    }
  }
  if (landscape) std::swap(paper.width, paper.height);
  // geometry's defaults: 1:1 left to right (oneside), 2:3 top to bottom
  auto width = complete(h, paper.width, 1.0);
  if (!width || !(*width > 0)) return std::nullopt;
  auto height = complete(v, paper.height, 2.0 / 3.0);
  TextBlock b;
  b.width = *width;
  b.height = height && *height > 0 ? *height : 0;
  b.source = "geometry on " + paper_name + " paper" + (landscape ? " (landscape)" : "");
  return b;
}

}  // namespace tikzlint::ir
