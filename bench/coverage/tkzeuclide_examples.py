#!/usr/bin/env python3
"""Issue 17 item 3: tkz-euclide's own manual examples, one standalone file per tkzexample block.

Extracts every `\\begin{tkzexample}[...]` block that holds a picture from the tkz-euclide manual
sources (Debian texlive-pictures-doc:
/usr/share/texlive/texmf-dist/doc/latex/tkz-euclide/TKZdoc-euclide-*.tex[.gz]), skips `code only`
blocks (the manual does not typeset them), and wraps each in a standalone document with the
manual's own packages and style settings (TKZdoc-euclide-main.tex: xcolor with dvipsnames and
svgnames, tkz-euclide, the backgrounds library, and its `settings styles` block: \\tkzSetUp...,
`new`, `label style`...; the examples draw with those styles) plus every `\\usetikzlibrary{..}`
the example writes. The manual's fonts (fontspec, unicode-math) are left out: they are the
document's, not the figures'.

Reports, over the examples with a picture:
  - share lowered with no unsupported-* diagnostic                (target >= 90%)
  - the most frequent unsupported messages
and, with --tex (lualatex through tools/tex-diff, results cached by file content in --cache,
default .cache/tex-diff in the repository, which git ignores):
  - examples that lualatex compiles; of those, picture bbox within 1pt   (target >= 90%)
  - error-severity diagnostics on examples that compile                  (target 0)
    (an example whose error lualatex logs too, pictures written all the same, is listed apart)

TeX batches are CPU work: run under the lock, e.g.
  flock /work/locks/cpu bench/coverage/tkzeuclide_examples.py --tex

usage: bench/coverage/tkzeuclide_examples.py [--tikzlint build/tikzlint] [--out DIR] [--tex]
                                             [--chapter REGEX] [--list unsupported|bbox|errors]
"""
import argparse
import collections
import concurrent.futures
import json
import pathlib
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from pgfmanual_coverage import balanced, read  # noqa: E402
from pgfplots_examples import run_check  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
MANUAL = "/usr/share/texlive/texmf-dist/doc/latex/tkz-euclide"

# TKZdoc-euclide-main.tex's packages and its "settings styles" block, as the manual has them.
PREAMBLE = r"""\documentclass{standalone}
\usepackage[dvipsnames,svgnames]{xcolor}
\usepackage{tkz-euclide}
\usetikzlibrary{backgrounds}
\tkzSetUpColors[background=white,text=black]
\tkzSetUpCompass[color=orange, line width=.2pt,delta=10]
\tkzSetUpArc[color=gray,line width=.2pt]
\tkzSetUpPoint[size=2,color=teal]
\tkzSetUpLine[line width=.2pt,color=teal]
\tkzSetUpStyle[color=orange,line width=.2pt]{new}
\tikzset{every picture/.style={line width=.2pt}}
\tikzset{label angle style/.append style={color=teal,font=\footnotesize}}
\tikzset{label style/.append style={below,color=teal,font=\scriptsize}}
\tikzset{new/.style={color=orange,line width=.2pt}}
"""


def tkzexamples(text):
    """(options, body) of each tkzexample environment of a manual source, in order."""
    pos = 0
    while True:
        b = text.find("\\begin{tkzexample}", pos)
        if b < 0:
            return
        i = b + len("\\begin{tkzexample}")
        opts = ""
        if i < len(text) and text[i] == "[":
            j = balanced(text, i, "[", "]")
            opts = text[i + 1:j - 1]
            i = j
        e = text.find("\\end{tkzexample}", i)
        if e < 0:
            return
        yield opts, text[i:e]
        pos = e + 1


def examples(manual, chapter_re):
    for path in sorted(pathlib.Path(manual).glob("TKZdoc-euclide-*.tex*")):
        chap = path.name.split(".")[0].replace("TKZdoc-euclide-", "")
        if chapter_re and not re.search(chapter_re, chap):
            continue
        for n, (opts, body) in enumerate(tkzexamples(read(path)), 1):
            yield f"{chap}-{n:03d}", opts, body


def standalone(body):
    tikz = []
    for m in re.finditer(r"\\usetikzlibrary\{([^}]*)\}", body):
        tikz += [x.strip() for x in m.group(1).split(",") if x.strip()]
    pre = PREAMBLE
    if tikz:
        pre += "\\usetikzlibrary{" + ",".join(dict.fromkeys(tikz)) + "}\n"
    return pre + "\\begin{document}\n" + body.strip("\n") + "\n\\end{document}\n"


