# Type stub of the tikzlint package (the native module tikzlint._core). docs/python.md.
import os
from typing import Any, Literal, Mapping, Optional, Sequence, Union

Verdict = Literal["pass", "fail", "n/a", "indeterminate"]
Source = Union[str, os.PathLike[str]]  # str: TikZ/LaTeX source text; os.PathLike: a file

class Diagnostic:
    rule: str
    severity: Literal["error", "warning", "note"]
    message: str
    line: Optional[int]
    col: Optional[int]
    end_line: Optional[int]
    end_col: Optional[int]
    evidence: dict[str, Any]

class Report:
    file: str
    status: Literal["checked", "error"]
    ir_source: Literal["parser", "llm"]
    elapsed_us: int
    @property
    def verdicts(self) -> dict[str, Verdict]: ...
    @property
    def diagnostics(self) -> list[Diagnostic]: ...
    @property
    def passed(self) -> bool: ...
    def to_json(self) -> str: ...
    @staticmethod
    def from_json(line: str) -> Report: ...

class Part:
    name: Literal["labels", "label_positions", "strokes", "arrows", "structure"]
    score: float
    weight: float
    applies: bool
    changes: list[str]
    @property
    def evidence(self) -> dict[str, Any]: ...

class Similarity:
    score: float
    size_ratio: float
    parts: list[Part]
    def __getitem__(self, name: str) -> Part: ...
    def to_dict(self) -> dict[str, Any]: ...

class Ranked:
    @property
    def index(self) -> int: ...
    @property
    def score(self) -> float: ...
    @property
    def reasons(self) -> list[str]: ...
    @property
    def compiles(self) -> bool: ...
    @property
    def rules_pass(self) -> bool: ...
    @property
    def finding_weight(self) -> int: ...
    @property
    def similarity(self) -> Optional[Similarity]: ...
    report: Report

def check(
    source: str,
    *,
    filename: Optional[str] = None,
    include_dirs: Sequence[str] = (),
    settings: Optional[Mapping[str, float]] = None,
    spec: Union[None, str, os.PathLike[str], Mapping[str, Any]] = None,
    config: Union[None, str, os.PathLike[str]] = None,
) -> Report: ...
def check_file(
    path: Union[str, os.PathLike[str]],
    *,
    include_dirs: Sequence[str] = (),
    settings: Optional[Mapping[str, float]] = None,
    spec: Union[None, str, os.PathLike[str], Mapping[str, Any]] = None,
    config: Union[None, str, os.PathLike[str]] = None,
) -> Report: ...
def ir(
    source: str, *, filename: Optional[str] = None, include_dirs: Sequence[str] = (), picture: int = 1
) -> dict[str, Any]: ...
def rank(
    candidates: Sequence[Source],
    *,
    reference: Optional[Source] = None,
    include_dirs: Sequence[str] = (),
    settings: Optional[Mapping[str, float]] = None,
) -> list[Ranked]: ...
def compare(
    a: Source, b: Source, *, include_dirs: Sequence[str] = (), settings: Optional[Mapping[str, float]] = None
) -> Similarity: ...
def explain(rule: str) -> str: ...
def rules() -> list[str]: ...
def clear_cache() -> None: ...
