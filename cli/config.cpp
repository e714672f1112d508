#include "cli/config.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <set>
#include <tuple>

#include <toml++/toml.h>

#include "checks/check.hpp"
#include "checks/compile/compiles.hpp"
#include "cli/driver.hpp"
#include "rank/rank.hpp"
#include "spec/spec.hpp"
#include "support/read_file.hpp"

static_assert(TOML_LIB_MAJOR == 3 && TOML_LIB_MINOR >= 3, "toml++ 3.3 or later (Debian libtomlplusplus-dev)");

namespace tikzlint::cli {

namespace fs = std::filesystem;

// ---------------------------------------------------------------------------------------------
// Names

namespace {

// Never deselectable: a file that cannot be read or that tikzlint failed on must not pass.
bool always_reported(std::string_view name) { return name == "unreadable-file" || name == "internal-error"; }

bool pattern_matches(std::string_view pattern, std::string_view name) {
  if (pattern == "all" || pattern == "ALL") return !always_reported(name);
  if (!pattern.empty() && pattern.back() == '*') return name.substr(0, pattern.size() - 1) == pattern.substr(0, pattern.size() - 1);
  return pattern == name;
}

bool any_matches(const std::vector<std::string>& patterns, std::string_view name) {
  for (const auto& p : patterns)
    if (pattern_matches(p, name)) return true;
  return false;
}

}  // namespace

bool Selection::enabled(std::string_view name) const {
  if (always_reported(name)) return true;
  bool on = true;
  for (const auto& layer : layers_) {
    if (layer.select) on = any_matches(*layer.select, name);
    if (any_matches(layer.ignore, name)) on = false;
  }
  return on;
}

const std::vector<std::string>& selectable_names() {
  static const std::vector<std::string> names = [] {
    std::set<std::string> s;
    for (const auto& r : checks::registry()) s.insert(r.doc->name);
    s.insert(spec::doc().name);
    s.insert(compile::doc().name);
    for (const auto& c : frontend_codes())
      if (!always_reported(c.code)) s.insert(c.code);
    return std::vector<std::string>(s.begin(), s.end());
  }();
  return names;
}

namespace {

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

// A name from a config file or the command line, quoted for a message: at most 64 bytes, only
// printable ASCII (the rest as '?'), so a message never carries more of a file than the name.
std::string quote_name(std::string_view name) {
  std::string out = "'";
  for (std::size_t i = 0; i < name.size() && i < 64; ++i) {
    unsigned char c = static_cast<unsigned char>(name[i]);
    out += c >= 0x20 && c < 0x7f ? static_cast<char>(c) : '?';
  }
  if (name.size() > 64) out += "...";
  return out + "'";
}

// The rule documentation whose thresholds `--set RULE.X` and [rules.RULE] accept.
const checks::RuleDoc* configurable_doc(const std::string& rule) {
  if (const checks::Rule* r = checks::find_rule(rule)) return r->doc;
  for (const checks::RuleDoc* d : {&spec::doc(), &compile::doc(), &rank::doc()})
    if (rule == d->name) return d;
  return nullptr;
}

}  // namespace

std::string check_selectable(const std::string& pattern) {
  if (pattern.empty()) return "an empty rule name";
  for (const auto& n : selectable_names())
    if (pattern_matches(pattern, n)) return "";
  if (always_reported(pattern)) return quote_name(pattern) + " is always reported and cannot be selected or ignored";
  return "unknown rule or code " + quote_name(pattern) + " (valid: all, " + joined(selectable_names()) +
         ", or a prefix ending in '*')";
}

std::string check_threshold(const std::string& rule, const std::string& name) {
  const checks::RuleDoc* doc = configurable_doc(rule);
  if (!doc) {
    std::vector<std::string> rules;
    for (const auto& r : checks::registry()) rules.push_back(r.doc->name);
    rules.insert(rules.end(), {spec::doc().name, compile::doc().name, rank::doc().name});
    return "unknown rule " + quote_name(rule) + " (rules: " + joined(rules) + ")";
  }
  std::vector<std::string> names;
  for (const auto& t : doc->thresholds) {
    if (t.name == name) return "";
    names.push_back(t.name);
  }
  return "rule '" + rule + "' has no threshold " + quote_name(name) +
         (names.empty() ? " (it has none)" : " (it has: " + joined(names) + ")");
}

// ---------------------------------------------------------------------------------------------
// Globs

namespace {

// One character class at pattern[i] == '['; returns the index after ']' or npos (a literal '[').
std::size_t class_end(std::string_view p, std::size_t i) {
  std::size_t j = i + 1;
  if (j < p.size() && p[j] == '!') ++j;
  if (j < p.size() && p[j] == ']') ++j;  // a leading ']' is a member
  while (j < p.size() && p[j] != ']') ++j;
  return j < p.size() ? j + 1 : std::string_view::npos;
}

bool class_contains(std::string_view cls, char c) {  // cls is "[...]" without validation
  std::size_t i = 1;
  bool negate = i < cls.size() && cls[i] == '!';
  if (negate) ++i;
  bool in = false;
  for (std::size_t first = i; i + 1 < cls.size(); ++i) {
    if (cls[i] == ']' && i != first) break;
    if (i + 2 < cls.size() - 1 && cls[i + 1] == '-' && cls[i + 2] != ']') {
      in |= cls[i] <= c && c <= cls[i + 2];
      i += 2;
    } else {
      in |= cls[i] == c;
    }
  }
  return in != negate;
}

// One folder or file name against one pattern component (no '/'): the two-pointer match with
// one backtracking point, linear in practice and never exponential.
bool segment_match(std::string_view p, std::string_view s) {
  std::size_t pi = 0, si = 0, star_p = std::string_view::npos, star_s = 0;
  while (si < s.size()) {
    if (pi < p.size()) {
      char c = p[pi];
      if (c == '*') {
        star_p = pi++;
        star_s = si;
        continue;
      }
      if (c == '?') {
        ++pi, ++si;
        continue;
      }
      if (c == '[') {
        std::size_t e = class_end(p, pi);
        if (e != std::string_view::npos) {
          if (class_contains(p.substr(pi, e - pi), s[si])) {
            pi = e, ++si;
            continue;
          }
        } else if (s[si] == '[') {
          ++pi, ++si;
          continue;
        }
      } else if (c == s[si]) {
        ++pi, ++si;
        continue;
      }
    }
    if (star_p == std::string_view::npos) return false;
    pi = star_p + 1;
    si = ++star_s;
  }
  while (pi < p.size() && p[pi] == '*') ++pi;
  return pi == p.size();
}

std::vector<std::string_view> components(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= s.size(); ++i)
    if (i == s.size() || s[i] == '/') {
      if (i > start) out.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  return out;
}

}  // namespace

bool glob_match(std::string_view pattern, std::string_view path) {
  std::vector<std::string_view> names = components(path);
  if (pattern.find('/') == std::string_view::npos) {
    // A file or folder name at any depth (a folder's name covers everything below it).
    for (auto n : names)
      if (segment_match(pattern, n)) return true;
    return false;
  }
  std::vector<std::string_view> parts;
  for (auto c : components(pattern))
    if (c != ".") parts.push_back(c);
  // A pattern that names a folder covers the files below it ("figures/generated").
  if (parts.empty() || parts.back() != "**") parts.push_back("**");
  const std::size_t P = parts.size(), S = names.size();
  // can[i][j]: parts[i..] match names[j..]; filled backwards (no recursion, no blow-up).
  std::vector<char> can((P + 1) * (S + 1), 0);
  auto at = [&](std::size_t i, std::size_t j) -> char& { return can[i * (S + 1) + j]; };
  at(P, S) = 1;
  for (std::size_t i = P; i-- > 0;)
    for (std::size_t j = S + 1; j-- > 0;) {
      if (parts[i] == "**") at(i, j) = at(i + 1, j) || (j < S && at(i, j + 1));
      else at(i, j) = j < S && segment_match(parts[i], names[j]) && at(i + 1, j + 1);
    }
  return at(0, 0) != 0;
}

// ---------------------------------------------------------------------------------------------
// Parsing

namespace {

// The most problems listed for one config file; the others are counted.
constexpr std::size_t kMaxConfigErrors = 20;

struct Parser {
  std::string path;
  fs::path dir;
  struct Problem {
    toml::source_index line, column;
    std::string message;
  };
  std::vector<Problem> problems;  // in the order found (toml++ tables iterate keys sorted)

