// grammar/grammar.hpp: the public face of the TikZ statement parser (ANTLR4, TikZ.g4).
// Input: one expanded statement from tex/. Output: a syntax tree of path operations whose
// leaves keep their raw text (options, coordinates, node text) and byte spans in the statement.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tikzlint::grammar {

struct Span {
  std::uint32_t begin = 0, end = 0;  // byte offsets into the statement text
};

struct Options {
  std::string raw;  // text between [ and ], braces kept
  Span span;        // including the brackets
};

// A coordinate as written, decomposed. Exactly one form is set.
struct Coordinate {
  enum class Form {
    Cartesian,      // (x,y) or (x,y,z): `parts` holds 2 or 3 expressions
    Polar,          // (a:r) or (a:rx and ry): parts = {angle, r} or {angle, rx, ry}
    Named,          // (A) or (A.north) or (A.30): name, anchor
    Perpendicular,  // (A |- B) / (A -| B): sub[0], sub[1]; hv = true for |-
    Calc,           // ($ ... $): calc holds the raw text between the dollars
    Intersection,   // (intersection of A--B and C--D) / (intersection cs: ...)
    Raw,            // anything else (cs: forms, let-registers \p1): raw text
  };
  Form form = Form::Raw;
  enum class Relative { None, Plus, PlusPlus } relative = Relative::None;
  std::string raw;                 // text between ( and ), or between $ and $
  std::vector<std::string> parts;  // Cartesian / Polar expressions
  std::string name, anchor;        // Named
  bool hv = true;                  // Perpendicular: true for "|-", false for "-|"
  std::vector<Coordinate> sub;     // Perpendicular, Intersection operands
  std::optional<Options> options;  // ([opts] x,y)
  Span span;                       // including + / ++ and the parentheses
};

struct Node;

enum class OpKind {
  Move,        // a coordinate with no preceding connector
  Line,        // -- c
  HV,          // |- c
  VH,          // -| c
  Cycle,       // -- cycle (also after |- / -|)
  Curve,       // .. controls c1 [and c2] .. c
  Rectangle,   // rectangle c
  Circle,      // circle (r) | circle [opts]
  Ellipse,     // ellipse (rx and ry)
  Arc,         // arc (a:b:r) | arc (a:b:rx and ry) | arc [opts]
  Grid,        // grid [opts] c
  Parabola,    // parabola [opts] [bend c] c
  Sine,        // sin c
  Cosine,      // cos c
  To,          // to [opts] c   (also "edge")
  Edge,        // edge [opts] c
  Plot,        // plot [opts] coordinates {...} | plot (expr) | plot file
  NodeOp,      // node ... on a path
  CoordinateOp,// coordinate (name) on a path
  Options,     // [opts] in the middle of a path
  Let,         // let \p1 = (...), \n1 = {...} in
  PicOp,       // pic ... {name}
  Unknown,     // anything the grammar could not classify (kept for a diagnostic)
};

struct Node {
  std::optional<Options> options;
  std::string name;               // (name)
  std::optional<Coordinate> at;   // at (c)
  std::string text;               // contents between the braces, without them
  Span text_span;
  bool has_text = false;
  std::vector<std::string> foreach_unrolled;  // reserved
  Span span;
  bool is_coordinate = false;     // written as `coordinate` (no text, no shape)
  bool is_pic = false;            // a pic written between an operation and its target
  std::vector<Span> unsupported;  // inside the node: animations `:key = {...}` and a
                                  // `foreach \x in {..}` the expander did not unroll
  // Several option lists (`\node[a] (n) [b] {t}`) are joined with ',' into `options.raw`;
  // `options.span` then runs from the first '[' to the last ']'. `text_span` excludes the braces.
  // For a PicOp, `text` is the pic type and its argument, e.g. "angle = A--B--C".
};

// One `\p1 = (A)` or `\n1 = {veclen(\x1,\y1)}` of a let operation.
struct LetBinding {
  std::string reg;                  // "\p1", "\n1", "\p{name}"
  std::optional<Coordinate> point;  // \p registers: the coordinate
  std::string value;                // \n registers: the expression between the braces
  Span span;
};

