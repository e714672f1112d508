// packages/matrix/matrix.cpp: \matrix (pgfmanual 20 "Matrices and Alignment", 60 "Matrix Library"),
// rewritten into plain statements (ir/library.hpp).
//
// pgf's algorithm (modules/pgfmodulematrix.code.tex): every cell is a small picture whose origin
// is the cell's origin; a row's height/depth and a column's left/right extent come from the
// cells' bounding boxes around that origin (rows start at 0pt both ways, columns at their first
// cell), the separations are added to the left of a column / below a row (`between origins`
// zeroes the neighbouring extents instead), then \pgf@matrix@compute@origin stacks the rows up
// from the last row's baseline and the columns right from the left border. The whole thing is the
// text box of a node (tikz.code.tex \tikz@do@matrix) placed like any node; the cells are lowered
// last with the transformation reset, each shifted to its origin.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>
#include <set>

#include "ir/library.hpp"
#include "packages/support.hpp"

namespace tikzlint::ir {

namespace {

std::string pt(double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.5fpt", v);
  return buf;
}

std::string serialise(const std::vector<tex::FlatKey>& keys) {
  std::string out;
  for (const auto& k : keys) {
    if (!out.empty()) out += ", ";
    // `nodes=` (tikz.code.tex) is `every node/.append style`: the form lowering applies to nodes
    if (k.key == "nodes") out += "every node/.append style={" + k.value + "}";
    else out += k.has_value ? k.key + "={" + k.value + "}" : k.key;
  }
  return out;
}

// One cell of the matrix text, with the optional [dist] of the `&` that ends it.
struct Cell {
  std::string text;
  std::uint32_t begin = 0, end = 0;
  std::uint32_t code_begin = 0, code_end = 0;  // [begin, end) without the blanks around the code
  std::string next_sep;  // &[..]
  bool last = false;     // ended by \\ (pgf's \ifpgf@matrix@last@cell@in@row)
};
struct Row {
  std::vector<Cell> cells;
  std::string sep;  // \\[..]
};

bool is_letter(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '@'; }

// Does t[i..] start the control sequence or text `word` (a control word must end there)?
bool at_word(const std::string& t, std::size_t i, const std::string& word) {
  if (word.empty() || t.compare(i, word.size(), word) != 0) return false;
  if (word.size() > 1 && word[0] == '\\' && is_letter(word.back()))
    return i + word.size() >= t.size() || !is_letter(t[i + word.size()]);
  return true;
}

// Split the matrix body (pgfmatrix: `&` = \pgfmatrixnextcell, `\\` = \pgfmatrixendrow, each
// with an optional [dist]) at brace depth 0. `base` is the body's offset in the statement.
std::vector<Row> split_body(const std::string& body, std::uint32_t base, const std::string& amp) {
  std::vector<Row> rows(1);
  std::size_t start = 0, i = 0;
  int depth = 0;
  auto read_opt = [&](std::size_t j, std::string& into) {
    std::size_t k = text_skip_space(body, j);
    if (k < body.size() && body[k] == '[') {
      std::size_t e = text_skip_group(body, k);
      if (e != std::string::npos) {
        into = body.substr(k + 1, e - k - 2);
        return e;
      }
    }
    return j;
  };
  auto close_cell = [&](std::size_t end) {
    Cell c;
    c.text = body.substr(start, end - start);
    c.begin = base + static_cast<std::uint32_t>(start);
    c.end = base + static_cast<std::uint32_t>(end);
    // the cell's place for what it draws: its code without the blanks around it
    std::size_t b = start, e = end;
    while (b < e && std::isspace(static_cast<unsigned char>(body[b]))) ++b;
    while (e > b && std::isspace(static_cast<unsigned char>(body[e - 1]))) --e;
    c.code_begin = b < e ? base + static_cast<std::uint32_t>(b) : c.begin;
    c.code_end = b < e ? base + static_cast<std::uint32_t>(e) : c.end;
    rows.back().cells.push_back(std::move(c));
  };
  while (i < body.size()) {
    const char ch = body[i];
    if (ch == '{') ++depth;
    else if (ch == '}') --depth;
    if (depth == 0) {
      const bool next = amp.empty() ? ch == '&' : at_word(body, i, amp);
      if (next || at_word(body, i, "\\pgfmatrixnextcell")) {
        close_cell(i);
        i += next ? (amp.empty() ? 1 : amp.size()) : 18;
        i = read_opt(i, rows.back().cells.back().next_sep);
        start = i;
        continue;
      }
      const bool eol = body.compare(i, 2, "\\\\") == 0;
      if (eol || at_word(body, i, "\\pgfmatrixendrow")) {
        close_cell(i);
        rows.back().cells.back().last = true;
        i += eol ? 2 : 16;
        i = read_opt(i, rows.back().sep);
        start = i;
        rows.emplace_back();
        continue;
      }
    }
    if (ch == '\\' && i + 1 < body.size()) {
      ++i;
      if (is_letter(body[i]))
        while (i + 1 < body.size() && is_letter(body[i + 1])) ++i;
    }
    ++i;
  }
  if (!text_trim(std::string_view(body).substr(start)).empty() || !rows.back().cells.empty()) {
    close_cell(body.size());
    rows.back().cells.back().last = true;
  } else {
    rows.pop_back();
  }
  return rows;
}

// The path commands a cell may hold (tikz.code.tex marks them with \tikz@signal@path).
bool is_path_command(std::string_view t) {
  static const std::set<std::string, std::less<>> kPath = {
      "\\node", "\\draw", "\\path", "\\fill", "\\filldraw", "\\shade", "\\shadedraw", "\\clip",
      "\\coordinate", "\\pic", "\\useasboundingbox", "\\pattern", "\\graph", "\\calendar"};
  std::size_t j = 1;
  if (t.empty() || t[0] != '\\') return false;
  while (j < t.size() && std::isalpha(static_cast<unsigned char>(t[j]))) ++j;
  return kPath.count(t.substr(0, j)) > 0;
}

// A cell's TikZ code split into its ';'-terminated statements (brace depth 0).
std::vector<std::pair<std::string, std::uint32_t>> split_statements(const std::string& t, std::uint32_t base) {
  std::vector<std::pair<std::string, std::uint32_t>> out;
  std::size_t start = 0;
  int depth = 0;
  for (std::size_t i = 0; i < t.size(); ++i) {
    const char ch = t[i];
    if (ch == '\\') {
      ++i;
      continue;
    }
    if (ch == '{') ++depth;
    else if (ch == '}') --depth;
    else if (ch == ';' && depth == 0) {
      std::string s(text_trim(std::string_view(t).substr(start, i + 1 - start)));
      if (s != ";") out.push_back({s, base + static_cast<std::uint32_t>(start)});
      start = i + 1;
    }
  }
  std::string rest(text_trim(std::string_view(t).substr(start)));
  if (!rest.empty()) out.push_back({rest, base + static_cast<std::uint32_t>(start)});
  return out;
}

// pgf's \pgf@matrix@addtolength: a comma list of dimensions, `between origins` and `between borders`.
struct Separation {
  double dist = 0;
  bool fixed = false;  // between origins
};
void add_separation(LibraryHost& host, const std::string& list, Separation& sep, std::uint32_t b, std::uint32_t e) {
  for (const auto& item : tex::split_options(list)) {
    const std::string word = tex::normalise_key(item.key);
    if (word == "between origins") sep.fixed = true;
    else if (word == "between borders") sep.fixed = false;
    else {
      std::string err;
      auto v = host.eval(item.has_value ? item.key + "=" + item.value : item.key, &err);
      if (v) sep.dist += v->value;
      else host.problem("math-error", "cannot evaluate matrix separation '" + item.key + "': " + err, b, e, false);
    }
  }
}

// Keys the matrix itself consumes (tikz.code.tex / tikzlibrarymatrix.code.tex); the rest also set
// the scene its cells are typeset in, except those that only place or paint the matrix node.
const std::set<std::string>& matrix_keys() {
  static const std::set<std::string> k = {"matrix", "matrix of nodes", "matrix of math nodes", "row sep",
                                          "column sep", "nodes in empty cells", "ampersand replacement",
                                          "matrix anchor", "cells", "every matrix", "every outer matrix"};
  return k;
}
const std::set<std::string>& node_only_keys() {
  static const std::set<std::string> k = {
      "at", "name", "alias", "label", "pin", "draw", "fill", "pattern", "shade", "label position",
      "shift", "xshift", "yshift", "scale", "xscale", "yscale", "rotate", "cm", "reset cm", "rotate around",
      "xslant", "yslant", "above", "below", "left", "right", "above left", "above right", "below left",
      "below right", "append after command", "pin distance", "label distance", "every label", "every pin",
      "remember picture", "overlay", "path picture", "preaction", "postaction"};
  return k;
}
const std::set<std::string>& unsupported_matrix_keys() {
  static const std::set<std::string> k = {"execute at begin cell", "execute at end cell", "execute at empty cell",
                                          "execute at begin matrix", "execute at end matrix", "left delimiter",
                                          "right delimiter", "above delimiter", "below delimiter"};
  return k;
}

struct Extent {
  double minx = 0, miny = 0, maxx = 0, maxy = 0;
};

}  // namespace

bool lower_matrix(const tex::Statement& st, LibraryHost& host) {
  const std::string& t = st.text;
  std::size_t i = text_skip_space(t, 0);
  if (!at_word(t, i, "\\matrix")) return false;
  i += 7;
  // \matrix is `\path node[matrix]` (tikz.code.tex): options, (name) and `at` in any order, then {body};
  std::string options, name, at;
  std::uint32_t opt_b = static_cast<std::uint32_t>(i), opt_e = opt_b;
  std::size_t body_b = std::string::npos, body_e = 0;
  while (true) {
    i = text_skip_space(t, i);
    if (i >= t.size()) return false;
    if (t[i] == '[' || t[i] == '(' || t[i] == '{') {
      const std::size_t e = text_skip_group(t, i);
      if (e == std::string::npos) return false;
      if (t[i] == '[') {
        if (!options.empty()) options += ",";
        options += t.substr(i + 1, e - i - 2);
        opt_e = static_cast<std::uint32_t>(e);
      } else if (t[i] == '(') {
        name = std::string(text_trim(std::string_view(t).substr(i + 1, e - i - 2)));
      } else {
        body_b = i + 1;
        body_e = e - 1;
        i = e;
        break;
      }
      i = e;
    } else if (t.compare(i, 2, "at") == 0 && i + 2 < t.size() && !is_letter(t[i + 2])) {
      std::size_t j = text_skip_space(t, i + 2);
      if (j >= t.size() || t[j] != '(') return false;
      const std::size_t e = text_skip_group(t, j);
      if (e == std::string::npos) return false;
      at = t.substr(j, e - j);
      i = e;
    } else {
      return false;
    }
  }
  i = text_skip_space(t, i);
  if (i < t.size() && t[i] != ';') return false;  // operations after the matrix: not this shape
  const std::uint32_t whole_e = static_cast<std::uint32_t>(t.size());

  // Everything the matrix's options set stays local to it (a TeX group around \tikz@do@matrix).
  host.emit("\\begin{scope}", 0, 0);
  const std::vector<tex::FlatKey> flat = host.expand_keys(options);
  std::vector<tex::FlatKey> scene;  // what the cells inherit
  std::string every_cell;           // `cells=` appends to `every cell`
  std::string row_sep = host.settings().lib->matrix_row_sep, column_sep = host.settings().lib->matrix_column_sep;
  std::string amp, matrix_anchor, inner_anchor;
  bool of_nodes = false, math = false, empty_nodes = false;
  for (const auto& k : flat) {
    if (k.key == "matrix of nodes" || k.key == "matrix of math nodes") {
      of_nodes = true;
      math = math || k.key == "matrix of math nodes";
      // tikzlibrarymatrix.code.tex: matrix of nodes = matrix, cells={anchor=base}, ...
      every_cell += std::string(every_cell.empty() ? "" : ",") + "anchor=base";
    } else if (k.key == "cells") {
      every_cell += (every_cell.empty() ? "" : ",") + k.value;
    } else if (k.key == "row sep") {
      row_sep = k.value;
    } else if (k.key == "column sep") {
      column_sep = k.value;
    } else if (k.key == "ampersand replacement") {
      amp = std::string(text_trim(k.value));
    } else if (k.key == "matrix anchor") {
      matrix_anchor = std::string(text_trim(k.value));
    } else if (k.key == "anchor" && k.value.find('.') != std::string::npos) {
      inner_anchor = std::string(text_trim(k.value));  // a node inside: the matrix's own placement only
    } else if (k.key == "nodes in empty cells") {
      empty_nodes = !(k.has_value && text_trim(k.value) == "false");
    } else if (k.key == "name") {
      name = std::string(text_trim(k.value));
    } else if (unsupported_matrix_keys().count(k.key)) {
      host.problem("unsupported-key", "matrix option '" + k.key + "' is not modelled", opt_b, opt_e);
    } else if (!matrix_keys().count(k.key) && !node_only_keys().count(k.key) &&
               k.key.find("/.") == std::string::npos) {
      scene.push_back(k);
    }
  }
  // tikz.code.tex \tikz@matrix@split: `anchor=node.anchor` puts that anchor of a cell's node at `at`
  if (matrix_anchor.find('.') != std::string::npos) inner_anchor = matrix_anchor;
  else if (!matrix_anchor.empty()) inner_anchor.clear();
  host.emit("\\begin{scope}[" + serialise(scene) + "]", 0, 0);

  const std::vector<Row> rows =
      split_body(t.substr(body_b, body_e - body_b), static_cast<std::uint32_t>(body_b), amp);

  // The styles a cell is typeset with (tikz.code.tex `matrix/inner style order`), .try: only if defined.
  auto style_keys = [&](const std::string& style) -> std::vector<tex::FlatKey> {
    auto keys = host.expand_keys(style);
    if (keys.size() == 1 && keys[0].key == style && !keys[0].has_value) return {};
    return keys;
  };
  auto cell_options = [&](std::size_t r, std::size_t c) {
    std::vector<tex::FlatKey> keys = style_keys("every cell");
    if (!every_cell.empty()) {
      auto more = host.expand_keys(every_cell);
      keys.insert(keys.end(), more.begin(), more.end());
    }
    for (const std::string& s :
         {"column " + std::to_string(c), std::string(c % 2 ? "every odd column" : "every even column"),
          "row " + std::to_string(r), std::string(r % 2 ? "every odd row" : "every even row"),
          "row " + std::to_string(r) + " column " + std::to_string(c)}) {
      auto more = style_keys(s);
      keys.insert(keys.end(), more.begin(), more.end());
    }
    return serialise(keys);
  };

  // The statements of one cell, at its origin (\pgf@matrix@startcell resets the transformation).
  struct CellCode {
    std::vector<std::string> statements;
    bool empty = true;
  };
  auto cell_code = [&](const Cell& cell, std::size_t r, std::size_t c, bool report) {
    CellCode out;
    std::string text(text_trim(cell.text));
    out.empty = text.empty();
    const std::string cell_name =
        name.empty() ? "" : "name=" + name + "-" + std::to_string(r) + "-" + std::to_string(c);
    if (of_nodes && !is_path_command(text)) {
      if (out.empty && !empty_nodes) return out;
      // tikzlibrarymatrix.code.tex: |options| text  ->  \node[name=m-r-c] options {text};
      std::string node_opts = cell_name, node_name;
      if (!text.empty() && text[0] == '|') {
        const std::size_t bar = text.find('|', 1);
        if (bar != std::string::npos) {
          std::string spec(text_trim(std::string_view(text).substr(1, bar - 1)));
          text = std::string(text_trim(std::string_view(text).substr(bar + 1)));
          for (std::size_t j = 0; j < spec.size();) {
            j = text_skip_space(spec, j);
            if (j >= spec.size() || (spec[j] != '[' && spec[j] != '(')) break;
            const std::size_t e = text_skip_group(spec, j);
            if (e == std::string::npos) break;
            if (spec[j] == '[') node_opts += (node_opts.empty() ? "" : ",") + spec.substr(j + 1, e - j - 2);
            else node_name = spec.substr(j, e - j);
            j = e;
          }
        }
      }
      if (math && !text.empty()) text = "$" + text + "$";
      out.statements.push_back("\\node[" + node_opts + "] " + node_name + " {" + text + "};");
      out.empty = false;
      return out;
    }
    for (auto& [s, b] : split_statements(text, cell.begin)) {
      if (is_path_command(s) && s.back() == ';') {
        out.statements.push_back(s);
      } else if (report) {
        host.problem("unsupported-construct", "matrix cell code other than path commands is not lowered", b,
                     b + static_cast<std::uint32_t>(s.size()));
      }
    }
    return out;
  };

  // ---- measure every cell and run pgf's bookkeeping (\pgf@matrix@endcell, \pgfmatrixendrow)
  std::vector<double> row_max, row_min, row_cells_min;  // per row
  std::map<std::size_t, double> col_max, col_min, col_sep;
  std::map<std::size_t, bool> finish_zero_max, finish_zero_min;  // column finish code
  std::size_t ncols = 0;
  bool row_finish_zero = false;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    row_max.push_back(0);
    row_min.push_back(0);
    row_cells_min.push_back(0);
    const auto& cells = rows[r].cells;
    for (std::size_t ci = 0; ci < cells.size(); ++ci) {
      const std::size_t c = ci + 1;
      if (c >= ncols && !cells[ci].last) {
        Separation sep;
        add_separation(host, column_sep, sep, opt_b, opt_e);
        add_separation(host, cells[ci].next_sep, sep, cells[ci].end, cells[ci].end + 1);
        if (sep.fixed) finish_zero_max[c] = true;
        col_sep[c + 1] = sep.dist;
        finish_zero_min[c + 1] = sep.fixed;
      }
      CellCode code = cell_code(cells[ci], r + 1, c, false);
      Extent x;
      if (!code.statements.empty()) {
        std::vector<std::string> trial = {"\\begin{scope}[reset cm, " + cell_options(r + 1, c) + "]"};
        trial.insert(trial.end(), code.statements.begin(), code.statements.end());
        trial.push_back("\\end{scope}");
        if (auto box = host.measure_statements(trial)) x = {box->xmin, box->ymin, box->xmax, box->ymax};
      }
      if (finish_zero_max[c]) x.maxx = 0;
      if (finish_zero_min[c]) x.minx = 0;
      if (row_finish_zero) x.maxy = 0;
      if (c > 1) x.minx -= col_sep[c];
      row_max[r] = std::max(row_max[r], x.maxy);
      row_min[r] = std::min(row_min[r], x.miny);
      row_cells_min[r] = row_min[r];
      if (c > ncols) {
        col_max[c] = x.maxx;
        col_min[c] = x.minx;
        ncols = c;
      } else {
        col_max[c] = std::max(col_max[c], x.maxx);
        col_min[c] = std::min(col_min[c], x.minx);
      }
    }
    Separation sep;
    add_separation(host, row_sep, sep, opt_b, opt_e);
    add_separation(host, rows[r].sep, sep, opt_b, opt_e);
    row_min[r] -= sep.dist;
    if (r + 1 < rows.size() && sep.fixed) row_min[r] = -sep.dist;
    row_finish_zero = sep.fixed;
  }

