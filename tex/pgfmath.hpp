// tex/pgfmath.hpp: pgfmath expressions, dimensions and key=value lists (Boost.Spirit X3).
// Semantics follow the pgfmanual, part VIII "Mathematical and Object-Oriented Engines".
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tikzlint::tex::pgfmath {

// A pgfmath value: a plain number, or a length in TeX points when any operand carried a unit.
struct Value {
  double number = 0;
  bool is_length = false;  // true when the expression had a unit (result in pt)
  // What \pgfmathresult holds when pgf does not print the number as computed: a number literal
  // as written ("3", "3.50", ".5"), the integer of a comparison, logic operation or integer
  // function ("1", "-2"). Empty: format_number(number) ("3.0"). See result_text.
  std::string text;
};

enum class ErrorKind { syntax, unknown_function, unknown_name, unknown_unit, division_by_zero, domain, overflow,
                       limit /* a budget of Context: expression size or nesting depth */ };

// "syntax", "unknown-function", ...: a stable name for messages and JSON output.
std::string_view to_string(ErrorKind kind);

// The suffix of the message of an unknown control sequence in an expression ("unknown name '\\x'
// (macro not expanded)"): a macro tikzlint did not expand, which TeX may well know (a package's
// macro, or one an unmodelled command defined). Not an error of the file: whether the name is
// defined is the compiles rule's question, answered from the TeX Live catalog.
inline constexpr std::string_view kUnexpandedMacroSuffix = " (macro not expanded)";
inline bool names_unexpanded_macro(std::string_view message) {
  return message.find(kUnexpandedMacroSuffix) != std::string_view::npos;
}

struct Error {
  ErrorKind kind = ErrorKind::syntax;
  std::string message;       // lowercase, e.g. "unknown function 'foo'"
  std::size_t position = 0;  // byte offset in the expression
};

struct Result {
  std::optional<Value> value;
  std::optional<Error> error;
  explicit operator bool() const { return value.has_value(); }
};

// What an expression can depend on: the active font for em/ex, the random generator state.
struct Context {
  double em_pt = 10.0;  // width of an em in the current font (cmr10: 10pt)
  double ex_pt = 4.30554;  // cmr10 x-height
  std::uint64_t* random_state = nullptr;  // deterministic generator; null: a fixed seed
  // Budgets (issue 3 item 7): exceeding one is an ErrorKind::limit error, never a crash or hang.
  std::size_t max_expression_bytes = 64 * 1024;  // one expression, after macro expansion
  std::size_t max_nesting_depth = 64;             // parentheses, braces, unary operators, ?:
};

// pgf's dimension registers overflow past this ("Dimension too large"); any intermediate value
// beyond it is an ErrorKind::overflow error, as in pgf without the fpu library.
inline constexpr double max_magnitude = 16383.99999;

// rand/rnd/random draw from splitmix64 (Steele, Lea, Flood 2014) over *random_state; with a null
// random_state every evaluation starts from this fixed seed, so results are reproducible.
inline constexpr std::uint64_t default_random_seed = 0x74696b7a6c696e74ULL;  // "tikzlint"

// One draw in [0,1) from the generator, advancing *state (exposed for \pgfmathrandom users).
double next_random(std::uint64_t& state);

// Evaluate an expression such as "2*cos(30)+1cm" or "veclen(3,4)". Macros must already be
// expanded; a remaining control sequence is an unknown_name error, never a silent 0.
// - is_length is true when an operand of the result carried a unit (scalar() clears it);
// - `c ? a : b` and ifthenelse report only the error of the branch they take; unknown
//   functions, names and units are reported wherever they appear;
// - rand/rnd/random advance *ctx.random_state; with a null state each call starts from
//   default_random_seed (pass a state to get a sequence across calls).
Result evaluate(std::string_view expr, const Context& ctx = {});

// Parse a TeX dimension like "3pt", "-.5in", "1.2 cm", "2em" (no arithmetic), in pt.
// A number without a unit is not a dimension (nullopt), as in TeX.
std::optional<double> parse_dimension(std::string_view text, const Context& ctx = {});

// How many arguments the pgfmath function `name` takes, when that is a fixed number (what its
// command form \pgfmath<name>{..}{..} reads); nullopt for unknown or variadic functions.
std::optional<int> function_arity(std::string_view name);

// Format a number the way \pgfmathresult prints it (e.g. "3.0", "0.5", "-2.0").
std::string format_number(double v);

// \pgfmathresult after \pgfmathparse of the expression that gave `v` (pgfmathparser.code.tex):
// "3" for `3`, "1" for `1<2`, "3.0" for `1+2`.
inline std::string result_text(const Value& v) { return v.text.empty() ? format_number(v.number) : v.text; }

// A key=value list as in TikZ options: "draw, fill=red!20, shift={(1,2)}".
// Values keep their braces stripped once; keys are whitespace-normalised. Commas split only
// outside {} and outside () [] that close within the same brace group; an unclosed ( or [
// is plain text. begin/end cover the item without its surrounding blanks; empty items are
// skipped.
struct KeyValue {
  std::string key;
  std::string value;
  bool has_value = false;
  std::size_t begin = 0, end = 0;  // byte range of the item in the input
};
std::vector<KeyValue> parse_keyval(std::string_view text);

}  // namespace tikzlint::tex::pgfmath
