"""Dice spec, printed again: ``python -m rulesc.dice_spec`` writes the Python runtime's ``_dice_spec.py``."""

from __future__ import annotations

from pathlib import Path

from ..emit.python.format import format_python
from . import load
from .printers import python

RUNTIME_SPEC = Path(__file__).resolve().parent.parent / "runtime" / "_dice_spec.py"
"""The printed module the compiler's own Python runtime reads."""


def printed() -> str:
    """The Python runtime's ``_dice_spec.py`` as the definition prints it."""
    return format_python(python(load()), "_dice_spec.py")


if __name__ == "__main__":
    RUNTIME_SPEC.write_text(printed(), encoding="utf-8")
