// packages/circuitikz/circuitikz.cpp: circuitikz's path-style bipoles (circuitikz 1.6.0,
// pgfcircpath.tex \pgf@circ@bipole@path@base, pgfcirclabel.tex), rewritten into the plain TikZ
// they draw. `\draw (0,0) to[R=$R_1$, *-o] (2,0)` is, in circuitikz:
//
//   - a node of the bipole's shape at the middle of the segment, rotated along it (components keep
//     their size under the picture's scale: circuitikz does not transform shapes);
//   - the wires from the start to the shape's left anchor and from its right anchor to the target
//     (none for `open`; `short` is the wire alone);
//   - the label (l=, R=...) and annotation (a=) as nodes at the shape's border anchor 90 or -90,
//     anchored as pgfcirclabel.tex chooses from the segment's direction: straight labels with a
//     \strut, .75ex away; or, when labels are `smart` (the default) and the segment is between
//     20 and 70 degrees off an axis, rotated along it;
//   - the poles (`*-o`...) as nodes of the shapes circ and ocirc at the ends.
//
// The shapes' sizes are not written here: tools/circuitikz-table/generate reads them from TeX
// (each style drawn alone by lualatex) into bipoles.inc, and a test fails when that table is stale
// against the installed circuitikz. The shape is lowered as an undrawn box of the drawing's
// extent (strokes included), so that the picture grows as TeX's does; its inside (a resistor's
// zigzag) is not modelled, so rules see no line there.
//
// Voltages (v=, v^<=, V=$u$ on a source: pgfcircvoltage.tex) are drawn in the voltage style in
// force (european curved arrows by default, straight arrows, american + and - signs, raised), at
// the points lualatex exports for each bipole (voltages.inc, by the same generator); currents
// (i=, i_>=, I=$i$: pgfcirccurrent.tex) are an arrow node on the wire before or after the bipole
// and its label beside it.
//
// What is not modelled is reported once per picture (unsupported-construct: the picture is then
// incomplete for the rules) and not guessed: stacked labels (l2=), mirrored or inverted
// bipoles, a segment in a rotated or skewed frame, and the \ctikzset keys that change sizes and
// distances (bipoles/length...). The settings the model follows (families, voltage style and
// direction, label alignment) are CircuitSettings.
//
// circuitikz's node shapes whose size does not depend on their text (circ, ocirc, ground, op amp,
// npn...: nodes.inc, measured by lualatex as the bipoles are) are library shapes here: a key that
// names one selects it (`node[ground]`), its anchors north, south, east, west, its corners and
// center, and the drawing's extent; their other anchors (an op amp's `out`, a transistor's `B`)
// are unknown anchors, reported where they are used.
#include <algorithm>
#include <cmath>
#include <numbers>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "ir/library.hpp"
#include "ir/package.hpp"
#include "tex/expander.hpp"
#include "tex/styles.hpp"
#include "tex/tex.hpp"

