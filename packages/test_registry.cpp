// packages/test_registry.cpp: the registry the packages' unit tests lower with (every package),
// and what the registry itself promises.
#include <doctest/doctest.h>

#include <set>
#include <string>

#include "ir/test_lower_support.hpp"
#include "packages/registry.hpp"

const tikzlint::ir::PackageRegistry& lowertest::packages() { return tikzlint::packages::all(); }

TEST_CASE("registry: every package has a name of its own and its folder") {
  std::set<std::string> names;
  for (const auto& p : tikzlint::packages::all().packages()) {
    const std::string name(p->name());
    CHECK(!name.empty());
    CHECK(names.insert(name).second);
    CHECK(tikzlint::packages::all().find(name) == p.get());
  }
  CHECK(names.count("pgfplots") == 1);
  CHECK(names.count("graphs") == 1);
  CHECK(names.count("shapes") == 1);
}

TEST_CASE("registry: without packages a library command is unsupported, with them it is lowered") {
  lowertest::Pic pic;
  pic.other("\\calendar[dates=2024-01-01 to 2024-01-03];");
  const tikzlint::ir::PackageRegistry none;
  CHECK(lowertest::count_unsupported(pic.lower_with(none)) == 1);
  const auto d = pic.lower();
  CHECK(lowertest::count_unsupported(d) == 0);
  CHECK(d.nodes.size() == 3);
}
