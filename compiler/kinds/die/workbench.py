"""A die of its own faces, in the workbench: how ``rulesc explain`` shows one."""

from __future__ import annotations

from ...kinds.die.model import DieRule
from ...workbench.common import UsageError
from ...workbench.context import Context


def shown_face(face: object) -> str:
    """A face as the workbench shows it: a number, its symbols, or blank."""
    if isinstance(face, tuple):
        return " + ".join(str(x) for x in face) if face else "blank"
    return str(face)


def face_lines(rule: DieRule) -> list[str]:
    """The die's faces, one a line, each by the roll that shows it."""
    width = len(str(len(rule.faces)))
    return [
        f"  {index:>{width}}  {shown_face(face)}"
        for index, face in enumerate(rule.faces, start=1)
    ]


def explain(ctx: Context) -> None:
    rule = ctx.rule
    assert isinstance(rule, DieRule)
    if ctx.args.inputs:
        raise UsageError(f"{rule.qualified_id} takes no inputs")
    what = f"Faces of d({rule.id}), by the roll of a d{len(rule.faces)} that shows each"
    ctx.out.section(what, face_lines(rule))
