// packages/pgfplots/data.cpp: an \addplot's data (pgfplots manual 4.2 "The \addplot command",
// 4.3 "The different input methods").
#include "packages/pgfplots/data.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>

#include "ir/library.hpp"
#include "tex/styles.hpp"

namespace tikzlint::pgfplots {
namespace {

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

std::string trimmed(std::string_view s) { return std::string(ir::text_trim(s)); }

// The text of the group opening at t[i] without its delimiters; `end` is set after it.
std::optional<std::string> group(const std::string& t, std::size_t i, std::size_t* end) {
  if (i >= t.size()) return std::nullopt;
  std::size_t j = ir::text_skip_group(t, i);
  if (j == std::string::npos) return std::nullopt;
  *end = j;
  return t.substr(i + 1, j - i - 2);
}

std::string number_text(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.12f", v);
  std::string s = buf;
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s == "-0" ? "0" : s;
}

// `coordinates {(x,y) (x,y) ...}`; error bars (`+- (..)`) and meta data (`[..]`) are not modelled.
// The error values written after a coordinate (pgfplots manual 4.12.1): `+- (ex,ey)` both ways,
// `+= (..)` up/right, `-= (..)` down/left. Sets `i` after them; false on a malformed one.
bool read_error_values(const std::string& body, std::size_t& i, ir::Point& plus, ir::Point& minus) {
  while (true) {
    const std::size_t k = ir::text_skip_space(body, i);
    if (k + 1 >= body.size() || !(body.compare(k, 2, "+-") == 0 || body.compare(k, 2, "+=") == 0 ||
                                   body.compare(k, 2, "-=") == 0))
      return true;
    const std::string op = body.substr(k, 2);
    const std::size_t g = ir::text_skip_space(body, k + 2);
    if (g >= body.size() || body[g] != '(') return false;
    const std::size_t e = ir::text_skip_group(body, g);
    if (e == std::string::npos) return false;
    auto items = tex::split_options(body.substr(g + 1, e - g - 2));
    if (items.size() != 2) return false;
    auto ex = parse_number(trimmed(items[0].key)), ey = parse_number(trimmed(items[1].key));
    if (!ex || !ey) return false;
    const ir::Point v{std::abs(*ex), std::abs(*ey)};
    if (op != "-=") plus = v;
    if (op != "+=") minus = v;
    i = e;
  }
}

PlotData read_coordinates(const std::string& body, const Symbols& sym, bool three = false) {
  PlotData out;
  std::size_t i = 0;
  bool any_error = false;
  while (true) {
    i = ir::text_skip_space(body, i);
    if (i >= body.size()) break;
    if (body[i] != '(') {
      out.unsupported = "\\addplot coordinates with '" + body.substr(i, 12) + "' (error bars, meta data) are not modelled";
      return out;
    }
    std::size_t j = ir::text_skip_group(body, i);
    if (j == std::string::npos) {
      out.unsupported = "\\addplot coordinates: unbalanced '('";
      return out;
    }
    std::string inner = body.substr(i + 1, j - i - 2);
    auto items = tex::split_options(inner);
    if (items.size() != (three ? 3u : 2u)) {
      out.unsupported = items.size() == 3 ? "three-dimensional \\addplot coordinates in a two-dimensional plot are not modelled"
                                          : "\\addplot coordinate '(" + inner + ")' is not a number " + (three ? "triple" : "pair");
      return out;
    }
    std::optional<double> z;
    if (three) {
      z = parse_number(trimmed(items[2].key));
      if (!z) {
        const std::string c = trimmed(items[2].key);
        if (c == "nan" || c == "inf" || c == "-inf" || c == "NaN") {
          i = j;
          continue;
        }
        out.unsupported = "\\addplot3 coordinate '(" + inner + ")' is not numeric";
        return out;
      }
    }
    auto x = data_value(trimmed(items[0].key), sym.x), y = data_value(trimmed(items[1].key), sym.y);
    if (!x || !y) {
      // symbolic coordinates, nan/inf (discarded by pgfplots' `unbounded coords=discard`)
      const std::string a = trimmed(items[0].key), b = trimmed(items[1].key);
      auto unbounded = [](const std::string& s) { return s == "nan" || s == "inf" || s == "-inf" || s == "NaN"; };
      if ((x || unbounded(a)) && (y || unbounded(b))) {
        i = j;
        ir::Point ignored_plus, ignored_minus;
        if (!three && !read_error_values(body, i, ignored_plus, ignored_minus)) {
          out.unsupported = "\\addplot coordinates: an error value that is not a number pair";
          return out;
        }
        continue;
      }
      out.unsupported = "\\addplot coordinate '(" + inner + ")' is not numeric (symbolic coordinates are not modelled)";
      return out;
    }
    out.points.push_back({*x, *y});
    if (three) out.z.push_back(*z);
    i = j;
    if (!three) {
      ir::Point plus{NAN, NAN}, minus{NAN, NAN};
      if (!read_error_values(body, i, plus, minus)) {
        out.unsupported = "\\addplot coordinates: an error value that is not a number pair";
        return out;
      }
      any_error = any_error || !std::isnan(plus.x) || !std::isnan(minus.x);
      out.err_plus.push_back(plus), out.err_minus.push_back(minus);
    }
  }
  if (!any_error) out.err_plus.clear(), out.err_minus.clear();
  return out;
}

// An inline table (pgfplots manual 4.3.2): rows end at a newline (or `\\` with `row sep=\\`),
// columns are separated by blanks (or `col sep=comma`); a first row that is not all numbers is the
// header. `x`/`y` (column names) or `x index`/`y index` pick the columns (default 0 and 1).
PlotData read_table(const std::string& options, const std::string& body, const Symbols& sym, bool three = false) {
  PlotData out;
  std::map<std::string, std::string> kv;
  for (const auto& it : tex::split_options(options)) {
    const std::string k = tex::normalise_key(it.key);
    if (k == "x" || k == "y" || k == "x index" || k == "y index" || k == "col sep" || k == "row sep" ||
        k == "header" || k == "meta" || k == "meta index" || (three && (k == "z" || k == "z index")) ||
        (!three && (k == "x error" || k == "y error" || k == "x error index" || k == "y error index"))) {
      kv[k] = trimmed(it.value);
    } else {
      out.unsupported = "\\addplot table key '" + k + "' is not modelled";
      return out;
    }
  }
  const bool row_sep_tex = kv.count("row sep") && kv["row sep"] == "\\\\";
  if (kv.count("row sep") && !row_sep_tex && kv["row sep"] != "newline") {
    out.unsupported = "\\addplot table row sep '" + kv["row sep"] + "' is not modelled";
    return out;
  }
  char col = ' ';
  if (kv.count("col sep")) {
    const std::string& c = kv["col sep"];
    if (c == "comma") col = ',';
    else if (c == "semicolon") col = ';';
    else if (c == "tab" || c == "space") col = ' ';
    else {
      out.unsupported = "\\addplot table col sep '" + c + "' is not modelled";
      return out;
    }
  }
  std::vector<std::vector<std::string>> rows;
  std::vector<std::size_t> blank_after;  // the number of rows read when a blank line came
  std::string cur;
  auto end_row = [&] {
    std::vector<std::string> cells;
    std::string cell;
    bool any = false;
    for (char c : cur) {
      const bool sep = col == ' ' ? std::isspace(static_cast<unsigned char>(c)) != 0 : c == col;
      if (sep) {
        if (col != ' ' || !cell.empty()) cells.push_back(trimmed(cell));
        cell.clear();
      } else {
        cell += c;
        any = any || !std::isspace(static_cast<unsigned char>(c));
      }
    }
    if (!cell.empty() || (col != ' ' && any)) cells.push_back(trimmed(cell));
    if (any) rows.push_back(std::move(cells));
    cur.clear();
  };
  for (std::size_t i = 0; i < body.size(); ++i) {
    if (body[i] == '%') {  // a comment runs to the end of the line
      while (i < body.size() && body[i] != '\n') ++i;
      if (!row_sep_tex) end_row();
      continue;
    }
    if (row_sep_tex ? (body.compare(i, 2, "\\\\") == 0) : body[i] == '\n') {
      // a blank line ends a scanline (pgfplots manual 4.6.3: the mesh's rows)
      if (!row_sep_tex && trimmed(cur).empty() && !rows.empty() && (blank_after.empty() || blank_after.back() != rows.size()))
        blank_after.push_back(rows.size());
      end_row();
      if (row_sep_tex) ++i;
      continue;
    }
    cur += (body[i] == '\n' ? ' ' : body[i]);
  }
  end_row();
  if (rows.empty()) return out;
  std::vector<std::string> header;
  bool has_header = false;
  for (const auto& c : rows.front())
    if (!parse_number(c)) has_header = true;
  if (kv.count("header") && kv["header"] == "false") has_header = false;
  if (has_header) header = rows.front();
  auto column = [&](const char* name_key, const char* index_key, std::size_t dflt) -> std::optional<std::size_t> {
    if (kv.count(name_key)) {
      for (std::size_t k = 0; k < header.size(); ++k)
        if (header[k] == kv[name_key]) return k;
      return std::nullopt;
    }
    if (kv.count(index_key)) {
      auto v = parse_number(kv[index_key]);
      if (!v || *v < 0) return std::nullopt;
      return static_cast<std::size_t>(*v);
    }
    return dflt;
  };
  auto xc = column("x", "x index", 0), yc = column("y", "y index", 1);
  auto zc = three ? column("z", "z index", 2) : std::optional<std::size_t>(0);
  // error columns (pgfplots manual 4.12.1, `y error=<name>`), only when named
  std::optional<std::size_t> exc, eyc;
  bool errors_ok = true;
  if (kv.count("x error") || kv.count("x error index")) errors_ok = (exc = column("x error", "x error index", 0)).has_value();
  if (kv.count("y error") || kv.count("y error index")) errors_ok = errors_ok && (eyc = column("y error", "y error index", 0)).has_value();
  if (!errors_ok) {
    out.unsupported = "\\addplot table error column is not one of the table's";
    return out;
  }
  if (!xc || !yc || !zc) {
    out.unsupported = "\\addplot table column is not one of the table's (or is an expression)";
    return out;
  }
  for (std::size_t r = has_header ? 1 : 0; r < rows.size(); ++r) {
    const auto& row = rows[r];
    if (*xc >= row.size() || *yc >= row.size()) continue;
    auto x = data_value(row[*xc], sym.x), y = data_value(row[*yc], sym.y);
    if (!x || !y) {
      if (row[*xc] == "nan" || row[*yc] == "nan" || row[*xc] == "inf" || row[*yc] == "inf") continue;
      out.unsupported = "\\addplot table cell '" + (x ? row[*yc] : row[*xc]) + "' is not a number";
      return out;
    }
    std::optional<double> z;
    if (three) {
      if (*zc >= row.size()) continue;
      z = parse_number(row[*zc]);
      if (!z) {
        if (row[*zc] == "nan" || row[*zc] == "inf") continue;
        out.unsupported = "\\addplot3 table cell '" + row[*zc] + "' is not a number";
        return out;
      }
    }
    out.points.push_back({*x, *y});
    if (three) out.z.push_back(*z);
    if (exc || eyc) {
      auto cell = [&](const std::optional<std::size_t>& c) {
        if (!c || *c >= row.size()) return static_cast<double>(NAN);
        auto v = parse_number(row[*c]);
        return v ? std::abs(*v) : static_cast<double>(NAN);
      };
      const ir::Point e{cell(exc), cell(eyc)};
      out.err_plus.push_back(e), out.err_minus.push_back(e);
    }
  }
  // scanlines of equal length, each ended by a blank line (the last one by the end of the data)
  if (three && !blank_after.empty() && out.points.size() + (has_header ? 1 : 0) == rows.size()) {
    const std::size_t first = blank_after.front() - (has_header ? 1 : 0);
    bool even = first > 1;
    for (std::size_t k = 0; even && k < blank_after.size(); ++k)
      even = blank_after[k] - (has_header ? 1 : 0) == (k + 1) * first;
    if (even && out.points.size() % first == 0) out.scanline = first;
  }
  return out;
}

std::vector<double> sample_values(const Sampling& s) {
  if (!s.at.empty()) return s.at;
  std::vector<double> xs;
  const int n = std::max(1, std::min(s.samples, 100000));
  for (int i = 0; i < n; ++i) xs.push_back(n == 1 ? s.lo : s.lo + (s.hi - s.lo) * i / (n - 1));
  return xs;
}

}  // namespace

std::optional<double> parse_number(const std::string& s0) {
  std::string s = trimmed(s0);
  if (s.empty()) return std::nullopt;
  if (s.front() == '{' && s.back() == '}') s = trimmed(s.substr(1, s.size() - 2));
  if (s.empty()) return std::nullopt;
  const char* b = s.c_str();
  char* e = nullptr;
  if (!(std::isdigit(static_cast<unsigned char>(s[0])) || s[0] == '-' || s[0] == '+' || s[0] == '.'))
    return std::nullopt;
  double v = std::strtod(b, &e);
  if (e != b + s.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::optional<AddPlot> split_addplot(const std::string& text) {
  std::string t = trimmed(text);
  if (!starts_with(t, "\\addplot")) return std::nullopt;
  AddPlot out;
  std::size_t i = 8;
  if (i < t.size() && t[i] == '3') out.three_d = true, ++i;
  i = ir::text_skip_space(t, i);
  if (i < t.size() && t[i] == '+') out.plus = true, i = ir::text_skip_space(t, i + 1);
  if (i < t.size() && t[i] == '[') {
    std::size_t j = ir::text_skip_group(t, i);
    if (j == std::string::npos) j = t.size();
    out.options = t.substr(i + 1, j > i + 1 ? j - i - 2 : 0);
    i = j;
  }
  out.source = trimmed(std::string_view(t).substr(std::min(i, t.size())));
  if (!out.source.empty() && out.source.back() == ';') out.source.pop_back();
  out.source = trimmed(out.source);
  constexpr std::string_view kFill = "fill between";
  if (starts_with(out.source, kFill)) {
    out.fill_between = true;
    std::size_t k = ir::text_skip_space(out.source, kFill.size());
    if (k < out.source.size() && out.source[k] == '[') {
      std::size_t j = ir::text_skip_group(out.source, k);
      if (j == std::string::npos) j = out.source.size();
      out.fill_options = out.source.substr(k + 1, j > k + 1 ? j - k - 2 : 0);
      k = j;
    }
    out.fill_after = trimmed(std::string_view(out.source).substr(std::min(k, out.source.size())));
    return out;
  }
  constexpr std::string_view kClosed = "\\closedcycle";
  if (out.source.size() > kClosed.size() && out.source.compare(out.source.size() - kClosed.size(), kClosed.size(), kClosed) == 0) {
    out.closed_cycle = true;
    out.source = trimmed(out.source.substr(0, out.source.size() - kClosed.size()));
  }
  return out;
}

std::string substitute_variable(const std::string& expr, const std::string& variable, const std::string& value) {
  std::string out;
  for (std::size_t i = 0; i < expr.size();) {
    const char c = expr[i];
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '\\') {
      std::size_t j = i + (c == '\\' ? 1 : 0);
      while (j < expr.size() && std::isalpha(static_cast<unsigned char>(expr[j]))) ++j;
      const std::string word = expr.substr(i, j - i);
      const std::string bare = c == '\\' ? word.substr(1) : word;
      // a name followed by '(' is a function (pgfmath's own), never the variable
      if (bare == variable && (c == '\\' || j >= expr.size() || expr[j] != '(')) out += "(" + value + ")";
      else out += word;
      i = std::max(j, i + 1);
      continue;
    }
    out += c;
    ++i;
  }
  return out;
}

std::optional<double> data_value(const std::string& s, const std::vector<std::string>& symbols) {
  if (auto v = parse_number(s)) return v;
  const std::string t = trimmed(s);
  for (std::size_t k = 0; k < symbols.size(); ++k)
    if (symbols[k] == t) return static_cast<double>(k);
  return std::nullopt;
}

namespace {

// \addplot3's expression forms: a grid of samples, y outer and x inner (pgfplots'
// \pgfplots@plot@expression@threedim: one scanline per y value).
PlotData sample_grid(const std::vector<std::string>& exprs, const Sampling& s, const Evaluate& eval) {
  PlotData out;
  const std::vector<double> xs = sample_values(s);
  Sampling sy = s;
  sy.at.clear();
  if (s.domain_y) sy.lo = s.domain_y->first, sy.hi = s.domain_y->second;
  if (s.samples_y) sy.samples = *s.samples_y;
  // `samples y=0` (or 1): a line through the x samples at y = the domain's start
  std::vector<double> ys = sy.samples <= 1 ? std::vector<double>{sy.lo} : sample_values(sy);
  if (xs.size() * ys.size() > 250000) {
    out.unsupported = "\\addplot3 with more than 250000 samples is not modelled";
    return out;
  }
  bool complete = true;
  for (double y : ys) {
    for (double x : xs) {
      double v[3];
      bool ok = true;
      for (std::size_t k = 0; k < 3 && ok; ++k) {
        std::string e = substitute_variable(exprs[k], s.variable, number_text(x));
        e = substitute_variable(e, s.variable_y, number_text(y));
        auto r = eval(e);
        ok = r && std::isfinite(*r);
        if (ok) v[k] = *r;
      }
      if (!ok) {
        complete = false;
        continue;
      }
      out.points.push_back({v[0], v[1]});
      out.z.push_back(v[2]);
    }
  }
  // a point left out (undefined) breaks the scanlines: the mesh is then not known
  if (complete && ys.size() > 1) out.scanline = xs.size();
  return out;
}

PlotData read_any(const std::string& source, const Sampling& sampling, const Evaluate& eval, const Symbols& symbols,
                  bool three, const ReadFile& read) {
  PlotData out;
  std::string s = trimmed(source);
  std::size_t end = 0;
  if (starts_with(s, "coordinates")) {
    std::size_t i = ir::text_skip_space(s, 11);
    auto body = group(s, i, &end);
    if (!body || s[i] != '{') {
      out.unsupported = "\\addplot coordinates without a braced list";
      return out;
    }
    if (!trimmed(s.substr(end)).empty()) {
      out.unsupported = "text after an \\addplot's data ('" + trimmed(s.substr(end)).substr(0, 20) + "') is not modelled";
      return out;
    }
    return read_coordinates(*body, symbols, three);
  }
  if (starts_with(s, "table")) {
    std::size_t i = ir::text_skip_space(s, 5);
    std::string opts;
    if (i < s.size() && s[i] == '[') {
      auto o = group(s, i, &end);
      if (!o) return out.unsupported = "\\addplot table: unbalanced '['", out;
      opts = *o;
      i = ir::text_skip_space(s, end);
    }
    if (i >= s.size() || s[i] != '{') {
      out.unsupported = "\\addplot table read from a macro or file is not modelled";
      return out;
    }
    auto body = group(s, i, &end);
    if (!body) return out.unsupported = "\\addplot table: unbalanced '{'", out;
    // a file name is one word; inline data has several rows or cells
    std::string data = *body;
    bool inline_data = data.find('\n') != std::string::npos || data.find("\\\\") != std::string::npos;
    if (!inline_data) {
      // The front end joins lines with spaces: rows are found again from the header, whose names
      // are the leading words that are not numbers (a table without a header cannot be split).
      std::vector<std::string> words;
      for (std::size_t a = 0; a < data.size();) {
        while (a < data.size() && std::isspace(static_cast<unsigned char>(data[a]))) ++a;
        std::size_t b = a;
        while (b < data.size() && !std::isspace(static_cast<unsigned char>(data[b]))) ++b;
        if (b > a) words.push_back(data.substr(a, b - a));
        a = b;
      }
      std::size_t h = 0;
      while (h < words.size() && !parse_number(words[h])) ++h;
      if (words.size() > 1 && h > 0 && h < words.size() && (words.size() - h) % h == 0) {
        std::string rebuilt;
        for (std::size_t k = 0; k < words.size(); ++k) rebuilt += words[k] + ((k + 1 >= h && (k + 1) % h == 0) ? "\n" : " ");
        data = rebuilt;
        inline_data = true;
      } else if (words.size() > 1) {
        out.unsupported = "\\addplot inline table whose rows cannot be told apart (no header) is not modelled";
        return out;
      }
    }
    if (!inline_data) {
      // a file next to the input, read under the read policy (the host reports why it is not)
      const std::string name = trimmed(*body);
      std::optional<std::string> text = read ? read(name) : std::nullopt;
      if (!text) {
        out.unsupported = "\\addplot table read from file '" + name + "' " + (read ? "that was not read" : "is not modelled");
        return out;
      }
      if (!trimmed(s.substr(end)).empty()) {
        out.unsupported = "text after an \\addplot's data ('" + trimmed(s.substr(end)).substr(0, 20) + "') is not modelled";
        return out;
      }
      return read_table(opts, *text, symbols, three);
    }
    if (!trimmed(s.substr(end)).empty()) {
      out.unsupported = "text after an \\addplot's data ('" + trimmed(s.substr(end)).substr(0, 20) + "') is not modelled";
      return out;
    }
    return read_table(opts, data, symbols, three);
  }
  std::string xexpr, yexpr, zexpr;
  if (starts_with(s, "expression")) s = trimmed(s.substr(10));
  if (!s.empty() && s.front() == '{') {
    auto body = group(s, 0, &end);
    if (!body) return out.unsupported = "\\addplot expression: unbalanced '{'", out;
    xexpr = "\\" + sampling.variable;
    yexpr = *body;
    if (three) yexpr = "\\" + sampling.variable_y, zexpr = *body;
  } else if (!s.empty() && s.front() == '(') {
    std::size_t j = ir::text_skip_group(s, 0);
    if (j == std::string::npos) return out.unsupported = "\\addplot expression: unbalanced '('", out;
    auto items = tex::split_options(s.substr(1, j - 2));
    if (three && items.size() == 3) {
      xexpr = trimmed(items[0].key), yexpr = trimmed(items[1].key), zexpr = trimmed(items[2].key);
    } else if (three || items.size() != 2) {
      out.unsupported = three ? "\\addplot3 of a parametric expression without three parts is not modelled"
                              : "\\addplot of a three-dimensional parametric expression is not modelled";
      return out;
    } else {
      xexpr = trimmed(items[0].key);
      yexpr = trimmed(items[1].key);
    }
    end = j;
  } else {
    const std::string word = s.substr(0, s.find_first_of(" {[("));
    out.unsupported = "\\addplot " + (word.empty() ? std::string("form") : "'" + word + "'") + " is not modelled";
    return out;
  }
  if (!trimmed(s.substr(end)).empty()) {
    out.unsupported = "text after an \\addplot's data ('" + trimmed(s.substr(end)).substr(0, 20) + "') is not modelled";
    return out;
  }
  if (three) return sample_grid({xexpr, yexpr, zexpr}, sampling, eval);
  for (double v : sample_values(sampling)) {
    const std::string value = number_text(v);
    auto x = eval(substitute_variable(xexpr, sampling.variable, value));
    auto y = eval(substitute_variable(yexpr, sampling.variable, value));
    if (x && y && std::isfinite(*x) && std::isfinite(*y)) out.points.push_back({*x, *y});
  }
  return out;
}

}  // namespace

PlotData read_plot_data(const std::string& source, const Sampling& sampling, const Evaluate& eval,
                        const Symbols& symbols, const ReadFile& read) {
  return read_any(source, sampling, eval, symbols, false, read);
}

PlotData read_plot_data3(const std::string& source, const Sampling& sampling, const Evaluate& eval,
                         const ReadFile& read) {
  return read_any(source, sampling, eval, Symbols{}, true, read);
}

}  // namespace tikzlint::pgfplots
