#include "spec/spec.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <memory>
#include <regex>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "checks/angles.hpp"
#include "checks/label_text.hpp"
#include "checks/rule_support.hpp"
#include "checks/scene.hpp"
#include "support/ascii.hpp"
#include "support/read_file.hpp"

namespace tikzlint::spec {

using checks::Verdict;
using json = nlohmann::json;
namespace geo = checks::geo;
using geo::operator-;

const char* to_string(ComponentKind k) {
  switch (k) {
    case ComponentKind::node: return "node";
    case ComponentKind::arrow: return "arrow";
    case ComponentKind::axis: return "axis";
    case ComponentKind::circle: return "circle";
    case ComponentKind::polygon: return "polygon";
    case ComponentKind::angle_mark: return "angle mark";
    case ComponentKind::right_angle_mark: return "right-angle mark";
  }
  return "node";
}

const checks::RuleDoc& doc() {
  static const checks::RuleDoc d = {
      "spec",
      "the diagram does not show what its spec (--spec FILE) requires",
      "With `--spec FILE`, each item of the spec (docs/spec.md) is looked for in the pictures of the\n"
      "file: required labels, relations between labelled elements (an arrow tip gives the direction),\n"
      "required components, the geometry of a figure (a labelled angle at a vertex, a labelled side, a\n"
      "right angle) and negative constraints. One finding per unmet item, naming the candidate that\n"
      "came nearest. Angles are checked with angle_labels' tolerance and association distance.\n"
      "\n"
      "n/a: no spec was given. Indeterminate: an item is unmet but the picture's geometry is incomplete\n"
      "(something was not modelled, and the missing piece may be in it), or a rule named in\n"
      "rules_pass is indeterminate.",
      "{\"required_relations\": [{\"from\": \"ATP\", \"to\": \"ADP\"}]}\n"
      "% with \\draw[->] (adp) -- (atp);  the arrow runs the other way",
      "Draw what the spec asks for, or correct the spec.",
      {
          {"endpoint_gap_pt", 8.0, "pt",
           "an edge ends at its node's border, pulled back by `shorten`, the outer sep or an arrow tip,\n"
           "each a few points; 8pt is about two arrow-tip lengths"},
          {"vertex_label_pt", 30.0, "pt",
           "a vertex name is placed beside its vertex (`above left`, `label=`), within about two text\n"
           "lines of it"},
          {"vertex_match_pt", 4.0, "pt",
           "two readings of one vertex (an arc's centre, a line's end) agree to the width of a thick line"},
          {"attach_pt", 18.0, "pt",
           "a label on an edge or side sits within about a text line and a half of it (label_association's\n"
           "reading of attached labels)"},
          {"axis_extent_ratio", 0.5, "ratio",
           "an axis spans at least half of the picture along its direction; a shorter arrow is a vector"},
      },
  };
  return d;
}

// --- text -------------------------------------------------------------------------------------

namespace {

// Commands whose braced arguments are not text a reader sees (their count).
struct Dropped {
  std::string_view name;
  int args;
};
constexpr Dropped kDropped[] = {{"hspace", 1}, {"vspace", 1}, {"color", 1}, {"textcolor", 1},
                                {"rule", 2},   {"phantom", 1}, {"hphantom", 1}, {"vphantom", 1},
                                {"label", 1},  {"fontsize", 2}, {"includegraphics", 1}, {"setlength", 2}};

bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// Letters a reader sees as one character (checks::plain_text knows the few that label angles).
struct Glyph {
  std::string_view name, text;
};
constexpr Glyph kGreek[] = {
    {"alpha", "α"},   {"beta", "β"},    {"gamma", "γ"},   {"delta", "δ"},   {"epsilon", "ε"}, {"varepsilon", "ε"},
    {"zeta", "ζ"},    {"eta", "η"},     {"theta", "θ"},   {"vartheta", "θ"}, {"iota", "ι"},   {"kappa", "κ"},
    {"lambda", "λ"},  {"mu", "μ"},      {"nu", "ν"},      {"xi", "ξ"},      {"pi", "π"},      {"rho", "ρ"},
    {"sigma", "σ"},   {"tau", "τ"},     {"upsilon", "υ"}, {"phi", "φ"},     {"varphi", "φ"},  {"chi", "χ"},
    {"psi", "ψ"},     {"omega", "ω"},   {"Gamma", "Γ"},   {"Delta", "Δ"},   {"Theta", "Θ"},   {"Lambda", "Λ"},
    {"Xi", "Ξ"},      {"Pi", "Π"},      {"Sigma", "Σ"},   {"Upsilon", "Υ"}, {"Phi", "Φ"},     {"Psi", "Ψ"},
    {"Omega", "Ω"},   {"to", "→"},      {"rightarrow", "→"}, {"leftarrow", "←"}, {"infty", "∞"}, {"pm", "±"},
    {"leq", "≤"},     {"geq", "≥"},     {"le", "≤"},      {"ge", "≥"},      {"neq", "≠"},
};
// Accents: the argument, then the combining mark (so `\hat y` and `\hat{y}` read alike).
constexpr Glyph kAccents[] = {{"hat", "\u0302"}, {"widehat", "\u0302"}, {"bar", "\u0304"}, {"overline", "\u0305"},
                              {"tilde", "\u0303"}, {"widetilde", "\u0303"}, {"vec", "\u20d7"}, {"dot", "\u0307"},
                              {"ddot", "\u0308"}};

std::size_t skip_group(std::string_view s, std::size_t i, char open, char close) {
  int depth = 0;
  for (; i < s.size(); ++i) {
    if (s[i] == '\\') {
      ++i;
      continue;
    }
    if (s[i] == open) ++depth;
    if (s[i] == close && --depth == 0) return i + 1;
  }
  return s.size();
}

// Removes what is not text before checks::plain_text reads the rest: the arguments of
// kDropped commands (a \textcolor keeps its text), the optional argument of `\\[2pt]`.
std::string strip_markup(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    if (s[i] == '\\' && i + 1 < s.size() && s[i + 1] == '\\') {
      out += " ";
      i += 2;
      while (i < s.size() && s[i] == '*') ++i;
      if (i < s.size() && s[i] == '[') i = skip_group(s, i, '[', ']');
      continue;
    }
    if (s[i] == '\\' && i + 1 < s.size() && is_letter(s[i + 1])) {
      std::size_t j = i + 1;
      while (j < s.size() && is_letter(s[j])) ++j;
      std::string_view word = s.substr(i + 1, j - i - 1);
      bool glyph = false;
      for (const auto& g : kGreek)
        if (g.name == word) {
          out.append(g.text);
          glyph = true;
        }
      if (glyph) {
        i = j;
        continue;
      }
      const Glyph* accent = nullptr;
      for (const auto& a : kAccents)
        if (a.name == word) accent = &a;
      if (accent) {
        std::size_t k = j;
        while (k < s.size() && s[k] == ' ') ++k;
        std::string arg;
        if (k < s.size() && s[k] == '{') {
          std::size_t e = skip_group(s, k, '{', '}');
          arg = strip_markup(s.substr(k + 1, e - k - 2));
          k = e;
        } else if (k < s.size() && s[k] == '\\') {
          std::size_t e = k + 1;
          while (e < s.size() && is_letter(s[e])) ++e;
          arg = strip_markup(s.substr(k, e - k));
          k = e;
        } else if (k < s.size()) {
          arg = std::string(1, s[k++]);
        }
        out += arg;
        out.append(accent->text);
        i = k;
        continue;
      }
      const Dropped* hit = nullptr;
      for (const auto& d : kDropped)
        if (d.name == word) hit = &d;
      if (hit) {
        std::size_t k = j;
        while (k < s.size() && s[k] == '*') ++k;
        if (k < s.size() && s[k] == '[') k = skip_group(s, k, '[', ']');
        for (int a = 0; a < hit->args; ++a) {
          while (k < s.size() && s[k] == ' ') ++k;
          if (k < s.size() && s[k] == '{') k = skip_group(s, k, '{', '}');
        }
        i = k;
        out += ' ';
        continue;
      }
      out.append(s.substr(i, j - i));
      i = j;
      continue;
    }
    out += s[i++];
  }
  return out;
}

std::string fold_case(std::string s) {
  for (char& c : s)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return s;
}

// The comparison key of a normalised text: without spaces ("5 cm" == "5cm"), case folded
// unless the spec is case sensitive.
std::string key_of(const std::string& normalised, bool case_sensitive) {
  std::string k;
  for (char c : normalised)
    if (c != ' ') k += c;
  return case_sensitive ? k : fold_case(k);
}

bool word_char(char c) {
  return is_letter(c) || (c >= '0' && c <= '9') || static_cast<unsigned char>(c) >= 0x80;
}

// `needle` occurs in `hay` (both normalised, spaces kept) as a run of whole words.
bool contains_words(const std::string& hay, const std::string& needle) {
  if (needle.empty()) return false;
  for (std::size_t at = hay.find(needle); at != std::string::npos; at = hay.find(needle, at + 1)) {
    bool left = at == 0 || !word_char(hay[at - 1]) || !word_char(needle.front());
    std::size_t end = at + needle.size();
    bool right = end == hay.size() || !word_char(hay[end]) || !word_char(needle.back());
    if (left && right) return true;
  }
  return false;
}

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diag = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

}  // namespace

