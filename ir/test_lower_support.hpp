// ir/test_lower_support.hpp: build tex::ExpandedDocument by hand for lowering tests, so they do
// not depend on the expander.
#pragma once
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <variant>
#include <vector>

#include "ir/ir.hpp"
#include "ir/package.hpp"

namespace lowertest {

using namespace tikzlint;

// The packages a test lowers with: each test executable defines it (ir_tests: none, plain TikZ;
// packages_tests: every package of packages/registry.cpp).
const ir::PackageRegistry& packages();

constexpr double kCm = ir::kPtPerCm;

struct Pic {
  std::string options;
  std::vector<tex::Statement> st;
  std::vector<tex::Statement> preamble;
  bool axis = false;
  // a pgfplots axis picture's \pgfplotsset{compat=...} (its numbers are lualatex's at compat=1.18;
  // "" for a document that sets none)
  std::string pgfplots_compat = "1.18";
  std::vector<std::string> libraries;  // \usetikzlibrary'd
  std::vector<tex::ExpandedDocument::LoadedPackage> packages_loaded;  // \usepackage'd
  Pic& add(tex::StatementKind k, const std::string& text) {
    tex::Statement s;
    s.kind = k;
    s.text = text;
    for (std::uint32_t i = 0; i < text.size(); ++i) s.origin.push_back(1000 + i);
    s.prov.range = {0, 1000, static_cast<std::uint32_t>(1000 + text.size()), true};
    st.push_back(std::move(s));
    return *this;
  }
  Pic& path(const std::string& t) { return add(tex::StatementKind::Path, t); }
  Pic& scope(const std::string& opts) { return add(tex::StatementKind::ScopeBegin, opts); }
  Pic& end() { return add(tex::StatementKind::ScopeEnd, ""); }
  Pic& style(const std::string& t) { return add(tex::StatementKind::StyleDef, t); }
  Pic& other(const std::string& t) { return add(tex::StatementKind::Other, t); }
  Pic& pre(const std::string& t) {
    tex::Statement s;
    s.kind = tex::StatementKind::StyleDef;
    s.text = t;
    preamble.push_back(s);
    return *this;
  }
  ir::Diagram lower(double base = 10, const std::string& cls = "") const { return lower_with(packages(), base, cls); }
  ir::Diagram lower_with(const ir::PackageRegistry& registry, double base = 10, const std::string& cls = "") const {
    tex::ExpandedDocument doc;
    doc.base_font_size_pt = base;
    doc.document_class = cls;
    doc.preamble_styles = preamble;
    if (axis && !pgfplots_compat.empty()) {
      tex::Statement c;
      c.kind = tex::StatementKind::StyleDef;
      c.text = "every axis/.append style={compat=" + pgfplots_compat + "}";
      doc.preamble_styles.insert(doc.preamble_styles.begin(), c);
    }
    doc.tikz_libraries = libraries;
    doc.packages = packages_loaded;
    tex::Picture p;
    p.options = options;
    p.statements = st;
    p.is_axis = axis;
    p.range = {0, 0, 10, true};
    doc.pictures.push_back(p);
    SourceManager sm;
    auto out = ir::lower(doc, sm, registry);
    REQUIRE(out.size() == 1);
    return out[0];
  }
};

template <class T>
const T& geom(const ir::Diagram& d, std::size_t i) {
  REQUIRE(i < d.elements.size());
  const T* g = std::get_if<T>(&d.elements[i].geom);
  REQUIRE(g != nullptr);
  return *g;
}

inline bool has_rule(const ir::Diagram& d, const std::string& rule) {
  for (const auto& x : d.diagnostics)
    if (x.rule == rule) return true;
  return false;
}

inline std::size_t count_unsupported(const ir::Diagram& d) {
  std::size_t n = 0;
  for (const auto& x : d.diagnostics)
    if (x.rule.rfind("unsupported", 0) == 0) ++n;
  return n;
}

#define CHECK_PT(p, X, Y)                         \
  do {                                            \
    CHECK((p).x == doctest::Approx(X).epsilon(1e-6)); \
    CHECK((p).y == doctest::Approx(Y).epsilon(1e-6)); \
  } while (0)

}  // namespace lowertest
