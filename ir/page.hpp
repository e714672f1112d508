// ir/page.hpp: the text block a document sets its pictures in, as the geometry package lays it
// out on the document's paper (geometry.sty manual, sections 5 and 6).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "ir/diagram.hpp"

namespace tikzlint::ir {

// The text block of a document that loads geometry with `geometry_options` (its \usepackage
// options), on the paper its class options name (letter by default, as LaTeX's classes).
// nullopt when an option that decides the block is not read (a length given by a macro,
// \paperwidth fractions, marginpar inclusion): the class's default block then stands.
std::optional<TextBlock> geometry_text_block(const std::vector<std::string>& class_options,
                                             const std::string& geometry_options);

}  // namespace tikzlint::ir