std::string normalise_text(std::string_view tex) { return checks::plain_text(strip_markup(tex)); }

// --- parsing ----------------------------------------------------------------------------------

namespace {

class Reader {
 public:
  explicit Reader(std::vector<std::string>& errors) : errors_(errors) {}

  void error(const std::string& where, const std::string& what) { errors_.push_back((where.empty() ? "/" : where) + ": " + what); }

  // Reports keys of `obj` outside `valid`, listing the valid ones.
  void only_keys(const json& obj, const std::string& where, std::initializer_list<const char*> valid) {
    for (auto it = obj.begin(); it != obj.end(); ++it) {
      bool ok = false;
      for (const char* v : valid) ok |= it.key() == v;
      if (ok) continue;
      std::string list;
      for (const char* v : valid) list += std::string(list.empty() ? "" : ", ") + v;
      error(where, "unknown key '" + it.key() + "' (valid keys: " + list + ")");
    }
  }

  std::optional<std::string> string(const json& obj, const std::string& where, const char* key, bool required) {
    auto it = obj.find(key);
    if (it == obj.end()) {
      if (required) error(where, std::string("missing key '") + key + "'");
      return std::nullopt;
    }
    if (!it->is_string() || it->get_ref<const std::string&>().empty()) {
      error(where + "/" + key, "expected a non-empty string");
      return std::nullopt;
    }
    return it->get<std::string>();
  }

  std::optional<long long> integer(const json& obj, const std::string& where, const char* key, long long min) {
    auto it = obj.find(key);
    if (it == obj.end()) return std::nullopt;
    if (!it->is_number_integer() || it->get<long long>() < min) {
      error(where + "/" + key, "expected an integer of at least " + std::to_string(min));
      return std::nullopt;
    }
    return it->get<long long>();
  }

  std::vector<std::string> strings(const json& v, const std::string& where) {
    std::vector<std::string> out;
    if (!v.is_array()) {
      error(where, "expected an array of strings");
      return out;
    }
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (v[i].is_string() && !v[i].get_ref<const std::string&>().empty()) out.push_back(v[i].get<std::string>());
      else error(where + "/" + std::to_string(i), "expected a non-empty string");
    }
    return out;
  }

 private:
  std::vector<std::string>& errors_;
};

void read_labels(Reader& rd, const json& v, Spec& s) {
  const std::string where = "/required_labels";
  if (!v.is_array()) return rd.error(where, "expected an array");
  for (std::size_t i = 0; i < v.size(); ++i) {
    const std::string w = where + "/" + std::to_string(i);
    LabelItem item;
    if (v[i].is_string()) {
      item.text = v[i].get<std::string>();
      if (item.text.empty()) rd.error(w, "expected a non-empty string");
    } else if (v[i].is_object()) {
      rd.only_keys(v[i], w, {"text", "min_count", "match"});
      item.text = rd.string(v[i], w, "text", true).value_or("");
      item.min_count = static_cast<int>(rd.integer(v[i], w, "min_count", 1).value_or(1));
      if (auto m = rd.string(v[i], w, "match", false)) {
        if (*m == "contains") item.match = Match::contains;
        else if (*m != "exact") rd.error(w + "/match", "expected \"exact\" or \"contains\"");
      }
    } else {
      rd.error(w, "expected a string or an object {text, min_count, match}");
      continue;
    }
    s.labels.push_back(std::move(item));
  }
}

void read_relations(Reader& rd, const json& v, Spec& s) {
  const std::string where = "/required_relations";
  if (!v.is_array()) return rd.error(where, "expected an array");
  for (std::size_t i = 0; i < v.size(); ++i) {
    const std::string w = where + "/" + std::to_string(i);
    if (!v[i].is_object()) {
      rd.error(w, "expected an object {from, to, label, directed}");
      continue;
    }
    rd.only_keys(v[i], w, {"from", "to", "label", "directed"});
    RelationItem r;
    r.from = rd.string(v[i], w, "from", true).value_or("");
    r.to = rd.string(v[i], w, "to", true).value_or("");
    r.label = rd.string(v[i], w, "label", false);
    if (auto it = v[i].find("directed"); it != v[i].end()) {
      if (it->is_boolean()) r.directed = it->get<bool>();
      else rd.error(w + "/directed", "expected true or false");
    }
    s.relations.push_back(std::move(r));
  }
}

void read_components(Reader& rd, const json& v, Spec& s) {
  static const std::pair<const char*, ComponentKind> kKinds[] = {
      {"node", ComponentKind::node},         {"arrow", ComponentKind::arrow},
      {"axis", ComponentKind::axis},         {"circle", ComponentKind::circle},
      {"polygon", ComponentKind::polygon},   {"angle_mark", ComponentKind::angle_mark},
      {"right_angle_mark", ComponentKind::right_angle_mark}};
  const std::string where = "/required_components";
  if (!v.is_array()) return rd.error(where, "expected an array");
  for (std::size_t i = 0; i < v.size(); ++i) {
    const std::string w = where + "/" + std::to_string(i);
    if (!v[i].is_object()) {
      rd.error(w, "expected an object {kind, label, count, sides}");
      continue;
    }
    rd.only_keys(v[i], w, {"kind", "label", "count", "sides"});
    ComponentItem c;
    auto kind = rd.string(v[i], w, "kind", true);
    if (kind) {
      bool found = false;
      for (const auto& [name, k] : kKinds)
        if (*kind == name) {
          c.kind = k;
          found = true;
        }
      if (!found) {
        std::string list;
        for (const auto& [name, k] : kKinds) list += std::string(list.empty() ? "" : ", ") + name;
        rd.error(w + "/kind", "unknown kind '" + *kind + "' (valid kinds: " + list + ")");
      }
    }
    c.label = rd.string(v[i], w, "label", false);
    c.count = static_cast<int>(rd.integer(v[i], w, "count", 1).value_or(1));
    c.sides = static_cast<int>(rd.integer(v[i], w, "sides", 3).value_or(0));
    if (c.sides && c.kind != ComponentKind::polygon) rd.error(w + "/sides", "only a polygon has sides");
    s.components.push_back(std::move(c));
  }
}

