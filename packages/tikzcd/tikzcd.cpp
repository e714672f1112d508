// packages/tikzcd/tikzcd.cpp: tikz-cd's `tikzcd` environment (tikz-cd manual; the code is
// tex/generic/tikz-cd/tikzlibrarycd.code.tex), lowered as the library expands it:
//
//   \begin{tikzcd}[opts] body \end{tikzcd}
//     = \tikzpicture[/tikz/commutative diagrams/.cd, every diagram, opts]
//         \matrix[matrix of math nodes, every cell (cd), every matrix (cd)] { body };
//         one \path[every arrow, arrow options] (start) to (target); per \arrow, in order
//       \endtikzpicture
//
// The front end (tex/frontend.cpp) makes the environment one picture of one statement, its
// text as written. The cells go to the matrix package as a `matrix of math nodes` with the
// \arrow commands taken out (an arrow typesets nothing; a cell holding only arrows still makes
// an empty node, as pgf sees a non-empty cell); each arrow is a \path with a `to` between the
// cells' nodes (`tikzcd@-r-c`), its labels nodes on the `to` (tikz-cd's quotes: every label =
// auto, \scriptstyle, inner sep 0.5ex; `'` swaps).
//
// What is not modelled, as the rules must know: the cells' `asymmetrical rectangle` is sized
// as the rectangle it is, but its center anchor (and so the straight arrows' ends) sits on
// the math axis, not the box center; arrows whose ends are moved (shift left/right, start/end
// anchor, xshift/yshift) are placed from the ends pgf computes for the straight line between
// the cells. Arrow tips are drawn as tips (their shapes do not matter to the rules).
#include <cctype>
#include <cmath>
#include <cstdio>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "ir/library.hpp"
#include "packages/support.hpp"
#include "support/ascii.hpp"

namespace tikzlint::ir {
namespace {

std::string trim(std::string_view s) {
  while (!s.empty() && is_ascii_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_ascii_space(s.back())) s.remove_suffix(1);
  return std::string(s);
}

std::string strip_group(std::string_view v) {
  std::string s = trim(v);
  if (s.size() >= 2 && s.front() == '{' && text_skip_group(s, 0) == s.size()) return trim(s.substr(1, s.size() - 2));
  return s;
}

std::string pt(double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.5fpt", std::abs(v) < 1e-9 ? 0.0 : v);
  return buf;
}

bool is_letter(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '@'; }

// Split an option list at commas of brace depth 0 (pgfkeys' rule: quotes do not protect a comma).
struct Item {
  std::string key, value;  // key trimmed and blanks collapsed; value with one outer {} stripped
  bool has_value = false;
  std::string raw;  // as written
};
std::vector<Item> split_items(std::string_view text) {
  std::vector<Item> out;
  std::size_t start = 0;
  int depth = 0;
  auto flush = [&](std::size_t end) {
    std::string raw = trim(text.substr(start, end - start));
    if (raw.empty()) return;
    Item it;
    it.raw = raw;
    if (raw.front() == '"') {  // a label: the '=' inside it is text
      it.key = raw;
    } else {
      int d = 0;
      std::size_t eq = std::string::npos;
      for (std::size_t i = 0; i < raw.size(); ++i) {
        if (raw[i] == '{') ++d;
        else if (raw[i] == '}') --d;
        else if (raw[i] == '=' && d == 0) {
          eq = i;
          break;
        }
      }
      std::string k = eq == std::string::npos ? raw : trim(std::string_view(raw).substr(0, eq));
      std::string collapsed;
      for (char c : k) {
        if (is_ascii_space(c)) {
          if (!collapsed.empty() && collapsed.back() != ' ') collapsed += ' ';
        } else {
          collapsed += c;
        }
      }
      it.key = trim(collapsed);
      if (it.key.rfind("/tikz/commutative diagrams/", 0) == 0) it.key = it.key.substr(27);
      else if (it.key.rfind("commutative diagrams/", 0) == 0) it.key = it.key.substr(21);
      else if (it.key.rfind("/tikz/", 0) == 0) it.key = it.key.substr(6);
      if (eq != std::string::npos) {
        it.has_value = true;
        it.value = strip_group(std::string_view(raw).substr(eq + 1));
      }
    }
    out.push_back(std::move(it));
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\\' && i + 1 < text.size()) {
      ++i;
      continue;
    }
    if (c == '{') ++depth;
    else if (c == '}') --depth;
    else if (c == ',' && depth == 0) {
      flush(i);
      start = i + 1;
    }
  }
  flush(text.size());
  return out;
}

std::string join(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) {
    if (s.empty()) continue;
    if (!out.empty()) out += ", ";
    out += s;
  }
  return out;
}

