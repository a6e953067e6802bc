"""Dice notation: the text players type into dice rollers read into a ``DiceSum``, with located errors.

The grammar (whitespace may stand between tokens, never inside a pool's or a
group's options)::

    expr    := sum [cmp sum]          a comparison of totals: 1 when it holds, else 0
    sum     := ['+'|'-'] product (('+'|'-') product)*
    product := unary (('*'|'/') unary)*          / divides exactly
    unary   := '-' unary | atom
    atom    := (NUMBER | pool | '(' expr ')' | FUNC '(' expr (',' expr)* ')' | group) [label]
    group   := '{' expr (',' expr)* '}' options  (keep/drop, target, failure)
    pool    := [COUNT] 'd' SIDES options         (SIDES: digits, %, F, F.1, F.2)
    label   := '[' text ']'                      (shown only)

``FUNC`` is ``floor``, ``ceil``, ``round`` (half up), ``abs``, ``max`` or
``min``; a ``NUMBER`` may have decimals (``1.5`` is exactly 3/2). A
comparison written right after a pool's (or group's) options, with no space,
is its target (``6d6>=5`` counts dice); anywhere else it compares totals
(``6d6 >= 5``). A pool's options, in any order, each once (several ``r``
make one condition): ``min``/``max`` per die, ``r``/``rr`` (reroll until),
``ro`` (once), ``!``, ``!!``, ``!p``, ``!o`` (explode), ``u`` (unique),
``kh``/``kl``/``dh``/``dl``/``k``/``d`` (keep, drop), a target ``>=N``,
``<=N``, ``=N``, failures ``fN``, ``s``/``sa``/``sd`` (sort), ``xM`` (times M).
With ``bare_d6`` (GURPS) ``3d`` is ``3d6``. ``>N``/``<N`` in an option, ``cs``,
``cf``, ``%``, ``^`` and ``**`` are refused: other tools read them otherwise.

A mistake raises :class:`~rulebook.dice.DiceSyntaxError` with the offset of
the culprit, a message and a hint. The options (tokens, arguments, defaults,
checks) and the words of hints and refusals are data: ``rulebook._dice_spec``,
printed from the notation's one definition (the JavaScript runtime's parser
reads the same).
"""

from __future__ import annotations

from fractions import Fraction

from . import _dice_spec as spec
from ._notation_pool import group_options, read_pool
from ._notation_reader import Reader as _Reader
from ._notation_reader import words as _words
from ._support import MAX_ENTRIES, shown
from .dice import DiceSyntaxError
from .dice_terms import AnyNode, DiceSum, Op, Term
from .dice_tree import CALLS, Binary, Call, CallName, Group, Labeled, Test
from .errors import RuleInputError

__all__ = ["MAX_TERMS", "parse_notation"]

MAX_TERMS = spec.MAX_TERMS
"""The most terms one sum adds up."""
HINT = spec.HINT
_SPACES = " \t"
_TOTALS: tuple[tuple[str, Op], ...] = (
    ("==", "="),
    (">=", ">="),
    ("<=", "<="),
    (">", ">"),
    ("<", "<"),
    ("=", "="),
)


def parse_notation(text: str, *, bare_d6: bool = False) -> DiceSum:
    """Read ``text`` (see the module's doc); ``DiceSyntaxError`` where it goes wrong
    (``RuleInputError``, which it is too, for a ``text`` that is no ``str``)."""
    if not isinstance(text, str):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise RuleInputError(f"text must be a str, not {shown(text)}")
    if type(bare_d6) is not bool:
        raise RuleInputError(f"bare_d6 must be True or False, not {shown(bare_d6)}")
    text = str.__str__(text)  # a subclass's own methods are never called
    for offset, ch in enumerate(text):
        if not ch.isascii() and ch.isnumeric():
            raise DiceSyntaxError(
                f"bad dice expression {text!r}: {ch!r} is not an ASCII digit "
                f"(U+{ord(ch):04X})",
                offset,
                "write the number with the digits 0 to 9",
            )
    reader = _Reader(text, bare_d6)
    node = _expr(reader)
    reader.skip()
    if reader.at < len(text):
        raise reader.stray()
    return node if isinstance(node, DiceSum) else DiceSum((Term(1, node),))


def _total_op(reader: _Reader) -> tuple[str, Op] | None:
    return next(((w, op) for w, op in _TOTALS if reader.peek(len(w)) == w), None)


def _expr(reader: _Reader) -> AnyNode:
    left = _sum(reader)
    reader.skip()
    found = _total_op(reader)
    if found is None:
        return left
    reader.at += len(found[0])
    right = _sum(reader)
    reader.skip()
    if _total_op(reader) is not None:
        raise reader.fail(
            _words("second_comparison"),
            reader.at,
            _words("second_comparison_hint"),
        )
    return Test(found[1], left, right)


