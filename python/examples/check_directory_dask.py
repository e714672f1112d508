#!/usr/bin/env python3
"""Check every *.tex below a directory on a distributed.LocalCluster and write jsonl.

    PYTHONPATH=build/python /usr/bin/python3 python/examples/check_directory_dask.py DIR OUT.jsonl [--workers 2]

The output has the records `tikzlint check --format jsonl DIR` prints, in the same order
(sorted paths), so the two are identical apart from each record's elapsed_us. On a real
cluster, replace LocalCluster by the scheduler's address (Client("tcp://...")).
"""
import argparse
import sys
from pathlib import Path

from distributed import Client, LocalCluster

import tikzlint.dask


def tex_files(root):
    # The CLI's order: every regular *.tex below DIR, sorted by path string.
    return [Path(p) for p in sorted(str(p) for p in Path(root).rglob("*.tex") if p.is_file())]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir")
    ap.add_argument("out")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--include-dir", action="append", default=[])
    a = ap.parse_args()
    files = tex_files(a.dir)
    if not files:
        print("no .tex file under %s" % a.dir, file=sys.stderr)
        return 2
    with LocalCluster(n_workers=a.workers, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster):
        bag = tikzlint.dask.check_bag(files, include_dirs=a.include_dir)
        lines = bag.map(lambda r: r.to_json()).compute()
    with open(a.out, "w", encoding="utf-8") as f:
        for line in lines:
            f.write(line + "\n")
    print("%d files checked on %d workers -> %s" % (len(lines), a.workers, a.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
