// backtranslate/prompt.cpp: the instructions we give the model and the chat-completions request.
// The model only transcribes; every computation that matters to a check (units, transforms,
// node boxes) is done by our own code afterwards, so the prompt asks for values as written.
#include "backtranslate/detail.hpp"

namespace tikzlint::backtranslate {

// Bump when the prompt or docs/llm-ir-schema.json changes: old cache entries then miss.
const char* const kPromptVersion = "tikzlint-bt-1";

namespace detail {

std::string system_prompt() {
  return R"prompt(You transcribe one TikZ picture into JSON for a geometry verifier. Work like a compiler front end, not like an illustrator: report what the code draws, nothing more, nothing less.

Output: one JSON object that follows the given JSON schema. Every key of the schema is present; use [] for an empty list and null for an absent value. No prose, no Markdown fences.

What to report
- Only entities the code actually draws or names. Never add points, edges or labels that are not written, and never complete a shape that the code leaves open.
- Expand every \foreach loop and every macro (\def, \newcommand, \pgfmathsetmacro): emit one entity per iteration with the variables substituted and arithmetic evaluated to numbers.
- Resolve relative coordinates (+(dx,dy) and ++(dx,dy); ++ moves the current point), named coordinates, calc expressions ($(A)!0.5!(B)$) and polar coordinates (angle:radius) to plain numbers.
- A path with exactly two points joined by -- is a segment; three or more points joined by -- is a polyline (points in drawing order, cycle true only when it ends with "-- cycle"). A path that mixes operations is split into these pieces in order.
- "circle" with one radius is a circle; "arc" is an arc with its center computed from the start point: center = start - radius * (cos start_angle, sin start_angle).
- "(a) rectangle (b)" is a rectangle with corner_a = a and corner_b = b, unless it is a right-angle mark.
- A right-angle mark (a small square drawn in the corner between two lines, or the "right angle" symbol) goes to right_angles: vertex = the corner of the angle, leg_a and leg_b = the mark's outer points on the two legs. Do not also list it as a rectangle or polyline.
- Nodes: every \node, "node" on a path, and label= gives a node. "at" is the point the node is placed at, "text" is the text between the braces exactly as written (keep TeX commands and $...$), "anchor" is the anchor= or placement key (above, below left, ...) or "center" when none is given. font_size is the size command in effect (\small -> "small"), null when none. rotate is the node's own rotate=, draw is true when the node has draw. For a node on a path segment (midway, pos=) give the point it lands on.
- \clip paths go to clips in order.

Numbers and units
- Coordinates are TikZ coordinates as written: a unit-less number stays a number (the verifier applies the x/y/z unit vectors itself). A coordinate written with a unit (2pt, 1in, 5mm) is converted to cm.
- picture.x / picture.y / picture.z: the x=, y=, z= options of the tikzpicture as vectors in cm (x=2cm -> [2, 0]; y={(0,1.5)} -> [0, 1.5]); picture.scale: its scale=. null when not given.
- Do not apply transforms. Give them in "transform": a list of steps, outermost scope first and the entity's own options last; each step has shift (a coordinate, as written), xshift and yshift (dimensions as strings exactly as written, e.g. "-2in", "3pt"), rotate (degrees) and scale, null for what the step does not set. Never fold xshift/yshift into shift. An entity with no transform has [].
- "line" is the 1-based source line of the statement that produced the entity.)prompt";
}

namespace {

// "  12| text": the model reports `line` per entity, and counting lines itself is unreliable.
std::string with_line_numbers(const std::string& text) {
  std::string out;
  std::size_t line = 1, start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    if (start == text.size() && start != 0) break;  // no empty line after a final newline
    std::string number = std::to_string(line++);
    out += std::string(number.size() < 4 ? 4 - number.size() : 0, ' ') + number + "| ";
    out.append(text, start, end - start);
    out += '\n';
    start = end + 1;
  }
  return out;
}

}  // namespace

nlohmann::json chat_request(const std::string& source_text, const Settings& s) {
  // Meta keywords are documentation; some servers' strict mode rejects them.
  nlohmann::json schema = llm_ir_schema();
  schema.erase("$schema");
  schema.erase("$id");
  nlohmann::json req = {
      {"model", s.model},
      {"temperature", 0},
      {"messages",
       nlohmann::json::array(
           {{{"role", "system"}, {"content", system_prompt()}},
            {{"role", "user"},
             {"content", "TikZ source, each line prefixed with its line number and '| ':\n\n" +
                             with_line_numbers(source_text)}}})},
      {"response_format",
       {{"type", "json_schema"},
        {"json_schema", {{"name", "tikzlint_ir"}, {"schema", schema}, {"strict", true}}}}},
  };
  if (s.max_tokens > 0) req["max_tokens"] = s.max_tokens;
  return req;
}

}  // namespace detail
}  // namespace tikzlint::backtranslate