// A direction string of tikzlibrarycd.code.tex \tikzcd@parse: r, d, l, u any number of times
// (the empty string is the cell itself). Adds its offset to (dr, dc).
bool direction(std::string_view s, int& dr, int& dc) {
  int r = 0, c = 0;
  for (char ch : s) {
    if (ch == 'r') ++c;
    else if (ch == 'l') --c;
    else if (ch == 'd') ++r;
    else if (ch == 'u') --r;
    else return false;
  }
  dr += r;
  dc += c;
  return true;
}

// The named sizes of `row sep` / `column sep` (every diagram's initial values).
std::optional<std::string> named_sep(bool row, const std::string& v) {
  static const char* names[] = {"huge", "large", "normal", "scriptsize", "small", "tiny"};
  static const char* rows[] = {"3.6em", "2.7em", "1.8em", "1.35em", "0.9em", "0.45em"};
  static const char* cols[] = {"4.8em", "3.6em", "2.4em", "1.8em", "1.2em", "0.6em"};
  for (int i = 0; i < 6; ++i)
    if (v == names[i]) return std::string(row ? rows[i] : cols[i]);
  return std::nullopt;
}

struct Arrow {
  std::size_t row = 0, col = 0;  // the cell it is written in (1-based)
  std::string options;           // the option list, old syntax rewritten as new
  std::uint32_t begin = 0, end = 0;
};

// The diagram's styles (tikz-cd's every diagram / every cell / every matrix / every arrow /
// every label), as option lists in /tikz terms.
struct Styles {
  std::string row_sep = "1.8em", column_sep = "2.4em";
  std::vector<std::string> cell = {"inner xsep=1ex", "inner ysep=0.85ex"};
  std::vector<std::string> matrix = {"inner sep=0pt"};
  std::vector<std::string> arrow;  // after every arrow's draw / line width / rightarrow
  std::vector<std::string> label = {"auto", "font=\\scriptsize", "inner sep=0.5ex"};
  std::vector<std::string> picture;  // /tikz keys of the tikzpicture
  bool math = true;
  std::string amp;
};

class CdLowerer {
 public:
  CdLowerer(const tex::Statement& st, LibraryHost& host)
      : st_(st), t_(st.text), host_(host), end_(static_cast<std::uint32_t>(st.text.size())) {}

  bool run();

 private:
  const tex::Statement& st_;
  const std::string& t_;
  LibraryHost& host_;
  std::uint32_t end_;
  Styles styles_;
  std::vector<Arrow> arrows_;
  std::string matrix_body_;
  std::size_t rows_ = 0, cols_ = 0;
  std::vector<std::string> cells_;  // the cells' node names, after the matrix is lowered
  std::set<std::string> reported_;

  void problem(const std::string& code, const std::string& msg, std::uint32_t b, std::uint32_t e,
               bool incomplete = true) {
    if (reported_.insert(code + msg).second) host_.problem(code, msg, b, e, incomplete);
  }
  void diagram_options(const std::string& opts, std::uint32_t b, std::uint32_t e);
  bool read_body(std::size_t b, std::size_t e);
  std::size_t read_arrow(std::size_t i, const std::string& name, std::size_t row, std::size_t col);
  void lower_arrow(const Arrow& a);
  // A node of the matrix's cells (by name or alias: the same box as a cell's).
  bool is_cell(const std::string& name) const {
    if (name.rfind("tikzcd@-", 0) == 0) return true;
    auto b = host_.named_box(name);
    if (!b) return false;
    for (const auto& c : cells_)
      if (auto cb = host_.named_box(c))
        if (std::abs(cb->xmin - b->xmin) < 1e-6 && std::abs(cb->ymin - b->ymin) < 1e-6 &&
            std::abs(cb->xmax - b->xmax) < 1e-6 && std::abs(cb->ymax - b->ymax) < 1e-6)
          return true;
    return false;
  }
  std::string cell_name(long r, long c) const {
    return "tikzcd@-" + std::to_string(r) + "-" + std::to_string(c);
  }
};

