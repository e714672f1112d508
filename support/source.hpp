// support/source.hpp: source files, byte ranges and their line/column mapping.
// Offsets are bytes; columns shown to users count code points (clang style).
#pragma once
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

namespace tikzlint {

using FileId = std::uint32_t;

struct LineCol {
  std::uint32_t line = 1;  // 1-based
  std::uint32_t col = 1;   // 1-based, in code points
};

struct SourceRange {
  FileId file = 0;
  std::uint32_t begin = 0;  // byte offset, inclusive
  std::uint32_t end = 0;    // byte offset, exclusive
  bool valid = false;
};

class SourceFile {
 public:
  SourceFile(std::string path, std::string text);
  const std::string& path() const { return path_; }
  const std::string& text() const { return text_; }
  LineCol line_col(std::uint32_t offset) const;
  std::string_view line_text(std::uint32_t line) const;  // without newline
  std::uint32_t line_count() const { return static_cast<std::uint32_t>(line_starts_.size()); }

 private:
  std::string path_;
  std::string text_;
  std::vector<std::uint32_t> line_starts_;
};

// Owns every file read while checking one input (the input, classes, packages).
class SourceManager {
 public:
  FileId add(std::string path, std::string text);
  const SourceFile& get(FileId id) const { return files_.at(id); }
  std::size_t size() const { return files_.size(); }

 private:
  std::deque<SourceFile> files_;
};

// Where an IR element came from: the statement, plus macro call sites and loop bindings.
struct MacroFrame {
  std::string macro;     // e.g. "\\drawarc"
  SourceRange call_site;
};
struct LoopBinding {
  std::string variable;  // e.g. "\\x"
  std::string value;     // e.g. "3"
  std::uint32_t iteration = 0;  // 0-based
  SourceRange loop_site;        // the \foreach
};
struct Provenance {
  SourceRange range;  // the statement in the input file
  std::vector<MacroFrame> macros;
  std::vector<LoopBinding> loops;
  std::string origin = "parser";  // "parser" or "llm"
};

}  // namespace tikzlint
