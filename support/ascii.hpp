// support/ascii.hpp: character classes of the C locale, inline (the <cctype> functions are calls
// into libc, and the option and statement scanners ask them for every character).
#pragma once
#include <string>
#include <string_view>

namespace tikzlint {

// std::isspace in the C locale: space, \t, \n, \v, \f, \r.
constexpr bool is_ascii_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

// `s` without its leading and trailing blanks.
constexpr std::string_view trim_ascii(std::string_view s) {
  while (!s.empty() && is_ascii_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_ascii_space(s.back())) s.remove_suffix(1);
  return s;
}

// `s` without its leading and trailing blanks and with every inner run of blanks one space: how
// pgfkeys spells a key, and how names and texts are compared.
inline std::string collapse_spaces(std::string_view s) {
  std::string out;
  bool blank = false;
  for (char c : s) {
    if (is_ascii_space(c)) {
      blank = true;
      continue;
    }
    if (blank && !out.empty()) out += ' ';
    blank = false;
    out += c;
  }
  return out;
}

}  // namespace tikzlint
