#!/usr/bin/env python3
"""End-to-end tests of configuration files (docs/configuration.md): discovery of tikzlint.toml
and [tool.tikzlint] in pyproject.toml upward from each input, precedence of the command line,
[[overrides]], include-dirs under the read policy, spec per path, and errors (exit code 2, with
file:line:col, the valid names, and nothing of the file's values).

usage: test_config.py --tikzlint PATH [unittest args...]
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

TIKZLINT = None

# in_frame fails (an arrow out of the clip) on line 7; angle_labels fails (60° on a right angle)
# on line 10.
BAD = r"""\documentclass{article}
\usepackage{tikz}
\begin{document}
\begin{tikzpicture}[x=1cm,y=1cm]
  \clip (-1,-1) rectangle (4,4);
  \draw (0,0) -- (3,0);
  \draw[->] (0,3.5) -- (6,3.5);
  \draw (0,0) -- (0,3);
  \draw (0.6,0) arc (0:90:0.6);
  \node at (0.9,0.9) {$60^\circ$};
\end{tikzpicture}
\end{document}
"""


def run(*args, cwd=None):
    p = subprocess.run([TIKZLINT, *args], cwd=cwd, capture_output=True, timeout=120)
    return p.returncode, p.stdout.decode("utf-8"), p.stderr.decode("utf-8")


def records(out):
    return {Path(r["file"]).name if "/" in r["file"] else r["file"]: r
            for r in (json.loads(line) for line in out.splitlines() if line.strip())}


def rules(rec):
    return sorted({d["rule"] for d in rec["diagnostics"]})


class Config(unittest.TestCase):
    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="tikzlint-config-"))
        (self.tmp / ".git").mkdir()  # a repository root: discovery never leaves the test's tree

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def write(self, name, text):
        p = self.tmp / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
        return p

    def check(self, *args, cwd=None):
        code, out, err = run("check", "--format", "jsonl", *args, cwd=cwd or self.tmp)
        return code, records(out), err

    def test_without_config_both_rules_fail(self):
        self.write("a.tex", BAD)
        code, recs, err = self.check("a.tex")
        self.assertEqual(code, 1, err)
        self.assertEqual(recs["a.tex"]["verdicts"]["in_frame"], "fail")
        self.assertEqual(recs["a.tex"]["verdicts"]["angle_labels"], "fail")

    def test_nearest_config_wins_and_pyproject_is_read(self):
        self.write("tikzlint.toml", 'ignore = ["in_frame"]\n')
        self.write("a.tex", BAD)
        self.write("sub/pyproject.toml", '[project]\nname = "x"\n[tool.tikzlint]\nignore = ["angle_labels"]\n')
        self.write("sub/b.tex", BAD)
        self.write("other/pyproject.toml", '[tool.black]\nline-length = 80\n')  # not ours: skipped
        self.write("other/c.tex", BAD)
        code, recs, err = self.check("a.tex", "sub/b.tex", "other/c.tex")
        self.assertEqual(code, 1, err)
        self.assertEqual(rules(recs["a.tex"]), ["angle_labels"])
        self.assertEqual(recs["a.tex"]["verdicts"]["in_frame"], "n/a")  # not run
        self.assertEqual(rules(recs["b.tex"]), ["in_frame"])
        self.assertEqual(rules(recs["c.tex"]), ["angle_labels"])

    def test_discovery_stops_at_the_repository_root(self):
        self.write("tikzlint.toml", 'ignore = ["in_frame"]\n')
        (self.tmp / "repo" / ".git").mkdir(parents=True)
        self.write("repo/a.tex", BAD)
        _, recs, _ = self.check("repo/a.tex")
        self.assertEqual(rules(recs["a.tex"]), ["angle_labels", "in_frame"])

    def test_command_line_takes_precedence(self):
        self.write("tikzlint.toml", 'select = ["in_frame"]\n[rules.in_frame]\ntolerance_pt = 1000\n')
        self.write("a.tex", BAD)
        code, recs, err = self.check("a.tex")
        self.assertEqual(code, 0, err)  # the threshold of the file hides the overhang
        self.assertEqual(recs["a.tex"]["verdicts"]["in_frame"], "pass")
        self.assertEqual(recs["a.tex"]["verdicts"]["angle_labels"], "n/a")
        code, recs, _ = self.check("--set", "in_frame.tolerance_pt=2", "a.tex")
        self.assertEqual(recs["a.tex"]["verdicts"]["in_frame"], "fail")
        _, recs, _ = self.check("--select", "angle_labels", "a.tex")
        self.assertEqual(rules(recs["a.tex"]), ["angle_labels"])
        _, recs, _ = self.check("--ignore", "in_frame", "--set", "in_frame.tolerance_pt=2", "a.tex")
        self.assertEqual(rules(recs["a.tex"]), [])
        # --config FILE replaces discovery; --isolated reads no file at all
        cfg = self.write("elsewhere/strict.toml", 'ignore = ["angle_labels"]\n')
        _, recs, _ = self.check("--config", str(cfg), "a.tex")
        self.assertEqual(rules(recs["a.tex"]), ["in_frame"])
        _, recs, _ = self.check("--isolated", "a.tex")
        self.assertEqual(rules(recs["a.tex"]), ["angle_labels", "in_frame"])

    def test_overrides_apply_to_matching_paths(self):
        self.write("tikzlint.toml", '[[overrides]]\nfiles = ["generated/**"]\nignore = ["in_frame"]\n'
                   '[[overrides]]\nfiles = ["old_*.tex"]\nselect = ["compiles"]\n')
        self.write("figs/a.tex", BAD)
        self.write("generated/deep/b.tex", BAD)
        self.write("figs/old_c.tex", BAD)
        _, recs, err = self.check("figs/a.tex", "generated/deep/b.tex", "figs/old_c.tex")
        self.assertEqual(rules(recs["a.tex"]), ["angle_labels", "in_frame"], err)
        self.assertEqual(rules(recs["b.tex"]), ["angle_labels"])
        self.assertEqual(rules(recs["old_c.tex"]), [])
        # a directory operand: each file below gets its own settings
        _, recs, _ = self.check(".")
        self.assertEqual(rules(recs["b.tex"]), ["angle_labels"])

    def test_include_dirs_are_relative_to_the_config_and_widen_the_read_policy(self):
        self.write("tikzlint.toml", 'include-dirs = ["styles"]\n')
        self.write("styles/mystyle.sty", "\\tikzset{big/.style={x=3cm}}\n")
        self.write("styles/part.tex", "\\draw[->] (0,3.5) -- (6,3.5);\n")
        doc = BAD.replace("\\usepackage{tikz}", "\\usepackage{tikz}\n\\usepackage{mystyle}")
        self.write("figs/a.tex", doc.replace("\\draw[->] (0,3.5) -- (6,3.5);", "\\input{part}"))
        _, recs, err = self.check("figs/a.tex")
        r = recs["a.tex"]
        self.assertFalse([d for d in r["diagnostics"] if d["rule"] in ("missing-file", "refused-read")], err)
        self.assertEqual(r["verdicts"]["in_frame"], "fail")  # the arrow in styles/part.tex was read
        _, recs, _ = self.check("--isolated", "figs/a.tex")
        self.assertTrue([d for d in recs["a.tex"]["diagnostics"] if d["rule"] in ("missing-file", "refused-read")])

    def test_spec_per_path(self):
        self.write("specs/labels.json", '{"required_labels": ["Q"]}')
        self.write("tikzlint.toml", '[[overrides]]\nfiles = ["a.tex"]\nspec = "specs/labels.json"\n')
        self.write("a.tex", BAD)
        self.write("b.tex", BAD)
        _, recs, err = self.check("a.tex", "b.tex")
        self.assertEqual(recs["a.tex"]["verdicts"]["spec"], "fail", err)
        self.assertEqual(recs["b.tex"]["verdicts"]["spec"], "n/a")

    def test_errors_are_usage_errors_with_locations(self):
        self.write("a.tex", BAD)
        cases = [
            ('select = ["in_frame"]\nignroe = ["x"]\n', ":2:1: unknown key 'ignroe'", "valid keys: ignore, include-dirs"),
            ('ignore = ["in_frame", "overlapp"]\n', ":1:23: ignore: unknown rule or code 'overlapp'", "label_association"),
            ('[rules.in_frame]\ntolerance = 3\n', ":2:1: [rules.in_frame]: rule 'in_frame' has no threshold", "tolerance_pt"),
            ('[rules.inframe]\ntolerance_pt = 3\n', ":1:8: [rules]: unknown rule 'inframe'", "in_frame"),
            ('select = ["in_frame"\nspec = "topsecretvalue"\n', ":2:1: malformed TOML", ""),
            ('include-dirs = ["/etc"]\n', ":1:17: 'include-dirs' must be relative", ""),
        ]
        for text, located, listed in cases:
            cfg = self.write("tikzlint.toml", text)
            code, out, err = run("check", "a.tex", cwd=self.tmp)
            self.assertEqual(code, 2, text)
            self.assertEqual(out, "", text)  # nothing is checked
            self.assertIn(str(cfg) + located, err)
            self.assertIn(listed, err)
            self.assertNotIn("topsecret", err)
        code, _, err = run("check", "--config", str(self.tmp / "missing.toml"), "a.tex", cwd=self.tmp)
        self.assertEqual(code, 2)
        self.assertIn("no such config file", err)
        code, _, err = run("check", "--select", "in_frame,bogus", "a.tex", cwd=self.tmp)
        self.assertEqual(code, 2)
        self.assertIn("unknown rule or code 'bogus'", err)

    def test_rank_and_compare_use_the_first_files_configuration(self):
        self.write("a.tex", BAD)
        self.write("b.tex", BAD.replace("(6,3.5)", "(3,3.5)"))  # in_frame passes
        code, out, err = run("rank", "--format", "jsonl", "a.tex", "b.tex", cwd=self.tmp)
        self.assertEqual(code, 0, err)
        ranked = [json.loads(l) for l in out.splitlines()]
        self.assertEqual(ranked[0]["verdicts"]["in_frame"], "pass")
        self.write("tikzlint.toml", 'ignore = ["in_frame"]\n')
        code, out, err = run("rank", "--format", "jsonl", "a.tex", "b.tex", cwd=self.tmp)
        self.assertEqual(code, 0, err)
        self.assertEqual({json.loads(l)["verdicts"]["in_frame"] for l in out.splitlines()}, {"n/a"})
        self.write("tikzlint.toml", 'ignore = ["in_fram"]\n')
        code, _, err = run("compare", "a.tex", "b.tex", cwd=self.tmp)
        self.assertEqual(code, 2)
        self.assertIn("unknown rule or code 'in_fram'", err)

    def test_config_contents_are_never_echoed(self):
        # Every value of a config, even a wrong one, stays out of the output.
        self.write("a.tex", BAD)
        self.write("tikzlint.toml", 'include-dirs = ["../SECRET-OUTSIDE"]\n[rules.in_frame]\ntolerance_pt = "SECRET-VALUE"\n')
        code, out, err = run("check", "a.tex", cwd=self.tmp)
        self.assertEqual(code, 2)
        self.assertNotIn("SECRET", out + err)


def main():
    global TIKZLINT
    ap = argparse.ArgumentParser()
    ap.add_argument("--tikzlint", required=True)
    a, rest = ap.parse_known_args()
    TIKZLINT = os.path.abspath(a.tikzlint)
    unittest.main(argv=[sys.argv[0], *rest], verbosity=1)


if __name__ == "__main__":
    main()
