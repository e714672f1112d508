// checks/label_text.hpp: what a node's text says, read as a reader of the diagram would.
// "$60^\circ$" is an angle of 60 degrees, "5 cm" a length, "A = 12 cm^2" an area, "$A$" a
// name, "Triangle ABC" a caption. Only the text is read here; geometry lives in scene.hpp.
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace tikzlint::checks {

enum class LabelKind {
  angle,   // has a degree sign ("60°", "$x^\circ$"); value when numeric
  length,  // a number with an optional length unit ("5 cm", "$3$", "2.5 in", "AB = 7")
  area,    // an area ("12 m²", "A = 12", "Area: 12 sq units")
  name,    // a short identifier: vertex or side name ("A", "B'", "h_1", "x")
  text,    // anything else: captions, titles, formulas, "2x", coordinates "(5,6)"
};
const char* to_string(LabelKind k);

struct LabelText {
  std::string plain;          // TeX markup removed, e.g. "60°", "5 cm", "h1"
  LabelKind kind = LabelKind::text;
  std::optional<double> value;  // degrees for angles, the number for lengths and areas
  std::string unit;             // "cm", "m", "in", "ft", "units", "" ...
  double unit_in_m = 0;         // metres per unit; 0 when the unit is not a physical length
  std::string prefix;           // the name before '=' or ':' ("AB" of "AB = 7"), if any
};

// Plain text of a TeX fragment: math shifts, font commands and braces removed, degree signs
// and superscript 2 normalised to "°" and "²", \frac{a}{b} read as "a/b".
std::string plain_text(std::string_view tex);

LabelText read_label(std::string_view tex);

// The three patterns read_label reads plain text with, matched by hand: constructing the
// equivalent std::regex objects cost ~26 M instructions (~7 ms) in every process, and matching
// with them far more than this. test_label_text.cpp compares each with its std::regex on
// generated strings: the same matches and the same groups.
namespace label_patterns {
// std::regex_search of (-?\d+(?:\.\d+)?)\s*° : the first group of the leftmost match.
std::optional<std::string> number_before_degree(std::string_view s);
// std::regex_match of the measure pattern (see label_text.cpp): its five groups.
struct Measure {
  std::string prefix, number, square, unit;
  bool squared = false;  // group 5 (² or ^2) matched
};
std::optional<Measure> measure(std::string_view s);
// std::regex_match of the short-identifier pattern.
bool identifier(std::string_view s);
}  // namespace label_patterns

}  // namespace tikzlint::checks
