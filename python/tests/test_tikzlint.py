"""The Python package: check, check_file, ir, rank, compare, explain (docs/python.md)."""
import json
import pickle
import subprocess
import threading
from pathlib import Path

import pytest

import tikzlint

GOOD = r"""\documentclass{article}
\usepackage{tikz}
\begin{document}
\begin{tikzpicture}[x=1cm,y=1cm]
  \clip (-1,-1) rectangle (3,2);
  \draw (0,0) -- (2,0);
\end{tikzpicture}
\end{document}
"""

BAD = GOOD.replace(r"\clip (-1,-1) rectangle (3,2);", r"\clip (0,0) rectangle (3,2);").replace(
    r"\draw (0,0) -- (2,0);", "\\draw (0.5,0.5) -- (2.5,0.5);\n  \\draw[->] (0.5,1) -- (5,1);")
BAD_LINE = 7

FLOW = r"""\documentclass{article}
\usepackage{tikz}
\begin{document}
\begin{tikzpicture}[%s]
  \node[draw] (a) at (0,0) {ATP};
  \node[draw] (b) at (4,0) {ADP};
  \node[draw] (c) at (2,2) {energy};
  \draw[->] (a) -- (b);
  \draw[->] (c) -- (b);
  \draw (0,-1) -- (4,-1) -- (2,-2.5) -- cycle;
\end{tikzpicture}
\end{document}
"""


def test_check_reports_verdicts_and_located_diagnostics():
    r = tikzlint.check(BAD, filename="fig/bad.tex")
    assert r.file == "fig/bad.tex"
    assert r.status == "checked"
    assert list(r.verdicts) == tikzlint.rules() + ["spec", "compiles"]
    assert r.verdicts["in_frame"] == "fail"
    assert not r.passed
    d = [d for d in r.diagnostics if d.rule == "in_frame"][0]
    assert d.severity in ("warning", "error")
    assert d.line == BAD_LINE and d.col >= 1 and (d.end_line, d.end_col) >= (d.line, d.col)
    assert isinstance(d.evidence, dict) and "unit" in d.evidence
    assert r.elapsed_us >= 0
    good = tikzlint.check(GOOD)
    assert good.passed and good.file == "<string>"


def test_report_is_the_cli_record(cli, tmp_path):
    f = tmp_path / "bad.tex"
    f.write_text(BAD)
    out = subprocess.run([cli, "check", "--format", "jsonl", str(f)], capture_output=True, text=True).stdout
    want = json.loads(out.splitlines()[0])
    for got in (tikzlint.check_file(f), tikzlint.check(BAD, filename=str(f))):
        rec = json.loads(got.to_json())
        want.pop("elapsed_us", None), rec.pop("elapsed_us")
        assert rec == want
        assert [d.message for d in got.diagnostics] == [d["message"] for d in want["diagnostics"]]


def test_report_pickles_and_reads_back_from_json():
    r = tikzlint.check(BAD)
    for back in (pickle.loads(pickle.dumps(r)), tikzlint.Report.from_json(r.to_json())):
        assert back.to_json() == r.to_json()
        assert back.verdicts == r.verdicts
        assert back.passed == r.passed
        assert [d.message for d in back.diagnostics] == [d.message for d in r.diagnostics]


def test_bad_input_is_a_report_not_an_exception(tmp_path):
    r = tikzlint.check(r"\begin{tikzpicture} \draw (0,0) -- ; \node {")
    assert r.status == "checked"
    assert any(d.severity == "error" for d in r.diagnostics)
    missing = tikzlint.check_file(tmp_path / "nope.tex")
    assert missing.status == "error"
    assert missing.diagnostics[0].rule == "unreadable-file"
    assert tikzlint.check("").verdicts["in_frame"] == "n/a"


