// tex/test_expander.cpp: definitions, scoping, registers, pgfmath commands, conditionals,
// classes and packages, styles, provenance (TeXbook ch. 20/24, LaTeX2e \newcommand).
#include <doctest/doctest.h>

#include "tex/expander.hpp"
#include "tex/styles.hpp"
#include "tex/test_support.hpp"

using namespace tikzlint;
using namespace tikzlint::tex;
using testing::picture;

TEST_CASE("\\def without parameters expands everywhere in a statement") {
  auto r = picture("\\def\\w{2}\\def\\opt{thick}\\def\\t{A}\n\\draw[\\opt] (0,0) -- (\\w,0) node {\\t};");
  REQUIRE(r.texts().size() == 1);
  CHECK(r.texts()[0] == "\\draw[thick] (0,0) -- (2,0) node {A};");
  CHECK(r.doc.unexpanded_user_macros == 0);
}

TEST_CASE("\\def with undelimited and delimited parameters (\\drawarc[#1](#2)(#3:#4:#5))") {
  auto r = picture(
      "\\def\\pair#1#2{(#1,#2)}\n"
      "\\def\\drawarc[#1](#2)(#3:#4:#5){\\draw[#1] ($(#2)+(#3:#5)$) arc (#3:#4:#5)}\n"
      "\\draw \\pair{1}{2} -- \\pair 34;\n"
      "\\drawarc[red,thin](1,{2})(0:90:{0.5});");
  REQUIRE(r.texts().size() == 2);
  CHECK(r.texts()[0] == "\\draw(1,2) -- (3,4);");
  CHECK(r.texts()[1] == "\\draw[red,thin] ($(1,{2})+(0:0.5)$) arc (0:90:0.5);");
}

TEST_CASE("a parameter delimited by a space (\\def\\HBlock#1 {...})") {
  auto r = picture("\\def\\at#1 {\\node at #1 {x};}\n\\at{(1,1)} \\at(2,2) ");
  REQUIRE(r.texts().size() == 2);
  CHECK(r.texts()[0] == "\\node at (1,1) {x};");
  CHECK(r.texts()[1] == "\\node at (2,2) {x};");
}

TEST_CASE("## in a body becomes the parameter of an inner definition") {
  auto r = picture("\\def\\outer#1{\\def\\inner##1{(##1,#1)}}\\outer{5}\n\\draw \\inner{3} -- (0,0);");
  REQUIRE(r.texts().size() == 1);
  CHECK(r.texts()[0] == "\\draw(3,5) -- (0,0);");
}

TEST_CASE("a use that does not match the delimiters is an error, not a crash") {
  auto r = picture("\\def\\p(#1){#1}\n\\draw \\p[1] -- (0,0);");
  CHECK(r.has("syntax-error"));
  REQUIRE(r.texts().size() == 1);
}

TEST_CASE("definitions are local to groups, \\gdef and \\global escape them") {
  auto r = picture(
      "\\def\\a{1}\\def\\b{1}\\def\\c{1}\n"
      "{\\def\\a{2}\\gdef\\b{2}\\global\\def\\c{2}\\draw (\\a,\\b,\\c);}\n"
      "\\draw (\\a,\\b,\\c);");
  REQUIRE(r.texts().size() == 2);
  CHECK(r.texts()[0] == "\\draw(2,2,2);");
  CHECK(r.texts()[1] == "\\draw(1,2,2);");
}

TEST_CASE("scopes and \\begingroup scope definitions") {
  auto r = picture(
      "\\def\\a{1}\n\\begin{scope}[xshift=\\a cm]\\def\\a{2}\\draw (\\a,0);\\end{scope}\n"
      "\\begingroup\\def\\a{3}\\endgroup\n\\draw (\\a,0);");
  auto t = r.texts();
  REQUIRE(t.size() == 4);
  CHECK(r.statement(0).kind == StatementKind::ScopeBegin);
  CHECK(t[0] == "xshift=1cm");  // TeX skips the space after a control word
  CHECK(t[1] == "\\draw(2,0);");
  CHECK(r.statement(2).kind == StatementKind::ScopeEnd);
  CHECK(t[3] == "\\draw(1,0);");
}

