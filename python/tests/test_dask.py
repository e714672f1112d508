"""tikzlint.dask on a two-worker distributed.LocalCluster: 1,000 files, the CLI's records."""
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "python" / "examples" / "check_directory_dask.py"


def variants(out_dir, count):
    """`count` files made from the fixtures: each a fixture with its numbers nudged (variant k
    adds k/1000 to every decimal of a coordinate-like number), so that no two are the same."""
    sources = sorted(p for p in (ROOT / "fixtures").rglob("*.tex")
                     if "hostile" not in p.parts and "% args:" not in p.read_text(errors="replace"))
    sources = [p for p in sources if p.stat().st_size < 20000]
    assert len(sources) >= 50
    number = re.compile(r"(?<![\w.])(\d+)\.(\d+)(?![\w.])")
    for k in range(count):
        src = sources[k % len(sources)]
        text = src.read_text(errors="replace")
        if k >= len(sources):
            text = number.sub(lambda m: "%.3f" % (float(m.group(0)) + (k // len(sources)) / 1000), text)
        d = out_dir / ("%02d" % (k % 17))
        d.mkdir(exist_ok=True)
        (d / ("%04d-%s" % (k, src.name))).write_text(text)


def records(text):
    out = []
    for line in text.splitlines():
        rec = json.loads(line)
        rec.pop("elapsed_us")
        out.append(rec)
    return out


def test_local_cluster_matches_the_cli(cli, tmp_path):
    pytest.importorskip("distributed")
    data = tmp_path / "diagrams"
    data.mkdir()
    variants(data, 1000)
    want = subprocess.run([cli, "check", "--format", "jsonl", "--jobs", "2", str(data)],
                          capture_output=True, text=True, timeout=600)
    assert want.returncode in (0, 1), want.stderr
    out = tmp_path / "dask.jsonl"
    env = dict(os.environ)
    got = subprocess.run([sys.executable, str(EXAMPLE), str(data), str(out), "--workers", "2"],
                         capture_output=True, text=True, timeout=900, env=env)
    assert got.returncode == 0, got.stderr[-3000:]
    a, b = records(want.stdout), records(out.read_text())
    assert len(a) == 1000
    assert [r["file"] for r in b] == [r["file"] for r in a]
    assert b == a


def test_check_bag_of_sources_and_paths(tmp_path):
    pytest.importorskip("dask")
    import dask
    import tikzlint
    import tikzlint.dask

    f = tmp_path / "a.tex"
    f.write_text("\\begin{tikzpicture}\\draw (0,0) -- (1,0);\\end{tikzpicture}\n")
    items = [f, "\\begin{tikzpicture}\\node {x};\\end{tikzpicture}", f]
    reports = tikzlint.dask.check_bag(items).compute(scheduler="sync")
    assert [type(r) for r in reports] == [tikzlint.Report] * 3
    assert reports[0].file == str(f) and reports[1].file == "<string>"
    with pytest.raises(TypeError):
        tikzlint.dask.check_bag([3])
    with pytest.raises(ValueError):
        tikzlint.dask.check_bag(items, settings={"in_frame.nope": 1})
