#!/usr/bin/env python3
"""Run the fixture tests: every fixtures/**/*.tex states what tikzlint must report.

Fixture comments (DEVELOPERS.md, "Fixture format"):
  % expect: RULE[, RULE...]    each RULE reports a warning/error on the next line that is not
                               blank and not a comment (a `% tikzlint:` suppression comment
                               counts as a line, so unused-suppression can be expected on it)
  % verdict: RULE=V[, ...]     the file's verdict for RULE is V (pass, fail, n/a, indeterminate)
  % expect-exit: N             the exit code of `tikzlint check` on this file alone
  % args: ...                  extra arguments for `tikzlint check`, relative to the fixture

A fixture fails on a missing finding, an unexpected warning/error finding, a wrong verdict or a
wrong exit code. Notes are never required and never unexpected.

usage: run_fixtures.py --tikzlint PATH [--jobs N] [--filter TEXT] [-v] DIR|FILE...
"""
import argparse
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

EXPECT = re.compile(r"^\s*%\s*expect:\s*(.*?)\s*$")
VERDICT = re.compile(r"^\s*%\s*verdict:\s*(.*?)\s*$")
EXPECT_EXIT = re.compile(r"^\s*%\s*expect-exit:\s*(.*?)\s*$")
ARGS = re.compile(r"^\s*%\s*args:\s*(.*?)\s*$")
DIRECTIVE = re.compile(r"^\s*%\s*tikzlint:")
VERDICTS = {"pass", "fail", "n/a", "indeterminate"}
FINDING_SEVERITIES = {"warning", "error"}
TIMEOUT_S = 120


class Fixture:
    def __init__(self, path):
        self.path = path
        self.expects = set()  # (rule, line)
        self.verdicts = {}  # rule -> verdict
        self.exit = None
        self.args = []
        self.errors = []  # problems with the fixture's own annotations

    def parse(self):
        text = self.path.read_bytes().decode("utf-8", errors="replace")
        lines = text.split("\n")
        for i, line in enumerate(lines):
            lineno = i + 1
            if m := EXPECT.match(line):
                target = self._target_line(lines, i)
                rules = [r.strip() for r in m.group(1).split(",") if r.strip()]
                if target is None:
                    self.errors.append(f"line {lineno}: '% expect:' has no following statement line")
                elif not rules:
                    self.errors.append(f"line {lineno}: '% expect:' names no rule")
                for r in rules:
                    if target is not None:
                        self.expects.add((r, target))
            elif m := VERDICT.match(line):
                for item in filter(None, (s.strip() for s in m.group(1).split(","))):
                    rule, eq, v = item.partition("=")
                    if not eq or v.strip() not in VERDICTS:
                        self.errors.append(f"line {lineno}: bad verdict '{item}' (want RULE=pass|fail|n/a|indeterminate)")
                    else:
                        self.verdicts[rule.strip()] = v.strip()
            elif m := EXPECT_EXIT.match(line):
                if not m.group(1).isdigit():
                    self.errors.append(f"line {lineno}: bad expect-exit '{m.group(1)}'")
                else:
                    self.exit = int(m.group(1))
            elif m := ARGS.match(line):
                self.args += shlex.split(m.group(1))
        return self

    @staticmethod
    def _target_line(lines, i):
        for j in range(i + 1, len(lines)):
            s = lines[j].strip()
            if not s:
                continue
            if s.startswith("%") and not DIRECTIVE.match(lines[j]):
                continue
            return j + 1
        return None

    @property
    def runs_alone(self):
        return self.exit is not None or bool(self.args)


def run_tikzlint(tikzlint, args, cwd=None):
    try:
        p = subprocess.run([tikzlint, "check", "--format", "jsonl", *args], cwd=cwd,
                           capture_output=True, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return None, [], f"timed out after {TIMEOUT_S}s"
    records = []
    for line in p.stdout.decode("utf-8", errors="replace").splitlines():
        if not line.strip():
            continue
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError as e:
            return p.returncode, records, f"unparsable jsonl line ({e}): {line[:200]}"
    problem = ""
    if p.returncode not in (0, 1, 2):
        problem = f"tikzlint exited with {p.returncode} (crash?): {p.stderr.decode(errors='replace')[-500:]}"
    return p.returncode, records, problem


def compare(fx, record, code):
    """The list of mismatches between what `fx` states and what tikzlint reported."""
    problems = list(fx.errors)
    if record is None:
        return problems + ["no jsonl record for this file"]
    got = set()
    unlocated = []
    for d in record.get("diagnostics", []):
        if d.get("severity") not in FINDING_SEVERITIES:
            continue
        if d.get("line") is None:
            unlocated.append(d)
            continue
        got.add((d["rule"], d["line"]))
    for rule, line in sorted(fx.expects, key=lambda x: (x[1], x[0])):
        if (rule, line) not in got:
            problems.append(f"line {line}: expected a '{rule}' finding, got none")
    for rule, line in sorted(got - fx.expects, key=lambda x: (x[1], x[0])):
        msgs = [d["message"] for d in record["diagnostics"]
                if d["rule"] == rule and d.get("line") == line and d.get("severity") in FINDING_SEVERITIES]
        problems.append(f"line {line}: unexpected '{rule}' finding: {msgs[0] if msgs else ''}")
    for d in unlocated:
        problems.append(f"unexpected unlocated '{d['rule']}' {d['severity']}: {d['message']}")
    verdicts = record.get("verdicts", {})
    for rule, want in sorted(fx.verdicts.items()):
        have = verdicts.get(rule, "<missing>")
        if have != want:
            problems.append(f"verdict {rule}: expected {want}, got {have}")
    if fx.exit is not None and code != fx.exit:
        problems.append(f"exit code: expected {fx.exit}, got {code}")
    return problems


def find_fixtures(paths):
    out = []
    for p in map(Path, paths):
        if p.is_dir():
            out += sorted(p.rglob("*.tex"))
        else:
            out.append(p)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tikzlint", required=True)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--filter", default="")
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("paths", nargs="+")
    a = ap.parse_args()
    a.tikzlint = os.path.abspath(a.tikzlint)  # fixtures with args run in their own folder

    fixtures = [Fixture(p).parse() for p in find_fixtures(a.paths) if a.filter in str(p)]
    if not fixtures:
        print("fixtures: none found")
        return 0

    results = {}  # path -> problems
    batch = [fx for fx in fixtures if not fx.runs_alone]
    if batch:
        code, records, problem = run_tikzlint(a.tikzlint, ["--jobs", str(a.jobs), *[str(fx.path) for fx in batch]])
        by_file = {r.get("file"): r for r in records}
        for fx in batch:
            results[fx.path] = ([problem] if problem else []) + compare(fx, by_file.get(str(fx.path)), None)
    for fx in fixtures:
        if not fx.runs_alone:
            continue
        code, records, problem = run_tikzlint(a.tikzlint, [*fx.args, fx.path.name], cwd=fx.path.parent)
        record = next((r for r in records if r.get("file") == fx.path.name), None)
        results[fx.path] = ([problem] if problem else []) + compare(fx, record, code)

    failed = 0
    for fx in fixtures:
        problems = results[fx.path]
        if problems:
            failed += 1
            print(f"FAIL {fx.path}")
            for p in problems:
                print(f"  {fx.path}: {p}")
        elif a.verbose:
            print(f"ok   {fx.path}")
    print(f"fixtures: {len(fixtures) - failed} passed, {failed} failed, {len(fixtures)} total")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
