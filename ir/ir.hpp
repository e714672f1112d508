// ir/ir.hpp: the public face of lowering: expanded TikZ -> ir::Diagram, plus JSON and SVG.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "ir/diagram.hpp"
#include "tex/tex.hpp"

namespace tikzlint::ir {

class PackageRegistry;  // ir/package.hpp

// Lower every picture of `doc` into one Diagram per picture. `packages` are the TeX packages and
// TikZ libraries modelled (packages::all() from packages/registry.hpp; an empty registry lowers
// plain TikZ only).
std::vector<Diagram> lower(const tex::ExpandedDocument& doc, const SourceManager& sm, const PackageRegistry& packages);

// The IR as JSON (schema in docs/ir-schema.md): picture_bbox, canvas, nodes[{text, box}], elements...
nlohmann::json to_json(const Diagram& d, const SourceManager& sm);

// Draw the IR as the verifier sees it; `findings` are drawn in red.
std::string to_svg(const Diagram& d, const std::vector<Diagnostic>& findings);

}  // namespace tikzlint::ir
