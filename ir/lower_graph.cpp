// ir/lower_graph.cpp: \graph (pgfmanual 19), rewritten into plain statements (ir/library.hpp).
// Not modelled yet: returning false leaves the statement to the caller, which reports it.
#include "ir/library.hpp"

namespace tikzlint::ir {

bool lower_graph(const tex::Statement&, LibraryHost&) { return false; }

}  // namespace tikzlint::ir
