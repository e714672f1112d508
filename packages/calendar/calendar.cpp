// packages/calendar/calendar.cpp: \calendar (pgfmanual 49 "Calendar Library"), rewritten into plain
// statements (ir/library.hpp).
//
// tikzlibrarycalendar.code.tex runs \pgfcalendar (utilities/pgfcalendar.code.tex) over the days
// of `dates`; around every day's scope the arrangement's `execute before/after day scope` code
// shifts the transformation, and that shift accumulates from day to day; inside the scope the
// `execute at begin day scope` code shifts once more, the `if` options apply, and \tikzdaycode
// puts `\node[name=<calendar>-YYYY-MM-DD, every day] {\tikzdaytext};` at the origin.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <ctime>
#include <set>

#include "ir/library.hpp"
#include "packages/support.hpp"

namespace tikzlint::ir {

namespace {

// tikzlibrarycalendar.code.tex: \tikz@lib@cal@xshift / yshift / month@xshift / month@yshift.
constexpr const char* kDayXShift = "3.5ex";
constexpr const char* kDayYShift = "3ex";
constexpr const char* kMonthXShift = "9ex";
constexpr const char* kMonthYShift = "9ex";
// tikzlibrarycalendar.code.tex: `every day/.style={anchor=base east}`.
constexpr const char* kEveryDay = "anchor=base east";
// The month labels' own shifts (month label left: xshift=-3.5ex; above left: -3.25ex; the
// centered ones -1.5ex; above/below: 1.25 day yshifts).
constexpr double kLabelRowFactor = 1.25;
// The longest calendar lowered: 10,000 days (27 years) is several hundred pages of days, and TeX
// runs out of main memory long before a 1000-year calendar (a fuzzer's input took minutes here).
constexpr long kMaxDays = 10000;

std::string pt(double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.5fpt", v);
  return buf;
}

std::string serialise(const std::vector<tex::FlatKey>& keys) {
  std::string out;
  for (const auto& k : keys) {
    if (!out.empty()) out += ", ";
    // `nodes=` (tikz.code.tex) is `every node/.append style`: the form lowering applies to nodes
    if (k.key == "nodes") out += "every node/.append style={" + k.value + "}";
    else out += k.has_value ? k.key + "={" + k.value + "}" : k.key;
  }
  return out;
}

// ---- dates (pgfcalendar.code.tex: \pgfcalendardatetojulian, \pgfcalendarjuliantoweekday)

long julian(long y, long m, long d) {
  const long a = (14 - m) / 12, yy = y + 4800 - a, mm = m + 12 * a - 3;
  return d + (153 * mm + 2) / 5 + 365 * yy + yy / 4 - yy / 100 + yy / 400 - 32045;
}
struct Date {
  long y = 0, m = 0, d = 0;
};
Date from_julian(long j) {
  const long a = j + 32044, b = (4 * a + 3) / 146097, c = a - 146097 * b / 4;
  const long d = (4 * c + 3) / 1461, e = c - 1461 * d / 4, m = (5 * e + 2) / 153;
  return {100 * b + d - 4800 + m / 10, m + 3 - 12 * (m / 10), e - (153 * m + 2) / 5 + 1};
}
int weekday(long j) { return static_cast<int>(j % 7); }  // 0 = Monday, as pgfcalendar counts
long days_in_month(long y, long m) { return julian(m == 12 ? y + 1 : y, m == 12 ? 1 : m + 1, 1) - julian(y, m, 1); }

std::optional<long> parse_number(std::string_view s) {
  s = text_trim(s);
  if (s.empty()) return std::nullopt;
  bool neg = false;
  if (s[0] == '-' || s[0] == '+') {
    neg = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s.empty()) return std::nullopt;
  long v = 0;
  for (char c : s) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
    v = v * 10 + (c - '0');
  }
  return neg ? -v : v;
}

// "YYYY-MM-DD", "YYYY-MM-last", with an optional "+N" (N may be negative); "MM-DD" takes the
// year of `year` (pgfcalendar's \pgfcalendar@special@datetojulian).
std::optional<long> parse_date(std::string_view text, std::optional<long> year = std::nullopt) {
  std::string t(text_trim(text));
  long offset = 0;
  if (auto plus = t.find('+'); plus != std::string::npos) {
    auto o = parse_number(std::string_view(t).substr(plus + 1));
    if (!o) return std::nullopt;
    offset = *o;
    t = t.substr(0, plus);
  }
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= t.size(); ++i)
    if (i == t.size() || t[i] == '-') {
      parts.push_back(std::string(text_trim(std::string_view(t).substr(start, i - start))));
      start = i + 1;
    }
  if (parts.size() == 2 && year) parts.insert(parts.begin(), std::to_string(*year));
  if (parts.size() != 3) return std::nullopt;
  auto y = parse_number(parts[0]), m = parse_number(parts[1]);
  if (!y || !m || *m < 1 || *m > 12) return std::nullopt;
  long d = 0;
  if (parts[2] == "last") d = days_in_month(*y, *m);
  else if (auto dd = parse_number(parts[2])) d = *dd;
  else return std::nullopt;
  return julian(*y, *m, d) + offset;
}