// /tikz/commutative diagrams keys of the environment's options (and of `diagrams=`).
void CdLowerer::diagram_options(const std::string& opts, std::uint32_t b, std::uint32_t e) {
  for (const Item& it : split_items(opts)) {
    const std::string& k = it.key;
    if (k == "row sep" || k == "column sep" || k == "sep") {
      for (bool row : {true, false}) {
        if (k != "sep" && row != (k == "row sep")) continue;
        std::string v = named_sep(row, it.value).value_or(it.value);
        (row ? styles_.row_sep : styles_.column_sep) = v;
      }
    } else if (k == "cramped") {
      styles_.matrix.push_back("inner sep=-0.3em");
      styles_.cell.push_back("inner sep=0.3em");
    } else if (k == "cells" || k == "every cell/.append style") {
      styles_.cell.push_back(it.value);
    } else if (k == "every cell/.style") {
      styles_.cell = {it.value};
    } else if (k == "arrows" || k == "every arrow/.append style") {
      styles_.arrow.push_back(it.value);
    } else if (k == "labels" || k == "every label/.append style") {
      styles_.label.push_back(it.value);
    } else if (k == "every label/.style") {
      styles_.label = {it.value};
    } else if (k == "every matrix/.append style") {
      styles_.matrix.push_back(it.value);
    } else if (k == "diagrams" || k == "every diagram/.append style") {
      diagram_options(it.value, b, e);
    } else if (k == "math mode") {
      styles_.math = !(it.has_value && trim(it.value) == "false");
    } else if (k == "ampersand replacement") {
      styles_.amp = trim(it.value);
    } else if (k == "arrow style" || k == "background color" || k == "crossing over clearance" ||
               k == "center yshift" || k == "baseline") {
      // tips' shapes, colours, the baseline: nothing the picture's geometry shows
    } else if (k == "execute before arrows" || k.find("/.") != std::string::npos) {
      problem("unsupported-key", "tikz-cd option '" + k + "' is not modelled", b, e);
    } else {
      styles_.picture.push_back(it.raw);  // .unknown: a /tikz key of the picture
    }
  }
}

// The arrow command at t_[i] (after its name): its arguments in either syntax
// (\tikzcd@arrow, \tikzcd@ar@old, \tikzcd@ar@getlabel, \tikzcd@xar). Returns the index after it.
std::size_t CdLowerer::read_arrow(std::size_t i, const std::string& name, std::size_t row, std::size_t col) {
  Arrow a;
  a.row = row;
  a.col = col;
  std::vector<std::string> opts;
  const std::size_t start = i - name.size() - 1;
  auto skip = [&](std::size_t j) { return text_skip_space(t_, j); };
  auto group = [&](std::size_t j, char open) -> std::optional<std::pair<std::string, std::size_t>> {
    j = skip(j);
    if (j >= t_.size() || t_[j] != open) return std::nullopt;
    const std::size_t e = text_skip_group(t_, j);
    if (e == std::string::npos) return std::nullopt;
    return std::make_pair(t_.substr(j + 1, e - j - 2), e);
  };
  // an undelimited argument: a group or one token
  auto argument = [&](std::size_t j) -> std::pair<std::string, std::size_t> {
    j = skip(j);
    if (j >= t_.size()) return {"", j};
    if (t_[j] == '{') {
      if (auto g = group(j, '{')) return {g->first, g->second};
    }
    if (t_[j] == '\\') {
      std::size_t k = j + 1;
      if (k < t_.size() && is_letter(t_[k]))
        while (k < t_.size() && is_letter(t_[k])) ++k;
      else
        ++k;
      return {t_.substr(j, k - j), k};
    }
    return {t_.substr(j, 1), j + 1};
  };
  std::string dir;
  bool old = false;
  if (name != "arrow" && name != "ar") {
    dir = name.substr(0, name.size() - 2);  // \rar, \dlar ...: \tikzcd@xar{r}
    if (auto g = group(i, '[')) {
      opts.push_back(g->first);
      i = g->second;
    }
    old = true;
  } else if (auto g = group(i, '[')) {
    opts.push_back(g->first);
    i = g->second;
    const std::size_t j = skip(i);
    if (j < t_.size() && t_[j] == '{') {
      auto [d, after] = argument(j);
      dir = d;
      i = after;
      old = true;
    }
  } else {
    auto [d, after] = argument(i);
    dir = d;
    i = after;
    old = true;
  }
  if (old) {
    opts.insert(opts.begin(), "to={" + dir + "}");
    // labels: [options]{text} or {text}, any number
    while (true) {
      const std::size_t j = skip(i);
      if (j >= t_.size()) break;
      std::string lopts;
      std::size_t k = j;
      if (t_[j] == '[') {
        auto g = group(j, '[');
        if (!g) break;
        lopts = g->first;
        k = g->second;
      } else if (t_[j] != '{') {
        break;
      }
      auto [text, after] = argument(k);
      opts.push_back("\"{" + text + "}\"{" + lopts + "}");
      i = after;
    }
  }
  a.options = join(opts);
  a.begin = static_cast<std::uint32_t>(start);
  a.end = static_cast<std::uint32_t>(i);
  arrows_.push_back(std::move(a));
  return i;
}

