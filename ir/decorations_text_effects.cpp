// ir/decorations_text_effects.cpp: `text effects along path` (tikzlibrarydecorations.text.code.tex,
// pgfmanual 50.6): every character is a TikZ \node with the text effects styles of its place in the
// text (every character, every letter, every word separator, ...), as wide as that node measures,
// drawn at the middle of its share of the path; `path from text` makes the path from a lone point.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>

#include "ir/coords.hpp"
#include "ir/decorations.hpp"
#include "support/ascii.hpp"
#include "tex/styles.hpp"

namespace tikzlint::ir {

namespace {

constexpr double kPi = 3.14159265358979323846;

std::string trimmed(std::string_view s) { return std::string(text_trim(s)); }  // library_text.cpp

std::string fmt(double v) { return text_number(v); }  // library_text.cpp

void replace_all(std::string& s, const std::string& from, const std::string& to) {
  if (from.empty()) return;
  for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) {
    // a macro name ends where its letters end: \i must not match \in
    const std::size_t end = at + from.size();
    if (from[0] == '\\' && end < s.size() && std::isalpha(static_cast<unsigned char>(s[end]))) {
      at = end - to.size();
      continue;
    }
    s.replace(at, from.size(), to);
  }
}

// \tikz@lib@dec@te@scancharacters: a space, a {group} or one token each
std::vector<std::string> scan_tokens(const std::string& t) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < t.size();) {
    const char c = t[i];
    if (is_ascii_space(c)) {
      while (i < t.size() && is_ascii_space(t[i])) ++i;
      out.push_back(" ");
      continue;
    }
    std::size_t j = i + 1;
    if (c == '{') {
      j = text_skip_group(t, i);
      if (j == std::string::npos) j = t.size();
    } else if (c == '\\' && i + 1 == t.size()) {  // "\ " whose space was trimmed: a control space
      out.push_back("\\ ");
      break;
    } else if (c == '\\' && i + 1 < t.size()) {
      j = i + 2;
      if (std::isalpha(static_cast<unsigned char>(t[i + 1])))
        while (j < t.size() && std::isalpha(static_cast<unsigned char>(t[j]))) ++j;
    } else {
      while (j < t.size() && (static_cast<unsigned char>(t[j]) & 0xC0) == 0x80) ++j;
    }
    out.push_back(t.substr(i, j - i));
    i = j;
  }
  return out;
}

struct TextEffects {
  std::string text;
  std::string align = "left";
  bool path_from_text = false, fit = false, scale_to_path = false, reverse = false, group = false;
  double path_angle = 0, raise = 0;
  int repeat = 0;
  std::string word_separator = " ";
  std::string character_command;
  std::map<std::string, std::string> styles;  // "every character", "every letter", "character 3", ...
  std::map<std::string, std::string> vars;    // "character count" -> "\i"
  std::map<std::string, std::string> replacements;  // character -> code
  bool reverse_path = false;
};

bool is_decoration_key(const std::string& k) {
  return k == "text" || k == "text align" || k == "raise" || k == "reverse path" || k == "text color" ||
         k == "text format delimiters" || k == "name" || k == "text effects along path" || k == "mirror";
}

void read_effects(TextEffects& te, const std::string& keys, LibraryHost& host);