namespace tikzlint::ir {
namespace {

struct Bipole {
  std::string_view name;
  char value;  // 'l': a value given to the style is its label (R=x is l=x); 'x': something else
  double north, south, half_length, label_up, label_down, drawn_up, drawn_down;
};

constexpr Bipole kBipoles[] = {
#include "packages/circuitikz/bipoles.inc"
};

// A node shape whose size does not depend on its text (circ, ground, op amp, npn...), as lualatex
// measured it (nodes.inc): anchors north, south, east, west from the center, and the extent of the
// drawing, strokes included.
struct NodeShapeSize {
  std::string_view name;
  double north, south, east, west, min_x, max_x, min_y, max_y;
};

constexpr NodeShapeSize kNodeShapes[] = {
#include "packages/circuitikz/nodes.inc"
};

const NodeShapeSize* find_node_shape(std::string_view name) {
  auto it = std::lower_bound(std::begin(kNodeShapes), std::end(kNodeShapes), name,
                             [](const NodeShapeSize& b, std::string_view n) { return b.name < n; });
  return it != std::end(kNodeShapes) && it->name == name ? &*it : nullptr;
}

// The named anchors circuitikz declares for those shapes (an op amp's `out`, `+`, `-`; a
// transistor's `B`, `C`, `E`), where lualatex put them: node_anchors.inc, sorted by shape.
struct NodeAnchor {
  std::string_view shape, anchor;
  double x, y;
};

constexpr NodeAnchor kNodeAnchors[] = {
#include "packages/circuitikz/node_anchors.inc"
};

// A voltage on a bipole, as lualatex drew it (voltages.inc): the bipole's flags after its v key and,
// per voltage style (european, straight, american, raised), side (above, below) and segment length
// (kVoltageLengths), the points circuitikz exports (pgfcircvoltage.tex: Vfrom, Vto, Vlab, Vcont1,
// Vcont2), drawn forward along x, x from the segment's middle. Each point is affine in the length
// (the ends stand a fixed distance and a fixed share of the way from the segment's ends): the
// lowering interpolates between the two lengths.
using VoltagePoints = double[5][2];
struct BipoleVoltage {
  std::string_view name, flags;
  VoltagePoints v[16];
};
constexpr BipoleVoltage kVoltages[] = {
#include "packages/circuitikz/voltages.inc"
};
constexpr double kVoltageLengths[2] = {4 * 72.27 / 2.54, 6 * 72.27 / 2.54};

// The flags of a bipole in a voltage style (in american voltages, `V` is american's source).
std::string_view flags_in(const BipoleVoltage& bv, int mode) {
  std::string_view f = bv.flags;
  for (int k = 0; k < mode; ++k) {
    auto c = f.find(',');
    if (c == std::string_view::npos) return {};
    f.remove_prefix(c + 1);
  }
  return f.substr(0, f.find(','));
}

const BipoleVoltage* find_voltage(std::string_view name) {
  auto it = std::lower_bound(std::begin(kVoltages), std::end(kVoltages), name,
                             [](const BipoleVoltage& b, std::string_view n) { return b.name < n; });
  return it != std::end(kVoltages) && it->name == name ? &*it : nullptr;
}

const Bipole* find_bipole(std::string_view name) {
  auto it = std::lower_bound(std::begin(kBipoles), std::end(kBipoles), name,
                             [](const Bipole& b, std::string_view n) { return b.name < n; });
  return it != std::end(kBipoles) && it->name == name ? &*it : nullptr;
}

constexpr double kDeg = std::numbers::pi / 180;
// pgfcirc.defines.tex: bipoles/length (\pgf@circ@Rlen), 1.4cm by default, and flow/offset, the
// distance of a flow's arrow from its wire in those lengths
constexpr double kBipoleLength = 1.4 * 72.27 / 2.54;
constexpr double kFlowOffset = 0.2;
// pgfcirclabel.tex \pgf@circ@ls: the space between a bipole and its label, .75ex of the font.
constexpr double kLabelSpaceEx = 0.75;

std::string num(double v) { return text_number(v); }
std::string pt(double v) { return text_number(v) + "pt"; }

// The option list as pgfkeys splits it (tex::split_options: braces, brackets, math and control
// symbols such as `\,` hold no separator), keys normalised as TikZ reads them.
std::vector<tex::RawItem> split_options(std::string_view s) {
  auto items = tex::split_options(s);
  for (auto& it : items) it.key = tex::normalise_key(it.key);
  return items;
}

// The keys of a label or annotation (pgfcirclabel.tex) and the side they put it on (90: the
// shape's border anchor 90, left of the direction of travel; -90: right of it).
std::optional<int> label_side(std::string_view k, bool& annotation) {
  annotation = false;
  if (k == "l" || k == "label" || k == "l^" || k == "label above") return 90;
  if (k == "l_" || k == "label below") return -90;
  annotation = true;
  if (k == "a" || k == "annotation" || k == "a_" || k == "annotation below") return -90;
  if (k == "a^" || k == "annotation above") return 90;
  return std::nullopt;
}

// A voltage key (pgfcircvoltage.tex): v, v^, v_, v<, v>, v^<, v^>, v_<, v_>. `position` is
// '^' (above), '_' (below) or 0 (the bipole's default); `direction` '>' (forward), '<' or 0.
struct VoltageKey {
  char position = 0, direction = 0;
};
std::optional<VoltageKey> voltage_key(std::string_view k) {
  if (k.empty() || k[0] != 'v' || k.size() > 3) return std::nullopt;
  VoltageKey v;
  std::string_view rest = k.substr(1);
  if (!rest.empty() && (rest[0] == '^' || rest[0] == '_')) {
    v.position = rest[0];
    rest.remove_prefix(1);
  }
  if (!rest.empty() && (rest[0] == '<' || rest[0] == '>')) {
    v.direction = rest[0];
    rest.remove_prefix(1);
  }
  if (!rest.empty()) return std::nullopt;
  return v;
}

// A current key (pgfcirccurrent.tex): i, i^, i_, i<, i>, and i^>, i_<... (arrow after the bipole)
// or i>^, i<_... (before it). 0 where the key leaves the default.
struct CurrentKey {
  char y = 0, direction = 0, x = 0;  // '^'/'_'; '>'/'<'; 'b' before, 'a' after
};
std::optional<CurrentKey> current_key(std::string_view k, char letter = 'i') {
  if (k.empty() || k[0] != letter || k.size() > 3) return std::nullopt;
  auto y = [](char c) { return c == '^' || c == '_'; };
  auto d = [](char c) { return c == '<' || c == '>'; };
  CurrentKey c;
  if (k.size() == 2) {
    if (y(k[1])) c.y = k[1];
    else if (d(k[1])) c.direction = k[1];
    else return std::nullopt;
  } else if (k.size() == 3) {
    if (y(k[1]) && d(k[2])) c = {k[1], k[2], 'a'};
    else if (d(k[1]) && y(k[2])) c = {k[2], k[1], 'b'};
    else return std::nullopt;
  }
  return c;
}

// circuitikz keys of a bipole that draw what is not modelled here.
bool unmodelled_key(std::string_view k) {
  auto starts = [&](std::string_view p) { return k.substr(0, p.size()) == p; };
  return starts("l2") || starts("a2") || k == "voltage" ||
         k == "current" || k == "flow" || k == "reversed" || k == "bipole nodes";
}

// `*-o`, `-*`, `o-`... : the poles at the start and the end ('*' circ, 'o' ocirc, 0 none);
// nullopt when the key is not a pole key, and `modelled` false for d (diamond) and . (rectjoin).
struct Poles {
  char start = 0, end = 0;
  bool modelled = true;
};
std::optional<Poles> poles(std::string_view k) {
  auto dash = k.find('-');
  if (dash == std::string_view::npos || k.size() > 3 || k.size() < 2) return std::nullopt;
  std::string_view a = k.substr(0, dash), b = k.substr(dash + 1);
  if (a.size() > 1 || b.size() > 1 || (a.empty() && b.empty())) return std::nullopt;
  auto ok = [](std::string_view x) { return x.empty() || x == "*" || x == "o" || x == "d" || x == "."; };
  if (!ok(a) || !ok(b)) return std::nullopt;
  Poles p;
  p.start = a.empty() ? 0 : a[0];
  p.end = b.empty() ? 0 : b[0];
  for (char c : {p.start, p.end})
    if (c == 'd' || c == '.') p.modelled = false;
  return p;
}

enum class LabelAlign { smart, straight, rotate };

enum VoltageMode { kEuropean = 0, kStraight = 1, kAmerican = 2, kRaised = 3 };
std::optional<VoltageMode> voltage_mode_of(std::string_view key) {
  if (key == "american voltages" || key == "american" || key == "americanvoltages" || key == "americanvoltage")
    return kAmerican;
  if (key == "european voltages" || key == "european" || key == "cute" || key == "europeanvoltages" ||
      key == "europeanvoltage" || key == "curved")
    return kEuropean;
  if (key == "straight voltages" || key == "straightvoltages" || key == "straight") return kStraight;
  if (key == "raised voltages" || key == "raised") return kRaised;
  return std::nullopt;
}
const char* voltage_mode_name(VoltageMode m) {
  static const char* names[] = {"european", "straight", "american", "raised"};
  return names[m];
}
// `voltage dir`: whether voltages of passive bipoles point backward (old) and whether batteries are
// drawn the other way (fixbatteries): pgfcirc.defines.tex `voltage dir/...`, circuitikz.sty's
// options oldvoltagedirection, nooldvoltagedirection, RPvoltages, EFvoltages (noold by default).
struct VoltageDir {
  bool old = false, fix_batteries = false;
};
std::optional<VoltageDir> voltage_dir_of(std::string_view key, std::string_view value) {
  if (key == "voltage dir") key = value;
  if (key == "old" || key == "oldvoltagedirection") return VoltageDir{true, false};
  if (key == "noold" || key == "nooldvoltagedirection") return VoltageDir{false, false};
  if (key == "RP" || key == "RPvoltages") return VoltageDir{true, true};
  if (key == "EF" || key == "EFvoltages") return VoltageDir{false, true};
  return std::nullopt;
}

// The circuitikz settings that decide what the model draws: which drawing a generic resistor or
// inductor gets (their families differ in size: pgfcircbipoles.tex \pgf@circ@resistor@path,
// \pgf@circ@inductor@path), the voltage style and direction, and how labels are aligned. Defaults
// are circuitikz.sty's \ExecuteOptions (americanresistors, cuteinductors, europeanvoltages,
// nooldvoltagedirection, smartlabels).
struct CircuitSettings {
  std::string resistor = "american", inductor = "cute";
  VoltageMode mode = kEuropean;
  VoltageDir dir;
  LabelAlign align = LabelAlign::smart;
};

// Kept per scope in the style table as the body of this style (Package::remember_options and
// \ctikzset in a picture append to it), as the trees package keeps its keys: items in the
// canonical form setting_items writes ("resistor family=european", "voltage dir=RP").
constexpr std::string_view kSettingsStyle = "tikzlint circuitikz settings";

// What one circuitikz key does to the settings. \ctikzset is \pgfqkeys{/tikz/circuitikz} with
// `.search also={/tikz}` (pgfcirc.defines.tex), so it takes the /tikz styles `american`,
// `european voltages`... as well as its own keys (`voltage=straight`, `resistor=european`); the
// picture's and scopes' options take the styles; the package options are their own names
// (`europeanresistors`, `RPvoltages`).
//   applied: `items` are what it sets, canonical;
//   none: it changes nothing the model draws (colours, fills, stroke thickness; the current, port
//     and diode families, whose drawings the model draws at the same size: every family's current
//     source and diode measured the same in bipoles.inc, a test checks it; logic ports are not
//     modelled by their generic names);
//   unknown: it may move or resize what the model draws (bipoles/length, voltage/distance from
//     node, a component's width...): not modelled.
enum class SettingEffect { applied, none, unknown };
struct SettingItems {
  SettingEffect effect = SettingEffect::unknown;
  std::vector<std::string> items;
};
SettingItems setting_items(std::string_view key, std::string_view value) {
  SettingItems r;
  r.effect = SettingEffect::applied;
  auto family = [&](const char* res, const char* ind, const char* volt) {
    if (res) r.items.push_back(std::string("resistor family=") + res);
    if (ind) r.items.push_back(std::string("inductor family=") + ind);
    if (volt) r.items.push_back(std::string("voltage family=") + volt);
  };
  auto is = [&](std::initializer_list<std::string_view> names) {
    return std::find(names.begin(), names.end(), key) != names.end();
  };
  auto valued = [&](std::string_view k, std::initializer_list<std::string_view> values) {
    return key == k && std::find(values.begin(), values.end(), value) != values.end();
  };
  // the families (pgfcirc.defines.tex \tikzset{european/.style=...}, circuitikz.sty's options)
  if (key == "american") family("american", "american", "american");
  else if (key == "european") family("european", "european", "european");
  else if (key == "cute") family("american", "cute", "european");
  else if (is({"american resistors", "americanresistor", "americanresistors"})) family("american", nullptr, nullptr);
  else if (is({"european resistors", "europeanresistor", "europeanresistors"})) family("european", nullptr, nullptr);
  else if (valued("resistor", {"american", "european"})) r.items.push_back("resistor family=" + std::string(value));
  else if (is({"american inductors", "americaninductor", "americaninductors"})) family(nullptr, "american", nullptr);
  else if (is({"european inductors", "europeaninductor", "europeaninductors"})) family(nullptr, "european", nullptr);
  else if (is({"cute inductors", "cuteinductor", "cuteinductors"})) family(nullptr, "cute", nullptr);
  else if (valued("inductor", {"american", "european", "cute"})) r.items.push_back("inductor family=" + std::string(value));
  else if (auto m = voltage_mode_of(key)) family(nullptr, nullptr, voltage_mode_name(*m));
  else if (key == "voltage" && voltage_mode_of(value)) family(nullptr, nullptr, voltage_mode_name(*voltage_mode_of(value)));
  else if (key == "voltage dir" && voltage_dir_of(key, value)) r.items.push_back("voltage dir=" + std::string(value));
  else if (key == "oldvoltagedirection") r.items.push_back("voltage dir=old");
  else if (key == "nooldvoltagedirection") r.items.push_back("voltage dir=noold");
  else if (key == "RPvoltages") r.items.push_back("voltage dir=RP");
  else if (key == "EFvoltages") r.items.push_back("voltage dir=EF");
  else if (is({"straightlabels", "rotatelabels", "smartlabels"}))
    r.items.push_back("label align=" + std::string(key.substr(0, key.size() - 6)));
  else if (valued("label/align", {"straight", "rotate", "smart"})) r.items.push_back("label align=" + std::string(value));
  else {
    r.effect = SettingEffect::none;
    const std::string_view last = key.substr(key.rfind('/') == std::string_view::npos ? 0 : key.rfind('/') + 1);
    const bool drawing_only =
        is({"american currents", "european currents", "americancurrent", "europeancurrent", "americancurrents",
            "europeancurrents", "american ports", "european ports", "americanport", "europeanport", "americanports",
            "europeanports", "full diodes", "empty diodes", "stroke diodes", "fulldiode", "emptydiode",
            "strokediode", "fulldiodes", "emptydiodes", "strokediodes", "open poles fill"}) ||
        valued("current", {"american", "european"}) || valued("diode", {"full", "empty", "stroke"}) ||
        valued("logic ports", {"american", "european", "ieee"}) ||
        (key.find('/') != std::string_view::npos &&
         (last == "fill" || last == "color" || last == "thickness" || last == "relative thickness" ||
          last == "modifier thickness" || last == "depletion color" || last == "color on" || last == "color off"));
    if (!drawing_only) r.effect = SettingEffect::unknown;
  }
  return r;
}

// Applies one canonical item (setting_items) to `s`.
void apply_item(CircuitSettings& s, std::string_view key, std::string_view value) {
  if (key == "resistor family") s.resistor = std::string(value);
  else if (key == "inductor family") s.inductor = std::string(value);
  else if (key == "voltage family") {
    if (auto m = voltage_mode_of(value)) s.mode = *m;
  } else if (key == "voltage dir") {
    if (auto d = voltage_dir_of(key, value)) s.dir = *d;
  } else if (key == "label align") {
    s.align = value == "straight" ? LabelAlign::straight : value == "rotate" ? LabelAlign::rotate : LabelAlign::smart;
  }
}

// Applies what setting_items read ("key=value" items) to `s`.
void apply_items(CircuitSettings& s, const SettingItems& si) {
  for (const auto& item : si.items) {
    const auto eq = item.find('=');
    apply_item(s, std::string_view(item).substr(0, eq), std::string_view(item).substr(eq + 1));
  }
}

// The generic bipoles whose drawing is that of the family in force (pgfcircbipoles.tex: the
// \ifpgf@circuit@europeanresistor and \ctikzvalof{inductor} switches), with the names of the
// families' own styles: `%` stands for the family.
struct FamilyBipole {
  std::string_view generic, family_name;
  bool inductor;  // the inductor family decides; else the resistor family
};
constexpr FamilyBipole kFamilyBipoles[] = {
    {"R", "% resistor", false},
    {"resistor", "% resistor", false},
    {"vR", "variable % resistor", false},
    {"variable resistor", "variable % resistor", false},
    {"sR", "% resistive sensor", false},
    {"resistive sensor", "% resistive sensor", false},
    {"ldR", "% light dependent resistor", false},
    {"light dependent resistor", "% light dependent resistor", false},
    {"pR", "% potentiometer", false},
    {"potentiometer", "% potentiometer", false},
    {"L", "% inductor", true},
    {"inductor", "% inductor", true},
    {"vL", "variable % inductor", true},
    {"variable inductor", "variable % inductor", true},
    {"sL", "% inductive sensor", true},
    {"inductive sensor", "% inductive sensor", true},
};

// The arguments of the `\ctikzset{...}` (or `\circuitikzset{...}`) in a statement's text, one
// after another as a run of them is written, braces balanced.
std::vector<std::string_view> ctikzset_bodies(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t at = text.find("set", i);
    if (at == std::string_view::npos) break;
    i = at + 3;
    const std::string_view before = text.substr(0, at);
    if (!(before.ends_with("\\ctikz") || before.ends_with("\\circuitikz"))) continue;
    while (i < text.size() && (text[i] == ' ' || text[i] == '\n' || text[i] == '\t')) ++i;
    if (i >= text.size() || text[i] != '{') continue;
    int depth = 0;
    std::size_t j = i;
    for (; j < text.size(); ++j) {
      if (text[j] == '\\') {
        ++j;
        continue;
      }
      if (text[j] == '{') ++depth;
      else if (text[j] == '}' && --depth == 0) break;
    }
    if (j >= text.size()) break;  // unbalanced: nothing more is read
    out.push_back(text.substr(i + 1, j - i - 1));
    i = j + 1;
  }
  return out;
}

// `logic ports=<family>` with a family pgfcirctripoles.tex defines (its port styles:
// tex::circuitikz_port_styles).
bool is_logic_ports_choice(const tex::RawItem& it) {
  return it.key == "logic ports" && (it.value == "american" || it.value == "european" || it.value == "ieee");
}

class CircuitikzPicture final : public PackagePicture {
 public:
  // `defaults`: the package options' and the \ctikzset before the picture; `unmodelled`: the keys
  // of those \ctikzset that the model does not follow (reported at the picture's end).
  // `ports`: the logic ports family the last \ctikzset before the picture chose, or empty.
  CircuitikzPicture(CircuitSettings defaults, std::vector<std::string> unmodelled, std::string ports)
      : defaults_(std::move(defaults)), unmodelled_before_(std::move(unmodelled)), ports_before_(std::move(ports)) {}