TEST_CASE("\\edef and \\xdef expand the body at definition time") {
  auto r = picture("\\def\\a{1}\\edef\\b{\\a\\a}\\def\\a{2}\n{\\xdef\\c{\\a}}\\draw (\\b,\\c);");
  REQUIRE(r.texts().size() == 1);
  CHECK(r.texts()[0] == "\\draw(11,2);");
}

TEST_CASE("\\newcommand with arity and an optional argument, \\renewcommand, \\providecommand") {
  auto r = picture(
      "\\newcommand{\\pt}[2]{(#1,#2)}\n"
      "\\newcommand\\dot[2][black]{\\fill[#1] #2 circle (1pt);}\n"
      "\\newcommand*{\\k}{1}\\renewcommand{\\k}{2}\\providecommand{\\k}{3}\\providecommand{\\m}{4}\n"
      "\\DeclareRobustCommand{\\n}{5}\n"
      "\\draw \\pt{\\k}{\\m} -- \\pt{\\n}{0};\n\\dot{(1,1)}\n\\dot[red]{(2,2)}");
  auto t = r.texts();
  REQUIRE(t.size() == 3);
  CHECK(t[0] == "\\draw(2,4) -- (5,0);");
  CHECK(t[1] == "\\fill[black] (1,1) circle (1pt);");
  CHECK(t[2] == "\\fill[red] (2,2) circle (1pt);");
}

TEST_CASE("\\NewDocumentCommand with m and O{} arguments") {
  auto r = picture("\\NewDocumentCommand{\\seg}{O{blue} m m}{\\draw[#1] #2 -- #3;}\n\\seg{(0,0)}{(1,1)}\\seg[red]{(0,1)}{(1,0)}");
  auto t = r.texts();
  REQUIRE(t.size() == 2);
  CHECK(t[0] == "\\draw[blue] (0,0) -- (1,1);");
  CHECK(t[1] == "\\draw[red] (0,1) -- (1,0);");
}

TEST_CASE("\\let copies the current meaning, \\let to a TikZ command aliases it") {
  auto r = picture("\\def\\a{1}\\let\\b\\a\\def\\a{2}\\let\\mydraw=\\draw\n\\mydraw (\\a,\\b);");
  REQUIRE(r.texts().size() == 1);
  CHECK(r.texts()[0] == "\\draw(2,1);");
  CHECK(r.statement(0).kind == StatementKind::Path);
}

TEST_CASE("dimension registers: \\newdimen, assignment, \\newlength/\\setlength/\\addtolength, \\the") {
  auto r = picture(
      "\\newdimen\\FP \\FP=6.5in\n\\newlength{\\u}\\setlength{\\u}{1cm}\\addtolength{\\u}{1cm}\n"
      "\\newcount\\n \\n=3\n"
      "\\draw (\\FP,0) -- (2\\u,\\the\\n);");
  REQUIRE(r.texts().size() == 1);
  CHECK(r.texts()[0] == "\\draw(" + format_dimen(6.5 * 72.27) + ",0) -- (2*" + format_dimen(2 * 72.27 / 2.54) + ",3);");
  CHECK(format_dimen(6.5 * 72.27) == "469.755pt");
  CHECK(format_dimen(1.625 * 72.27) == "117.43875pt");
  CHECK(format_dimen(-0.5) == "-0.5pt");
}

TEST_CASE("\\pgfmathsetmacro, \\pgfmathtruncatemacro, \\pgfmathsetlengthmacro, \\pgfmathparse") {
  auto r = picture(
      "\\def\\a{3}\\pgfmathsetmacro{\\h}{\\a/2}\\pgfmathtruncatemacro\\t{7/2}\n"
      "\\pgfmathsetlengthmacro\\l{1pt+1pt}\\pgfmathparse{2*\\a}\\let\\r\\pgfmathresult\n"
      "\\draw (\\h,\\t) -- (\\l,\\r);");
  REQUIRE(r.texts().size() == 1);
  CHECK(r.texts()[0] == "\\draw(1.5,3) -- (2.0pt,6.0);");
}