  void error(const toml::source_region& r, const std::string& message) {
    problems.push_back({r.begin.line, r.begin.column, message});
  }
  // "path:line:col: message", in the file's order, at most kMaxConfigErrors.
  void report(std::vector<std::string>& errors) {
    std::stable_sort(problems.begin(), problems.end(), [](const Problem& a, const Problem& b) {
      return std::tie(a.line, a.column) < std::tie(b.line, b.column);
    });
    for (std::size_t i = 0; i < problems.size() && i < kMaxConfigErrors; ++i)
      errors.push_back(path + ":" + std::to_string(problems[i].line) + ":" + std::to_string(problems[i].column) +
                       ": " + problems[i].message);
    if (problems.size() > kMaxConfigErrors)
      errors.push_back(path + ": and " + std::to_string(problems.size() - kMaxConfigErrors) + " more problems");
  }

  std::optional<std::vector<std::string>> strings(const toml::node& n, const std::string& key) {
    const toml::array* a = n.as_array();
    if (!a) {
      error(n.source(), "'" + key + "' must be an array of strings");
      return std::nullopt;
    }
    std::vector<std::string> out;
    for (const auto& e : *a) {
      if (auto s = e.value<std::string>()) out.push_back(*s);
      else {
        error(e.source(), "'" + key + "' must be an array of strings");
        return std::nullopt;
      }
    }
    return out;
  }

