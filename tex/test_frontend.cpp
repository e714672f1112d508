// tex/test_frontend.cpp: picture extraction and statement splitting.
#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tex/bundled.hpp"
#include "tex/tex.hpp"

using namespace tikzlint;
using tikzlint::tex::StatementKind;

namespace {
tex::ExpandedDocument run(const std::string& text, SourceManager& sm) {
  FileId id = sm.add("/tmp/test.tex", text);
  return tex::expand_file(sm, id, {});
}

// The statement texts of `text`, which must hold exactly one picture.
std::vector<std::string> picture_statements(const std::string& text) {
  SourceManager sm;
  const auto doc = run(text, sm);
  REQUIRE(doc.pictures.size() == 1);
  std::vector<std::string> out;
  for (const auto& st : doc.pictures[0].statements) out.push_back(st.text);
  return out;
}
}  // namespace

TEST_CASE("a tikzpicture splits into statements at semicolons") {
  CHECK(picture_statements("\\begin{tikzpicture}\n\\draw (0,0) -- (1,0);\n\\node at (0,0) {a;b};\n\\end{tikzpicture}\n") ==
        std::vector<std::string>{"\\draw(0,0) -- (1,0);", "\\node at (0,0) {a;b};"});
}

TEST_CASE("\\tikz[opts]{...} and \\tikz[opts] ..., are pictures") {
  SourceManager sm;
  auto doc = run("a \\tikz[baseline]{\\draw (0,0) -- (1,0); \\fill (0,0) circle (1pt);} b \\tikz \\node {x}; c", sm);
  REQUIRE(doc.pictures.size() == 2);
  CHECK(doc.pictures[0].options == "baseline");
  REQUIRE(doc.pictures[0].statements.size() == 2);
  CHECK(doc.pictures[0].statements[1].text == "\\fill(0,0) circle (1pt);");
  REQUIRE(doc.pictures[1].statements.size() == 1);
  CHECK(doc.pictures[1].statements[0].text == "\\node{x};");
}

TEST_CASE("a bare snippet of statements without an environment is one picture") {
  SourceManager sm;
  auto doc = run("\\def\\r{2}\n\\draw (0,0) circle (\\r);\n\\node at (1,1) {A};\n", sm);
  REQUIRE(doc.pictures.size() == 1);
  REQUIRE(doc.pictures[0].statements.size() == 2);
  CHECK(doc.pictures[0].statements[0].text == "\\draw(0,0) circle (2);");
  CHECK(doc.document_class.empty());
}

TEST_CASE("a full document: picture range, options, preamble styles, several pictures") {
  SourceManager sm;
  std::string src =
      "\\documentclass[12pt]{article}\n\\usepackage{tikz}\n\\tikzset{dot/.style={circle}}\n"
      "\\begin{document}\nText.\n\\begin{tikzpicture}[scale=2, x=1cm]\n\\draw (0,0);\n\\end{tikzpicture}\n"
      "\\begin{tikzpicture}\\tikzset{a/.style={red}}\\draw[a] (0,0);\\end{tikzpicture}\n\\end{document}\n"
      "\\begin{tikzpicture}\\draw (9,9);\\end{tikzpicture}\n";
  auto doc = run(src, sm);
  CHECK(doc.document_class == "article");
  CHECK(doc.base_font_size_pt == 12.0);
  REQUIRE(doc.preamble_styles.size() == 1);
  CHECK(doc.preamble_styles[0].text == "dot/.style={circle}");
  CHECK(doc.preamble_styles[0].kind == StatementKind::StyleDef);
  REQUIRE(doc.pictures.size() == 2);  // nothing after \end{document}
  CHECK(doc.later_styles.empty());  // the second picture's \tikzset is its own statement
  CHECK(doc.pictures[0].options == "scale=2, x=1cm");
  auto b = src.find("\\begin{tikzpicture}");
  auto e = src.find("\\end{tikzpicture}") + std::string("\\end{tikzpicture}").size();
  CHECK(doc.pictures[0].range.begin == b);
  CHECK(doc.pictures[0].range.end == e);
  REQUIRE(doc.pictures[1].statements.size() == 2);
  CHECK(doc.pictures[1].statements[0].kind == StatementKind::StyleDef);
  CHECK(doc.pictures[1].statements[0].text == "a/.style={red}");
  // article.cls and tikz.sty are known irrelevant to geometry: no missing-file note
  for (const auto& d : doc.diagnostics) CHECK(d.rule != "missing-file");
}

