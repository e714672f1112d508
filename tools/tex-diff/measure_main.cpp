// tikzlint-measure: measure_text on a TSV of strings, for tools/tex-diff's metrics mode.
// Input lines:  family <TAB> size_pt or \\small... <TAB> bold(0/1) <TAB> italic(0/1) <TAB> text_width_pt <TAB> text
// Output lines: width <TAB> height <TAB> depth <TAB> uncertainty <TAB> lines
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "ir/textmetrics.hpp"

int main() {
  std::string line;
  while (std::getline(std::cin, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> f;
    std::stringstream ss(line);
    std::string cell;
    for (int i = 0; i < 5 && std::getline(ss, cell, '\t'); ++i) f.push_back(cell);
    std::string text;
    std::getline(ss, text);
    if (f.size() < 5) {
      std::cerr << "tikzlint-measure: malformed line: " << line << "\n";
      return 2;
    }
    tikzlint::ir::FontSpec font;
    font.family = f[0];
    // a size is a number (pt) or a LaTeX size command (\small) of the family's class
    font.size_pt = f[1].rfind('\\', 0) == 0
                       ? tikzlint::ir::font_size_for_command(
                             f[1], tikzlint::ir::class_base_size(f[0] == "opensans" ? "IM" : "standalone", ""))
                       : std::stod(f[1]);
    font.bold = f[2] == "1";
    font.italic = f[3] == "1";
    auto box = tikzlint::ir::measure_text(text, font, std::stod(f[4]));
    std::printf("%.4f\t%.4f\t%.4f\t%.4f\t%d\n", box.width, box.height, box.depth, box.uncertainty, box.lines);
  }
  return 0;
}
