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
    "MAX_NESTING",
    "MAX_TERMS",
    "MORE_OPTIONS",
    "NO_MORE_OPTIONS",
    "ODDS_WORK_PER_ENTRY",
    "OPTIONS",
    "PRODUCT_BITS",
    "REFUSAL_HINTS",
    "REFUSED",
    "REFUSED_OPERATORS",
    "SECOND",
    "SQUARE_BITS",
    "SUM_BITS",
    "WORDS",
    "Argument",
    "Form",
    "Option",
    "Refused",
]


class Argument(NamedTuple):
    """What follows a token: a comparison (``shape`` "compare", its ``op`` when
    none is written), a whole number ("number", ``default`` when none is,
    ``signed``: it may be negative) or nothing ("none"), set into the pool's
    ``field``; ``optional``: read only where one starts."""

    shape: str
    field: str
    what: str
    op: str | None
    optional: bool
    signed: bool
    default: int | None
    least: int | None
    below_least: str


class Form(NamedTuple):
    """One way to write an option: its token and the fields it sets
    (``required``: its number is written, whatever the default)."""

    token: str
    sets: tuple[tuple[str, bool | str], ...]
    in_formulas: bool
    required: bool


class Option(NamedTuple):
    """An option of a pool, written at most once (``repeats``: several make
    one AnyOf): its words, the argument after its token, and its forms;
    ``in_groups``: a group takes it too."""

    name: str
    noun: str
    takes: str
    takes_after: tuple[tuple[str, str], ...]
    hidden_when: tuple[tuple[str, tuple[str, ...]], ...]
    repeats: bool
    in_groups: bool
    argument: Argument
    forms: tuple[Form, ...]


class Refused(NamedTuple):
    """A token refused (after a pool's sides, or as an operator), with its message and hint."""

    token: str
    message: str
    hint: str