// tkz-euclide's \tkzSetUp... outside a picture hold for the pictures after them (not grouped):
// kept for packages/tkzeuclide with the number of pictures before each, options and a brace
// group written right after them; what follows a blank is not theirs.
TEST_CASE("a package's setup commands outside pictures are kept in document order") {
  SourceManager sm;
  std::string src =
      "\\documentclass{standalone}\n\\usepackage{tkz-euclide}\n\\tkzSetUpPoint[size=3,color=teal]\n"
      "\\tkzSetUpStyle[color=orange]{new} {x}\\tkzSetUpColors\n"
      "\\begin{document}\n\\begin{tikzpicture}\\tkzSetUpLine[add=0 and 0]\\end{tikzpicture}\n"
      "\\tkzSetUpCompass[delta=10]\n\\begin{tikzpicture}\\draw (0,0);\\end{tikzpicture}\n\\end{document}\n";
  auto doc = run(src, sm);
  REQUIRE(doc.setup_commands.size() == 4);
  CHECK(doc.setup_commands[0].st.text == "\\tkzSetUpPoint[size=3,color=teal]");
  CHECK(doc.setup_commands[1].st.text == "\\tkzSetUpStyle[color=orange]{new}");
  CHECK(doc.setup_commands[2].st.text == "\\tkzSetUpColors");
  CHECK(doc.setup_commands[3].st.text == "\\tkzSetUpCompass[delta=10]");
  CHECK(doc.setup_commands[0].pictures_before == 0);
  CHECK(doc.setup_commands[3].pictures_before == 1);
  CHECK(doc.setup_commands[0].st.prov.range.begin == src.find("\\tkzSetUpPoint"));
  // the one in a picture is a statement of that picture
  REQUIRE(doc.pictures.size() == 2);
  REQUIRE(doc.pictures[0].statements.size() == 1);
  CHECK(doc.pictures[0].statements[0].text == "\\tkzSetUpLine[add=0 and 0]");
}

// pgfcorelayers: \pgfsetlayers (the backgrounds library's list when it is loaded, the preamble's,
// a picture's own for that picture only) and pgfonlayer, a group of statements on one layer.
TEST_CASE("layers: the list in force at each picture's end, pgfonlayer a group on its layer") {
  SourceManager sm;
  std::string src =
      "\\documentclass{standalone}\n\\usepackage{tikz}\\usetikzlibrary{backgrounds}\n"
      "\\begin{document}\n\\begin{tikzpicture}\\draw (0,0);\\end{tikzpicture}\n"
      "\\pgfdeclarelayer{fg}\\pgfsetlayers{ background , main,fg}\n"
      "\\begin{tikzpicture}\\begin{pgfonlayer}{fg}\\node {a};\\end{pgfonlayer}\\end{tikzpicture}\n"
      "\\begin{tikzpicture}\\pgfsetlayers{main}\\draw (0,0);\\end{tikzpicture}\n"
      "\\begin{tikzpicture}\\draw (0,0);\\end{tikzpicture}\n\\end{document}\n";
  auto doc = run(src, sm);
  REQUIRE(doc.pictures.size() == 4);
  CHECK(doc.pictures[0].layers == std::vector<std::string>{"background", "main"});
  CHECK(doc.pictures[1].layers == std::vector<std::string>{"background", "main", "fg"});
  CHECK(doc.pictures[2].layers == std::vector<std::string>{"main"});
  CHECK(doc.pictures[3].layers == std::vector<std::string>{"background", "main", "fg"});  // the picture's own was local
  const auto& st = doc.pictures[1].statements;
  REQUIRE(st.size() == 3);
  CHECK(st[0].kind == StatementKind::ScopeBegin);
  CHECK(st[0].layer == "fg");
  CHECK(st[0].text.empty());
  CHECK(st[1].kind == StatementKind::Path);
  CHECK(st[2].kind == StatementKind::ScopeEnd);
}