void read_geometry(Reader& rd, const json& v, Spec& s) {
  const std::string where = "/geometry";
  if (!v.is_array()) return rd.error(where, "expected an array");
  for (std::size_t i = 0; i < v.size(); ++i) {
    const std::string w = where + "/" + std::to_string(i);
    if (!v[i].is_object()) {
      rd.error(w, "expected an object with a kind: angle, side or right_angle");
      continue;
    }
    GeometryItem g;
    auto kind = rd.string(v[i], w, "kind", true);
    if (!kind) continue;
    if (*kind == "angle") {
      g.kind = GeometryKind::angle;
      rd.only_keys(v[i], w, {"kind", "at", "degrees"});
      g.at = rd.string(v[i], w, "at", true).value_or("");
      auto it = v[i].find("degrees");
      if (it == v[i].end() || !it->is_number() || it->get<double>() <= 0 || it->get<double>() >= 360)
        rd.error(w + "/degrees", "expected a number of degrees between 0 and 360");
      else g.degrees = it->get<double>();
    } else if (*kind == "side") {
      g.kind = GeometryKind::side;
      rd.only_keys(v[i], w, {"kind", "between", "label"});
      auto it = v[i].find("between");
      if (it == v[i].end() || !it->is_array() || it->size() != 2 || !(*it)[0].is_string() || !(*it)[1].is_string())
        rd.error(w + "/between", "expected two vertex labels, e.g. [\"A\", \"B\"]");
      else g.between = {(*it)[0].get<std::string>(), (*it)[1].get<std::string>()};
      g.label = rd.string(v[i], w, "label", false);
    } else if (*kind == "right_angle") {
      g.kind = GeometryKind::right_angle;
      rd.only_keys(v[i], w, {"kind", "at"});
      g.at = rd.string(v[i], w, "at", true).value_or("");
    } else {
      rd.error(w + "/kind", "unknown kind '" + *kind + "' (valid kinds: angle, side, right_angle)");
      continue;
    }
    s.geometry.push_back(std::move(g));
  }
}

void read_negative(Reader& rd, const json& v, Spec& s) {
  const std::string where = "/negative_constraints";
  if (!v.is_object()) return rd.error(where, "expected an object {labels, patterns, rules_pass}");
  rd.only_keys(v, where, {"labels", "patterns", "rules_pass"});
  if (v.contains("labels")) s.negative.labels = rd.strings(v["labels"], where + "/labels");
  if (v.contains("patterns")) {
    s.negative.patterns = rd.strings(v["patterns"], where + "/patterns");
    for (std::size_t i = 0; i < s.negative.patterns.size(); ++i) {
      try {
        std::regex re(s.negative.patterns[i], std::regex::ECMAScript);
      } catch (const std::regex_error& e) {
        rd.error(where + "/patterns/" + std::to_string(i), std::string("invalid regular expression: ") + e.what());
      }
    }
  }
  if (v.contains("rules_pass")) {
    s.negative.rules_pass = rd.strings(v["rules_pass"], where + "/rules_pass");
    for (std::size_t i = 0; i < s.negative.rules_pass.size(); ++i)
      if (!checks::find_rule(s.negative.rules_pass[i])) {
        std::string list;
        for (const auto& r : checks::registry()) list += (list.empty() ? "" : ", ") + r.doc->name;
        rd.error(where + "/rules_pass/" + std::to_string(i),
                 "unknown rule '" + s.negative.rules_pass[i] + "' (rules: " + list + ")");
      }
  }
}

}  // namespace

std::optional<Spec> parse(std::string_view json_text, std::vector<std::string>& errors) {
  const std::size_t before = errors.size();
  json j;
  try {
    j = json::parse(json_text.begin(), json_text.end());
  } catch (const json::parse_error& e) {
    errors.push_back(std::string("not valid JSON: ") + e.what());
    return std::nullopt;
  }
  Reader rd(errors);
  if (!j.is_object()) {
    rd.error("", "expected a JSON object");
    return std::nullopt;
  }
  rd.only_keys(j, "", {"$schema", "description", "case_sensitive", "required_labels", "required_relations",
                       "required_components", "geometry", "negative_constraints"});
  Spec s;
  if (auto it = j.find("case_sensitive"); it != j.end()) {
    if (it->is_boolean()) s.case_sensitive = it->get<bool>();
    else rd.error("/case_sensitive", "expected true or false");
  }
  if (j.contains("required_labels")) read_labels(rd, j["required_labels"], s);
  if (j.contains("required_relations")) read_relations(rd, j["required_relations"], s);
  if (j.contains("required_components")) read_components(rd, j["required_components"], s);
  if (j.contains("geometry")) read_geometry(rd, j["geometry"], s);
  if (j.contains("negative_constraints")) read_negative(rd, j["negative_constraints"], s);
  if (errors.size() > before) return std::nullopt;
  return s;
}

std::optional<Spec> load(const std::string& path, std::vector<std::string>& errors) {
  constexpr std::size_t kMaxSpecBytes = 4u << 20;  // a spec is a few kilobytes; refuse a huge file
  FileText in = read_file(path, kMaxSpecBytes);
  if (in.status != FileText::Status::ok) {
    errors.push_back(path + ": cannot read the spec" +
                     (in.status == FileText::Status::too_large ? std::string(" (larger than 4 MiB)") : std::string()));
    return std::nullopt;
  }
  std::vector<std::string> mine;
  auto s = parse(in.text, mine);
  for (auto& e : mine) errors.push_back(path + ": " + e);
  if (s) s->path = path;
  return s;
}

// --- evaluation -------------------------------------------------------------------------------

