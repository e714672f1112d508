// ir/decorations_text.cpp: `text along path` (pgflibrarydecorations.text.code.tex): each character
// boxed on its own and set along the path, its box centred on the point it reaches and turned to the
// tangent there, as the decoration's scan / before typeset / typeset / after typeset states do.
#include <cctype>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>

#include "ir/coords.hpp"
#include "ir/decorations.hpp"
#include "support/ascii.hpp"
#include "tex/styles.hpp"

namespace tikzlint::ir {

namespace {

std::string trimmed(std::string_view s) { return std::string(text_trim(s)); }  // library_text.cpp

std::string fmt(double v) { return text_number(v); }  // library_text.cpp

}  // namespace

// \pgf@lib@dec@text@scanchar: spaces, {groups}, control sequences and single characters, each one
// box; |format| replaces the format (|+format| adds to it), $ switches math mode.
std::vector<TextPathChar> scan_decoration_text(const std::string& text, const std::string& open_delim,
                                               const std::string& close_delim) {
  std::vector<TextPathChar> out;
  std::string format;
  bool math = false;
  const std::string close = close_delim.empty() ? open_delim : close_delim;
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (is_ascii_space(c)) {
      while (i < text.size() && is_ascii_space(text[i])) ++i;
      out.push_back({" ", format, math, true});
      continue;
    }
    if (!open_delim.empty() && text.compare(i, open_delim.size(), open_delim) == 0) {
      const std::size_t end = text.find(close, i + open_delim.size());
      const std::string f =
          text.substr(i + open_delim.size(), (end == std::string::npos ? text.size() : end) - i - open_delim.size());
      if (!f.empty() && f[0] == '+') format += f.substr(1);
      else format = f;
      i = end == std::string::npos ? text.size() : end + close.size();
      continue;
    }
    if (c == '$') {
      math = !math;
      ++i;
      continue;
    }
    if (c == '{') {
      const std::size_t j = text_skip_group(text, i);
      const std::size_t end = j == std::string::npos ? text.size() : j;
      out.push_back({text.substr(i, end - i), format, math, false});
      i = end;
      continue;
    }
    if (c == '\\' && i + 1 < text.size()) {
      std::size_t j = i + 1;
      if (text[j] == ' ') {
        out.push_back({" ", format, math, true});
        i = j + 1;
        continue;
      }
      if (std::isalpha(static_cast<unsigned char>(text[j])))
        while (j < text.size() && std::isalpha(static_cast<unsigned char>(text[j]))) ++j;
      else
        ++j;
      out.push_back({text.substr(i, j - i), format, math, false});
      i = j;
      while (i < text.size() && text[i] == ' ') ++i;  // TeX skips the spaces after a control word
      continue;
    }
    std::size_t j = i + 1;  // one UTF-8 code point
    while (j < text.size() && (static_cast<unsigned char>(text[j]) & 0xC0) == 0x80) ++j;
    out.push_back({text.substr(i, j - i), format, math, false});
    i = j;
  }
  return out;
}