TEST_CASE("statement kinds: path commands, scopes, Other, a semicolon inside braces does not end a statement") {
  SourceManager sm;
  auto doc = run(
      "\\begin{tikzpicture}\n\\begin{scope}[shift={(1,0)}]\n\\path pic {angle=A--B--C};\n"
      "\\coordinate (A) at (0,0); \\clip (0,0) rectangle (1,1);\n\\end{scope}\n"
      "\\pgfsetlinewidth{1pt}\n\\node[label={below:{a;b}}] {x};\n\\end{tikzpicture}",
      sm);
  REQUIRE(doc.pictures.size() == 1);
  const auto& s = doc.pictures[0].statements;
  REQUIRE(s.size() == 7);
  CHECK(s[0].kind == StatementKind::ScopeBegin);
  CHECK(s[0].text == "shift={(1,0)}");
  CHECK(s[1].kind == StatementKind::Path);
  CHECK(s[1].text == "\\path pic {angle=A--B--C};");
  CHECK(s[2].text == "\\coordinate(A) at (0,0);");
  CHECK(s[3].kind == StatementKind::Path);
  CHECK(s[4].kind == StatementKind::ScopeEnd);
  CHECK(s[5].kind == StatementKind::Other);
  CHECK(s[5].text == "\\pgfsetlinewidth{1pt}");
  CHECK(s[6].text == "\\node[label={below:{a;b}}] {x};");
}

TEST_CASE("a pgfplots axis marks the picture and its statements are still emitted") {
  SourceManager sm;
  auto doc = run("\\begin{tikzpicture}\\begin{axis}[xmin=0]\\addplot {x^2};\\end{axis}\\draw (0,0);\\end{tikzpicture}", sm);
  REQUIRE(doc.pictures.size() == 1);
  CHECK(doc.pictures[0].is_axis);
  const auto& s = doc.pictures[0].statements;
  REQUIRE(s.size() == 4);
  CHECK(s[0].text == "\\begin{axis}[xmin=0]");
  CHECK(s[1].text == "\\addplot{x^2};");
  CHECK(s[2].text == "\\end{axis}");
  CHECK(s[3].kind == StatementKind::Path);
}

TEST_CASE("a picture produced by a macro (\\MakeHanger style) maps to the call site") {
  SourceManager sm;
  std::string src = "\\newcommand\\pic[1]{\\begin{tikzpicture}[scale=#1]\\draw (0,0) -- (1,1);\\end{tikzpicture}}\n\\pic{2}\n";
  auto doc = run(src, sm);
  REQUIRE(doc.pictures.size() == 1);
  CHECK(doc.pictures[0].options == "scale=2");
  REQUIRE(doc.pictures[0].statements.size() == 1);
  CHECK(doc.pictures[0].statements[0].prov.range.begin == src.find("\\pic{2}"));
  CHECK(doc.pictures[0].statements[0].prov.macros.size() == 1);
}

TEST_CASE("plot expressions keep an undefined \\x") {
  SourceManager sm;
  auto doc = run("\\begin{tikzpicture}\\draw plot[domain=0:1] (\\x,{\\x*\\x});\\end{tikzpicture}", sm);
  REQUIRE(doc.pictures.size() == 1);
  REQUIRE(doc.pictures[0].statements.size() == 1);
  CHECK(doc.pictures[0].statements[0].text == "\\draw plot[domain=0:1] (\\x,{\\x*\\x});");
  CHECK(doc.unexpanded_user_macros == 0);
}

TEST_CASE("scope options keep a byte-accurate origin map") {
  SourceManager sm;
  std::string src = "\\begin{tikzpicture}\\begin{scope}[ shift={(1,0)} ]\\draw (0,0);\\end{scope}\\end{tikzpicture}";
  auto doc = run(src, sm);
  REQUIRE(doc.pictures.size() == 1);
  const auto& s = doc.pictures[0].statements.at(0);
  CHECK(s.text == "shift={(1,0)}");
  REQUIRE(s.origin.size() == s.text.size());
  CHECK(s.origin[0] == src.find("shift"));
}