// Split the body into rows and cells as pgf's matrix does (`&` or the ampersand replacement,
// `\\`, each with an optional [dist], at brace depth 0 outside nested environments), taking
// the arrow commands out of the cells.
bool CdLowerer::read_body(std::size_t b, std::size_t e) {
  static const std::set<std::string> kArrows = {"arrow", "ar",   "rar",  "lar",  "dar",
                                                "uar",   "urar", "ular", "drar", "dlar"};
  std::size_t row = 1, col = 1, i = b, env = 0;
  int depth = 0;
  std::string cell;
  bool cell_arrows = false;
  auto flush = [&](const std::string& sep) {
    if (trim(cell).empty() && cell_arrows) cell = "{}";  // pgf makes a node of a non-empty cell
    matrix_body_ += cell + sep;
    cell.clear();
    cell_arrows = false;
  };
  auto opt_after = [&](std::size_t j) {  // an optional [dist] after a separator
    std::size_t k = text_skip_space(t_, j);
    if (k < e && t_[k] == '[') {
      std::size_t g = text_skip_group(t_, k);
      if (g != std::string::npos && g <= e) return g;
    }
    return j;
  };
  while (i < e) {
    const char c = t_[i];
    if (c == '{') ++depth;
    else if (c == '}') --depth;
    if (depth == 0 && env == 0) {
      const bool amp = styles_.amp.empty() ? c == '&' : t_.compare(i, styles_.amp.size(), styles_.amp) == 0 &&
                                                            !(is_letter(styles_.amp.back()) && i + styles_.amp.size() < e &&
                                                              is_letter(t_[i + styles_.amp.size()]));
      if (amp) {
        const std::size_t after = opt_after(i + (styles_.amp.empty() ? 1 : styles_.amp.size()));
        flush(t_.substr(i, after - i));
        ++col;
        cols_ = std::max(cols_, col);
        i = after;
        continue;
      }
      if (t_.compare(i, 2, "\\\\") == 0) {
        const std::size_t after = opt_after(i + 2);
        flush(t_.substr(i, after - i));
        ++row;
        col = 1;
        i = after;
        continue;
      }
    }
    if (c == '\\' && i + 1 < e && is_letter(t_[i + 1])) {
      std::size_t j = i + 1;
      while (j < e && is_letter(t_[j])) ++j;
      const std::string name = t_.substr(i + 1, j - i - 1);
      if (depth == 0 && env == 0 && kArrows.count(name)) {
        i = read_arrow(j, name, row, col);
        cell_arrows = true;
        continue;
      }
      if (name == "begin") ++env;
      else if (name == "end" && env > 0) --env;
      cell += t_.substr(i, j - i);
      i = j;
      continue;
    }
    if (c == '\\' && i + 1 < e) {
      cell += t_.substr(i, 2);
      i += 2;
      continue;
    }
    cell += c;
    ++i;
  }
  if (!trim(cell).empty() || cell_arrows) flush("");
  rows_ = row;  // at most: a trailing \\ starts a row that has no cell
  return true;
}

