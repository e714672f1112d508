import os
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def cli():
    """The tikzlint executable (ctest passes it in TIKZLINT)."""
    exe = os.environ.get("TIKZLINT") or shutil.which("tikzlint") or str(ROOT / "build" / "tikzlint")
    if not Path(exe).exists():
        pytest.skip("no tikzlint executable")
    return exe