TEST_CASE("a statement's plain characters keep one origin per byte, and 2\\dimen still multiplies") {
  SourceManager sm;
  std::string src =
      "\\newdimen\\QP \\QP=10pt\n\\begin{tikzpicture}\n\\draw[thick] (0,0) -- (12.5\\QP,0) node {label};\n"
      "\\end{tikzpicture}";
  auto doc = run(src, sm);
  REQUIRE(doc.pictures.size() == 1);
  const auto& s = doc.pictures[0].statements.at(0);
  CHECK(s.text == "\\draw[thick] (0,0) -- (12.5*10.0pt,0) node {label};");
  REQUIRE(s.origin.size() == s.text.size());
  for (const char* word : {"thick", "12.5", "label"}) {
    const std::size_t at = s.text.find(word), in_src = src.find(word);
    for (std::size_t k = 0; k < std::string_view(word).size(); ++k) CHECK(s.origin[at + k] == in_src + k);
  }
}

TEST_CASE("\\scoped puts one statement or a braced group in a scope") {
  SourceManager sm;
  auto doc = run(
      "\\begin{tikzpicture}\\scoped[xshift=1cm] \\draw (0,0) -- (1,0);\n"
      "\\scoped[yshift=2mm]{\\fill (0,0) circle (1pt); \\draw (0,0) -- (1,1);}\n\\draw (2,2) -- (3,3);\n"
      "\\end{tikzpicture}",
      sm);
  REQUIRE(doc.pictures.size() == 1);
  const auto& s = doc.pictures[0].statements;
  REQUIRE(s.size() == 8);
  CHECK(s[0].kind == StatementKind::ScopeBegin);
  CHECK(s[0].text == "xshift=1cm");
  CHECK(s[1].kind == StatementKind::Path);
  CHECK(s[2].kind == StatementKind::ScopeEnd);
  CHECK(s[3].kind == StatementKind::ScopeBegin);
  CHECK(s[3].text == "yshift=2mm");
  CHECK(s[4].kind == StatementKind::Path);
  CHECK(s[5].kind == StatementKind::Path);
  CHECK(s[6].kind == StatementKind::ScopeEnd);
  CHECK(s[7].text.find("(2,2)") != std::string::npos);
}

TEST_CASE("animation specifications (:key = {...}) are dropped, a PDF shows the unanimated picture") {
  SourceManager sm;
  auto doc = run(
      "\\begin{tikzpicture}\\draw :xshift = {0s=\"0cm\", 2s=\"1cm\"} (0,0) -- (30:1) node {a:b};\n"
      "\\tikz :rotate = {0s=\"0\", 2s=\"90\"} [thick] \\node {x};\n"
      "\\scoped :fill = {0s=\"red\"} \\fill (0,0) circle (1pt);\\end{tikzpicture}",
      sm);
  REQUIRE(doc.pictures.size() >= 1);
  const auto& s = doc.pictures[0].statements;
  REQUIRE(s.size() >= 1);
  CHECK(s[0].text.find("xshift") == std::string::npos);
  CHECK(s[0].text.find("(30:1)") != std::string::npos);  // a polar coordinate keeps its ':'
  CHECK(s[0].text.find("{a:b}") != std::string::npos);   // and so does text in braces
  for (const auto& d : doc.diagnostics) CHECK(d.severity != Severity::error);
}

TEST_CASE("a ':' that starts no animation specification is kept, and one after it still can") {
  SourceManager sm;
  auto doc =
      run("\\begin{tikzpicture}\\draw :a-1:fill = {0s=\"red\"} (0,0) -- (1,0) :x;\n"
          "\\draw :a (b:fill={c}) -- (1,0);\\end{tikzpicture}",
          sm);
  REQUIRE(doc.pictures.size() == 1);
  REQUIRE(doc.pictures[0].statements.size() == 2);
  // `:a-1` is not a specification (a digit in the name); `:fill = {...}` after it is.
  CHECK(doc.pictures[0].statements[0].text == "\\draw:a-1 (0,0) -- (1,0) :x;");
  // The '(' that ended `:a` still counts: a ':' in parentheses starts nothing.
  CHECK(doc.pictures[0].statements[1].text == "\\draw:a (b:fill={c}) -- (1,0);");
}

TEST_CASE("a statement of 300,000 ':' is read in linear time, without a call per ':'") {
  // Each ':' could start an animation specification; none does. Looking at the held tokens again
  // one by one took quadratic time, and nested a call per ':'.
  const std::string colons(300000, ':');
  const auto texts = picture_statements("\\begin{tikzpicture}\\draw " + colons + "x1 (0,0);\\end{tikzpicture}");
  REQUIRE(texts.size() == 1);
  const bool kept = texts[0] == "\\draw" + colons + "x1 (0,0);";
  CHECK(kept);  // (a bool: the text is too long to print)
}

