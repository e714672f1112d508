"""What the manual-example coverage scripts share (pgfmanual_coverage.py, pgfplots_examples.py,
tkzeuclide_examples.py): reading a manual's sources, cutting out its example environments,
writing each example as a standalone file, running `tikzlint check --format jsonl` on each and,
with --tex, compiling them with lualatex through tools/tex-diff (results cached by file content)
to compare the picture bounding boxes. Each script keeps only what is its own: where its manual
is, how an example becomes a standalone document, and its report's title lines.
"""
import collections
import concurrent.futures
import gzip
import json
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]


def read(path):
    path = pathlib.Path(path)
    data = path.read_bytes()
    if path.suffix == ".gz":
        data = gzip.decompress(data)
    return data.decode("utf-8", errors="replace")


def balanced(text, i, open_ch, close_ch):
    """text[i] == open_ch: return the index after the matching close_ch."""
    depth = 0
    while i < len(text):
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if c == open_ch:
            depth += 1
        elif c == close_ch:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return len(text)


def environments(text, env):
    """(options, body) of each `env` environment of a manual source, in order."""
    begin, end = "\\begin{" + env + "}", "\\end{" + env + "}"
    pos = 0
    while True:
        b = text.find(begin, pos)
        if b < 0:
            return
        i = b + len(begin)
        opts = ""
        if i < len(text) and text[i] == "[":
            j = balanced(text, i, "[", "]")
            opts = text[i + 1:j - 1]
            i = j
        e = text.find(end, i)
        if e < 0:
            return
        yield opts, text[i:e]
        pos = e + 1


def option_value(opts, key):
    m = re.search(r"(?:^|,)\s*" + re.escape(key) + r"\s*=\s*", opts)
    if not m:
        return None
    i = m.end()
    if i < len(opts) and opts[i] == "{":
        j = balanced(opts, i, "{", "}")
        return opts[i + 1:j - 1]
    j = opts.find(",", i)
    return opts[i:] if j < 0 else opts[i:j]


def usetikzlibraries(body):
    """The TikZ libraries an example names with \\usetikzlibrary{..}, in order, once each."""
    libs = []
    for m in re.finditer(r"\\usetikzlibrary\{([^}]*)\}", body):
        libs += [x.strip() for x in m.group(1).split(",") if x.strip()]
    return list(dict.fromkeys(libs))


def write_examples(out, blocks, document, skip=r"code only"):
    """Write each block (name, options, body, ...) whose options do not match `skip` and whose body
    holds a picture to out/<name>.tex as document(block); stale .tex files in `out` are removed.
    Returns (paths, blocks seen, blocks skipped, blocks without a picture)."""
    out = pathlib.Path(out)
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*.tex"):
        old.unlink()
    total = skipped = no_picture = 0
    paths = []
    for block in blocks:
        name, opts, body = block[0], block[1], block[2]
        total += 1
        if re.search(r"(^|,)\s*(" + skip + ")", opts):
            skipped += 1
            continue
        if "tikzpicture" not in body and "\\tikz" not in body:
            no_picture += 1
            continue
        p = out / f"{name}.tex"
        p.write_text(document(block))
        paths.append(p)
    return paths, total, skipped, no_picture


def run_check(tikzlint, path, timeout):
    """(path, failure or None, the file's jsonl record)."""
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


def check_all(tikzlint, paths, jobs, timeout):
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
        return list(ex.map(lambda p: run_check(tikzlint, p, timeout), paths))


def add_arguments(ap, out):
    """The command line the package-manual scripts share."""
    ap.add_argument("--tikzlint", default=str(ROOT / "build/tikzlint"))
    ap.add_argument("--out", default=out)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--tex", action="store_true", help="also compile with lualatex (tools/tex-diff) and compare bboxes")
    ap.add_argument("--cache", default=str(ROOT / ".cache/tex-diff"), help="lualatex results by content hash")
    ap.add_argument("--list", default="", choices=["", "unsupported", "bbox", "errors"],
                    help="print the files with an unsupported construct / a bbox off by more than 1pt / an error")


def tex_error(tex, timeout):
    """TeX's first error (a `!` line of the log) compiling `tex` alone, or ""."""
    with tempfile.TemporaryDirectory(prefix="tex-err-") as work:
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


def report(args, paths, checked, top=15, errors_without_tex=0, recheck_tex_errors=False):
    """Print the figures of issue 17 for one manual: lowered with no unsupported construct and the
    most frequent unsupported messages; without --tex the files with an error diagnostic (the first
    `errors_without_tex` of them by name); with --tex the examples lualatex compiles, their picture
    bbox within 1pt and the compiling examples with an error diagnostic. recheck_tex_errors: compile
    those once more alone (tex_error) and list apart the ones whose error TeX logs too, since
    tools/tex-diff keeps the geometry of a run that logged errors yet wrote its pictures."""
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
    for (rule, msg), k in messages.most_common(top):
        print(f"  {k:4d}  {rule}: {msg[:100]}")
    if args.list == "unsupported":
        for p in unsupported_files:
            print(f"  unsupported: {p}")

    if not args.tex:
        print(f"files with an error diagnostic (compiling or not): {len(errors_by_file)}")
        for p, errs in list(errors_by_file.items())[:errors_without_tex]:
            print(f"  {p.name}: {errs[0]['rule']}: {errs[0]['message'][:90]}")
        return
    js = pathlib.Path(args.out) / "tex-diff.json"
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
    tex_also = {}
    if recheck_tex_errors:
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