namespace {

struct TextNode {
  std::size_t node = 0;
  std::string normalised;  // normalise_text of the node's text (case folded when insensitive)
  std::string key;         // key_of(normalised)
};

// One picture as the spec reads it.
struct Picture {
  const ir::Diagram* d = nullptr;
  std::unique_ptr<checks::Scene> scene;
  std::vector<TextNode> texts;  // every visible node with text
  std::optional<std::string> incomplete;
};

// An edge: a visible stroke whose two ends touch nodes (or the other end is free).
struct Edge {
  const Picture* pic = nullptr;
  std::size_t element = 0;
  std::optional<std::size_t> a, b;  // nodes at the first and the last point
  bool tip_a = false, tip_b = false;  // an arrow tip at that end
};

class Evaluator {
 public:
  Evaluator(const Spec& spec, const std::vector<ir::Diagram>& diagrams,
            const std::vector<std::pair<std::string, Verdict>>& verdicts, const checks::Config& cfg,
            const SourceManager* sm, SourceRange picture)
      : spec_(spec), verdicts_(verdicts), sm_(sm), picture_(picture) {
    const auto& sd = doc();
    endpoint_gap_ = cfg.get(sd, "endpoint_gap_pt");
    vertex_label_ = cfg.get(sd, "vertex_label_pt");
    vertex_match_ = cfg.get(sd, "vertex_match_pt");
    attach_ = cfg.get(sd, "attach_pt");
    axis_ratio_ = cfg.get(sd, "axis_extent_ratio");
    // the rubric's own tolerances (angle_labels), as configured
    if (const checks::Rule* r = checks::find_rule("angle_labels")) {
      angle_tol_ = cfg.get(*r->doc, "tolerance_deg");
      angle_radius_ = cfg.get(*r->doc, "association_pt");
      mark_max_ = cfg.get(*r->doc, "max_mark_pt");
      mark_ratio_ = cfg.get(*r->doc, "mark_line_ratio");
    }
    for (const auto& d : diagrams) {
      auto p = std::make_unique<Picture>();
      p->d = &d;
      p->scene = std::make_unique<checks::Scene>(d);
      p->incomplete = checks::incomplete_geometry(d);
      // every node with text a reader sees (the scene's labels leave out texts it cannot read
      // as a measurement or a name, such as a lone "$\Sigma$")
      for (std::size_t i = 0; i < d.nodes.size(); ++i) {
        if (d.nodes[i].shape == ir::NodeShape::coordinate) continue;
        TextNode t;
        t.node = i;
        t.normalised = normalise_text(d.nodes[i].text);
        if (!spec.case_sensitive) t.normalised = fold_case(t.normalised);
        t.key = key_of(t.normalised, true);
        if (!t.key.empty()) p->texts.push_back(std::move(t));
      }
      pics_.push_back(std::move(p));
    }
    for (const auto& p : pics_) collect_edges(*p);
    auto name = [&](const std::string& s) { named_.insert(key_of(spec_norm(s), true)); };
    for (const auto& l : spec.labels) name(l.text);
    for (const auto& r : spec.relations) {
      name(r.from);
      name(r.to);
      if (r.label) name(*r.label);
    }
    for (const auto& c : spec.components)
      if (c.label) name(*c.label);
    for (const auto& g : spec.geometry) {
      name(g.at);
      name(g.between.first);
      name(g.between.second);
      if (g.label) name(*g.label);
    }
  }

  Outcome run() {
    for (const auto& l : spec_.labels) check_label(l);
    for (const auto& r : spec_.relations) check_relation(r);
    for (const auto& c : spec_.components) check_component(c);
    for (const auto& g : spec_.geometry) check_geometry(g);
    check_negative();
    if (out_.items == 0) {
      out_.verdict = Verdict::pass;  // an empty spec asks for nothing
    } else if (certain_failure_) {
      out_.verdict = Verdict::fail;
    } else if (uncertain_) {
      out_.verdict = Verdict::indeterminate;
    } else {
      out_.verdict = out_.met == out_.items ? Verdict::pass : Verdict::fail;
    }
    if (out_.verdict == Verdict::indeterminate)
      for (auto& f : out_.findings) f.severity = Severity::note;
    return std::move(out_);
  }

 private:
  // --- reporting ---
  std::string line_of(const SourceRange& r) const {
    if (!sm_ || !r.valid) return "";
    return " at line " + std::to_string(sm_->get(r.file).line_col(r.begin).line);
  }
  std::string text_of(std::size_t node, const Picture& p) const { return normalise_text(p.d->nodes[node].text); }

  // An unmet item: a finding at the nearest candidate's place (or unlocated). Whether it fails
  // the spec depends on whether the geometry could hide what is missing.
  void unmet(const std::string& item, std::string message, const SourceRange& at, json evidence) {
    Diagnostic dg;
    dg.rule = "spec";
    dg.severity = Severity::warning;
    dg.message = std::move(message);
    // no candidate: the item is missing from the picture as a whole
    dg.range = at.valid ? at : picture_;
    evidence["item"] = item;
    dg.evidence = std::move(evidence);
    if (!spec_.path.empty()) dg.notes.push_back({"required by " + spec_.path + " " + item, {}});
    out_.findings.push_back(std::move(dg));
    bool any_incomplete = false;
    for (const auto& p : pics_) any_incomplete |= p->incomplete.has_value();
    if (any_incomplete) {
      uncertain_ = true;
      out_.findings.back().notes.push_back({"the picture's geometry is incomplete, so the item may be in what was "
                                            "not modelled: " + *first_incomplete(),
                                            {}});
    } else {
      certain_failure_ = true;
    }
  }
  std::optional<std::string> first_incomplete() const {
    for (const auto& p : pics_)
      if (p->incomplete) return p->incomplete;
    return std::nullopt;
  }

  // --- text matching ---
  std::string spec_norm(const std::string& s) const {
    std::string n = normalise_text(s);
    return spec_.case_sensitive ? n : fold_case(n);
  }
  bool text_matches(const TextNode& t, const std::string& wanted_norm, Match m) const {
    if (m == Match::contains) return contains_words(t.normalised, wanted_norm);
    return t.key == key_of(wanted_norm, true);
  }
  struct Found {
    const Picture* pic;
    std::size_t node;
  };
  std::vector<Found> nodes_with(const std::string& text, Match m = Match::exact) const {
    std::vector<Found> out;
    const std::string want = spec_norm(text);
    for (const auto& p : pics_)
      for (const auto& t : p->texts)
        if (text_matches(t, want, m)) out.push_back({p.get(), t.node});
    return out;
  }
  // The label nearest in spelling to `text`, for the evidence of a missing one. Between labels
  // as near, one that no item of the spec names is the likelier misspelling ("ADQ" for a
  // missing "ADP" rather than the "ATP" the spec asks for as well).
  std::optional<Found> nearest_spelling(const std::string& text) const {
    const std::string want = key_of(spec_norm(text), true);
    std::optional<Found> best;
    std::pair<std::size_t, bool> best_d{std::numeric_limits<std::size_t>::max(), true};
    for (const auto& p : pics_)
      for (const auto& t : p->texts) {
        std::pair<std::size_t, bool> dist{edit_distance(t.key, want), named_.count(t.key) > 0};
        if (dist < best_d) {
          best_d = dist;
          best = Found{p.get(), t.node};
        }
      }
    // more than half the letters changed is not a misspelling of it
    if (best && best_d.first * 2 > std::max<std::size_t>(want.size(), 1)) return std::nullopt;
    return best;
  }
  std::string missing_text(const std::string& text, SourceRange& at, json& ev) const {
    std::string msg = "no label '" + text + "' in the diagram";
    if (auto near = nearest_spelling(text)) {
      const auto& n = near->pic->d->nodes[near->node];
      msg += "; nearest is '" + text_of(near->node, *near->pic) + "'" + line_of(n.prov.range);
      at = n.prov.range;
      ev["nearest"] = text_of(near->node, *near->pic);
    }
    return msg;
  }

  // --- labels ---
  void check_label(const LabelItem& item) {
    ++out_.items;
    auto found = nodes_with(item.text, item.match);
    if (static_cast<int>(found.size()) >= item.min_count) {
      ++out_.met;
      return;
    }
    SourceRange at;
    json ev = {{"required", item.text}, {"min_count", item.min_count}, {"found", found.size()}};
    std::string msg;
    if (found.empty()) {
      msg = missing_text(item.text, at, ev);
    } else {
      msg = "label '" + item.text + "' appears " + std::to_string(found.size()) + " times; at least " +
            std::to_string(item.min_count) + " required";
      at = found.front().pic->d->nodes[found.front().node].prov.range;
    }
    unmet("required_labels '" + item.text + "'", msg, at, std::move(ev));
  }

