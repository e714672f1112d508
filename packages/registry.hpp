// packages/registry.hpp: the public face of packages/: every package and library tikzlint models,
// for the driver to hand to ir::lower.
#pragma once
#include "ir/package.hpp"

namespace tikzlint::packages {

// A fresh registry of every package (registry.cpp), in the order the lowering offers them a
// statement.
ir::PackageRegistry registry();

// The same registry built once, shared by every lowering of the process (it is immutable).
const ir::PackageRegistry& all();

}  // namespace tikzlint::packages