def _sum(reader: _Reader) -> AnyNode:
    reader.skip()
    terms: list[Term] = []
    sign = 1
    if reader.peek() in ("+", "-") and reader.peek():
        sign, reader.at = (-1 if reader.peek() == "-" else 1), reader.at + 1
    while True:
        if len(terms) == spec.MAX_TERMS:
            raise reader.fail(
                f"more than {spec.MAX_TERMS} terms", reader.at, "add fewer terms"
            )
        terms.append(Term(sign, _product(reader)))
        reader.skip()
        if reader.peek() not in ("+", "-") or not reader.peek():
            break
        sign = 1 if reader.peek() == "+" else -1
        reader.at += 1
    if len(terms) == 1 and terms[0].sign == 1:
        return terms[0].value
    return DiceSum(tuple(terms))


def _product(reader: _Reader) -> AnyNode:
    left = _unary(reader)
    while True:
        reader.skip()
        op = reader.peek()
        if op not in ("*", "/") or not op:
            return left
        if reader.peek(2) == "**":
            raise reader.stray()
        reader.at += 1
        left = Binary("*" if op == "*" else "/", left, _unary(reader))


def _unary(reader: _Reader) -> AnyNode:
    reader.skip()
    if reader.peek() != "-":
        return _atom(reader)
    reader.deeper()
    reader.at += 1
    node = DiceSum((Term(-1, _unary(reader)),))
    reader.depth -= 1
    return node


def _function_at(reader: _Reader) -> CallName | None:
    for name in CALLS:
        if reader.peek(len(name)) == name:
            after = reader.at + len(name)
            rest = reader.text[after:].lstrip(_SPACES)
            if rest.startswith("("):
                return name
    return None


def _atom(reader: _Reader) -> AnyNode:
    reader.skip()
    start = reader.at
    first = reader.peek()
    node: AnyNode
    nested = first in ("(", "{") or _function_at(reader) is not None
    if nested:
        reader.deeper()
    if first == "(":
        reader.at += 1
        node = _expr(reader)
        _close(reader, "(", ")", start)
    elif first == "{":
        node = _group(reader)
    elif (name := _function_at(reader)) is not None:
        node = _call(reader, name)
    elif first == "d" or ("0" <= first <= "9" and first):
        node = _number_or_pool(reader)
    else:
        raise reader.stray()
    if nested:
        reader.depth -= 1
    return _label(reader, node)


def _close(reader: _Reader, opened: str, close: str, start: int) -> None:
    reader.skip()
    if reader.peek() == close:
        reader.at += 1
        return
    if reader.at == len(reader.text):
        raise reader.fail(
            _words("unclosed", open=opened),
            start,
            _words("unclosed_hint", close=close),
        )
    raise reader.stray()


def _label(reader: _Reader, node: AnyNode) -> AnyNode:
    back = reader.at
    reader.skip()
    if reader.peek() != "[":
        reader.at = back
        return node
    start = reader.at
    end = reader.text.find("]", start + 1)
    label = reader.text[start + 1 : end]
    if end < 0 or "\n" in label or "\r" in label:
        raise reader.fail(_words("empty_label"), start, _words("empty_label_hint"))
    reader.at = end + 1
    return Labeled(node, label)


def _call(reader: _Reader, name: CallName) -> Call:
    start = reader.at
    reader.at += len(name)
    reader.skip()
    opened = reader.at
    reader.at += 1  # the "(" _function_at saw
    args = [_expr(reader)]
    reader.skip()
    while reader.peek() == ",":
        reader.at += 1
        args.append(_expr(reader))
        reader.skip()
    _close(reader, "(", ")", opened)
    least, most = CALLS[name]
    if len(args) < least or (most is not None and len(args) > most):
        many = "1 argument" if most == 1 else f"{least} arguments or more"
        raise reader.fail(
            _words("arguments", name=name, many=many, found=len(args)),
            start,
            _words("arguments_hint", name=name, many=many),
        )
    return Call(name, tuple(args))


def _number_or_pool(reader: _Reader) -> AnyNode:
    start = reader.at
    count = reader.number()
    if reader.peek() == "." and "0" <= reader.peek(2)[1:] <= "9" and reader.peek(2)[1:]:
        if count is None:
            raise reader.unexpected()
        reader.at += 1
        places = reader.digits()
        if reader.peek() == "d":
            raise reader.fail(_words("whole_count"), start)
        return Fraction(f"{count}.{places}")
    if reader.peek() != "d":
        if count is None:
            raise reader.unexpected()
        return count
    if count is not None and count < 1:
        raise reader.fail("a pool needs at least one die", start)
    if count is not None and count > MAX_ENTRIES:
        raise reader.fail(
            f"more than {MAX_ENTRIES:,} dice", start, "roll fewer dice at once"
        )
    reader.at += 1
    return read_pool(reader, 1 if count is None else count, start)


def _group(reader: _Reader) -> Group:
    start = reader.at
    reader.at += 1
    items = [_expr(reader)]
    reader.skip()
    while reader.peek() == ",":
        reader.at += 1
        items.append(_expr(reader))
        reader.skip()
    _close(reader, "{", "}", start)
    return group_options(reader, tuple(items), start)
