// ir/library_keys.cpp: the keys TikZ libraries define, as the library sources define them
// (tex/generic/pgf/frontendlayer/tikz/libraries/). Styles that only combine keys lowering already
// knows are installed in the style table verbatim (kLibraryStyles); keys whose effect is code
// (a symbol on a `to`, an arrow after a node, a new coordinate frame) are applied here and leave
// what they draw in Settings::lib for lower.cpp. Anything not modelled stays an unknown key.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <numbers>
#include <unordered_set>

#include "ir/chains.hpp"
#include "ir/coords.hpp"
#include "ir/lowering.hpp"
#include "ir/mindmap.hpp"
#include "ir/textmetrics.hpp"
#include "support/ascii.hpp"

namespace tikzlint::ir {
namespace {

constexpr double kDeg = std::numbers::pi / 180.0;

// tikzlibrarytopaths.code.tex: loop/.style = [looseness=8, min distance=5mm, every loop].
constexpr double kLoopLooseness = 8;
constexpr double kLoopMinDistance = 0.5 * kPtPerCm;
// tikzlibrarytopaths.code.tex \tikz@to@compute@distance@main: controls at 0.3915 x the distance.
constexpr double kCurveToFactor = 0.3915;
// tikzlibraryperspective.code.tex: 3d view/.default={-30}{15}.
constexpr double kDefaultViewAzimuth = -30, kDefaultViewElevation = 15;

// Styles of the libraries, copied from their \tikzset calls. Changes from the sources: `/.try`
// is spelled as a plain `every ...` key (an undefined `every` style is a no-op either way),
// `\pgfutil@font@tiny` is `\tiny`, and keys that only paint inside a symbol are left out
// (`/pgf/generic diode IEC/before background`, `cap=round`). Each entry is one \tikzset body.
struct LibraryStyles {
  const char* source;
  const char* body;
};
constexpr LibraryStyles kLibraryStyles[] = {
    {"tikzlibrarypetri.code.tex", R"(
      every place/.style={}, place/.style={circle,draw,inner sep=0pt,minimum size=5ex,every place},
      every transition/.style={},
      transition/.style={rectangle,draw,inner sep=0pt,minimum size=4mm,every transition},
      pre/.style={<-,shorten <=1pt}, post/.style={->,shorten >=1pt},
      pre and post/.style={<->,shorten >=1pt,shorten <=1pt},
      every token/.style={},
      token/.style={fill=black,draw=none,circle,inner sep=0.5pt,minimum size=1ex,text=white,font=\tiny,
                    every token})"},
    {"tikzlibraryautomata.code.tex", R"(
      every state/.style={},
      state without output/.style={circle,draw,minimum size=2.5em,every state},
      state with output/.style={circle split,draw,minimum size=2.5em,every state},
      accepting by double/.style={double,outer sep=.5\pgflinewidth+.3pt},
      every accepting by arrow/.style={}, every initial by arrow/.style={},
      initial by diamond/.style={shape=diamond},
      initial above/.style={initial by arrow,initial where=above},
      initial below/.style={initial by arrow,initial where=below},
      initial left/.style={initial by arrow,initial where=left},
      initial right/.style={initial by arrow,initial where=right},
      accepting above/.style={accepting by arrow,accepting where=above},
      accepting below/.style={accepting by arrow,accepting where=below},
      accepting left/.style={accepting by arrow,accepting where=left},
      accepting right/.style={accepting by arrow,accepting where=right},
      state/.style={state without output}, accepting/.style={accepting by double},
      initial/.style={initial by arrow})"},
    {"tikzlibraryer.code.tex", R"(
      every entity/.style={},
      entity/.style={rectangle,draw,minimum height=2\baselineskip,minimum width=4\baselineskip,every entity},
      every relationship/.style={},
      relationship/.style={diamond,draw,minimum size=1.5\baselineskip,inner sep=1pt,every relationship},
      every attribute/.style={},
      attribute/.style={minimum size=1.5\baselineskip,ellipse,draw,every attribute},
      key attribute/.style={font=\itshape,attribute})"},
    {"tikzlibrarytopaths.code.tex", R"(
      every loop/.style={->,shorten >=1pt},
      loop right/.style={right,out=15,in=-15,loop}, loop above/.style={above,out=105,in=75,loop},
      loop left/.style={left,out=195,in=165,loop}, loop below/.style={below,out=285,in=255,loop})"},
    {"tikz.code.tex (edge labels)", R"(
      edge label/.style={edge node={node[auto]{#1}}}, edge label'/.style={edge node={node[auto,swap]{#1}}})"},
    {"tikzlibrarybackgrounds.code.tex", R"(
      background rectangle/.style={draw}, background top/.style={draw}, background bottom/.style={draw},
      background left/.style={draw}, background right/.style={draw}, background grid/.style={help lines,draw},
      loose background/.style={inner frame sep=2ex}, tight background/.style={inner frame sep=0ex},
      framed/.style={show background rectangle}, gridded/.style={show background grid})"},
    {"tikz.code.tex", R"(
      style/.style={#1})"},
    {"tikzlibraryshapes.gates.logic.IEC.code.tex, tikzlibraryshapes.gates.logic.US.code.tex", R"(
      use IEC style logic gates/.code={\tikzset{and gate/.style={shape=and gate IEC},
        nand gate/.style={shape=nand gate IEC}, or gate/.style={shape=or gate IEC},
        nor gate/.style={shape=nor gate IEC}, xor gate/.style={shape=xor gate IEC},
        xnor gate/.style={shape=xnor gate IEC}, not gate/.style={shape=not gate IEC},
        buffer gate/.style={shape=buffer gate IEC},
        logic gate symbol align/.style={logic gate IEC symbol align={##1}},
        logic gate symbol color/.style={logic gate IEC symbol color={##1}}}},
      use US style logic gates/.code={\tikzset{and gate/.style={shape=and gate US},
        nand gate/.style={shape=nand gate US}, or gate/.style={shape=or gate US},
        nor gate/.style={shape=nor gate US}, xor gate/.style={shape=xor gate US},
        xnor gate/.style={shape=xnor gate US}, not gate/.style={shape=not gate US},
        buffer gate/.style={shape=buffer gate US}}})"},
    {"tikzlibraryperspective.code.tex", R"(
      isometric view/.style={3d view={-45}{atan(1/sqrt(2))}})"},
    // mindmap: `mindmap` and its variants, `concept` and `extra concept` need the concept color
    // and are applied in apply_library_key; the concept sizes come from ir/mindmap.hpp
    {"tikzlibrarymindmap.code.tex", R"(
      every concept/.style={}, every extra concept/.style={}, every mindmap/.style={},
      every annotation/.style={}, every circle connection bar/.style={},
      concept connection/.style={line width=1mm,shorten <=2mm,shorten >=2mm,cap=round,draw=black!50},
      annotation/.style={shape=rectangle,minimum size=0pt,text width=3.5cm,outer sep=1.5mm,inner sep=1mm,
                         text badly ragged,rounded corners,font=\tiny,every annotation})"},
    // circuits: `circuit` itself is applied in apply_library_key (its `execute at begin to`)
    {"tikzlibrarycircuits.code.tex", R"(
      circuit declare symbol/.style={
        #1/.style={circuit handle symbol={inner sep=0.5pt,every circuit symbol,#1/graphic,every #1,##1}},
        #1/graphic/.style={},
        set #1 graphic/.style={#1/graphic/.style={##1}}},
      circuit symbol size/.style args={width #1 height #2}{
        minimum width={(#1)*\tikzcircuitssizeunit},minimum height={(#2)*\tikzcircuitssizeunit}},
      huge circuit symbols/.style={circuit symbol unit=10pt},
      large circuit symbols/.style={circuit symbol unit=8pt},
      medium circuit symbols/.style={circuit symbol unit=7pt},
      small circuit symbols/.style={circuit symbol unit=6pt},
      tiny circuit symbols/.style={circuit symbol unit=5pt},
      circuit declare unit/.style 2 args={
        #1/.style={circuit unit info={}{#2}{#1}{##1}},
        #1 sloped/.style={circuit unit info={ sloped}{#2}{#1}{##1}},
        #1'/.style={circuit unit info={'}{#2}{#1}{##1}},
        #1' sloped/.style={circuit unit info={' sloped}{#2}{#1}{##1}}},
      point up/.style={rotate=90}, point down/.style={rotate=-90}, point left/.style={rotate=180},
      point right/.style={},
      every circuit symbol/.style={}, circuit symbol open/.style={draw},
      circuit symbol filled/.style={draw,fill=black}, circuit symbol lines/.style={draw},
      circuit symbol wires/.style={draw})"},
    {"tikzlibrarycircuits.ee.code.tex", R"(
      circuit ee/.style={circuit,every circuit ee},
      current direction ee graphic/.style={shape=direction ee,circuit symbol filled,
        minimum width=.5*\tikzcircuitssizeunit+.3*\pgflinewidth,
        minimum height=.5*\tikzcircuitssizeunit+.3*\pgflinewidth,transform shape},
      current direction' ee graphic/.style={current direction ee graphic,rotate=180},
      current direction/graphic/.style={current direction ee graphic},
      current direction'/graphic/.style={current direction' ee graphic})"},
    {"tikzlibrarycircuits.ee.IEC.code.tex", R"(
      resistor IEC graphic/.style={circuit symbol open,circuit symbol size=width 4 height 1,
                                   shape=rectangle ee,transform shape},
      var resistor IEC graphic/.style={circuit symbol lines,circuit symbol size=width 4.8 height 0.8,
                                       shape=var resistor IEC,transform shape,outer sep=0pt},
      inductor IEC graphic/.style={circuit symbol lines,circuit symbol size=width 4 height .5,transform shape,
                                   shape=inductor IEC,outer sep=0pt},
      var inductor IEC graphic/.style={circuit symbol filled,circuit symbol size=width 4 height 1,
                                       transform shape,shape=rectangle ee},
      capacitor IEC graphic/.style={circuit symbol lines,circuit symbol size=width .5 height 2,transform shape,
                                    shape=capacitor IEC},
      ground IEC graphic/.style={circuit symbol lines,circuit symbol size=width .75 height 2,transform shape,
                                 shape=ground IEC},
      battery IEC graphic/.style={circuit symbol lines,circuit symbol size=width .5 height 2.5,transform shape,
                                  shape=battery IEC},
      diode IEC graphic/.style={circuit symbol open,circuit symbol size=width 1.25 height 1.25,transform shape,
                                shape=generic diode IEC},
      var diode IEC graphic/.style={diode IEC graphic,circuit symbol filled},
      Zener diode IEC graphic/.style={diode IEC graphic},
      var Zener diode IEC graphic/.style={Zener diode IEC graphic,circuit symbol filled},
      Schottky diode IEC graphic/.style={diode IEC graphic},
      var Schottky diode IEC graphic/.style={Schottky diode IEC graphic,circuit symbol filled},
      tunnel diode IEC graphic/.style={diode IEC graphic},
      var tunnel diode IEC graphic/.style={tunnel diode IEC graphic,circuit symbol filled},
      backward diode IEC graphic/.style={diode IEC graphic},
      var backward diode IEC graphic/.style={backward diode IEC graphic,circuit symbol filled},
      breakdown diode IEC graphic/.style={circuit symbol open,circuit symbol size=width 2.5 height 1.25,
                                          transform shape,shape=breakdown diode IEC},
      var breakdown diode IEC graphic/.style={breakdown diode IEC graphic,circuit symbol filled},
      contact IEC graphic/.style={circuit symbol filled,circuit symbol size=width .5 height .5,shape=circle ee,
                                  outer sep=.25\pgflinewidth},
      bulb IEC graphic/.style={circuit symbol lines,circuit symbol size=width 1.5 height 1.5,
                               shape=generic circle IEC,transform shape},
      current source IEC graphic/.style={circuit symbol lines,circuit symbol size=width 2 height 2,
                                         shape=generic circle IEC,transform shape},
      voltage source IEC graphic/.style={circuit symbol lines,circuit symbol size=width 2 height 2,
                                         shape=generic circle IEC,transform shape},
      make contact IEC graphic/.style={circuit symbol wires,circuit symbol size=width 2 height 1,
                                       transform shape,shape=make contact IEC,outer sep=0pt},
      var make contact IEC graphic/.style={circuit symbol wires,circuit symbol size=width 2.4 height 1,
                                           transform shape,shape=var make contact IEC,outer sep=0pt},
      break contact IEC graphic/.style={circuit symbol wires,circuit symbol size=width 2 height 1,
                                        transform shape,shape=break contact IEC,outer sep=0pt},
      amperemeter graphic/.style={circuit symbol open,circuit symbol size=width 2 height 2,transform shape,
                                  shape=generic circle IEC,info=center:A},
      voltmeter graphic/.style={circuit symbol open,circuit symbol size=width 2 height 2,transform shape,
                                shape=generic circle IEC,info=center:V},
      ohmmeter graphic/.style={circuit symbol open,circuit symbol size=width 2 height 2,transform shape,
                               shape=generic circle IEC,info=center:$\Omega$},
      ac source graphic/.style={circuit symbol lines,circuit symbol size=width 2 height 2,
                                shape=generic circle IEC,transform shape},
      dc source graphic/.style={circuit symbol lines,circuit symbol size=width 2 height 2,
                                shape=generic circle IEC,transform shape},
      circuit ee IEC/.style={circuit ee,
        set resistor graphic=resistor IEC graphic, set inductor graphic=inductor IEC graphic,
        set capacitor graphic=capacitor IEC graphic, set contact graphic=contact IEC graphic,
        set ground graphic=ground IEC graphic, set battery graphic=battery IEC graphic,
        set diode graphic=diode IEC graphic, set Zener diode graphic=Zener diode IEC graphic,
        set tunnel diode graphic=tunnel diode IEC graphic,
        set backward diode graphic=backward diode IEC graphic,
        set Schottky diode graphic=Schottky diode IEC graphic,
        set breakdown diode graphic=breakdown diode IEC graphic, set bulb graphic=bulb IEC graphic,
        set voltage source graphic=voltage source IEC graphic,
        set current source graphic=current source IEC graphic,
        set make contact graphic=make contact IEC graphic, set break contact graphic=break contact IEC graphic,
        set amperemeter graphic=amperemeter graphic, set voltmeter graphic=voltmeter graphic,
        set ohmmeter graphic=ohmmeter graphic, set ac source graphic=ac source graphic,
        set dc source graphic=dc source graphic})"},
    {"tikzlibrarycircuits.logic.code.tex", R"(
      circuit logic/.style={circuit,inputs/.style={logic gate inputs={##1}},
                            logic gate inverted radius=.25\tikzcircuitssizeunit,every circuit logic})"},
    {"tikzlibrarycircuits.logic.IEC.code.tex", R"(
      circuit logic IEC make graphic/.style={#1 graphic/.style={circuit symbol open,
        circuit symbol size=width 2.5 height 4,shape=#1,inner sep=.5ex}},
      circuit logic IEC/.style={circuit logic,
        set and gate graphic=and gate IEC graphic, set nand gate graphic=nand gate IEC graphic,
        set or gate graphic=or gate IEC graphic, set nor gate graphic=nor gate IEC graphic,
        set xor gate graphic=xor gate IEC graphic, set xnor gate graphic=xnor gate IEC graphic,
        set not gate graphic=not gate IEC graphic, set buffer gate graphic=buffer gate IEC graphic})"},
    {"tikzlibrarycircuits.logic.US.code.tex", R"(
      circuit logic US make graphic/.style={#1 graphic/.style={circuit symbol open,
        circuit symbol size=width 0 height 2.5,shape=#1,transform shape}},
      circuit logic US/.style={circuit logic,
        set and gate graphic=and gate US graphic, set nand gate graphic=nand gate US graphic,
        set or gate graphic=or gate US graphic, set nor gate graphic=nor gate US graphic,
        set xor gate graphic=xor gate US graphic, set xnor gate graphic=xnor gate US graphic,
        set not gate graphic=not gate US graphic, set buffer gate graphic=buffer gate US graphic},
      circuit logic CDH/.style={circuit logic US,
        set and gate graphic=and gate CDH graphic, set nand gate graphic=nand gate CDH graphic})"},
};

// What the libraries declare with `circuit declare symbol=`, `circuit declare unit=` and
// `circuit logic IEC/US make graphic=` when loaded; install_library_styles writes out the
// definitions those styles make (kLibraryStyles above), so that each is one named definition.
constexpr std::string_view kCircuitSymbols[] = {
    // tikzlibrarycircuits.ee.code.tex
    "resistor", "inductor", "capacitor", "contact", "ground", "battery", "diode", "Zener diode",
    "Schottky diode", "tunnel diode", "backward diode", "breakdown diode", "bulb", "current source",
    "voltage source", "current direction", "current direction'", "make contact", "break contact",
    "amperemeter", "voltmeter", "ohmmeter", "ac source", "dc source",
    // tikzlibrarycircuits.logic.code.tex
    "and gate", "nand gate", "or gate", "nor gate", "xor gate", "xnor gate", "not gate", "buffer gate"};
constexpr std::pair<const char*, const char*> kCircuitUnits[] = {  // tikzlibrarycircuits.ee.code.tex
    {"ampere", "A"}, {"volt", "V"},    {"ohm", "\\Omega"},   {"siemens", "S"}, {"henry", "H"},
    {"farad", "F"},  {"coulomb", "C"}, {"voltampere", "VA"}, {"watt", "W"},    {"hertz", "Hz"}};
constexpr std::string_view kLogicGateShapes[] = {"and gate", "nand gate", "or gate",  "nor gate",
                                            "xor gate", "xnor gate", "not gate", "buffer gate"};

std::string circuit_declarations() {
  std::string out;
  auto symbol = [&](const std::string& n) {
    out += n + "/.style={circuit handle symbol={inner sep=0.5pt,every circuit symbol," + n +
           "/graphic,every " + n + ",#1}}, " + n + "/graphic/.style={}, set " + n + " graphic/.style={" + n +
           "/graphic/.style={#1}},\n";
  };
  for (std::string_view n : kCircuitSymbols) symbol(std::string(n));
  for (const auto& [name, unit] : kCircuitUnits) {
    const std::string n = name, u = unit;
    for (const char* variant : {"", " sloped", "'", "' sloped"})
      out += n + variant + "/.style={circuit unit info={" + variant + "}{" + u + "}{" + n + "}{#1}},\n";
  }
  // circuit logic IEC make graphic / circuit logic US make graphic (and the CDH gates of both)
  for (std::string_view g : kLogicGateShapes) {
    for (const char* style : {" IEC", " US"}) {
      const std::string shape = std::string(g) + style;
      out += shape + " graphic/.style={circuit symbol open,circuit symbol size=width " +
             (std::string(style) == " IEC" ? "2.5 height 4,shape=" + shape + ",inner sep=.5ex"
                                           : "0 height 2.5,shape=" + shape + ",transform shape") +
             "},\n";
    }
  }
  out +=
      "and gate CDH graphic/.style={circuit symbol open,circuit symbol size=width 0 height 2.5,"
      "shape=and gate CDH,transform shape},\n"
      "nand gate CDH graphic/.style={circuit symbol open,circuit symbol size=width 0 height 2.5,"
      "shape=nand gate CDH,transform shape}";
  return out;
}

// The library definitions, each under its name, built once.
struct LibraryTable {
  tex::StyleTable table;
  std::vector<std::string> names;
};
const LibraryTable& library_table() {
  static const LibraryTable lib = [] {
    LibraryTable out;
    std::vector<std::string> bodies;
    for (const auto& l : kLibraryStyles) bodies.emplace_back(l.body);
    bodies.push_back(circuit_declarations());
    bodies.push_back(concept_style_definitions(kConceptSizes[0], true));
    for (const std::string& body : bodies) {
      for (const auto& item : tex::split_options(body)) {
        const std::string key = tex::normalise_key(item.key);
        const std::size_t handler = key.find("/.");
        if (handler != std::string::npos) out.names.push_back(key.substr(0, handler));
      }
      out.table.run_tikzset("\\tikzset{" + body + "}", nullptr);
    }
    return out;
  }();
  return lib;
}

// The shapes of the circuit shape libraries (libraries/shapes/circuits/), which TikZ also accepts
// as keys (`\node[and gate US]`); like the other library shapes they are NodeShape::other.
constexpr std::string_view kCircuitShapes[] = {
    "and gate CDH",         "and gate IEC",    "and gate US",    "nand gate CDH",    "nand gate IEC",
    "nand gate US",         "or gate IEC",     "or gate US",     "nor gate IEC",     "nor gate US",
    "xor gate IEC",         "xor gate US",     "xnor gate IEC",  "xnor gate US",     "not gate IEC",
    "not gate US",          "buffer gate IEC", "buffer gate US", "battery IEC",      "break contact IEC",
    "breakdown diode IEC",  "capacitor IEC",   "circle ee",      "direction ee",     "generic circle IEC",
    "generic diode IEC",    "ground IEC",      "inductor IEC",   "make contact IEC", "rectangle ee",
    "var make contact IEC", "var resistor IEC"};

// Parameters of the shape libraries' shapes (pgflibraryshapes.*.code.tex, shapes/circuits/). The
// shapes themselves are NodeShape::other, sized like a rectangle (lower_keys.cpp kOtherShapes),
// so their parameters change nothing lowering measures, as the ones listed in kCosmetic.
constexpr std::string_view kShapeParameters[] = {
    "arrow box east arrow", "arrow box head extend", "arrow box head indent", "arrow box north arrow",
    "arrow box shaft width", "arrow box south arrow", "arrow box tip angle", "arrow box west arrow",
    "arrow box arrows", "callout pointer arc", "callout pointer end size", "callout pointer segments",
    "callout pointer shorten", "callout pointer start size", "callout pointer width",
    "callout relative pointer", "callout pointer anchor aspect", "chamfered rectangle angle",
    "chamfered rectangle xsep", "chamfered rectangle ysep", "chamfered rectangle sep",
    "cloud anchors use ellipse", "double arrow head indent", "double arrow tip angle",
    "isosceles triangle stretches", "kite vertex angles", "magnifying glass handle angle",
    "magnifying glass handle aspect", "magnetic tape tail", "magnetic tape tail extend",
    "rectangle split allocate boxes", "rectangle split draw splits", "rectangle split empty part depth",
    "rectangle split empty part height", "rectangle split empty part width",
    "rectangle split every empty part", "rectangle split ignore empty parts", "rectangle split part align",
    "rectangle split part fill", "rectangle split uses custom fill", "regular polygon rotate",
    "rounded rectangle east arc", "rounded rectangle left arc", "rounded rectangle right arc",
    "rounded rectangle west arc", "signal pointer angle", "single arrow head indent", "star rotate",
    "tape bend", "trapezium stretches", "trapezium stretches body",
    // the logic gate shapes (pgflibraryshapes.gates.logic.*.code.tex)
    "logic gate inputs", "logic gate inverted radius", "logic gate input sep",
    "logic gate anchors use bounding box", "logic gate IEC symbol align", "logic gate IEC symbol color",
    "and gate IEC symbol", "nand gate IEC symbol", "or gate IEC symbol", "nor gate IEC symbol",
    "xor gate IEC symbol", "xnor gate IEC symbol", "not gate IEC symbol", "buffer gate IEC symbol"};

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_ascii_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_ascii_space(s.back())) s.remove_suffix(1);
  return s;
}
bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
bool is_false(const tex::FlatKey& k) { return k.has_value && trim(k.value) == "false"; }

std::string fmt(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6f", v);
  return buf;
}

// Evaluation of a key's value in the node font, with the library length registers substituted.
struct Evaluator {
  const Settings& s;
  const tex::FlatKey& k;
  std::uint32_t b, e;
  std::vector<LowerProblem>& problems;
  std::optional<MathValue> math(const std::string& text) const {
    std::string err;
    auto v = eval_math(substitute_library_lengths(text, s), font_units_of(s), &err);
    if (!v) problems.push_back({"math-error", "in key '" + k.key + "': " + err, b, e, true});
    return v;
  }
  std::optional<double> num(const std::string& text) const {
    auto v = math(text);
    return v ? std::optional<double>(v->value) : std::nullopt;
  }
};

// The (...) groups of a value such as "(a) (b.north) (1,2)", without the parentheses.
std::vector<std::string> paren_groups(std::string_view v) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (v[i] != '(') continue;
    int depth = 0;
    std::size_t j = i;
    for (; j < v.size(); ++j) {
      if (v[j] == '(') ++depth;
      if (v[j] == ')' && --depth == 0) break;
    }
    out.emplace_back(trim(v.substr(i + 1, j - i - 1)));
    i = j;
  }
  return out;
}

// A coordinate that names a node (no ',', ':', '.', calc or let syntax): pgf's fit takes its
// four compass anchors (tikzlibraryfit.code.tex \tikz@lib@fit@scan@handle, \iftikz@shapeborder).
bool is_bare_name(std::string_view t) {
  if (t.empty() || t.front() == '[') return false;
  for (char ch : t)
    if (std::strchr(",:.$!|\\+", ch) != nullptr) return false;
  return true;
}

// Apply keys that came out of an option text, located at the key that carried them.
void apply_nested(const KeyApplier& ka, Settings& s, const std::string& options, KeyTarget target,
                  std::uint32_t b, std::uint32_t e, std::vector<LowerProblem>& problems) {
  if (!ka.expand_options) return;
  for (auto k : ka.expand_options(options)) {
    k.begin = k.end = 0;
    ka.apply_one(s, k, target, b, e, problems);
  }
}

// `[options]text` of an info label (tikzlibrarycircuits.code.tex \tikz@lib@circ@lab@plain).
std::pair<std::string, std::string> split_leading_options(std::string_view v) {
  v = trim(v);
  if (v.empty() || v.front() != '[') return {"", std::string(v)};
  int depth = 0;
  for (std::size_t j = 0; j < v.size(); ++j) {
    if (v[j] == '[' || v[j] == '{') ++depth;
    if ((v[j] == ']' || v[j] == '}') && --depth == 0)
      return {std::string(v.substr(1, j - 1)), std::string(trim(v.substr(j + 1)))};
  }
  return {"", std::string(v)};
}

// The angle of an automata `initial where` / `accepting where` direction.
std::optional<double> where_angle(const std::string& where) {
  if (where == "above") return 90;
  if (where == "below") return 270;
  if (where == "left") return 180;
  if (where == "right") return 0;
  return std::nullopt;
}
const char* where_anchor(const std::string& where) {
  return where == "above" ? "south" : where == "below" ? "north" : where == "left" ? "east" : "west";
}

// tikzlibrarypetri.code.tex \tikz@def@grow@tokens: the offsets of n tokens, in token distances.
struct TokenOffset {
  double x, y;
};
const std::vector<TokenOffset>& token_offsets(std::size_t n) {
  static const std::vector<std::vector<TokenOffset>> kOffsets = {
      {{0, 0}},
      {{-.5, 0}, {.5, 0}},
      {{0, 0.57}, {-.5, -.306025}, {.5, -.306025}},
      {{-.5, .5}, {.5, .5}, {-.5, -.5}, {.5, -.5}},
      {{0, .85}, {-0.808398, 0.26266}, {0.808398, 0.26266}, {-0.499617, -0.687664}, {0.499617, -0.687664}},
      {{-1, .5}, {0, .5}, {1, .5}, {-1, -.5}, {0, -.5}, {1, -.5}},
      {{0, 1}, {-1, .5}, {0, 0}, {1, .5}, {-1, -.5}, {0, -1}, {1, -.5}},
      {{-.5, 1}, {.5, 1}, {-1, 0}, {0, 0}, {1, 0}, {-1, -1}, {0, -1}, {1, -1}},
      {{-1, 1}, {0, 1}, {1, 1}, {-1, 0}, {0, 0}, {1, 0}, {-1, -1}, {0, -1}, {1, -1}}};
  return kOffsets[n - 1];
}
constexpr std::size_t kMaxTokens = 9;  // the library defines placements for 1..9 tokens

}  // namespace

void install_library_styles(tex::StyleTable& styles) {
  // The libraries are loaded before the document's own \tikzset: a definition the preamble
  // made already (`place/.style=...`) is the one in force.
  // Looked up after the table's own definitions (a fallback), instead of copying every library
  // style into each diagram's table: the libraries' table is static and shared, never copied.
  const LibraryTable& lib = library_table();
  styles.set_fallback(std::shared_ptr<const tex::StyleTable>(std::shared_ptr<const tex::StyleTable>(), &lib.table));
}

std::string substitute_library_lengths(const std::string& expr, const Settings& s) {
  if (expr.find('\\') == std::string::npos) return expr;
  const FontSpec font = node_font_of(s);
  const std::pair<const char*, double> registers[] = {{"\\baselineskip", baselineskip_for_size(font.size_pt)},
                                                      {"\\pgflinewidth", s.style.line_width},
                                                      {"\\tikzcircuitssizeunit", s.lib->circuit_unit}};
  std::string out = expr;
  for (const auto& [name, pt] : registers) {
    const std::string n = name;
    for (std::size_t at = out.find(n); at != std::string::npos; at = out.find(n, at)) {
      const std::size_t end = at + n.size();
      if (end < out.size() && std::isalpha(static_cast<unsigned char>(out[end]))) {
        at = end;
        continue;
      }
      // TeX reads "2\baselineskip" as a factor times the register
      const bool factor = at > 0 && (std::isdigit(static_cast<unsigned char>(out[at - 1])) ||
                                     out[at - 1] == '.' || out[at - 1] == ')');
      const std::string value = std::string(factor ? "*" : "") + "(" + fmt(pt) + "pt)";
      out.replace(at, n.size(), value);
      at += value.size();
    }
  }
  return out;
}

bool apply_library_key(const KeyApplier& ka, Settings& s, const tex::FlatKey& k, KeyTarget target,
                       std::uint32_t b, std::uint32_t e, std::vector<LowerProblem>& problems) {
  tex::KeyName key(k.key);  // compares with literals by length first (tex/styles.hpp)
  const std::string v(trim(k.value));
  const Evaluator ev{s, k, b, e, problems};
  auto unsupported = [&](const std::string& why) {
    problems.push_back({"unsupported-key", why, b, e, true});
    return true;
  };
  auto transform = [&](const Transform& t) { apply_transform(s, t); };

  // --- animations (pgfmanual 26 "Animations", 26.1.1 and 26.1.2): an animation is an annotation
  // for the viewer and needs the svg driver; the pdf driver's \pgfsys@animate only warns
  // (pgfsys.code.tex), so the static picture is the unanimated one. `base` values are emitted by
  // the svg driver alone (pgfsys-common-svg.def). Snapshots (26.6) do change the static picture.
  if (key == "animate" || starts_with(key, "animate/") || key == "animation list" ||
      key == "animation bounding box") {
    return true;
  }
  if (key == "make snapshot of" || key == "make snapshot after" || key == "make snapshot if necessary") {
    return unsupported("animation snapshot '" + key +
                       "' is not evaluated: the picture shows the animated state");
  }

  // --- 3d library (tikzlibrary3d.code.tex): canvas is ... plane, a triangle transformation that
  // maps the plane's (1,0) and (0,1) to the given 3D points, with unit vectors and no z vector
  struct Plane {
    std::string_view key;
    int x_axis, y_axis, fixed;  // 0 = x, 1 = y, 2 = z
  };
  static constexpr Plane kPlanes[] = {
      {"canvas is xy plane at z", 0, 1, 2}, {"canvas is yx plane at z", 1, 0, 2},
      {"canvas is xz plane at y", 0, 2, 1}, {"canvas is zx plane at y", 2, 0, 1},
      {"canvas is yz plane at x", 1, 2, 0}, {"canvas is zy plane at x", 2, 1, 0}};
  auto set_plane = [&](Point o, Point px, Point py) {
    // \pgftransformtriangle then \pgftransformscale{0.035146}: (1cm,0) -> px, (0,1cm) -> py
    const double u = 1 / kPtPerCm;
    transform(
        Transform::cm((px.x - o.x) * u, (px.y - o.y) * u, (py.x - o.x) * u, (py.y - o.y) * u, o.x, o.y));
    s.xvec = {kPtPerCm, 0};
    s.yvec = {0, kPtPerCm};
    s.zvec = {0, 0};
  };
  for (const auto& pl : kPlanes) {
    if (key != pl.key) continue;
    double at = 0;
    if (k.has_value && !v.empty()) {
      auto d = ev.num(v);
      if (!d) return true;
      at = *d;
    }
    const Point* vecs[3] = {&s.xvec, &s.yvec, &s.zvec};
    auto xyz = [&](int axis, double along) { return along * *vecs[axis] + at * *vecs[pl.fixed]; };
    const Point o = xyz(0, 0);
    set_plane(o, xyz(pl.x_axis, 1), xyz(pl.y_axis, 1));
    return true;
  }
  if (key == "plane origin" || key == "plane x" || key == "plane y") {
    LibrarySettings& lib = s.lib.mut();
    (key == "plane origin" ? lib.plane_origin : key == "plane x" ? lib.plane_x : lib.plane_y) = v;
    return true;
  }
  if (key == "canvas is plane") {
    if (!ka.local_point) return unsupported("'canvas is plane' needs its points");
    auto o = ka.local_point(s.lib->plane_origin, s, b, e);
    auto px = ka.local_point(s.lib->plane_x, s, b, e);
    auto py = ka.local_point(s.lib->plane_y, s, b, e);
    if (o && px && py) set_plane(*o, *px, *py);
    return true;
  }

  // --- perspective library (tikzlibraryperspective.code.tex)
  if (key == "3d view") {
    double az = kDefaultViewAzimuth, el = kDefaultViewElevation;
    if (k.has_value && !v.empty()) {
      auto args = tex::split_brace_args(v, 2);
      auto a = ev.num(args[0]);
      auto l = ev.num(args[1]);
      if (!a || !l) return true;
      az = *a;
      el = *l;
    }
    const double ca = std::cos(az * kDeg), sa = std::sin(az * kDeg), ce = std::cos(el * kDeg),
                 se = std::sin(el * kDeg);
    s.xvec = kPtPerCm * Point{ca, -sa * se};
    s.yvec = kPtPerCm * Point{sa, ca * se};
    s.zvec = kPtPerCm * Point{0, ce};
    return true;
  }
  if (key == "perspective") {
    // /perspective/p={(x,y,z)} sets the first column of the homography, q the second, r the third
    const std::string spec = k.has_value && !v.empty() ? v : "p={(10,0,0)},q={(0,10,0)},r={(0,0,20)}";
    for (const auto& item : tex::split_options(spec)) {
      const std::string name = tex::normalise_key(item.key);
      const int col = name == "p" ? 0 : name == "q" ? 1 : name == "r" ? 2 : -1;
      auto parts = paren_groups(item.value);
      if (col < 0 || parts.size() != 1)
        return unsupported("cannot read the perspective key '" + item.key + "'");
      auto c = tex::split_options(parts[0]);
      if (c.size() != 3) return unsupported("a vanishing point needs three coordinates");
      double xyz[3];
      for (int i = 0; i < 3; ++i) {
        auto d = ev.num(c[static_cast<std::size_t>(i)].key);
        if (!d) return true;
        xyz[i] = *d;
      }
      if (xyz[col] == 0) continue;  // ifthenelse(#1, ...): a zero entry leaves the column alone
      auto& H = s.lib.mut().perspective;  // rows a, b, c, d of three columns each
      for (int row = 0; row < 3; ++row)
        if (row != col) H[static_cast<std::size_t>(row * 3 + col)] = xyz[row] / xyz[col];
      H[static_cast<std::size_t>(9 + col)] = 1 / xyz[col];
    }
    return true;
  }

  // --- circuits (tikzlibrarycircuits.code.tex)
  if (key == "circuit") {
    s.lib.mut().circuit = !is_false(k);
    apply_nested(ka, s, "every circuit", target, b, e, problems);
    return true;
  }
  if (key == "circuit symbol unit") {
    if (auto d = ev.math(v)) s.lib.mut().circuit_unit = d->value;
    return true;
  }
  if (key == "circuit handle symbol") {
    // on a `to` of a circuit the symbol is a node on it (\tikz@lib@circ@on@to); elsewhere its
    // keys apply where it stands, e.g. to a node
    if (s.lib->circuit && target == KeyTarget::op) {
      s.lib.mut().to_symbols.push_back("pos=.5," + v);
      return true;
    }
    apply_nested(ka, s, v, target, b, e, problems);
    return true;
  }
  const bool info = key == "info" || key == "info'" || key == "info sloped" || key == "info' sloped";
  if (info || key == "circuit unit info") {
    // info=[options]angle:text is a label (tikzlibrarycircuits.code.tex \tikz@lib@circ@lab...)
    std::string variant = info ? key.substr(4) : "", text = v, every = "every info";
    if (!info) {
      auto args = tex::split_brace_args(v, 4);  // {variant}{unit}{name}{value}
      variant = args[0];
      every += ",every " + args[2];
      auto [opts, value] = split_leading_options(args[3]);
      text = (opts.empty() ? "" : "[" + opts + "]") + "$\\mathrm{" + value + args[1] + "}$";
    }
    auto [opts, body] = split_leading_options(text);
    std::string label_opts = every + (variant.find("sloped") != std::string::npos ? ",transform shape" : "");
    if (!opts.empty()) label_opts += "," + opts;
    // `label position=below` of info' is the default angle of that label
    const bool primed = variant.find('\'') != std::string::npos;
    s.labels.push_back("[" + label_opts + "]" +
                       (primed && body.find(':') == std::string::npos ? "below:" : "") + body);
    return true;
  }

  // --- chains (tikzlibrarychains.code.tex, ir/chains.cpp, packages/chains/)
  if (is_chain_key(key)) {
    ChainKeyContext cx;
    cx.apply = [&](Settings& t, const std::string& text) { apply_nested(ka, t, text, target, b, e, problems); };
    cx.problem = [&](const std::string& code, const std::string& message) {
      problems.push_back({code, message, b, e, true});
    };
    if (apply_chain_key(cx, s, key, v, k.has_value)) return true;
  }

  // --- spy (tikzlibraryspy.code.tex): the options a scope's \spy commands use (packages/spy/)
  if (key == "spy using outlines" || key == "spy using overlays" || key == "spy scope") {
    const bool outlines = key == "spy using outlines";
    s.lib.mut().spy_scope = key == "spy scope" ? v
                      : std::string("every spy on node/.style={") +
                            (outlines ? "very thin,draw" : "fill,fill opacity=0.2,text opacity=1") +
                            "},every spy in node/.style={" +
                            (outlines ? "thick,draw" : "fill,fill opacity=0.2,text opacity=1") + "}," + v;
    return true;
  }

  // --- Lindenmayer systems: their keys hold in the group, for the path operation (packages/lsystems/)
  if (key == "l-system" || key == "lindenmayer system") {
    std::string& systems = s.lib.mut().lsystem;
    systems += (systems.empty() ? "" : ",") + v;
    return true;
  }

  // --- mindmap (tikzlibrarymindmap.code.tex): concepts are circles in the concept color
  if (key == "concept color") {
    s.lib.mut().concept_color = v;
    return true;
  }
  if (const ConceptSizes* z = mindmap_variant(key)) {
    // `small mindmap` and the others redefine the concept styles, then apply `mindmap`
    if (z != &kConceptSizes[0]) apply_nested(ka, s, concept_style_definitions(*z, true), target, b, e, problems);
    apply_nested(ka, s, mindmap_keys(*z), target, b, e, problems);
    return true;
  }
  if (key == "concept") {
    apply_nested(ka, s, "circle,fill={" + s.lib->concept_color + "},draw={" + s.lib->concept_color + "},every concept",
                 target, b, e, problems);
    return true;
  }
  if (key == "extra concept") {
    apply_nested(ka, s, "concept color=black!50,level 2 concept,concept,every extra concept", target, b, e, problems);
    return true;
  }

  // --- petri (tikzlibrarypetri.code.tex): tokens drawn inside the node after it
  if (key == "tokens" || key == "colored tokens" || key == "structured tokens") {
    if (key == "tokens") {
      auto n = ev.num(v);
      if (!n) return true;
      const long count = std::lround(*n);
      for (long i = 0; i < count; ++i) s.lib.mut().tokens.push_back({"", ""});
    } else {
      for (const auto& item : tex::split_options(v)) {
        if (key == "colored tokens")
          s.lib.mut().tokens.push_back({std::string(trim(item.key)), ""});
        else
          s.lib.mut().tokens.push_back({"", std::string(trim(item.key))});
      }
    }
    if (s.lib->tokens.size() > kMaxTokens) {
      s.lib.mut().tokens.clear();
      return unsupported("more than " + std::to_string(kMaxTokens) +
                         " tokens: pgf has no placement for them");
    }
    return true;
  }
  if (key == "token distance") {
    s.lib.mut().token_distance = v;
    return true;
  }

  // --- automata (tikzlibraryautomata.code.tex): the arrows of initial and accepting states
  if (key == "initial by arrow" || key == "accepting by arrow") {
    LibrarySettings& lib = s.lib.mut();
    (key == "initial by arrow" ? lib.initial_arrow : lib.accepting_arrow) = !is_false(k);
    return true;
  }
  if (key == "initial text" || key == "accepting text") {
    LibrarySettings& lib = s.lib.mut();
    (key == "initial text" ? lib.initial_text : lib.accepting_text) = v;
    return true;
  }
  if (key == "initial where" || key == "accepting where") {
    if (!where_angle(v)) return unsupported("'" + key + "' must be above, below, left or right");
    LibrarySettings& lib = s.lib.mut();
    (key == "initial where" ? lib.initial_where : lib.accepting_where) = v;
    return true;
  }
  if (key == "initial distance" || key == "accepting distance") {
    LibrarySettings& lib = s.lib.mut();
    (key == "initial distance" ? lib.initial_distance : lib.accepting_distance) = v;
    return true;
  }

  // --- to paths (tikzlibrarytopaths.code.tex)
  if (key == "loop") {
    // loop/.style={to path={\pgfextra{\let\tikztotarget=\tikztostart}[looseness=8,min distance=5mm,
    // every loop]\tikz@to@curve@path}}: a curve from the node back to itself
    LibrarySettings& lib = s.lib.mut();
    lib.loop = !is_false(k);
    lib.to_move = false;
    lib.out_min_distance = lib.in_min_distance = kLoopMinDistance;
    s.custom_to_path = false;
    s.out_looseness = s.in_looseness = kLoopLooseness;
    if (!s.out_angle) s.out_angle = 45;  // \tikz@to@out, \tikz@to@in
    if (!s.in_angle) s.in_angle = 135;
    apply_nested(ka, s, "every loop", target, b, e, problems);
    return true;
  }
  if (key == "line to" || key == "move to") {
    s.custom_to_path = false;
    s.lib.mut().loop = false;
    s.lib.mut().to_move = key == "move to";
    return true;
  }
  if (key == "min distance" || key == "max distance" || key == "distance" || key == "in min distance" ||
      key == "in max distance" || key == "in distance" || key == "out min distance" ||
      key == "out max distance" || key == "out distance") {
    auto d = ev.math(v);
    if (!d) return true;
    const bool in = !starts_with(key, "out"), out = !starts_with(key, "in");
    const bool min = key.find("max") == std::string::npos, max = key.find("min") == std::string::npos;
    if (in && min) s.lib.mut().in_min_distance = d->value;
    if (in && max) s.lib.mut().in_max_distance = d->value;
    if (out && min) s.lib.mut().out_min_distance = d->value;
    if (out && max) s.lib.mut().out_max_distance = d->value;
    // \tikz@to@set@distances switches to the curve path (\tikz@to@switch@on)
    if (!s.out_angle) s.out_angle = 45;
    if (!s.in_angle) s.in_angle = 135;
    return true;
  }
  if (key == "edge node") {
    s.lib.mut().to_nodes.push_back(v);
    return true;
  }
  if (key == "parabola height") {
    if (auto d = ev.math(v)) s.lib.mut().parabola_height = d->value;
    return true;
  }

  // --- fit (tikzlibraryfit.code.tex \tikz@lib@fit): the node's text box is the box around the
  // points (four compass anchors of a node), centered on it, not transformed with the shape
  if (key == "fit") {
    if (target != KeyTarget::node) return unsupported("'fit' outside a node is not lowered");
    if (!ka.local_point) return unsupported("'fit' needs its points");
    BBoxAccumulator box;
    for (const std::string& p : paren_groups(v)) {
      std::vector<std::string> pts;
      if (is_bare_name(p)) {
        for (const char* a : {".west", ".east", ".north", ".south"}) pts.push_back("(" + p + a + ")");
      } else {
        pts.push_back("(" + p + ")");
      }
      for (const std::string& t : pts)
        if (auto lp = ka.local_point(t, s, b, e)) box.add(s.ctm.apply(*lp));
    }
    if (!box.any) return true;  // \ifdim\pgf@xa>\pgf@xa: nothing to fit, the key is ignored
    const double w = box.box.width(), h = box.box.height();
    s.lib.mut().fit_center = Point{box.box.xmin + w / 2, box.box.ymin + h / 2};
    s.anchor = "center";
    s.placement.clear();
    s.of_direction.clear();
    s.text_width = w;
    // text height = h/2 - .5 dp, then text depth = h - (that height): ht + dp = h
    s.text_height = h / 2;
    s.text_depth = h / 2;
    s.transform_shape = false;
    apply_nested(ka, s, "every fit", target, b, e, problems);
    return true;
  }
  if (key == "circle through") {
    // tikzlibrarythrough.code.tex: circle, no seps, minimum size twice the distance from `at`
    if (target != KeyTarget::node || !ka.local_point) return unsupported("'circle through' outside a node");
    auto p = ka.local_point(v, s, b, e);
    if (!p) return true;
    s.shape = NodeShape::circle;
    s.shape_name = "circle";
    s.inner_xsep = s.inner_ysep = 0;
    s.outer_xsep = s.outer_ysep = 0;
    s.lib.mut().circle_through = s.ctm.apply(*p);
    return true;
  }

  // --- turtle (tikzlibraryturtle.code.tex): each command inserts path text
  if (key == "turtle/distance") {
    s.lib.mut().turtle_distance = v;
    return true;
  }
  if (key == "turtle") {
    for (const auto& item : tex::split_options(v)) {
      std::string cmd = tex::normalise_key(item.key);
      if (starts_with(cmd, "turtle/")) cmd = cmd.substr(7);
      const std::string arg(trim(item.value));
      if (cmd == "home") {
        s.ops.mut().insert_paths.push_back("(0,0)");
        s.lib.mut().turtle_direction = 90;
      } else if (cmd == "forward" || cmd == "fd" || cmd == "back" || cmd == "bk") {
        std::string d = item.has_value ? arg : s.lib->turtle_distance;
        if (cmd == "back" || cmd == "bk") d = "-(" + d + ")";
        s.ops.mut().insert_paths.push_back("to[" + s.lib->turtle_how + "] ++({" + fmt(s.lib->turtle_direction) + "}:{" +
                                 d + "})");
      } else if (cmd == "left" || cmd == "lt" || cmd == "right" || cmd == "rt") {
        double a = 90;
        if (item.has_value) {
          auto d = ev.num(arg);
          if (!d) return true;
          a = *d;
        }
        double dir = s.lib->turtle_direction + ((cmd == "left" || cmd == "lt") ? a : -a);
        if (dir > 360) dir -= 360;
        if (dir < 0) dir += 360;
        s.lib.mut().turtle_direction = dir;
      } else if (cmd == "direction") {
        auto d = ev.num(arg);
        if (!d) return true;
        s.lib.mut().turtle_direction = *d;
      } else if (cmd == "distance") {
        s.lib.mut().turtle_distance = arg;
      } else if (cmd == "how/.style") {
        s.lib.mut().turtle_how = tex::strip_braces(arg);
      } else {
        return unsupported("unknown turtle command '" + cmd + "'");
      }
    }
    return true;
  }

  // --- backgrounds (tikzlibrarybackgrounds.code.tex): execute at end picture draws the frame
  if (starts_with(key, "show background ")) {
    const std::string part = key.substr(16);
    static const char* kParts[] = {"rectangle", "top", "bottom", "left", "right", "grid"};
    if (std::none_of(std::begin(kParts), std::end(kParts), [&](const char* p) { return part == p; }))
      return false;
    if (target != KeyTarget::picture)
      return unsupported("'" + key + "' takes effect at the end of a picture: give it to the tikzpicture");
    s.lib.mut().background.push_back(part);
    return true;
  }
  if (key == "inner frame sep" || key == "inner frame xsep" || key == "inner frame ysep" ||
      key == "outer frame sep" || key == "outer frame xsep" || key == "outer frame ysep") {
    const bool inner = starts_with(key, "inner"), xs = key.find("ysep") == std::string::npos,
               ys = key.find("xsep") == std::string::npos;
    LibrarySettings& lib = s.lib.mut();
    if (xs) (inner ? lib.inner_frame_xsep : lib.outer_frame_xsep) = v;
    if (ys) (inner ? lib.inner_frame_ysep : lib.outer_frame_ysep) = v;
    return true;
  }

  // --- keys with no geometry of their own
  static const std::unordered_set<std::string_view> circuit_shapes(std::begin(kCircuitShapes),
                                                                   std::end(kCircuitShapes));
  if (circuit_shapes.count(key)) {
    s.shape = NodeShape::other;
    s.shape_name = key;
    return true;
  }
  // backgrounds (tikzlibrarybackgrounds.code.tex): the scope's paths go to the layer
  // `background`, painted under main; nothing moves
  if (key == "on background layer") {
    if (target == KeyTarget::scope || target == KeyTarget::picture) s.layer = "background";
    return true;
  }
  // decorations.text: text effects style the characters of `text effects along path`, whose
  // drawing is judged with the decoration (decorations.cpp)
  if (key == "text effects") {  // joins the decoration's keys (decorations_text_effects.cpp)
    std::string& decoration = s.ops.mut().decoration;
    decoration += (decoration.empty() ? "" : ",") + std::string("text effects={") + v + "}";
    return true;
  }
  static const std::unordered_set<std::string_view> shape_parameters(std::begin(kShapeParameters),
                                                                     std::end(kShapeParameters));
  return shape_parameters.count(key) > 0;
}

std::vector<std::string> after_node_statements(const Settings& ns, const std::string& node) {
  // chains: the edges of `join` (after node path)
  std::vector<std::string> out = join_statements(ns, node);
  // automata: after node path = {[to path={[->,double=none,every initial by arrow]
  //   ([shift=(angle:distance)]\tikztostart.angle) node[shape=rectangle,anchor=...]{text}
  //   -- (\tikztostart)}] edge ()}; an edge is drawn (every edge = draw)
  auto arrow = [&](bool initial) {
    const std::string& where = initial ? ns.lib->initial_where : ns.lib->accepting_where;
    const std::string angle = fmt(*where_angle(where));
    const std::string& dist = initial ? ns.lib->initial_distance : ns.lib->accepting_distance;
    const std::string outer = "([shift={(" + angle + ":{" + dist + "})}]" + node + "." + angle + ")";
    const std::string label = "node[shape=rectangle,anchor=" + std::string(where_anchor(where)) + "] {" +
                              (initial ? ns.lib->initial_text : ns.lib->accepting_text) + "}";
    const std::string every = initial ? "every initial by arrow" : "every accepting by arrow";
    if (initial)
      out.push_back("\\path[draw,every edge,->,double=none," + every + "] " + outer + " " + label + " -- (" +
                    node + ");");
    else
      out.push_back("\\path[draw,every edge,->,double=none," + every + "] (" + node + ") -- " + outer + " " +
                    label + ";");
  };
  if (ns.lib->initial_arrow) arrow(true);
  if (ns.lib->accepting_arrow) arrow(false);
  // petri: `children are tokens` grows the tokens around the node's center, one token distance
  // apart (\tikz@grow@tokens); the children have no edges
  if (!ns.lib->tokens.empty() && ns.lib->tokens.size() <= kMaxTokens) {
    const auto& offs = token_offsets(ns.lib->tokens.size());
    for (std::size_t i = 0; i < ns.lib->tokens.size(); ++i) {
      const auto& [opts, text] = ns.lib->tokens[i];
      const std::string d = "(" + ns.lib->token_distance + ")";
      out.push_back("\\node[token" + (opts.empty() ? "" : "," + opts) + "] at ([shift={({" + fmt(offs[i].x) +
                    "*" + d + "},{" + fmt(offs[i].y) + "*" + d + "})}]" + node + ".center) {" + text + "};");
    }
  }
  return out;
}

std::vector<std::string> picture_end_statements(const Settings& pic, const Box& bbox) {
  std::vector<std::string> out;
  if (pic.lib->background.empty()) return out;
  // \tikz@background@save: the box grown by the inner frame seps, the lines' ends by the outer ones
  auto length_of = [&](const std::string& text) {
    std::string err;
    return eval_dimension(substitute_library_lengths(text, pic), font_units_of(pic), &err).value_or(0);
  };
  const double ix = length_of(pic.lib->inner_frame_xsep), iy = length_of(pic.lib->inner_frame_ysep);
  const double ox = length_of(pic.lib->outer_frame_xsep), oy = length_of(pic.lib->outer_frame_ysep);
  const double minx = bbox.xmin - ix, miny = bbox.ymin - iy, maxx = bbox.xmax + ix, maxy = bbox.ymax + iy;
  auto pt = [](double x, double y) { return "(" + fmt(x) + "pt," + fmt(y) + "pt)"; };
  for (const std::string& part : pic.lib->background) {
    const std::string head = "\\path[reset cm,background " + part + "] ";
    if (part == "rectangle") out.push_back(head + pt(minx, miny) + " rectangle " + pt(maxx, maxy) + ";");
    if (part == "grid") out.push_back(head + pt(minx, miny) + " grid " + pt(maxx, maxy) + ";");
    if (part == "top") out.push_back(head + pt(minx - ox, maxy) + " -- " + pt(maxx + ox, maxy) + ";");
    if (part == "bottom") out.push_back(head + pt(minx - ox, miny) + " -- " + pt(maxx + ox, miny) + ";");
    if (part == "left") out.push_back(head + pt(minx, miny - oy) + " -- " + pt(minx, maxy + oy) + ";");
    if (part == "right") out.push_back(head + pt(maxx, miny - oy) + " -- " + pt(maxx, maxy + oy) + ";");
  }
  return out;
}

std::optional<Point> library_coordinate(
    const std::string& system, const std::map<std::string, std::string>& kv, const Settings& s,
    const std::function<std::optional<double>(const std::string&)>& eval) {
  // a key of the coordinate, its aliases (/tikz/cs/longitude/.store in=\tikz@cs@angle), 0 if absent
  auto get = [&](std::initializer_list<const char*> names) -> std::optional<double> {
    for (const char* n : names)
      if (auto f = kv.find(n); f != kv.end()) return eval(f->second);
    return 0.0;
  };
  if (system == "tpp" || system == "three point perspective") {
    // \pgfpointperspectivexyz: homogeneous division, then the xyz vectors
    auto x = get({"x"}), y = get({"y"}), z = get({"z"});
    if (!x || !y || !z) return std::nullopt;
    const auto& H = s.lib->perspective;
    const double w = H[9] * *x + H[10] * *y + H[11] * *z + 1;
    if (std::abs(w) < 1e-12) return std::nullopt;
    const double px = (H[0] * *x + H[1] * *y + H[2] * *z) / w, py = (H[3] * *x + H[4] * *y + H[5] * *z) / w,
                 pz = (H[6] * *x + H[7] * *y + H[8] * *z) / w;
    return px * s.xvec + py * s.yvec + pz * s.zvec;
  }
  if (system == "xyz cylindrical") {
    // \pgfpointcylindrical{angle}{radius}{z} = polar in the xy vectors, plus z
    auto a = get({"angle"}), r = get({"radius", "x radius"}), z = get({"z"});
    if (!a || !r || !z) return std::nullopt;
    return (*r * std::cos(*a * kDeg)) * s.xvec + (*r * std::sin(*a * kDeg)) * s.yvec + *z * s.zvec;
  }
  if (system == "xyz spherical") {
    // \pgfpointspherical{longitude}{latitude}{radius} as pgfcorepoints.code.tex computes it:
    // r * (cos(lat) * (sin(lon) x + cos(lon) y) + sin(lat) z)
    auto lon = get({"longitude", "angle"}), lat = get({"latitude"}), r = get({"radius", "x radius"});
    if (!lon || !lat || !r) return std::nullopt;
    const Point eq = std::sin(*lon * kDeg) * s.xvec + std::cos(*lon * kDeg) * s.yvec;
    return *r * (std::cos(*lat * kDeg) * eq + std::sin(*lat * kDeg) * s.zvec);
  }
  return std::nullopt;
}

Bezier curve_to_path(Point p0, Point p1, double out_deg, double in_deg, const Settings& s) {
  // The distance is measured in the local system, as are min/max distance, and the control
  // shifts below are vectors of that system: under scale=2 a loop keeps its canvas size (the
  // anchors' canvas distance halves when taken back to local units, the shift doubles it), and
  // under xscale=2 a loop above a node comes out flatter (lualatex, tools/tex-diff).
  const double dist = length(s.ctm.inverse().apply_linear(p1 - p0));
  auto clamp = [](double d, std::optional<double> lo, std::optional<double> hi) {
    if (lo && d < *lo) d = *lo;
    if (hi && d > *hi) d = *hi;
    return d;
  };
  const double d_out =
      clamp(kCurveToFactor * s.out_looseness * dist, s.lib->out_min_distance, s.lib->out_max_distance);
  const double d_in =
      clamp(kCurveToFactor * s.in_looseness * dist, s.lib->in_min_distance, s.lib->in_max_distance);
  // ([shift=({out}:d)]start): the shift is a vector of the local system
  const Point c1 =
      p0 + s.ctm.apply_linear(Point{d_out * std::cos(out_deg * kDeg), d_out * std::sin(out_deg * kDeg)});
  const Point c2 =
      p1 + s.ctm.apply_linear(Point{d_in * std::cos(in_deg * kDeg), d_in * std::sin(in_deg * kDeg)});
  return Bezier{p0, c1, c2, p1};
}

std::vector<grammar::Node> to_path_nodes(const Settings& s, grammar::Span at) {
  std::vector<grammar::Node> out;
  for (const std::string& text : s.lib->to_nodes) {
    auto parsed = grammar::parse("\\path (0,0) to " + text + " (0,0);");
    if (!parsed.errors.empty() || parsed.statements.empty()) continue;
    for (const auto& op : parsed.statements[0].ops) {
      for (grammar::Node n : op.edge_nodes) {
        n.span = at;  // spans point into the key's text: locate them at the operation
        if (n.options) n.options->span = at;
        out.push_back(std::move(n));
      }
    }
  }
  return out;
}

}  // namespace tikzlint::ir
