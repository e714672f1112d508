#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "cli/args.hpp"
#include "cli/config.hpp"

using namespace tikzlint;
using namespace tikzlint::cli;
namespace fs = std::filesystem;

namespace {

// A fresh folder under the temp dir with a `.git` marker, so discovery never climbs out of it.
struct TempTree {
  fs::path root;
  TempTree() {
    std::string tmpl = (fs::temp_directory_path() / "tikzlint-config-XXXXXX").string();
    root = fs::path(::mkdtemp(tmpl.data()));
    fs::create_directory(root / ".git");
  }
  ~TempTree() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
  std::string write(const std::string& rel, const std::string& text) const {
    fs::path p = root / rel;
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
    return p.string();
  }
};

std::shared_ptr<const ConfigFile> parse(const std::string& text, std::vector<std::string>& errors,
                                        bool pyproject = false) {
  return parse_config(text, "/nowhere/tikzlint.toml", pyproject, errors);
}

}  // namespace

TEST_CASE("config: select, ignore and rule thresholds are read with the names of the command line") {
  std::vector<std::string> errors;
  auto c = parse(R"(select = ["in_frame", "overlap", "unsupported-*"]
ignore = ["no-picture"]
[rules.in_frame]
tolerance_pt = 2
[rules.readable_size]
display_width_pt = 345.0
)",
                 errors);
  REQUIRE(errors.empty());
  REQUIRE(c);
  CHECK(c->base.selection.select == std::vector<std::string>{"in_frame", "overlap", "unsupported-*"});
  CHECK(c->base.selection.ignore == std::vector<std::string>{"no-picture"});
  REQUIRE(c->base.thresholds.size() == 2);
  CHECK(c->base.thresholds[0] == std::pair<std::string, double>{"in_frame.tolerance_pt", 2.0});
  CHECK(c->base.thresholds[1] == std::pair<std::string, double>{"readable_size.display_width_pt", 345.0});
}

TEST_CASE("config: an unknown key, rule or threshold is a located error listing the valid ones") {
  std::vector<std::string> errors;
  CHECK_FALSE(parse("selct = [\"in_frame\"]\n", errors));
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].find("/nowhere/tikzlint.toml:1:1: unknown key 'selct'") == 0);
  CHECK(errors[0].find("valid keys: ignore, include-dirs, overrides, rules, select, spec") != std::string::npos);

  errors.clear();
  CHECK_FALSE(parse("\n\nignore = [\"in_frame\", \"in_fram\"]\n", errors));
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].find("tikzlint.toml:3:23: ignore: unknown rule or code 'in_fram'") != std::string::npos);
  CHECK(errors[0].find("length_proportions") != std::string::npos);  // the valid names are listed
  CHECK(errors[0].find("unsupported-key") != std::string::npos);

  errors.clear();
  CHECK_FALSE(parse("[rules.in_frame]\ntolerance = 2\n", errors));
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].find(":2:1: [rules.in_frame]: rule 'in_frame' has no threshold 'tolerance' (it has: ") !=
        std::string::npos);

  errors.clear();
  CHECK_FALSE(parse("[rules.no_such_rule]\nx = 1\n", errors));
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].find("unknown rule 'no_such_rule' (rules: angle_labels") != std::string::npos);

  errors.clear();
  CHECK_FALSE(parse("[rules.in_frame]\ntolerance_pt = \"2pt\"\n", errors));
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].find(":2:16: [rules.in_frame] tolerance_pt must be a finite number") != std::string::npos);
}

TEST_CASE("config: malformed TOML is a located error that quotes nothing of the file") {
  std::vector<std::string> errors;
  CHECK_FALSE(parse("select = [\"in_frame\"\nignore = secretvalue\n", errors));
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].find("/nowhere/tikzlint.toml:") == 0);
  CHECK(errors[0].find("malformed TOML") != std::string::npos);
  CHECK(errors[0].find("secretvalue") == std::string::npos);
  CHECK(errors[0].find("secr") == std::string::npos);
}

TEST_CASE("config: pyproject.toml is read only through [tool.tikzlint]") {
  std::vector<std::string> errors;
  CHECK_FALSE(parse("[project]\nname = \"x\"\n[tool.ruff]\nline-length = 88\n", errors, true));
  CHECK(errors.empty());  // no table: not a tikzlint config, no error
  auto c = parse("[project]\nname = \"x\"\n[tool.tikzlint]\nignore = [\"overlap\"]\n[tool.tikzlint.rules.in_frame]\n"
                 "tolerance_pt = 1\n",
                 errors, true);
  REQUIRE(errors.empty());
  REQUIRE(c);
  CHECK(c->base.selection.ignore == std::vector<std::string>{"overlap"});
  CHECK(c->base.thresholds.size() == 1);
}

