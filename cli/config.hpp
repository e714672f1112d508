// cli/config.hpp: configuration files, as Ruff reads them (docs/configuration.md).
// `tikzlint.toml`, or the table [tool.tikzlint] of a `pyproject.toml`, found upward from each
// input file (the nearest wins; the search stops at a repository root, a folder holding `.git`,
// or at the file-system root). A file holds the same settings as the command line: `select` and
// `ignore` (rule names and diagnostic codes), `[rules.RULE]` thresholds (the names of --set),
// `include-dirs`, `spec`, and `[[overrides]]` that apply them to the files matching `files`.
// The command line (--select, --ignore, --set, --include-dir, --spec) takes precedence.
#pragma once
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tikzlint::cli {

// Which rules and codes report, as layers applied in order (defaults, config file, matching
// overrides, command line). A layer with `select` starts over from what it selects; its `ignore`
// then removes names. A name is a rule, a diagnostic code, `all`, or a prefix ending in `*`
// (`unsupported-*`).
struct SelectionLayer {
  std::optional<std::vector<std::string>> select;
  std::vector<std::string> ignore;
};

class Selection {
 public:
  void add(SelectionLayer layer) {
    if (layer.select || !layer.ignore.empty()) layers_.push_back(std::move(layer));
  }
  bool enabled(std::string_view name) const;
  bool everything() const { return layers_.empty(); }  // nothing was deselected

 private:
  std::vector<SelectionLayer> layers_;
};

// Every name `select` and `ignore` accept, sorted: the rules, `spec`, `compiles`, and the
// front-end codes of cli/driver.hpp. (`unreadable-file` and `internal-error` always report.)
const std::vector<std::string>& selectable_names();
// Empty if `pattern` names something selectable; else the error (which lists the valid names).
std::string check_selectable(const std::string& pattern);
// Empty if RULE has the threshold NAME (as --set RULE.NAME= and [rules.RULE] NAME accept); else
// the error, listing the rules or the rule's thresholds.
std::string check_threshold(const std::string& rule, const std::string& name);

// One table of settings: the top level of a config file, or one [[overrides]] entry.
struct Settings {
  SelectionLayer selection;
  std::vector<std::pair<std::string, double>> thresholds;  // "rule.threshold", as --set
  std::vector<std::string> include_dirs;                   // resolved, inside the config's folder
  std::optional<std::string> spec;                         // resolved, inside the config's folder
};

struct ConfigFile {
  std::string path;  // the file as found (or as given to --config)
  std::string dir;   // its folder, absolute and normal: include-dirs, spec and globs are relative to it
  Settings base;
  struct Override {
    std::vector<std::string> files;  // globs (see glob_match)
    Settings settings;
  };
  std::vector<Override> overrides;
};

// The limit on a config file's size: a configuration is a few hundred bytes.
inline constexpr std::size_t kMaxConfigBytes = 1 << 20;

// Parse a config file's text. `pyproject`: read only its [tool.tikzlint] table; returns null
// (and no error) when it has none. Errors are "path:line:col: message" and quote at most a key
// or rule name, never a line or another value of the file.
std::shared_ptr<const ConfigFile> parse_config(std::string_view text, const std::string& path, bool pyproject,
                                               std::vector<std::string>& errors);
// Read and parse one file (--config FILE, or one found by discovery).
std::shared_ptr<const ConfigFile> load_config(const std::string& path, std::vector<std::string>& errors);

// Glob of an [[overrides]] entry, matched against a path relative to the config's folder: `*`
// and `?` match within one folder name, `**` any number of folders, `[abc]` / `[!abc]` one
// character. A pattern without '/' matches the file name in any folder (as in .gitignore).
bool glob_match(std::string_view pattern, std::string_view relative_path);

// Finds the config file of each input, caching one answer per folder. Thread-compatible (one
// resolver per run, used from the main thread).
class ConfigResolver {
 public:
  // `explicit_config`: --config FILE (discovery off); `isolated`: --isolated (no config at all).
  ConfigResolver(std::string explicit_config, bool isolated);
  // The config that applies to `input` (a file path; its folder is searched upward), or null.
  // Problems are appended to `errors` (each file's once).
  std::shared_ptr<const ConfigFile> for_input(const std::string& input, std::vector<std::string>& errors);

 private:
  std::shared_ptr<const ConfigFile> for_dir(const std::string& dir, std::vector<std::string>& errors);
  std::string explicit_;
  bool isolated_ = false;
  bool explicit_loaded_ = false;
  std::shared_ptr<const ConfigFile> explicit_config_;
  std::map<std::string, std::shared_ptr<const ConfigFile>> by_dir_;
};

// The settings of the config (its base, then each override whose glob matches `input`, in
// order), for one input file. Null config: no settings.
std::vector<const Settings*> settings_for(const ConfigFile* config, const std::string& input);

}  // namespace tikzlint::cli