TEST_CASE("\\pgfmathresult is what pgf leaves: a literal as written, comparisons as integers") {
  // lualatex, \typeout{\pgfmathresult} after \pgfmathparse (pgfmathparser.code.tex,
  // pgfmathfunctions.comparison.code.tex: \def\pgfmathresult{1})
  const std::pair<const char*, const char*> cases[] = {
      {"3", "3"},      {"3.50", "3.50"},   {".5", ".5"},      {"+3", "3"},          {"-3", "-3.0"},
      {"3pt", "3.0"},  {"1e3", "1000.0"},  {"(3)", "3"},      {"1<2", "1"},         {"1==2", "0"},
      {"!1", "0"},     {"1&&0", "0"},      {"(1<2)+0", "1.0"}, {"1<2?2.5:6", "2.5"}, {"int(-2.5)", "-2"},
      {"sign(-2)", "-1"}, {"div(7,2)", "3"}, {"round(2.5)", "3.0"}, {"2*3", "6.0"}, {"max(3,2)", "3.0"}};
  for (const auto& [expr, want] : cases) {
    auto r = picture(std::string("\\pgfmathparse{") + expr + "}\\let\\r\\pgfmathresult\\draw (\\r,0);");
    REQUIRE(r.texts().size() == 1);
    CAPTURE(expr);
    CHECK(r.texts()[0] == std::string("\\draw(") + want + ",0);");
  }
}

TEST_CASE("\\pgfmathdivide and the other command forms of pgfmath functions set \\pgfmathresult") {
  auto r = picture(
      "\\pgfmathdivide{7}{2}\\let\\a\\pgfmathresult\\pgfmathlessthan{1}{2}\\let\\b\\pgfmathresult\n"
      "\\pgfmathveclen{3}{4}\\let\\c\\pgfmathresult\\pgfmathsin{30}\\let\\d\\pgfmathresult\n"
      "\\draw (\\a,\\b) -- (\\c,\\d);");
  REQUIRE(r.texts().size() == 1);
  CHECK(r.texts()[0] == "\\draw(3.5,1) -- (5.0,0.5);");
}

TEST_CASE("\\tikzmath assignments define their variables as pgf leaves them, and stop at what is not followed") {
  // lualatex: \typeout after the same \tikzmath gives [2][3.0][3][hello][1][3]
  auto r = picture(
      "\\tikzmath{\\a = 2; \\b = \\a*1.5; integer \\n; \\n = 7/2; let \\t = hello; \\c = 1<2; real \\r; \\r = 3;}\n"
      "\\draw (\\a,\\b) -- (\\n,\\c) node {\\t \\r};");
  REQUIRE(r.texts().size() == 1);
  CHECK(r.texts()[0] == "\\draw(2,3.0) -- (3,1) node {hello3};");
  CHECK(r.find("unsupported-construct") == nullptr);
  // a loop is not followed: reported once, and \\y after it is left undefined, never guessed
  auto loop = picture("\\tikzmath{\\x = 1; for \\i in {1,2}{\\x = \\x + \\i;}; \\y = \\x;}\\draw (\\x,0);");
  const Diagnostic* d = loop.find("unsupported-construct");
  REQUIRE(d != nullptr);
  CHECK(d->message.find("for") != std::string::npos);
  REQUIRE(loop.texts().size() == 1);
  CHECK(loop.texts()[0] == "\\draw(1,0);");
}

TEST_CASE("a comment environment is skipped unread, in the document and in a picture") {
  auto r = picture("\\draw (0,0) -- (1,0);\n\\begin{comment}\n\\draw (9,9) -- {unbalanced;\n\\end{comment}\n\\fill (1,1) circle (1pt);");
  CHECK(r.texts() == std::vector<std::string>{"\\draw(0,0) -- (1,0);", "\\fill(1,1) circle (1pt);"});
}