  bool claims_to(std::string_view options) const override {
    for (const auto& it : split_options(options))
      if (find_bipole(it.key)) return true;
    return false;
  }

  Offer lower_statement(const PackageStatement& s, LibraryHost& host) override {
    if (!ports_before_.empty()) {
      // \ctikzset{logic ports=..} before the picture: its port styles hold from the picture's start
      host.emit("\\tikzset{" + tex::circuitikz_port_styles(ports_before_) + "}", 0, 0);
      ports_before_.clear();
    }
    if (s.command == "\\ctikzset" || s.command == "\\circuitikzset") {
      // settings that last to the end of the enclosing scope (\pgfqkeys is local to the group)
      std::vector<std::string> items, unknown;
      for (std::string_view body : ctikzset_bodies(s.st.text))
        for (const auto& it : split_options(body)) {
          SettingItems si = setting_items(it.key, it.value);
          if (is_logic_ports_choice(it))
            host.emit("\\tikzset{" + tex::circuitikz_port_styles(it.value) + "}", 0,
                      static_cast<std::uint32_t>(s.st.text.size()));
          if (si.effect == SettingEffect::applied) items.insert(items.end(), si.items.begin(), si.items.end());
          else if (si.effect == SettingEffect::unknown) unknown.push_back(it.key);
        }
      const auto e = static_cast<std::uint32_t>(s.st.text.size());
      if (!items.empty()) {
        std::string body;
        for (const auto& i : items) body += (body.empty() ? "" : ", ") + i;
        host.emit("\\tikzset{" + std::string(kSettingsStyle) + "/.append style={" + body + "}}", 0, e);
      }
      if (!unknown.empty())
        unsupported(host, "\\ctikzset", "circuitikz setting '" + unknown.front() +
                    "' (\\ctikzset) is not modelled: sizes and distances are the package's defaults", 0, e);
      return Offer::lowered;
    }
    return Offer::pass;
  }

