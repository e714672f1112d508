// Tests of the read policy (support/read_policy.hpp) as the expander applies it: \input,
// \include, \InputIfFileExists, \IfFileExists, \usepackage and \documentclass resolve only inside
// the input's folder, the include dirs and --allow-read folders.
#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "tex/test_support.hpp"

namespace tikzlint::tex {
namespace fs = std::filesystem;

namespace {

// A tree: root/doc/ (the input's folder, with sub/ and .hidden/), root/outside/secret.tex, and
// symbolic links from doc/ to outside/.
struct Tree {
  fs::path root, doc, outside;
  Tree() {
    root = fs::temp_directory_path() / ("tikzlint-policy-" + std::to_string(::getpid()));
    fs::remove_all(root);
    doc = root / "doc";
    outside = root / "outside";
    fs::create_directories(doc / "sub");
    fs::create_directories(doc / ".hidden");
    fs::create_directories(outside);
    write(outside / "secret.tex", "\\draw (0,0) -- (1,1); SECRET-CONTENT\n");
    write(outside / "secret.sty", "\\def\\five{5}\n");
    write(doc / "sub" / "part.tex", "\\draw (0,0) -- (2,0);\n");
    write(doc / ".hidden" / "h.tex", "\\draw (0,0) -- (3,0);\n");
    write(doc / ".dot.tex", "\\draw (0,0) -- (4,0);\n");
    std::error_code ec;
    fs::create_symlink(outside / "secret.tex", doc / "link.tex", ec);
    fs::create_directory_symlink(outside, doc / "linkdir", ec);
  }
  ~Tree() { fs::remove_all(root); }
  static void write(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

  // Expand `body` inside a picture of a document in doc/.
  testing::Run run(const std::string& body, FrontendOptions opts = {}) const {
    opts.cache = nullptr;
    return testing::expand("\\begin{tikzpicture}\n" + body + "\n\\end{tikzpicture}\n", opts,
                           (doc / "fig.tex").string());
  }
};

std::size_t count(const testing::Run& r, const std::string& rule) {
  std::size_t n = 0;
  for (const auto& d : r.doc.diagnostics) n += d.rule == rule;
  return n;
}

// Nothing of the file outside the policy was read: no statement, no source file holds it.
bool leaked(const testing::Run& r) {
  for (const auto& t : r.texts())
    if (t.find("(1,1)") != std::string::npos || t.find("SECRET") != std::string::npos) return true;
  for (std::size_t i = 0; i < r.sm.size(); ++i)
    if (r.sm.get(static_cast<FileId>(i)).text().find("SECRET") != std::string::npos) return true;
  for (const auto& d : r.doc.diagnostics)
    if (d.message.find("SECRET") != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("read policy: an absolute path is refused, once, naming the path as written") {
  Tree t;
  const std::string abs = (t.outside / "secret.tex").string();
  auto r = t.run("\\input{" + abs + "}");
  REQUIRE(count(r, "refused-read") == 1);
  const Diagnostic* d = r.find("refused-read");
  CHECK(d->severity == Severity::warning);
  CHECK(d->message.find("'" + abs + "'") != std::string::npos);
  CHECK(d->message.find("absolute") != std::string::npos);
  CHECK(d->evidence["policy"] == "absolute");
  CHECK(!r.has("missing-file"));
  CHECK(!leaked(r));
}

TEST_CASE("read policy: /etc/passwd is never read") {
  Tree t;
  auto r = t.run("\\input{/etc/passwd}\\input /etc/passwd \\include{/etc/passwd}");
  CHECK(count(r, "refused-read") == 3);
  for (std::size_t i = 0; i < r.sm.size(); ++i) CHECK(r.sm.get(static_cast<FileId>(i)).path() != "/etc/passwd");
}

TEST_CASE("read policy: '..' above the input's folder is refused, '..' inside it is not") {
  Tree t;
  auto up = t.run("\\input{../outside/secret}");
  CHECK(count(up, "refused-read") == 1);
  CHECK(up.find("refused-read")->evidence["policy"] == "above-root");
  CHECK(!leaked(up));
  auto sneaky = t.run("\\input{sub/../../outside/secret.tex}");
  CHECK(count(sneaky, "refused-read") == 1);
  CHECK(!leaked(sneaky));
  auto inside = t.run("\\input{sub/../sub/part}");
  CHECK(!inside.has("refused-read"));
  REQUIRE(inside.texts().size() == 1);
  CHECK(inside.texts()[0] == "\\draw(0,0) -- (2,0);");
}

TEST_CASE("read policy: a symbolic link out of the allowed folders is refused") {
  Tree t;
  auto file = t.run("\\input{link}");
  CHECK(count(file, "refused-read") == 1);
  CHECK(file.find("refused-read")->evidence["policy"] == "symlink-out");
  CHECK(!leaked(file));
  auto dir = t.run("\\input{linkdir/secret}");
  CHECK(count(dir, "refused-read") == 1);
  CHECK(!leaked(dir));
}

TEST_CASE("read policy: hidden files and folders are refused") {
  Tree t;
  auto f = t.run("\\input{.dot}");
  CHECK(count(f, "refused-read") == 1);
  CHECK(f.find("refused-read")->evidence["policy"] == "hidden");
  auto d = t.run("\\input{.hidden/h}");
  CHECK(count(d, "refused-read") == 1);
  CHECK(d.texts().empty());
}

TEST_CASE("read policy: --allow-read widens it to a folder, absolute names and links included") {
  Tree t;
  FrontendOptions opts;
  opts.allow_read = {t.outside.string()};
  auto abs = t.run("\\input{" + (t.outside / "secret.tex").string() + "}", opts);
  CHECK(!abs.has("refused-read"));
  REQUIRE(!abs.texts().empty());
  CHECK(abs.texts()[0] == "\\draw(0,0) -- (1,1);");
  auto link = t.run("\\input{link}", opts);
  CHECK(!link.has("refused-read"));
  auto up = t.run("\\input{../outside/secret}", opts);  // still a '..' above the input's folder
  CHECK(up.has("refused-read"));
}

TEST_CASE("read policy: include dirs are roots, a usepackage of an absolute path outside is refused") {
  Tree t;
  FrontendOptions opts;
  opts.include_dirs = {t.outside.string()};
  opts.cache = nullptr;
  auto found = testing::expand("\\usepackage{secret}\\begin{tikzpicture}\\draw (\\five,0) -- (1,0);\\end{tikzpicture}",
                               opts, (t.doc / "fig.tex").string());
  CHECK(!found.has("refused-read"));
  CHECK(found.texts().at(0) == "\\draw(5,0) -- (1,0);");
  auto refused = testing::expand("\\documentclass{/etc/hostname}\\usepackage{/etc/passwd}\\usepackage{../x}\n",
                                 {}, (t.doc / "fig.tex").string());
  CHECK(count(refused, "refused-read") == 3);
  CHECK(!refused.has("missing-file"));
}

TEST_CASE("read policy: InputIfFileExists and IfFileExists take the else branch for a refused file") {
  Tree t;
  auto r = t.run("\\InputIfFileExists{/etc/passwd}{\\draw (0,0) -- (7,0);}{\\draw (0,0) -- (8,0);}"
                 "\\IfFileExists{link.tex}{\\draw (0,0) -- (9,0);}{\\draw (0,0) -- (6,0);}"
                 "\\InputIfFileExists{sub/part}{\\draw (0,0) -- (5,0);}{}"
                 "\\IfFileExists{nothing-here.tex}{}{\\draw (1,1) -- (1,2);}");
  CHECK(count(r, "refused-read") == 2);
  CHECK(!r.has("missing-file"));
  CHECK(r.texts() == std::vector<std::string>{"\\draw(0,0) -- (8,0);", "\\draw(0,0) -- (6,0);",
                                               "\\draw(0,0) -- (5,0);", "\\draw(0,0) -- (2,0);",
                                               "\\draw(1,1) -- (1,2);"});
}

TEST_CASE("ReadGate judges names alone") {
  ReadGate g("/nonexistent-root/", {});
  CHECK(g.check_name("a/b.tex") == ReadRefusal::none);
  CHECK(g.check_name("./a/../b.tex") == ReadRefusal::none);
  CHECK(g.check_name("a/../../b.tex") == ReadRefusal::above_root);
  CHECK(g.check_name("..") == ReadRefusal::above_root);
  CHECK(g.check_name("/etc/passwd") == ReadRefusal::absolute);
  CHECK(g.check_name("a/.git/config") == ReadRefusal::hidden);
  CHECK(g.check_name(".latexmkrc") == ReadRefusal::hidden);
}

}  // namespace tikzlint::tex
