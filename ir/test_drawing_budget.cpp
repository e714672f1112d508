#include <doctest/doctest.h>

#include "ir/test_lower_support.hpp"

using namespace tikzlint;
using lowertest::Pic;

namespace {

tex::Picture picture(const Pic& p, std::uint32_t at) {
  tex::Picture pic;
  pic.statements = p.st;
  pic.range = {0, at, at + 10, true};
  return pic;
}

const Diagnostic* find(const ir::Diagram& d, const std::string& rule, Severity sev) {
  for (const auto& x : d.diagnostics)
    if (x.rule == rule && x.severity == sev) return &x;
  return nullptr;
}

}  // namespace

TEST_CASE("max_drawing_work: elements and path points of a file are counted in one budget") {
  tex::ExpandedDocument doc;
  doc.max_drawing_work = 5000;
  Pic a, b;
  a.path("\\draw (0,0) -- (1,0);");
  for (int i = 0; i < 30; ++i) a.path("\\draw plot[samples=200,domain=0:1] (\\x,{\\x*\\x});");  // 30 x 201
  a.path("\\draw (0,0) -- (0,1);");
  b.path("\\draw (0,0) -- (1,1);");
  doc.pictures = {picture(a, 0), picture(b, 100)};
  SourceManager sm;
  auto out = ir::lower(doc, sm, lowertest::packages());
  REQUIRE(out.size() == 2);
  // The plot that would pass the budget is refused before its samples are computed, with one
  // error; what comes after it (in this picture and the next) is left out.
  const Diagnostic* err = find(out[0], "expansion-limit", Severity::error);
  REQUIRE(err != nullptr);
  CHECK(err->evidence["name"] == "max_drawing_work");
  CHECK(err->evidence["limit"] == 5000);
  CHECK(err->evidence["work"].get<std::size_t>() > 5000);
  std::size_t errors = 0;
  for (const auto& d : out)
    for (const auto& x : d.diagnostics) errors += x.severity == Severity::error;
  CHECK(errors == 1);
  CHECK(out[0].elements.size() < 30);
  CHECK(out[0].elements.size() > 10);
  CHECK_FALSE(out[0].unsupported.empty());  // the rules see incomplete geometry
  CHECK(out[1].elements.empty());
  CHECK(find(out[1], "expansion-limit", Severity::note) != nullptr);
  CHECK_FALSE(out[1].unsupported.empty());
}

TEST_CASE("max_drawing_work: a drawing within the budget is untouched") {
  tex::ExpandedDocument doc;
  doc.max_drawing_work = 5000;
  Pic a;
  for (int i = 0; i < 10; ++i) a.path("\\draw plot[samples=200,domain=0:1] (\\x,{\\x*\\x});");
  doc.pictures = {picture(a, 0)};
  SourceManager sm;
  auto out = ir::lower(doc, sm, lowertest::packages());
  REQUIRE(out.size() == 1);
  CHECK(out[0].elements.size() == 10);
  CHECK_FALSE(lowertest::has_rule(out[0], "expansion-limit"));
}

TEST_CASE("max_drawing_work: the points of a decoration's path count too") {
  // The straight line costs 5 (an element, a few points); the Koch curve's path 7 more.
  tex::ExpandedDocument doc;
  doc.max_drawing_work = 8;
  Pic a;
  a.path("\\draw[decorate,decoration={Koch curve type 1}] (0,0) -- (10,0);");
  doc.pictures = {picture(a, 0)};
  SourceManager sm;
  auto out = ir::lower(doc, sm, lowertest::packages());
  REQUIRE(out.size() == 1);
  const Diagnostic* err = find(out[0], "expansion-limit", Severity::error);
  REQUIRE(err != nullptr);
  CHECK(err->evidence["name"] == "max_drawing_work");
  CHECK(err->evidence["work"] == 12);
  doc.max_drawing_work = 12;  // the same drawing within the budget
  out = ir::lower(doc, sm, lowertest::packages());
  CHECK_FALSE(lowertest::has_rule(out[0], "expansion-limit"));
  CHECK(out[0].elements.size() == 1);
}