  void end_picture(LibraryHost& host) override {
    if (!unmodelled_before_.empty())
      unsupported(host, "\\ctikzset", "circuitikz setting '" + unmodelled_before_.front() +
                  "' (\\ctikzset before the picture) is not modelled: sizes and distances are the package's defaults",
                  0, 0);
  }

  // The settings in force where `host` lowers: the picture's defaults, then what its and its
  // scopes' options and \ctikzset changed (kSettingsStyle).
  CircuitSettings settings_in_force(LibraryHost& host) const {
    CircuitSettings s = defaults_;
    for (const auto& k : host.expand_keys(std::string(kSettingsStyle))) apply_item(s, k.key, k.value);
    return s;
  }

  std::optional<ToRewrite> lower_to(const ToOperation& op, LibraryHost& host) override {
    const Bipole* bp = nullptr;
    std::string name, rest;
    struct Label {
      std::string text;
      int side = 90;
    };
    std::optional<Label> label, annotation;
    struct Voltage {
      std::string text;
      VoltageKey key;
    };
    std::optional<Voltage> voltage;
    struct Current {
      std::string text;
      CurrentKey key;
    };
    std::optional<Current> current, flow;
    Poles pl;
    // pgfcircpath.tex: `mirror` draws the shape with yscale=-1 (flipped across its wire), `invert`
    // with xscale=-1 (flipped along it)
    bool mirrored = false, inverted = false;
    for (const auto& it : split_options(op.options)) {
      bool is_annotation = false;
      if (const Bipole* b = find_bipole(it.key)) {
        bp = b;
        if (it.has_value && !it.value.empty()) {
          const BipoleVoltage* bv = b->value == 'l' ? nullptr : find_voltage(b->name);
          if (b->value == 'l') label = Label{it.value, 90};
          else if (bv != nullptr && flags_in(*bv, 0).find('V') != std::string_view::npos) voltage = Voltage{it.value, {}};
          else if (bv != nullptr && flags_in(*bv, 0).find('I') != std::string_view::npos) {
            // a current source's value is its current, where the style puts it (I<= is i<=)
            const std::string_view f = flags_in(*bv, 0);
            auto has = [&](char c) { return f.find(c) != std::string_view::npos; };
            current = Current{it.value, {has('D') ? '_' : '^', has('K') ? '<' : '>', has('B') ? 'b' : 'a'}};
          }
          else unsupported(host, "value", "the value of circuitikz's " + std::string(b->name) + " is not modelled", op.b, op.e);
        }
      } else if (auto side = label_side(it.key, is_annotation)) {
        (is_annotation ? annotation : label) = Label{it.value, *side};
      } else if (auto vk = voltage_key(it.key)) {
        voltage = Voltage{it.value, *vk};
      } else if (auto ck = current_key(it.key)) {
        current = Current{it.value, *ck};
      } else if (auto fk = current_key(it.key, 'f')) {  // a flow: f, f^>, f<_... (pgfcircflow.tex)
        flow = Current{it.value, *fk};
      } else if (it.key == "n" || it.key == "name") {
        name = it.value;
      } else if (auto p = poles(it.key)) {
        pl = *p;
        if (!p->modelled) unsupported(host, "poles", "circuitikz poles d and . are not modelled", op.b, op.e);
      } else if (it.key == "mirror" || it.key == "mirrored") {
        mirrored = it.key == "mirror" || !it.has_value || it.value == "true";
      } else if (it.key == "invert" || it.key == "inverted") {
        inverted = it.key == "invert" || !it.has_value || it.value == "true";
      } else if (unmodelled_key(it.key)) {
        unsupported(host, "ornament", "circuitikz stacked labels and reversed bipoles (" +
                                          it.key + ") are not modelled", op.b, op.e);
      } else {
        if (!rest.empty()) rest += ", ";
        rest += it.has_value ? it.key + "={" + it.value + "}" : it.key;
      }
    }
    if (bp == nullptr) return std::nullopt;
    const CircuitSettings settings = settings_in_force(host);
    for (const FamilyBipole& fb : kFamilyBipoles) {  // the family's drawing: not the same size
      if (fb.generic != bp->name) continue;
      std::string own(fb.family_name);
      own.replace(own.find('%'), 1, fb.inductor ? settings.inductor : settings.resistor);
      if (const Bipole* b = find_bipole(own)) bp = b;
      break;
    }
    // Mirrored, the drawing is flipped across the wire, and a label takes the opposite border
    // anchor (pgfcirclabel.tex), which the flip brings back to the label's side: the shape's
    // extents above and below the wire swap, and so do the labels' distances. Inverted, the shape
    // is flipped along the wire (its extent along it is symmetric) and the label's opposite anchor
    // is again on the label's side: lualatex draws it as the plain bipole. pgfcircvoltage.tex
    // turns voltages (and the currents and flows drawn with them) by both: not modelled.
    Bipole flipped{};
    if (mirrored) {
      flipped = *bp;
      flipped.north = -bp->south, flipped.south = -bp->north;
      flipped.label_up = -bp->label_down, flipped.label_down = -bp->label_up;
      flipped.drawn_up = -bp->drawn_down, flipped.drawn_down = -bp->drawn_up;
      bp = &flipped;
    }
    if ((mirrored || inverted) && (voltage || current || flow)) {
      unsupported(host, "ornament", "voltages, currents and flows on mirrored or inverted circuitikz bipoles are not modelled",
                  op.b, op.e);
      voltage.reset(), current.reset(), flow.reset();
    }
    ToRewrite rw;
    rw.options = rest;
    const Transform inv = op.ctm.inverse();
    auto local = [&](Point canvas) {
      Point p = inv.apply(canvas);
      return "(" + pt(p.x) + "," + pt(p.y) + ")";
    };
    if (std::abs(op.ctm.b) > 1e-9 || std::abs(op.ctm.c) > 1e-9) {
      // circuitikz takes the direction from the anchors in the picture's frame and rotates the
      // shape on the canvas: in a rotated or skewed frame the two are not modelled together
      unsupported(host, "frame", "a circuitikz bipole in a rotated or skewed frame is not modelled", op.b, op.e);
      rw.path = "-- (" + op.target_text + ")";
      return rw;
    }
    host.set_drawn_as("circuit");
    const Point S = op.start_canvas, E = op.target_canvas;
    double dir = std::atan2(E.y - S.y, E.x - S.x) / kDeg;  // \pgfmathanglebetweenpoints: [0, 360)
    if (dir < 0) dir += 360;
    const Point u{std::cos(dir * kDeg), std::sin(dir * kDeg)}, n{-u.y, u.x};
    const Point mid{(S.x + E.x) / 2, (S.y + E.y) / 2};
    auto at = [&](double along, double across) {
      return Point{mid.x + u.x * along + n.x * across, mid.y + u.y * along + n.y * across};
    };
    const bool open = bp->name == "open";
    const bool wire_only = bp->half_length == 0 && bp->north == 0 && bp->south == 0;  // short
    // the voltage is drawn between the wire to the shape and the wire from it (pgfcircpath.tex),
    // so that the path goes on from the target
    std::string volt;
    if (voltage && !voltage->text.empty()) {
      const BipoleVoltage* bv = find_voltage(bp->name);
      if (bv == nullptr) {
        unsupported(host, "voltage " + std::string(bp->name), "a voltage on circuitikz's " + std::string(bp->name) + " is not modelled", op.b, op.e);
      } else {
        volt = voltage_drawing(*bv, voltage->key, voltage->text, host, dir, std::hypot(E.x - S.x, E.y - S.y), open, at, local, name);
      }
    }
    if (current && !current->text.empty()) {
      const BipoleVoltage* bv = find_voltage(bp->name);
      const bool source = bv != nullptr && flags_in(*bv, 0).find('V') != std::string_view::npos;
      const bool voltage_backward = voltage && voltage->key.direction == '<';
      const bool short_wire = bp->name == "short";
      volt += current_drawing(current->key, current->text, host, dir, source, voltage_backward, short_wire, S, E,
                              at(-bp->half_length, 0), at(bp->half_length, 0), local, name);
    }
    if (flow && !flow->text.empty())
      volt += flow_drawing(flow->key, flow->text, dir, std::sqrt(std::abs(op.ctm.determinant())), bp->name == "short", S, E,
                           at(-bp->half_length, 0),
                           at(bp->half_length, 0), local, name);
    std::string path;
    if (open) path = volt + "(" + op.target_text + ")";
    else if (wire_only && volt.empty()) path = "-- (" + op.target_text + ")";
    else path = "-- " + local(at(-bp->half_length, 0)) + " " + volt + local(at(bp->half_length, 0)) + " -- (" + op.target_text + ")";
    if (!open && !wire_only) {
      // the shape: an undrawn box of the drawing's extent, so that the picture grows as TeX's
      const double h = bp->drawn_up - bp->drawn_down;
      path += " node[shape=rectangle, inner sep=0pt, outer sep=0pt, minimum width=" + pt(2 * bp->half_length) +
              ", minimum height=" + pt(h) + ", rotate=" + num(dir) + ", anchor=center] " +
              (name.empty() ? "" : "(" + name + ") ") + "at " + local(at(0, (bp->drawn_up + bp->drawn_down) / 2)) + " {}";
    }
    const auto ls = host.eval(num(kLabelSpaceEx) + "ex");
    const double space = ls && ls->is_length ? ls->value : kLabelSpaceEx * 4.30554;
    // pgfcirclabel.tex divides the label distances by the picture's scale (sqrt of the
    // determinant, "\myscale") so that, measured in the scaled frame, they stay .75ex on the page;
    // the inner sep of a straight label, half that, is a node's dimension, which no scale shrinks
    const double scale = std::sqrt(std::abs(op.ctm.determinant()));
    for (const auto* lab : {&label, &annotation}) {
      if (!*lab) continue;
      const int side = (*lab)->side;
      const Point anchor_point = at(0, side > 0 ? bp->label_up : bp->label_down);
      path += " " + label_node(settings.align, anchor_point, dir, side, space, scale, (*lab)->text, local);
    }
    for (int end = 0; end < 2; ++end) {
      const char c = end == 0 ? pl.start : pl.end;
      if (c != '*' && c != 'o') continue;
      path += std::string(" node[shape=") + (c == '*' ? "circ" : "ocirc") + "] at " + local(end == 0 ? S : E) + " {}";
    }
    rw.path = path;
    return rw;
  }