  // --- edges ---
  std::optional<std::size_t> node_at(const Picture& p, geo::Point pt) const {
    std::optional<std::size_t> best;
    double best_gap = endpoint_gap_;
    for (std::size_t i = 0; i < p.d->nodes.size(); ++i) {
      const auto& n = p.d->nodes[i];
      if (n.is_label || n.on_path) continue;  // labels, and nodes placed along a path, are not its ends
      const ir::Box& b = n.box;
      double dx = std::max({b.xmin - pt.x, 0.0, pt.x - b.xmax});
      double dy = std::max({b.ymin - pt.y, 0.0, pt.y - b.ymax});
      double gap = std::sqrt(dx * dx + dy * dy);
      if (gap <= best_gap) {
        // inside two nodes (a label over a shape): the smaller one is meant
        if (best && gap == 0 && best_gap == 0) {
          const auto& o = p.d->nodes[*best].box;
          if (b.width() * b.height() >= o.width() * o.height()) continue;
        }
        best_gap = gap;
        best = i;
      }
    }
    return best;
  }

  void collect_edges(const Picture& p) {
    for (std::size_t i = 0; i < p.d->elements.size(); ++i) {
      const auto& e = p.d->elements[i];
      if (!checks::visible(e) || !e.style.draw) continue;
      if (std::holds_alternative<ir::Circle>(e.geom) || std::holds_alternative<ir::Ellipse>(e.geom) ||
          std::holds_alternative<ir::Rectangle>(e.geom) || std::holds_alternative<ir::Grid>(e.geom) ||
          std::holds_alternative<ir::RightAngleMark>(e.geom) || std::holds_alternative<ir::Face3D>(e.geom))
        continue;
      if (auto* pl = std::get_if<ir::Polyline>(&e.geom); pl && pl->closed) continue;
      auto outlines = geo::element_outlines(e);
      if (outlines.empty() || outlines.front().empty()) continue;
      geo::Point first = outlines.front().front(), last = outlines.back().back();
      Edge edge;
      edge.pic = &p;
      edge.element = i;
      edge.a = node_at(p, first);
      edge.b = node_at(p, last);
      edge.tip_a = e.style.arrow_start;
      edge.tip_b = e.style.arrow_end;
      if (edge.a && edge.b && *edge.a == *edge.b) continue;  // a loop on one node
      if (edge.a || edge.b) edges_.push_back(edge);
    }
  }

  bool node_is(const Edge& e, std::optional<std::size_t> n, const std::string& text) const {
    if (!n) return false;
    const std::string want = key_of(spec_norm(text), true);
    for (const auto& t : e.pic->texts)
      if (t.node == *n && t.key == want) return true;
    return false;
  }
  // A label with `text` on the edge: placed on its path (midway, pos=, edge node) or beside it.
  bool edge_has_label(const Edge& e, const std::string& text) const {
    const auto& d = *e.pic->d;
    const auto& el = d.elements[e.element];
    const std::string want = key_of(spec_norm(text), true);
    auto outlines = geo::element_outlines(el);
    for (const auto& t : e.pic->texts) {
      if (t.key != want) continue;
      const auto& n = d.nodes[t.node];
      if (n.on_path && *n.on_path == el.path_id) return true;
      for (const auto& line : outlines)
        if (auto g = checks::box_polyline_distance(n.box, line); g && *g <= attach_) return true;
    }
    return false;
  }
  std::string edge_label_text(const Edge& e) const {
    const auto& d = *e.pic->d;
    const auto& el = d.elements[e.element];
    for (const auto& t : e.pic->texts) {
      const auto& n = d.nodes[t.node];
      if (n.on_path && *n.on_path == el.path_id && !(e.a && t.node == *e.a) && !(e.b && t.node == *e.b))
        return text_of(t.node, *e.pic);
    }
    return "";
  }
  std::string describe(const Edge& e, bool reversed) const {
    auto name = [&](std::optional<std::size_t> n) {
      return n ? "'" + text_of(*n, *e.pic) + "'" : std::string("a free end");
    };
    std::string a = name(reversed ? e.b : e.a), b = name(reversed ? e.a : e.b);
    return a + " → " + b;
  }

  void check_relation(const RelationItem& r) {
    ++out_.items;
    const std::string item = "required_relations '" + r.from + "' → '" + r.to + "'";
    json ev = {{"from", r.from}, {"to", r.to}, {"directed", r.directed}};
    if (r.label) ev["label"] = *r.label;
    SourceRange at;
    for (const auto* end : {&r.from, &r.to})
      if (nodes_with(*end).empty()) {
        std::string msg = "relation '" + r.from + "' → '" + r.to + "' not found: " + missing_text(*end, at, ev);
        unmet(item, msg, at, std::move(ev));
        return;
      }
    // Classify every edge between the two.
    const Edge* forward = nullptr;  // the right direction (or undirected when not required)
    const Edge* backward = nullptr;
    const Edge* plain = nullptr;    // joins them without a tip
    const Edge* wrong_label = nullptr;
    for (const auto& e : edges_) {
      bool ab = node_is(e, e.a, r.from) && node_is(e, e.b, r.to);
      bool ba = node_is(e, e.a, r.to) && node_is(e, e.b, r.from);
      if (!ab && !ba) continue;
      bool tip_at_to = ab ? e.tip_b : e.tip_a;
      bool tip_at_from = ab ? e.tip_a : e.tip_b;
      bool direction_ok = !r.directed || tip_at_to;
      if (direction_ok) {
        if (r.label && !edge_has_label(e, *r.label)) {
          wrong_label = wrong_label ? wrong_label : &e;
          continue;
        }
        forward = &e;
        break;
      }
      if (tip_at_from) backward = backward ? backward : &e;
      else plain = plain ? plain : &e;
    }
    if (forward) {
      ++out_.met;
      return;
    }
    std::string msg = "relation '" + r.from + "' → '" + r.to + "' not found";
    auto place = [&](const Edge& e) { return line_of(e.pic->d->elements[e.element].prov.range); };
    if (wrong_label) {
      std::string carried = edge_label_text(*wrong_label);
      msg += "; the arrow" + place(*wrong_label) + " carries " + (carried.empty() ? "no label" : "'" + carried + "'") +
             ", not '" + *r.label + "'";
      at = wrong_label->pic->d->elements[wrong_label->element].prov.range;
      ev["nearest"] = "edge with another label";
    } else if (backward) {
      bool ab = node_is(*backward, backward->a, r.from);
      msg += "; an arrow " + describe(*backward, !ab ? false : true) + place(*backward) + " runs the other way";
      at = backward->pic->d->elements[backward->element].prov.range;
      ev["nearest"] = "reversed arrow";
    } else if (plain) {
      msg += "; a line" + place(*plain) + " joins them but has no arrow tip";
      at = plain->pic->d->elements[plain->element].prov.range;
      ev["nearest"] = "line without an arrow tip";
    } else {
      // an arrow that leaves `from` for another node, or reaches `to` from another
      const Edge* other = nullptr;
      for (const auto& e : edges_) {
        if ((node_is(e, e.a, r.from) && e.tip_b) || (node_is(e, e.b, r.from) && e.tip_a) ||
            (node_is(e, e.b, r.to) && e.tip_b) || (node_is(e, e.a, r.to) && e.tip_a)) {
          other = &e;
          break;
        }
      }
      if (other) {
        bool rev = other->tip_a && !other->tip_b;
        msg += "; the nearest is an arrow " + describe(*other, rev) + place(*other);
        at = other->pic->d->elements[other->element].prov.range;
        ev["nearest"] = "arrow to another element";
      } else {
        msg += "; nothing joins them";
      }
    }
    unmet(item, msg, at, std::move(ev));
  }

