"""The broken-rules corpus in tests/invalid/: each case's bytes and expected errors.

A case is ``NAME.yaml``, whose comments say what it expects, or ``NAME.bin`` (raw
bytes) with those comments in ``NAME.expect``. Either way it is dropped into a copy
of rules/d20_scifi/ as ``NAME.yaml``. The comments:

- ``# expect: LINE:COL: error: MESSAGE``: one per error the build reports, the
  whole message; the build must report exactly these, all in the case's file;
- ``# hint: TEXT``: some error's hint contains TEXT;
- ``# note: TEXT``: one per note the build prints (``  note: TEXT``), the whole
  note; the build must print exactly these;
- ``# bytes: escapes``: every ``\\xNN`` in the case stands for the raw byte NN
  (a byte order mark, an invalid UTF-8 byte, a NUL);
- ``# bytes: pad to N``: a comment line pads the case to N bytes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

INVALID = Path(__file__).resolve().parent / "invalid"
SYSTEM = "d20_scifi"
_ESCAPE = re.compile(rb"\\x([0-9a-fA-F]{2})")
_PAD = re.compile(r"pad to ([0-9]+)")


@dataclass(frozen=True)
class Case:
    """One broken rules file and the exact errors a build must report for it."""

    name: str
    data: bytes
    expects: tuple[str, ...]  # "LINE:COL: error: MESSAGE", sorted
    hints: tuple[str, ...]
    notes: tuple[str, ...] = ()  # "used at FILE:LINE:COL", sorted

    @property
    def shown(self) -> str:
        """The case's path as errors name it."""
        return f"rules/{SYSTEM}/{self.name}.yaml"

    def install(self, rules_dir: Path) -> None:
        """Put the case into a copy of rules/."""
        (rules_dir / SYSTEM / f"{self.name}.yaml").write_bytes(self.data)


def _comments(text: str, tag: str) -> list[str]:
    prefix = f"# {tag}: "
    return [
        line.removeprefix(prefix)
        for line in text.splitlines()
        if line.startswith(prefix)
    ]


def _transform(data: bytes, directives: list[str]) -> bytes:
    for directive in directives:
        if directive == "escapes":
            data = _ESCAPE.sub(lambda m: bytes([int(m.group(1), 16)]), data)
        elif pad := _PAD.fullmatch(directive):
            size = int(pad.group(1))
            data += b"#" + b" " * (size - len(data) - 2) + b"\n"
        else:
            raise ValueError(f"unknown bytes directive {directive!r}")
    return data


def _case(path: Path) -> Case:
    raw = path.read_bytes()
    notes = path.with_suffix(".expect") if path.suffix == ".bin" else path
    text = notes.read_text(encoding="utf-8", errors="replace")
    data = raw if path.suffix == ".bin" else _transform(raw, _comments(text, "bytes"))
    return Case(
        path.stem,
        data,
        tuple(sorted(_comments(text, "expect"))),
        tuple(_comments(text, "hint")),
        tuple(sorted(_comments(text, "note"))),
    )


def load_cases() -> list[Case]:
    """Every case of the corpus, by name."""
    paths = sorted([*INVALID.glob("*.yaml"), *INVALID.glob("*.bin")])
    return [_case(path) for path in paths]
