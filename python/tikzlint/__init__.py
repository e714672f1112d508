"""tikzlint: a static verifier for TikZ diagrams, from Python (docs/python.md).

    import tikzlint
    report = tikzlint.check(r"\\begin{tikzpicture} \\draw (0,0) -- (1,0); \\end{tikzpicture}")
    report.verdicts["in_frame"]        # "pass" | "fail" | "n/a" | "indeterminate"
    [d.message for d in report.diagnostics]

The checks run in C++ and release the GIL, so threads check in parallel. Bad input gives a
Report with diagnostics; misuse (a wrong type, an unknown rule or threshold) raises.
"""
from ._core import (  # noqa: F401
    Diagnostic,
    Part,
    Ranked,
    Report,
    Similarity,
    check,
    check_file,
    clear_cache,
    compare,
    explain,
    ir,
    rank,
    rules,
)

__all__ = [
    "Diagnostic", "Part", "Ranked", "Report", "Similarity", "check", "check_file", "clear_cache",
    "compare", "explain", "ir", "rank", "rules",
]
