#include <doctest/doctest.h>

#include "cli/driver.hpp"

using namespace tikzlint;
using namespace tikzlint::cli;

namespace {

std::vector<const Diagnostic*> with_rule(const FileReport& r, const std::string& rule) {
  std::vector<const Diagnostic*> out;
  for (const auto& d : r.diagnostics)
    if (d.rule == rule) out.push_back(&d);
  return out;
}

FileReport check(const std::string& body) {
  CheckOptions opts;
  opts.selection.add({std::nullopt, {"compiles"}});  // only the front end's diagnostics here
  return check_source("a.tex",
                      "\\documentclass[tikz]{standalone}\n\\begin{document}\n\\begin{tikzpicture}\n" + body +
                          "\n\\end{tikzpicture}\n\\end{document}\n",
                      opts);
}

}  // namespace

TEST_CASE("repeats: one diagnostic per cause with the count of the others") {
  // 3000 iterations of one statement: one math-error, "and 2,999 more like it".
  FileReport r = check("\\foreach \\i in {1,...,3000} { \\pgfmathparse{1/0} }");
  auto errs = with_rule(r, "math-error");
  REQUIRE(errs.size() == 1);
  CHECK(errs[0]->evidence.value("repeats", 0) == 2999);
  REQUIRE_FALSE(errs[0]->notes.empty());
  CHECK(errs[0]->notes.back().message == "and 2,999 more like it here (not shown)");
}

TEST_CASE("repeats: messages that differ only in their numbers are one cause") {
  // Every iteration's value is its own number: still one diagnostic per place.
  FileReport r = check("\\foreach \\i in {16384,...,16583} { \\draw (\\i,0) -- (0,0); }");
  auto errs = with_rule(r, "math-error");
  REQUIRE(errs.size() == 1);
  CHECK(errs[0]->evidence.value("repeats", 0) == 199);
}

TEST_CASE("repeats: different problems at one place stay apart, and a single one has no count") {
  FileReport r = check("\\draw[fooa, foob] (0,0) -- (1,0);");
  auto keys = with_rule(r, "unsupported-key");
  REQUIRE(keys.size() == 2);
  CHECK_FALSE(keys[0]->evidence.contains("repeats"));
  CHECK_FALSE(keys[1]->evidence.contains("repeats"));
}