def tex_error(tex, timeout):
    """TeX's first error (a `!` line of the log) compiling `tex` alone, or "".

    tools/tex-diff keeps the geometry of a run that logged errors yet wrote its pictures (an
    undefined macro in a label); an error diagnostic on such an example is TeX's error too, so
    the examples tikzlint gives an error are compiled once more here to tell the two apart. The
    manual's own fonts (fourier-otf: \\widearc; amsmath through unicode-math: \\dfrac) are not in
    the standalone files, so a few examples that build in the manual do not build alone."""
    with tempfile.TemporaryDirectory(prefix="tkz-err-") as work:
        try:
            subprocess.run(["lualatex", "-interaction=nonstopmode", str(pathlib.Path(tex).resolve())], cwd=work,
                           capture_output=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return "lualatex timed out"
        log = pathlib.Path(work) / (pathlib.Path(tex).stem + ".log")
        if log.exists():
            for line in log.read_text(errors="replace").splitlines():
                if line.startswith("!"):
                    return line
    return ""


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tikzlint", default=str(ROOT / "build/tikzlint"))
    ap.add_argument("--manual", default=MANUAL)
    ap.add_argument("--out", default="/tmp/tkzeuclide-examples")
    ap.add_argument("--chapter", default="", help="only chapters (angles, circles, ...) matching this regex")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--tex", action="store_true", help="also compile with lualatex (tools/tex-diff) and compare bboxes")
    ap.add_argument("--cache", default=str(ROOT / ".cache/tex-diff"), help="lualatex results by content hash")
    ap.add_argument("--list", default="", choices=["", "unsupported", "bbox", "errors"],
                    help="print the files with an unsupported construct / a bbox off by more than 1pt / an error")
    args = ap.parse_args()
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*.tex"):
        old.unlink()
    total = code_only = no_picture = 0
    paths = []
    for name, opts, body in examples(args.manual, args.chapter):
        total += 1
        if re.search(r"(^|,)\s*code only", opts):
            code_only += 1
            continue
        if "tikzpicture" not in body and "\\tikz" not in body:
            no_picture += 1
            continue
        p = out / f"{name}.tex"
        p.write_text(standalone(body))
        paths.append(p)
    print(f"tkzexample blocks: {total}; code only: {code_only}; without a picture: {no_picture}; "
          f"examples: {len(paths)} (written to {out})")

    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
        checked = list(ex.map(lambda p: run_check(args.tikzlint, p, args.timeout), paths))
    hard = [(p, err) for p, err, _ in checked if err]
    unsupported_files, errors_by_file = [], {}
    messages = collections.Counter()
    for p, err, rec in checked:
        if err:
            continue
        diags = rec.get("diagnostics", [])
        uns = [d for d in diags if d["rule"].startswith("unsupported")]
        if uns:
            unsupported_files.append(p)
            for d in {(d["rule"], re.sub(r"'[^']*'", "'..'", d["message"])) for d in uns}:
                messages[d] += 1
        errs = [d for d in diags if d["severity"] == "error"]
        if errs:
            errors_by_file[p] = errs
    n = len(paths)
    lowered = n - len(unsupported_files) - len(hard)
    print(f"hard failures (crash, timeout): {len(hard)}")
    for p, err in hard[:10]:
        print(f"  {p.name}: {err}")
    print(f"lowered with no unsupported construct: {lowered}/{n} = {100 * lowered / max(n, 1):.1f}%   (target >= 90%)")
    print("most frequent unsupported diagnostics (files):")
    for (rule, msg), k in messages.most_common(20):
        print(f"  {k:4d}  {rule}: {msg[:100]}")
    if args.list == "unsupported":
        for p in unsupported_files:
            print(f"  unsupported: {p}")

    if not args.tex:
        print(f"files with an error diagnostic (compiling or not): {len(errors_by_file)}")
        for p, errs in list(errors_by_file.items())[:10]:
            print(f"  {p.name}: {errs[0]['rule']}: {errs[0]['message'][:90]}")
        return 0
    js = out / "tex-diff.json"
    cmd = [sys.executable, str(ROOT / "tools/tex-diff/tex-diff"), "diagrams", *map(str, paths), "--tikzlint",
           args.tikzlint, "--jobs", str(args.jobs), "--cache", args.cache, "--json", str(js), "--timeout", "120"]
    subprocess.run(cmd, capture_output=True, text=True)
    results = json.loads(js.read_text()) if js.exists() else []
    compiled = [r for r in results if not r["tex_error"]]
    ok, off = 0, []
    for r in compiled:
        errs = [e["bbox_err"] for e in r["pictures"]]
        if errs and all(e is not None and max(e) <= 1.0 for e in errs):
            ok += 1
        else:
            worst = max((max(e) for e in errs if e is not None), default=float("nan"))
            off.append((r["file"], worst))
    compiled_names = {pathlib.Path(r["file"]).name for r in compiled}
    err_compiling = {p: e for p, e in errors_by_file.items() if p.name in compiled_names}
    tex_errs = {p: tex_error(p, args.timeout) for p in err_compiling}
    tex_also = {p: m for p, m in tex_errs.items() if m}
    err_compiling = {p: e for p, e in err_compiling.items() if p not in tex_also}
    print(f"lualatex compiles: {len(compiled)}/{len(results)}")
    print(f"picture bbox within 1pt of lualatex: {ok}/{len(compiled)} = {100 * ok / max(len(compiled), 1):.1f}%"
          "   (target >= 90%)")
    print(f"compiling examples with an error diagnostic: {len(err_compiling)}   (target 0)")
    if tex_also:
        print(f"  and {len(tex_also)} whose error lualatex reports too (pictures written all the same):")
        for p, m in tex_also.items():
            print(f"    {p.name}: TeX {m[:60]}; tikzlint {errors_by_file[p][0]['rule']}: "
                  f"{errors_by_file[p][0]['message'][:60]}")
    for p, errs in list(err_compiling.items())[:15]:
        print(f"  {p.name}: {errs[0]['rule']}: {errs[0]['message'][:90]}")
    if args.list == "bbox":
        for f, w in sorted(off, key=lambda x: -x[1] if x[1] == x[1] else 0):
            print(f"  bbox off {w:8.2f}pt  {f}")
    if args.list == "errors":
        for p, errs in err_compiling.items():
            for e in errs:
                print(f"  {p}:{e['line']}: {e['rule']}: {e['message']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