  std::vector<std::string> names(const toml::node& n, const std::string& key) {
    auto list = strings(n, key);
    if (!list) return {};
    const toml::array& a = *n.as_array();
    std::vector<std::string> out;
    for (std::size_t i = 0; i < list->size(); ++i) {
      if (auto e = check_selectable((*list)[i]); !e.empty()) error(a[i].source(), key + ": " + e);
      else out.push_back((*list)[i]);
    }
    return out;
  }

  // A name written in the config, resolved against its folder under the read policy's rules:
  // relative, no '..' above the folder, no hidden component, no symbolic link out of it. A
  // config in a pull request must not widen what a document may read beyond its own tree.
  std::optional<std::string> inside(const toml::node& n, const std::string& key, bool folder) {
    auto s = n.value<std::string>();
    if (!s) {
      error(n.source(), "'" + key + "' must be a string");
      return std::nullopt;
    }
    fs::path p(*s);
    if (s->empty()) {
      error(n.source(), "'" + key + "' is empty");
      return std::nullopt;
    }
    if (p.is_absolute()) {
      error(n.source(), "'" + key + "' must be relative to the config file's folder (use --include-dir on the command line for folders elsewhere)");
      return std::nullopt;
    }
    int depth = 0;
    for (const auto& c : p) {
      std::string part = c.string();
      if (part == "..") {
        if (--depth < 0) {
          error(n.source(), "'" + key + "' climbs above the config file's folder");
          return std::nullopt;
        }
      } else if (part == "." || part.empty()) {
        continue;
      } else if (part[0] == '.') {
        error(n.source(), "'" + key + "' names a hidden file or folder");
        return std::nullopt;
      } else {
        ++depth;
      }
    }
    fs::path full = (dir / p).lexically_normal();
    std::error_code ec;
    fs::file_status st = fs::status(full, ec);
    if (ec || (folder ? !fs::is_directory(st) : !fs::is_regular_file(st))) {
      error(n.source(), "'" + key + "': no such " + std::string(folder ? "folder" : "file") + " in the config file's folder");
      return std::nullopt;
    }
    fs::path real = fs::canonical(full, ec), real_dir = fs::canonical(dir, ec);
    if (ec || std::mismatch(real_dir.begin(), real_dir.end(), real.begin(), real.end()).first != real_dir.end()) {
      error(n.source(), "'" + key + "' leads out of the config file's folder through a symbolic link");
      return std::nullopt;
    }
    std::string out = full.string();
    if (out.size() > 1 && out.back() == '/') out.pop_back();
    return out;
  }