// tkz-euclide's \tkzGetAngle{a} is \global\edef\a{\tkzAngleResult}: a later
// \edef\a{\fpeval{round(\a)}} (the manual's angles example) reads the result, not itself. In a
// picture, a name of letters gets a result macro of its own and the command stays in the
// statement, for packages/tkzeuclide to bind the name to the value of that moment.
TEST_CASE("\\tkzGetAngle, \\tkzGetLength, \\tkzGetResult define the macro they name") {
  auto r = picture(
      "\\tkzGetAngle{aBAC}\\edef\\aBAC{\\fpeval{round(\\aBAC)}}\\tkzGetLength{rA}{\\tkzGetResult{m}}"
      "\\tkzGetLength{r1}\n"
      "\\draw (0,0) node {\\aBAC} node {\\rA} node {\\m} node {\\csname r1\\endcsname};");
  CHECK(r.find("expansion-limit") == nullptr);
  REQUIRE(r.texts().size() == 2);
  CHECK(r.texts()[0] == "\\tkzGetAngle{aBAC}\\tkzGetLength{rA}{\\tkzGetResult{m}}");
  CHECK(r.texts()[1] == "\\draw(0,0) node {\\fpeval{round(\\tkzAngleResultaBAC)}} node {\\tkzLengthResultrA} node "
                        "{\\tkzMathResultm} node {\\tkzLengthResult};");
}

TEST_CASE("an expression stopped by a macro tikzlint did not expand is unsupported, not an error") {
  auto r = picture("\\pgfmathsetmacro\\h{\\somepackagemacro+1}\n\\foreach \\d in \\digitlist {\\draw (\\d,0);}");
  CHECK(r.find("math-error") == nullptr);
  CHECK(r.find("syntax-error") == nullptr);
  const Diagnostic* d = r.find("unsupported-construct");
  REQUIRE(d != nullptr);
  CHECK(d->severity == Severity::warning);
}

TEST_CASE("a macro handed on as a token and a range holding a parameter are unsupported, not errors") {
  auto r = picture("\\def\\f#1{\\draw (#1,0);}\n\\draw [x={\\f}] (0,0);\n"
                   "\\tikzset{n/.code=\\def\\n{#1}}\\foreach \\i in {1,...,\\n} {\\draw (\\i,0);}");
  CHECK(r.find("syntax-error") == nullptr);
  CHECK(r.find("unsupported-construct") != nullptr);
  // A range of plain junk is TeX's error too.
  auto j = picture("\\foreach \\i in {1,...,zz} {\\draw (\\i,0);}");
  CHECK(j.find("syntax-error") != nullptr);
}

TEST_CASE("a pgfmath error is located and the macro stays undefined") {
  auto r = picture("\\pgfmathsetmacro\\h{1/0}\n\\draw (\\h,0);");
  const Diagnostic* d = r.find("math-error");
  REQUIRE(d != nullptr);
  CHECK(d->severity == Severity::error);
  CHECK(d->range.begin == r.input.find("\\pgfmathsetmacro"));
}

// A `.code 2 args` body read out of context (penrose's manual puts one in the picture's options):
// TeX runs it only when the key is used, so its `#1/#2` are no math error.
TEST_CASE("an expression with macro parameters is not an error") {
  auto r = picture("\\pgfmathsetmacro\\t{100*#1/#2}\n\\draw (0,0) -- (1,1);");
  CHECK(r.find("math-error") == nullptr);
  const Diagnostic* d = r.find("unsupported-construct");
  REQUIRE(d != nullptr);
  CHECK(d->severity == Severity::warning);
}

TEST_CASE("\\ifthenelse with \\equal, numeric tests, \\AND/\\OR/\\NOT") {
  auto r = picture(
      "\\def\\s{squ}\n"
      "\\ifthenelse{\\equal{\\s}{squ}}{\\draw (1,0);}{\\draw (2,0);}\n"
      "\\ifthenelse{3>5}{\\draw (3,0);}{\\draw (4,0);}\n"
      "\\ifthenelse{1<2 \\AND \\NOT \\equal{a}{b}}{\\draw (5,0);}{}\n"
      "\\ifthenelse{1=2 \\OR 2=2}{\\draw (6,0);}{}");
  auto t = r.texts();
  REQUIRE(t.size() == 4);
  CHECK(t[0] == "\\draw(1,0);");
  CHECK(t[1] == "\\draw(4,0);");
  CHECK(t[2] == "\\draw(5,0);");
  CHECK(t[3] == "\\draw(6,0);");
}

