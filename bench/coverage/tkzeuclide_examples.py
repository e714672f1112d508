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
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import manual_examples as mx  # noqa: E402

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


def examples(manual, chapter_re):
    for path in sorted(pathlib.Path(manual).glob("TKZdoc-euclide-*.tex*")):
        chap = path.name.split(".")[0].replace("TKZdoc-euclide-", "")
        if chapter_re and not re.search(chapter_re, chap):
            continue
        for n, (opts, body) in enumerate(mx.environments(mx.read(path), "tkzexample"), 1):
            yield f"{chap}-{n:03d}", opts, body


def standalone(body):
    tikz = mx.usetikzlibraries(body)
    pre = PREAMBLE
    if tikz:
        pre += "\\usetikzlibrary{" + ",".join(tikz) + "}\n"
    return pre + "\\begin{document}\n" + body.strip("\n") + "\n\\end{document}\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    mx.add_arguments(ap, out="/tmp/tkzeuclide-examples")
    ap.add_argument("--manual", default=MANUAL)
    ap.add_argument("--chapter", default="", help="only chapters (angles, circles, ...) matching this regex")
    args = ap.parse_args()
    paths, total, code_only, no_picture = mx.write_examples(
        args.out, examples(args.manual, args.chapter), lambda b: standalone(b[2]))
    print(f"tkzexample blocks: {total}; code only: {code_only}; without a picture: {no_picture}; "
          f"examples: {len(paths)} (written to {args.out})")
    checked = mx.check_all(args.tikzlint, paths, args.jobs, args.timeout)
    # The manual's own fonts (fourier-otf: \widearc; amsmath through unicode-math: \dfrac) are not in
    # the standalone files, so a few examples that build in the manual do not build alone: an error
    # diagnostic on an example whose error lualatex logs too is listed apart (mx.report).
    mx.report(args, paths, checked, top=20, errors_without_tex=10, recheck_tex_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