std::optional<DrawnDecoration> lower_text_along_path(const std::string& spec, DecoratedPath path, LibraryHost& host,
                                                     std::uint32_t b, std::uint32_t e) {
  std::string text, open = "|", close;
  std::string align = "left";
  double left_indent = 0, right_indent = 0, raise = 0;
  bool fit = false, stretch_spaces = false, reverse = false;
  auto dim = [&](const std::string& v) {
    auto x = host.eval(trimmed(tex::strip_braces(v)));
    return x ? x->value : 0.0;
  };
  std::function<void(const std::string&)> read_align = [&](const std::string& v) {
    for (const auto& it : tex::split_options(v)) {
      const std::string k = tex::normalise_key(it.key);
      const std::string val = trimmed(tex::strip_braces(it.value));
      if (k == "align") read_align(val);
      else if (k == "left" || k == "right" || k == "center") align = k;
      else if (k == "left indent") left_indent = dim(val);
      else if (k == "right indent") right_indent = dim(val);
      else if (k == "fit to path") fit = !it.has_value || val != "false";
      else if (k == "fit to path stretching spaces") fit = stretch_spaces = !it.has_value || val != "false";
    }
  };
  for (const auto& it : tex::split_options(spec)) {
    std::string key = tex::normalise_key(it.key);
    if (key.rfind("/pgf/decoration/", 0) == 0) key = key.substr(16);
    const std::string value = trimmed(it.value);
    if (key == "text") text = tex::strip_braces(value);
    else if (key == "text align") read_align(tex::strip_braces(value));
    else if (key.rfind("text align/", 0) == 0) read_align(key.substr(11) + (it.has_value ? "=" + value : ""));
    else if (key == "raise") raise = dim(value);
    else if (key == "reverse path") reverse = !it.has_value || value != "false";
    else if (key == "text format delimiters") {
      // {<open>}{<close>}
      std::string v = value;
      std::size_t j = text_skip_group(v, 0);
      if (!v.empty() && v[0] == '{' && j != std::string::npos) {
        open = v.substr(1, j - 2);
        std::size_t k = text_skip_space(v, j);
        close = k < v.size() && v[k] == '{' ? tex::strip_braces(v.substr(k)) : "";
      }
    }
  }
  if (reverse) path.reverse();
  const std::vector<TextPathChar> chars = scan_decoration_text(text, open, close);
  // each box's width as TeX sets it alone (\hbox{format char}); a space is the interword space
  std::map<std::string, double> widths;
  auto node_text = [](const TextPathChar& c) {
    std::string body = c.format.empty() ? c.text : c.format + " " + c.text;
    return c.math ? "$" + body + "$" : "{" + body + "}";
  };
  auto width_of = [&](const TextPathChar& c) {
    const std::string key = (c.space ? "space:" : "") + c.format + "|" + c.text + (c.math ? "$" : "");
    auto it = widths.find(key);
    if (it != widths.end()) return it->second;
    double w = 0;
    if (c.space) {
      TextPathChar x{"x", c.format, false, false}, xx{"x x", c.format, false, false}, x2{"xx", c.format, false, false};
      auto a = host.measure_node("inner sep=0pt", node_text(xx)), d = host.measure_node("inner sep=0pt", node_text(x2));
      if (a && d) w = a->text_width - d->text_width;
    } else if (auto m = host.measure_node("inner sep=0pt", node_text(c))) {
      w = m->text_width;
    }
    widths[key] = w;
    return w;
  };
  double total = 0;
  int spaces = 0;
  for (const auto& c : chars) {
    total += width_of(c);
    spaces += c.space;
  }
  // the initial state: the length left after the right indent, and the shifts of fit to path
  const double L = path.length() - right_indent;
  double start = left_indent, char_shift = 0, space_shift = 0;
  if (fit) {
    const double slack = L - left_indent - total;
    if (slack >= 0) {
      if (stretch_spaces) space_shift = spaces > 0 ? slack / spaces : 0;
      else char_shift = chars.size() > 1 ? slack / static_cast<double>(chars.size() - 1) : 0;
    }
  } else if (align == "right") {
    start = L - total;
  } else if (align == "center") {
    start = left_indent + 0.5 * (L - total - left_indent);
  }
  DrawnDecoration out;
  if (start > L) return out;  // the left indent state's width runs past the end
  // \pgfqboxsynced: the boxes do not count in the picture's size
  host.emit("\\begin{scope}[reset cm,overlay]", b, e);
  double s = start;
  for (const auto& c : chars) {
    const double w = width_of(c);
    if (L - s < 0.5 * w) break;  // before typeset: the half box does not fit, final state
    const DecoratedPath::Frame f = path.frame_at(s + 0.5 * w);
    const double a = f.angle_deg * 3.14159265358979323846 / 180;
    const Point at{f.at.x - std::sin(a) * raise, f.at.y + std::cos(a) * raise};
    if (!c.space && w > 0)
      host.emit("\\node[inner sep=0pt,outer sep=0pt,anchor=base,rotate=" + fmt(f.angle_deg) + "] at (" + fmt(at.x) +
                    "pt," + fmt(at.y) + "pt) " + node_text(c) + ";",
                b, e);
    s += w;
    if (L - s < 0) break;  // after typeset: the other half runs past the end, final state
    s += char_shift + (c.space ? space_shift : 0);  // fit to path shifts after spaces too
  }
  host.emit("\\end{scope}", b, e);
  return out;
}

}  // namespace tikzlint::ir
