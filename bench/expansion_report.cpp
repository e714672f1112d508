// bench/expansion_report.cpp: runs the TeX front end on each file and reports how many
// diagrams expand fully (no user macro left in any statement), with the leftovers per file.
// Usage: expansion_report [--include-dir DIR]... [--verbose] [--no-cache] FILE...
#include <ctime>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "tex/tex.hpp"

using namespace tikzlint;

int main(int argc, char** argv) {
  tex::FrontendOptions opts;
  std::vector<std::string> files;
  bool verbose = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--include-dir" && i + 1 < argc) opts.include_dirs.push_back(argv[++i]);
    else if (a == "--verbose") verbose = true;
    else if (a == "--no-cache") opts.cache = nullptr;  // read the class for every file
    else files.push_back(a);
  }
  if (files.empty()) {
    std::cerr << "usage: expansion_report [--include-dir DIR]... [--verbose] [--no-cache] FILE...\n";
    return 2;
  }
  std::size_t full = 0, with_pictures = 0, statements = 0, errors = 0, leftover_total = 0;
  double total_us = 0;
  for (const std::string& path : files) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      std::cout << path << ": unreadable\n";
      ++errors;
      continue;
    }
    std::ostringstream ss;
    ss << in.rdbuf();
    SourceManager sm;
    FileId id = sm.add(path, ss.str());
    // Process CPU time: wall-clock time is meaningless on a loaded machine.
    std::clock_t c0 = std::clock();
    tex::ExpandedDocument doc = tex::expand_file(sm, id, opts);
    std::clock_t c1 = std::clock();
    total_us += 1e6 * static_cast<double>(c1 - c0) / CLOCKS_PER_SEC;
    std::size_t n = 0;
    for (const auto& p : doc.pictures) n += p.statements.size();
    statements += n;
    if (!doc.pictures.empty()) ++with_pictures;
    std::size_t errs = 0;
    for (const auto& d : doc.diagnostics)
      if (d.severity == Severity::error) ++errs;
    if (errs) ++errors;
    if (doc.unexpanded_user_macros == 0) ++full;
    leftover_total += doc.unexpanded_user_macros;
    if (doc.unexpanded_user_macros != 0 || errs != 0 || verbose) {
      std::cout << path << ": " << doc.pictures.size() << " picture(s), " << n << " statement(s), "
                << doc.unexpanded_user_macros << " user macro(s) left";
      for (const auto& m : doc.unexpanded_macro_names) std::cout << ' ' << m;
      std::cout << '\n';
      for (const auto& d : doc.diagnostics) {
        if (d.severity == Severity::note && !verbose) continue;
        auto lc = sm.get(d.range.file).line_col(d.range.begin);
        std::cout << "  " << sm.get(d.range.file).path() << ':' << lc.line << ':' << lc.col << ": "
                  << to_string(d.severity) << ": " << d.message << " [" << d.rule << "]\n";
      }
      if (verbose) {
        std::cout << "  class " << doc.document_class << ", " << doc.base_font_size_pt << "pt\n";
        for (const auto& s : doc.preamble_styles) std::cout << "    preamble style: " << s.text << '\n';
        for (const auto& p : doc.pictures) std::cout << "  picture [" << p.options << "]\n";
        for (const auto& p : doc.pictures)
          for (const auto& s : p.statements) std::cout << "    " << static_cast<int>(s.kind) << ' ' << s.text << '\n';
      }
    }
  }
  std::printf("files: %zu\nwith pictures: %zu\nfully expanded (0 user macros left): %zu / %zu\n"
              "user macros left (occurrences): %zu\nfiles with front-end errors: %zu\nstatements: %zu\n"
              "mean expand_file CPU time: %.1f us\n",
              files.size(), with_pictures, full, files.size(), leftover_total, errors, statements,
              files.empty() ? 0.0 : total_us / static_cast<double>(files.size()));
  return full == files.size() ? 0 : 1;
}