TEST_CASE("\\ifnum, \\ifdim, \\ifx with \\else and nesting") {
  auto r = picture(
      "\\newcount\\c \\c=4 \\def\\a{x}\\def\\b{x}\n"
      "\\ifnum\\c>3 \\draw (1,0);\\else\\draw (2,0);\\fi\n"
      "\\ifdim 2pt<1pt \\draw (3,0);\\else \\ifnum 1=1 \\draw (4,0);\\fi\\fi\n"
      "\\ifx\\a\\b \\draw (5,0);\\fi \\iffalse \\draw (6,0);\\fi");
  auto t = r.texts();
  REQUIRE(t.size() == 3);
  CHECK(t[0] == "\\draw(1,0);");
  CHECK(t[1] == "\\draw(4,0);");
  CHECK(t[2] == "\\draw(5,0);");
}

TEST_CASE("\\ifnum/\\ifdim on a macro without a meaning is unknown (a warning), on no number TeX stops (an error)") {
  auto severity_of = [](const testing::Run& r, const std::string& what) -> std::optional<Severity> {
    for (const auto& d : r.doc.diagnostics)
      if (d.message.find(what) != std::string::npos) return d.severity;
    return std::nullopt;
  };
  // pgfplots' `x filter/.code` and `scatter/@pre marker code/.code` test macros pgfplots defines
  // where it runs the code (\coordindex, \pgfplotspointmetatransformed)
  auto filt = picture("\\ifnum\\coordindex>4 \\draw (1,0);\\fi\n"
                      "\\ifdim\\pgfplotspointmetatransformed pt<300pt \\draw (2,0);\\fi");
  CHECK(severity_of(filt, "\\ifnum on \\coordindex") == Severity::warning);
  CHECK(severity_of(filt, "\\ifdim on \\pgfplotspointmetatransformed") == Severity::warning);
  CHECK_FALSE(severity_of(filt, "cannot read"));
  // no number at all: "Missing number, treated as zero"
  auto bad = picture("\\ifnum x>4 \\draw (1,0);\\fi");
  CHECK(severity_of(bad, "cannot read the \\ifnum comparison") == Severity::error);
}

TEST_CASE("\\makeatletter, \\csname and \\expandafter") {
  auto r = picture(
      "\\makeatletter\\def\\my@x{7}\\makeatother\n"
      "\\expandafter\\def\\csname p1\\endcsname{(1,1)}\n"
      "\\makeatletter\\draw (\\my@x,0) -- \\csname p1\\endcsname;\\makeatother");
  REQUIRE(r.texts().size() == 1);
  CHECK(r.texts()[0] == "\\draw(7,0) -- (1,1);");
}

TEST_CASE("undefined macros (LaTeX, TikZ) stay as they are and are not counted") {
  auto r = picture("\\node at (0,0) {\\Large $\\frac{1}{2}\\circ$};");
  REQUIRE(r.texts().size() == 1);
  CHECK(r.texts()[0] == "\\node at (0,0) {\\Large$\\frac{1}{2}\\circ$};");
  CHECK(r.doc.unexpanded_user_macros == 0);
}

TEST_CASE("a user macro used before its definition is counted as left unexpanded") {
  auto r = picture("\\draw (\\later,0);\n\\def\\later{1}");
  CHECK(r.doc.unexpanded_user_macros == 1);
  REQUIRE(r.doc.unexpanded_macro_names.size() == 1);
  CHECK(r.doc.unexpanded_macro_names[0] == "\\later");
}

TEST_CASE("text from a macro maps to the outermost call site, provenance records the calls") {
  std::string body = "\\def\\seg{\\draw (0,0) -- (1,1);}\\def\\twice{\\seg}\n\\twice";
  auto r = picture(body);
  REQUIRE(r.texts().size() == 1);
  const Statement& s = r.statement(0);
  std::uint32_t call = static_cast<std::uint32_t>(r.input.find("\\twice\n"));
  REQUIRE(s.origin.size() == s.text.size());
  for (auto o : s.origin) CHECK(o == call);
  REQUIRE(s.prov.macros.size() == 2);
  CHECK(s.prov.macros[0].macro == "\\twice");
  CHECK(s.prov.macros[0].call_site.begin == call);
  CHECK(s.prov.macros[1].macro == "\\seg");
  CHECK(s.prov.range.begin == call);
  auto rr = s.range_of(0, 5);
  CHECK(rr.begin == call);
}

