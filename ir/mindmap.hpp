// ir/mindmap.hpp: the concept sizes of the mindmap library (tikzlibrarymindmap.code.tex), shared
// by the key applier (library_keys.cpp: `mindmap`, `root concept`, `level <n> concept` on nodes
// and scopes) and the tree lowering (packages/trees/: the levels of a mindmap's children).
#pragma once
#include <string>
#include <string_view>

namespace tikzlint::ir {

// root concept and level 1..4 concept for `mindmap` and its small, large and huge variants
// (which also set the line width). `\pgfutil@font@large` is `\large`.
struct ConceptSizes {
  const char* name;  // the key that selects these sizes
  const char* root;
  const char* level[4];
  const char* line_width;  // "" for `mindmap`
};
inline constexpr ConceptSizes kConceptSizes[] = {
    {"mindmap",
     "minimum size=4cm,text width=3.5cm,font=\\large",
     {"minimum size=2.25cm,level distance=5cm,text width=2cm,sibling angle=60,font=\\small",
      "minimum size=1.75cm,level distance=2.9cm,text width=1.5cm,sibling angle=60,font=\\footnotesize",
      "minimum size=1.15cm,text width=1cm,level distance=2.4cm,sibling angle=30,font=\\tiny",
      "minimum size=0.9cm,text width=0.7cm,level distance=1.85cm,sibling angle=30,font=\\tiny"},
     ""},
    {"small mindmap",
     "minimum size=2.3cm,text width=2.1cm,font=\\footnotesize",
     {"minimum size=1.5cm,level distance=2.8cm,text width=1.4cm,sibling angle=75,font=\\scriptsize",
      "minimum size=1.1cm,level distance=2.2cm,text width=1.1cm,sibling angle=60,font=\\tiny",
      "minimum size=1.1cm,level distance=2.2cm,text width=1.1cm,sibling angle=30,font=\\tiny",
      "minimum size=1.1cm,level distance=2.2cm,text width=1.1cm,sibling angle=30,font=\\tiny"},
     "2pt"},
    {"large mindmap",
     "minimum size=5.6cm,text width=4.5cm,font=\\Large",
     {"minimum size=3.2cm,level distance=7cm,text width=2.8cm,sibling angle=60,font=",
      "minimum size=2.45cm,level distance=4cm,text width=2.2cm,sibling angle=60,font=\\small",
      "minimum size=1.63cm,text width=1.4cm,level distance=3.38cm,sibling angle=30,font=\\scriptsize",
      "minimum size=1.27cm,text width=1cm,level distance=2.60cm,sibling angle=30,font=\\tiny"},
     "2pt"},
    {"huge mindmap",
     "minimum size=8cm,text width=7cm,font=\\huge",
     {"minimum size=4.5cm,level distance=10cm,text width=4cm,sibling angle=60,font=\\large",
      "minimum size=3.5cm,level distance=5.8cm,text width=3cm,sibling angle=60,font=",
      "minimum size=2.3cm,text width=2cm,level distance=4.8cm,sibling angle=30,font=\\footnotesize",
      "minimum size=1.7cm,text width=1.4cm,level distance=3.7cm,sibling angle=30,font=\\scriptsize"},
     "3pt"},
};

// The body of `mindmap` itself as the key applier sees it (the child and level styles it appends
// are the tree lowering's): path modes, line width, separations, the root concept.
inline constexpr const char* kMindmapBody =
    "fill,draw,very thick,outer sep=0pt,inner sep=1pt,root concept,text centered,every mindmap";

// The variant of `key` ("mindmap", "small mindmap", ...), or nullptr.
inline const ConceptSizes* mindmap_variant(std::string_view key) {
  for (const ConceptSizes& z : kConceptSizes)
    if (key == std::string_view(z.name)) return &z;
  return nullptr;
}

// What `small mindmap` and the others do before `mindmap`: redefine the concept styles
// (`root concept/.style={...}`, ...), as a \tikzset body. Plain `mindmap` keeps them.
inline std::string concept_style_definitions(const ConceptSizes& z, bool variant) {
  std::string out = std::string("root concept/.style={") + z.root + "}";
  for (int i = 0; i < 4; ++i)
    out += std::string(",level ") + char('1' + i) + " concept/.style={" + z.level[i] + "}";
  return variant ? out : std::string();
}

// The keys `z`'s mindmap applies after its definitions (tikzlibrarymindmap.code.tex).
inline std::string mindmap_keys(const ConceptSizes& z) {
  std::string out = kMindmapBody;
  if (*z.line_width) out += std::string(",line width=") + z.line_width;
  return out;
}

}  // namespace tikzlint::ir
