#!/usr/bin/env python3
"""Issue 4 measurement (a): share of the dev diagrams that lower with no `unsupported-*`
diagnostic (pgfplots axis pictures count as unsupported), plus the top unsupported messages.

usage: bench/coverage/dev_coverage.py [--tikzlint build/tikzlint]
                                      [--dataset /work/shared/datasets/diagramir-dev] [--list]
"""
import argparse
import collections
import json
import pathlib
import re
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tikzlint", default="build/tikzlint")
    ap.add_argument("--dataset", default="/work/shared/datasets/diagramir-dev")
    ap.add_argument("--list", action="store_true", help="print every file with its unsupported diagnostics")
    args = ap.parse_args()
    ds = pathlib.Path(args.dataset)
    files = sorted((ds / "diagrams").glob("*.tex"))
    clean, failures, crashes = 0, [], []
    rules = collections.Counter()
    messages = collections.Counter()
    other_errors = collections.Counter()
    for f in files:
        try:
            p = subprocess.run([args.tikzlint, "check", "--format", "jsonl", "--include-dir", str(ds / "styles"), str(f)],
                               capture_output=True, text=True, timeout=60)
        except subprocess.TimeoutExpired:
            crashes.append((f.name, "timeout"))
            continue
        if p.returncode not in (0, 1) or not p.stdout.strip():
            crashes.append((f.name, f"exit {p.returncode}: {p.stderr.strip()[:200]}"))
            continue
        rec = json.loads(p.stdout.strip().splitlines()[-1])
        unsup = [d for d in rec.get("diagnostics", []) if d["rule"].startswith("unsupported")]
        for d in rec.get("diagnostics", []):
            if d["severity"] == "error" and not d["rule"].startswith("unsupported"):
                other_errors[d["rule"]] += 1
        if unsup:
            failures.append((f.name, unsup))
            for d in unsup:
                rules[d["rule"]] += 1
                # group messages by their quoted name: "unknown key 'foo'" -> key
                messages[re.sub(r"'\(.*\)'", "'(...)'", d["message"])] += 1
        else:
            clean += 1
    n = len(files)
    print(f"dev diagrams: {n}")
    print(f"lowered with no unsupported-* diagnostic: {clean}/{n} = {100.0 * clean / max(1, n):.1f}%")
    print(f"hard failures (crash/timeout): {len(crashes)}")
    for name, why in crashes:
        print(f"  {name}: {why}")
    print("unsupported diagnostics by rule:", dict(rules.most_common()))
    print("top unsupported messages:")
    for m, c in messages.most_common(25):
        print(f"  {c:4d}  {m}")
    if other_errors:
        print("other error diagnostics:", dict(other_errors.most_common()))
    if args.list:
        for name, unsup in failures:
            print(name)
            for d in unsup:
                print(f"    {d['line']}:{d['col']} [{d['rule']}] {d['message']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
