// packages/registry.cpp: the ONE list of the packages and libraries tikzlint models, one folder
// each (packages/<name>/, its README says what it models). Adding a package is its folder and one
// line here.
//
// Order matters only where two packages could take the same statement: the lowering offers each
// statement to them in this order. Environments that own everything inside them (a pgfplots axis)
// come first; then the path commands in the order TikZ's parser would meet them (a \matrix whose
// cells hold `child` is a matrix); lsystems' \pgfdeclarelindenmayersystem before the pgf basic
// layer, which takes every other \pgf command.
#include "packages/registry.hpp"

#include <memory>

#define TIKZLINT_PACKAGES(X)                                                                     \
  X(pgfplots)          /* \begin{axis} ... \addplot ... \end{axis}          (pgfplots manual 4.10) */ \
  X(graphs)            /* \graph                                              (pgfmanual 19, 59) */ \
  X(datavisualization) /* \datavisualization                                (pgfmanual 80-86) */ \
  X(tikzcd)            /* \begin{tikzcd}: a matrix of math nodes and arrows       (tikz-cd manual) */ \
  X(matrix)            /* \matrix, matrix of nodes                            (pgfmanual 20, 60) */ \
  X(lsystems)          /* l-system paths, \pgfdeclarelindenmayersystem              (pgfmanual 57) */ \
  X(trees)             /* child operations, mindmap                               (pgfmanual 21) */ \
  X(spy)               /* \spy                                                    (pgfmanual 71) */ \
  X(calendar)          /* \calendar                                               (pgfmanual 49) */ \
  X(pgf)               /* the pgf basic layer: \pgfpath..., \pgfnode...    (pgfmanual part IX) */ \
  X(chains)            /* \chainin                                                (pgfmanual 46) */ \
  X(tkzeuclide)        /* \tkzDefPoint, \tkzDraw..., \tkzLabel..., \tkzMark...  (tkz-euclide 4.25c) */ \
  X(circuitikz)        /* to[R=...]: bipoles, their labels and poles               (circuitikz 1.6.0) */ \
  X(shapes)            /* shapes.geometric, shapes.arrows, circuits' shapes  (pgfmanual "Shape Library") */

namespace tikzlint::packages {

#define TIKZLINT_DECLARE(name) std::unique_ptr<ir::Package> name();
TIKZLINT_PACKAGES(TIKZLINT_DECLARE)
#undef TIKZLINT_DECLARE

ir::PackageRegistry registry() {
  ir::PackageRegistry r;
#define TIKZLINT_ADD(name) r.add(name());
  TIKZLINT_PACKAGES(TIKZLINT_ADD)
#undef TIKZLINT_ADD
  return r;
}

const ir::PackageRegistry& all() {
  static const ir::PackageRegistry r = registry();
  return r;
}

}  // namespace tikzlint::packages