MAX_TERMS: Final = 100
MAX_DIGITS: Final = 15
MAX_NESTING: Final = 50
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
        name="minimum",
        noun="minimum",
        takes="min2 (least face)",
        takes_after=(),
        hidden_when=(),
        repeats=False,
        in_groups=False,
        argument=Argument(
            shape="number",
            field="minimum",
            what="the minimum",
            op=None,
            optional=False,
            signed=True,
            default=None,
            least=None,
            below_least="",
        ),
        forms=(Form(token="min", sets=(), in_formulas=True, required=False),),
    ),
    Option(
        name="maximum",
        noun="maximum",
        takes="max5 (most face)",
        takes_after=(),
        hidden_when=(),
        repeats=False,
        in_groups=False,
        argument=Argument(
            shape="number",
            field="maximum",
            what="the maximum",
            op=None,
            optional=False,
            signed=True,
            default=None,
            least=None,
            below_least="",
        ),
        forms=(Form(token="max", sets=(), in_formulas=True, required=False),),
    ),
    Option(
        name="reroll",
        noun="reroll",
        takes="r1 or ro1 (reroll until, once)",
        takes_after=(),
        hidden_when=(),
        repeats=True,
        in_groups=False,
        argument=Argument(
            shape="compare",
            field="reroll",
            what="the face to reroll",
            op="=",
            optional=True,
            signed=False,
            default=None,
            least=None,
            below_least="",
        ),
        forms=(
            Form(
                token="rr",
                sets=(("reroll_once", False),),
                in_formulas=True,
                required=False,
            ),
            Form(
                token="ro",
                sets=(("reroll_once", True),),
                in_formulas=True,
                required=False,
            ),
            Form(
                token="r",
                sets=(("reroll_once", False),),
                in_formulas=True,
                required=False,
            ),
        ),
    ),
    Option(
        name="explode",
        noun="explosion",
        takes="!, !!, !p or !o (explode)",
        takes_after=(),
        hidden_when=(),
        repeats=False,
        in_groups=False,
        argument=Argument(
            shape="compare",
            field="explode_at",
            what="the face that explodes",
            op=None,
            optional=True,
            signed=False,
            default=None,
            least=None,
            below_least="",
        ),
        forms=(
            Form(
                token="!!", sets=(("explode", "!!"),), in_formulas=True, required=False
            ),
            Form(
                token="!p", sets=(("explode", "!p"),), in_formulas=True, required=False
            ),
            Form(
                token="!o", sets=(("explode", "!o"),), in_formulas=True, required=False
            ),
            Form(token="!", sets=(("explode", "!"),), in_formulas=True, required=False),
        ),
    ),
    Option(
        name="unique",
        noun="unique",
        takes="u (unique)",
        takes_after=(),
        hidden_when=(),
        repeats=False,
        in_groups=False,
        argument=Argument(
            shape="none",
            field="unique",
            what="",
            op=None,
            optional=False,
            signed=False,
            default=None,
            least=None,
            below_least="",
        ),
        forms=(
            Form(token="u", sets=(("unique", True),), in_formulas=True, required=False),
        ),
    ),
    Option(
        name="keep",
        noun="keep or drop",
        takes="kh1, kl1, dh1, dl1 or d1 (keep, drop)",
        takes_after=(),
        hidden_when=(),
        repeats=False,
        in_groups=True,
        argument=Argument(
            shape="number",
            field="keep_count",
            what="how many dice to drop",
            op=None,
            optional=False,
            signed=False,
            default=1,
            least=None,
            below_least="",
        ),
        forms=(
            Form(token="kh", sets=(("keep", "kh"),), in_formulas=True, required=False),
            Form(token="kl", sets=(("keep", "kl"),), in_formulas=True, required=False),
            Form(token="dh", sets=(("keep", "dh"),), in_formulas=True, required=False),
            Form(token="dl", sets=(("keep", "dl"),), in_formulas=True, required=False),
            Form(token="k", sets=(("keep", "kh"),), in_formulas=True, required=False),
            Form(token="d", sets=(("keep", "dl"),), in_formulas=True, required=True),
        ),
    ),
    Option(
        name="target",
        noun="target",
        takes=">=5, <=2 or =6 (count)",
        takes_after=(),
        hidden_when=(),
        repeats=False,
        in_groups=True,
        argument=Argument(
            shape="compare",
            field="target",
            what="the target",
            op=None,
            optional=False,
            signed=False,
            default=None,
            least=None,
            below_least="",
        ),
        forms=(Form(token="", sets=(), in_formulas=True, required=False),),
    ),
    Option(
        name="failure",
        noun="failure",
        takes="f1 (failures)",
        takes_after=(),
        hidden_when=(),
        repeats=False,
        in_groups=True,
        argument=Argument(
            shape="compare",
            field="failure",
            what="the failure",
            op="=",
            optional=False,
            signed=False,
            default=None,
            least=None,
            below_least="",
        ),
        forms=(Form(token="f", sets=(), in_formulas=True, required=False),),
    ),
    Option(
        name="sort",
        noun="sort",
        takes="s or sd (sort)",
        takes_after=(),
        hidden_when=(),
        repeats=False,
        in_groups=False,
        argument=Argument(
            shape="none",
            field="sort",
            what="",
            op=None,
            optional=False,
            signed=False,
            default=None,
            least=None,
            below_least="",
        ),
        forms=(
            Form(token="sa", sets=(("sort", "a"),), in_formulas=True, required=False),
            Form(token="sd", sets=(("sort", "d"),), in_formulas=True, required=False),
            Form(token="s", sets=(("sort", "a"),), in_formulas=True, required=False),
        ),
    ),
    Option(
        name="multiplier",
        noun="multiplier",
        takes="x10 (times)",
        takes_after=(),
        hidden_when=(),
        repeats=False,
        in_groups=False,
        argument=Argument(
            shape="number",
            field="multiplier",
            what="the multiplier",
            op=None,
            optional=False,
            signed=False,
            default=None,
            least=1,
            below_least="the multiplier must be 1 or more",
        ),
        forms=(Form(token="x", sets=(), in_formulas=True, required=False),),
    ),
)
REFUSED: Final[tuple[Refused, ...]] = (
    Refused(
        **{
            "token": "cs",
            "message": "'cs' marks critical successes in Roll20 (no figure changes) but counts successes in Foundry",
            "hint": "write >=N to count the dice that meet N",
        }
    ),
    Refused(
        **{
            "token": "cf",
            "message": "'cf' marks critical failures in Roll20 (no figure changes) and reads otherwise elsewhere",
            "hint": "write f<=N to take off the dice that meet it, or >=N to count the dice that meet N",
        }
    ),
)
REFUSED_OPERATORS: Final[tuple[Refused, ...]] = (
    Refused(
        **{
            "token": "**",
            "message": "'**' (a power) is not dice notation",
            "hint": "the notation has + - * / and floor, ceil, round, abs, max, min",
        }
    ),
    Refused(
        **{
            "token": "^",
            "message": "'^' (a power) is not dice notation",
            "hint": "the notation has + - * / and floor, ceil, round, abs, max, min",
        }
    ),
    Refused(
        **{
            "token": "%",
            "message": "'%' (a remainder) is not dice notation",
            "hint": "the notation has + - * / and floor, ceil, round, abs, max, min",
        }
    ),
)
WORDS: Final[dict[str, str]] = {
    "strict_greater": "'>{value}' reads as {value} or more in Roll20 and as more than {value} in rpg-dice-roller and Foundry",
    "strict_greater_hint": "write >={value} (Roll20's >{value}) or >={next} (rpg-dice-roller's and Foundry's >{value})",
    "strict_less": "'<{value}' reads as {value} or less in Roll20 and as less than {value} in rpg-dice-roller and Foundry",
    "strict_less_hint": "write <={value} (Roll20's <{value}) or <={previous} (rpg-dice-roller's and Foundry's <{value})",
    "no_face_meets": "no face of {pool} meets the target {target}, so it counts no die",
    "no_face_meets_hint": "to compare the total, put spaces around the comparison: {pool} {op} {value}",
    "no_face_fails": "no face of {pool} meets the failure {failure}",
    "no_face_fails_hint": "write a failure a face can meet, e.g. f1",
    "spaced_options": "a pool's options follow its sides with no space",
    "spaced_options_hint": "write the options right after the sides: {pool}{option}",
    "mixed_rerolls": "reroll once (ro) and reroll until (r, rr) in one pool",
    "mixed_rerolls_hint": "write every reroll of the pool with ro, or every one with r",
    "fudge_variant": "a Fudge die is dF, dF.1 or dF.2",
    "fudge_variant_hint": "write dF.1 (one + and one - face) or dF.2 (two of each, as dF)",
    "second_comparison": "a second comparison of totals",
    "second_comparison_hint": "compare two totals at most once, e.g. 3d6 >= 10",
    "whole_count": "a pool's count is a whole number",
    "whole_sides": "a die's sides are a whole number",
    "unclosed": "'{open}' is not closed",
    "unclosed_hint": "write '{close}' after it",
    "arguments": "{name} takes {many}, not {found}",
    "arguments_hint": "write {name}(...) with {many}",
    "empty_label": "a label is not closed",
    "empty_label_hint": "write ']' after the label, on the same line",
    "nesting": "more than {most} parentheses, groups, calls or minus signs nested",
    "nesting_hint": "nest fewer: write the expression flatter",
}
CULPRITS: Final = (
    ("keep", "keep"),
    ("drop", "keep"),
    ("kh", "keep"),
    ("kl", "keep"),
    ("dh", "keep"),
    ("dl", "keep"),
    ("explodes", "explode"),
    ("rerolled", "reroll"),
    ("failure", "failure"),
    ("unique", "unique"),
    ("minimum", "minimum"),
)
REFUSAL_HINTS: Final = (
    ("more unique dice", "roll no more dice than the die has faces, e.g. 4d6u"),
)
CHECKS: Final[dict[str, str]] = {
    "never_stops": "every face is rerolled, so the die never stops rolling",
    "explodes_forever": "every face the die can show explodes, so it explodes forever",
    "keep_none": "{keep} takes 1 die or more, not {count}",
    "failure_needs_target": "failures (f) count against a target: write the target first, e.g. >=8f1",
    "minimum_above_maximum": "the minimum is above the maximum",
    "unique_alone": "unique dice (u) take no reroll, explosion, minimum or maximum",
    "unique_faces": "more unique dice than the die has faces ({faces})",
    "group_keep_one": "a group of one item keeps or drops nothing: write the options on the pool inside, e.g. 4d6kh3",
}
HINT: Final = "write NdS with options right after the sides (r, ro, !, !!, !p, !o, kh/kl/dh/dl, d, >=5, f1, min2, max5, u, s, x10), joined by + - * / and ( ), floor ceil round abs max min, {groups}kh1, [labels] (e.g. 4d6kh3, 2d6x10+5, (1d8+2)*2, 6d6>=5, 3d6 >= 10)"
NO_MORE_OPTIONS: Final = (
    "after '{written}' a pool takes no more options: write an operator and another term"
)
MORE_OPTIONS: Final = "after '{written}' a pool takes, each once and in any order: {options}; then an operator and another term"
SECOND: Final = "a second {noun}"