  void rules(const toml::node& n, Settings& s) {
    const toml::table* t = n.as_table();
    if (!t) {
      error(n.source(), "'rules' must be a table of [rules.RULE] tables");
      return;
    }
    for (const auto& [rule_key, rule_node] : *t) {
      std::string rule(rule_key.str());
      if (!configurable_doc(rule)) {
        error(rule_key.source(), "[rules]: " + check_threshold(rule, ""));
        continue;
      }
      const toml::table* thresholds = rule_node.as_table();
      if (!thresholds) {
        error(rule_node.source(), "[rules." + rule + "] must be a table of thresholds");
        continue;
      }
      for (const auto& [name_key, value] : *thresholds) {
        std::string name(name_key.str());
        if (auto e = check_threshold(rule, name); !e.empty()) {
          error(name_key.source(), "[rules." + rule + "]: " + e);
          continue;
        }
        auto v = value.value<double>();
        if (!value.is_number() || !v || !std::isfinite(*v)) {
          error(value.source(), "[rules." + rule + "] " + name + " must be a finite number");
          continue;
        }
        s.thresholds.emplace_back(rule + "." + name, *v);
      }
    }
  }

  static const std::vector<std::string>& keys(bool override_table) {
    static const std::vector<std::string> top = {"ignore", "include-dirs", "overrides", "rules", "select", "spec"};
    static const std::vector<std::string> over = {"files", "ignore", "include-dirs", "rules", "select", "spec"};
    return override_table ? over : top;
  }

  // The settings keys of a table; `override_entry`: an [[overrides]] entry (files, no overrides).
  void settings(const toml::table& t, Settings& s, ConfigFile* file, ConfigFile::Override* entry) {
    for (const auto& [key, node] : t) {
      std::string k(key.str());
      if (k == "select") {
        s.selection.select = names(node, k);
      } else if (k == "ignore") {
        s.selection.ignore = names(node, k);
      } else if (k == "rules") {
        rules(node, s);
      } else if (k == "include-dirs") {
        if (const toml::array* a = node.as_array()) {
          for (const auto& e : *a)
            if (auto d = inside(e, k, true)) s.include_dirs.push_back(*d);
        } else {
          error(node.source(), "'include-dirs' must be an array of strings");
        }
      } else if (k == "spec") {
        if (auto p = inside(node, k, false)) s.spec = *p;
      } else if (k == "overrides" && file) {
        const toml::array* a = node.as_array();
        if (!a || !a->is_array_of_tables()) {
          error(node.source(), "'overrides' must be an array of tables ([[overrides]])");
          continue;
        }
        for (const auto& e : *a) {
          ConfigFile::Override o;
          settings(*e.as_table(), o.settings, nullptr, &o);
          if (o.files.empty()) error(e.source(), "an [[overrides]] entry needs 'files' (a non-empty array of globs)");
          else file->overrides.push_back(std::move(o));
        }
      } else if (k == "files" && entry) {
        if (auto globs = strings(node, k)) entry->files = std::move(*globs);
      } else {
        error(key.source(), "unknown key " + quote_name(k) + (entry ? " in [[overrides]]" : "") +
                                " (valid keys: " + joined(keys(entry != nullptr)) + ")");
      }
    }
  }
};

// toml++'s description of a syntax error, without the text it quotes ("saw 'x'"): the file is
// named by its location only.
std::string syntax_message(std::string_view description) {
  std::string d(description);
  for (const char* cut : {"; saw ", ", saw ", " saw "}) {
    if (auto at = d.find(cut); at != std::string::npos) {
      d.erase(at);
      break;
    }
  }
  while (!d.empty() && (d.back() == '.' || d.back() == ' ')) d.pop_back();
  if (!d.empty()) d[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(d[0])));
  return "malformed TOML: " + d;
}

}  // namespace

std::shared_ptr<const ConfigFile> parse_config(std::string_view text, const std::string& path, bool pyproject,
                                               std::vector<std::string>& errors) {
  auto file = std::make_shared<ConfigFile>();
  file->path = path;
  std::error_code ec;
  fs::path abs = fs::absolute(fs::path(path), ec).lexically_normal();
  file->dir = abs.parent_path().string();
  toml::table root;
  try {
    root = toml::parse(text, path);
  } catch (const toml::parse_error& e) {
    errors.push_back(path + ":" + std::to_string(e.source().begin.line) + ":" +
                     std::to_string(e.source().begin.column) + ": " + syntax_message(e.description()));
    return nullptr;
  }
  const toml::table* t = &root;
  if (pyproject) {
    const toml::table* tool = root["tool"].as_table();
    t = tool ? (*tool)["tikzlint"].as_table() : nullptr;
    if (!t) {
      if (tool && (*tool)["tikzlint"]) errors.push_back(path + ":" + std::to_string((*tool)["tikzlint"].node()->source().begin.line) + ":1: [tool.tikzlint] must be a table");
      return nullptr;
    }
  }
  Parser p{path, fs::path(file->dir), {}};
  p.settings(*t, file->base, file.get(), nullptr);
  p.report(errors);
  return p.problems.empty() ? file : nullptr;
}