const char* const kMonthNames[] = {"January", "February", "March",     "April",   "May",      "June",
                                   "July",    "August",   "September", "October", "November", "December"};
const char* const kDayNames[] = {"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"};

std::string two_digits(long v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%02ld", v);
  return buf;
}

// pgfcalendar's shorthands (\%d-, \%d=, \%d0, \%m-, \%mt, \%y0, \%w. ...) for day `j`.
std::string substitute_shorthands(const std::string& text, long j) {
  const Date dt = from_julian(j);
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text.compare(i, 2, "\\%") == 0 && i + 3 < text.size()) {
      const char what = text[i + 2], form = text[i + 3];
      std::string rep;
      bool known = true;
      const long v = what == 'd' ? dt.d : what == 'm' ? dt.m : dt.y;
      if ((what == 'd' || what == 'm') && form == '-') rep = std::to_string(v);
      else if ((what == 'd' || what == 'm') && form == '=') rep = (v < 10 ? "\\phantom{1}" : "") + std::to_string(v);
      else if ((what == 'd' || what == 'm') && form == '0') rep = two_digits(v);
      else if (what == 'y' && (form == '-' || form == '=' || form == '0')) rep = std::to_string(dt.y);
      else if (what == 'm' && form == 't') rep = kMonthNames[dt.m - 1];
      else if (what == 'm' && form == '.') rep = std::string(kMonthNames[dt.m - 1]).substr(0, 3);
      else if (what == 'w' && form == 't') rep = kDayNames[weekday(j)];
      else if (what == 'w' && form == '.') rep = std::string(kDayNames[weekday(j)]).substr(0, 3);
      else known = false;
      if (known) {
        out += rep;
        i += 3;
        continue;
      }
    }
    out += text[i];
  }
  return out;
}

// TeX's \year, \month and \day are the date of the run (The TeXbook, ch. 24): today's.
std::string substitute_today(std::string text) {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  localtime_r(&now, &tm);
  const std::pair<const char*, int> parts[] = {
      {"year", tm.tm_year + 1900}, {"month", tm.tm_mon + 1}, {"day", tm.tm_mday}};
  for (const auto& [word, value] : parts) {
    for (const std::string& cs : {std::string("\\the\\") + word, std::string("\\") + word}) {
      for (std::size_t at = text.find(cs); at != std::string::npos; at = text.find(cs, at)) {
        const std::size_t end = at + cs.size();
        if (end < text.size() && std::isalpha(static_cast<unsigned char>(text[end]))) {
          at = end;
          continue;
        }
        std::size_t stop = end;
        while (stop < text.size() && text[stop] == ' ') ++stop;  // a control word eats its spaces
        text.replace(at, stop - at, std::to_string(value));
      }
    }
  }
  return text;
}

// One `if (condition) [options] or {code}  else ...` of the calendar.
struct Branch {
  std::string options, code;
  bool has_code = false;
};
struct Condition {
  std::string test;
  Branch then, otherwise;
  std::uint32_t begin = 0, end = 0;
};

