#!/usr/bin/env python3
"""End-to-end tests of the tikzlint command-line contract (docs/cli.md): each output format's
shape, each exit code, batches, --jobs ordering, suppressions, ir / render / explain.

usage: test_cli.py --tikzlint PATH --root REPO [unittest args...]
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ET
from pathlib import Path

TIKZLINT = None
ROOT = None

RULES = ["angle_labels", "length_proportions", "in_frame", "readable_size",
         "label_association", "overlap", "closed_shapes", "core_math"]
# The verdict keys of a record: the rules, then the checks that run only when asked for.
VERDICT_KEYS = RULES + ["spec", "compiles"]
VERDICTS = {"pass", "fail", "n/a", "indeterminate"}
RECORD_KEYS = ["file", "status", "verdicts", "diagnostics", "elapsed_us", "ir_source"]
DIAG_KEYS = ["rule", "severity", "message", "line", "col", "end_line", "end_col", "evidence"]

# A picture every rule accepts: one segment, inside its clip.
GOOD = r"""\documentclass{article}
\usepackage{tikz}
\begin{document}
\begin{tikzpicture}[x=1cm,y=1cm]
  \clip (-1,-1) rectangle (3,2);
  \draw (0,0) -- (2,0);
\end{tikzpicture}
\end{document}
"""

# An arrow running out of the clip (its tip cut off): in_frame fails on line 7.
BAD = r"""\documentclass{article}
\usepackage{tikz}
\begin{document}
\begin{tikzpicture}[x=1cm,y=1cm]
  \clip (0,0) rectangle (3,2);
  \draw (0.5,0.5) -- (2.5,0.5);
  \draw[->] (0.5,1) -- (5,1);
