#!/usr/bin/env python3
"""The pre-commit hook and the GitHub Action's script (docs/ci.md), run as they are run.

- .pre-commit-hooks.yaml: its entry is run the way pre-commit runs a `language: script` hook
  (the entry from the repository root, then the hook's args, then the staged file names); a
  failing file fails the hook, passing files pass it, and `types: [tex]` is declared.
- action.yml: a composite action whose steps call scripts/action-run; `action-run check` is run
  with the inputs as environment variables and GITHUB_OUTPUT: it writes SARIF 2.1.0 with the
  finding, annotations, a statistics count, and exit-code=1 to the output file.

usage: test_integrations.py --tikzlint PATH --root REPO
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

GOOD = r"""\documentclass[tikz]{standalone}
\begin{document}
\begin{tikzpicture}
\draw (0,0) -- (2,0) -- (1,1.5) -- cycle;
\node[above] at (1,1.5) {$C$};
\end{tikzpicture}
\end{document}
"""
BAD = r"""\documentclass[tikz]{standalone}
\begin{document}
\begin{tikzpicture}[x=1cm, y=1cm]
\clip (0,0) rectangle (3,2);
\draw (0.5,0.5) -- (3.6,1) -- (0.5,1.5) -- cycle;
\end{tikzpicture}
\end{document}
"""

failures = []


def check(cond, what):
    print(("ok    " if cond else "FAIL  ") + what)
    if not cond:
        failures.append(what)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tikzlint", required=True)
    ap.add_argument("--root", required=True)
    a = ap.parse_args()
    root = Path(a.root)
    env = dict(os.environ, TIKZLINT=os.path.abspath(a.tikzlint))

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        (tmp / "good.tex").write_text(GOOD)
        (tmp / "bad.tex").write_text(BAD)

        # --- pre-commit hook
        hooks = yaml.safe_load((root / ".pre-commit-hooks.yaml").read_text())
        hook = next((h for h in hooks if h.get("id") == "tikzlint"), None)
        check(hook is not None, "pre-commit: a hook with id tikzlint")
        check(hook and hook.get("types") == ["tex"], "pre-commit: types: [tex]")
        check(hook and hook.get("language") == "script", "pre-commit: language script")
        entry = [str(root / hook["entry"])] + hook.get("args", [])
        p = subprocess.run(entry + ["good.tex"], cwd=tmp, env=env, capture_output=True, text=True)
        check(p.returncode == 0, f"pre-commit: a passing file passes (exit {p.returncode})")
        p = subprocess.run(entry + ["good.tex", "bad.tex"], cwd=tmp, env=env, capture_output=True, text=True)
        check(p.returncode == 1, f"pre-commit: a failing file fails the hook (exit {p.returncode})")
        check("bad.tex:5:" in p.stdout and "in_frame" in p.stdout, "pre-commit: the finding is shown, located")
        p = subprocess.run(entry, cwd=tmp, env=env, capture_output=True, text=True)
        check(p.returncode == 0, "pre-commit: no staged file, nothing to do")
        p = subprocess.run(entry + ["--include-dir", "x", "good.tex"], cwd=tmp, env=env, capture_output=True, text=True)
        check(p.returncode == 0, "pre-commit: hook args come before the file names")

        # --- GitHub Action
        action = yaml.safe_load((root / "action.yml").read_text())
        check(action.get("runs", {}).get("using") == "composite", "action: composite")
        steps = action["runs"]["steps"]
        runs = " ".join(s.get("run", "") for s in steps)
        check("scripts/action-run\" install" in runs and "scripts/action-run\" check" in runs,
              "action: its steps run scripts/action-run install and check")
        check(any(s.get("uses", "").startswith("github/codeql-action/upload-sarif") for s in steps),
              "action: uploads SARIF")
        check(set(action.get("inputs", {})) >= {"paths", "args", "sarif-file"}, "action: inputs paths, args, sarif-file")
        gh_env, gh_out = tmp / "gh-env", tmp / "gh-output"
        gh_env.write_text("")
        gh_out.write_text("")
        script = root / "scripts" / "action-run"
        p = subprocess.run([str(script), "install"], cwd=tmp, env=dict(env, GITHUB_ENV=str(gh_env)),
                           capture_output=True, text=True)
        check(p.returncode == 0 and f"TIKZLINT={env['TIKZLINT']}" in gh_env.read_text(),
              "action-run install: finds the given tikzlint and exports it")
        run_env = dict(env, GITHUB_OUTPUT=str(gh_out), INPUT_PATHS="good.tex bad.tex", INPUT_ARGS="--jobs 2",
                       INPUT_SARIF_FILE="out/results.sarif")
        (tmp / "out").mkdir()
        p = subprocess.run([str(script), "check"], cwd=tmp, env=run_env, capture_output=True, text=True)
        check(p.returncode == 0, f"action-run check: exits 0 and leaves the verdict to the last step ({p.returncode})")
        check("exit-code=1" in gh_out.read_text(), "action-run check: exit-code=1 in GITHUB_OUTPUT")
        sarif = json.loads((tmp / "out" / "results.sarif").read_text())
        check(sarif.get("version") == "2.1.0", "action-run check: SARIF 2.1.0 written")
        results = sarif["runs"][0]["results"]
        check(any(r.get("ruleId") == "in_frame" for r in results), "action-run check: the in_frame finding is in it")
        check("::warning" in p.stdout or "::error" in p.stdout, "action-run check: workflow annotations")
        check("in_frame" in p.stdout and "files checked" in p.stdout, "action-run check: statistics in the log")
        gh_out.write_text("")
        p = subprocess.run([str(script), "check"], cwd=tmp, env=dict(run_env, INPUT_PATHS="good.tex"),
                           capture_output=True, text=True)
        check("exit-code=0" in gh_out.read_text(), "action-run check: a passing file gives exit-code=0")

    print(f"integrations: {'all passed' if not failures else str(len(failures)) + ' failed'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