// pgfcalendar.code.tex's /pgf/calendar keys: any of them matching makes the test true.
// nullopt: a test this lowering does not know.
std::optional<bool> date_matches(const std::string& test, long j) {
  const Date dt = from_julian(j);
  const int wd = weekday(j);
  bool any = false;
  for (const auto& item : tex::split_options(test)) {
    const std::string key = tex::normalise_key(item.key);
    const std::string v = tex::strip_braces(item.value);
    bool m = false;
    if (key == "all") m = true;
    else if (auto day = std::find(std::begin(kDayNames), std::end(kDayNames), key); day != std::end(kDayNames))
      m = wd == day - std::begin(kDayNames);
    else if (key == "workday") m = wd < 5;
    else if (key == "weekend") m = wd > 4;
    else if (key == "day of month") {
      auto n = parse_number(v);
      if (!n) return std::nullopt;
      m = *n == dt.d;
    } else if (key == "end of month") {
      auto n = item.has_value ? parse_number(v) : std::optional<long>(1);
      if (!n) return std::nullopt;
      m = from_julian(j + *n).d == 1;
    } else if (key == "equals" || key == "at least" || key == "at most") {
      auto o = parse_date(v, dt.y);
      if (!o) return std::nullopt;
      m = key == "equals" ? j == *o : key == "at least" ? j >= *o : j <= *o;
    } else if (key == "between") {
      const std::size_t and_at = v.find(" and ");
      if (and_at == std::string::npos) return std::nullopt;
      auto lo = parse_date(v.substr(0, and_at), dt.y), hi = parse_date(v.substr(and_at + 5), dt.y);
      if (!lo || !hi) return std::nullopt;
      m = j >= *lo && j <= *hi;
    } else {
      return std::nullopt;
    }
    any = any || m;
  }
  return any;
}

// The path commands a code block may hold.
bool is_path_command(std::string_view t) {
  static const std::set<std::string, std::less<>> kPath = {
      "\\node", "\\draw", "\\path", "\\fill", "\\filldraw", "\\shade", "\\shadedraw", "\\clip", "\\coordinate", "\\pic"};
  std::size_t j = 1;
  if (t.empty() || t[0] != '\\') return false;
  while (j < t.size() && std::isalpha(static_cast<unsigned char>(t[j]))) ++j;
  return kPath.count(t.substr(0, j)) > 0;
}

// TikZ code of `day code=` or an `if` branch, as statements; false when it holds anything else.
// `\tikzmonthcode` stands for the month node.
bool code_statements(const std::string& code, const std::string& month_node, std::vector<std::string>& out) {
  std::size_t start = 0;
  int depth = 0;
  auto flush = [&](std::size_t end) {
    std::string s(text_trim(std::string_view(code).substr(start, end - start)));
    start = end;
    if (s.empty()) return true;
    if (s == "\\tikzmonthcode" || s == "\\tikzmonthcode;") {
      out.push_back(month_node);
      return true;
    }
    if (!is_path_command(s)) return false;
    if (s.back() != ';') s += ";";
    out.push_back(s);
    return true;
  };
  for (std::size_t i = 0; i < code.size(); ++i) {
    const char ch = code[i];
    if (ch == '\\') {
      // \color{..} only paints what follows
      if (depth == 0 && code.compare(i, 7, "\\color{") == 0) {
        if (!flush(i)) return false;
        const std::size_t e = text_skip_group(code, i + 6);
        if (e == std::string::npos) return false;
        start = e;
        i = e - 1;
        continue;
      }
      if (depth == 0 && code.compare(i, 14, "\\tikzmonthcode") == 0) {
        if (!flush(i)) return false;
        i += 13;
        if (!flush(i + 1)) return false;
        continue;
      }
      ++i;
      continue;
    }
    if (ch == '{') ++depth;
    else if (ch == '}') --depth;
    else if (ch == ';' && depth == 0 && !flush(i + 1)) return false;
  }
  return flush(code.size());
}

}  // namespace

