// tex/reader.cpp: the TeX reader (TeXbook chapter 8: states N, M, S) and directive comments.
#include "tex/reader.hpp"

#include <algorithm>
#include <cctype>

#include "support/ascii.hpp"

namespace tikzlint::tex {

namespace {

bool is_ascii_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f'; }

// GCC 12 at -O3 reports an overlap (-Wrestrict) for std::string::assign inlined into
// Reader::next, a known false positive of its string code: the source is the file's text or a
// literal, never the token's own buffer.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wrestrict"
#endif

// Fill `t` in place: its text keeps its buffer (a token's text is short, so this never
// allocates once the caller's token has held one).
void make(Token& t, Cat cat, std::string_view text, FileId id, std::uint32_t begin, std::uint32_t end) {
  t.cat = cat;
  t.run = false;
  t.text.assign(text.data(), text.size());
  t.file = id;
  t.offset = begin;
  t.origin_file = id;
  t.origin_begin = begin;
  t.origin_end = end;
  t.frame = 0;
  t.loop = 0;
  t.marker_id = 0;
}

Cat char_cat(char c) {
  switch (c) {
    case '{': return Cat::begin_group;
    case '}': return Cat::end_group;
    case '$': return Cat::math;
    case '&': return Cat::align;
    case '#': return Cat::param;
    case '^': return Cat::superscript;
    case '_': return Cat::subscript;
    case '~': return Cat::active;
    default: return is_ascii_letter(c) ? Cat::letter : Cat::other;
  }
}

// The classes of Reader::next_plain. Runs: 1 letters, 2 digits and the punctuation no
// statement reader looks at one by one. 3: a character that is one token of its own, never
// expandable, that the picture reader does look at (statement ends, animation specifications:
// ; ( ) [ ] : = -) or that has a category of its own ($ & # ^ _). 4: a blank, a newline or a
// comment sign (Reader::layout). 0: what Reader::next must read (\ { } ~, @ whose category depends on
// \makeatletter, non-ASCII and control characters).
struct PlainClasses {
  std::uint8_t of[256] = {};
  constexpr PlainClasses() {
    for (int c = 'a'; c <= 'z'; ++c) of[c] = 1;
    for (int c = 'A'; c <= 'Z'; ++c) of[c] = 1;
    for (int c = '0'; c <= '9'; ++c) of[c] = 2;
    for (char c : {'.', ',', '+', '*', '/', '<', '>', '!', '?', '|', '\'', '"', '`'})
      of[static_cast<unsigned char>(c)] = 2;
    for (char c : {';', '(', ')', '[', ']', ':', '=', '-', '$', '&', '#', '^', '_'})
      of[static_cast<unsigned char>(c)] = 3;
    for (char c : {' ', '\t', '\r', '\f'}) of[static_cast<unsigned char>(c)] = 4;
    of[static_cast<unsigned char>('\n')] = 4;
    of[static_cast<unsigned char>('%')] = 4;
  }
};
constexpr PlainClasses kPlainClasses;

// A run is capped so that the statement budget is still checked every so many bytes.
constexpr std::uint32_t kMaxRunBytes = 256;

}  // namespace

std::size_t utf8_length(std::string_view s, std::size_t i) {
  auto b = static_cast<unsigned char>(s[i]);
  if (b < 0x80) return b == 0 ? 0 : 1;
  std::size_t n = 0;
  std::uint32_t min = 0;
  if ((b & 0xE0) == 0xC0) n = 2, min = 0x80;
  else if ((b & 0xF0) == 0xE0) n = 3, min = 0x800;
  else if ((b & 0xF8) == 0xF0) n = 4, min = 0x10000;
  else return 0;
  if (i + n > s.size()) return 0;
  std::uint32_t cp = b & (0x7F >> n);
  for (std::size_t k = 1; k < n; ++k) {
    auto c = static_cast<unsigned char>(s[i + k]);
    if ((c & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (c & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

std::size_t find_invalid_utf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    std::size_t n = utf8_length(s, i);
    if (n == 0) return i;
    i += n;
  }
  return std::string_view::npos;
}

void Reader::end_input() {
  pos_ = static_cast<std::uint32_t>(file_->text().size());
}

bool Reader::next(Token& out, bool at_letter) {
  const std::string& s = file_->text();
  const auto size = static_cast<std::uint32_t>(s.size());
  auto letter = [&](char c) { return is_ascii_letter(c) || (at_letter && c == '@'); };
  while (pos_ < size) {
    const std::uint32_t start = pos_;
    const char c = s[pos_];
    if (c == '%' || c == '\n' || is_blank(c)) {
      if (layout(out)) return true;
      continue;
    }
    line_start_ = false;
    skip_blanks_ = false;
    if (c == '\\') {
      ++pos_;
      if (pos_ >= size) {
        make(out, Cat::other, "\\", id_, start, pos_);
        return true;
      }
      if (letter(s[pos_])) {
        std::uint32_t b = pos_;
        while (pos_ < size && letter(s[pos_])) ++pos_;
        make(out, Cat::control, std::string_view(s).substr(b, pos_ - b), id_, start, pos_);
        skip_blanks_ = true;
        return true;
      }
      std::size_t n = utf8_length(s, pos_);
      if (n == 0) n = 1;
      make(out, Cat::control, std::string_view(s).substr(pos_, n), id_, start, pos_ + static_cast<std::uint32_t>(n));
      if (s[pos_] == ' ') skip_blanks_ = true;
      if (s[pos_] == '\n') line_start_ = true;
      pos_ += static_cast<std::uint32_t>(n);
      return true;
    }
    std::size_t n = utf8_length(s, pos_);
    if (n == 0) {  // invalid UTF-8 or NUL: one replacement character, reported once
      if (!invalid_reported_) {
        invalid_reported_ = invalid_pending_ = true;
        invalid_at_ = pos_;
      }
      ++pos_;
      make(out, Cat::other, "\xEF\xBF\xBD", id_, start, pos_);
      return true;
    }
    if (n > 1) {
      pos_ += static_cast<std::uint32_t>(n);
      make(out, Cat::other, std::string_view(s).substr(start, n), id_, start, pos_);
      return true;
    }
    ++pos_;
    Cat cat = char_cat(c);
    if (c == '@' && at_letter) cat = Cat::letter;
    make(out, cat, std::string_view(&s[start], 1), id_, start, pos_);
    return true;
  }
  return false;
}

bool Reader::layout(Token& out) {
  const std::string& s = file_->text();
  const std::uint32_t start = pos_;
  const char c = s[start];
  if (c == '%') {  // comment: drop the rest of the line and the newline
    auto nl = s.find('\n', pos_);
    pos_ = nl == std::string::npos ? static_cast<std::uint32_t>(s.size()) : static_cast<std::uint32_t>(nl + 1);
    line_start_ = true;
    skip_blanks_ = false;
    return false;
  }
  ++pos_;
  if (c == '\n') {
    const bool was_start = line_start_, was_skip = skip_blanks_;
    line_start_ = true;
    skip_blanks_ = false;
    if (was_start) {
      make(out, Cat::par, "par", id_, start, start + 1);
      return true;
    }
    if (was_skip) return false;
    make(out, Cat::space, " ", id_, start, start + 1);
    return true;
  }
  // a blank: skipped at the start of a line and after a control word, else a space
  if (line_start_ || skip_blanks_) return false;
  skip_blanks_ = true;
  make(out, Cat::space, " ", id_, start, start + 1);
  return true;
}

bool Reader::next_plain(Token& out) {
  const std::string& s = file_->text();
  const auto size = static_cast<std::uint32_t>(s.size());
  while (pos_ < size) {
    const std::uint32_t start = pos_;
    const char c = s[start];
    const std::uint8_t cls = kPlainClasses.of[static_cast<unsigned char>(c)];
    switch (cls) {
      case 1:
      case 2: {  // a run
        const std::uint32_t stop = size - start > kMaxRunBytes ? start + kMaxRunBytes : size;
        std::uint32_t e = start + 1;
        while (e < stop && kPlainClasses.of[static_cast<unsigned char>(s[e])] == cls) ++e;
        pos_ = e;
        line_start_ = false;  // as Reader::next after any character that is not a blank
        skip_blanks_ = false;
        make(out, cls == 1 ? Cat::letter : Cat::other, std::string_view(s).substr(start, e - start), id_,
             start, e);
        out.run = e - start > 1;
        return true;
      }
      case 3:  // one character, one token
        pos_ = start + 1;
        line_start_ = false;
        skip_blanks_ = false;
        make(out, char_cat(c), std::string_view(s).substr(start, 1), id_, start, pos_);
        return true;
      case 4:  // a blank, a newline, a comment: as Reader::next reads them
        if (layout(out)) return true;
        continue;
      default:
        return false;  // Reader::next reads what the skipped blanks led to
    }
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// Directives: `% tikzlint: disable-next-line=rule1,rule2 -- reason`

namespace {

std::string trim(std::string_view s) {
  while (!s.empty() && is_ascii_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_ascii_space(s.back())) s.remove_suffix(1);
  return std::string(s);
}

// Offset of the comment character of a line, or npos (a `\%` is not a comment).
std::size_t comment_start(std::string_view line) {
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '\\') {
      ++i;
      continue;
    }
    if (line[i] == '%') return i;
  }
  return std::string_view::npos;
}

bool is_code_line(std::string_view line) {
  std::size_t pc = comment_start(line);
  std::string_view code = line.substr(0, pc == std::string_view::npos ? line.size() : pc);
  return !trim(code).empty();
}

}  // namespace

std::vector<Directive> scan_directives(const SourceFile& file, FileId id,
                                       std::vector<Diagnostic>& diags) {
  std::vector<Directive> out;
  const std::string& text = file.text();
  // Every directive names "tikzlint:"; most files have none, and one search rules that out.
  if (text.find("tikzlint:") == std::string::npos) return out;
  std::uint32_t line_begin = 0;
  for (std::uint32_t line = 1; line <= file.line_count(); ++line) {
    std::string_view lt = file.line_text(line);
    std::size_t pc = comment_start(lt);
    if (pc != std::string_view::npos) {
      std::string_view body = lt.substr(pc);
      while (!body.empty() && body.front() == '%') body.remove_prefix(1);
      std::string b = trim(body);
      const std::string prefix = "tikzlint:";
      if (b.rfind(prefix, 0) == 0) {
        Directive d;
        d.range = {id, static_cast<std::uint32_t>(line_begin + pc),
                   static_cast<std::uint32_t>(line_begin + lt.size()), true};
        std::string rest = trim(std::string_view(b).substr(prefix.size()));
        auto dash = rest.find("--");
        if (dash != std::string::npos) {
          d.reason = trim(std::string_view(rest).substr(dash + 2));
          rest = trim(std::string_view(rest).substr(0, dash));
        }
        auto eq = rest.find('=');
        d.kind = trim(std::string_view(rest).substr(0, eq));
        if (eq != std::string::npos) {
          std::string_view list = std::string_view(rest).substr(eq + 1);
          while (!list.empty()) {
            auto comma = list.find(',');
            std::string r = trim(list.substr(0, comma));
            if (!r.empty()) d.rules.push_back(r);
            if (comma == std::string_view::npos) break;
            list.remove_prefix(comma + 1);
          }
        }
        static const char* kinds[] = {"disable-next-line", "disable", "disable-file"};
        bool known = std::any_of(std::begin(kinds), std::end(kinds),
                                 [&](const char* k) { return d.kind == k; });
        if (!known || d.rules.empty()) {
          Diagnostic diag;
          diag.rule = "syntax-error";
          diag.severity = Severity::warning;
          diag.message = known ? "tikzlint directive names no rule"
                               : "unknown tikzlint directive '" + d.kind + "'";
          diag.range = d.range;
          diags.push_back(std::move(diag));
        } else {
          if (d.kind == "disable-next-line") {
            for (std::uint32_t l = line + 1; l <= file.line_count(); ++l) {
              if (is_code_line(file.line_text(l))) {
                d.applies_to_line = l;
                break;
              }
            }
          }
          out.push_back(std::move(d));
        }
      }
    }
    auto nl = text.find('\n', line_begin);
    if (nl == std::string::npos) break;
    line_begin = static_cast<std::uint32_t>(nl + 1);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------

void Serialiser::append(std::string_view s, std::uint32_t at) {
  if (s.size() == 1) {  // most tokens are one character: no out-of-line append or insert
    text_.push_back(s[0]);
    if (origin_) origin_->push_back(at);
    return;
  }
  text_ += s;
  if (origin_) origin_->insert(origin_->end(), s.size(), at);
}

void Serialiser::put_general(const Token& t) {
  if (after_word_ && t.cat == Cat::letter) append(" ", word_at_);
  after_word_ = false;
  switch (t.cat) {
    case Cat::marker:
      break;
    case Cat::par:
      append(" ", t.origin_begin);
      break;
    case Cat::space:
      if (!text_.empty() && text_.back() != ' ') append(" ", t.origin_begin);
      break;
    case Cat::control:
      append("\\", t.origin_begin);
      append(t.text, t.origin_begin);
      after_word_ = !t.text.empty() && (is_ascii_letter(t.text[0]) || t.text[0] == '@');
      word_at_ = t.origin_begin;
      break;
    default:
      if (t.run) {  // one character token per byte, each at its own offset
        text_ += t.text;
        if (origin_)
          for (std::uint32_t k = 0; k < t.text.size(); ++k) origin_->push_back(t.origin_begin + k);
        break;
      }
      append(t.text, t.origin_begin);
      break;
  }
}

void serialise(const TokenList& tokens, std::string& text, std::vector<std::uint32_t>* origin) {
  std::size_t bytes = text.size();
  for (const Token& t : tokens) bytes += t.text.size() + 2;
  text.reserve(bytes);
  if (origin) origin->reserve(bytes);
  Serialiser out(text, origin);
  for (const Token& t : tokens) out.put(t);
}

std::string to_string(const TokenList& tokens) {
  std::string s;
  serialise(tokens, s, nullptr);
  return s;
}

}  // namespace tikzlint::tex
