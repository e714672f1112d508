// packages/shapes/shapes.cpp: the shape libraries as one package: each node of a library shape gets
// its outline (anchors, anchor border, extent) from the family's builder. The shapes' keys
// (`regular polygon sides`...) are recorded by the key applier (ir/shape_keys.cpp).
#include <memory>

#include "packages/shapes/shapes.hpp"
#include "packages/support.hpp"

namespace tikzlint::packages {
namespace {

class Shapes final : public ir::Package {
 public:
  std::string_view name() const override { return "shapes"; }
  std::shared_ptr<const ir::ShapeOutline> shape(const ir::NodeShapeInput& in) const override {
    if (auto o = ir::shapes::build_geometric(in)) return o;
    if (auto o = ir::shapes::build_circuit(in)) return o;
    return ir::shapes::build_misc(in);
  }
};

}  // namespace

std::unique_ptr<ir::Package> shapes() { return std::make_unique<Shapes>(); }

}  // namespace tikzlint::packages
