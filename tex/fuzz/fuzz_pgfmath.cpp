// tex/fuzz/fuzz_pgfmath.cpp: libFuzzer entry point for pgfmath and parse_keyval (not part of
// the normal build). Build and run, e.g.:
//   clang++ -std=c++20 -O1 -g -fsanitize=fuzzer,address,undefined -I. \
//     tex/fuzz/fuzz_pgfmath.cpp tex/pgfmath.cpp tex/pgfmath_keyval.cpp -o fuzz_pgfmath
//   ./fuzz_pgfmath -max_len=256 -max_total_time=60
// Beyond "no crash", it checks the invariants callers rely on and aborts when one breaks.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "tex/pgfmath.hpp"

using namespace tikzlint::tex::pgfmath;

namespace {

// Messages end up in JSON and SARIF, which need valid UTF-8.
bool valid_utf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    auto c = static_cast<unsigned char>(s[i]);
    std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (n == 0 || i + n > s.size()) return false;
    for (std::size_t k = 1; k < n; ++k)
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
    i += n;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);

  std::uint64_t state = size;
  Context ctx;
  ctx.random_state = &state;
  ctx.max_nesting_depth = 1u << 20;  // the evaluator's own hard cap must still hold the stack
  Result r = evaluate(text, ctx);
  if (r.value.has_value() == r.error.has_value()) std::abort();  // exactly one of them
  if (r.value) {
    if (!std::isfinite(r.value->number) || std::fabs(r.value->number) > max_magnitude) std::abort();
    if (format_number(r.value->number).find('.') == std::string::npos) std::abort();
  } else if (r.error->position > size || r.error->message.empty() || !valid_utf8(r.error->message)) {
    std::abort();
  }

  if (auto d = parse_dimension(text)) {
    if (!std::isfinite(*d)) std::abort();
  }

  std::size_t previous_end = 0;
  for (const KeyValue& kv : parse_keyval(text)) {
    if (kv.begin >= kv.end || kv.end > size || kv.begin < previous_end) std::abort();
    if (kv.key.empty() && !kv.has_value) std::abort();
    previous_end = kv.end;
  }
  return 0;
}