void read_effect_key(TextEffects& te, std::string key, const tex::RawItem& it, LibraryHost& host) {
  if (key.rfind("/pgf/decoration/text effects/", 0) == 0) key = key.substr(29);
  const std::string value = trimmed(tex::strip_braces(trimmed(it.value)));
  auto flag = [&] { return !it.has_value || value != "false"; };
  const std::size_t slash = key.find("/.");
  if (slash != std::string::npos) {  // every letter/.style=..., characters/.append=...
    std::string name = key.substr(0, slash), how = key.substr(slash + 2);
    if (name == "characters") name = "every character";
    if (name == "character widths") name = "every character width";
    if (how == "style") te.styles[name] = value;
    else if (how == "append style" || how == "append") te.styles[name] += "," + value;
    return;
  }
  if (key == "path from text") te.path_from_text = flag();
  else if (key == "path from text angle") {
    if (auto v = host.eval(value)) te.path_angle = v->value;
  } else if (key == "fit text to path") te.fit = flag();
  else if (key == "scale text to path") te.scale_to_path = flag();
  else if (key == "reverse text") te.reverse = true;
  else if (key == "group letters" || key == "group letters into words") te.group = true;
  else if (key == "repeat text") te.repeat = !it.has_value ? -1 : (host.eval(value) ? static_cast<int>(host.eval(value)->value) : 0);
  else if (key == "word separator") te.word_separator = value == "space" ? " " : value;
  else if (key == "character command") te.character_command = value;
  else if (key == "characters") te.styles["every character"] = value;
  else if (key == "character widths") te.styles["every character width"] = value;
  else if (key == "character count" || key == "character total" || key == "letter count" || key == "letter total" ||
           key == "word count" || key == "word total")
    te.vars[key] = value;
  else if (key == "style characters" || key == "replace characters") {
    const std::string v = trimmed(it.value);
    const std::size_t with = v.find(" with");
    if (with == std::string::npos) return;
    const std::string chars = trimmed(std::string_view(v).substr(0, with));
    const std::string what = trimmed(tex::strip_braces(trimmed(std::string_view(v).substr(with + 5))));
    for (const std::string& c : scan_tokens(chars)) {
      if (key == "style characters") te.styles["character " + c] = what;
      else te.replacements[c] = what;
    }
  } else {
    // .unknown: a TikZ key for every character
    te.styles["every character"] += "," + key + (it.has_value ? "={" + value + "}" : "");
  }
}

void read_effects(TextEffects& te, const std::string& keys, LibraryHost& host) {
  for (const auto& it : tex::split_options(keys)) read_effect_key(te, tex::normalise_key(it.key), it, host);
}

}  // namespace

