// tex/foreach.cpp: pgffor's \foreach (pgfmanual part VII, "Repeating Things: The Foreach
// Statement"). Each iteration runs its body in a group with the variables bound; the bindings
// are recorded on every token of the body for provenance.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "tex/expander.hpp"
#include "tex/pgfmath.hpp"

namespace tikzlint::tex {

namespace {

std::string trim(const std::string& s) {
  auto b = s.find_first_not_of(" \t\n\r");
  if (b == std::string::npos) return "";
  auto e = s.find_last_not_of(" \t\n\r");
  return s.substr(b, e - b + 1);
}


std::vector<TokenList> split(const TokenList& tokens, char sep) {
  std::vector<TokenList> out(1);
  int depth = 0;
  for (const Token& t : tokens) {
    if (t.cat == Cat::begin_group) ++depth;
    if (t.cat == Cat::end_group) --depth;
    if (depth == 0 && t.is_char(sep)) {
      out.emplace_back();
      continue;
    }
    out.back().push_back(t);
  }
  return out;
}

// A \foreach list at its commas. pgffor.code.tex \pgffor@scanround: an item that begins with `(`
// runs to the first `)` and on to the next comma, so `(2,3)` is one item.
std::vector<TokenList> split_items(const TokenList& tokens) {
  std::vector<TokenList> out(1);
  int depth = 0;
  bool in_round = false, at_start = true;
  for (const Token& t : tokens) {
    if (t.cat == Cat::begin_group) ++depth;
    if (t.cat == Cat::end_group) --depth;
    if (depth == 0) {
      if (at_start && t.is_char('(')) in_round = true;
      else if (in_round && t.is_char(')')) in_round = false;
      else if (!in_round && t.is_char(',')) {
        out.emplace_back();
        at_start = true;
        continue;
      }
    }
    if (at_start && !(t.cat == Cat::space)) at_start = false;
    out.back().push_back(t);
  }
  return out;
}

std::optional<double> as_number(const std::string& s) {
  if (s.empty()) return std::nullopt;
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size()) return std::nullopt;
  return v;
}

bool is_integer_text(const std::string& s) {
  if (s.empty()) return false;
  std::size_t i = s[0] == '-' || s[0] == '+' ? 1 : 0;
  if (i == s.size()) return false;
  for (; i < s.size(); ++i)
    if (s[i] < '0' || s[i] > '9') return false;
  return true;
}

bool is_single_letter(const std::string& s) {
  return s.size() == 1 && ((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z'));
}

}  // namespace

bool Expander::loop_marker(std::uint32_t id) const {
  for (const auto& l : loops_)
    if (l->marker == id) return true;
  return false;
}

void Expander::p_foreach(const Token& t) {
  auto loop = std::make_unique<Loop>();
  loop->site = t;
  std::vector<TokenList> options;
  Token x;
  // Header: variables \x/\y, options [..], then "in".
  while (true) {
    if (!next_raw(x) || x.cat == Cat::marker) {
      if (x.cat == Cat::marker) push_back(x);
      fatal("unterminated", "\\foreach without 'in'", t);
      return;
    }
    if (x.cat == Cat::space || x.is_char('/')) continue;
    if (x.cat == Cat::control) {
      loop->vars.push_back(x.text);
      continue;
    }
    if (x.is_char('[')) {
      push_back(x);
      TokenList o;
      bool present = false;
      if (!read_optional_raw(o, t, present)) return;
      options.push_back(std::move(o));
      continue;
    }
    if (x.is_char('i')) {
      Token n;
      if (next_raw(n) && n.is_char('n')) break;
      if (!n.text.empty()) push_back(n);
    }
    diagnose("syntax-error", Severity::error, "cannot read the \\foreach header (expected 'in')", t);
    push_back(x);
    return;
  }
  // The list: a braced group, or a macro holding the list.
  TokenList list;
  skip_spaces();
  if (!next_raw(x) || x.cat == Cat::marker) {
    if (x.cat == Cat::marker) push_back(x);
    fatal("unterminated", "\\foreach without a list", t);
    return;
  }
  if (x.cat == Cat::begin_group) {
    if (!read_balanced(list, t)) return;
  } else if (x.cat == Cat::control) {
    const Meaning* m = env_.find(x.text);
    if (m && m->kind == Meaning::Kind::macro && m->arity == 0 && m->params.empty()) {
      list = strip_braces(instantiate(x, *m, {}, true));
    } else {
      // Not defined by anything tikzlint expands; TeX may know it (\pgfmathtodigitlist{\l}{..},
      // \pgfkeysgetvalue, a package's list): what the loop draws is unknown, not wrong. Whether
      // the name is defined at all is the compiles rule's question (the TeX Live catalog).
      diagnose("unsupported-construct", Severity::warning,
               "\\foreach list \\" + x.text + " is not a list tikzlint could expand; the loop is skipped", x);
      return;
    }
  } else {
    diagnose("syntax-error", Severity::error, "cannot read the \\foreach list", x);
    push_back(x);
    return;
  }
  // The body: a group, or everything up to the next ';' at brace depth 0.
  skip_spaces();
  if (!next_raw(x) || x.cat == Cat::marker) {
    if (x.cat == Cat::marker) push_back(x);
    fatal("unterminated", "\\foreach without a body", t);
    return;
  }
  // pgffor.code.tex \pgffor@collectforeach: a body that is itself `\foreach VARS in LIST` takes
  // that head and then the inner loop's own body (a group, or to the ';')
  auto end_group_like = [](Token open) {  // the '}' read_balanced consumed, kept in the body
    open.cat = Cat::end_group;
    open.text = "}";
    return open;
  };
  while (x.cat == Cat::control && x.text == "foreach") {
    loop->body.push_back(x);
    Token prev;
    std::size_t depth = 0;
    while (true) {  // up to the first `in` outside braces (pgffor's `#1in`)
      if (!next_raw(x) || x.cat == Cat::marker) {
        if (x.cat == Cat::marker) push_back(x);
        fatal("unterminated", "\\foreach without a list", t);
        return;
      }
      if (x.cat == Cat::begin_group) ++depth;
      if (x.cat == Cat::end_group && depth > 0) --depth;
      loop->body.push_back(x);
      if (depth == 0 && (x.text == "in" || (x.is_char('n') && prev.is_char('i')))) break;
      if (loop->body.size() > limits_.max_token_count) {
        fatal("expansion-limit", "\\foreach body too long", t, {{"limit", limits_.max_token_count}});
        return;
      }
      prev = x;
    }
    skip_spaces();
    if (!next_raw(x) || x.cat == Cat::marker) {
      if (x.cat == Cat::marker) push_back(x);
      fatal("unterminated", "\\foreach without a list", t);
      return;
    }
    loop->body.push_back(x);
    if (x.cat == Cat::begin_group) {
      if (!read_balanced(loop->body, t)) return;
      loop->body.push_back(end_group_like(x));
    }
    skip_spaces();
    if (!next_raw(x) || x.cat == Cat::marker) {
      if (x.cat == Cat::marker) push_back(x);
      fatal("unterminated", "\\foreach without a body", t);
      return;
    }
  }
  if (x.cat == Cat::begin_group && !loop->body.empty()) {
    // the inner loop's body group stays a group in the outer body
    loop->body.push_back(x);
    if (!read_balanced(loop->body, t)) return;
    loop->body.push_back(end_group_like(x));
  } else if (x.cat == Cat::begin_group) {
    if (!read_balanced(loop->body, t)) return;
  } else {
    std::size_t depth = 0;
    while (true) {
      if (x.cat == Cat::begin_group) ++depth;
      if (x.cat == Cat::end_group && depth > 0) --depth;
      loop->body.push_back(x);
      if (depth == 0 && x.is_char(';')) break;
      if (loop->body.size() > limits_.max_token_count) {
        fatal("expansion-limit", "\\foreach body too long", t, {{"limit", limits_.max_token_count}});
        return;
      }
      if (!next_raw(x) || x.cat == Cat::marker) {
        if (x.cat == Cat::marker) push_back(x);
        fatal("unterminated", "\\foreach body without ';'", t);
        return;
      }
    }
  }

  // Options (pgfmanual: var, evaluate, remember, count, parse, expand list).
  for (const TokenList& opt : options) {
    for (const TokenList& item : split(opt, ',')) {
      TokenList it = trim_tokens(item);
      if (it.empty()) continue;
      auto kv = split(it, '=');
      std::string key = trim(to_string(kv[0]));
      TokenList value;
      for (std::size_t i = 1; i < kv.size(); ++i) value.insert(value.end(), kv[i].begin(), kv[i].end());
      value = trim_tokens(value);
      auto words = [&](const TokenList& v) {  // split "\x as \y using expr"
        std::vector<TokenList> parts(1);
        for (std::size_t i = 0; i < v.size(); ++i) {
          if (v[i].cat == Cat::letter && parts.size() < 3) {
            std::string w;
            std::size_t j = i;
            while (j < v.size() && v[j].cat == Cat::letter) w += v[j++].text;
            bool sep_before = i == 0 || v[i - 1].cat == Cat::space || v[i - 1].cat == Cat::control ||
                              v[i - 1].is_char('(');
            if (sep_before && (w == "as" || w == "using" || w == "from" || w == "initially")) {
              parts.emplace_back();
              parts.back().push_back(v[i]);  // tag, removed below
              i = j - 1;
              parts.back().back().text = w;
              continue;
            }
          }
          parts.back().push_back(v[i]);
        }
        return parts;
      };
      if (key == "var") {
        for (const Token& v : value)
          if (v.cat == Cat::control) loop->vars.push_back(v.text);
      } else if (key == "count") {
        auto parts = words(value);
        for (const Token& v : parts[0])
          if (v.cat == Cat::control) loop->count_var = v.text;
        if (parts.size() > 1) {
          TokenList from(parts[1].begin() + 1, parts[1].end());
          loop->count_from = std::atol(trim(to_string(expand_fully(from))).c_str());
        }
      } else if (key == "evaluate") {
        auto parts = words(value);
        Loop::Evaluate ev;
        for (const Token& v : parts[0])
          if (v.cat == Cat::control) ev.var = v.text;
        ev.as = ev.var;
        for (std::size_t p = 1; p < parts.size(); ++p) {
          const std::string tag = parts[p].front().text;
          TokenList rest(parts[p].begin() + 1, parts[p].end());
          if (tag == "as") {
            for (const Token& v : rest)
              if (v.cat == Cat::control) ev.as = v.text;
          } else if (tag == "using") {
            ev.expr = trim_tokens(rest);
          }
        }
        if (ev.expr.empty()) {
          Token v = t;
          v.cat = Cat::control;
          v.text = ev.var;
          ev.expr.push_back(v);
        }
        loop->evaluates.push_back(std::move(ev));
      } else if (key == "remember") {
        auto parts = words(value);
        for (const Token& v : parts[0])
          if (v.cat == Cat::control) loop->remember_var = v.text;
        loop->has_remember = true;
        for (std::size_t p = 1; p < parts.size(); ++p) {
          const std::string tag = parts[p].front().text;
          TokenList rest(parts[p].begin() + 1, parts[p].end());
          if (tag == "as") {
            for (const Token& v : rest)
              if (v.cat == Cat::control) loop->remember_as = v.text;
          } else if (tag == "initially") {
            // "(initially A)": the value sits before the closing parenthesis.
            rest = trim_tokens(rest);
            if (!rest.empty() && rest.back().is_char(')')) rest.pop_back();
            loop->remembered = trim_tokens(rest);
          }
        }
        // "\x as \y (initially A)": drop a dangling "(" from the "as" part.
      } else if (key == "parse" || key == "expand list") {
        // Range ends are always evaluated with pgfmath when they are not plain numbers.
      } else {
        diagnose("unsupported-key", Severity::warning, "\\foreach option '" + key + "' is not supported", t);
      }
    }
  }
  if (loop->vars.empty()) {
    diagnose("syntax-error", Severity::error, "\\foreach without a variable", t);
    return;
  }

  // Items: expanded, split at commas, with `...` ranges resolved.
  std::vector<TokenList> raw;
  for (TokenList& it : split_items(expand_fully(std::move(list)))) raw.push_back(strip_braces(std::move(it)));
  if (stopped_) return;
  if (!raw.empty() && raw.back().empty()) raw.pop_back();
  std::vector<TokenList> items;
  std::size_t literal_from = 0;  // items before this index were produced by a range
  for (std::size_t i = 0; i < raw.size(); ++i) {
    std::string text = trim(to_string(raw[i]));
    if (text != "...") {
      items.push_back(raw[i]);
      continue;
    }
    if (items.empty() || i + 1 >= raw.size()) {
      diagnose("syntax-error", Severity::error, "'...' in a \\foreach list needs items before and after it", t);
      return;
    }
    std::string a = trim(to_string(items.back()));
    std::string end = trim(to_string(raw[i + 1]));
    bool has_prev = items.size() >= 2 && items.size() - 2 >= literal_from;
    std::string p = has_prev ? trim(to_string(items[items.size() - 2])) : "";
    Token at = raw[i].empty() ? t : raw[i].front();
    if (is_single_letter(a) && is_single_letter(end)) {  // letters: a,...,e
      int step = has_prev && is_single_letter(p) ? a[0] - p[0] : (end[0] >= a[0] ? 1 : -1);
      if (step == 0) step = 1;
      for (int c = a[0] + step; step > 0 ? c <= end[0] : c >= end[0]; c += step)
        items.push_back(string_tokens(std::string(1, static_cast<char>(c)), at));
    } else {
      pgfmath::Context ctx;
      auto num = [&](const std::string& s) -> std::optional<double> {
        if (auto v = as_number(s)) return v;
        auto r = pgfmath::evaluate(s, ctx);
        if (r) return r.value->number;
        return std::nullopt;
      };
      auto va = num(a), ve = num(end);
      auto vp = has_prev ? num(p) : std::nullopt;
      if (!va || !ve || (has_prev && !vp)) {
        // A macro parameter or control sequence left in the range is something tikzlint did not
        // expand (a key's code run later by TeX, a package macro): unknown, not wrong.
        const std::string all = a + end + (has_prev ? p : std::string());
        if (all.find('#') != std::string::npos || all.find('\\') != std::string::npos)
          diagnose("unsupported-construct", Severity::warning,
                   "cannot expand the range '" + a + ",...," + end + "'; the loop is skipped", at);
        else
          diagnose("syntax-error", Severity::error, "cannot read the range '" + a + ",...," + end + "'", at);
        return;
      }
      double step = vp ? *va - *vp : (*ve >= *va ? 1.0 : -1.0);
      if (step == 0) {
        fatal("expansion-limit", "\\foreach range with step 0 never ends", at,
              {{"start", *va}, {"end", *ve}, {"name", "max_loop_iterations"}});
        return;
      }
      double n = std::floor((*ve - *va) / step + 1e-9);
      if (n < 0) n = 0;
      // Refuse up front: the count is known before anything is generated.
      if (n + static_cast<double>(items.size()) > static_cast<double>(limits_.max_loop_iterations)) {
        fatal("expansion-limit",
              "\\foreach over " + std::to_string(static_cast<long long>(std::min(n + 1, 1e18))) + " items exceeds the limit of " +
                  std::to_string(limits_.max_loop_iterations),
              t, {{"items", n + 1}, {"limit", limits_.max_loop_iterations}, {"name", "max_loop_iterations"}});
        return;
      }
      bool integral = is_integer_text(a) && (!has_prev || is_integer_text(p));
      for (long k = 1; k <= static_cast<long>(n); ++k) {
        double v = *va + static_cast<double>(k) * step;
        std::string s = integral ? std::to_string(std::llround(v)) : pgfmath::format_number(v);
        items.push_back(string_tokens(s, at));
      }
    }
    ++i;  // the end item was consumed by the range
    literal_from = items.size();
  }
  if (items.size() > limits_.max_loop_iterations) {
    fatal("expansion-limit",
          "\\foreach over " + std::to_string(items.size()) + " items exceeds the limit of " +
              std::to_string(limits_.max_loop_iterations),
          t, {{"items", items.size()}, {"limit", limits_.max_loop_iterations}, {"name", "max_loop_iterations"}});
    return;
  }
  // Tuples: \x/\y take the parts of an item; missing parts repeat the last one.
  for (const TokenList& it : items) {
    std::vector<TokenList> parts = loop->vars.size() > 1 ? split(it, '/') : std::vector<TokenList>{it};
    std::vector<TokenList> values;
    for (std::size_t v = 0; v < loop->vars.size(); ++v)
      values.push_back(strip_braces(v < parts.size() ? parts[v] : parts.back()));
    loop->items.push_back(std::move(values));
  }
  if (loop->items.empty()) return;
  // Budget by product: this loop's work, times the iterations the loops around it have still to
  // run (this one included in each), is known now; refuse before anything runs.
  // Statements at the body's own level: those of a braced inner loop count in its own plan.
  std::size_t semis = 0, depth = 0;
  for (const Token& b : loop->body) {
    if (b.cat == Cat::begin_group) ++depth;
    else if (b.cat == Cat::end_group && depth > 0) --depth;
    else if (depth == 0 && b.is_char(';')) ++semis;
  }
  loop->body_statements = semis;
  double planned = static_cast<double>(loop->items.size()) * static_cast<double>(std::max<std::size_t>(1, semis));
  std::string shape = std::to_string(loop->items.size());
  for (const auto& outer : loops_) {
    const std::size_t left = outer->items.size() - outer->index;  // the current one included
    planned *= static_cast<double>(left);
    shape = std::to_string(left) + " x " + shape;
  }
  if (static_cast<double>(loop_work_) + planned > static_cast<double>(limits_.max_loop_work)) {
    std::ostringstream n;
    n.precision(0);
    n << std::fixed << std::min(planned, 1e18);
    fatal("expansion-limit",
          "\foreach would run " + n.str() + " statements (" + shape + " iterations x " +
              std::to_string(std::max<std::size_t>(1, semis)) + " statements), over the limit of " +
              std::to_string(limits_.max_loop_work),
          t, {{"work", planned}, {"limit", limits_.max_loop_work}, {"name", "max_loop_work"}});
    return;
  }
  loop->marker = next_marker_++;
  loops_.push_back(std::move(loop));
  start_iteration(loops_.size() - 1);
}

void Expander::start_iteration(std::size_t li) {
  Loop& loop = *loops_[li];
  loop_work_ += loop.body_statements;
  if (loop_work_ > limits_.max_loop_work) {  // loops that were each within it, one after another
    fatal("expansion-limit",
          "\\foreach bodies ran more than " + std::to_string(limits_.max_loop_work) + " statements in the file",
          loop.site, {{"limit", limits_.max_loop_work}, {"name", "max_loop_work"}});
    return;
  }
  loop.base_depth = env_.depth();
  if (!begin_group(loop.site)) return;
  LoopNode node;
  node.parent = loop.site.loop;
  auto bind = [&](const std::string& var, TokenList value) {
    auto m = std::make_shared<Meaning>();
    m->body = std::move(value);
    env_.set(var, m, false);
    LoopBinding b;
    b.variable = "\\" + var;
    b.value = trim(to_string(m->body));
    b.iteration = static_cast<std::uint32_t>(loop.index);
    b.loop_site = range_of(loop.site);
    node.bindings.push_back(std::move(b));
  };
  const auto& values = loop.items[loop.index];
  for (std::size_t v = 0; v < loop.vars.size(); ++v) bind(loop.vars[v], values[v]);
  if (!loop.count_var.empty())
    bind(loop.count_var, string_tokens(std::to_string(loop.count_from + static_cast<long>(loop.index)), loop.site));
  if (loop.has_remember && !loop.remember_as.empty()) {
    auto m = std::make_shared<Meaning>();
    m->body = loop.remembered;
    env_.set(loop.remember_as, m, false);
  }
  for (const auto& ev : loop.evaluates) {
    bool len = false;
    auto v = evaluate(ev.expr, loop.site, len);
    if (v) bind(ev.as, string_tokens(pgfmath::format_number(*v), loop.site));
  }
  loop_nodes_.push_back(std::move(node));
  auto lid = static_cast<std::uint32_t>(loop_nodes_.size() - 1);
  Token mk;
  mk.cat = Cat::marker;
  mk.marker_id = loop.marker;
  push_back(mk);
  TokenList body = loop.body;
  for (Token& b : body) b.loop = lid;
  push_back(std::move(body));
}

void Expander::finish_iteration(std::uint32_t marker) {
  std::size_t li = loops_.size();
  for (std::size_t i = loops_.size(); i-- > 0;)
    if (loops_[i]->marker == marker) li = i;
  if (li == loops_.size()) return;
  // Loops opened inside this one and not finished (a broken body) are abandoned.
  while (loops_.size() > li + 1) loops_.pop_back();
  Loop& loop = *loops_[li];
  if (loop.has_remember && !loop.remember_var.empty()) {
    if (const Meaning* m = env_.find(loop.remember_var)) loop.remembered = m->body;
  }
  while (env_.depth() > loop.base_depth) end_group();
  ++loop.index;
  if (loop.index < loop.items.size() && !stopped_) start_iteration(li);
  else loops_.pop_back();
}

}  // namespace tikzlint::tex
