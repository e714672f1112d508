// grammar/test_parse.cpp: statements and path operations.
#include <doctest/doctest.h>

#include "grammar/grammar.hpp"

using namespace tikzlint::grammar;

TEST_CASE("smoke") {
  auto r = parse("\\draw[thick,->] (0,0) -- (1,0);");
  CHECK(r.errors.empty());
  REQUIRE(r.statements.size() == 1);
}
