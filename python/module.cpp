// python/module.cpp: the Python package's native module `tikzlint._core` (pybind11). A thin
// layer over the driver (cli/driver.hpp) and rank/rank.hpp: the same pipeline, the same jsonl
// records as the CLI. Checking releases the GIL. Bad input gives a Report with diagnostics;
// misuse (a wrong type, an unknown rule or threshold, an invalid spec) raises.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <map>
#include <mutex>
#include <optional>

#include "checks/check.hpp"
#include "cli/driver.hpp"
#include "cli/output.hpp"
#include "cli/rank_candidate.hpp"
#include "rank/rank.hpp"
#include "spec/spec.hpp"

namespace py = pybind11;
using namespace tikzlint;

namespace {

// nlohmann JSON -> Python objects.
py::object to_py(const nlohmann::json& j) {
  switch (j.type()) {
    case nlohmann::json::value_t::null: return py::none();
    case nlohmann::json::value_t::boolean: return py::bool_(j.get<bool>());
    case nlohmann::json::value_t::number_integer: return py::int_(j.get<std::int64_t>());
    case nlohmann::json::value_t::number_unsigned: return py::int_(j.get<std::uint64_t>());
    case nlohmann::json::value_t::number_float: return py::float_(j.get<double>());
    case nlohmann::json::value_t::string: return py::str(j.get_ref<const std::string&>());
    case nlohmann::json::value_t::array: {
      py::list l;
      for (const auto& e : j) l.append(to_py(e));
      return l;
    }
    case nlohmann::json::value_t::object: {
      py::dict d;
      for (auto it = j.begin(); it != j.end(); ++it) d[py::str(it.key())] = to_py(it.value());
      return d;
    }
    default: return py::none();
  }
}

struct PyDiagnostic {
  std::string rule, severity, message;
  std::optional<long> line, col, end_line, end_col;
  py::object evidence;
};

// A checked file: the CLI's jsonl record and what it says. Pickles as that record.
struct Report {
  std::string record;  // exactly the line `tikzlint check --format jsonl` prints for this file
  std::string file, status, ir_source;
  std::int64_t elapsed_us = 0;
  std::vector<std::pair<std::string, std::string>> verdicts;
  bool fails = false;
  mutable std::optional<py::list> diagnostics;  // built on first access

  static Report from(const cli::FileReport& r) {
    Report p;
    p.record = cli::report_jsonl(r);
    p.file = r.path;
    p.status = cli::to_string(r.status);
    p.ir_source = r.ir_source;
    p.elapsed_us = r.elapsed_us;
    for (const auto& [k, v] : r.verdicts) p.verdicts.emplace_back(k, checks::to_string(v));
    p.fails = r.fails();
    return p;
  }

  static Report from_record(const std::string& line) {
    nlohmann::json j = nlohmann::json::parse(line);  // raises ValueError through pybind11 on bad JSON
    Report p;
    p.record = line;
    p.file = j.at("file").get<std::string>();
    p.status = j.at("status").get<std::string>();
    p.ir_source = j.at("ir_source").get<std::string>();
    p.elapsed_us = j.at("elapsed_us").get<std::int64_t>();
    for (auto it = j.at("verdicts").begin(); it != j.at("verdicts").end(); ++it) {
      p.verdicts.emplace_back(it.key(), it.value().get<std::string>());
      p.fails |= it.value() == "fail";
    }
    for (const auto& d : j.at("diagnostics")) p.fails |= d.at("severity") == "error";
    p.fails |= p.status != "checked";
    return p;
  }