 private:
  // pgfcircvoltage.tex: the voltage's drawing (a curved or straight arrow, european; + and - signs,
  // american) and its label, as a path fragment. The points come from lualatex (voltages.inc);
  // what is drawn between them, the signs' order and the label's anchor are written here.
  template <class At, class Local>
  std::string voltage_drawing(const BipoleVoltage& bv, VoltageKey key, const std::string& text, LibraryHost& host,
                              double dir, double length, bool open, const At& at, const Local& local,
                              const std::string& name) {
    const CircuitSettings settings = settings_in_force(host);
    const VoltageMode mode = settings.mode;
    const VoltageDir vdir = settings.dir;
    const std::string_view flags = flags_in(bv, mode);
    const bool source = flags.find('V') != std::string_view::npos;
    const bool current = flags.find('I') != std::string_view::npos;
    const bool outside = flags.find('O') != std::string_view::npos;
    const bool current_backward = flags.find('K') != std::string_view::npos;
    // v/.code's defaults: a source's voltage above and forward, a passive bipole's below
    bool below = !source, backward = !source && vdir.old;
    if (vdir.old) {
      if (current && vdir.fix_batteries) below = true, backward = false;
    } else if (current) {
      below = true;
      backward = !current_backward;
    }
    if (key.position) below = key.position == '_';
    if (key.direction) backward = key.direction == '<';
    const VoltagePoints& a = bv.v[(mode * 2 + (below ? 1 : 0)) * 2];
    const VoltagePoints& b = bv.v[(mode * 2 + (below ? 1 : 0)) * 2 + 1];
    const double t = (length - kVoltageLengths[0]) / (kVoltageLengths[1] - kVoltageLengths[0]);
    auto point = [&](int k) {
      return local(at(a[k][0] + t * (b[k][0] - a[k][0]), a[k][1] + t * (b[k][1] - a[k][1])));
    };
    const std::string from = point(0), to = point(1), lab = point(2), c1 = point(3), c2 = point(4);
    // drawvoltagegeneric resets the anchor to center for raised voltages and for american ones on
    // an open (\pgfextra makes no group: the label's node gets it too)
    const std::string anchor =
        !source && (mode == kRaised || (mode == kAmerican && open)) ? "center" : voltage_label_anchor(dir, below);
    const std::string arrow = " node[currarrow, sloped, allow upside down, pos=1, anchor=tip] {} ";
    std::string out;
    if (mode == kEuropean || mode == kStraight) {
      if (source || mode == kStraight) out = backward ? to + " --" + arrow + from : from + " --" + arrow + to;
      else out = backward ? to + " .. controls " + c2 + " and " + c1 + " .." + arrow + from
                          : from + " .. controls " + c1 + " and " + c2 + " .." + arrow + to;
    } else if (source) {
      if (outside) {
        const bool from_plus = vdir.fix_batteries ? backward : !backward;
        out = "node at " + from + " {" + (from_plus ? "$+$" : "$-$") + "} node at " + to + " {" +
              (from_plus ? "$-$" : "$+$") + "}";
      }
    } else {
      const bool from_plus = !backward != vdir.old;
      const std::string& sign_anchor = anchor;
      out = "node[inner sep=0pt, anchor=" + sign_anchor + "] at " + from + " {" + (from_plus ? "$+$" : "$-$") +
            "} node[inner sep=0pt, anchor=" + sign_anchor + "] at " + to + " {" + (from_plus ? "$-$" : "$+$") + "}";
    }
    out += " node[anchor=" + anchor + ", inner sep=2pt] " + (name.empty() ? "" : "(" + name + "voltage) ") + "at " + lab +
           " {" + text + "} ";
    return out;
  }


