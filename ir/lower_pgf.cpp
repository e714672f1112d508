// ir/lower_pgf.cpp: pgf basic-layer commands (pgfmanual part IX), rewritten into plain statements (ir/library.hpp).
// Not modelled yet: returning false leaves the statement to the caller, which reports it.
#include "ir/library.hpp"

namespace tikzlint::ir {

bool lower_pgf_basic(const tex::Statement&, LibraryHost&) { return false; }

}  // namespace tikzlint::ir