  // --- components ---
  // Whether a label with `text` belongs to the element: placed on its path, inside its region,
  // or beside its outline.
  bool element_has_label(const Picture& p, std::size_t element, const std::string& text) const {
    const auto& el = p.d->elements[element];
    const std::string want = key_of(spec_norm(text), true);
    auto outlines = geo::element_outlines(el);
    auto region = geo::element_region(el);
    for (const auto& t : p.texts) {
      if (t.key != want) continue;
      const auto& n = p.d->nodes[t.node];
      if (n.on_path && *n.on_path == el.path_id) return true;
      if (region) {
        geo::Box rb = geo::bounds_of(*region);
        if (n.center.x >= rb.xmin && n.center.x <= rb.xmax && n.center.y >= rb.ymin && n.center.y <= rb.ymax) return true;
      }
      for (const auto& line : outlines)
        if (auto g = checks::box_polyline_distance(n.box, line); g && *g <= attach_) return true;
    }
    return false;
  }
  bool node_has_label(const Picture& p, std::size_t node, const std::string& text) const {
    const std::string want = key_of(spec_norm(text), true);
    for (const auto& t : p.texts)
      if (t.key == want) {
        if (t.node == node) return true;
        const auto& n = p.d->nodes[t.node];
        if (n.label_of && *n.label_of == node) return true;
      }
    return false;
  }

  struct Candidate {
    const Picture* pic;
    std::size_t index;  // element, or node when `is_node`
    bool is_node = false;
    int sides = 0;
  };

  std::vector<Candidate> components_of(ComponentKind k) const {
    std::vector<Candidate> out;
    for (const auto& pp : pics_) {
      const Picture& p = *pp;
      const auto& d = *p.d;
      switch (k) {
        case ComponentKind::node:
          for (const auto& t : p.texts) out.push_back({&p, t.node, true});
          break;
        case ComponentKind::arrow:
          for (std::size_t i = 0; i < d.elements.size(); ++i) {
            const auto& e = d.elements[i];
            if (checks::visible(e) && e.style.draw && (e.style.arrow_start || e.style.arrow_end)) out.push_back({&p, i});
          }
          break;
        case ComponentKind::axis: {
          if (d.uses_axis) {  // a pgfplots axis has its x and y axes
            out.push_back({&p, 0});
            out.push_back({&p, 0});
            break;
          }
          const auto& ext = p.scene->extent();
          if (!ext) break;
          for (const auto& s : p.scene->strokes()) {
            if (s.kind != checks::StrokeKind::straight || !s.arrow || s.pts.size() < 2) continue;
            geo::Point v = s.pts.back() - s.pts.front();
            double horiz = std::abs(v.x), vert = std::abs(v.y);
            // within 2 degrees of the page's axes (tan 2° ~ 0.035)
            if (vert <= 0.035 * horiz && horiz >= axis_ratio_ * ext->width()) out.push_back({&p, s.element});
            else if (horiz <= 0.035 * vert && vert >= axis_ratio_ * ext->height()) out.push_back({&p, s.element});
          }
          break;
        }
        case ComponentKind::circle:
          for (std::size_t i = 0; i < d.elements.size(); ++i) {
            const auto& e = d.elements[i];
            if (!checks::visible(e)) continue;
            bool round = std::holds_alternative<ir::Circle>(e.geom);
            if (auto* el = std::get_if<ir::Ellipse>(&e.geom)) round = std::abs(el->rx - el->ry) <= 0.01 * std::max(el->rx, el->ry);
            if (round) out.push_back({&p, i});
          }
          for (std::size_t i = 0; i < d.nodes.size(); ++i) {
            const auto& n = d.nodes[i];
            if (n.shape == ir::NodeShape::circle && n.drawn) out.push_back({&p, i, true});
          }
          break;
        case ComponentKind::polygon:
          for (std::size_t i = 0; i < d.elements.size(); ++i) {
            const auto& e = d.elements[i];
            if (!checks::visible(e)) continue;
            if (std::holds_alternative<ir::Rectangle>(e.geom)) out.push_back({&p, i, false, 4});
            if (auto* pl = std::get_if<ir::Polyline>(&e.geom); pl && pl->closed) {
              std::vector<geo::Point> pts = pl->points;
              if (pts.size() > 1 && geo::dist(pts.front(), pts.back()) < 1e-6) pts.pop_back();
              // collinear corners are not corners of the polygon
              int corners = 0;
              for (std::size_t k = 0; k < pts.size(); ++k) {
                geo::Point a = pts[(k + pts.size() - 1) % pts.size()], b = pts[k], c = pts[(k + 1) % pts.size()];
                geo::Point u = b - a, w = c - b;
                if (geo::norm(u) < 1e-6 || geo::norm(w) < 1e-6) continue;
                if (std::abs(geo::cross(u, w)) > 1e-3 * geo::norm(u) * geo::norm(w)) ++corners;
              }
              out.push_back({&p, i, false, corners});
            }
          }
          break;
        case ComponentKind::angle_mark:
          for (const auto& s : p.scene->strokes()) {
            if (s.kind != checks::StrokeKind::arc) continue;
            const auto* arc = std::get_if<ir::Arc>(&d.elements[s.element].geom);
            if (!arc) continue;
            if (p.scene->rays_at(arc->center, vertex_match_, s.element).size() >= 2) out.push_back({&p, s.element});
          }
          break;
        case ComponentKind::right_angle_mark:
          for (const auto& m : checks::right_angle_marks(*p.scene, mark_max_, mark_ratio_)) out.push_back({&p, m.element});
          break;
      }
    }
    return out;
  }