  // pgfcirccurrent.tex: the current's arrow (a currarrow node on the wire before or after the
  // bipole, halfway along it) and its label beside the arrow.
  template <class Local>
  std::string current_drawing(CurrentKey key, const std::string& text, LibraryHost& host, double dir, bool source,
                              bool voltage_backward, bool short_wire, Point S, Point E, Point left, Point right,
                              const Local& local,
                              const std::string& name) {
    const VoltageDir vdir = settings_in_force(host).dir;
    // i/.code's defaults: forward, after the bipole, above; a source's current (new directions)
    // against its voltage
    bool backward = false, before = false, below = false;
    if (!vdir.old && source) {
      if (voltage_backward) below = true;
      else backward = true, before = true;
    }
    if (key.y) below = key.y == '_';
    if (key.direction) {
      backward = key.direction == '<';
      // i< is also `before`: pgfcirccurrent.tex chooses its definition by the voltage direction
      // when it is read, before the package's options take effect (\AtEndOfPackage)
      if (backward && !key.x) before = true;
    }
    if (key.x) before = key.x == 'b';
    // a short's current runs over the whole segment
    const Point from = short_wire || before ? S : right, to = short_wire || !before ? E : left;
    const Point pos{(from.x + to.x) / 2, (from.y + to.y) / 2};  // current/distance .5
    const double rot = backward ? static_cast<double>(static_cast<long>(dir - 180)) : dir;
    // the label at Iarrow.90 or .-90: currarrow declares no border, and pgf's default border
    // anchor is the shape's center
    const Point lab = pos;
    return " node[currarrow, rotate=" + num(rot) + ", anchor=center] at " + local(pos) + " {} node[anchor=" +
           voltage_label_anchor(dir, below) + "] " + (name.empty() ? "" : "(" + name + "current) ") + "at " +
           local(lab) + " {" + text + "} ";
  }