\end{tikzpicture}
\end{document}
"""
BAD_LINE = 7


def run(*args, cwd=None, timeout=120):
    p = subprocess.run([TIKZLINT, *args], cwd=cwd, capture_output=True, timeout=timeout)
    return p.returncode, p.stdout.decode("utf-8"), p.stderr.decode("utf-8")


def run_input(stdin_text, *args, cwd=None, timeout=120):
    p = subprocess.run([TIKZLINT, *args], cwd=cwd, input=stdin_text.encode("utf-8"),
                       capture_output=True, timeout=timeout)
    return p.returncode, p.stdout.decode("utf-8"), p.stderr.decode("utf-8")


def jsonl(out):
    return [json.loads(line) for line in out.splitlines() if line.strip()]


class Base(unittest.TestCase):
    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="tikzlint-cli-"))

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def write(self, name, text):
        p = self.tmp / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
        return str(p)

    def assert_record_shape(self, rec):
        self.assertEqual(list(rec.keys()), RECORD_KEYS)
        self.assertIsInstance(rec["file"], str)
        self.assertIn(rec["status"], ("checked", "error"))
        self.assertEqual(list(rec["verdicts"].keys()), VERDICT_KEYS)
        for v in rec["verdicts"].values():
            self.assertIn(v, VERDICTS)
        self.assertIsInstance(rec["elapsed_us"], int)
        self.assertGreaterEqual(rec["elapsed_us"], 0)
        self.assertIn(rec["ir_source"], ("parser", "llm"))
        self.assertIsInstance(rec["diagnostics"], list)
        for d in rec["diagnostics"]:
            self.assertEqual(list(d.keys()), DIAG_KEYS)
            self.assertIn(d["severity"], ("error", "warning", "note"))
            self.assertTrue(d["rule"])
            self.assertIsInstance(d["message"], str)
            self.assertIsInstance(d["evidence"], dict)
            for k in ("line", "col", "end_line", "end_col"):
                self.assertTrue(d[k] is None or (isinstance(d[k], int) and d[k] >= 1), (k, d))
            if d["line"] is not None:
                self.assertLessEqual((d["line"], d["col"]), (d["end_line"], d["end_col"]))


class Basics(Base):
    def test_version(self):
        code, out, _ = run("--version")
        self.assertEqual(code, 0)
        self.assertRegex(out, r"^tikzlint \d+\.\d+\.\d+\n$")

    def test_help(self):
        code, out, _ = run("--help")
        self.assertEqual(code, 0)
        self.assertIn("usage: tikzlint check", out)
        for flag in ("--format", "--include-dir", "--jobs", "--set", "--fallback"):
            self.assertIn(flag, out)

    def test_usage_errors_exit_2(self):
        f = self.write("good.tex", GOOD)
        for args in ([], ["check"], ["lint", f], ["check", "--format", "xml", f],
                     ["check", "--jobs", "many", f], ["check", "--no-such-flag", f],
                     ["check", "--fallback", "sometimes", f], ["check", "--set", "in_frame.nope=1", f],
                     ["check", "--set", "no_rule.x=1", f], ["ir"], ["explain"]):
            with self.subTest(args=args):
                code, out, err = run(*args)
                self.assertEqual(code, 2)
                self.assertEqual(out, "")
                self.assertIn("tikzlint: error:", err)

    def test_exit_0_when_every_file_passes(self):
        f = self.write("good.tex", GOOD)
        code, out, err = run("check", "--format", "jsonl", f)
        self.assertEqual(code, 0, out + err)
        rec = jsonl(out)[0]
        self.assertEqual(rec["status"], "checked")
        self.assertNotIn("fail", rec["verdicts"].values())

    def test_exit_1_when_a_rule_fails(self):
        f = self.write("bad.tex", BAD)
        code, out, _ = run("check", "--format", "jsonl", f)
        self.assertEqual(code, 1)
        rec = jsonl(out)[0]
        self.assertEqual(rec["verdicts"]["in_frame"], "fail")
        self.assertIn(("in_frame", BAD_LINE), [(d["rule"], d["line"]) for d in rec["diagnostics"]])

    def test_exit_1_on_an_error_diagnostic(self):
        f = self.write("syntax.tex", "\\begin{tikzpicture}\n\\draw (0,0) -- (1,0\n;\n\\end{tikzpicture}\n")
        code, out, _ = run("check", "--format", "jsonl", f)
        self.assertEqual(code, 1)
        self.assertIn("error", [d["severity"] for d in jsonl(out)[0]["diagnostics"]])

    def test_exit_2_missing_file(self):
        code, out, _ = run("check", "--format", "jsonl", str(self.tmp / "missing.tex"))
        self.assertEqual(code, 2)
        rec = jsonl(out)[0]
        self.assert_record_shape(rec)
        self.assertEqual(rec["status"], "error")
        self.assertEqual(rec["diagnostics"][0]["rule"], "unreadable-file")

    def test_exit_2_file_over_the_input_limit(self):
        big = self.tmp / "big.tex"
        big.write_bytes(b"%" * (9 << 20))
        code, out, _ = run("check", "--format", "jsonl", str(big))
        self.assertEqual(code, 2)
        d = jsonl(out)[0]["diagnostics"][0]
        self.assertEqual(d["rule"], "unreadable-file")
        self.assertIn("limit_bytes", d["evidence"])

    @unittest.skipIf(hasattr(os, "geteuid") and os.geteuid() == 0, "root reads everything")
    def test_exit_2_unreadable_file(self):
        f = self.write("secret.tex", GOOD)
        os.chmod(f, 0)
        code, out, _ = run("check", "--format", "jsonl", f)
        self.assertEqual(code, 2)
        self.assertEqual(jsonl(out)[0]["diagnostics"][0]["rule"], "unreadable-file")

    def test_batch_continues_after_a_bad_file(self):
        good, bad = self.write("good.tex", GOOD), self.write("bad.tex", BAD)
        missing = str(self.tmp / "missing.tex")
        junk = self.tmp / "junk.tex"
        junk.write_bytes(b"\\begin{tikzpicture}\xff\xfe\x00\x01{{{{[[[(((\n\\draw (0,0) -- ")
        code, out, _ = run("check", "--format", "jsonl", missing, str(junk), good, bad)
        self.assertEqual(code, 2)
        recs = jsonl(out)
        self.assertEqual([r["file"] for r in recs], [missing, str(junk), good, bad])
        self.assertEqual([r["status"] for r in recs], ["error", "checked", "checked", "checked"])
        self.assertEqual(recs[3]["verdicts"]["in_frame"], "fail")

    def test_directory_operand_recurses_sorted(self):
        self.write("d/b.tex", GOOD)
        self.write("d/sub/a.tex", GOOD)
        self.write("d/notes.txt", "not tex")
        code, out, _ = run("check", "--format", "jsonl", str(self.tmp / "d"))
        self.assertEqual(code, 0)
        files = [r["file"] for r in jsonl(out)]
        self.assertEqual(files, [str(self.tmp / "d" / "b.tex"), str(self.tmp / "d" / "sub" / "a.tex")])

    def test_empty_directory_is_a_usage_error(self):
        (self.tmp / "empty").mkdir()
        code, _, err = run("check", str(self.tmp / "empty"))
        self.assertEqual(code, 2)
        self.assertIn("no .tex file", err)

    def test_jobs_keep_input_order(self):
        files = []
        for i in range(24):
            kind = i % 3
            if kind == 2:
                files.append(str(self.tmp / f"missing{i}.tex"))
            else:
                files.append(self.write(f"f{i:02}.tex", GOOD if kind == 0 else BAD))
        code1, out1, _ = run("check", "--format", "jsonl", "--jobs", "1", *files)
        code4, out4, _ = run("check", "--format", "jsonl", "--jobs", "4", *files)
        self.assertEqual(code1, code4)
        r1, r4 = jsonl(out1), jsonl(out4)
        self.assertEqual([r["file"] for r in r4], files)
        strip = lambda rs: [{k: v for k, v in r.items() if k != "elapsed_us"} for r in rs]
        self.assertEqual(strip(r1), strip(r4))


class Formats(Base):
    def test_jsonl_shape(self):
        files = [self.write("good.tex", GOOD), self.write("bad.tex", BAD), str(self.tmp / "missing.tex")]
        _, out, _ = run("check", "--format", "jsonl", *files)
        lines = out.splitlines()
        self.assertEqual(len(lines), 3)
        for line, f in zip(lines, files):
            rec = json.loads(line)
            self.assert_record_shape(rec)
            self.assertEqual(rec["file"], f)

    def test_json_is_an_array_of_the_jsonl_records(self):
        files = [self.write("good.tex", GOOD), self.write("bad.tex", BAD)]
        _, out_l, _ = run("check", "--format", "jsonl", *files)
        code, out_j, _ = run("check", "--format", "json", *files)
        self.assertEqual(code, 1)
        arr = json.loads(out_j)
        self.assertIsInstance(arr, list)
        for rec in arr:
            self.assert_record_shape(rec)
        strip = lambda rs: [{k: v for k, v in r.items() if k != "elapsed_us"} for r in rs]
        self.assertEqual(strip(arr), strip(jsonl(out_l)))

    def test_text_is_clang_style_with_caret_and_summary(self):
        f = self.write("bad.tex", BAD)
        code, out, _ = run("check", f)
        self.assertEqual(code, 1)
        lines = out.splitlines()
        header = re.compile(r"^(.+):(\d+):(\d+): (error|warning|note): (.+) \[([\w-]+)\]$")
        found = False
        for i, line in enumerate(lines):
            m = header.match(line)
            if m and m.group(6) == "in_frame":
                found = True
                self.assertEqual(m.group(1), f)
                self.assertEqual(int(m.group(2)), BAD_LINE)
                self.assertEqual(m.group(5), m.group(5).rstrip("."), "no final period")
                self.assertEqual(m.group(5)[0], m.group(5)[0].lower(), "lowercase message")
                self.assertEqual(lines[i + 1], BAD.splitlines()[BAD_LINE - 1])
                caret = lines[i + 2]
                self.assertRegex(caret, r"^\s*\^~*$")
                self.assertEqual(len(caret) - len(caret.lstrip()), int(m.group(3)) - 1)
        self.assertTrue(found, out)
        self.assertIn(f"{f}: verdict fail: in_frame", lines)
        self.assertRegex(lines[-1], r"^1 file checked: 0 passed, 1 failed, 0 not checked; \d+ errors?, \d+ warnings?, \d+ notes?$")

    def test_sarif_shape(self):
        files = [self.write("bad.tex", BAD), str(self.tmp / "missing.tex")]
        code, out, _ = run("check", "--format", "sarif", *files)
        self.assertEqual(code, 2)
        log = json.loads(out)
        self.assertEqual(log["version"], "2.1.0")
        self.assertIn("sarif", log["$schema"])
        self.assertEqual(len(log["runs"]), 1)
        driver = log["runs"][0]["tool"]["driver"]
        self.assertEqual(driver["name"], "tikzlint")
        self.assertRegex(driver["version"], r"^\d+\.\d+\.\d+$")
        self.assertTrue(driver["informationUri"].startswith("https://"))
        ids = [r["id"] for r in driver["rules"]]
        self.assertEqual(len(ids), len(set(ids)))
        for rule in RULES:
            self.assertIn(rule, ids)
        for r in driver["rules"]:
            for k in ("shortDescription", "fullDescription", "help"):
                self.assertIsInstance(r[k]["text"], str)
                self.assertTrue(r[k]["text"], (r["id"], k))
        results = log["runs"][0]["results"]
        self.assertTrue(results)
        for res in results:
            self.assertIn(res["ruleId"], ids)
            self.assertEqual(driver["rules"][res["ruleIndex"]]["id"], res["ruleId"])
            self.assertIn(res["level"], ("error", "warning", "note"))
            self.assertTrue(res["message"]["text"])
            pl = res["locations"][0]["physicalLocation"]
            self.assertTrue(pl["artifactLocation"]["uri"])
            reg = pl["region"]
            for k in ("startLine", "startColumn", "endLine", "endColumn"):
                self.assertIsInstance(reg[k], int)
                self.assertGreaterEqual(reg[k], 1)
        self.assertIn("in_frame", [r["ruleId"] for r in results])
        self.assertIn("unreadable-file", [r["ruleId"] for r in results])

    def test_github_annotations_escape_data_and_properties(self):
        odd = self.write("we,ird:100%.tex", BAD)
        code, out, _ = run("check", "--format", "github", odd, str(self.tmp / "gone%,:.tex"))
        self.assertEqual(code, 2)
        lines = out.splitlines()
        pat = re.compile(r"^::(error|warning|notice) file=([^,:]*)(,line=\d+,col=\d+,endLine=\d+,endColumn=\d+)?,title=([^,:]+)::(.*)$")
        for line in lines:
            self.assertRegex(line, pat)
        esc_odd = str(odd).replace("%", "%25").replace(":", "%3A").replace(",", "%2C")
        frame = [l for l in lines if "title=in_frame" in l]
        self.assertTrue(frame, out)
        self.assertTrue(frame[0].startswith(f"::error file={esc_odd},line={BAD_LINE},") or
                        frame[0].startswith(f"::warning file={esc_odd},line={BAD_LINE},"), frame[0])
        gone = [l for l in lines if "title=unreadable-file" in l]
        self.assertEqual(len(gone), 1)
        self.assertIn("file=" + str(self.tmp / "gone%25%2C%3A.tex"), gone[0])
        message = gone[0].split("::", 2)[2]
        self.assertIn("gone%25,:.tex", message)  # in data only % is escaped

    def test_github_escapes_newlines_in_messages(self):
        big = self.tmp / "big.tex"
        big.write_bytes(b"%" * (9 << 20))
        _, out, _ = run("check", "--format", "github", str(big))
        lines = out.splitlines()
        self.assertEqual(len(lines), 1)  # the evidence and note lines are %0A-joined
        self.assertIn("%0Aevidence: ", lines[0])


class Commands(Base):
    IR_PICTURE = r"""\begin{tikzpicture}[x=1cm,y=1cm]
  \clip (0,0) rectangle (4,3);
  \draw (0,0) -- (2,0);
  \node at (1,1) {$A$};
