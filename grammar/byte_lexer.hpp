// grammar/byte_lexer.hpp: internal to grammar/. A hand-written lexer with exactly the token
// rules of TikZ.g4 (same types, same offsets), fed to the generated ANTLR parser.
#pragma once
#include <cstddef>
#include <memory>
#include <string_view>
#include <vector>

#include "antlr4-runtime.h"

namespace tikzlint::grammar {

// Length of the balanced {..}, [..] or (..) group token starting at `at`, 0 if it never closes.
std::size_t balanced_group_length(std::string_view s, std::size_t at, std::vector<char>& stack);

// In the text of an option list (between the brackets), the value of a top-level
// `node contents=` or `pic type=` key as [begin, end) offsets into `options` (outer braces
// removed), or {npos, npos} when neither key is set. tikz.code.tex: with either key set the node
// or pic is complete after that option list (\tikz@fig@scan... tests \tikz@node@content /
// \tikz@pic@type), so no `{text}` follows.
std::pair<std::size_t, std::size_t> spec_text_key_value(std::string_view options);

class ByteLexer : public antlr4::TokenSource {
 public:
  // `input` is the same bytes as a CharStream (tokens fetch their text from it on demand).
  void reset(antlr4::CharStream* input, std::string_view text) {
    input_ = input;
    text_ = text;
    pos_ = 0;
    in_spec_ = false;
    pending_text_ = false;
    held_ = false;
    source_ = {this, input};
  }

  // The next token's type and [start, stop] byte offsets (stop inclusive, as ANTLR's).
  // After an option list of a node or pic that sets `node contents` or `pic type`, it yields an
  // empty BRACED token (start = the offset after `]`, stop = start - 1): TikZ ends the node
  // there, and the grammar's nodeSpec ends with its text. A pic with options that is not
  // followed by `{name}` gets the same empty text (a style among the options sets `pic type`).
  std::size_t next_token(std::size_t& start, std::size_t& stop);

  std::unique_ptr<antlr4::Token> nextToken() override;
  std::size_t getLine() const override { return 1; }
  std::size_t getCharPositionInLine() override { return pos_; }
  antlr4::CharStream* getInputStream() override { return input_; }
  std::string getSourceName() override { return "statement"; }
  antlr4::TokenFactory<antlr4::CommonToken>* getTokenFactory() override {
    return antlr4::CommonTokenFactory::DEFAULT.get();
  }

 private:
  antlr4::CharStream* input_ = nullptr;
  std::string_view text_;
  std::size_t pos_ = 0;
  std::pair<antlr4::TokenSource*, antlr4::CharStream*> source_{nullptr, nullptr};
  std::vector<char> stack_;
  bool in_spec_ = false;       // the tokens since `node`/`pic` are still its spec
  bool pending_text_ = false;  // the next token is the empty text of a node/pic
  bool spec_is_pic_ = false;   // the spec is a pic's
  bool spec_options_ = false;  // the spec has an option list
  bool held_ = false;          // a token scanned but not yet returned (after an empty text)
  std::size_t held_type_ = 0, held_start_ = 0, held_stop_ = 0;
  std::size_t scan(std::size_t& start, std::size_t& stop);
};

}  // namespace tikzlint::grammar
