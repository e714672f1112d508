// grammar/byte_lexer.cpp: a hand-written twin of the lexer rules in TikZ.g4.
// The generated ANTLR lexer simulates an ATN per byte (with locks and hash lookups) and took
// half of the parse time; this one produces the same token types and offsets in one pass.
// test_lexer.cpp checks that both agree on the dev-style statements and on random bytes.
#include "grammar/byte_lexer.hpp"

#include <array>
#include <string_view>
#include <vector>

#include "TikZLexer.h"

namespace tikzlint::grammar {
namespace {

using tikzgen::TikZLexer;

bool is_letter(unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_digit(unsigned char c) { return c >= '0' && c <= '9'; }
bool is_blank(unsigned char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f'; }

struct Keyword {
  std::string_view word;
  std::size_t type;
};

// Keyword tokens of TikZ.g4; a letter run equal to one of these is that token, else WORD.
constexpr std::array kKeywords = {
    Keyword{"cycle", TikZLexer::CYCLE},         Keyword{"controls", TikZLexer::CONTROLS},
    Keyword{"and", TikZLexer::AND},             Keyword{"rectangle", TikZLexer::RECTANGLE},
    Keyword{"circle", TikZLexer::CIRCLE},       Keyword{"ellipse", TikZLexer::ELLIPSE},
    Keyword{"arc", TikZLexer::ARC},             Keyword{"grid", TikZLexer::GRID},
    Keyword{"parabola", TikZLexer::PARABOLA},   Keyword{"bend", TikZLexer::BEND},
    Keyword{"sin", TikZLexer::SIN},             Keyword{"cos", TikZLexer::COS},
    Keyword{"to", TikZLexer::TO},               Keyword{"edge", TikZLexer::EDGE},
    Keyword{"plot", TikZLexer::PLOT},           Keyword{"coordinates", TikZLexer::COORDINATES},
    Keyword{"file", TikZLexer::FILE},           Keyword{"function", TikZLexer::FUNCTION},
    Keyword{"node", TikZLexer::NODE},           Keyword{"coordinate", TikZLexer::COORDINATE},
    Keyword{"pic", TikZLexer::PIC},             Keyword{"at", TikZLexer::AT},
    Keyword{"let", TikZLexer::LET},             Keyword{"in", TikZLexer::IN},
    Keyword{"foreach", TikZLexer::FOREACH},
};

// Control words that start a statement (PATH_CMD, NODE_CMD, COORD_CMD, PIC_CMD).
constexpr std::array kCommands = {
    Keyword{"draw", TikZLexer::PATH_CMD},      Keyword{"path", TikZLexer::PATH_CMD},
    Keyword{"fill", TikZLexer::PATH_CMD},      Keyword{"filldraw", TikZLexer::PATH_CMD},
    Keyword{"shade", TikZLexer::PATH_CMD},     Keyword{"shadedraw", TikZLexer::PATH_CMD},
    Keyword{"clip", TikZLexer::PATH_CMD},      Keyword{"useasboundingbox", TikZLexer::PATH_CMD},
    Keyword{"node", TikZLexer::NODE_CMD},      Keyword{"matrix", TikZLexer::NODE_CMD},
    Keyword{"coordinate", TikZLexer::COORD_CMD}, Keyword{"pic", TikZLexer::PIC_CMD},
};

template <std::size_t N>
std::size_t lookup(const std::array<Keyword, N>& table, std::string_view word, std::size_t fallback) {
  // Length and first letter before the bytes: most words match no entry (and memcmp is a call).
  for (const Keyword& k : table)
    if (k.word.size() == word.size() && k.word[0] == word[0] && k.word == word) return k.type;
  return fallback;
}

}  // namespace

// Length of the balanced group (BRACED, OPTIONS or PAREN) starting at `at`, or 0 when it
// does not close. Inside {..} only braces nest; inside [..] brackets and braces; inside (..)
// parens and braces; a backslash always takes the next byte with it (ESC).
std::size_t balanced_group_length(std::string_view s, std::size_t at, std::vector<char>& stack) {
  stack.clear();
  stack.push_back(s[at]);
  for (std::size_t i = at + 1; i < s.size(); ++i) {
    char c = s[i];
    if (c == '\\') {
      if (i + 1 >= s.size()) return 0;
      ++i;
      continue;
    }
    char top = stack.back();
    if (c == '{') {
      stack.push_back('{');
    } else if (c == '}') {
      if (top != '{') return 0;
      stack.pop_back();
    } else if (top == '[' && (c == '[' || c == ']')) {
      if (c == '[') stack.push_back('[');
      else stack.pop_back();
    } else if (top == '(' && (c == '(' || c == ')')) {
      if (c == '(') stack.push_back('(');
      else stack.pop_back();
    } else {
      continue;
    }
    if (stack.empty()) return i - at + 1;
  }
  return 0;
}

std::pair<std::size_t, std::size_t> spec_text_key_value(std::string_view o) {
  constexpr std::size_t npos = std::string_view::npos;
  std::size_t i = 0;
  while (i <= o.size()) {
    // one top-level `key[=value]` entry: [i, end)
    std::size_t end = i;
    int depth = 0;
    while (end < o.size() && !(depth == 0 && o[end] == ',')) {
      if (o[end] == '\\' && end + 1 < o.size()) ++end;
      else if (o[end] == '{') ++depth;
      else if (o[end] == '}') --depth;
      ++end;
    }
    std::string_view entry = o.substr(i, end - i);
    std::size_t eq = entry.find('=');
    if (eq != npos) {
      // the key with its spaces collapsed (pgfkeys normalises runs of spaces in key names)
      std::string_view key = entry.substr(0, eq);
      std::string norm;
      for (char c : key) {
        if (is_blank(static_cast<unsigned char>(c))) {
          if (!norm.empty() && norm.back() != ' ') norm += ' ';
        } else {
          norm += c;
        }
      }
      while (!norm.empty() && norm.back() == ' ') norm.pop_back();
      if (norm == "node contents" || norm == "pic type") {
        std::size_t b = i + eq + 1, e = end;
        while (b < e && is_blank(static_cast<unsigned char>(o[b]))) ++b;
        while (e > b && is_blank(static_cast<unsigned char>(o[e - 1]))) --e;
        if (e - b >= 2 && o[b] == '{' && o[e - 1] == '}') {
          ++b;
          --e;
        }
        return {b, e};
      }
    }
    i = end + 1;
  }
  return {npos, npos};
}

std::size_t ByteLexer::next_token(std::size_t& start, std::size_t& stop) {
  if (pending_text_) {
    pending_text_ = false;
    in_spec_ = false;
    start = pos_;
    stop = pos_ - 1;  // empty, as ANTLR's tokens with stop < start
    return TikZLexer::BRACED;
  }
  if (held_) {
    held_ = false;
    start = held_start_;
    stop = held_stop_;
    return held_type_;
  }
  std::size_t type = scan(start, stop);
  switch (type) {
    case TikZLexer::NODE:
    case TikZLexer::NODE_CMD:
    case TikZLexer::PIC:
    case TikZLexer::PIC_CMD:
      in_spec_ = true;
      spec_is_pic_ = type == TikZLexer::PIC || type == TikZLexer::PIC_CMD;
      spec_options_ = false;
      break;
    case TikZLexer::OPTIONS:
      if (in_spec_) {
        spec_options_ = true;
        if (stop > start &&
            spec_text_key_value(text_.substr(start + 1, stop - start - 1)).first != std::string_view::npos)
          pending_text_ = true;
      }
      break;
    case TikZLexer::PAREN:
    case TikZLexer::AT:
    case TikZLexer::PLUS:
    case TikZLexer::PLUSPLUS:
      break;
    default:
      if (in_spec_ && spec_is_pic_ && spec_options_ && type != TikZLexer::BRACED) {
        // A pic with options and no `{name}`: a style among its options sets `pic type`
        // (tqft's `tqft/pair of pants`, penrose's `kite`), so the pic ends here; it yields the
        // empty text first and this token next.
        held_ = true;
        held_type_ = type;
        held_start_ = start;
        held_stop_ = stop;
        in_spec_ = false;
        stop = start - 1;
        return TikZLexer::BRACED;
      }
      in_spec_ = false;
      break;
  }
  return type;
}

std::size_t ByteLexer::scan(std::size_t& start, std::size_t& stop) {
  const std::string_view s = text_;
  for (;;) {
    if (pos_ >= s.size()) {
      start = s.size();
      stop = s.size() - 1;  // wraps for empty input, as ANTLR's EOF token does
      return antlr4::Token::EOF;
    }
    unsigned char c = static_cast<unsigned char>(s[pos_]);
    if (is_blank(c)) {
      while (pos_ < s.size() && is_blank(static_cast<unsigned char>(s[pos_]))) ++pos_;
      continue;
    }
    if (c == '%') {
      while (pos_ < s.size() && s[pos_] != '\n' && s[pos_] != '\r') ++pos_;
      continue;
    }
    break;
  }
  start = pos_;
  auto at = [&](std::size_t k) -> unsigned char {
    return pos_ + k < s.size() ? static_cast<unsigned char>(s[pos_ + k]) : 0;
  };
  auto take = [&](std::size_t len, std::size_t type) {
    pos_ += len;
    stop = pos_ - 1;
    return type;
  };
  unsigned char c = at(0);
  switch (c) {
    case '\\': {
      if (pos_ + 1 >= s.size()) return take(1, TikZLexer::OTHER);
      std::size_t n = 1;
      while (pos_ + n < s.size() && (is_letter(at(n)) || at(n) == '@')) ++n;
      if (n == 1) return take(2, TikZLexer::CS);  // control symbol: \; \{ \,
      return take(n, lookup(kCommands, s.substr(pos_ + 1, n - 1), TikZLexer::CS));
    }
    case '{':
    case '[':
    case '(': {
      std::size_t len = balanced_group_length(s, pos_, stack_);
      if (len == 0) return take(1, TikZLexer::STRAY);
      return take(len, c == '{' ? TikZLexer::BRACED : c == '[' ? TikZLexer::OPTIONS : TikZLexer::PAREN);
    }
    case '}':
    case ']':
    case ')':
    case '$':
      return take(1, TikZLexer::STRAY);
    case '-':
      if (at(1) == '-') return take(2, TikZLexer::LINE);
      if (at(1) == '|') return take(2, TikZLexer::VH);
      return take(1, TikZLexer::OTHER);
    case '|':
      if (at(1) == '-') return take(2, TikZLexer::HV);
      return take(1, TikZLexer::OTHER);
    case '.':
      if (at(1) == '.') return take(2, TikZLexer::DOTS);
      if (is_digit(at(1))) {
        std::size_t n = 1;
        while (is_digit(at(n))) ++n;
        return take(n, TikZLexer::NUMBER);
      }
      return take(1, TikZLexer::OTHER);
    case '+':
      if (at(1) == '+') return take(2, TikZLexer::PLUSPLUS);
      return take(1, TikZLexer::PLUS);
    case ';':
      return take(1, TikZLexer::SEMI);
    case ',':
      return take(1, TikZLexer::COMMA);
    case ':':
      return take(1, TikZLexer::COLON);
    case '=':
      return take(1, TikZLexer::EQ);
    default:
      break;
  }
  if (is_letter(c)) {
    std::size_t n = 1;
    while (is_letter(at(n))) ++n;
    return take(n, lookup(kKeywords, s.substr(pos_, n), TikZLexer::WORD));
  }
  if (is_digit(c)) {
    std::size_t n = 1;
    while (is_digit(at(n))) ++n;
    if (at(n) == '.') {
      ++n;
      while (is_digit(at(n))) ++n;
    }
    return take(n, TikZLexer::NUMBER);
  }
  return take(1, TikZLexer::OTHER);
}

std::unique_ptr<antlr4::Token> ByteLexer::nextToken() {
  std::size_t start = 0, stop = 0;
  std::size_t type = next_token(start, stop);
  auto token = std::make_unique<antlr4::CommonToken>(source_, type, antlr4::Token::DEFAULT_CHANNEL,
                                                     start, stop);
  token->setLine(1);
  token->setCharPositionInLine(start);
  return token;
}

}  // namespace tikzlint::grammar