void CdLowerer::lower_arrow(const Arrow& a) {
  long sr = static_cast<long>(a.row), sc = static_cast<long>(a.col);
  std::string start = cell_name(sr, sc), target = cell_name(sr, sc);
  std::vector<std::string> path = {"draw", "line width=0.4pt"};
  bool tip_start = false, tip_end = true;  // every arrow: rightarrow
  std::vector<std::string> tikz;
  struct Label {
    std::string text, options;
    bool marking = false;
  };
  std::vector<Label> labels;
  std::vector<std::string> label_extra;  // phantom's labels={font=, anchor=center}
  double shift = 0;                      // shift left, in pt
  bool shifted = false;
  std::string start_anchor, end_anchor, start_tf, end_tf;
  std::string xshift, yshift;
  auto end_of = [&](const std::string& v, long r, long c) {
    const std::string s = trim(v);
    int dr = 0, dc = 0;
    if (host_.named_center("tikzcd@-" + s)) return "tikzcd@-" + s;
    if (direction(s, dr, dc)) return cell_name(r + dr, c + dc);
    return s;
  };
  auto tips = [&](const std::string& k) {
    static const std::set<std::string> kDouble = {"Rightarrow", "Leftarrow", "Leftrightarrow", "Mapsto",
                                                  "Mapsfrom",   "equal",     "equals"};
    if (kDouble.count(k)) tikz.push_back("double");
    if (k == "rightarrow" || k == "Rightarrow" || k == "dashrightarrow" || k == "rightsquigarrow" ||
        k == "twoheadrightarrow" || k == "rightharpoonup" || k == "rightharpoondown") {
      tip_start = false;
      tip_end = true;
    } else if (k == "leftarrow" || k == "Leftarrow" || k == "dashleftarrow" || k == "leftsquigarrow" ||
               k == "twoheadleftarrow" || k == "leftharpoonup" || k == "leftharpoondown") {
      tip_start = true;
      tip_end = false;
    } else if (k == "leftrightarrow" || k == "Leftrightarrow" || k == "mapsto" || k == "mapsfrom" ||
               k == "Mapsto" || k == "Mapsfrom" || k == "hookrightarrow" || k == "hookleftarrow" ||
               k == "rightarrowtail" || k == "leftarrowtail" || k == "leftrightsquigarrow") {
      tip_start = tip_end = true;
    } else if (k == "dash" || k == "equal" || k == "equals") {
      tip_start = tip_end = false;
    } else if (k == "hook" || k == "hook'" || k == "tail" || k == "maps to") {
      tip_start = true;
    } else if (k == "no tail") {
      tip_start = false;
    } else if (k == "two heads" || k == "harpoon" || k == "harpoon'" || k == "to head") {
      tip_end = true;
    } else if (k == "no head") {
      tip_end = false;
    } else {
      return false;
    }
    if (k.find("dash") == 0 && k != "dash") tikz.push_back("dashed");
    return true;
  };
  for (const Item& it : split_items(a.options)) {
    const std::string& k = it.key;
    int dr = 0, dc = 0;
    if (!k.empty() && k.front() == '"') {
      // "text"options: tikz-cd's quotes (its first char syntax): ' swaps, the rest are options
      std::size_t close = std::string::npos;
      int d = 0;
      for (std::size_t j = 1; j < k.size(); ++j) {
        if (k[j] == '\\') {
          ++j;
          continue;
        }
        if (k[j] == '{') ++d;
        else if (k[j] == '}') --d;
        else if (k[j] == '"' && d == 0) {
          close = j;
          break;
        }
      }
      if (close == std::string::npos) {
        problem("unsupported-construct", "tikz-cd label " + k + " has no closing quote", a.begin, a.end);
        continue;
      }
      Label l;
      l.text = strip_group(std::string_view(k).substr(1, close - 1));
      std::string rest = trim(std::string_view(k).substr(close + 1));
      std::vector<std::string> lo;
      if (!rest.empty() && rest.front() == '\'') {
        lo.push_back("swap");
        rest = trim(std::string_view(rest).substr(1));
      }
      rest = strip_group(rest);
      for (const Item& o : split_items(rest)) {
        if (o.key == "description") lo.push_back("anchor=center, fill=white");
        else if (o.key == "marking") lo.push_back("font=, sloped, anchor=center"), l.marking = true;
        else lo.push_back(o.raw);
      }
      l.options = join(lo);
      labels.push_back(std::move(l));
    } else if (!it.has_value && direction(k, dr, dc)) {
      target = cell_name(sr + dr, sc + dc);
    } else if (k == "to") {
      target = end_of(it.value, sr, sc);
    } else if (k == "from") {
      start = end_of(it.value, sr, sc);
    } else if (tips(k)) {
    } else if (k == "dashed") {
      tikz.push_back("dashed");
    } else if (k == "phantom") {
      path.push_back("draw=none");
      tip_start = tip_end = false;
      label_extra = {"font=", "anchor=center"};
    } else if (k == "crossing over" || k == "squiggly" || k == "double line") {
      // a white preaction under the arrow / a zigzag within the line's width / double: cosmetic
      if (k == "double line") tikz.push_back("double");
    } else if (k == "description") {
      tikz.push_back("anchor=center, fill=white");
    } else if (k == "marking") {
      tikz.push_back("font=, sloped, anchor=center");
    } else if (k == "shorten") {
      tikz.push_back("shorten <={" + it.value + "}, shorten >={" + it.value + "}");
    } else if (k == "shift left" || k == "shift right") {
      // shift left/.default=+0.56ex; a number without unit counts in that default
      std::string v = it.has_value ? it.value : (k == "shift left" ? "0.56ex" : "1");
      std::string err;
      auto m = host_.eval(v, &err);
      auto ex = host_.eval("0.56ex", &err);
      if (!m || !ex) {
        problem("unsupported-key", "tikz-cd arrow option '" + it.raw + "' is not modelled", a.begin, a.end);
        continue;
      }
      double amount = m->is_length ? m->value : m->value * ex->value;
      shift += k == "shift left" ? amount : -amount;
      shifted = true;
    } else if (k == "start anchor" || k == "end anchor") {
      std::string v = trim(it.value), tf;
      if (!v.empty() && v.front() == '[') {
        const std::size_t g = text_skip_group(v, 0);
        if (g == std::string::npos) continue;
        tf = v.substr(1, g - 2);
        v = trim(std::string_view(v).substr(g));
      }
      (k == "start anchor" ? start_anchor : end_anchor) = v;
      (k == "start anchor" ? start_tf : end_tf) = tf;
      shifted = true;
    } else if (k == "xshift" || k == "yshift") {
      (k == "xshift" ? xshift : yshift) = it.value;
      shifted = true;
    } else if (k == "shift" || k == "transform nodes" || k == "execute before arrows") {
      problem("unsupported-key", "tikz-cd arrow option '" + k + "' is not modelled", a.begin, a.end);
    } else {
      tikz.push_back(it.raw);  // .unknown: a /tikz key
    }
  }
  for (const auto& s : styles_.arrow) path.push_back(s);
  path.push_back(std::string(tip_start ? "<" : "") + "-" + (tip_end ? ">" : ""));
  for (const auto& s : tikz) path.push_back(s);  // last: keys.resize below drops them
  // The labels as nodes on the `to`, the markings last: a marking (a glyph set across the arrow,
  // `"/" marking`) is part of the arrow's look, node role "arrow marking" (ir/diagram.hpp).
  std::string nodes;
  std::size_t plain_labels = 0;
  for (bool marking : {false, true}) {
    for (const Label& l : labels) {
      if (l.marking != marking) continue;
      plain_labels += !marking;
      std::vector<std::string> lo = styles_.label;
      lo.insert(lo.end(), label_extra.begin(), label_extra.end());
      lo.push_back(l.options);
      const std::string text = l.text.empty() ? "" : styles_.math ? "$" + l.text + "$" : l.text;
      nodes += " node[" + join(lo) + "] {" + text + "}";
    }
  }
  const std::size_t first_node = host_.node_count();
  auto mark_markings = [&] {
    if (plain_labels < labels.size()) host_.set_node_role(first_node + plain_labels, "arrow marking");
  };
  if (!host_.named_center(start) || !host_.named_center(target)) {
    // pgf: "No shape named ..." -- an arrow to a cell that holds no node (or a name never made)
    problem("unsupported-construct",
            "tikz-cd arrow from '" + start + "' to '" + target + "': no node of that name is lowered", a.begin, a.end);
    return;
  }
  // The `to` between the ends: straight, or bent (bend left/right, relative angles). Other to
  // paths (in/out, loops, to path, controls) are left to the `to` between the nodes, which sees
  // the cells' centers where tikz-cd's asymmetrical rectangle has its center on the math axis.
  std::optional<double> bend;
  double bend_angle = 30;
  bool plain_to = true;
  std::vector<std::string> kept;
  for (const auto& raw : tikz) {
    for (const Item& o : split_items(raw)) {
      if (o.key == "bend angle") {
        if (auto v = host_.eval(o.value)) bend_angle = v->value;
        continue;
      }
      if (o.key == "bend left" || o.key == "bend right") {
        double v = bend_angle;
        if (o.has_value && !trim(o.value).empty()) {
          auto e = host_.eval(o.value);
          if (!e) {
            plain_to = false;
            kept.push_back(o.raw);
            continue;
          }
          v = e->value;
        }
        bend = o.key == "bend left" ? v : -v;
        continue;
      }
      if (o.key == "in" || o.key == "out" || o.key == "relative" || o.key.rfind("loop", 0) == 0 ||
          o.key == "to path" || o.key == "controls" || o.key == "curve to" || o.key == "looseness" ||
          o.key == "in looseness" || o.key == "out looseness")
        plain_to = false;
      kept.push_back(o.raw);
    }
  }
  if (!plain_to) {
    host_.emit("\\path[" + join(path) + "] (" + start + ") to" + nodes + " (" + target + ");", a.begin, a.end);
    mark_markings();
    return;
  }
  // An end's reference point: a cell's center anchor, on the math axis (asymmetrical rectangle:
  // center yshift=axis_height above the base), another node's center; and its box with the outer sep.
  struct End {
    Point at;
    Box box;
  };
  const double axis = host_.eval("0.25em").value_or(MathValue{2.5, true}).value;  // axis_height
  auto end_of_node = [&](const std::string& name) -> std::optional<End> {
    auto c = host_.named_center(name);
    auto ne = host_.named_anchor(name, "north east"), sw = host_.named_anchor(name, "south west");
    if (!c) return std::nullopt;
    End e{*c, Box{c->x, c->y, c->x, c->y}};
    if (ne && sw) e.box = Box{sw->x, sw->y, ne->x, ne->y};
    if (is_cell(name)) {
      if (auto base = host_.named_anchor(name, "base")) e.at.y = base->y + axis;
    }
    return e;
  };
  auto ea = end_of_node(start), eb = end_of_node(target);
  if (!ea || !eb) return;
  // pgf's border of a rectangle seen from the reference point: where the ray leaves the box
  auto border = [](const End& e, double deg) {
    const double dx = std::cos(deg * M_PI / 180), dy = std::sin(deg * M_PI / 180);
    double t = 1e30;
    if (dx > 1e-12) t = std::min(t, (e.box.xmax - e.at.x) / dx);
    if (dx < -1e-12) t = std::min(t, (e.box.xmin - e.at.x) / dx);
    if (dy > 1e-12) t = std::min(t, (e.box.ymax - e.at.y) / dy);
    if (dy < -1e-12) t = std::min(t, (e.box.ymin - e.at.y) / dy);
    if (t > 1e29 || t < 0) t = 0;
    return Point{e.at.x + t * dx, e.at.y + t * dy};
  };
  const double line = std::atan2(eb->at.y - ea->at.y, eb->at.x - ea->at.x) * 180 / M_PI;
  const double out = line + bend.value_or(0), in = line + 180 - bend.value_or(0);
  std::optional<Point> pa = border(*ea, out), pb = border(*eb, in);
  if (!start_anchor.empty()) pa = host_.named_anchor(start, start_anchor);
  if (!end_anchor.empty()) pb = host_.named_anchor(target, end_anchor);
  // moved ends (tikz-cd's @shiftabletopath): each end by its transform and the arrow's x/yshift
  auto moved = [&](std::optional<Point> p, const std::string& tf) -> std::optional<Point> {
    if (!p) return p;
    std::vector<std::string> shifts = {"xshift=" + xshift, "yshift=" + yshift};
    for (const Item& o : split_items(tf)) shifts.push_back(o.raw);
    for (const auto& s : shifts) {
      for (const Item& o : split_items(s)) {
        if (!o.has_value || trim(o.value).empty()) continue;
        std::string err;
        auto v = host_.eval(o.value, &err);
        if (!v || (o.key != "xshift" && o.key != "yshift")) {
          problem("unsupported-key", "tikz-cd arrow end transform '" + o.raw + "' is not modelled", a.begin, a.end);
          return std::nullopt;
        }
        (o.key == "xshift" ? p->x : p->y) += v->is_length ? v->value : v->value * 28.452756;
      }
    }
    return p;
  };
  pa = moved(pa, start_tf);
  pb = moved(pb, end_tf);
  if (!pa || !pb) {
    problem("unsupported-key", "tikz-cd arrow end anchor is not one the nodes have", a.begin, a.end);
    return;
  }
  // shift left: both ends across the line between them (tikz-cd: by (y, -x) of the unit vector
  // from the target's end to the start's)
  const double dx = pa->x - pb->x, dy = pa->y - pb->y, len = std::hypot(dx, dy);
  if (shifted && len > 0 && shift != 0) {
    const double ux = dx / len, uy = dy / len;
    pa->x += shift * uy;
    pa->y += -shift * ux;
    pb->x += shift * uy;
    pb->y += -shift * ux;
  }
  std::vector<std::string> keys = path;
  keys.resize(keys.size() - tikz.size());  // the arrow's /tikz keys again, without the bend
  keys.insert(keys.end(), kept.begin(), kept.end());
  std::string to = "to";
  if (bend) {
    // the bend's angles from the ends' reference points (\tikz@to@compute@relative), absolute now
    const double out2 = std::atan2(pb->y - pa->y, pb->x - pa->x) * 180 / M_PI + *bend;
    to = "to[out=" + text_number(out2) + ", in=" + text_number(out2 + 180 - 2 * *bend) + "]";
  }
  host_.emit("\\begin{scope}[reset cm]", a.begin, a.end);
  host_.emit("\\path[" + join(keys) + "] (" + pt(pa->x) + "," + pt(pa->y) + ") " + to + nodes + " (" + pt(pb->x) + "," +
                 pt(pb->y) + ");",
             a.begin, a.end);
  host_.emit("\\end{scope}", a.begin, a.end);
  mark_markings();
  // The tips reach past the line: pgf's bounding box holds each tip's hull. tikz-cd's `cm to`
  // (Computer Modern Rightarrow[length=+0pt 6.2], width' 2.096774 of the length) at the line
  // width rule_thickness (0.4pt); its other tips (bar, hooks) are about as wide.
  const double lw = 0.4, length = 6.2 * lw, half = 2.096774 * length / 2;
  auto tip_hull = [&](Point p, double toward_deg) {
    const double ux = std::cos(toward_deg * M_PI / 180), uy = std::sin(toward_deg * M_PI / 180);
    Box b{p.x, p.y, p.x, p.y};
    for (double side : {-1.0, 1.0}) {
      const Point q{p.x - length * ux - side * half * uy, p.y - length * uy + side * half * ux};
      b.xmin = std::min(b.xmin, q.x);
      b.ymin = std::min(b.ymin, q.y);
      b.xmax = std::max(b.xmax, q.x);
      b.ymax = std::max(b.ymax, q.y);
    }
    host_.grow_picture_bbox(b);
  };
  const double chord = std::atan2(pb->y - pa->y, pb->x - pa->x) * 180 / M_PI;
  const double arrive = bend ? chord - *bend : chord, leave = bend ? chord + *bend : chord;
  if (tip_end) tip_hull(*pb, arrive);
  if (tip_start) tip_hull(*pa, leave + 180);
}

