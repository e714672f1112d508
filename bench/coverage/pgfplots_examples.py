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
    (an example whose error lualatex logs too, pictures written all the same, is listed apart)

TeX batches are CPU work: run under the lock, e.g.
  flock /work/locks/cpu bench/coverage/pgfplots_examples.py --tex

usage: bench/coverage/pgfplots_examples.py [--tikzlint build/tikzlint] [--out DIR] [--tex]
                                           [--chapter REGEX] [--list unsupported|bbox|errors]
"""
import argparse
import pathlib
import re
import sys
import tarfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import manual_examples as mx  # noqa: E402  (the manuals share the codeexample format and the checks)

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
        for opts, body in mx.environments(text, "codeexample"):
            n += 1
            name = chap.replace("pgfplots.", "") + f"-{n:03d}"
            yield name, opts, body, chapter_lib


def libraries(body, chapter_lib):
    plots = [chapter_lib] if chapter_lib else []
    for m in re.finditer(r"\\usepgfplotslibrary\{([^}]*)\}", body):
        plots += [x.strip() for x in m.group(1).split(",") if x.strip()]
    return list(dict.fromkeys(plots)), mx.usetikzlibraries(body)


def standalone(body, chapter_lib):
    plots, tikz = libraries(body, chapter_lib)
    pre = "\\documentclass{standalone}\n\\usepackage{pgfplots}\n\\pgfplotsset{compat=" + COMPAT + "}\n"
    if plots:
        pre += "\\usepgfplotslibrary{" + ",".join(plots) + "}\n"
    if tikz:
        pre += "\\usetikzlibrary{" + ",".join(tikz) + "}\n"
    return pre + "\\begin{document}\n" + body.strip("\n") + "\n\\end{document}\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    mx.add_arguments(ap, out="/tmp/pgfplots-examples")
    ap.add_argument("--tarball", default=TARBALL)
    ap.add_argument("--chapter", default="", help="only chapters (file stems) matching this regex")
    args = ap.parse_args()
    paths, total, code_only, no_picture = mx.write_examples(
        args.out, examples(args.tarball, args.chapter), lambda b: standalone(b[2], b[3]))
    print(f"codeexample blocks: {total}; code only: {code_only}; without a picture: {no_picture}; "
          f"examples: {len(paths)} (written to {args.out})")
    checked = mx.check_all(args.tikzlint, paths, args.jobs, args.timeout)
    # tools/tex-diff keeps the geometry of a run that logged errors yet wrote its pictures (an
    # undefined \url, a pattern without its library): an error diagnostic on such an example is
    # TeX's error too, so those are compiled once more and listed apart (mx.report).
    mx.report(args, paths, checked, top=15, recheck_tex_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
