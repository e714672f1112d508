#!/usr/bin/env python3
"""Issue 4 measurement (b): the pgfmanual's own examples, one file per codeexample block.

Extracts every `\\begin{codeexample}[...]` block from the pgfmanual sources (Debian package
texlive-pictures-doc: /usr/share/texlive/texmf-dist/doc/generic/pgf/pgfmanual-en-*.tex[.gz]),
skips `code only` blocks (not typeset by the manual either), wraps each in a standalone
document with the block's `preamble=` and runs `tikzlint check --format jsonl` on it.

Reports, over the examples that contain a TikZ picture (tikzpicture environment or \\tikz):
  - hard failures: crash (exit status other than 0/1, no output) or timeout  (target 0)
  - share with any unsupported-* diagnostic                                   (target < 20%)
  - the most frequent unsupported keys / operations / constructs.

usage: bench/coverage/pgfmanual_coverage.py [--tikzlint build/tikzlint] [--out /tmp/pgfmanual-examples]
                                            [--manual DIR] [--jobs N] [--list RULE]
"""
import argparse
import collections
import json
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import manual_examples as mx  # noqa: E402
from manual_examples import balanced, option_value, read  # noqa: E402,F401  (tools/audit and bench/corpus use them from here)

MANUAL = "/usr/share/texlive/texmf-dist/doc/generic/pgf"


def codeexamples(text):
    """(options, body) of each codeexample environment of a manual source, in order."""
    return mx.environments(text, "codeexample")


def examples(manual_dir):
    files = sorted(pathlib.Path(manual_dir).glob("pgfmanual-en-*.tex*"))
    for f in files:
        text = read(f)
        n = 0
        setup = []
        for opts, body in codeexamples(text):
            n += 1
            name = re.sub(r"\.tex(\.gz)?$", "", f.name).replace("pgfmanual-en-", "")
            if re.search(r"(^|,)\s*setup code", opts):
                # pgfmanual-en-macros.tex runs a `setup code` block once, at the point where it appears, and
                # what it defines (styles, data groups, macros) stays for the rest of the manual; later examples
                # rely on it, so each example gets the setup blocks of its chapter that precede it.
                setup.append(body)
            yield f"{name}-{n:03d}", opts, body, "\n".join(setup)


def standalone(opts, body, setup_blocks=""):
    pre = option_value(opts, "preamble") or ""
    setup = option_value(opts, "setup code") or ""
    pre_code = option_value(opts, "pre") or ""
    libs = ("arrows.meta,calc,positioning,intersections,angles,quotes,shapes,shapes.geometric,backgrounds,"
            "decorations.pathmorphing,patterns,3d,through,topaths,fit,matrix,trees,automata,petri")
    return ("\\documentclass{standalone}\n\\usepackage{tikz}\n\\usetikzlibrary{" + libs + "}\n" + pre + "\n" +
            setup + "\n\\begin{document}\n" + setup_blocks + "\n" + pre_code + "\n" + body + "\n\\end{document}\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tikzlint", default="build/tikzlint")
    ap.add_argument("--manual", default=MANUAL)
    ap.add_argument("--out", default="/tmp/pgfmanual-examples")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=30)
    ap.add_argument("--list", default="", help="print the files with a diagnostic of this rule")
    ap.add_argument("--dump", default="", help="write each example's unsupported diagnostics to this JSON file")
    args = ap.parse_args()
    paths, total, code_only, no_picture = mx.write_examples(
        args.out, examples(args.manual), lambda b: standalone(b[1], b[2], b[3]), skip="code only|setup code")
    print(f"codeexample blocks: {total}; code only: {code_only}; without a TikZ picture: {no_picture}; "
          f"measured: {len(paths)}")
    hard, unsupported, syntax = [], [], []
    by_rule = collections.Counter()
    by_what = collections.Counter()
    listing = []
    dump = {}
    for path, failure, rec in mx.check_all(args.tikzlint, paths, args.jobs, args.timeout):
        if failure:
            hard.append((path.name, failure))
            continue
        diags = rec.get("diagnostics", [])
        unsup = [d for d in diags if d["rule"].startswith("unsupported")]
        if any(d["rule"] == "syntax-error" for d in diags):
            syntax.append(path.name)
        if unsup:
            unsupported.append(path.name)
            dump[path.stem] = [{"rule": d["rule"], "message": d["message"], "line": d.get("line")} for d in unsup]
            seen = set()
            for d in unsup:
                what = re.sub(r"\(.*", "(...)", d["message"])
                m = re.match(r"unsupported statement '(\\[A-Za-z@]+|[^ ']*)", what)
                if m:
                    what = f"unsupported statement '{m.group(1)}...'"
                else:
                    what = re.sub(r"'[^']*\\[^']*'", "'<macro>'", what)
                if (d["rule"], what) in seen:
                    continue
                seen.add((d["rule"], what))
                by_rule[d["rule"]] += 1
                by_what[what] += 1
        if args.list and any(d["rule"] == args.list for d in diags):
            listing.append((path.name, [d["message"] for d in diags if d["rule"] == args.list]))
    n = len(paths)
    if args.dump:
        pathlib.Path(args.dump).write_text(json.dumps(dump, indent=1, sort_keys=True))
    print(f"hard failures (crash/timeout): {len(hard)}")
    for name, why in hard[:20]:
        print(f"  {name}: {why}")
    print(f"examples with an unsupported construct: {len(unsupported)}/{n} = {100.0 * len(unsupported) / max(1, n):.1f}%")
    print(f"examples with a syntax-error diagnostic: {len(syntax)}/{n}")
    print("examples per unsupported rule:", dict(by_rule.most_common()))
    print("top unsupported constructs (examples):")
    for what, c in by_what.most_common(40):
        print(f"  {c:4d}  {what}")
    for name, msgs in listing:
        print(name, msgs[:3])
    return 0


if __name__ == "__main__":
    sys.exit(main())