TEST_CASE("a statement that ends in ':' at the end of the input ends (found by fuzz_pipeline)") {
  // What the animation-specification filter holds at the end of a statement goes on as it is;
  // looking again at a last ':' held it again, forever.
  CHECK(picture_statements("\\begin{tikzpicture}\\node at (0,0) {t} :") ==
        std::vector<std::string>{"\\node at (0,0) {t} :"});
  CHECK(picture_statements("\\begin{tikzpicture}\\draw (0,0) :a :b") == std::vector<std::string>{"\\draw(0,0) :a :b"});
}

TEST_CASE("a batch remembers package searches that failed, by the folders searched") {
  namespace fs = std::filesystem;
  const fs::path root = fs::temp_directory_path() / ("tikzlint-pkg-" + std::to_string(::getpid()));
  fs::create_directories(root / "a");
  fs::create_directories(root / "b");
  { std::ofstream(root / "b" / "mypkg.sty") << "\\newcommand\\mymacro{}\n"; }
  const std::string text = "\\documentclass{article}\n\\usepackage{mypkg}\n\\begin{document}\n\\end{document}\n";
  tex::FrontendOptions opts;  // one cache for the batch, as the CLI does
  auto missing = [](const tex::ExpandedDocument& doc) {
    for (const auto& d : doc.diagnostics)
      if (d.rule == "missing-file" && d.message.find("mypkg.sty") != std::string::npos) return true;
    return false;
  };
  for (int round = 0; round < 2; ++round) {  // the second round answers from the cache
    SourceManager sm_a, sm_b;
    auto a = tex::expand_file(sm_a, sm_a.add((root / "a" / "doc.tex").string(), text), opts);
    auto b = tex::expand_file(sm_b, sm_b.add((root / "b" / "doc.tex").string(), text), opts);
    CAPTURE(round);
    CHECK(missing(a));   // every document still says what it did not find
    CHECK(!missing(b));  // a search that failed beside a/ does not hide the file beside b/
  }
  fs::remove_all(root);
}

TEST_CASE("a bundled package is read when the input's tree has none, and a local copy wins") {
  namespace fs = std::filesystem;
  REQUIRE(tex::find_bundled("tikz-3dplot.sty") != nullptr);
  const fs::path root = fs::temp_directory_path() / ("tikzlint-bundled-" + std::to_string(::getpid()));
  fs::create_directories(root / "local");
  fs::create_directories(root / "plain");
  // a local tikz-3dplot.sty of the user's own: read instead of the bundled one, as TeX would
  { std::ofstream(root / "local" / "tikz-3dplot.sty") << "\\def\\tdplotsetmaincoords#1#2{\\def\\mine{#1#2}}\n"; }
  const std::string text =
      "\\documentclass{standalone}\n\\usepackage{tikz}\n\\usepackage{tikz-3dplot}\n\\begin{document}\n"
      "\\tdplotsetmaincoords{90}{0}\n\\begin{tikzpicture}\\draw[x=\\raarot cm] (0,0) -- (1,0);\\end{tikzpicture}\n"
      "\\end{document}\n";
  auto statement = [&](const char* dir) {
    SourceManager sm;
    auto doc = tex::expand_file(sm, sm.add((root / dir / "doc.tex").string(), text), {});
    for (const auto& d : doc.diagnostics) CHECK(d.rule != "missing-file");
    REQUIRE(doc.pictures.size() == 1);
    REQUIRE(doc.pictures[0].statements.size() == 1);
    return doc.pictures[0].statements[0].text;
  };
  // the package's own code ran: \tdplotsetmaincoords{90}{0} set \raarot to cos 0 = 1
  CHECK(statement("plain") == "\\draw[x=1.0cm] (0,0) -- (1,0);");
  // the local file defines no \raarot: it stays as written
  CHECK(statement("local").find("\\raarot") != std::string::npos);
  fs::remove_all(root);
}