TEST_CASE("config: selection layers apply in order, each select starting over") {
  Selection s;
  CHECK(s.everything());
  CHECK(s.enabled("overlap"));
  s.add({std::vector<std::string>{"in_frame", "overlap", "unsupported-*"}, {"overlap"}});  // the config file
  CHECK(s.enabled("in_frame"));
  CHECK_FALSE(s.enabled("overlap"));
  CHECK(s.enabled("unsupported-key"));
  CHECK_FALSE(s.enabled("angle_labels"));
  CHECK(s.enabled("unreadable-file"));  // always reported
  CHECK(s.enabled("internal-error"));
  s.add({std::nullopt, {"unsupported-key"}});  // an override: ignore one more
  CHECK_FALSE(s.enabled("unsupported-key"));
  CHECK(s.enabled("unsupported-coordinate"));
  s.add({std::vector<std::string>{"all"}, {}});  // the command line's --select all
  CHECK(s.enabled("overlap"));
  CHECK(s.enabled("angle_labels"));
  CHECK(s.enabled("unsupported-key"));
}

TEST_CASE("config: selectable names are the rules and the front-end codes") {
  CHECK(check_selectable("in_frame").empty());
  CHECK(check_selectable("compiles").empty());
  CHECK(check_selectable("spec").empty());
  CHECK(check_selectable("missing-file").empty());
  CHECK(check_selectable("resource-limit").empty());
  CHECK(check_selectable("llm-*").empty());
  CHECK(check_selectable("all").empty());
  CHECK_FALSE(check_selectable("zz-*").empty());  // a prefix must match something
  CHECK(check_selectable("unreadable-file").find("always reported") != std::string::npos);
  CHECK_FALSE(check_selectable("").empty());
}

TEST_CASE("config: --select and --ignore take comma-separated names checked against the registry") {
  auto p = parse_args({"check", "--select", "in_frame,overlap", "--select=compiles", "--ignore", "no-picture",
                       "--config", "c.toml", "a.tex"});
  REQUIRE(p.invocation);
  CHECK(p.invocation->select == std::vector<std::string>{"in_frame", "overlap", "compiles"});
  CHECK(p.invocation->ignore == std::vector<std::string>{"no-picture"});
  CHECK(p.invocation->config == "c.toml");
  auto bad = parse_args({"check", "--ignore", "in_frame,inframe", "a.tex"});
  CHECK_FALSE(bad.invocation);
  CHECK(bad.error.find("--ignore: unknown rule or code 'inframe'") == 0);
  auto iso = parse_args({"check", "--isolated", "a.tex"});
  REQUIRE(iso.invocation);
  CHECK(iso.invocation->isolated);
}

TEST_CASE("config: globs match relative paths like .gitignore patterns") {
  CHECK(glob_match("*.tex", "a.tex"));
  CHECK(glob_match("*.tex", "figs/deep/a.tex"));  // no '/': a name at any depth
  CHECK(glob_match("generated", "figs/generated/a.tex"));  // a folder name covers what is below
  CHECK_FALSE(glob_match("*.tex", "a.sty"));
  CHECK(glob_match("figs/*.tex", "figs/a.tex"));
  CHECK_FALSE(glob_match("figs/*.tex", "figs/sub/a.tex"));  // '*' stays in one folder
  CHECK(glob_match("figs/**/*.tex", "figs/a.tex"));
  CHECK(glob_match("figs/**/*.tex", "figs/x/y/a.tex"));
  CHECK(glob_match("./figs/", "figs/a.tex"));
  CHECK(glob_match("figs/a?.tex", "figs/a1.tex"));
  CHECK(glob_match("figs/[ab]*.tex", "figs/b2.tex"));
  CHECK_FALSE(glob_match("figs/[!ab]*.tex", "figs/b2.tex"));
  CHECK(glob_match("figs/[0-9].tex", "figs/7.tex"));
  CHECK_FALSE(glob_match("other/*.tex", "figs/a.tex"));
  // Many stars against a long name: linear, not exponential.
  std::string stars, name(4000, 'a');
  for (int i = 0; i < 200; ++i) stars += "*a";
  CHECK_FALSE(glob_match(stars + "b", name));
}

TEST_CASE("config: discovery takes the nearest file upward, tikzlint.toml before pyproject.toml") {
  TempTree t;
  t.write("tikzlint.toml", "ignore = [\"overlap\"]\n");
  t.write("sub/pyproject.toml", "[tool.tikzlint]\nignore = [\"in_frame\"]\n");
  t.write("other/pyproject.toml", "[tool.black]\nx = 1\n");  // no tikzlint table: skipped
  t.write("both/tikzlint.toml", "select = [\"compiles\"]\n");
  t.write("both/pyproject.toml", "[tool.tikzlint]\nselect = [\"overlap\"]\n");
  ConfigResolver r("", false);
  std::vector<std::string> errors;
  auto top = r.for_input((t.root / "a.tex").string(), errors);
  auto sub = r.for_input((t.root / "sub/deeper/b.tex").string(), errors);
  auto other = r.for_input((t.root / "other/c.tex").string(), errors);
  auto both = r.for_input((t.root / "both/d.tex").string(), errors);
  REQUIRE(errors.empty());
  REQUIRE((top && sub && other && both));
  CHECK(top->base.selection.ignore == std::vector<std::string>{"overlap"});
  CHECK(sub->base.selection.ignore == std::vector<std::string>{"in_frame"});
  CHECK(other == top);  // skipped the pyproject without [tool.tikzlint]
  CHECK(both->base.selection.select == std::vector<std::string>{"compiles"});
  CHECK(ConfigResolver("", true).for_input((t.root / "a.tex").string(), errors) == nullptr);  // --isolated
  auto given = ConfigResolver((t.root / "sub/pyproject.toml").string(), false).for_input((t.root / "a.tex").string(), errors);
  REQUIRE(given);
  CHECK(given->base.selection.ignore == std::vector<std::string>{"in_frame"});  // --config: no discovery
}

