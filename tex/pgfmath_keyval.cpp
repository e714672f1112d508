// tex/pgfmath_keyval.cpp: TikZ option lists ("draw, fill=red!20, shift={(1,2)}").
//
// Why a hand-written scanner instead of Spirit X3 here: the only hard part is deciding which
// commas are at the top level, and TikZ text is full of unbalanced ( and [ inside values
// (`label=above:$[0,1)$`, stray brackets in node text). A PEG that backtracks over an unclosed
// parenthesis takes exponential time on input like "((((((((", while a stack of openers
// resolves every bracket in one linear pass. Braces are authoritative as in TeX; ( ) and [ ]
// only group when they close properly inside the same brace group, otherwise they are plain text.
#include <cstdint>
#include <vector>

#include "tex/pgfmath.hpp"

namespace tikzlint::tex::pgfmath {
namespace {

constexpr bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

constexpr std::uint32_t kUnmatched = 0xffffffffu;

// For every opening { ( [ the offset of its partner, or kUnmatched. Linear time.
std::vector<std::uint32_t> match_brackets(std::string_view t) {
  std::vector<std::uint32_t> partner(t.size(), kUnmatched);
  std::vector<std::uint32_t> open;  // offsets of pending openers
  auto drop_until_brace = [&] {     // unclosed ( [ inside a closing brace group stay plain
    while (!open.empty() && t[open.back()] != '{') open.pop_back();
  };
  for (std::uint32_t i = 0; i < t.size(); ++i) {
    char c = t[i];
    if (c == '\\' && i + 1 < t.size()) {  // \{ \} \( are text, not grouping
      ++i;
      continue;
    }
    if (c == '{' || c == '(' || c == '[') {
      open.push_back(i);
    } else if (c == '}') {
      drop_until_brace();
      if (!open.empty()) {
        partner[open.back()] = i;
        open.pop_back();
      }
    } else if (c == ')' || c == ']') {
      char want = c == ')' ? '(' : '[';
      if (!open.empty() && t[open.back()] == want) {
        partner[open.back()] = i;
        open.pop_back();
      }
    }
  }
  return partner;
}

std::pair<std::size_t, std::size_t> trim(std::string_view t, std::size_t b, std::size_t e) {
  while (b < e && is_space(t[b])) ++b;
  while (e > b && is_space(t[e - 1])) --e;
  return {b, e};
}

std::string normalise_key(std::string_view k) {
  std::string out;
  out.reserve(k.size());
  bool pending_space = false;
  for (char c : k) {
    if (is_space(c)) {
      pending_space = !out.empty();
    } else {
      if (pending_space) out.push_back(' ');
      pending_space = false;
      out.push_back(c);
    }
  }
  return out;
}

}  // namespace

std::vector<KeyValue> parse_keyval(std::string_view text) {
  std::vector<KeyValue> items;
  std::vector<std::uint32_t> partner = match_brackets(text);
  std::size_t item_begin = 0;
  std::size_t equals = std::string_view::npos;  // first top-level '=' of the current item

  auto finish = [&](std::size_t item_end) {
    auto [b, e] = trim(text, item_begin, item_end);
    if (b < e) {
      KeyValue kv;
      kv.begin = b;
      kv.end = e;
      if (equals != std::string_view::npos && equals >= b && equals < e) {
        kv.key = normalise_key(text.substr(b, equals - b));
        auto [vb, ve] = trim(text, equals + 1, e);
        // One outer brace pair is stripped when it encloses the whole value.
        if (ve - vb >= 2 && text[vb] == '{' && partner[vb] == ve - 1) {
          ++vb;
          --ve;
        }
        kv.value = std::string(text.substr(vb, ve - vb));
        kv.has_value = true;
      } else {
        kv.key = normalise_key(text.substr(b, e - b));
      }
      items.push_back(std::move(kv));
    }
    equals = std::string_view::npos;
  };

  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\\' && i + 1 < text.size()) {
      ++i;
    } else if ((c == '{' || c == '(' || c == '[') && partner[i] != kUnmatched) {
      i = partner[i];  // skip the balanced group
    } else if (c == '=' && equals == std::string_view::npos) {
      equals = i;
    } else if (c == ',') {
      finish(i);
      item_begin = i + 1;
    }
  }
  finish(text.size());
  return items;
}

}  // namespace tikzlint::tex::pgfmath
