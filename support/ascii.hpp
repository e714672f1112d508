// support/ascii.hpp: character classes of the C locale, inline (the <cctype> functions are calls
// into libc, and the option and statement scanners ask them for every character).
#pragma once

namespace tikzlint {

// std::isspace in the C locale: space, \t, \n, \v, \f, \r.
constexpr bool is_ascii_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

}  // namespace tikzlint
