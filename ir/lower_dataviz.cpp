// ir/lower_dataviz.cpp: \datavisualization (pgfmanual 80-86), rewritten into plain statements (ir/library.hpp).
// Not modelled yet: returning false leaves the statement to the caller, which reports it.
#include "ir/library.hpp"

namespace tikzlint::ir {

bool lower_datavisualization(const tex::Statement&, LibraryHost&) { return false; }

}  // namespace tikzlint::ir