bool CdLowerer::run() {
  static const std::string kBegin = "\\begin{tikzcd}", kEnd = "\\end{tikzcd}";
  if (t_.rfind(kBegin, 0) != 0) return false;
  std::size_t i = kBegin.size();
  std::size_t body_e = t_.size();
  if (t_.size() >= kEnd.size() && t_.compare(t_.size() - kEnd.size(), kEnd.size(), kEnd) == 0)
    body_e = t_.size() - kEnd.size();
  // every diagram / cell / matrix / arrow / label as the document defines them (tikz-cd's
  // defaults, \tikzcdset's additions: tex/expander.cpp); without \usepackage{tikz-cd} seen,
  // the defaults above
  auto from_table = [&](const std::string& style) -> std::optional<std::vector<std::string>> {
    const std::string name = "commutative diagrams/" + style;
    auto keys = host_.expand_keys(name);
    if (keys.size() == 1 && keys[0].key == name) return std::nullopt;
    std::vector<std::string> out;
    for (const auto& k : keys) out.push_back(k.has_value ? k.key + "={" + k.value + "}" : k.key);
    return out;
  };
  if (auto v = from_table("every cell")) styles_.cell = *v;
  if (auto v = from_table("every matrix")) styles_.matrix = *v;
  if (auto v = from_table("every arrow")) styles_.arrow = *v;
  if (auto v = from_table("every label")) styles_.label = *v;
  if (auto v = from_table("every diagram")) diagram_options(join(*v), 0, end_);
  std::string opts;
  const std::size_t j = text_skip_space(t_, i);
  if (j < body_e && t_[j] == '[') {
    const std::size_t g = text_skip_group(t_, j);
    if (g == std::string::npos || g > body_e) return false;
    opts = t_.substr(j + 1, g - j - 2);
    diagram_options(opts, static_cast<std::uint32_t>(j), static_cast<std::uint32_t>(g));
    i = g;
  }
  read_body(i, body_e);
  const auto body_b = static_cast<std::uint32_t>(i), body_end = static_cast<std::uint32_t>(body_e);

  host_.emit("\\begin{scope}[" + join(styles_.picture) + "]", 0, end_);
  std::vector<std::string> m = {std::string(styles_.math ? "matrix of math nodes" : "matrix of nodes"),
                                "row sep={" + styles_.row_sep + "}", "column sep={" + styles_.column_sep + "}",
                                "cells={" + join(styles_.cell) + "}"};
  if (!styles_.amp.empty()) m.push_back("ampersand replacement=" + styles_.amp);
  for (const auto& s : styles_.matrix) m.push_back(s);
  host_.emit("\\matrix[" + join(m) + "] (tikzcd@) {" + matrix_body_ + "\\\\};", body_b, body_end);
  for (std::size_t r = 1; r <= rows_; ++r)
    for (std::size_t c = 1; c <= std::max<std::size_t>(cols_, 1); ++c)
      if (host_.named_center(cell_name(static_cast<long>(r), static_cast<long>(c))))
        cells_.push_back(cell_name(static_cast<long>(r), static_cast<long>(c)));
  for (const Arrow& a : arrows_) lower_arrow(a);
  host_.emit("\\end{scope}", 0, end_);
  return true;
}

}  // namespace
}  // namespace tikzlint::ir

namespace tikzlint::packages {

std::unique_ptr<ir::Package> tikzcd() {
  return statement_package("tikzcd", [](const ir::PackageStatement& s, ir::LibraryHost& host) {
    if (s.path || s.command != "\\begin" || s.st.text.rfind("\\begin{tikzcd}", 0) != 0) return ir::Offer::pass;
    ir::CdLowerer cd(s.st, host);
    return cd.run() ? ir::Offer::lowered : ir::Offer::declined;
  });
}

}  // namespace tikzlint::packages
