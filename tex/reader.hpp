// tex/reader.hpp: TeX tokens with catcodes, read lazily from a source file.
// Internal to the tex/ stage; later stages read tex.hpp only.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "support/source.hpp"
#include "tex/tex.hpp"

namespace tikzlint::tex {

// The catcodes the reader distinguishes (TeXbook chapter 7), plus internal markers.
enum class Cat : std::uint8_t {
  control,      // \word or \symbol; text holds the name without the backslash
  begin_group,  // {
  end_group,    // }
  math,         // $
  align,        // &
  param,        // #
  superscript,  // ^
  subscript,    // _
  space,        // one space token (runs of blanks and single newlines collapse)
  letter,       // a-z A-Z (and @ when it is a letter)
  other,        // everything else; a multi-byte UTF-8 character is one token
  active,       // ~
  par,          // a blank line
  marker,       // internal: end of a loop iteration / of a collected list
};

struct Token {
  Cat cat = Cat::other;
  // A run of plain characters read as one token (Reader::next_plain): its text is several
  // character tokens of category `cat`, one per byte, each at its own offset from origin_begin.
  bool run = false;
  std::string text;
  FileId file = 0;            // where the token was read
  std::uint32_t offset = 0;
  // Where the token maps in the user's file: its own position, or the outermost macro call site.
  FileId origin_file = 0;
  std::uint32_t origin_begin = 0, origin_end = 0;
  std::uint32_t frame = 0;  // macro call chain (index into the expander's frame table, 0: none)
  std::uint32_t loop = 0;   // loop-binding chain (index into the expander's loop table, 0: none)
  std::uint32_t marker_id = 0;

  [[gnu::always_inline]] bool is_cs(std::string_view name) const {  // asked for most tokens: lengths first
    return cat == Cat::control && text.size() == name.size() &&
           __builtin_memcmp(text.data(), name.data(), name.size()) == 0;
  }
  bool is_char(char c) const {
    return cat != Cat::control && cat != Cat::marker && text.size() == 1 && text[0] == c;
  }
};

using TokenList = std::vector<Token>;

// Reads tokens from one file on demand, so that \makeatletter takes effect for what follows.
class Reader {
 public:
  Reader(const SourceFile& file, FileId id) : file_(&file), id_(id) {}
  // Next token, or false at the end of the file. `at_letter`: whether @ has catcode 11.
  bool next(Token& out, bool at_letter);
  // The next token when it is plain: a run of characters as one token with `run` set (ASCII
  // letters, or ASCII digits and the punctuation no statement reader looks at one by one), one
  // unexpandable character of its own (; ( ) [ ] : = - $ & # ^ _), or a blank that makes a
  // space token; false, reading nothing, for anything else (a control sequence, a brace, `~`,
  // `@`, a comment, a newline, a blank that is skipped, non-ASCII). For a caller that only
  // serialises what it reads (the picture reader's statements): a run stands for one character
  // token per byte, the same text at the same offsets, for a fraction of the cost.
  bool next_plain(Token& out);
  // Stop reading (\endinput takes effect at the end of the current line).
  void end_input();
  std::uint32_t position() const { return pos_; }
  FileId file_id() const { return id_; }
  // Offset of the first invalid UTF-8 byte seen so far (once), for a diagnostic.
  bool take_invalid_utf8(std::uint32_t& offset) {  // asked after every token: inline
    if (!invalid_pending_) return false;
    invalid_pending_ = false;
    offset = invalid_at_;
    return true;
  }

 private:
  // The character at the position is a comment sign, a newline or a blank: read as TeX reads it
  // (TeXbook ch. 8, states N, M, S). True when it made a token (a space or a \par), false when it
  // was skipped.
  bool layout(Token& out);

  const SourceFile* file_;
  FileId id_;
  std::uint32_t pos_ = 0;
  bool line_start_ = true;    // skip blanks at the start of a line
  bool skip_blanks_ = false;  // after a control word
  bool invalid_reported_ = false;
  bool invalid_pending_ = false;
  std::uint32_t invalid_at_ = 0;
};

// Length of the valid UTF-8 sequence at `s[i]`, or 0 when the byte does not start one.
std::size_t utf8_length(std::string_view s, std::size_t i);

// Offset of the first invalid UTF-8 byte (or NUL) in `s`, or npos.
std::size_t find_invalid_utf8(std::string_view s);

// `% tikzlint: ...` directives in a file's comments.
std::vector<Directive> scan_directives(const SourceFile& file, FileId id,
                                       std::vector<Diagnostic>& diags);

// Serialise tokens as TeX source: a control word gets a space only before a letter.
// `origin` (if given) receives one entry per output byte.
void serialise(const TokenList& tokens, std::string& text, std::vector<std::uint32_t>* origin);

// serialise, one token at a time (for a reader that does not keep its tokens).
class Serialiser {
 public:
  Serialiser(std::string& text, std::vector<std::uint32_t>* origin) : text_(text), origin_(origin) {}
  void put(const Token& t) {
    // Most tokens are one character that is not a blank: inline, without the general case.
    if (t.text.size() == 1 && t.cat != Cat::control && t.cat != Cat::space && t.cat != Cat::par &&
        t.cat != Cat::marker && !(after_word_ && t.cat == Cat::letter)) {
      after_word_ = false;
      text_.push_back(t.text[0]);
      if (origin_) origin_->push_back(t.origin_begin);
      return;
    }
    put_general(t);
  }

 private:
  void put_general(const Token& t);
  void append(std::string_view s, std::uint32_t at);
  std::string& text_;
  std::vector<std::uint32_t>* origin_;
  bool after_word_ = false;  // the last token was a control word: a letter gets a space first
  std::uint32_t word_at_ = 0;
};
std::string to_string(const TokenList& tokens);

}  // namespace tikzlint::tex
