"""Plain text for people: numbers, percentages, aligned columns and bar charts.

Imports nothing heavy, so that ``rulesc roll`` starts fast.
"""

from __future__ import annotations

import shutil
import sys
import textwrap
from collections.abc import Sequence
from fractions import Fraction


def humanize(name: str) -> str:
    """``points_dealt_today`` -> ``points dealt today``."""
    return name.strip("_").replace("_", " ")


def yes_no(value: bool) -> str:
    return "yes" if value else "no"


def percent(value: Fraction | float) -> str:
    """A probability as a percentage with enough digits to tell small ones apart."""
    pct = float(value) * 100
    if pct == 0:
        return "0%"
    if pct >= 10 or pct == round(pct):
        return f"{pct:.1f}%".replace(".0%", "%")
    if pct >= 0.1:
        return f"{pct:.2f}%"
    if pct >= 0.01:
        return f"{pct:.3f}%"
    return "<0.01%"


def number(value: Fraction | float | int) -> str:
    if isinstance(value, Fraction) and value.denominator == 1:
        return str(value.numerator)
    if isinstance(value, int):
        return str(value)
    text = f"{float(value):.3f}".rstrip("0").rstrip(".")
    return text


def aligned(
    rows: Sequence[tuple[str, str]], indent: str = "  ", gap: int = 3
) -> list[str]:
    """Two columns, the first padded; long values wrap under themselves."""
    if not rows:
        return []
    width = min(max(len(a) for a, _ in rows), 56)
    total = terminal_width()
    lines = []
    for left, right in rows:
        pad = left.ljust(width)
        room = max(total - len(indent) - width - gap, 30)
        wrapped = textwrap.wrap(right, room) or [""]
        lines.append(f"{indent}{pad}{' ' * gap}{wrapped[0]}".rstrip())
        lines += [f"{indent}{' ' * (width + gap)}{more}" for more in wrapped[1:]]
    return lines


def terminal_width() -> int:
    return max(60, min(shutil.get_terminal_size((100, 24)).columns, 120))


def wrap(text: str, indent: str = "  ") -> list[str]:
    width = terminal_width() - len(indent)
    return [indent + line for line in textwrap.wrap(" ".join(text.split()), width)]


def bar_chart(
    rows: Sequence[tuple[str, Fraction | float]],
    width: int = 40,
    detail: Sequence[str] | None = None,
) -> list[str]:
    """A horizontal bar per row (label, share), scaled to the largest share."""
    if not rows:
        return []
    block = "█" if _unicode() else "#"
    top = max(float(share) for _, share in rows) or 1.0
    label_width = max(len(label) for label, _ in rows)
    lines = []
    for index, (label, share) in enumerate(rows):
        cells = float(share) / top * width
        bar = block * int(cells) or ("▏" if share and _unicode() else "")
        if not bar and share:
            bar = "."
        extra = f"  {detail[index]}" if detail else ""
        lines.append(
            f"  {label.rjust(label_width)} {bar.ljust(width)} {percent(share):>7}{extra}".rstrip()
        )
    return lines


def _unicode() -> bool:
    encoding = (getattr(sys.stdout, "encoding", None) or "").lower().replace("-", "")
    return encoding in ("utf8", "utf16", "utf32")
