// tex/test_frontend.cpp: picture extraction and statement splitting.
#include <doctest/doctest.h>

#include "tex/tex.hpp"

using namespace tikzlint;

namespace {
tex::ExpandedDocument run(const std::string& text, SourceManager& sm) {
  FileId id = sm.add("/tmp/test.tex", text);
  return tex::expand_file(sm, id, {});
}
}  // namespace

TEST_CASE("a tikzpicture splits into statements at ';'") {
  SourceManager sm;
  auto doc = run("\\begin{tikzpicture}\n\\draw (0,0) -- (1,0);\n\\node at (0,0) {a;b};\n\\end{tikzpicture}\n", sm);
  REQUIRE(doc.pictures.size() == 1);
  REQUIRE(doc.pictures[0].statements.size() == 2);
  CHECK(doc.pictures[0].statements[0].text == "\\draw(0,0) -- (1,0);");
  CHECK(doc.pictures[0].statements[1].text == "\\node at (0,0) {a;b};");
}