bool lower_calendar(const tex::Statement& st, LibraryHost& host) {
  const std::string& t = st.text;
  std::size_t i = text_skip_space(t, 0);
  if (t.compare(i, 9, "\\calendar") != 0 || (i + 9 < t.size() && std::isalpha(static_cast<unsigned char>(t[i + 9]))))
    return false;
  i += 9;
  const std::uint32_t whole_e = static_cast<std::uint32_t>(t.size());
  // tikzlibrarycalendar.code.tex \tikz@lib@cal@handle: (name), at (point), [options], if ... until ';'
  std::string name, at = "(0,0)", options;
  std::uint32_t opt_b = 0, opt_e = whole_e;
  std::vector<Condition> conditions;
  auto read_branch = [&](std::size_t& j, Branch& b) {
    j = text_skip_space(t, j);
    if (j < t.size() && (t[j] == '[' || t[j] == '{')) {
      const std::size_t e = text_skip_group(t, j);
      if (e == std::string::npos) return false;
      (t[j] == '[' ? b.options : b.code) = t.substr(j + 1, e - j - 2);
      b.has_code = t[j] == '{';
      j = e;
      return true;
    }
    return false;
  };
  while (true) {
    i = text_skip_space(t, i);
    if (i >= t.size() || t[i] == ';') break;
    if (t[i] == '(' || t[i] == '[') {
      const std::size_t e = text_skip_group(t, i);
      if (e == std::string::npos) return false;
      if (t[i] == '(') {
        name = std::string(text_trim(std::string_view(t).substr(i + 1, e - i - 2)));
      } else {
        options += (options.empty() ? "" : ",") + t.substr(i + 1, e - i - 2);
        if (opt_b == 0) opt_b = static_cast<std::uint32_t>(i);
        opt_e = static_cast<std::uint32_t>(e);
      }
      i = e;
    } else if (t.compare(i, 2, "at") == 0) {
      std::size_t j = text_skip_space(t, i + 2);
      if (j >= t.size() || t[j] != '(') return false;
      const std::size_t e = text_skip_group(t, j);
      if (e == std::string::npos) return false;
      at = t.substr(j, e - j);
      i = e;
    } else if (t.compare(i, 2, "if") == 0) {
      Condition c;
      c.begin = static_cast<std::uint32_t>(i);
      std::size_t j = text_skip_space(t, i + 2);
      if (j >= t.size() || t[j] != '(') return false;
      const std::size_t e = text_skip_group(t, j);
      if (e == std::string::npos) return false;
      c.test = substitute_today(t.substr(j + 1, e - j - 2));
      j = e;
      if (!read_branch(j, c.then)) return false;
      std::size_t k = text_skip_space(t, j);
      if (t.compare(k, 4, "else") == 0) {
        j = k + 4;
        if (!read_branch(j, c.otherwise)) return false;
      }
      c.end = static_cast<std::uint32_t>(j);
      conditions.push_back(c);
      i = j;
    } else {
      return false;
    }
  }

  host.emit("\\begin{scope}", 0, 0);  // the calendar's options stay local (\begingroup)
  const std::vector<tex::FlatKey> flat = host.expand_keys(options);
  std::vector<tex::FlatKey> scene;
  bool days_unplaced = false;  // code moves the days that is not run
  std::string dates, day_xshift = kDayXShift, day_yshift = kDayYShift, month_xshift = kMonthXShift,
                     month_yshift = kMonthYShift, day_text = "\\%d-", month_text = "\\%mt", day_code, days;
  std::string arrangement;                 // day list downward / ... / week list / month list
  std::vector<std::string> month_labels;   // in option order
  double width_factor = 1;                 // \tikz@lib@cal@width
  for (const auto& k : flat) {
    const std::string v(text_trim(k.value));
    if (k.key == "dates") dates = substitute_today(v);
    else if (k.key == "day xshift") day_xshift = v;
    else if (k.key == "day yshift") day_yshift = v;
    else if (k.key == "month xshift") month_xshift = v;
    else if (k.key == "month yshift") month_yshift = v;
    else if (k.key == "day text") day_text = v;
    else if (k.key == "month text") month_text = v;
    else if (k.key == "day code") day_code = v;
    else if (k.key == "days") days += (days.empty() ? "" : ",") + v;
    else if (k.key == "name") name = v;
    else if (k.key == "at") at = v;
    else if (k.key == "day list downward" || k.key == "day list upward" || k.key == "day list right" ||
             k.key == "day list left" || k.key == "week list" || k.key == "month list") {
      arrangement = k.key;
      // \tikz@lib@cal@width of each arrangement, in day xshifts
      if (k.key == "week list") width_factor = 7;
      else if (k.key == "month list") width_factor = 37;
      else if (k.key == "day list right" || k.key == "day list left") width_factor = 30;
      else width_factor = 1;
    } else if (k.key.rfind("month label ", 0) == 0) {
      static const std::set<std::string> kLabels = {
          "month label left",           "month label left vertical", "month label right",
          "month label right vertical", "month label above centered", "month label above left",
          "month label above right",    "month label below centered", "month label below left"};
      if (kLabels.count(k.key)) month_labels.push_back(k.key);
      else scene.push_back(k);
    } else if (k.key.rfind("execute ", 0) == 0 || k.key == "month code" || k.key == "year code" ||
               k.key == "year text") {
      // code run around each day's scope may move the days (\pgftransformshift): where they are
      // is not known, the geometry is lost
      if (k.key.rfind("execute ", 0) == 0) {
        host.problem("unsupported-construct",
                     "calendar option '" + k.key + "' is not modelled: where the days are is not known", opt_b, opt_e);
        days_unplaced = true;
      } else {
        host.problem("unsupported-key", "calendar option '" + k.key + "' is not modelled", opt_b, opt_e);
      }
    } else if (k.key.find("/.") == std::string::npos) {
      scene.push_back(k);
    }
  }
  const std::size_t to = dates.find(" to ");
  std::optional<long> first, last;
  if (to != std::string::npos) {
    first = parse_date(dates.substr(0, to));
    last = parse_date(dates.substr(to + 4));
  }
  if (!first || !last) {
    host.problem("unsupported-construct", "cannot read the calendar's dates '" + dates + "'", opt_b, opt_e);
    host.emit("\\end{scope}", 0, 0);
    return true;
  }
  if (*last - *first + 1 > kMaxDays) {  // refused up front, like a \foreach range (tex::Limits)
    host.problem("resource-limit",
                 "calendar of " + std::to_string(*last - *first + 1) + " days; limit " + std::to_string(kMaxDays),
                 opt_b, opt_e);
    host.emit("\\end{scope}", 0, 0);
    return true;
  }
  auto length = [&](const std::string& expr) {
    std::string err;
    auto v = host.eval(expr, &err);
    if (!v) host.problem("math-error", "cannot evaluate calendar shift '" + expr + "': " + err, opt_b, opt_e, false);
    return v ? v->value : 0.0;
  };
  const double dxs = length(day_xshift), dys = length(day_yshift), mxs = length(month_xshift),
               mys = length(month_yshift);
  auto ex = [&](double n) { return length(std::to_string(n) + "ex"); };

  // every day: the library's default unless the picture redefined it
  std::vector<tex::FlatKey> every_day = host.expand_keys("every day");
  std::string day_keys = every_day.size() == 1 && every_day[0].key == "every day" && !every_day[0].has_value
                             ? std::string(kEveryDay)
                             : serialise(every_day);
  if (!days.empty()) day_keys += (day_keys.empty() ? "" : ", ") + serialise(host.expand_keys(days));
  std::vector<tex::FlatKey> every_month = host.expand_keys("every month");
  std::string user_month = every_month.size() == 1 && every_month[0].key == "every month" ? "" : serialise(every_month);

  // the month node of a label style (tikzlibrarycalendar.code.tex `month label ...`), relative
  // to the day origin when the label is drawn
  auto month_node = [&](const std::string& label, long j, Point& shift) {
    std::string keys;
    const double right_edge = width_factor * dxs - dxs;
    shift = {0, 0};
    if (label == "month label left") keys = "anchor=base east, xshift=-3.5ex";
    else if (label == "month label left vertical") keys = "anchor=base east, xshift=-4.5ex, yshift=2.25ex, rotate=90";
    else if (label == "month label right") {
      shift.x = right_edge;
      keys = "anchor=base west, xshift=1ex";
    } else if (label == "month label right vertical") {
      shift.x = right_edge;
      keys = "anchor=base west, xshift=2ex, yshift=2.25ex, rotate=-90";
    } else if (label == "month label above centered" || label == "month label below centered") {
      shift = {0.5 * right_edge - ex(1.5), (label == "month label above centered" ? 1 : -1) * kLabelRowFactor * dys};
      keys = "anchor=base";
    } else if (label == "month label above left" || label == "month label below left") {
      shift = {-ex(3.25), (label == "month label above left" ? 1 : -1) * kLabelRowFactor * dys};
      keys = "anchor=base west";
    } else if (label == "month label above right") {
      shift = {right_edge, kLabelRowFactor * dys};
      keys = "anchor=base east";
    }
    if (!user_month.empty()) keys += ", " + user_month;
    return "\\node[" + keys + "] {" + substitute_shorthands(month_text, j) + "};";
  };

  host.emit("\\begin{scope}[" + serialise(scene) + (scene.empty() ? "" : ", ") + "shift={" + at + "}]", 0, 0);
  const std::size_t first_node = host.node_count();
  Point acc{0, 0};  // the transformation accumulated by the before/after day scope code
  long month_start_weekday = 0;
  bool reported = false;
  for (long j = *first; j <= *last; ++j) {
    const Date dt = from_julian(j);
    const int wd = weekday(j);
    // execute before day scope: the arrangement's month shift, then the month labels
    if (dt.d == 1 && j != *first) {
      if (arrangement == "day list downward" || arrangement == "week list" || arrangement == "month list")
        acc.y -= mys;
      else if (arrangement == "day list upward") acc.y += mys;
      else if (arrangement == "day list right") acc.x += mxs;
      else if (arrangement == "day list left") acc.x -= mxs;
    }
    if (arrangement == "month list") {
      if (dt.d == 1) month_start_weekday = wd;
      if (j == *first) month_start_weekday = weekday(j - dt.d + 1);
    }
    if (dt.d == 1) {
      for (const auto& label : month_labels) {
        Point s;
        const std::string node = month_node(label, j, s);
        host.emit("\\begin{scope}[shift={(" + pt(acc.x + s.x) + "," + pt(acc.y + s.y) + ")}]", opt_b, opt_e);
        const std::size_t month_node_index = host.node_count();
        host.emit(node, opt_b, opt_e);
        host.set_node_role(month_node_index, "calendar month label");
        host.emit("\\end{scope}", opt_b, opt_e);
      }
    }
    // the day scope: execute at begin day scope, the ifs, \tikzdaycode
    Point day = acc;
    if (arrangement == "week list") day.x += wd * dxs;
    else if (arrangement == "month list") day.x += (dt.d + month_start_weekday - 1) * dxs;
    std::string if_keys;
    std::vector<std::string> code;
    for (const auto& c : conditions) {
      auto m = date_matches(c.test, j);
      if (!m) {
        if (!reported)
          host.problem("unsupported-construct", "calendar condition '" + c.test + "' is not modelled", c.begin, c.end);
        reported = true;
        continue;
      }
      const Branch& b = *m ? c.then : c.otherwise;
      if (!b.has_code) {
        if (!b.options.empty()) if_keys += ", " + b.options;
      } else {
        std::string mnode = "\\node[" + user_month + "] {" + substitute_shorthands(month_text, j) + "};";
        if (!code_statements(b.code, mnode, code)) {
          days_unplaced = true;  // the code not lowered may move the day (\pgftransformshift)
          if (!reported)
            host.problem("unsupported-construct", "calendar code other than path commands is not lowered", c.begin,
                         c.end);
          reported = true;
        }
      }
    }
    host.emit("\\begin{scope}[shift={(" + pt(day.x) + "," + pt(day.y) + ")}" + if_keys + "]", opt_b, opt_e);
    for (const auto& s : code) host.emit(s, opt_b, opt_e);
    const std::string day_name =
        name.empty() ? "" : "name=" + name + "-" + std::to_string(dt.y) + "-" + two_digits(dt.m) + "-" + two_digits(dt.d);
    if (!day_code.empty()) {
      std::vector<std::string> dc;
      if (code_statements(day_code, "\\node[" + user_month + "] {" + substitute_shorthands(month_text, j) + "};", dc)) {
        for (auto s : dc) {
          for (std::size_t at_text = s.find("\\tikzdaytext"); at_text != std::string::npos;
               at_text = s.find("\\tikzdaytext"))
            s.replace(at_text, 12, substitute_shorthands(day_text, j));
          host.emit(s, opt_b, opt_e);
        }
      } else if (!reported) {
        host.problem("unsupported-key", "calendar 'day code' other than path commands is not lowered", opt_b, opt_e);
        reported = true;
      }
    } else {
      // the day's number, set in its cell by the calendar: furniture, it names no geometry
      const std::size_t day_node = host.node_count();
      host.emit("\\node[" + day_name + (day_name.empty() ? "" : ", ") + day_keys + "] {" +
                    substitute_shorthands(day_text, j) + "};",
                opt_b, opt_e);
      host.set_node_role(day_node, "calendar day");
    }
    host.emit("\\end{scope}", opt_b, opt_e);
    // execute after day scope
    if (arrangement == "day list downward") acc.y -= dys;
    else if (arrangement == "day list upward") acc.y += dys;
    else if (arrangement == "day list right") acc.x += dxs;
    else if (arrangement == "day list left") acc.x -= dxs;
    else if (arrangement == "week list" && wd == 6) acc.y -= dys;
  }
  // days (and month labels) placed without the code that moves them are guesses: not placed
  if (days_unplaced) host.mark_nodes_incomplete(first_node);
  host.emit("\\end{scope}", 0, 0);
  host.emit("\\end{scope}", 0, whole_e);
  return true;
}

}  // namespace tikzlint::ir

namespace tikzlint::packages {

std::unique_ptr<ir::Package> calendar() {
  return statement_package("calendar", [](const ir::PackageStatement& s, ir::LibraryHost& host) {
    if (s.path || s.command != "\\calendar") return ir::Offer::pass;
    return ir::lower_calendar(s.st, host) ? ir::Offer::lowered : ir::Offer::declined;
  });
}

}  // namespace tikzlint::packages