std::optional<DrawnDecoration> lower_text_effects(const std::string& spec, DecoratedPath path, LibraryHost& host,
                                                  std::uint32_t b, std::uint32_t e) {
  TextEffects te;
  bool effects_mode = false;  // after `text effects/.cd`
  for (const auto& it : tex::split_options(spec)) {
    std::string key = tex::normalise_key(it.key);
    if (key.rfind("/pgf/decoration/", 0) == 0 && key.rfind("/pgf/decoration/text effects/", 0) != 0) {
      key = key.substr(16);
      effects_mode = false;
    }
    const std::string value = trimmed(it.value);
    if (key == "text effects/.cd") {
      effects_mode = true;
      continue;
    }
    if (key == "text effects") {  // the TikZ key: text effects={...}
      read_effects(te, tex::strip_braces(value), host);
      continue;
    }
    if (key.rfind("text effects/", 0) == 0) {
      read_effect_key(te, key.substr(13), it, host);
      continue;
    }
    if (effects_mode && !is_decoration_key(key)) {
      read_effect_key(te, key, it, host);
      continue;
    }
    effects_mode = false;
    if (key == "text") te.text = tex::strip_braces(value);
    else if (key == "text align") {
      for (const auto& a : tex::split_options(tex::strip_braces(value))) {
        const std::string k = tex::normalise_key(a.key);
        const std::string v = trimmed(tex::strip_braces(a.value));
        if (k == "align") te.align = v;
        else if (k == "left" || k == "right" || k == "center") te.align = k;
      }
    } else if (key == "raise") {
      if (auto v = host.eval(tex::strip_braces(value))) te.raise = v->value;
    } else if (key == "reverse path") te.reverse_path = !it.has_value || value != "false";
  }

  // \tikz@lib@dec@te@preparetext: the characters, then reverse text / group letters
  std::vector<std::string> chars = scan_tokens(te.text);
  if (te.reverse) std::reverse(chars.begin(), chars.end());
  if (te.group) {
    std::vector<std::string> grouped;
    std::string word;
    for (const std::string& c : chars) {
      if (c == te.word_separator) {
        if (!word.empty()) grouped.push_back(word);
        word.clear();
        grouped.push_back(c);
      } else {
        word += c;
      }
    }
    if (!word.empty()) grouped.push_back(word);
    chars = grouped;
  }
  struct Char {
    std::string token;
    int count = 0, letter = 0, word = 0, letter_total = 0;
    bool separator = false, final_letter = false;
    double width = 0;
  };
  std::vector<Char> cs;
  int words = 0, letter = 0;
  for (const std::string& c : chars) {
    Char x;
    x.token = c;
    x.count = static_cast<int>(cs.size()) + 1;
    if (c == te.word_separator) {
      x.separator = true;
      if (letter > 0 && !cs.empty()) cs.back().final_letter = true;
      letter = 0;
    } else {
      if (letter == 0) ++words;
      x.letter = ++letter;
    }
    x.word = words;
    cs.push_back(x);
  }
  if (letter > 0 && !cs.empty()) cs.back().final_letter = true;
  for (auto& x : cs)
    for (const auto& y : cs)
      if (y.word == x.word && !y.separator) x.letter_total = std::max(x.letter_total, y.letter);
  const int total = static_cast<int>(cs.size());

  // \tikz@lib@dec@te@getoptions: the styles that apply to a character, its counts substituted
  auto style = [&](const std::string& name) {
    auto it = te.styles.find(name);
    return it == te.styles.end() ? std::string() : it->second;
  };
  auto options_for = [&](const Char& x, bool for_width) {
    std::string o = for_width && te.styles.count("every character width") ? style("every character width")
                                                                          : style("every character");
    o += "," + style("character " + std::to_string(x.count)) + "," + style("character " + x.token);
    if (x.separator) {
      o += "," + style("every word separator");
    } else if (x.word > 0) {
      o += "," + style("every word") + "," + style("word " + std::to_string(x.word));
      if (x.letter > 0) {
        o += "," + style("every letter") + "," + style("every " + std::to_string(x.letter) + " letter");
        if (x.letter == 1) o += "," + style("every first letter");
        if (x.final_letter) o += "," + style("every final letter");
      }
    }
    std::vector<std::string> keep;
    std::map<std::string, std::string> evaluated;
    for (const auto& it : tex::split_options(o)) {
      const std::string k = tex::normalise_key(it.key);
      if (k.empty()) continue;
      if (k == "text along path") {  // the text effects style of that name
        keep.push_back("inner xsep=0pt,anchor=base,transform shape");
        continue;
      }
      if (k == "evaluate") {  // evaluate={\c=<expr>;}: pgfmath, then the macro's value
        for (std::string assignment : split_tikz_code(tex::strip_braces(it.value))) {
          if (!assignment.empty() && assignment.back() == ';') assignment.pop_back();
          const std::size_t eq = assignment.find('=');
          if (eq == std::string::npos) continue;
          std::string expr = assignment.substr(eq + 1);
          for (const auto& [var, what] : te.vars) {
            const std::string v = trimmed(what);
            if (var == "character count") replace_all(expr, v, std::to_string(x.count));
            if (var == "character total") replace_all(expr, v, std::to_string(total));
          }
          if (auto val = host.eval(expr)) evaluated[trimmed(assignment.substr(0, eq))] = fmt(val->value);
        }
        continue;
      }
      if (k == "character command") continue;  // read by text_for
      keep.push_back(it.key + (it.has_value ? "={" + it.value + "}" : ""));
    }
    std::string out;
    for (const auto& k : keep) out += (out.empty() ? "" : ",") + k;
    for (const auto& [var, what] : te.vars) {
      const std::string v = trimmed(what);
      if (v.empty()) continue;
      std::string n;
      if (var == "character count") n = std::to_string(x.count);
      else if (var == "character total") n = std::to_string(total);
      else if (var == "letter count") n = std::to_string(x.letter);
      else if (var == "letter total") n = std::to_string(x.letter_total);
      else if (var == "word count") n = std::to_string(x.word);
      else if (var == "word total") n = std::to_string(words);
      replace_all(out, v, n);
    }
    for (const auto& [var, val] : evaluated) replace_all(out, var, val);
    return out;
  };
  auto text_for = [&](const Char& x) {
    std::string body = x.token == " " ? "\\ " : x.token;
    std::string command = te.character_command;  // or `character command=` in the character's styles
    const std::vector<std::string> styles = {"every character", "every word", "every letter",
                                             "word " + std::to_string(x.word)};
    for (const std::string& name : styles)
      for (const auto& it : tex::split_options(style(name)))
        if (tex::normalise_key(it.key) == "character command") command = trimmed(tex::strip_braces(it.value));
    if (!command.empty()) body = command + "{" + body + "}";
    for (const auto& [var, what] : te.vars) {
      const std::string v = trimmed(what);
      if (var == "word count" && !v.empty()) replace_all(body, v, std::to_string(x.word));
      if (var == "character count" && !v.empty()) replace_all(body, v, std::to_string(x.count));
    }
    return "{" + body + "}";
  };
  // each character's width: its node's (or its replacement picture's) width
  double text_width = 0;
  for (auto& x : cs) {
    auto rep = te.replacements.find(x.token);
    if (rep != te.replacements.end()) {
      std::vector<std::string> sts{"\\begin{scope}[reset cm," + options_for(x, true) + "]"};
      for (const auto& s : split_tikz_code(rep->second)) sts.push_back(s);
      sts.push_back("\\end{scope}");
      if (auto bx = host.measure_statements(sts)) x.width = bx->xmax - bx->xmin;
    } else if (auto m = host.measure_node("reset cm," + options_for(x, true), text_for(x))) {
      x.width = m->box.xmax - m->box.xmin;
    }
    text_width += x.width;
  }
  // path from text: a lone moveto becomes a line as long as the text
  if (te.path_from_text && path.length() < 1e-6 && !path.subpaths.empty() && !path.subpaths.front().empty()) {
    const Point s = path.subpaths.front().front();
    const double a = te.path_angle * kPi / 180;
    path.subpaths = {{s, {s.x + text_width * std::cos(a), s.y + text_width * std::sin(a)}}};
  }
  if (te.reverse_path) path.reverse();
  const double L = path.length();
  std::vector<double> pre(cs.size()), post(cs.size());
  for (std::size_t i = 0; i < cs.size(); ++i) pre[i] = post[i] = 0.5 * cs[i].width;
  double scale = 1;
  if (!cs.empty() && !te.path_from_text) {
    if (te.scale_to_path && text_width > 0) {
      scale = L / text_width;
      for (std::size_t i = 0; i < cs.size(); ++i) pre[i] *= scale, post[i] *= scale;
    } else if (te.fit && cs.size() > 1) {
      const double inner = text_width - post[0] - pre.back();
      const double k = inner > 0 ? (L - post[0] - pre.back()) / inner : 1;
      for (std::size_t i = 0; i < cs.size(); ++i) {
        if (i > 0) pre[i] *= k;
        if (i + 1 < cs.size()) post[i] *= k;
      }
    } else if (te.align == "center") {
      pre[0] += std::max(0.0, L - text_width) / 2;
      post.back() += std::max(0.0, L - text_width) / 2;
    } else if (te.align == "right") {
      pre[0] += std::max(0.0, L - text_width);
    }
  }
  DrawnDecoration out;
  if (cs.empty()) return out;
  // the automaton: scan, pre token, token (the node), post token; a width past the end is final
  double s = 0;
  int repeat = text_width > 0 ? te.repeat : 0;  // a text of no width would repeat in place forever
  for (std::size_t i = 0, n = 0; n < 100000; ++n) {
    if (i >= cs.size()) {
      if (repeat == 0) break;
      --repeat;
      i = 0;
    }
    if (L - s < pre[i]) break;
    s += pre[i];
    const DecoratedPath::Frame f = path.frame_at(s);
    const Char& x = cs[i];
    host.emit(decoration_frame_scope(f, te.raise), b, e);
    const std::string opts = options_for(x, false) + (scale != 1 ? ",scale=" + fmt(scale) : "");
    auto rep = te.replacements.find(x.token);
    if (rep != te.replacements.end()) {
      host.emit("\\begin{scope}[" + opts + "]", b, e);
      for (const auto& st : split_tikz_code(rep->second)) host.emit(st, b, e);
      host.emit("\\end{scope}", b, e);
    } else {
      host.emit("\\node[" + opts + "] " + text_for(x) + ";", b, e);
    }
    host.emit("\\end{scope}", b, e);
    if (L - s < post[i]) break;
    s += post[i];
    ++i;
  }
  return out;
}

}  // namespace tikzlint::ir