\end{tikzpicture}
"""

    def test_ir_prints_the_fixed_fields(self):
        f = self.write("p.tex", self.IR_PICTURE)
        code, out, _ = run("ir", f)
        self.assertEqual(code, 0)
        j = json.loads(out)
        self.assertEqual(len(j["picture_bbox"]), 4)
        self.assertTrue(all(isinstance(v, (int, float)) for v in j["picture_bbox"]))
        self.assertEqual(len(j["canvas"]), 4)
        self.assertAlmostEqual(j["canvas"][2], 4 * 72.27 / 2.54, places=2)
        texts = [n["text"] for n in j["nodes"]]
        self.assertIn("$A$", texts)
        for n in j["nodes"]:
            self.assertEqual(len(n["box"]), 4)
            self.assertLessEqual(n["box"][0], n["box"][2])
        for key in ("elements", "clips", "unsupported", "diagnostics"):
            self.assertIsInstance(j[key], list)
        self.assertIn(j["reading"]["picture"]["kind"], ("geometric figure", "graph", "flowchart", "plot", "table", "other"))
        self.assertIsInstance(j["reading"]["numbers"], list)

    def test_ir_missing_file_exits_2(self):
        code, _, err = run("ir", str(self.tmp / "missing.tex"))
        self.assertEqual(code, 2)
        self.assertIn("unreadable-file", err)

    def test_render_writes_svg(self):
        f = self.write("p.tex", self.IR_PICTURE)
        out_svg = self.tmp / "out.svg"
        code, _, err = run("render", f, "-o", str(out_svg))
        self.assertEqual(code, 0, err)
        root = ET.parse(out_svg).getroot()
        self.assertEqual(root.tag, "{http://www.w3.org/2000/svg}svg")
        self.assertIn("$A$", out_svg.read_text())

    def test_render_draws_findings_red(self):
        f = self.write("bad.tex", BAD)
        out_svg = self.tmp / "bad.svg"
        code, _, err = run("render", f, "-o", str(out_svg))
        self.assertEqual(code, 0, err)
        self.assertIn("#d62728", out_svg.read_text())

    def test_explain_every_rule(self):
        code, out, _ = run("explain", "--list")
        self.assertEqual(code, 0)
        names = [line.split("\t")[0] for line in out.splitlines()]
        self.assertEqual(names, RULES + ["compiles"])
        for name in names:
            with self.subTest(rule=name):
                code, text, _ = run("explain", name)
                self.assertEqual(code, 0)
                self.assertIn(name, text)
                code, md, _ = run("explain", name, "--markdown")
                self.assertEqual(code, 0)
                self.assertTrue(md.startswith("#"), md[:80])

    def test_explain_unknown_rule_exits_2(self):
        code, _, err = run("explain", "no_such_rule")
        self.assertEqual(code, 2)
        self.assertIn("unknown rule", err)


class Pipeline(Base):
    def test_include_dir_finds_classes(self):
        self.write("classes/tlcli.cls", "\\NeedsTeXFormat{LaTeX2e}\n\\ProvidesClass{tlcli}\n"
                                        "\\newcommand{\\sidelength}{2}\n")
        f = self.write("doc/uses.tex", "\\documentclass{tlcli}\n\\begin{document}\n\\begin{tikzpicture}\n"
                                       "\\draw (0,0) -- (\\sidelength,0);\n\\end{tikzpicture}\n\\end{document}\n")
        _, out, _ = run("check", "--format", "jsonl", f)
        rules = [d["rule"] for d in jsonl(out)[0]["diagnostics"]]
        self.assertIn("missing-file", rules)
        code, out, _ = run("check", "--format", "jsonl", "--include-dir", str(self.tmp / "classes"), f)
        rules = [d["rule"] for d in jsonl(out)[0]["diagnostics"]]
        self.assertNotIn("missing-file", rules)
        self.assertNotIn("undefined-macro", rules)
        self.assertEqual(code, 0)

    def test_suppression_turns_a_failing_rule_into_a_pass(self):
        lines = BAD.splitlines()
        lines.insert(BAD_LINE - 1, "  % tikzlint: disable-next-line=in_frame -- drawn off the page on purpose")
        f = self.write("suppressed.tex", "\n".join(lines) + "\n")
        code, out, _ = run("check", "--format", "jsonl", f)
        rec = jsonl(out)[0]
        self.assertEqual(rec["verdicts"]["in_frame"], "pass")
        self.assertNotIn("in_frame", [d["rule"] for d in rec["diagnostics"]])
        self.assertEqual(code, 0)

    def test_unknown_and_unused_suppressions_are_reported(self):
        lines = GOOD.splitlines()
        lines.insert(5, "  % tikzlint: disable-next-line=no_such_rule")
        lines.insert(5, "  % tikzlint: disable-next-line=overlap -- nothing overlaps")
        f = self.write("unused.tex", "\n".join(lines) + "\n")
        _, out, _ = run("check", "--format", "jsonl", f)
        found = [(d["line"], d["severity"]) for d in jsonl(out)[0]["diagnostics"] if d["rule"] == "unused-suppression"]
        self.assertEqual(sorted(found), [(6, "warning"), (7, "warning")])

    def test_file_without_picture_is_all_na(self):
        f = self.write("prose.tex", "\\documentclass{article}\n\\begin{document}\nno picture\n\\end{document}\n")
        code, out, _ = run("check", "--format", "jsonl", f)
        self.assertEqual(code, 0)
        rec = jsonl(out)[0]
        # compiles reads the text, not the picture: a prose document compiles.
        self.assertEqual(rec["verdicts"].pop("compiles"), "pass")
        self.assertEqual(set(rec["verdicts"].values()), {"n/a"})
        self.assertIn("no-picture", [d["rule"] for d in rec["diagnostics"]])

    def test_fallback_never_uses_the_parser(self):
        f = self.write("good.tex", GOOD)
        code, out, err = run("check", "--fallback", "never", "--format", "jsonl", f)
        self.assertEqual(code, 0, err)
        self.assertEqual(jsonl(out)[0]["ir_source"], "parser")

    def test_fallback_always_without_usable_answer_is_indeterminate(self):
        # No endpoint is configured, so the model cannot answer: `always` must not fall
        # back to the parser's verdicts.
        f = self.write("good.tex", GOOD)
        env = {k: v for k, v in os.environ.items() if not k.startswith("TIKZLINT_LLM_")}
        p = subprocess.run([TIKZLINT, "check", "--fallback", "always", "--format", "jsonl", f],
                           capture_output=True, text=True, timeout=60, env=env)
        rec = jsonl(p.stdout)[0]
        # compiles reads the source text, which needs no model: it keeps its own verdict.
        self.assertEqual(rec["verdicts"].pop("compiles"), "pass")
        self.assertEqual(set(rec["verdicts"].values()), {"indeterminate"})
        self.assertEqual(rec["ir_source"], "parser")
        self.assertTrue(any(d["rule"].startswith("llm-") for d in rec["diagnostics"]))

    def test_examples(self):
        ex = Path(ROOT) / "examples"
        code, out, _ = run("check", "--format", "jsonl", str(ex))
        self.assertEqual(code, 1)
        recs = {Path(r["file"]).name: r for r in jsonl(out)}
        self.assertNotIn("fail", recs["right-triangle.tex"]["verdicts"].values())
        self.assertNotIn("fail", recs["suppressed.tex"]["verdicts"].values())
        self.assertEqual(recs["cut-by-clip.tex"]["verdicts"]["in_frame"], "fail")
        self.assertEqual(recs["wrong-angle.tex"]["verdicts"]["angle_labels"], "fail")



class Spec(Base):
    """--spec (docs/spec.md): the verdict `spec`, its findings, and spec errors as usage errors."""

    FLOW = r"""\documentclass{article}