  // pgfcircflow.tex \pgf@circ@drawflow: the flow's arrow (a flowarrow node beside the wire before
  // or after the bipole, flow/offset (.2) bipole lengths off it, halfway along: flow/distance .5)
  // and its label at the arrow's center (flowarrow declares no border either). f/.code's defaults:
  // forward, after the bipole, above (left of the direction of travel), for sources too.
  template <class Local>
  std::string flow_drawing(CurrentKey key, const std::string& text, double dir, double scale, bool short_wire, Point S,
                           Point E, Point left, Point right, const Local& local, const std::string& name) const {
    const bool backward = key.direction == '<', before = key.x == 'b', below = key.y == '_';
    const Point from = short_wire || before ? S : right, to = short_wire || !before ? E : left;
    const double len = std::hypot(to.x - from.x, to.y - from.y);
    Point n{0, 0};  // left of from -> to; below: right of it
    if (len > 0) n = {-(to.y - from.y) / len, (to.x - from.x) / len};
    // ($(from)!offset!90:(to)$): calc measures the distance in the picture's frame, so that on the
    // page it grows with the picture's scale (lualatex, scale=1.5: 11.95pt)
    const double off = (below ? -1 : 1) * kFlowOffset * kBipoleLength * scale;
    const Point pos{(from.x + to.x) / 2 + n.x * off, (from.y + to.y) / 2 + n.y * off};
    // \pgf@circ@rounded@dir: the direction; a backward flow's turned by 180, decimals stripped
    const double rot = backward ? static_cast<double>(static_cast<long>(dir - 180)) : dir;
    return " node[flowarrow, rotate=" + num(rot) + ", anchor=center] at " + local(pos) + " {} node[anchor=" +
           voltage_label_anchor(dir, below) + "] " + (name.empty() ? "" : "(" + name + "flow) ") + "at " + local(pos) +
           " {" + text + "} ";
  }

  // pgfcircvoltage.tex \pgf@circ@drawvoltage (and pgfcirccurrent.tex, the same table): the label's
  // anchor from the segment's direction (its integer part, \pgf@circ@stripdecimals), away from the
  // bipole.
  static std::string voltage_label_anchor(double dir, bool below) {
    const long d = static_cast<long>(dir);
    auto pick = [&](const char* b, const char* a) { return std::string(below ? b : a); };
    if (d > 4 && d < 86) return pick("north west", "south east");
    if (d > 85 && d < 95) return pick("west", "east");
    if (d > 94 && d < 176) return pick("south west", "north east");
    if (d > 175 && d < 185) return pick("south", "north");
    if (d > 184 && d < 266) return pick("south east", "north west");
    if (d > 265 && d < 275) return pick("east", "west");
    if (d > 274 && d < 356) return pick("north east", "south west");
    return pick("north", "south");
  }

  template <class Local>
  std::string label_node(LabelAlign align, Point p, double dir, int side, double space, double scale,
                         const std::string& text, const Local& local) const {
    auto strip = [](double v) { return static_cast<long>(v); };  // \pgf@circ@stripdecimals
    auto tmod = [](long a, long m) { return a % m; };             // \pgfmathmod: the sign of a
    const double m90 = std::fmod(dir, 90.0);
    const bool rotated = align == LabelAlign::rotate ||
                         (align == LabelAlign::smart && strip(m90) > 20 && strip(m90) < 70);
    if (rotated) {  // \pgf@circ@drawrotlabels
      double res = 1.5 * space;
      if (side <= 0) res *= 1.5;
      long rot = strip(std::round(dir));
      double labrot = static_cast<double>(rot);
      if (rot > 90 && rot < 270) {
        labrot = static_cast<double>(strip(dir - 180));
        if (side > 0) res *= 1.5;
      }
      const double posangle = static_cast<double>(strip(side > 0 ? dir + 90 : dir - 90));
      const Point c{p.x + res * std::cos(posangle * kDeg), p.y + res * std::sin(posangle * kDeg)};
      return "node[anchor=mid, rotate=" + num(labrot) + "] at " + local(c) + " {" + text + "}";
    }
    // \pgf@circ@drawreglabels
    long labanc = strip(std::round(dir - 90));
    if (side < 0) labanc += 180;
    labanc = tmod(labanc, 360);
    const long t = strip(std::round(static_cast<double>(labanc + 90)));
    long r = tmod(t, 180);
    if (r > 135) r -= 180;
    std::string anchor = std::to_string(labanc);
    bool shift = false;
    if (r > 84 && r < 96) {
      const long labpos = strip(dir);
      if (labpos > 180) anchor = side > 0 ? "mid west" : "mid east";
      else anchor = side > 0 ? "mid east" : "mid west";
    } else if (r < 6 && r > -6) {
      if (side < 0) shift = labanc > 90;
      else shift = labanc < 90 || labanc > 180;
      anchor = shift ? "base" : "north";
    }
    if (shift) {
      const double a = -static_cast<double>(labanc) * kDeg;
      p = {p.x + space * std::cos(a), p.y + space * std::sin(a)};
    }
    return "node[anchor=" + anchor + ", inner sep=" + pt(0.5 * space / (scale > 0 ? scale : 1)) + ", outer sep=0pt] at " + local(p) +
           " {\\strut " + text + "}";
  }

