"""State in Markdown: its fields, derived properties and each transition's logic, in words."""

from __future__ import annotations

from ...core.ir import (
    State,
    Transition,
    Unit,
)
from ...core.viewkit import (
    View,
)
from ...lang.naming import class_words, words_of
from ..literals import (
    code,
    md,
    md_cell,
)
from ..state_code import field_text
from ..viewkit import (
    api,
    inputs,
)
from .steps import (
    Say,
    name_words,
    steps,
)

TEMPLATE = "core/state.md.j2"


def _transition(unit: Unit, t: Transition, say: Say) -> View:
    view = {
        "call": f"**{md(words_of(t.name))}**",
        "description": md(t.doc),
        "inputs": inputs(t.params),
    }
    if t.body is not None:
        assert t.record is not None
        fields = unit.record(t.record).fields
        return view | {
            "steps": [
                "- Every step reads the state as it was before the transition.",
                *steps(t.body, None, fields, "", say),
            ]
        }
    steps_said = []
    if t.unless is not None:
        steps_said.append(f"When {say.condition(t.unless.node)}, nothing changes.")
    steps_said += [
        f"Let {name_words(b.name)} be {say.checked(b.checked)}"
        + (f" ({md(b.description.rstrip('.'))})" if b.description else "")
        + "."
        for b in t.binds
    ]
    changes = [
        f"{name_words(c.field)} becomes {say.checked(c.value)}"
        + (", held within its bounds" if c.clamp else "")
        for c in t.changes
    ]
    steps_said.append(
        ("Then, all at once from the values before: " if len(changes) > 1 else "Then ")
        + "; ".join(changes)
        + "."
    )
    if t.answers is not None:
        steps_said.append(f"It answers the new {name_words(t.answers)}.")
    return view | {"steps": [f"- {step}" for step in steps_said]}


def state_page(
    unit: Unit, state: State, common: View, blocks: list[View], say: Say
) -> View:
    """The page's own part (``core/state.md.j2``) of a state, after the
    ``blocks`` its lowering wrote, and its programmer's section, added to the
    ``common`` view of every rule page, its expressions said by ``say``."""
    made = ", ".join(
        f"{p.name}={p.default!r}" if p.has_default else p.name for p in state.params
    )
    return common | {
        "blocks": blocks,
        "api": api(
            common,
            "Call: "
            + code(f"{state.name}({made})")
            + " makes one subject's state, each field at its start value; each "
            "field and derived property is an attribute, and each transition a "
            "method.",
            params=state.params,
        ),
        "fields": [
            (
                name_words(f.name),
                md_cell(field_text(f, class_words)),
                say.value(f.start.node),
                md_cell(f.doc or ""),
            )
            for f in state.fields
        ],
        "derived": [
            f"{name_words(d.name)} is {say.checked(d.value)}"
            + (f": {md(d.doc)}" if d.doc else "")
            for d in state.derived
        ],
        "transitions": [_transition(unit, t, say) for t in state.transitions],
        "template": TEMPLATE,
    }