  // ---- \pgf@matrix@compute@origin: rows up from the last baseline, columns right from the border
  const std::size_t nrows = rows.size();
  std::vector<double> ry(nrows, 0), cx(ncols + 1, 0);
  if (nrows > 0) row_min[nrows - 1] = 0;
  for (std::size_t r = nrows; r-- > 1;) ry[r - 1] = ry[r] + row_max[r] - row_min[r - 1];
  if (ncols > 0) cx[1] = -col_min[1];
  for (std::size_t c = 1; c < ncols; ++c) cx[c + 1] = cx[c] + col_max[c] - col_min[c + 1];
  const double width = ncols > 0 ? cx[ncols] + col_max[ncols] : 0;
  const double height = nrows > 0 ? ry[0] + row_max[0] : 0;
  const double depth = nrows > 0 ? std::max(0.0, -row_cells_min[nrows - 1]) : 0;

  // The cells' statements with the matrix's text origin at `origin` (canvas), each with its span.
  struct Emitted {
    std::string text;
    std::uint32_t begin, end;
  };
  auto all_cells = [&](Point origin, bool report) {
    std::vector<Emitted> out;
    for (std::size_t r = 0; r < rows.size(); ++r) {
      for (std::size_t ci = 0; ci < rows[r].cells.size(); ++ci) {
        const Cell& cell = rows[r].cells[ci];
        CellCode code = cell_code(cell, r + 1, ci + 1, report);
        if (code.statements.empty()) continue;
        const Point o{origin.x + cx[ci + 1], origin.y + ry[r]};
        out.push_back({"\\begin{scope}[reset cm, shift={(" + pt(o.x) + "," + pt(o.y) + ")}, " +
                           cell_options(r + 1, ci + 1) + "]",
                       cell.code_begin, cell.code_end});
        for (const auto& s : code.statements) out.push_back({s, cell.code_begin, cell.code_end});
        out.push_back({"\\end{scope}", cell.code_begin, cell.code_end});
      }
    }
    return out;
  };
  // the inner node's anchor relative to the text origin
  std::optional<Point> inner;
  if (!inner_anchor.empty()) {
    std::vector<std::string> trial;
    for (const auto& x : all_cells({0, 0}, false)) trial.push_back(x.text);
    inner = host.locate(trial, "(" + inner_anchor + ")");
    if (!inner)
      host.problem("unsupported-key", "matrix anchor '" + inner_anchor + "' names no node of the matrix", opt_b, opt_e);
  }

