"""The expression language's math and words emitters: LaTeX for formulas, words for conditions."""

from __future__ import annotations

import re

import pytest

from rulesc.emit.markdown.math import (
    display_parts,
    latex_text,
    to_latex,
)
from rulesc.emit.markdown.words import (
    to_words,
    value_words,
)
from rulesc.lang import expr

PARAMS = (
    expr.Param("climb_bonus", "int"),
    expr.Param("limbs", "int", min=0, max=4),
    expr.Param("mode", "choice", choices=("at_cover", "at_target", "through")),
    expr.Param("flag", "bool"),
    expr.Param("other", "bool"),
)


def _node(text: str) -> expr.Node:
    return expr.check(expr.parse(text), {p.name: p for p in PARAMS}).node


def test_a_formula_as_latex() -> None:
    node = _node("clamp(max(10 + 5 * climb_bonus, 5) - 10 * limbs, 0, 40)")
    assert to_latex(node, rounding="down") == (
        r"\min(\max(\max(10 + 5 \times \textit{climb bonus}, \allowbreak 5) - 10 "
        r"\times \textit{limbs}, \allowbreak 0), \allowbreak 40)"
    )


def test_division_rounds_as_the_system_says() -> None:
    node = _node("climb_bonus // 2")
    assert (
        to_latex(node, rounding="down")
        == r"\lfloor \textit{climb bonus} \div 2 \rfloor"
    )
    assert to_latex(node, rounding="up") == r"\lceil \textit{climb bonus} \div 2 \rceil"
    assert to_latex(node, rounding="down", display=True) == (
        r"\left\lfloor \dfrac{\textit{climb bonus}}{2} \right\rfloor"
    )


def test_a_choice_between_values_is_cases_on_its_own_line() -> None:
    node = _node('4 if mode == "at_cover" else 2 if flag else 1')
    main, where = display_parts(node, rounding="down")
    assert main == (
        r"\begin{cases} 4 & \text{if } \textit{mode} = \text{at cover} \\ "
        r"2 & \text{if } \textit{flag} \\ 1 & \text{otherwise} \end{cases}"
    )
    assert where == []
    assert "cases" not in to_latex(node, rounding="down")  # inline: "a if t, else b"


def test_a_divisor_that_is_a_choice_is_set_apart() -> None:
    """A floor around cases is too tall to draw: the divisor gets a name."""
    main, where = display_parts(
        _node("climb_bonus // (4 if flag else 2)"), rounding="down"
    )
    assert main == (
        r"\left\lfloor \dfrac{\textit{climb bonus}}{\textit{divisor}} \right\rfloor"
    )
    assert where == [
        r"\textit{divisor} = \begin{cases} 4 & \text{if } \textit{flag} \\ "
        r"2 & \text{otherwise} \end{cases}"
    ]


@pytest.mark.parametrize("text", ["a|b", "x<y>z", "back`tick", "$5 & 10% #1 _~^{}\\"])
def test_text_never_breaks_out_of_math_or_a_table(text: str) -> None:
    """No pipe (a table cell's end), no < or > (HTML), no backtick (code), and
    every LaTeX special character escaped, a dollar sign too, and an ampersand
    followed by an empty group (no HTML character reference starts at it)."""
    safe = latex_text(text)
    assert not set(safe) & set("|<>`")
    bare = re.sub(r"\\[a-z]+\{\}|\\&\{\}|\\[$&%#_{}]", "", safe)
    assert not set(bare) & set("$&%#_{}\\^~"), bare


def test_conditions_in_words() -> None:
    words = to_words(
        _node('mode == "at_cover" and not flag or (other and limbs >= 2)'),
        rounding="down",
    )
    assert words == (
        "both *mode* is “at cover” and *flag* is no"
        " or both *other* is yes and *limbs* is at least 2"
    )
    assert to_words(_node('mode in ["at_cover", "through"]'), rounding="down") == (
        "*mode* is “at cover” or through"
    )
    assert to_words(_node("limbs + climb_bonus > 3"), rounding="down") == (
        r"$\textit{limbs} + \textit{climb bonus}$ is more than 3"
    )


def test_a_label_valued_choice_in_words() -> None:
    node = _node('"covered" if flag else "exposed"')
    assert value_words(node, rounding="down") == (
        "covered if *flag* is yes; otherwise exposed"
    )


@pytest.mark.parametrize(
    ("text", "latex"),
    [
        (
            "count(pool, 8, 10)",
            r"\text{how many of }\textit{pool} \allowbreak \text{ are }\text{from }8 "
            r"\allowbreak \text{ to }10",
        ),
        (
            "count(pool, 1)",
            r"\text{how many of }\textit{pool} \allowbreak \text{ are }1",
        ),
        ("sorted(pool)", r"\textit{pool}\allowbreak \text{, lowest first}"),
        ("reversed(pool)", r"\textit{pool}\allowbreak \text{, last first}"),
        ("hit.damage_dealt", r"\text{the damage dealt of }\textit{hit}"),
        (
            "x.take(1, 2)",
            r"\textit{x}\allowbreak \text{ after take }(1, \allowbreak 2)",
        ),
        ("4d6kh3", r"\text{4d6}\text{ (keep the 3 highest)}"),
        (
            "(n)d10!",
            r"(\textit{n})\text{d10}\text{ (a die showing 10 adds a die, again while "
            r"a new one does)}",
        ),
        ("sum(rolls(3d6))", r"\operatorname{sum}(\text{the dice rolled: }\text{3d6})"),
    ],
)
def test_lists_dice_and_reads_in_words_not_code(text: str, latex: str) -> None:
    """A reader reads no function of the language as code (rolls(...),
    count(...), x.field), and no option of the dice notation as its token."""
    assert one_text(to_latex(expr.parse(text), rounding="down")) == latex


def one_text(tex: str) -> str:
    """Words set as one ``\\text`` each, a line break allowed between any two,
    as one text."""
    joined = re.sub(r"(\\text\{[^{}]*)\}\\allowbreak \\text\{", r"\1", tex)
    return joined if joined == tex else one_text(joined)
