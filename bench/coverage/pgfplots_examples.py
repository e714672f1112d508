#!/usr/bin/env python3
"""Issue 17 item 2: pgfplots' own manual examples, one standalone file per codeexample block.

Extracts every `\\begin{codeexample}[...]` block from the pgfplots manual sources (Debian
texlive-pictures-doc: /usr/share/texlive/texmf-dist/doc/latex/pgfplots/pgfplots.doc.src.tar.bz2),
skips `code only` blocks (the manual does not typeset them either) and blocks without a picture,
and wraps each in a standalone document that loads pgfplots (compat=1.18, as the manual does) and
only the libraries the example names: the chapter's library (`\\def\\pgfplotsmanualcurlibrary`) and
every `\\usepgfplotslibrary{..}` / `\\usetikzlibrary{..}` written in the example (the manual writes
them as comments, `% requires \\usepgfplotslibrary{fillbetween}`).

Reports, over the examples with a picture:
  - share lowered with no unsupported-* diagnostic                (target >= 90%)
  - the most frequent unsupported messages
and, with --tex (lualatex through tools/tex-diff, results cached by file content in
--cache, default .cache/tex-diff in the repository, which git ignores):
  - examples that lualatex compiles; of those, picture bbox within 1pt   (target >= 90%)
  - error-severity diagnostics on examples that compile                  (target 0)

TeX batches are CPU work: run under the lock, e.g.
  flock /work/locks/cpu bench/coverage/pgfplots_examples.py --tex

usage: bench/coverage/pgfplots_examples.py [--tikzlint build/tikzlint] [--out DIR] [--tex]
                                           [--chapter REGEX] [--list unsupported|bbox|errors]
"""
import argparse
import collections
import concurrent.futures
import io
import json
import pathlib
import re
import subprocess
import sys
import tarfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from pgfmanual_coverage import codeexamples  # noqa: E402  (the manuals share the codeexample format)

ROOT = pathlib.Path(__file__).resolve().parents[2]
TARBALL = "/usr/share/texlive/texmf-dist/doc/latex/pgfplots/pgfplots.doc.src.tar.bz2"
COMPAT = "1.18"  # pgfplots' /pgfplots/compat/mostrecent in the installed version; the manual uses it



def chapters(tarball):
    with tarfile.open(tarball) as tf:
        for m in sorted(tf.getmembers(), key=lambda m: m.name):
            if not m.isfile() or not m.name.endswith(".tex"):
                continue
            yield pathlib.Path(m.name).stem, tf.extractfile(m).read().decode("utf-8", errors="replace")


def examples(tarball, chapter_re):
    for chap, text in chapters(tarball):
        if chapter_re and not re.search(chapter_re, chap):
            continue
        m = re.search(r"\\def\\pgfplotsmanualcurlibrary\{([^}]*)\}", text)
        chapter_lib = m.group(1).strip() if m else ""
        n = 0
        for opts, body in codeexamples(text):
            n += 1
            name = chap.replace("pgfplots.", "") + f"-{n:03d}"
            yield name, opts, body, chapter_lib


def libraries(body, chapter_lib):
    plots = [chapter_lib] if chapter_lib else []
    tikz = []
    for m in re.finditer(r"\\usepgfplotslibrary\{([^}]*)\}", body):
        plots += [x.strip() for x in m.group(1).split(",") if x.strip()]
    for m in re.finditer(r"\\usetikzlibrary\{([^}]*)\}", body):
        tikz += [x.strip() for x in m.group(1).split(",") if x.strip()]
    dedup = lambda xs: list(dict.fromkeys(xs))
    return dedup(plots), dedup(tikz)


def standalone(body, chapter_lib):
    plots, tikz = libraries(body, chapter_lib)
    pre = "\\documentclass{standalone}\n\\usepackage{pgfplots}\n\\pgfplotsset{compat=" + COMPAT + "}\n"
    if plots:
        pre += "\\usepgfplotslibrary{" + ",".join(plots) + "}\n"
    if tikz:
        pre += "\\usetikzlibrary{" + ",".join(tikz) + "}\n"
    return pre + "\\begin{document}\n" + body.strip("\n") + "\n\\end{document}\n"


def run_check(tikzlint, path, timeout):
    try:
        p = subprocess.run([tikzlint, "check", "--format", "jsonl", str(path)], capture_output=True, text=True,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return path, "timeout", None
    if p.returncode not in (0, 1) or not p.stdout.strip():
        return path, f"crash (exit {p.returncode}): {p.stderr.strip()[-200:]}", None
    try:
        return path, None, json.loads(p.stdout.strip().splitlines()[-1])
    except json.JSONDecodeError:
        return path, "unparsable output", None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tikzlint", default=str(ROOT / "build/tikzlint"))
    ap.add_argument("--tarball", default=TARBALL)
    ap.add_argument("--out", default="/tmp/pgfplots-examples")
    ap.add_argument("--chapter", default="", help="only chapters (file stems) matching this regex")
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
    for name, opts, body, lib in examples(args.tarball, args.chapter):
        total += 1
        if re.search(r"(^|,)\s*code only", opts):
            code_only += 1
            continue
        if "tikzpicture" not in body and "\\tikz" not in body:
            no_picture += 1
            continue
        p = out / f"{name}.tex"
        p.write_text(standalone(body, lib))
        paths.append(p)
    print(f"codeexample blocks: {total}; code only: {code_only}; without a picture: {no_picture}; "
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
    for (rule, msg), k in messages.most_common(15):
        print(f"  {k:4d}  {rule}: {msg[:100]}")
    if args.list == "unsupported":
        for p in unsupported_files:
            print(f"  unsupported: {p}")

    if not args.tex:
        print(f"files with an error diagnostic (compiling or not): {len(errors_by_file)}")
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
    print(f"lualatex compiles: {len(compiled)}/{len(results)}")
    print(f"picture bbox within 1pt of lualatex: {ok}/{len(compiled)} = {100 * ok / max(len(compiled), 1):.1f}%"
          "   (target >= 90%)")
    print(f"compiling examples with an error diagnostic: {len(err_compiling)}   (target 0)")
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