TEST_CASE("text written in the input maps byte by byte, arguments keep their own offsets") {
  auto r = picture("\\def\\p#1{(#1)}\n\\draw \\p{7,8};");
  REQUIRE(r.texts().size() == 1);
  const Statement& s = r.statement(0);
  CHECK(s.text == "\\draw(7,8);");
  auto seven = s.text.find('7');
  CHECK(s.origin[seven] == r.input.find("7,8"));
  CHECK(s.origin[0] == r.input.find("\\draw"));
  auto range = s.range_of(static_cast<std::uint32_t>(seven), static_cast<std::uint32_t>(seven + 3));
  CHECK(range.begin == r.input.find("7,8"));
  CHECK(range.end == r.input.find("7,8") + 3);
}

TEST_CASE("\\tikzset and \\tikzstyle become StyleDef statements, style bodies keep #1") {
  auto r = picture(
      "\\def\\w{2pt}\n\\tikzset{my/.style={line width=\\w, draw=#1}}\n"
      "\\tikzstyle{dot}=[circle,fill]\n\\tikzstyle{dot}+=[red]\n\\draw[my=red] (0,0);");
  auto t = r.texts();
  REQUIRE(t.size() == 4);
  CHECK(r.statement(0).kind == StatementKind::StyleDef);
  CHECK(t[0] == "my/.style={line width=2pt, draw=#1}");
  CHECK(t[1] == "dot/.style={circle,fill}");
  CHECK(t[2] == "dot/.append style={red}");
  CHECK(t[3] == "\\draw[my=red] (0,0);");
}

TEST_CASE("a .code key runs when it is set in the same \\tikzset (right angle length)") {
  auto r = picture(
      "\\tikzset{len/.code={\\def\\len{#1}}, len=.125in, q/.code={\\pgfmathsetmacro\\qa{{1,-1}[#1-1]}}, q=2,\n"
      "  sym/.style={insert path={(0,0) -- (\\qa*\\len,0)}}}\n\\draw[sym] (0,0);");
  auto t = r.texts();
  REQUIRE(t.size() == 2);
  CHECK(t[0].find("sym/.style={insert path={(0,0) -- (-1.0*.125in,0)}}") != std::string::npos);
  CHECK(t[0].find("len/.code={\\def\\len{#1}}") != std::string::npos);
}

TEST_CASE("class and packages: definitions, styles, registers and the base font size come through") {
  auto dir = testing::make_dir(
      "cls", {{"myclass.cls",
               "\\NeedsTeXFormat{LaTeX2e}\\ProvidesClass{myclass}\n"
               "\\newcommand{\\my@debug}[1]{\\typeout{#1}}\\my@debug{loading}\n"
               "\\DeclareOption{big}{\\def\\size{9}}\\ProcessOptions\\relax\n"
               "\\LoadClass[border=0pt, 12pt, tikz]{standalone}\n\\RequirePackage{mypkg}\n"},
              {"mypkg.sty",
               "\\ProvidesPackage{mypkg}\n\\usepackage{tikz}\n\\tikzstyle{vertex}=[circle, fill]\n"
               "\\tikzset{every node/.append style={font=\\my@font}}\n\\def\\my@font{\\small}\n"
               "\\newdimen\\HP \\HP=3.25in\n"
               "\\def\\drawarc[#1](#2)(#3:#4:#5){\\draw[#1] (#2) arc (#3:#4:#5)}\n"
               "\\input{extra.sty}\n\\endinput\n\\def\\never{1}\n"},
              {"extra.sty", "\\newcommand\\TriSSS[3]{\\draw (0,0) -- (#1,0) -- (#2,#3) -- cycle;}\n"}});
  FrontendOptions opts;
  opts.include_dirs.push_back(dir.string());
  auto r = testing::expand(
      "\\documentclass[11pt]{myclass}\n\\usepackage{amsmath,mypkg}\n\\begin{document}\n"
      "\\begin{tikzpicture}[x=\\HP]\n\\drawarc[red](0,0)(0:90:1);\n\\TriSSS{3}{4}{5}\n"
      "\\node[vertex] {\\never};\n\\end{tikzpicture}\n\\end{document}\n",
      opts);
  CHECK(r.doc.document_class == "myclass");
  CHECK(r.doc.class_options == std::vector<std::string>{"11pt"});
  CHECK(r.doc.base_font_size_pt == 12.0);  // the class's \LoadClass option is read last
  REQUIRE(r.doc.pictures.size() == 1);
  CHECK(r.doc.pictures[0].options == "x=" + format_dimen(3.25 * 72.27));
  auto t = r.texts();
  REQUIRE(t.size() == 3);
  CHECK(t[0] == "\\draw[red] (0,0) arc (0:90:1);");
  CHECK(t[1] == "\\draw(0,0) -- (3,0) -- (4,5) -- cycle;");
  CHECK(t[2] == "\\node[vertex] {\\never};");  // after \endinput: never defined
  REQUIRE(r.doc.preamble_styles.size() == 2);
  CHECK(r.doc.preamble_styles[0].text == "vertex/.style={circle, fill}");
  CHECK(r.doc.preamble_styles[1].text == "every node/.append style={font=\\my@font}");
  CHECK(r.doc.unexpanded_user_macros == 0);
  // Missing standard packages and classes are never errors, and those irrelevant to geometry
  // (standalone.cls, tikz.sty) not even notes.
  CHECK(r.errors() == 0);
  CHECK(!r.has("missing-file"));
}