def test_misuse_raises():
    with pytest.raises(TypeError):
        tikzlint.check(b"\\draw;")
    with pytest.raises(TypeError):
        tikzlint.check(42)
    with pytest.raises(TypeError):
        tikzlint.check(GOOD, "positional filename")
    with pytest.raises(ValueError):
        tikzlint.check(GOOD, settings={"in_frame.nope": 1})
    with pytest.raises(ValueError):
        tikzlint.check(GOOD, settings={"nosuchrule.x": 1})
    with pytest.raises(TypeError):
        tikzlint.check(GOOD, settings={"in_frame.tolerance_pt": "big"})
    with pytest.raises(ValueError):
        tikzlint.check(GOOD, spec={"required_labels": 3})
    with pytest.raises(ValueError):
        tikzlint.explain("no_such_rule")
    with pytest.raises(TypeError):
        tikzlint.rank("not a list")
    with pytest.raises(TypeError):
        tikzlint.compare(GOOD, 3)


def test_settings_change_a_threshold():
    base = tikzlint.check(BAD)
    loose = tikzlint.check(BAD, settings={"in_frame.tolerance_pt": 1000})
    assert base.verdicts["in_frame"] == "fail"
    assert loose.verdicts["in_frame"] == "pass"


def test_config_keyword(tmp_path):
    cfg = tmp_path / "tikzlint.toml"
    cfg.write_text('[rules.in_frame]\ntolerance_pt = 1000\n[[overrides]]\nfiles = ["gen/*.tex"]\nignore = ["in_frame"]\n')
    assert tikzlint.check(BAD, config=cfg).verdicts["in_frame"] == "pass"
    # the keyword arguments win over the file, as the command line does
    assert tikzlint.check(BAD, config=cfg, settings={"in_frame.tolerance_pt": 2}).verdicts["in_frame"] == "fail"
    # overrides match the filename relative to the config's folder
    gen = tikzlint.check(BAD, config=cfg, filename=str(tmp_path / "gen" / "a.tex"))
    assert gen.verdicts["in_frame"] == "n/a"
    f = tmp_path / "gen" / "b.tex"
    f.parent.mkdir()
    f.write_text(BAD)
    assert tikzlint.check_file(f, config=str(cfg)).verdicts["in_frame"] == "n/a"
    cfg.write_text('ignore = ["in_fram"]\n')
    with pytest.raises(ValueError, match=r"tikzlint.toml:1:11: ignore: unknown rule or code 'in_fram'"):
        tikzlint.check(BAD, config=cfg)


def test_spec_keyword():
    spec = {"required_labels": ["ATP", "NADH"]}
    r = tikzlint.check(FLOW % "", spec=spec)
    assert r.verdicts["spec"] == "fail"
    assert any(d.rule == "spec" and "NADH" in d.message for d in r.diagnostics)
    assert tikzlint.check(FLOW % "", spec={"required_labels": ["ATP"]}).verdicts["spec"] == "pass"


def test_include_dirs_and_filename_resolve_inputs(tmp_path):
    (tmp_path / "fig").mkdir()
    (tmp_path / "fig" / "sizes.tex").write_text("\\newcommand{\\sidelength}{2}\n")
    src = ("\\documentclass{article}\n\\usepackage{tikz}\n\\begin{document}\n\\input{sizes}\n"
           "\\begin{tikzpicture}\n\\draw (0,0) -- (\\sidelength,0);\n\\end{tikzpicture}\n\\end{document}\n")
    r = tikzlint.check(src, filename=str(tmp_path / "fig" / "main.tex"))
    assert "undefined-macro" not in [d.rule for d in r.diagnostics]
    r = tikzlint.check(src, filename=str(tmp_path / "other.tex"), include_dirs=[str(tmp_path / "fig")])
    assert "undefined-macro" not in [d.rule for d in r.diagnostics]


def test_ir_is_the_cli_ir(cli, tmp_path):
    f = tmp_path / "flow.tex"
    f.write_text(FLOW % "")
    want = json.loads(subprocess.run([cli, "ir", str(f)], capture_output=True, text=True).stdout)
    got = tikzlint.ir(FLOW % "", filename=str(f))
    assert got == want
    assert [n["text"] for n in got["nodes"]][:3] == ["ATP", "ADP", "energy"]
    with pytest.raises(ValueError):
        tikzlint.ir(FLOW % "", picture=5)


