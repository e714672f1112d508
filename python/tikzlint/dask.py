"""tikzlint.dask: check many diagrams on a Dask cluster (docs/python.md).

    from distributed import Client, LocalCluster
    import tikzlint.dask
    with Client(LocalCluster(n_workers=2)):
        bag = tikzlint.dask.check_bag(sorted(Path("figs").rglob("*.tex")))
        lines = bag.map(lambda r: r.to_json()).compute()   # the CLI's jsonl records, in input order

Items that are os.PathLike are files (read on the worker, so the workers must see them); str
items are source texts. Options are those of tikzlint.check / check_file.
"""
import os

import dask.bag as db

from . import _core

__all__ = ["check_bag"]


def _check_one(item, options):
    if isinstance(item, str):
        return _core.check(item, **options)
    if isinstance(item, os.PathLike):
        opts = {k: v for k, v in options.items() if k != "filename"}
        return _core.check_file(item, **opts)
    raise TypeError("check_bag items must be source text (str) or paths (os.PathLike), got %r" % type(item).__name__)


def check_bag(paths_or_sources, *, npartitions=None, partition_size=None, **options):
    """A dask.bag of Reports, one per item, in the order of the items.

    paths_or_sources: a sequence of os.PathLike (files) and str (source texts).
    options: include_dirs, settings, spec (and filename for str sources), as for tikzlint.check.
    """
    items = list(paths_or_sources)
    for item in items:
        if not isinstance(item, (str, os.PathLike)):
            raise TypeError("check_bag items must be source text (str) or paths (os.PathLike), got %r"
                            % type(item).__name__)
    # Options are checked once here, so that misuse raises in the caller, not on a worker.
    _core.check("", **options)
    if partition_size is None and npartitions is None:
        npartitions = max(1, min(len(items), 100))
    bag = db.from_sequence(items, npartitions=npartitions, partition_size=partition_size)
    return bag.map(_check_one, options)
