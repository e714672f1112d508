#include <doctest/doctest.h>

#include "checks/check.hpp"
#include "cli/args.hpp"

using namespace tikzlint;
using namespace tikzlint::cli;

namespace {
ParsedArgs parse(std::vector<std::string> a) { return parse_args(a); }
}  // namespace

TEST_CASE("check takes format, include dirs, jobs, fallback and llm flags in either spelling") {
  auto p = parse({"check", "--format", "jsonl", "--include-dir=classes", "-I", "more", "--jobs", "4",
                  "--fallback=auto", "--llm-base-url", "http://x/v1", "--llm-model", "m", "--llm-cache", "c",
                  "a.tex", "dir"});
  REQUIRE(p.invocation);
  const auto& inv = *p.invocation;
  CHECK(inv.command == Command::check);
  CHECK(inv.format == Format::jsonl);
  CHECK(inv.include_dirs == std::vector<std::string>{"classes", "more"});
  CHECK(inv.jobs == 4);
  CHECK(inv.fallback == backtranslate::Mode::automatic);
  CHECK(inv.llm_base_url == "http://x/v1");
  CHECK(inv.llm_model == "m");
  CHECK(inv.llm_cache == "c");
  CHECK(inv.operands == std::vector<std::string>{"a.tex", "dir"});
}

TEST_CASE("every format name parses and an unknown one is a usage error") {
  for (const char* f : {"text", "json", "jsonl", "sarif", "github"}) CHECK(parse({"check", "--format", f, "x"}).invocation);
  auto p = parse({"check", "--format", "xml", "x"});
  CHECK_FALSE(p.invocation);
  CHECK(p.error.find("unknown format 'xml'") != std::string::npos);
}

TEST_CASE("usage errors: no command, unknown command or option, missing operand or value, bad jobs") {
  CHECK_FALSE(parse({}).invocation);
  CHECK_FALSE(parse({"lint", "a.tex"}).invocation);
  CHECK_FALSE(parse({"check", "--frobnicate", "a.tex"}).invocation);
  CHECK_FALSE(parse({"check"}).invocation);
  CHECK_FALSE(parse({"check", "a.tex", "--format"}).invocation);
  CHECK_FALSE(parse({"check", "--jobs", "many", "a.tex"}).invocation);
  CHECK_FALSE(parse({"check", "--jobs", "-1", "a.tex"}).invocation);
  CHECK_FALSE(parse({"check", "--fallback", "sometimes", "a.tex"}).invocation);
  CHECK_FALSE(parse({"ir", "a.tex", "b.tex"}).invocation);
  CHECK_FALSE(parse({"ir", "--format", "json", "a.tex"}).invocation);  // check-only flag
  CHECK_FALSE(parse({"explain"}).invocation);
  CHECK_FALSE(parse({"explain", "--markdown=yes", "in_frame"}).invocation);
}

TEST_CASE("-- ends the options so a file may start with a dash") {
  auto p = parse({"check", "--", "-odd.tex"});
  REQUIRE(p.invocation);
  CHECK(p.invocation->operands == std::vector<std::string>{"-odd.tex"});
}

TEST_CASE("--set is checked against the registry's thresholds") {
  CHECK_FALSE(parse({"check", "--set", "no_such_rule.x=1", "a.tex"}).invocation);
  CHECK_FALSE(parse({"check", "--set", "missing-dot=1", "a.tex"}).invocation);
  for (const auto& rule : checks::registry()) {
    CHECK_FALSE(parse({"check", "--set", rule.doc->name + ".no_such_threshold=1", "a.tex"}).invocation);
    for (const auto& t : rule.doc->thresholds) {
      auto key = rule.doc->name + "." + t.name;
      auto ok = parse({"check", "--set", key + "=2.5", "a.tex"});
      REQUIRE(ok.invocation);
      REQUIRE(ok.invocation->thresholds.size() == 1);
      CHECK(ok.invocation->thresholds[0].first == key);
      CHECK(ok.invocation->thresholds[0].second == doctest::Approx(2.5));
      CHECK_FALSE(parse({"check", "--set", key + "=abc", "a.tex"}).invocation);
    }
  }
}

TEST_CASE("version, help, explain, ir and render commands") {
  CHECK(parse({"--version"}).invocation->command == Command::version);
  CHECK(parse({"--help"}).invocation->command == Command::help);
  CHECK(parse({"check", "--help"}).invocation->command == Command::help);
  auto e = parse({"explain", "in_frame", "--markdown"});
  REQUIRE(e.invocation);
  CHECK(e.invocation->markdown);
  CHECK(e.invocation->operands == std::vector<std::string>{"in_frame"});
  CHECK(parse({"explain", "--list"}).invocation->list);
  auto r = parse({"render", "a.tex", "-o", "out.svg", "--picture", "2"});
  REQUIRE(r.invocation);
  CHECK(r.invocation->output == "out.svg");
  CHECK(r.invocation->picture == 2);
  CHECK_FALSE(parse({"render", "a.tex", "--picture", "0"}).invocation);
}

TEST_CASE("rank and compare: operands, reference, their formats and stdin-filename") {
  auto p = parse({"rank", "--reference", "ref.tex", "--format", "jsonl", "a.tex", "b.tex"});
  REQUIRE(p.invocation);
  CHECK(p.invocation->command == Command::rank);
  CHECK(p.invocation->reference == "ref.tex");
  CHECK(p.invocation->operands.size() == 2);
  CHECK_FALSE(parse({"rank"}).invocation);
  CHECK_FALSE(parse({"rank", "--format", "sarif", "a.tex"}).invocation);
  CHECK_FALSE(parse({"check", "--reference", "r.tex", "a.tex"}).invocation);
  CHECK(parse({"compare", "a.tex", "b.tex", "--format", "json"}).invocation);
  CHECK_FALSE(parse({"compare", "a.tex"}).invocation);
  CHECK_FALSE(parse({"compare", "a.tex", "b.tex", "--format", "jsonl"}).invocation);
  CHECK(parse({"compare", "--set", "compare.position_tolerance=0.1", "a.tex", "b.tex"}).invocation);
  CHECK_FALSE(parse({"compare", "--set", "compare.nope=0.1", "a.tex", "b.tex"}).invocation);
  auto s = parse({"check", "--stdin-filename", "fig/a.tex", "-"});
  REQUIRE(s.invocation);
  CHECK(s.invocation->stdin_filename == "fig/a.tex");
  CHECK(s.invocation->operands == std::vector<std::string>{"-"});
  CHECK_FALSE(parse({"check", "--stdin-filename=", "-"}).invocation);
}