def test_explain():
    assert "in_frame" in tikzlint.explain("in_frame")
    assert "position_tolerance" in tikzlint.explain("compare")
    assert "front-end" in tikzlint.explain("syntax-error")


def test_compare_scale_and_shift_and_changes():
    base = FLOW % ""
    scaled = FLOW % "scale=1.6, transform shape, shift={(3,-2)}"
    assert tikzlint.compare(base, base).score == pytest.approx(1.0)
    s = tikzlint.compare(base, scaled)
    assert s.score >= 0.99, s.to_dict()
    dropped = tikzlint.compare(base, base.replace("{energy}", "{}"))
    assert dropped.score < s.score
    assert any("energy" in c for c in dropped["labels"].changes)
    reversed_ = tikzlint.compare(base, base.replace(r"\draw[->] (a) -- (b);", r"\draw[<-] (a) -- (b);"))
    assert reversed_.score < s.score
    assert any("reversed" in c for c in reversed_["structure"].changes), reversed_.to_dict()
    d = s.to_dict()
    assert s.size_ratio == pytest.approx(1.6, rel=0.05)
    assert set(d) == {"score", "size_ratio", "parts"} and [p["name"] for p in d["parts"]] == [p.name for p in s.parts]


def test_rank_orders_best_first_with_reasons(tmp_path):
    base = FLOW % ""
    broken = base.replace(r"\end{tikzpicture}", "")  # an unterminated picture: an error
    moved = base.replace("(2,2) {energy}", "(0,3) {energy}")
    outside = base.replace(r"\begin{tikzpicture}[]", "\\begin{tikzpicture}[]\n  \\clip (-1,-3) rectangle (5,3);\n  \\draw (0,0) -- (9,0);")
    cands = [broken, moved, base, outside]
    ranked = tikzlint.rank(cands, reference=base)
    assert [r.index for r in ranked][0] == 2
    assert ranked[-1].index == 0 and not ranked[-1].compiles
    assert all(a.score >= b.score for a, b in zip(ranked, ranked[1:]))
    assert ranked[0].similarity.score == pytest.approx(1.0)
    assert any("similarity" in reason for reason in ranked[1].reasons)
    no_ref = tikzlint.rank(cands)
    assert no_ref[-1].index == 0 and no_ref[0].similarity is None
    p = tmp_path / "m.tex"
    p.write_text(moved)
    assert tikzlint.rank([p, base])[0].report.file in (str(p), "<string>")


def test_rank_cli_jsonl(cli, tmp_path):
    base = FLOW % ""
    files = []
    for name, text in [("broken", base.replace(r"\end{tikzpicture}", "")), ("same", base),
                       ("moved", base.replace("(2,2) {energy}", "(0,3) {energy}"))]:
        f = tmp_path / (name + ".tex")
        f.write_text(text)
        files.append(str(f))
    ref = tmp_path / "ref.tex"
    ref.write_text(base)
    p = subprocess.run([cli, "rank", "--reference", str(ref), "--format", "jsonl", *files], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    recs = [json.loads(l) for l in p.stdout.splitlines()]
    assert [list(r) for r in recs] == [["file", "rank", "score", "reasons", "verdicts"]] * 3
    assert [r["rank"] for r in recs] == [1, 2, 3]
    assert recs[0]["file"].endswith("same.tex") and recs[-1]["file"].endswith("broken.tex")
    py = tikzlint.rank([Path(f) for f in files], reference=ref)
    assert [files[r.index] for r in py] == [r["file"] for r in recs]
    assert [round(r.score, 9) for r in py] == [round(r["score"], 9) for r in recs]


def test_threads_check_in_parallel_and_agree():
    srcs = [BAD, GOOD, FLOW % ""] * 20
    want = [json.loads(tikzlint.check(s).to_json()) for s in srcs]
    got = [None] * len(srcs)

    def work(k):
        for i in range(k, len(srcs), 4):
            got[i] = json.loads(tikzlint.check(srcs[i]).to_json())

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for a, b in zip(got, want):
        a.pop("elapsed_us"), b.pop("elapsed_us")
        assert a == b