TEST_CASE("a tikzcd environment is one picture of one statement, its text as written") {
  SourceManager sm;
  auto doc = run("\\documentclass{article}\n\\usepackage{tikz-cd}\n\\begin{document}\n"
                 "\\begin{tikzcd}[sep=small] A \\arrow[r, \"f\"] & \\begin{matrix} x \\end{matrix} \\\\ C\n"
                 "\\end{tikzcd}\n\\end{document}\n",
                 sm);
  REQUIRE(doc.pictures.size() == 1);
  REQUIRE(doc.pictures[0].statements.size() == 1);
  const std::string& t = doc.pictures[0].statements[0].text;
  CHECK(t.rfind("\\begin{tikzcd}[sep=small]", 0) == 0);
  CHECK(t.find("\\begin{matrix} x \\end{matrix}") != std::string::npos);  // a nested environment stays
  CHECK(t.size() >= 12);
  CHECK(t.substr(t.size() - 12) == "\\end{tikzcd}");
  // \usepackage{tikz-cd} defines the library's styles
  bool styles = false;
  for (const auto& st : doc.preamble_styles) styles = styles || st.text.find("commutative diagrams/every arrow") != std::string::npos;
  CHECK(styles);
}

TEST_CASE("\\tikzcdset sets keys under commutative diagrams/, arrows= appends to every arrow") {
  SourceManager sm;
  auto doc = run("\\tikzcdset{arrows={red}, row sep/normal=3em}\n", sm);
  REQUIRE(!doc.preamble_styles.empty());
  const std::string& t = doc.preamble_styles.back().text;
  CHECK(t.find("commutative diagrams/every arrow/.append style={red}") != std::string::npos);
  CHECK(t.find("commutative diagrams/row sep/normal=3em") != std::string::npos);
}

TEST_CASE("a \\tikzset between pictures is kept with its place: the number of pictures before it") {
  SourceManager sm;
  std::string src =
      "\\documentclass{article}\n\\usepackage{tikz}\n\\tikzset{w/.style={red}}\n\\begin{document}\n"
      "\\begin{tikzpicture}\\draw[w] (0,0);\\end{tikzpicture}\n\\tikzset{w/.style={blue}}\n"
      "\\begin{tikzpicture}\\draw[w] (0,0);\\end{tikzpicture}\n\\end{document}\n";
  auto doc = run(src, sm);
  REQUIRE(doc.pictures.size() == 2);
  REQUIRE(doc.preamble_styles.size() == 1);
  CHECK(doc.preamble_styles[0].text == "w/.style={red}");
  REQUIRE(doc.later_styles.size() == 1);
  CHECK(doc.later_styles[0].pictures_before == 1);
  CHECK(doc.later_styles[0].st.text == "w/.style={blue}");
}

TEST_CASE("the body's font switches before a picture are its font, local to their group") {
  SourceManager sm;
  auto doc = run(
      "\\documentclass{article}\n\\usepackage{tikz}\n\\begin{document}\n\\Huge\n"
      "\\begin{tikzpicture}\\node{a};\\end{tikzpicture}\n"
      "{\\small\\sffamily\\bfseries\\tiny \\tikz\\node{b};}\n"
      "\\begin{tikzpicture}\\node{c};\\end{tikzpicture}\n"
      "\\normalsize\\begin{tikzpicture}\\node{d};\\end{tikzpicture}\n\\end{document}\n",
      sm);
  REQUIRE(doc.pictures.size() == 4);
  CHECK(doc.pictures[0].body_font == "\\Huge");
  // a later size replaces the earlier one; each switch is kept once
  CHECK(doc.pictures[1].body_font == "\\sffamily\\bfseries\\tiny");
  CHECK(doc.pictures[2].body_font == "\\Huge");  // the group's switches ended with it
  CHECK(doc.pictures[3].body_font == "\\normalsize");
}

TEST_CASE("\\tikz followed by a \\foreach takes the whole loop as its statement") {
  SourceManager sm;
  auto doc = run("\\tikz \\foreach \\x in {0,1,2} \\node at (\\x,0) {\\x}; text \\tikz\\draw (0,0) -- (1,0); more", sm);
  REQUIRE(doc.pictures.size() == 2);
  REQUIRE(doc.pictures[0].statements.size() == 3);
  CHECK(doc.pictures[0].statements[2].text == "\\node at (2,0) {2};");
  REQUIRE(doc.pictures[1].statements.size() == 1);
  CHECK(doc.pictures[1].statements[0].text == "\\draw(0,0) -- (1,0);");
}
