// support/source.hpp: source files, byte ranges and their line/column mapping.
// Offsets are bytes; columns shown to users count code points (clang style).
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
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

// A file's text with its line table. Immutable: copies share one text and one line table
// (a class or package read from the expansion cache is the same SourceFile in every diagram of
// a batch, so neither its text nor its lines are copied or recomputed per diagram).
class SourceFile {
  struct Data {
    std::string path;
    std::string text;
    std::vector<std::uint32_t> line_starts;
    mutable std::mutex mutex;  // guards `derived`
    mutable std::vector<std::pair<const void*, std::shared_ptr<const void>>> derived;
  };

 public:
  SourceFile(std::string path, std::string text);
  const std::string& path() const { return d_->path; }
  const std::string& text() const { return d_->text; }
  LineCol line_col(std::uint32_t offset) const;
  std::string_view line_text(std::uint32_t line) const;  // without newline
  std::uint32_t line_count() const { return static_cast<std::uint32_t>(d_->line_starts.size()); }

  // A value computed from this file's text at most once and shared by every copy of the file.
  // `compute` must depend on the text only (and be the same for one `tag`; the address of a
  // function or a static is a good tag). Thread-safe; the reference lives as long as the file.
  template <class T, class F>
  const T& derived(const void* tag, F compute) const {
    return *static_cast<const T*>(
        derived_impl(tag, [&](const std::string& t) -> std::shared_ptr<const void> {
          return std::make_shared<const T>(compute(t));
        }));
  }

 private:
  const void* derived_impl(const void* tag,
                           const std::function<std::shared_ptr<const void>(const std::string&)>& compute) const;
  std::shared_ptr<const Data> d_;
};

// Owns every file read while checking one input (the input, classes, packages).
class SourceManager {
 public:
  FileId add(std::string path, std::string text);
  FileId add(SourceFile file);  // shares the file's text and line table
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