  py::list diagnostic_list() const {
    if (diagnostics) return *diagnostics;
    py::list out;
    nlohmann::json j = nlohmann::json::parse(record);
    auto num = [](const nlohmann::json& v) -> std::optional<long> {
      if (v.is_null()) return std::nullopt;
      return v.get<long>();
    };
    for (const auto& d : j.at("diagnostics")) {
      PyDiagnostic pd{d.at("rule"), d.at("severity"), d.at("message"), num(d.at("line")), num(d.at("col")),
                      num(d.at("end_line")), num(d.at("end_col")), to_py(d.at("evidence"))};
      out.append(py::cast(std::move(pd)));
    }
    diagnostics = out;
    return out;
  }
};

// The process-wide expansion caches (classes read once per batch, absent packages), one per
// set of include folders, as one CLI run shares one. clear_cache() forgets them.
std::mutex caches_mutex;
std::map<std::vector<std::string>, std::shared_ptr<tex::ExpansionCache>> caches;

std::shared_ptr<tex::ExpansionCache> cache_for(const std::vector<std::string>& dirs) {
  std::lock_guard lock(caches_mutex);
  auto it = caches.find(dirs);
  if (it != caches.end()) return it->second;
  if (caches.size() >= 64) caches.clear();  // bounded: a process that tries many include sets starts over
  return caches[dirs] = tex::make_expansion_cache();
}

std::string fspath(const py::object& o, const char* what) {
  py::object p = py::module_::import("os").attr("fspath")(o);
  if (!py::isinstance<py::str>(p)) throw py::type_error(std::string(what) + " must be a str path");
  return p.cast<std::string>();
}

const checks::RuleDoc* doc_of(const std::string& rule) {
  if (const checks::Rule* r = checks::find_rule(rule)) return r->doc;
  if (rule == spec::doc().name) return &spec::doc();
  if (rule == rank::doc().name) return &rank::doc();
  return nullptr;
}

// `config`: a tikzlint.toml or pyproject.toml (docs/configuration.md) whose settings for the file
// `input` apply first; the keyword arguments take precedence, as the command line does.
cli::CheckOptions make_options(const std::vector<std::string>& include_dirs, const py::object& settings,
                               const py::object& spec_obj, bool keep_ir, const py::object& config = py::none(),
                               const std::string& input = "") {
  cli::CheckOptions o;
  o.frontend.include_dirs = include_dirs;
  o.keep_ir = keep_ir;
  std::optional<std::string> config_spec;
  if (!config.is_none()) {
    std::vector<std::string> errors;
    std::string path = fspath(config, "config");
    auto file = cli::load_config(path, errors);
    if (!file && errors.empty()) errors.push_back(path + ": has no [tool.tikzlint] table");
    if (!file) {
      std::string msg = "invalid config:";
      for (const auto& e : errors) msg += "\n  " + e;
      throw py::value_error(msg);
    }
    config_spec = cli::apply_config(o, cli::settings_for(file.get(), input));
  }
  o.frontend.cache = cache_for(o.frontend.include_dirs);
  if (!settings.is_none()) {
    if (!py::isinstance<py::dict>(settings)) throw py::type_error("settings must be a dict {'rule.threshold': number}");
    for (auto [k, v] : settings.cast<py::dict>()) {
      if (!py::isinstance<py::str>(k)) throw py::type_error("settings keys must be str 'rule.threshold'");
      if (!py::isinstance<py::float_>(v) && !py::isinstance<py::int_>(v))
        throw py::type_error("settings values must be numbers");
      std::string key = k.cast<std::string>();
      auto dot = key.find('.');
      const checks::RuleDoc* doc = dot == std::string::npos ? nullptr : doc_of(key.substr(0, dot));
      if (!doc) throw py::value_error("settings: unknown rule in '" + key + "'");
      bool known = false;
      for (const auto& t : doc->thresholds) known |= t.name == key.substr(dot + 1);
      if (!known) throw py::value_error("settings: rule '" + doc->name + "' has no threshold '" + key.substr(dot + 1) + "'");
      o.config.set(key, v.cast<double>());
    }
  }
  if (!spec_obj.is_none()) {
    std::vector<std::string> errors;
    std::optional<spec::Spec> s;
    if (py::isinstance<py::dict>(spec_obj)) {
      std::string text = py::module_::import("json").attr("dumps")(spec_obj).cast<std::string>();
      s = spec::parse(text, errors);
    } else {
      s = spec::load(fspath(spec_obj, "spec"), errors);
    }
    if (!s) {
      std::string msg = "invalid spec:";
      for (const auto& e : errors) msg += "\n  " + e;
      throw py::value_error(msg);
    }
    o.spec = std::make_shared<const spec::Spec>(std::move(*s));
  } else if (config_spec) {
    std::vector<std::string> errors;
    auto s = spec::load(*config_spec, errors);
    if (!s) {
      std::string msg = "invalid spec named by the config:";
      for (const auto& e : errors) msg += "\n  " + e;
      throw py::value_error(msg);
    }
    o.spec = std::make_shared<const spec::Spec>(std::move(*s));
  }
  return o;
}

// A candidate given as source text (str) or as a file (os.PathLike).
cli::FileReport check_any(const py::handle& item, const cli::CheckOptions& opts, const char* what) {
  if (py::isinstance<py::str>(item)) {
    std::string text = item.cast<std::string>();
    py::gil_scoped_release nogil;
    return cli::check_source("<string>", std::move(text), opts);
  }
  if (py::hasattr(item, "__fspath__")) {
    std::string path = fspath(py::reinterpret_borrow<py::object>(item), what);
    py::gil_scoped_release nogil;
    return cli::check_file(path, opts);
  }
  throw py::type_error(std::string(what) + " must be source text (str) or a path (os.PathLike)");
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "tikzlint: a static verifier for TikZ diagrams (native module; use the tikzlint package)";

  py::class_<PyDiagnostic>(m, "Diagnostic", "one finding or front-end problem, as in the CLI's jsonl")
      .def_readonly("rule", &PyDiagnostic::rule)
      .def_readonly("severity", &PyDiagnostic::severity)
      .def_readonly("message", &PyDiagnostic::message)
      .def_readonly("line", &PyDiagnostic::line)
      .def_readonly("col", &PyDiagnostic::col)
      .def_readonly("end_line", &PyDiagnostic::end_line)
      .def_readonly("end_col", &PyDiagnostic::end_col)
      .def_readonly("evidence", &PyDiagnostic::evidence)
      .def("__repr__", [](const PyDiagnostic& d) {
        return "<Diagnostic " + d.severity + " " + d.rule + " at " + (d.line ? std::to_string(*d.line) : "-") + ": " +
               d.message + ">";
      });

  py::class_<Report>(m, "Report", "the result of checking one file or source text")
      .def_readonly("file", &Report::file)
      .def_readonly("status", &Report::status)
      .def_readonly("ir_source", &Report::ir_source)
      .def_readonly("elapsed_us", &Report::elapsed_us)
      .def_property_readonly("verdicts", [](const Report& r) {
        py::dict d;
        for (const auto& [k, v] : r.verdicts) d[py::str(k)] = py::str(v);
        return d;
      })
      .def_property_readonly("diagnostics", &Report::diagnostic_list)
      .def_property_readonly("passed", [](const Report& r) { return !r.fails; })
      .def("to_json", [](const Report& r) { return r.record; },
           "the record `tikzlint check --format jsonl` prints for this file (one line, no newline)")
      .def_static("from_json", &Report::from_record, py::arg("line"), "a Report from a jsonl record")
      .def("__repr__", [](const Report& r) {
        std::string failing;
        for (const auto& [k, v] : r.verdicts)
          if (v == "fail") failing += (failing.empty() ? "" : ",") + k;
        return "<Report " + r.file + " " + (r.fails ? "fails" : "passes") + (failing.empty() ? "" : " (" + failing + ")") + ">";
      })
      .def(py::pickle([](const Report& r) { return r.record; },
                      [](const std::string& line) { return Report::from_record(line); }));

  py::class_<rank::Part>(m, "Part", "one part of a Similarity")
      .def_readonly("name", &rank::Part::name)
      .def_readonly("score", &rank::Part::score)
      .def_readonly("weight", &rank::Part::weight)
      .def_readonly("applies", &rank::Part::applies)
      .def_readonly("changes", &rank::Part::changes)
      .def_property_readonly("evidence", [](const rank::Part& p) { return to_py(p.evidence); })
      .def("__repr__", [](const rank::Part& p) {
        return "<Part " + p.name + " " + (p.applies ? std::to_string(p.score) : std::string("n/a")) + ">";
      });

  py::class_<rank::Similarity>(m, "Similarity", "how close two diagrams are, by parts")
      .def_readonly("score", &rank::Similarity::score)
      .def_readonly("size_ratio", &rank::Similarity::size_ratio)
      .def_readonly("parts", &rank::Similarity::parts)
      .def("__getitem__", [](const rank::Similarity& s, const std::string& name) {
        for (const auto& p : s.parts)
          if (p.name == name) return p;
        throw py::key_error(name);
      })
      .def("to_dict", [](const rank::Similarity& s) { return to_py(s.to_json()); })
      .def("__repr__", [](const rank::Similarity& s) { return "<Similarity " + std::to_string(s.score) + ">"; });

  struct PyRanked {
    rank::Ranked r;
    Report report;
  };
  py::class_<PyRanked>(m, "Ranked", "one candidate in rank order")
      .def_property_readonly("index", [](const PyRanked& r) { return r.r.index; })
      .def_property_readonly("score", [](const PyRanked& r) { return r.r.score; })
      .def_property_readonly("reasons", [](const PyRanked& r) { return r.r.reasons; })
      .def_property_readonly("compiles", [](const PyRanked& r) { return r.r.compiles; })
      .def_property_readonly("rules_pass", [](const PyRanked& r) { return r.r.rules_pass; })
      .def_property_readonly("finding_weight", [](const PyRanked& r) { return r.r.finding_weight; })
      .def_property_readonly("similarity", [](const PyRanked& r) { return r.r.similarity; })
      .def_readonly("report", &PyRanked::report)
      .def("__repr__", [](const PyRanked& r) {
        return "<Ranked index=" + std::to_string(r.r.index) + " score=" + std::to_string(r.r.score) + ">";
      });

  m.def(
      "check",
      [](const py::str& source, const std::optional<std::string>& filename, const std::vector<std::string>& include_dirs,
         const py::object& settings, const py::object& spec, const py::object& config) {
        std::string name = filename.value_or("<string>");
        cli::CheckOptions opts = make_options(include_dirs, settings, spec, false, config, name);
        std::string text = source.cast<std::string>();
        cli::FileReport r;
        {
          py::gil_scoped_release nogil;
          r = cli::check_source(name, std::move(text), opts);
        }
        return Report::from(r);
      },
      py::arg("source"), py::kw_only(), py::arg("filename") = py::none(), py::arg("include_dirs") = std::vector<std::string>{},
      py::arg("settings") = py::none(), py::arg("spec") = py::none(), py::arg("config") = py::none());

  m.def(
      "check_file",
      [](const py::object& path, const std::vector<std::string>& include_dirs, const py::object& settings,
         const py::object& spec, const py::object& config) {
        std::string p = fspath(path, "path");
        cli::CheckOptions opts = make_options(include_dirs, settings, spec, false, config, p);
        cli::FileReport r;
        {
          py::gil_scoped_release nogil;
          r = cli::check_file(p, opts);
        }
        return Report::from(r);
      },
      py::arg("path"), py::kw_only(), py::arg("include_dirs") = std::vector<std::string>{},
      py::arg("settings") = py::none(), py::arg("spec") = py::none(), py::arg("config") = py::none());

  m.def(
      "ir",
      [](const py::str& source, const std::optional<std::string>& filename, const std::vector<std::string>& include_dirs,
         std::size_t picture) {
        if (picture < 1) throw py::value_error("picture is 1-based");
        cli::CheckOptions opts = make_options(include_dirs, py::none(), py::none(), true);
        std::string text = source.cast<std::string>();
        std::string dumped;
        {
          py::gil_scoped_release nogil;
          cli::FileReport r = cli::check_source(filename.value_or("<string>"), std::move(text), opts);
          if (!r.diagrams.empty() && picture > r.diagrams.size()) {
            throw py::value_error("picture " + std::to_string(picture) + ": the source has " +
                                  std::to_string(r.diagrams.size()) + " picture(s)");
          }
          dumped = cli::ir_json(r, picture).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        }
        return py::module_::import("json").attr("loads")(dumped);
      },
      py::arg("source"), py::kw_only(), py::arg("filename") = py::none(), py::arg("include_dirs") = std::vector<std::string>{},
      py::arg("picture") = 1);

  m.def(
      "rank",
      [](const py::sequence& candidates, const py::object& reference, const std::vector<std::string>& include_dirs,
         const py::object& settings) {
        if (py::isinstance<py::str>(candidates)) throw py::type_error("candidates must be a list of sources or paths");
        cli::CheckOptions opts = make_options(include_dirs, settings, py::none(), true);
        std::vector<cli::FileReport> reports;
        for (auto item : candidates) reports.push_back(check_any(item, opts, "a candidate"));
        std::optional<cli::FileReport> ref;
        if (!reference.is_none()) ref = check_any(reference, opts, "reference");
        std::vector<rank::Candidate> cs;
        for (const auto& r : reports) cs.push_back(cli::rank_candidate(r));
        std::optional<rank::Candidate> rc;
        if (ref) rc = cli::rank_candidate(*ref);
        std::vector<rank::Ranked> ranked;
        {
          py::gil_scoped_release nogil;
          ranked = rank::rank(cs, rc ? &*rc : nullptr, opts.config);
        }
        std::vector<PyRanked> out;
        for (auto& k : ranked) out.push_back({k, Report::from(reports[k.index])});
        return out;
      },
      py::arg("candidates"), py::kw_only(), py::arg("reference") = py::none(),
      py::arg("include_dirs") = std::vector<std::string>{}, py::arg("settings") = py::none());

  m.def(
      "compare",
      [](const py::object& a, const py::object& b, const std::vector<std::string>& include_dirs, const py::object& settings) {
        cli::CheckOptions opts = make_options(include_dirs, settings, py::none(), true);
        cli::FileReport ra = check_any(a, opts, "a"), rb = check_any(b, opts, "b");
        py::gil_scoped_release nogil;
        return rank::compare(ra.diagrams, rb.diagrams, opts.config);
      },
      py::arg("a"), py::arg("b"), py::kw_only(), py::arg("include_dirs") = std::vector<std::string>{},
      py::arg("settings") = py::none());

  m.def(
      "explain",
      [](const std::string& rule) {
        if (const checks::RuleDoc* d = doc_of(rule)) return checks::explain(*d, false);
        for (const auto& c : cli::frontend_codes())
          if (rule == c.code) return std::string(c.code) + ": " + c.summary + " (a front-end diagnostic, not a rule)\n";
        throw py::value_error("unknown rule '" + rule + "'");
      },
      py::arg("rule"));

  m.def("rules", [] {
    std::vector<std::string> names;
    for (const auto& r : checks::registry()) names.push_back(r.doc->name);
    return names;
  }, "the rule names, in registry order (the verdict keys before `spec`)");

  m.def("clear_cache", [] {
    std::lock_guard lock(caches_mutex);
    caches.clear();
  }, "forget the classes and package searches remembered between calls (after changing files)");
}
