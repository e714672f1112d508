// ir/lower_matrix.cpp: \matrix (pgfmanual 20, 60), rewritten into plain statements (ir/library.hpp).
// Not modelled yet: returning false leaves the statement to the caller, which reports it.
#include "ir/library.hpp"

namespace tikzlint::ir {

bool lower_matrix(const tex::Statement&, LibraryHost&) { return false; }

}  // namespace tikzlint::ir
