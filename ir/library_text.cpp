// ir/library_text.cpp: reading the text of library constructs (ir/library.hpp).
#include <cctype>
#include <cmath>
#include <cstdio>

#include "ir/library.hpp"
#include "support/ascii.hpp"

namespace tikzlint::ir {

std::string_view text_trim(std::string_view s) {
  while (!s.empty() && is_ascii_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_ascii_space(s.back())) s.remove_suffix(1);
  return s;
}

std::string text_number(double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.5f", std::abs(v) < 5e-6 ? 0.0 : v);
  return buf;
}

std::size_t text_skip_space(const std::string& t, std::size_t i) {
  while (i < t.size() && is_ascii_space(t[i])) ++i;
  return i;
}

std::size_t text_skip_group(const std::string& t, std::size_t i) {
  const char open = t[i], close = open == '{' ? '}' : open == '[' ? ']' : ')';
  int depth = 0, braces = 0;
  for (std::size_t j = i; j < t.size(); ++j) {
    const char ch = t[j];
    if (ch == '\\') {
      ++j;
      continue;
    }
    if (open != '{' && ch == '{') ++braces;
    else if (open != '{' && ch == '}') --braces;
    if (braces > 0) continue;
    if (ch == open) ++depth;
    else if (ch == close && --depth == 0) return j + 1;
  }
  return std::string::npos;
}

}  // namespace tikzlint::ir