  // ---- the matrix node: its text box is the aligned cells
  std::string node_opts;
  std::vector<std::string> placing;  // the same without labels: for locating its center
  if (auto every = style_keys("every matrix"); !every.empty()) node_opts = serialise(every);
  for (const auto& item : tex::split_options(options)) {
    const std::string key = tex::normalise_key(item.key);
    if (matrix_keys().count(key) || unsupported_matrix_keys().count(key) || key == "nodes" ||
        key.find("/.") != std::string::npos || (key == "anchor" && item.value.find('.') != std::string::npos))
      continue;
    const std::string raw = item.has_value ? item.key + "={" + tex::strip_braces(item.value) + "}" : item.key;
    node_opts += (node_opts.empty() ? "" : ", ") + raw;
  }
  if (inner) {
    // every standard shape centers its text box: center = text origin + (W/2, (H-D)/2)
    node_opts += std::string(node_opts.empty() ? "" : ", ") + "anchor=center, xshift=" + pt(width / 2 - inner->x) +
                 ", yshift=" + pt((height - depth) / 2 - inner->y);
  } else if (!matrix_anchor.empty()) {
    node_opts += (node_opts.empty() ? "" : ", ") + ("anchor=" + matrix_anchor);
  }
  const std::string box = "text width=" + pt(width) + ", text height=" + pt(height) + ", text depth=" + pt(depth);
  node_opts += (node_opts.empty() ? "" : ", ") + box;
  std::string trial_opts;
  for (const auto& item : tex::split_options(node_opts)) {
    const std::string key = tex::normalise_key(item.key);
    if (key == "label" || key == "pin" || (!key.empty() && key[0] == '"')) continue;
    trial_opts += (trial_opts.empty() ? "" : ", ") +
                  (item.has_value ? item.key + "={" + tex::strip_braces(item.value) + "}" : item.key);
  }
  const std::string where = at.empty() ? "" : " at " + at;
  host.emit("\\end{scope}", 0, 0);  // the scene: the matrix node is placed outside it
  auto placed = host.measure_statements({"\\node[" + trial_opts + "]" + where + " {};"});
  host.emit("\\node[" + node_opts + "]" + (name.empty() ? "" : " (" + name + ")") + where + " {};", 0, whole_e);
  if (!placed) {
    host.emit("\\end{scope}", 0, 0);
    return true;
  }
  // pgf's `text` anchor of a node: its center less half the text box (every standard shape
  // centers the text box).
  const Point center{(placed->xmin + placed->xmax) / 2, (placed->ymin + placed->ymax) / 2};
  const Point text_origin{center.x - width / 2, center.y - (height - depth) / 2};

  // ---- the cells, shifted to their origins (\pgf@matrix@shift@nodes@secondary)
  // pgfmodulematrix.code.tex \pgf@matrix@startcell: \pgfinterruptboundingbox, the cells do not
  // grow the picture (the matrix node around them does)
  host.begin_interrupt_bbox();
  host.emit("\\begin{scope}[" + serialise(scene) + "]", 0, 0);
  const std::size_t first_cell_node = host.node_count();
  for (const auto& x : all_cells(text_origin, true)) host.emit(x.text, x.begin, x.end);
  host.set_node_placed_by(first_cell_node, "matrix");
  host.emit("\\end{scope}", 0, 0);
  host.end_interrupt_bbox();
  host.emit("\\end{scope}", 0, 0);
  return true;
}

}  // namespace tikzlint::ir

namespace tikzlint::packages {

std::unique_ptr<ir::Package> matrix() {
  return statement_package("matrix", [](const ir::PackageStatement& s, ir::LibraryHost& host) {
    if (!s.path || s.command != "\\matrix") return ir::Offer::pass;
    return ir::lower_matrix(s.st, host) ? ir::Offer::lowered : ir::Offer::declined;
  });
}

}  // namespace tikzlint::packages