  void check_component(const ComponentItem& c) {
    ++out_.items;
    std::string what = to_string(c.kind);
    if (c.kind == ComponentKind::polygon && c.sides) what = std::to_string(c.sides) + "-sided polygon";
    const std::string item = "required_components " + what + (c.label ? " '" + *c.label + "'" : "");
    auto all = components_of(c.kind);
    std::vector<Candidate> kinds;
    for (const auto& k : all)
      if (c.kind != ComponentKind::polygon || !c.sides || k.sides == c.sides) kinds.push_back(k);
    std::vector<Candidate> hits;
    for (const auto& k : kinds) {
      if (!c.label) {
        hits.push_back(k);
        continue;
      }
      bool has = k.is_node ? node_has_label(*k.pic, k.index, *c.label)
                           : (c.kind == ComponentKind::axis && k.pic->d->uses_axis) ? !nodes_with(*c.label).empty()
                                                                                   : element_has_label(*k.pic, k.index, *c.label);
      if (has) hits.push_back(k);
    }
    if (static_cast<int>(hits.size()) >= c.count) {
      ++out_.met;
      return;
    }
    json ev = {{"kind", to_string(c.kind)}, {"count", c.count}, {"found", hits.size()}};
    if (c.sides) ev["sides"] = c.sides;
    if (c.label) ev["label"] = *c.label;
    SourceRange at;
    std::string msg;
    if (c.label && !kinds.empty()) {
      msg = std::to_string(kinds.size()) + " " + what + (kinds.size() == 1 ? "" : "s") + " drawn, but " +
            (hits.empty() ? "none" : std::to_string(hits.size())) + " labelled '" + *c.label + "'; " +
            std::to_string(c.count) + " required";
      const auto& k = kinds.front();
      at = k.is_node ? k.pic->d->nodes[k.index].prov.range : k.pic->d->elements[k.index].prov.range;
    } else {
      msg = std::to_string(hits.size()) + " " + what + (hits.size() == 1 ? "" : "s") + " drawn; " +
            std::to_string(c.count) + " required";
      if (c.kind == ComponentKind::polygon && c.sides && !all.empty()) {
        msg += "; the polygons drawn have";
        std::set<int> seen;
        for (const auto& k : all) seen.insert(k.sides);
        bool first = true;
        for (int n : seen) {
          msg += (first ? " " : ", ") + std::to_string(n);
          first = false;
        }
        msg += " sides";
        at = all.front().pic->d->elements[all.front().index].prov.range;
      }
    }
    unmet(item, msg, at, std::move(ev));
  }

  // --- geometry ---
  // Where the vertex labelled `name` is: from each label with that text, the vertex it names
  // (its association, its owner, or the nearest vertex within vertex_label_pt).
  struct VertexAt {
    const Picture* pic;
    geo::Point p;
    std::size_t label_node;
  };
  std::vector<VertexAt> vertices_named(const std::string& name) const {
    std::vector<VertexAt> out;
    const std::string want = key_of(spec_norm(name), true);
    for (const auto& pp : pics_) {
      const Picture& p = *pp;
      for (const auto& l : p.scene->labels()) {
        bool match = false;
        for (const auto& t : p.texts) match |= t.node == l.node && t.key == want;
        if (!match) continue;
        const auto& n = p.d->nodes[l.node];
        if (n.label_of) {  // label= on a coordinate or a dot: the owner is the vertex
          out.push_back({&p, p.d->nodes[*n.label_of].center, l.node});
          continue;
        }
        auto as = p.scene->associate(l, attach_);
        if (as.best && as.best->kind == checks::TargetKind::vertex) {
          out.push_back({&p, p.scene->vertices()[as.best->index].p, l.node});
          continue;
        }
        const checks::Vertex* best = nullptr;
        double best_d = vertex_label_;
        for (std::size_t vi : p.scene->vertices_near(l.box, vertex_label_)) {
          const auto& v = p.scene->vertices()[vi];
          double dd = geo::dist(v.p, l.center);
          if (dd <= best_d) {
            best_d = dd;
            best = &v;
          }
        }
        if (best) out.push_back({&p, best->p, l.node});
      }
    }
    return out;
  }

  void check_geometry(const GeometryItem& g) {
    ++out_.items;
    switch (g.kind) {
      case GeometryKind::angle: return check_angle(g);
      case GeometryKind::side: return check_side(g);
      case GeometryKind::right_angle: return check_right_angle(g);
    }
  }

  bool vertex_missing(const std::string& item, const std::string& name, json ev) {
    if (!vertices_named(name).empty()) return false;
    SourceRange at;
    std::string msg;
    if (nodes_with(name).empty()) msg = missing_text(name, at, ev);
    else msg = "label '" + name + "' does not stand by a vertex";
    unmet(item, msg, at, std::move(ev));
    return true;
  }

  void check_angle(const GeometryItem& g) {
    const std::string item = "geometry angle " + checks::num(g.degrees) + "° at '" + g.at + "'";
    json ev = {{"at", g.at}, {"degrees", g.degrees}, {"tolerance_deg", angle_tol_}};
    if (vertex_missing(item, g.at, ev)) return;
    auto vs = vertices_named(g.at);
    // Every numeric angle label naming an angle at that vertex.
    std::optional<std::pair<const Picture*, std::size_t>> off_label;  // labelled otherwise
    double off_value = 0;
    std::optional<std::pair<const Picture*, std::size_t>> off_drawn;  // labelled right, drawn wrong
    double off_drawn_deg = 0;
    for (const auto& pp : pics_) {
      const Picture& p = *pp;
      auto marks = checks::right_angle_marks(*p.scene, mark_max_, mark_ratio_);
      for (const auto& l : p.scene->labels()) {
        if (l.text.kind != checks::LabelKind::angle || !l.text.value) continue;
        auto reading = checks::angle_named_by(*p.scene, l, angle_radius_, marks);
        if (!reading) continue;
        bool here = false;
        for (const auto& v : vs) here |= v.pic == &p && geo::dist(v.p, reading->vertex) <= vertex_match_;
        if (!here) continue;
        if (std::abs(*l.text.value - g.degrees) > 0.5) {
          if (!off_label) {
            off_label = std::make_pair(&p, l.node);
            off_value = *l.text.value;
          }
          continue;
        }
        if (std::abs(reading->drawn_deg - g.degrees) > angle_tol_) {
          if (!off_drawn) {
            off_drawn = std::make_pair(&p, l.node);
            off_drawn_deg = reading->drawn_deg;
          }
          continue;
        }
        ++out_.met;
        return;
      }
      // a right-angle mark states 90° without a number
      if (std::abs(g.degrees - 90) <= 0.5)
        for (const auto& m : marks)
          for (const auto& v : vs)
            if (v.pic == &p && geo::dist(v.p, m.corner) <= vertex_match_ && std::abs(m.drawn_deg - 90) <= angle_tol_) {
              ++out_.met;
              return;
            }
    }
    SourceRange at;
    std::string msg = "no angle labelled " + checks::num(g.degrees) + "° at '" + g.at + "'";
    if (off_drawn) {
      msg = "the angle at '" + g.at + "' is labelled " + checks::num(g.degrees) + "° but drawn " +
            checks::num(off_drawn_deg) + "°";
      at = off_drawn->first->d->nodes[off_drawn->second].prov.range;
      ev["drawn_deg"] = off_drawn_deg;
    } else if (off_label) {
      msg += "; the angle there is labelled " + checks::num(off_value) + "°" +
             line_of(off_label->first->d->nodes[off_label->second].prov.range);
      at = off_label->first->d->nodes[off_label->second].prov.range;
      ev["labelled_deg"] = off_value;
    }
    unmet(item, msg, at, std::move(ev));
  }