  void unsupported(LibraryHost& host, const std::string& what, const std::string& message, std::uint32_t b,
                   std::uint32_t e) {
    if (!reported_.insert(what).second) return;
    host.problem("unsupported-construct", message, b, e);
  }

  CircuitSettings defaults_;
  std::vector<std::string> unmodelled_before_;
  std::string ports_before_;
  std::set<std::string> reported_;
};

class Circuitikz final : public Package {
 public:
  std::string_view name() const override { return "circuitikz"; }

  bool names_shape(std::string_view name, const tex::ExpandedDocument& doc) const override {
    return doc.loads("circuitikz") && find_node_shape(name) != nullptr;
  }

  // The circuitikz settings among the picture's or a scope's options (the /tikz styles `american`,
  // `european resistors`, `straight voltages`, `voltage dir=RP`...), appended to kSettingsStyle in
  // the current scope: their own (empty) styles do nothing for TikZ.
  void remember_options(tex::StyleTable& styles, const std::string& options) const override {
    std::string body;
    for (const auto& it : split_options(options)) {
      SettingItems si = setting_items(it.key, it.value);
      if (si.effect != SettingEffect::applied) continue;
      for (const auto& i : si.items) body += (body.empty() ? "" : ", ") + i;
    }
    if (body.empty()) return;
    tex::StyleDefinition def;
    if (const tex::StyleDefinition* outer = styles.find(std::string(kSettingsStyle))) def = *outer;
    def.body = def.body.empty() ? body : def.body + ", " + body;
    styles.define(std::string(kSettingsStyle), def);
  }

  // The shape as pgf sees it: its anchors, a rectangular border through them, and as its path
  // box the drawing's extent that lualatex measured (strokes included: the picture grows by it,
  // and pgf adds nothing for the node's border, which circuitikz's shapes do not draw).
  std::shared_ptr<const ShapeOutline> shape(const NodeShapeInput& in) const override {
    const NodeShapeSize* n = find_node_shape(in.shape_name);
    if (n == nullptr) return nullptr;
    auto o = std::make_shared<ShapeOutline>();
    auto first = std::lower_bound(std::begin(kNodeAnchors), std::end(kNodeAnchors), n->name,
                                  [](const NodeAnchor& a, std::string_view s) { return a.shape < s; });
    for (auto it = first; it != std::end(kNodeAnchors) && it->shape == n->name; ++it)
      o->anchors.emplace_back(std::string(it->anchor), Point{it->x, it->y});
    o->anchors.insert(o->anchors.end(), {{"center", {0, 0}},           {"north", {0, n->north}},          {"south", {0, n->south}},
                  {"east", {n->east, 0}},       {"west", {n->west, 0}},            {"north east", {n->east, n->north}},
                  {"north west", {n->west, n->north}}, {"south east", {n->east, n->south}},
                  {"south west", {n->west, n->south}}});
    o->border = {{n->west, n->south}, {n->east, n->south}, {n->east, n->north}, {n->west, n->north}};
    o->outer_box = Box{n->min_x, n->min_y, n->max_x, n->max_y};
    o->path_box = o->outer_box;
    // where a circuitikz shape writes its text (beside a transistor, above a vcc arrow, inside an
    // op amp) is the shape's own affair: not modelled
    o->text_unplaced = true;
    // its symbol (a transistor's leads and body) is drawn by the shape, not modelled as elements
    o->paints_symbol = true;
    return o;
  }
  std::unique_ptr<PackagePicture> begin_document_picture(const tex::Picture& pic,
                                                         const tex::ExpandedDocument& doc) const override {
    for (const auto& p : doc.packages) {
      if (p.name != "circuitikz") continue;
      CircuitSettings defaults;
      // \ProcessOptions runs the given options in the order the package declares them
      // (circuitikz.sty), after \ExecuteOptions's defaults (CircuitSettings)
      const auto options = split_options(p.options);
      auto given = [&](std::string_view o) {
        return std::any_of(options.begin(), options.end(), [&](const tex::RawItem& it) { return it.key == o; });
      };
      for (std::string_view o :
           {"european", "american", "europeanvoltage", "straightvoltages", "americanvoltage", "europeanvoltages",
            "americanvoltages", "oldvoltagedirection", "nooldvoltagedirection", "RPvoltages", "EFvoltages",
            "americanresistor", "europeanresistor", "americanresistors", "europeanresistors", "americaninductor",
            "europeaninductor", "cuteinductor", "americaninductors", "europeaninductors", "cuteinductors",
            "straightlabels", "rotatelabels", "smartlabels"})
        if (given(o))
          apply_items(defaults, setting_items(o, ""));
      // \ctikzset outside any picture before this one: it holds from there on (the front end does not
      // follow TeX groups outside pictures; a \ctikzset in a group that closed before the picture
      // is taken as still in force)
      std::vector<std::string> unmodelled;
      std::string ports;
      const std::size_t index = static_cast<std::size_t>(&pic - doc.pictures.data());
      const bool in_doc = !doc.pictures.empty() && &pic >= doc.pictures.data() && index < doc.pictures.size();
      for (const auto& sc : doc.setup_commands) {
        if (!in_doc || sc.pictures_before > index) continue;
        const std::string_view t = sc.st.text;
        if (t.rfind("\\ctikzset", 0) != 0 && t.rfind("\\circuitikzset", 0) != 0) continue;
        for (std::string_view body : ctikzset_bodies(t))
          for (const auto& it : split_options(body)) {
            SettingItems si = setting_items(it.key, it.value);
            if (si.effect == SettingEffect::unknown) unmodelled.push_back(it.key);
            if (is_logic_ports_choice(it))
              ports = it.value;
            apply_items(defaults, si);
          }
      }
      return std::make_unique<CircuitikzPicture>(std::move(defaults), std::move(unmodelled), std::move(ports));
    }
    return nullptr;
  }
};

}  // namespace
}  // namespace tikzlint::ir

namespace tikzlint::packages {
std::unique_ptr<ir::Package> circuitikz() { return std::make_unique<ir::Circuitikz>(); }
}  // namespace tikzlint::packages
