// tex/bundled.hpp: the TeX sources tikzlint ships, for packages whose own TeX code the expander
// follows exactly (packages/<name>/tex/, each with its licence and version in that folder's
// README). tikzlint reads no file outside the input's tree, so without these a document's
// \usepackage{tikz-3dplot} would define nothing and every \tdplot... command would be unknown.
// A file of the same name in the input's tree (or an include dir) is read instead, as TeX reads
// the first file it finds. The table is generated at build time (cmake/embed_tex_sources.cmake).
#pragma once
#include <span>
#include <string_view>

namespace tikzlint::tex {

struct BundledFile {
  std::string_view name;    // as \usepackage / \input find it: "tikz-3dplot.sty"
  std::string_view origin;  // where it lives in the project: "packages/tikz3dplot/tex/tikz-3dplot.sty"
  std::string_view text;
};

std::span<const BundledFile> bundled_files();

// The bundled file of this name, or nullptr.
inline const BundledFile* find_bundled(std::string_view name) {
  for (const BundledFile& f : bundled_files())
    if (f.name == name) return &f;
  return nullptr;
}

}  // namespace tikzlint::tex