TEST_CASE("a package beside the input file is found without include dirs") {
  auto dir = testing::make_dir("local", {{"local.sty", "\\def\\five{5}\n"}});
  SourceManager sm;
  FileId id = sm.add((dir / "doc.tex").string(),
                     "\\usepackage{local}\\begin{tikzpicture}\\draw (\\five,0);\\end{tikzpicture}");
  auto doc = expand_file(sm, id, {});
  REQUIRE(doc.pictures.size() == 1);
  REQUIRE(doc.pictures[0].statements.size() == 1);
  CHECK(doc.pictures[0].statements[0].text == "\\draw(5,0);");
}

TEST_CASE("the class cache: a second file with the same class gets the same definitions") {
  auto dir = testing::make_dir(
      "cache", {{"c.cls", "\\LoadClass[12pt]{standalone}\\RequirePackage{p}\n"},
                {"p.sty", "\\tikzstyle{v}=[circle]\n\\newdimen\\QP \\QP=1in\n"
                          "\\def\\seg#1{\\draw (0,0) -- #1;}\n\\usepackage{chemfig}\n"}});
  FrontendOptions opts;
  opts.include_dirs.push_back(dir.string());
  const std::string doc = "\\documentclass{c}\n\\begin{document}\\begin{tikzpicture}\\seg{(\\QP,0)}\\end{tikzpicture}\\end{document}\n";
  auto first = testing::expand(doc, opts);
  // A different SourceManager layout: file ids must be remapped on restore.
  testing::Run second;
  second.sm.add("other.tex", "x");
  FileId id = second.sm.add("/nonexistent-dir/input.tex", "\n\n" + doc);
  second.doc = expand_file(second.sm, id, opts);
  FrontendOptions cold = opts;
  cold.cache = nullptr;
  auto third = testing::expand(doc, cold);
  for (const testing::Run* r : {&first, &second, &third}) {
    REQUIRE(r->texts().size() == 1);
    CHECK(r->texts()[0] == "\\draw(0,0) -- (72.27pt,0);");
    CHECK(r->doc.base_font_size_pt == 12.0);
    if (r->doc.preamble_table) {  // restored from the cache: the class's styles are in its table
      CHECK(r->doc.preamble_styles.empty());
      REQUIRE(r->doc.preamble_table->find("v") != nullptr);
      CHECK(r->doc.preamble_table->find("v")->body == "circle");
    } else {  // read: the statements, located in the package
      REQUIRE(r->doc.preamble_styles.size() == 1);
      CHECK(r->doc.preamble_styles[0].text == "v/.style={circle}");
      CHECK(r->sm.get(r->doc.preamble_styles[0].prov.range.file).path().find("p.sty") != std::string::npos);
    }
    const auto& frame = r->statement(0).prov.macros.at(0);
    CHECK(r->sm.get(frame.call_site.file).path().find("input.tex") != std::string::npos);
  }
  CHECK(second.doc.preamble_table != nullptr);  // the second file restored the class
  CHECK(third.doc.preamble_table == nullptr);   // without a cache, every file reads it
  CHECK(first.doc.diagnostics.size() == second.doc.diagnostics.size());
  CHECK(first.doc.diagnostics.size() == third.doc.diagnostics.size());
  // The missing chemfig.sty note keeps pointing into p.sty (tikz.sty gives none: modelled).
  std::size_t notes = 0;
  for (const auto& d : second.doc.diagnostics)
    if (d.rule == "missing-file" && d.message.find("chemfig.sty") != std::string::npos) {
      ++notes;
      CHECK(second.sm.get(d.range.file).path().find("p.sty") != std::string::npos);
    }
  CHECK(notes == 1);
  // what the class loaded is known to the packages of every file (packages/circuitikz needs it)
  for (const testing::Run* r : {&first, &second, &third}) CHECK(r->doc.loads("chemfig"));
}