TEST_CASE("config: discovery stops at the repository root") {
  TempTree t;
  t.write("tikzlint.toml", "ignore = [\"overlap\"]\n");
  t.write("repo/fig/a.tex", "");
  fs::create_directory(t.root / "repo/.git");
  ConfigResolver r("", false);
  std::vector<std::string> errors;
  CHECK(r.for_input((t.root / "repo/fig/a.tex").string(), errors) == nullptr);
  CHECK(errors.empty());
}

TEST_CASE("config: include-dirs and spec are confined to the config file's folder") {
  TempTree t;
  fs::create_directories(t.root / "repo/styles");
  fs::create_directories(t.root / "outside");
  fs::create_directories(t.root / "repo/.hidden");
  fs::create_directory_symlink(t.root / "outside", t.root / "repo/link");
  std::string ok = t.write("repo/tikzlint.toml", "include-dirs = [\"styles\", \"./styles/\"]\n");
  std::vector<std::string> errors;
  auto c = load_config(ok, errors);
  REQUIRE(errors.empty());
  REQUIRE(c);
  CHECK(c->base.include_dirs == std::vector<std::string>{(t.root / "repo/styles").string(), (t.root / "repo/styles").string()});
  for (const char* bad : {"/etc", "../outside", "styles/../../outside", ".hidden", "link", "missing"}) {
    std::string path = t.write("repo/tikzlint.toml", std::string("include-dirs = [\"") + bad + "\"]\n");
    errors.clear();
    CHECK_FALSE(load_config(path, errors));
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].find(path + ":1:17: 'include-dirs'") == 0);
    CHECK(errors[0].find(bad[0] == '/' ? "etc" : "outside") == std::string::npos);  // the value is not echoed
  }
}

TEST_CASE("config: [[overrides]] need files and apply to the paths their globs match, in order") {
  TempTree t;
  std::string path = t.write("tikzlint.toml", R"(ignore = ["overlap"]
[[overrides]]
files = ["figs/generated/**"]
ignore = ["in_frame"]
[overrides.rules.readable_size]
display_width_pt = 200
[[overrides]]
files = ["*.tex"]
select = ["all"]
)");
  std::vector<std::string> errors;
  auto c = load_config(path, errors);
  REQUIRE(errors.empty());
  REQUIRE(c);
  REQUIRE(c->overrides.size() == 2);
  auto gen = settings_for(c.get(), (t.root / "figs/generated/a.tex").string());
  REQUIRE(gen.size() == 3);
  CHECK(gen[1]->thresholds.size() == 1);
  CHECK(settings_for(c.get(), (t.root / "figs/a.tex").string()).size() == 2);
  CHECK(settings_for(c.get(), (t.root / "figs/a.sty").string()).size() == 1);

  errors.clear();
  CHECK_FALSE(parse("[[overrides]]\nignore = [\"overlap\"]\n", errors));
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].find(":1:1: an [[overrides]] entry needs 'files'") != std::string::npos);
  errors.clear();
  CHECK_FALSE(parse("[[overrides]]\nfiles = [\"*.tex\"]\n[[overrides.overrides]]\nfiles = [\"x\"]\n", errors));
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].find("unknown key 'overrides' in [[overrides]]") != std::string::npos);
}

TEST_CASE("config: a file over the size limit is refused without parsing it") {
  TempTree t;
  std::string path = t.write("tikzlint.toml", std::string(kMaxConfigBytes + 1, '#'));
  std::vector<std::string> errors;
  CHECK_FALSE(load_config(path, errors));
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].find("larger than 1 MiB") != std::string::npos);
}

TEST_CASE("config: problems are listed in the file's order, at most 20, the rest counted") {
  std::string text;
  for (int i = 0; i < 30; ++i) text += "k" + std::to_string(i) + " = 1\n";
  std::vector<std::string> errors;
  CHECK_FALSE(parse(text, errors));
  REQUIRE(errors.size() == 21);
  CHECK(errors[0].find(":1:1: unknown key 'k0'") != std::string::npos);
  CHECK(errors[1].find(":2:1: unknown key 'k1'") != std::string::npos);  // not k10: the file's order
  CHECK(errors[19].find(":20:1: unknown key 'k19'") != std::string::npos);
  CHECK(errors[20] == "/nowhere/tikzlint.toml: and 10 more problems");
}