\usepackage{tikz}
\begin{document}
\begin{tikzpicture}
  \node[draw] (a) at (0,0) {ATP};
  \node[draw] (b) at (4,0) {ADP};
  \draw[->] (b) -- (a);
\end{tikzpicture}
\end{document}
"""

    def test_spec_verdict_and_nearest_miss(self):
        f = self.write("flow.tex", self.FLOW)
        code, out, _ = run("check", "--format", "jsonl", f)
        self.assertEqual(jsonl(out)[0]["verdicts"]["spec"], "n/a")
        ok = self.write("ok.json", '{"required_labels": ["ATP", "ADP"], "required_relations": [{"from": "ADP", "to": "ATP"}]}')
        code, out, err = run("check", "--format", "jsonl", "--spec", ok, f)
        self.assertEqual(code, 0, err)
        self.assertEqual(jsonl(out)[0]["verdicts"]["spec"], "pass")
        bad = self.write("bad.json", '{"required_relations": [{"from": "ATP", "to": "ADP"}]}')
        code, out, _ = run("check", "--format", "jsonl", "--spec", bad, f)
        self.assertEqual(code, 1)
        rec = jsonl(out)[0]
        self.assert_record_shape(rec)
        self.assertEqual(rec["verdicts"]["spec"], "fail")
        spec_diags = [d for d in rec["diagnostics"] if d["rule"] == "spec"]
        self.assertEqual(len(spec_diags), 1)
        self.assertIn("runs the other way", spec_diags[0]["message"])
        self.assertEqual(spec_diags[0]["line"], 7)

    def test_spec_errors_are_usage_errors(self):
        f = self.write("flow.tex", self.FLOW)
        bad = self.write("typo.json", '{"required_relation": [], "required_labels": [3]}')
        code, out, err = run("check", "--spec", bad, f)
        self.assertEqual(code, 2)
        self.assertEqual(out, "")
        self.assertIn("unknown key 'required_relation'", err)
        self.assertIn("/required_labels/0", err)
        code, _, err = run("check", "--spec", str(self.tmp / "missing.json"), f)
        self.assertEqual(code, 2)
        self.assertIn("cannot read the spec", err)

    def test_explain_spec_and_set(self):
        code, text, _ = run("explain", "spec")
        self.assertEqual(code, 0)
        self.assertIn("endpoint_gap_pt", text)
        f = self.write("flow.tex", self.FLOW)
        code, _, err = run("check", "--set", "spec.endpoint_gap_pt=2", f)
        self.assertNotEqual(code, 2, err)
        code, _, err = run("check", "--set", "spec.nope=2", f)
        self.assertEqual(code, 2)


class StandardInput(Base):
    """`-` reads the file from standard input; --stdin-filename names it."""

    USES_INPUT = ("\\documentclass{article}\n\\usepackage{tikz}\n\\begin{document}\n"
                  "\\input{sizes}\n\\begin{tikzpicture}\n"
                  "\\draw (0,0) -- (\\sidelength,0);\n\\end{tikzpicture}\n\\end{document}\n")

    def test_check_stdin_is_the_same_as_the_file(self):
        f = self.write("bad.tex", BAD)
        _, from_file, _ = run("check", "--format", "jsonl", f)
        code, out, _ = run_input(BAD, "check", "--format", "jsonl", "--stdin-filename", f, "-")
        self.assertEqual(code, 1)
        a, b = jsonl(from_file)[0], jsonl(out)[0]
        a.pop("elapsed_us"), b.pop("elapsed_us")
        self.assertEqual(a, b)

    def test_default_name_and_text_messages(self):
        code, out, _ = run_input(BAD, "check", "-")
        self.assertEqual(code, 1)
        self.assertIn("<stdin>:%d:" % BAD_LINE, out)
        code, out, _ = run_input(BAD, "check", "--stdin-filename", "figs/line.tex", "-")
        self.assertIn("figs/line.tex:%d:" % BAD_LINE, out)
        self.assertNotIn("<stdin>", out)
        rec = jsonl(run_input(GOOD, "check", "--format", "jsonl", "-")[1])[0]
        self.assert_record_shape(rec)
        self.assertEqual(rec["file"], "<stdin>")

    def test_input_resolves_in_the_named_folder(self):
        self.write("fig/sizes.tex", "\\newcommand{\\sidelength}{2}\n")
        name = str(self.tmp / "fig" / "main.tex")  # need not exist
        code, out, _ = run_input(self.USES_INPUT, "check", "--format", "jsonl", "--stdin-filename", name, "-",
                                 cwd=str(self.tmp))
        rules = [d["rule"] for d in jsonl(out)[0]["diagnostics"]]
        self.assertNotIn("undefined-macro", rules)
        self.assertEqual(code, 0, out)
        # Without the name, standard input lives in the working directory: no sizes.tex there.
        _, out, _ = run_input(self.USES_INPUT, "check", "--format", "jsonl", "-", cwd=str(self.tmp))
        rules = [d["rule"] for d in jsonl(out)[0]["diagnostics"]]
        self.assertTrue({"missing-file", "undefined-macro"} & set(rules), rules)

    def test_stdin_among_files_keeps_order(self):
        f = self.write("good.tex", GOOD)
        code, out, _ = run_input(BAD, "check", "--format", "jsonl", "--jobs", "2", f, "-", f)
        recs = jsonl(out)
        self.assertEqual([r["file"] for r in recs], [f, "<stdin>", f])
        self.assertEqual(recs[1]["verdicts"]["in_frame"], "fail")
        self.assertEqual(code, 1)

    def test_stdin_over_the_input_limit_exits_2(self):
        code, out, _ = run_input("%" * (8 * 1024 * 1024 + 10), "check", "--format", "jsonl", "-")
        self.assertEqual(code, 2)
        rec = jsonl(out)[0]
        self.assertEqual(rec["status"], "error")
        self.assertEqual(rec["diagnostics"][0]["rule"], "unreadable-file")

    def test_ir_and_render_read_stdin(self):
        code, out, _ = run_input(BAD, "ir", "--stdin-filename", "x/bad.tex", "-")
        self.assertEqual(code, 0)
        j = json.loads(out)
        self.assertEqual(j["file"], "x/bad.tex")
        self.assertEqual(j["picture_count"], 1)
        self.assertTrue(any(d["rule"] == "in_frame" for d in j["findings"]))
        code, out, _ = run_input(BAD, "render", "-")
        self.assertEqual(code, 0)
        self.assertTrue(out.lstrip().startswith("<svg") or out.lstrip().startswith("<?xml"), out[:80])

    def test_stdin_filename_needs_a_value(self):
        code, _, err = run_input(GOOD, "check", "--stdin-filename=", "-")
        self.assertEqual(code, 2)
        self.assertIn("stdin-filename", err)


FLOW = r"""\documentclass{article}
\usepackage{tikz}
\begin{document}
\begin{tikzpicture}
  \node[draw] (a) at (0,0) {ATP};
  \node[draw] (b) at (4,0) {ADP};
  \draw[->] (a) -- (b);
  \draw (0,-1) -- (4,-1) -- (2,-2.5) -- cycle;
