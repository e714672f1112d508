// tex/test_support.hpp: helpers shared by the tex/ unit tests.
#pragma once
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tex/tex.hpp"

namespace tikzlint::tex::testing {

struct Run {
  SourceManager sm;
  ExpandedDocument doc;
  std::string input;

  // All statement texts of all pictures, in order.
  std::vector<std::string> texts() const {
    std::vector<std::string> out;
    for (const auto& p : doc.pictures)
      for (const auto& s : p.statements) out.push_back(s.text);
    return out;
  }
  const Statement& statement(std::size_t i) const {
    std::size_t k = 0;
    for (const auto& p : doc.pictures)
      for (const auto& s : p.statements)
        if (k++ == i) return s;
    static Statement none;
    return none;
  }
  bool has(const std::string& rule) const {
    for (const auto& d : doc.diagnostics)
      if (d.rule == rule) return true;
    return false;
  }
  const Diagnostic* find(const std::string& rule) const {
    for (const auto& d : doc.diagnostics)
      if (d.rule == rule) return &d;
    return nullptr;
  }
  std::size_t errors() const {
    std::size_t n = 0;
    for (const auto& d : doc.diagnostics) n += d.severity == Severity::error ? 1 : 0;
    return n;
  }
};

inline Run expand(const std::string& text, FrontendOptions opts = {},
                  const std::string& path = "/nonexistent-dir/input.tex") {
  Run r;
  r.input = text;
  FileId id = r.sm.add(path, text);
  r.doc = expand_file(r.sm, id, opts);
  return r;
}

// Body of a tikzpicture: wraps statements in the environment.
inline Run picture(const std::string& body, FrontendOptions opts = {}) {
  return expand("\\begin{tikzpicture}\n" + body + "\n\\end{tikzpicture}\n", opts);
}

// A fresh folder under the temp directory with the given files.
inline std::filesystem::path make_dir(const std::string& name,
                                      const std::vector<std::pair<std::string, std::string>>& files) {
  auto dir = std::filesystem::temp_directory_path() / ("tikzlint-test-" + name);
  std::filesystem::create_directories(dir);
  for (const auto& [file, text] : files) std::ofstream(dir / file, std::ios::binary) << text;
  return dir;
}

}  // namespace tikzlint::tex::testing