std::shared_ptr<const ConfigFile> load_config(const std::string& path, std::vector<std::string>& errors) {
  FileText in = read_file(path, kMaxConfigBytes);
  switch (in.status) {
    case FileText::Status::ok: break;
    case FileText::Status::too_large:
      errors.push_back(path + ": config file larger than " + std::to_string(kMaxConfigBytes >> 20) + " MiB; not read");
      return nullptr;
    case FileText::Status::missing: errors.push_back(path + ": no such config file"); return nullptr;
    case FileText::Status::directory: errors.push_back(path + ": is a directory, not a config file"); return nullptr;
    default: errors.push_back(path + ": cannot read the config file"); return nullptr;
  }
  bool pyproject = fs::path(path).filename() == "pyproject.toml";
  return parse_config(in.text, path, pyproject, errors);
}

// ---------------------------------------------------------------------------------------------
// Discovery

ConfigResolver::ConfigResolver(std::string explicit_config, bool isolated)
    : explicit_(std::move(explicit_config)), isolated_(isolated) {}

std::shared_ptr<const ConfigFile> ConfigResolver::for_input(const std::string& input, std::vector<std::string>& errors) {
  if (isolated_) return nullptr;
  if (!explicit_.empty()) {
    if (!explicit_loaded_) {
      explicit_loaded_ = true;
      explicit_config_ = load_config(explicit_, errors);
      if (!explicit_config_ && fs::path(explicit_).filename() == "pyproject.toml" && errors.empty())
        errors.push_back(explicit_ + ": has no [tool.tikzlint] table");
    }
    return explicit_config_;
  }
  std::error_code ec;
  fs::path abs = fs::absolute(fs::path(input == "-" ? "stdin" : input), ec).lexically_normal();
  return for_dir(abs.parent_path().string(), errors);
}

std::shared_ptr<const ConfigFile> ConfigResolver::for_dir(const std::string& dir, std::vector<std::string>& errors) {
  if (auto it = by_dir_.find(dir); it != by_dir_.end()) return it->second;
  std::shared_ptr<const ConfigFile> found;
  bool stop = false;
  for (const char* name : {"tikzlint.toml", "pyproject.toml"}) {
    fs::path candidate = fs::path(dir) / name;
    std::error_code ec;
    fs::file_status ls = fs::symlink_status(candidate, ec);
    if (ec || !fs::exists(ls)) continue;
    if (fs::is_symlink(ls)) {
      // Only a link within its own folder: a linked config must not read a file elsewhere.
      fs::path real = fs::canonical(candidate, ec);
      if (ec || real.parent_path() != fs::canonical(fs::path(dir), ec)) {
        errors.push_back(candidate.string() + ": a symbolic link out of its folder; not read");
        stop = true;
        break;
      }
    }
    found = load_config(candidate.string(), errors);
    if (found || std::string(name) == "tikzlint.toml") {
      stop = true;  // a broken tikzlint.toml is an error, not a reason to look further up
      break;
    }
  }
  std::error_code ec;
  if (!stop && !fs::exists(fs::path(dir) / ".git", ec)) {  // a repository root ends the search
    fs::path parent = fs::path(dir).parent_path();
    if (!parent.empty() && parent.string() != dir) found = for_dir(parent.string(), errors);
  }
  by_dir_[dir] = found;
  return found;
}

std::vector<const Settings*> settings_for(const ConfigFile* config, const std::string& input) {
  std::vector<const Settings*> out;
  if (!config) return out;
  out.push_back(&config->base);
  if (config->overrides.empty()) return out;
  std::error_code ec;
  fs::path abs = fs::absolute(fs::path(input), ec).lexically_normal();
  fs::path rel = abs.lexically_relative(config->dir);
  std::string subject = rel.empty() || *rel.begin() == ".." ? abs.generic_string() : rel.generic_string();
  for (const auto& o : config->overrides)
    for (const auto& glob : o.files)
      if (glob_match(glob, subject)) {
        out.push_back(&o.settings);
        break;
      }
  return out;
}

}  // namespace tikzlint::cli