\end{tikzpicture}
\end{document}
"""


class RankCompare(Base):
    """tikzlint rank and compare (docs/rank.md)."""

    def test_rank_jsonl_order_and_keys(self):
        ref = self.write("ref.tex", FLOW)
        same = self.write("same.tex", FLOW)
        broken = self.write("broken.tex", FLOW.replace("\\end{tikzpicture}", ""))
        moved = self.write("moved.tex", FLOW.replace("(4,0) {ADP}", "(4,2) {ADP}"))
        code, out, err = run("rank", "--reference", ref, "--format", "jsonl", broken, moved, same)
        self.assertEqual(code, 0, err)
        recs = jsonl(out)
        self.assertEqual([list(r) for r in recs], [["file", "rank", "score", "reasons", "verdicts"]] * 3)
        self.assertEqual([r["file"] for r in recs], [same, moved, broken])
        self.assertEqual([r["rank"] for r in recs], [1, 2, 3])
        self.assertTrue(recs[0]["score"] > recs[1]["score"] > recs[2]["score"])
        self.assertTrue(any("similarity" in x for x in recs[1]["reasons"]))
        self.assertEqual(list(recs[0]["verdicts"]), VERDICT_KEYS)
        code, out, _ = run("rank", broken, same)
        self.assertEqual(code, 0)
        self.assertTrue(out.startswith("1. " + same), out)

    def test_rank_reads_stdin_and_rejects_bad_usage(self):
        same = self.write("same.tex", FLOW)
        code, out, _ = run_input(FLOW.replace("\\end{tikzpicture}", ""), "rank", "--format", "jsonl", "-", same)
        self.assertEqual([r["file"] for r in jsonl(out)], [same, "<stdin>"])
        self.assertEqual(run("rank", "--format", "sarif", same)[0], 2)
        self.assertEqual(run("rank", "--reference", str(self.tmp / "none.tex"), same)[0], 2)
        self.assertEqual(run("check", "--reference", same, same)[0], 2)
        self.assertEqual(run("compare", same)[0], 2)

    def test_compare_names_changes(self):
        a = self.write("a.tex", FLOW)
        b = self.write("b.tex", FLOW.replace("\\draw[->] (a) -- (b);", "\\draw[<-] (a) -- (b);").replace("{ATP}", "{}"))
        code, out, err = run("compare", a, b)
        self.assertEqual(code, 0, err)
        self.assertRegex(out.splitlines()[0], r"^similarity 0\.\d{4} \(A: ")
        self.assertIn("label 'ATP' is in A, not in B", out)
        code, out, _ = run("compare", "--format", "json", a, a)
        j = json.loads(out)
        self.assertEqual(j["score"], 1.0)
        self.assertEqual([p["name"] for p in j["parts"]], ["labels", "label_positions", "strokes", "arrows", "structure"])
        code, out, _ = run("compare", "--set", "compare.position_tolerance=0.5", a, b)
        self.assertEqual(code, 0)
        self.assertEqual(run("compare", "--set", "compare.nope=1", a, b)[0], 2)
        code, out, _ = run("explain", "compare")
        self.assertEqual(code, 0)
        self.assertIn("distance_scale", out)


def main():
    global TIKZLINT, ROOT
    ap = argparse.ArgumentParser()
    ap.add_argument("--tikzlint", required=True)
    ap.add_argument("--root", required=True)
    a, rest = ap.parse_known_args()
    TIKZLINT, ROOT = os.path.abspath(a.tikzlint), a.root
    unittest.main(argv=[sys.argv[0], *rest], verbosity=1)


if __name__ == "__main__":
    main()
