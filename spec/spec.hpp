// spec/spec.hpp: the public face of spec conformance: check a diagram against what it must show
// (docs/spec.md). A spec is JSON: required labels, relations (which labelled element points to
// which), components (arrows, circles, polygons, marks, axes), geometry of educational figures
// (a labelled angle at a vertex, a labelled side, a right angle) and negative constraints. The
// check reads the IR and the rules' scene only, never the TeX source, and says for each unmet
// item which element came nearest.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "checks/check.hpp"
#include "ir/diagram.hpp"
#include "support/diagnostic.hpp"
#include "support/source.hpp"

namespace tikzlint::spec {

// How a required text is compared with a label: the whole label (after normalise_text), or a
// label that contains it as a run of whole words.
enum class Match { exact, contains };

struct LabelItem {
  std::string text;
  int min_count = 1;
  Match match = Match::exact;
};

struct RelationItem {
  std::string from, to;
  std::optional<std::string> label;  // a label on that edge
  bool directed = true;              // an arrow tip must point from `from` to `to`
};

enum class ComponentKind { node, arrow, axis, circle, polygon, angle_mark, right_angle_mark };
const char* to_string(ComponentKind k);

struct ComponentItem {
  ComponentKind kind = ComponentKind::node;
  std::optional<std::string> label;  // a label on or by the component
  int count = 1;                     // at least this many
  int sides = 0;                     // polygons: the number of sides (0: any)
};

enum class GeometryKind { angle, side, right_angle };

struct GeometryItem {
  GeometryKind kind = GeometryKind::angle;
  std::string at;                        // angle, right_angle: the vertex's label
  double degrees = 0;                    // angle: the labelled value
  std::pair<std::string, std::string> between;  // side: the two vertices' labels
  std::optional<std::string> label;      // side: the length label it carries ("5 cm")
};

struct NegativeConstraints {
  std::vector<std::string> labels;    // texts that must not appear (exact, normalised)
  std::vector<std::string> patterns;  // ECMAScript regular expressions over normalised labels
  std::vector<std::string> rules_pass;  // rules whose verdict must not be fail
};

struct Spec {
  std::string path;  // where it was read from (for messages); "" for a string
  bool case_sensitive = true;
  std::vector<LabelItem> labels;
  std::vector<RelationItem> relations;
  std::vector<ComponentItem> components;
  std::vector<GeometryItem> geometry;
  NegativeConstraints negative;
};

// Parse and validate a spec. On any error, nullopt and one message per problem, each naming the
// place as a JSON pointer ("/required_relations/0/from: expected a string") and, for an unknown
// key, the keys that are valid there.
std::optional<Spec> parse(std::string_view json_text, std::vector<std::string>& errors);
// Read and parse a spec file (errors also for an unreadable file).
std::optional<Spec> load(const std::string& path, std::vector<std::string>& errors);

// What a reader reads in a TeX fragment, for matching: math shifts, font and size commands,
// spacing commands, braces and `\\` line breaks removed or read as one space, then spaces
// collapsed ("$\mathrm{H_2O}$" -> "H2O", "\textbf{ATP}\\synthase" -> "ATP synthase").
std::string normalise_text(std::string_view tex);

// The spec's thresholds (`tikzlint explain spec`; `--set spec.NAME=V`).
const checks::RuleDoc& doc();

struct Outcome {
  checks::Verdict verdict = checks::Verdict::na;
  std::vector<Diagnostic> findings;  // one per unmet item (warning; notes when indeterminate)
  int items = 0, met = 0;
};

// Check the pictures of one file against `spec`. `verdicts` are the file's rule verdicts (for
// negative_constraints.rules_pass). An unmet item in a picture whose geometry is incomplete makes
// the verdict indeterminate, not fail (the missing piece may be in what was not modelled).
// `sources`, when given, lets messages name the line of the nearest candidate; an item with no
// candidate at all is reported at `picture` (the file's first picture).
Outcome evaluate(const Spec& spec, const std::vector<ir::Diagram>& diagrams,
                 const std::vector<std::pair<std::string, checks::Verdict>>& verdicts, const checks::Config& cfg,
                 const SourceManager* sources = nullptr, SourceRange picture = {});

}  // namespace tikzlint::spec
