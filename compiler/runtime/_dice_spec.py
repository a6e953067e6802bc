"""Dice spec: the dice notation's one definition, as data (printed from compiler/lang/dice_spec/notation.json).

Edit the definition, not this module (``python -m rulesc.emit.dice_spec`` prints it
again; the build prints it into the generated package). Its limits, work
budget, and each option of a pool: tokens, argument, defaults, checks, words.
"""

from __future__ import annotations

from typing import Final, NamedTuple

__all__ = [
    "CHECKS",
    "COMPARISONS",
    "CULPRITS",
    "DEPTH",
    "DICE_WORK_PER_ENTRY",
    "HINT",
    "MAX_DEPTH",
    "MAX_DIGITS",
    "MAX_TERMS",
    "MORE_OPTIONS",
    "NO_MORE_OPTIONS",
    "ODDS_WORK_PER_ENTRY",
    "OPTIONS",
    "PRODUCT_BITS",
    "REFUSAL_HINTS",
    "REFUSED",
    "SECOND",
    "SQUARE_BITS",
    "SUM_BITS",
    "Argument",
    "Form",
    "Option",
    "Refused",
]


class Argument(NamedTuple):
    """What follows a token: a comparison (``shape`` "compare", its ``op`` when
    none is written) or a whole number ("number", ``default`` when none is),
    set into the pool's ``field``; ``optional``: read only where one starts."""

    shape: str
    field: str
    what: str
    op: str | None
    optional: bool
    default: int | None
    least: int | None
    below_least: str


class Form(NamedTuple):
    """One way to write an option: its token and the fields it sets."""

    token: str
    sets: tuple[tuple[str, bool | str], ...]
    in_formulas: bool


class Option(NamedTuple):
    """An option of a pool, written at most once: its words, the argument
    after its token, and its forms."""

    name: str
    noun: str
    takes: str
    takes_after: tuple[tuple[str, str], ...]
    hidden_when: tuple[tuple[str, tuple[str, ...]], ...]
    argument: Argument
    forms: tuple[Form, ...]


class Refused(NamedTuple):
    """A token refused after a pool's sides, with its message and hint."""

    token: str
    message: str
    hint: str


MAX_TERMS: Final = 100
MAX_DIGITS: Final = 15
DEPTH: Final = 10
MAX_DEPTH: Final = 100
ODDS_WORK_PER_ENTRY: Final = 30
DICE_WORK_PER_ENTRY: Final = 10
PRODUCT_BITS: Final = 512
SQUARE_BITS: Final = 2048
SUM_BITS: Final = 4096
COMPARISONS: Final = (">=", "<=", ">", "<", "=")
OPTIONS: Final[tuple[Option, ...]] = (
    Option(
        name="reroll",
        noun="reroll",
        takes="r1 or r<3 (reroll once), rr1 (reroll while it shows it)",
        takes_after=(),
        hidden_when=(),
        argument=Argument(
            shape="compare",
            field="reroll",
            what="the face to reroll",
            op="=",
            optional=False,
            default=None,
            least=None,
            below_least="",
        ),
        forms=(
            Form(token="rr", sets=(("reroll_once", False),), in_formulas=True),
            Form(token="ro", sets=(("reroll_once", True),), in_formulas=True),
            Form(token="r", sets=(("reroll_once", True),), in_formulas=True),
        ),
    ),
    Option(
        name="explode",
        noun="explosion",
        takes="!, !! or !o (explode; !>=9: on 9 or more)",
        takes_after=(),
        hidden_when=(),
        argument=Argument(
            shape="compare",
            field="explode_at",
            what="the face that explodes",
            op=None,
            optional=True,
            default=None,
            least=None,
            below_least="",
        ),
        forms=(
            Form(token="!!", sets=(("explode", "!!"),), in_formulas=True),
            Form(token="!o", sets=(("explode", "!o"),), in_formulas=True),
            Form(token="!", sets=(("explode", "!"),), in_formulas=True),
        ),
    ),
    Option(
        name="keep",
        noun="keep or drop",
        takes="kh1, kl1, dh1 or dl1 (keep or drop)",
        takes_after=(),
        hidden_when=(),
        argument=Argument(
            shape="number",
            field="keep_count",
            what="",
            op=None,
            optional=False,
            default=1,
            least=None,
            below_least="",
        ),
        forms=(
            Form(token="kh", sets=(("keep", "kh"),), in_formulas=True),
            Form(token="kl", sets=(("keep", "kl"),), in_formulas=True),
            Form(token="dh", sets=(("keep", "dh"),), in_formulas=True),
            Form(token="dl", sets=(("keep", "dl"),), in_formulas=True),
            Form(token="k", sets=(("keep", "kh"),), in_formulas=True),
        ),
    ),
    Option(
        name="target",
        noun="target",
        takes=">=5, >5, <=2, <2 or =6 (count the dice that meet it)",
        takes_after=(),
        hidden_when=(),
        argument=Argument(
            shape="compare",
            field="target",
            what="the target",
            op=None,
            optional=False,
            default=None,
            least=None,
            below_least="",
        ),
        forms=(Form(token="", sets=(), in_formulas=True),),
    ),
    Option(
        name="multiplier",
        noun="multiplier",
        takes="x2 (multiply the value)",
        takes_after=(),
        hidden_when=(),
        argument=Argument(
            shape="number",
            field="multiplier",
            what="the multiplier",
            op=None,
            optional=False,
            default=None,
            least=1,
            below_least="the multiplier must be 1 or more",
        ),
        forms=(
            Form(token="x", sets=(), in_formulas=True),
            Form(token="*", sets=(), in_formulas=False),
        ),
    ),
)
REFUSED: Final[tuple[Refused, ...]] = (
    Refused(
        **{
            "token": "d",
            "message": "'d' after a pool's sides",
            "hint": "write dl1 or dh1 to drop dice, or + for another pool",
        }
    ),
)
CULPRITS: Final = (
    ("keep", "keep"),
    ("drop", "keep"),
    ("kh", "keep"),
    ("kl", "keep"),
    ("dh", "keep"),
    ("dl", "keep"),
    ("explodes", "explode"),
    ("rerolled", "reroll"),
)
REFUSAL_HINTS: Final = ()
CHECKS: Final[dict[str, str]] = {
    "never_stops": "every face is rerolled, so the die never stops rolling",
    "explodes_forever": "every face the die can show explodes, so it explodes forever",
    "keep_none": "{keep} takes 1 die or more, not {count}",
    "failure_needs_target": "failures (f) count against a target: write a target first, e.g. >=8f1",
    "minimum_above_maximum": "the minimum is above the maximum",
    "unique_alone": "unique dice (u) take no reroll, explosion, minimum or maximum",
    "unique_faces": "more unique dice than the die has faces ({faces})",
    "group_keep_one": "a group of one item keeps or drops nothing: write the options on the pool inside, e.g. 4d6kh3",
}
HINT: Final = "write NdS with optional r, !, kh/kl/dh/dl, a target such as >=5 and xM, added to or subtracted from others and whole numbers (e.g. 4d6kh3, 2d6x10+5, d20-1, 6d6>=5)"
NO_MORE_OPTIONS: Final = (
    "after '{written}' a pool takes no more options: write + or - and another term"
)
MORE_OPTIONS: Final = "after '{written}' a pool takes, each once and in any order: {options}; then + or - and another term"
SECOND: Final = "a second {noun}"