// \pgfplotsset: a style definition is a style of the table (an axis expands it by name); a plain
// key holds for every later axis (`every axis`), `compat` too (it moves the axis labels).
TEST_CASE("\\pgfplotsset defines styles and makes plain keys every axis keys") {
  auto r = testing::expand(
      "\\documentclass{standalone}\n\\usepackage{pgfplots}\n"
      "\\pgfplotsset{compat=1.18, width=8cm, /pgfplots/my axis/.style={grid=major}}\n"
      "\\begin{document}\n\\begin{tikzpicture}\n\\draw (0,0) -- (1,1);\n\\end{tikzpicture}\n\\end{document}\n");
  REQUIRE(r.doc.preamble_styles.size() == 1);
  const std::string& s = r.doc.preamble_styles[0].text;
  CHECK(s.find("every axis/.append style={width=8cm}") != std::string::npos);
  CHECK(s.find("my axis/.style={grid=major}") != std::string::npos);
  CHECK(s.find("/pgfplots/") == std::string::npos);
  CHECK(s.find("every axis/.append style={compat=1.18}") != std::string::npos);
  // the code an axis runs at its end, set here, is every later axis' (read in order with its keys)
  auto h = testing::expand(
      "\\documentclass{standalone}\n\\usepackage{pgfplots}\n"
      "\\pgfplotsset{after end axis/.code={\\draw (0,0) -- (1,1);}, my/.code={}, every axis title/.append style={red}}\n"
      "\\begin{document}\n\\begin{tikzpicture}\n\\draw (0,0) -- (1,1);\n\\end{tikzpicture}\n\\end{document}\n");
  REQUIRE(h.doc.preamble_styles.size() == 1);
  CHECK(h.doc.preamble_styles[0].text.find("every axis/.append style={after end axis/.code={\\draw(0,0) -- (1,1);}}") !=
        std::string::npos);
  CHECK(h.doc.preamble_styles[0].text.find("every axis/.append style={my/.code") == std::string::npos);
  // so are the styles of what an axis draws
  CHECK(h.doc.preamble_styles[0].text.find("every axis/.append style={every axis title/.append style={red}}") !=
        std::string::npos);
}

TEST_CASE("circuitikz: its environment is a picture, and the document knows the package is loaded") {
  auto r = testing::expand(
      "\\documentclass{article}\n\\usepackage[american]{circuitikz}\n\\begin{document}\n"
      "\\begin{circuitikz}[scale=2]\n\\draw (0,0) to[R] (2,0);\n\\end{circuitikz}\n\\end{document}\n");
  REQUIRE(r.doc.pictures.size() == 1);
  CHECK(r.doc.pictures[0].environment == "circuitikz");
  CHECK(r.doc.pictures[0].options == "scale=2");
  CHECK(r.texts().size() == 1);
  REQUIRE(r.doc.loads("circuitikz"));
  CHECK(r.doc.packages.back().options == "american");
  // circuitikz's ground shape wins over the circuits.ee symbol style every document falls back on
  bool ground = false;
  for (const auto& st : r.doc.preamble_styles) ground = ground || st.text.find("ground/.style={shape=ground}") != std::string::npos;
  CHECK(ground);
  for (const auto& d : r.doc.diagnostics) CHECK_MESSAGE(d.severity != Severity::error, d.message);
}