  void check_side(const GeometryItem& g) {
    const auto& [a, b] = g.between;
    const std::string item = "geometry side '" + a + "'-'" + b + "'" + (g.label ? " labelled '" + *g.label + "'" : "");
    json ev = {{"between", {a, b}}};
    if (g.label) ev["label"] = *g.label;
    if (vertex_missing(item, a, ev) || vertex_missing(item, b, ev)) return;
    auto va = vertices_named(a), vb = vertices_named(b);
    const checks::Stroke* side = nullptr;
    const Picture* side_pic = nullptr;
    for (const auto& pp : pics_) {
      for (const auto& s : pp->scene->strokes()) {
        if (s.kind != checks::StrokeKind::straight || !s.drawn || s.pts.size() < 2) continue;
        geo::Point p0 = s.pts.front(), p1 = s.pts.back();
        auto near = [&](const std::vector<VertexAt>& vv, geo::Point q) {
          for (const auto& v : vv)
            if (v.pic == pp.get() && geo::dist(v.p, q) <= vertex_match_) return true;
          return false;
        };
        if (!((near(va, p0) && near(vb, p1)) || (near(va, p1) && near(vb, p0)))) continue;
        side = &s;
        side_pic = pp.get();
        if (!g.label) break;
        // the label attached to this side
        const std::string want = key_of(spec_norm(*g.label), true);
        for (const auto& l : pp->scene->labels()) {
          bool match = false;
          for (const auto& t : pp->texts) match |= t.node == l.node && t.key == want;
          if (!match) continue;
          const auto& n = pp->d->nodes[l.node];
          bool on = (n.on_path && *n.on_path == pp->d->elements[s.element].path_id && n.pos_on_path >= 0) ||
                    pp->scene->gap(l, s) <= attach_;
          if (on) {
            ++out_.met;
            return;
          }
        }
      }
      if (side && !g.label) break;
    }
    if (side && !g.label) {
      ++out_.met;
      return;
    }
    SourceRange at;
    std::string msg;
    if (!side) {
      msg = "no side is drawn between '" + a + "' and '" + b + "'";
    } else {
      msg = "the side '" + a + "'-'" + b + "'" + line_of(side_pic->d->elements[side->element].prov.range) +
            " carries no label '" + *g.label + "'";
      at = side_pic->d->elements[side->element].prov.range;
      if (nodes_with(*g.label).empty()) {
        SourceRange near;
        json tmp;
        msg += "; " + missing_text(*g.label, near, tmp);
      }
    }
    unmet(item, msg, at, std::move(ev));
  }

  void check_right_angle(const GeometryItem& g) {
    const std::string item = "geometry right angle at '" + g.at + "'";
    json ev = {{"at", g.at}, {"tolerance_deg", angle_tol_}};
    if (vertex_missing(item, g.at, ev)) return;
    auto vs = vertices_named(g.at);
    std::optional<std::pair<const Picture*, checks::RightAngleReading>> off;
    for (const auto& pp : pics_) {
      for (const auto& m : checks::right_angle_marks(*pp->scene, mark_max_, mark_ratio_)) {
        for (const auto& v : vs) {
          if (v.pic != pp.get() || geo::dist(v.p, m.corner) > vertex_match_) continue;
          if (std::abs(m.drawn_deg - 90) <= angle_tol_) {
            ++out_.met;
            return;
          }
          if (!off) off = std::make_pair(pp.get(), m);
        }
      }
      // an angle label "90°" at the vertex states it as well
      auto marks = checks::right_angle_marks(*pp->scene, mark_max_, mark_ratio_);
      for (const auto& l : pp->scene->labels()) {
        if (l.text.kind != checks::LabelKind::angle || !l.text.value || std::abs(*l.text.value - 90) > 0.5) continue;
        auto reading = checks::angle_named_by(*pp->scene, l, angle_radius_, marks);
        if (!reading || std::abs(reading->drawn_deg - 90) > angle_tol_) continue;
        for (const auto& v : vs)
          if (v.pic == pp.get() && geo::dist(v.p, reading->vertex) <= vertex_match_) {
            ++out_.met;
            return;
          }
      }
    }
    SourceRange at;
    std::string msg = "no right angle is marked at '" + g.at + "'";
    if (off) {
      msg = "the right-angle mark at '" + g.at + "' sits in a " + checks::num(off->second.drawn_deg) + "° angle";
      at = off->first->d->elements[off->second.element].prov.range;
      ev["drawn_deg"] = off->second.drawn_deg;
    }
    unmet(item, msg, at, std::move(ev));
  }

  // --- negative constraints (what is there is certain: a hit fails whatever is incomplete) ---
  void forbidden(const std::string& item, std::string msg, const SourceRange& at, json ev) {
    Diagnostic dg;
    dg.rule = "spec";
    dg.severity = Severity::warning;
    dg.message = std::move(msg);
    dg.range = at.valid ? at : picture_;
    ev["item"] = item;
    dg.evidence = std::move(ev);
    if (!spec_.path.empty()) dg.notes.push_back({"forbidden by " + spec_.path + " " + item, {}});
    out_.findings.push_back(std::move(dg));
    certain_failure_ = true;
  }

  void check_negative() {
    for (const auto& text : spec_.negative.labels) {
      ++out_.items;
      auto found = nodes_with(text);
      if (found.empty()) {
        ++out_.met;
        continue;
      }
      const auto& n = found.front().pic->d->nodes[found.front().node];
      forbidden("negative_constraints label '" + text + "'", "forbidden label '" + text + "' appears", n.prov.range,
                {{"label", text}, {"found", found.size()}});
    }
    for (const auto& pattern : spec_.negative.patterns) {
      ++out_.items;
      std::regex re(pattern, spec_.case_sensitive ? std::regex::ECMAScript : std::regex::ECMAScript | std::regex::icase);
      std::optional<Found> hit;
      for (const auto& p : pics_)
        for (const auto& t : p->texts)
          if (!hit && std::regex_search(text_of(t.node, *p), re)) hit = Found{p.get(), t.node};
      if (!hit) {
        ++out_.met;
        continue;
      }
      const auto& n = hit->pic->d->nodes[hit->node];
      forbidden("negative_constraints pattern /" + pattern + "/",
                "label '" + text_of(hit->node, *hit->pic) + "' matches the forbidden pattern /" + pattern + "/",
                n.prov.range, {{"pattern", pattern}, {"label", text_of(hit->node, *hit->pic)}});
    }
    for (const auto& rule : spec_.negative.rules_pass) {
      ++out_.items;
      Verdict v = Verdict::na;
      for (const auto& [name, verdict] : verdicts_)
        if (name == rule) v = verdict;
      if (v == Verdict::pass || v == Verdict::na) {
        ++out_.met;
      } else if (v == Verdict::indeterminate) {
        uncertain_ = true;
      } else {
        forbidden("negative_constraints rules_pass '" + rule + "'", "rule " + rule + " fails (see its findings)", {},
                  {{"rule", rule}, {"verdict", "fail"}});
      }
    }
  }

  const Spec& spec_;
  const std::vector<std::pair<std::string, Verdict>>& verdicts_;
  const SourceManager* sm_;
  SourceRange picture_;
  std::vector<std::unique_ptr<Picture>> pics_;
  std::vector<Edge> edges_;
  std::set<std::string> named_;  // the keys of every text an item of the spec names
  double endpoint_gap_ = 8, vertex_label_ = 30, vertex_match_ = 4, attach_ = 18, axis_ratio_ = 0.5;
  double angle_tol_ = 5, angle_radius_ = 24, mark_max_ = 18, mark_ratio_ = 2;
  Outcome out_;
  bool certain_failure_ = false, uncertain_ = false;
};

}  // namespace

Outcome evaluate(const Spec& spec, const std::vector<ir::Diagram>& diagrams,
                 const std::vector<std::pair<std::string, Verdict>>& verdicts, const checks::Config& cfg,
                 const SourceManager* sources, SourceRange picture) {
  Evaluator ev(spec, diagrams, verdicts, cfg, sources, picture);
  return ev.run();
}

}  // namespace tikzlint::spec