struct PathOp {
  OpKind kind = OpKind::Unknown;
  Span span;
  std::vector<Coordinate> coords;   // target (last) and control points / corners
  std::optional<Options> options;   // circle[...], arc[...], grid[...], to[...], edge[...], plot[...]
  std::string argument;             // raw text of ( ... ) argument for circle/ellipse/arc, plot expr
  std::optional<Node> node;         // NodeOp, CoordinateOp, and nodes attached to to/edge
  std::vector<Node> edge_nodes;     // nodes written inside a to/edge operation
  std::string raw;                  // source text of the operation
  bool to_cycle = false;            // the target is `cycle`: Cycle ops (argument holds the
                                    // connector "--", "|-" or "-|"), and `.. controls ..`/to/edge
  std::string plot_kind;            // Plot: "coordinates" (coords = the list), "expression"
                                    // (coords = {the (x,y) template}), "file", "function";
                                    // argument holds the raw text inside the braces/parens
  std::vector<LetBinding> let_bindings;  // Let
  bool plot_connected = false;      // Plot written as `-- plot ...`: a line joins the current
                                    // point to the plot's first point (pgfmanual 22.2)
  // An animation `:key = {...}` on a path is an Unknown op (static geometry ignores it).
  // Nodes written between an operation and its target (`-- node{x} (1,0)`, `to node{x} (b)`)
  // go to edge_nodes for every operation kind. TikZ reinserts them after the target with `pos`
  // set to the implicit pos of the surrounding scope: midway unless a scope says near start,
  // near end, ... (pgfmanual 17.8.3). Explicit node options still win.
  // Parabola: coords = {bend, target} when `bend` is given, else {target}.
  // Curve: coords = {c1, [c2], target}; the target is absent when to_cycle.
};

struct Statement {
  std::string command;             // "draw", "path", "fill", "filldraw", "shade", "shadedraw",
                                   // "clip", "node", "coordinate", "pic", "matrix", "useasboundingbox"
  std::optional<Options> options;  // \draw[...]
  std::vector<PathOp> ops;         // for \node / \coordinate: a single NodeOp / CoordinateOp
  Span span;
};

struct SyntaxError {
  std::string message;  // lowercase, no final period
  Span span;
};

struct ParseResult {
  std::vector<Statement> statements;  // usually one; a statement text may hold several
  std::vector<SyntaxError> errors;    // recovered at the next ';'
};

// Parse one or more statements (each ending in ';'). The text is split at ';' outside braces;
// a statement with a syntax error is dropped with one SyntaxError (its first error) and
// parsing resumes after its ';'. A missing final ';' is an error too. Never throws: binary
// junk, unbalanced groups and nesting deeper than kMaxGroupNesting become errors. Operations
// the grammar does not know (decorate, svg, child, \pgfextra, leftover foreach) are kept as
// OpKind::Unknown with their span, not as errors. Thread-safe; per-thread parser objects.
ParseResult parse(std::string_view text);

// Which parser reads each statement: the hand-written twin of TikZ.g4 first, ANTLR for what it
// does not accept (the default; same trees, same errors), or ANTLR alone (for tests).
enum class ParserChoice { fast_then_antlr, antlr };
ParseResult parse(std::string_view text, ParserChoice choice);

// Parse the inside of a coordinate (text between parentheses) into its form. Spans are
// offsets into `inner` plus `base` (the statement parser passes the position of `inner`).
Coordinate parse_coordinate(std::string_view inner, std::uint32_t base = 0);

// A calc expression `$...$` (pgfmanual 13.5) decomposed: a sum of terms, each an optional
// factor times a coordinate followed by any number of `!..!` modifiers.
struct CalcModifier {
  enum class Kind {
    Partway,     // (A)!t!(B), t a number or {expression}
    Distance,    // (A)!1cm!(B): the amount ends in a TeX unit (pt, cm, mm, in, bp, ...)
    Projection,  // (A)!(P)!(B): the foot of P on the line AB
  };
  Kind kind = Kind::Partway;
  std::string amount;   // Partway / Distance: as written ("0.5", "{1/3}", "2mm")
  std::string angle;    // "90" in (A)!.5!90:(B), else empty
  Coordinate through;   // Projection: P
  Coordinate target;    // B
};
struct CalcTerm {
  bool negate = false;  // written with a leading '-'
  std::string factor;   // "2" in 2*(A), "{sqrt(2)}" in {sqrt(2)}*(A); empty if none
  Coordinate point;
  std::vector<CalcModifier> modifiers;
  Span span;
};
struct CalcExpr {
  std::vector<CalcTerm> terms;
};

// Decompose the text of a Form::Calc coordinate (between the dollars); nullopt if it is not
// a sum of the forms above. Spans are offsets into `text` plus `base`.
std::optional<CalcExpr> parse_calc(std::string_view text, std::uint32_t base = 0);

// Every `(...)`, `+(...)`, `++(...)` coordinate in `text` (a plot coordinates list).
std::vector<Coordinate> parse_coordinate_list(std::string_view text, std::uint32_t base = 0);

// Bounds that keep hostile input from exhausting the stack (pgf has no such limit; we need one).
inline constexpr std::size_t kMaxGroupNesting = 256;  // nested { [ ( in one statement
inline constexpr std::size_t kMaxCoordinateNesting = 16;  // |- / intersection operands

}  // namespace tikzlint::grammar
