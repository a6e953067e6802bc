"""Dice notation: the text of the common games' dice read into a ``DiceSum``, with located errors.

What it reads (no spaces), terms added with ``+`` and subtracted with ``-``:

- a whole number, ``5``;
- a pool, ``NdX``: ``N`` dice (1 when left out: ``d20``) of ``X`` sides;
  ``d%`` is ``d100``, ``dF`` a Fudge die (-1, 0, +1); with ``bare_d6`` (GURPS)
  ``3d`` is ``3d6``. After the sides, in any order, each at most once:

  - ``r`` and a face, or a comparison and a number (``r1``, ``r<3``): a die
    that shows it is rolled again, once (the new face stands; ``ro`` says the
    same); ``rr`` rolls it again while it shows it (Roll20's ``r``);
  - ``!``: a die at its highest face rolls one more die, again while the new
    one shows its highest; ``!!`` the same, the new dice added into that one
    die; ``!o`` one more die at most; a comparison right after it sets the
    faces that explode instead of the highest (``!>=9``, ``!=1``, as Roll20
    reads it), so ``6d10!>=10>=8`` explodes on 10 and counts 8 or more;
  - ``khN``, ``klN`` keep the N highest, lowest dice; ``dhN``, ``dlN`` drop
    them (``kh`` alone is ``kh1``; not with ``!`` or ``!o``);
  - ``>=N``, ``>N``, ``<=N``, ``<N``, ``=N``: the pool counts the dice that
    meet the target instead of summing them (``>`` is strictly greater,
    unlike Roll20's ``>``, which reads as ``>=``);
  - ``xM`` (``*M``): the pool's value multiplied by ``M``.

A mistake raises :class:`~rulebook.dice.DiceSyntaxError` with the offset of
the culprit, a message and a hint. The options (tokens, arguments, defaults,
checks) and the words of hints and refusals are data: ``rulebook._dice_spec``,
printed from the notation's one definition (the JavaScript runtime's parser
reads the same).
"""

from __future__ import annotations

from typing import cast

from . import _dice_spec as spec
from ._support import MAX_ENTRIES, shown
from .dice import DiceSyntaxError
from .dice_terms import Compare, DiceSum, Op, Pool, Term
from .errors import RuleInputError

__all__ = ["MAX_TERMS", "parse_notation"]

MAX_TERMS = spec.MAX_TERMS
"""The most terms one expression adds up."""
HINT = spec.HINT


class _Reader:
    """The text and the place reading has got to."""

    def __init__(self, text: str, bare_d6: bool) -> None:
        self.text = text
        self.at = 0
        self.bare_d6 = bare_d6
        self.hint = spec.HINT  # what a mistake here is told to write

    def peek(self, length: int = 1) -> str:
        return self.text[self.at : self.at + length]

    def fail(
        self, message: str, offset: int, hint: str | None = None
    ) -> DiceSyntaxError:
        return DiceSyntaxError(
            f"bad dice expression {self.text!r}: {message}",
            offset,
            self.hint if hint is None else hint,
        )

    def unexpected(self, offset: int | None = None) -> DiceSyntaxError:
        at = self.at if offset is None else offset
        found = repr(self.text[at]) if at < len(self.text) else "the end"
        return self.fail(f"unexpected {found}", at)

    def number(self) -> int | None:
        start = self.at
        while self.at < len(self.text) and "0" <= self.text[self.at] <= "9":
            self.at += 1
        digits = self.text[start : self.at]
        if not digits:
            return None
        if len(digits) > spec.MAX_DIGITS:
            raise self.fail(f"a number has more than {spec.MAX_DIGITS} digits", start)
        if len(digits) > 1 and digits[0] == "0":
            raise self.fail("a number starts with 0", start)
        return int(digits)

    def needed(self, what: str) -> int:
        value = self.number()
        if value is None:
            raise self.fail(f"{what} is missing", self.at)
        return value

    def signed(self, what: str) -> int:
        negative = self.peek() == "-"
        self.at += negative
        value = self.needed(what)
        return -value if negative else value


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
    terms: list[Term] = []
    sign = 1
    if reader.peek() == "-":
        sign, reader.at = -1, 1
    while True:
        if len(terms) == spec.MAX_TERMS:
            raise reader.fail(
                f"more than {spec.MAX_TERMS} terms", reader.at, "add fewer terms"
            )
        terms.append(Term(sign, _term(reader)))
        if reader.at == len(text):
            return DiceSum(tuple(terms))
        if reader.peek() not in ("+", "-"):
            raise reader.unexpected()
        sign = 1 if reader.peek() == "+" else -1
        reader.at += 1


def _term(reader: _Reader) -> Pool | int:
    start = reader.at
    count = reader.number()
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
    return _pool(reader, 1 if count is None else count, start)


def _pool(reader: _Reader, count: int, start: int) -> Pool:
    fudge = False
    sides_at = reader.at
    if reader.peek() == "%":
        sides, reader.at = 100, reader.at + 1
    elif reader.peek() == "F":
        fudge, sides, reader.at = True, 3, reader.at + 1
    else:
        found = reader.number()
        if found is None and not reader.bare_d6:
            raise reader.fail(
                "the die's sides are missing",
                reader.at,
                "write the sides after the d, e.g. 3d6, d%, dF "
                "(only GURPS notation allows a bare Nd)",
            )
        sides = 6 if found is None else found
        if sides < 1:
            raise reader.fail("a die needs at least one side", sides_at)
        if sides > MAX_ENTRIES:
            raise reader.fail(
                f"a die has at most {MAX_ENTRIES:,} sides", sides_at, "use fewer sides"
            )
    options: dict[str, object] = {}
    places: dict[str, int] = {}
    while reader.at < len(reader.text) and reader.peek() not in ("+", "-"):
        at = reader.at
        reader.hint = _takes(reader.text[start:at], places, options)
        option = _option(reader, options)
        if option.name in places:
            raise reader.fail(spec.SECOND.replace("{noun}", option.noun), at)
        places[option.name] = at
    reader.hint = spec.HINT
    try:
        return Pool(count, sides, fudge=fudge, **options)  # type: ignore[arg-type]
    except Exception as error:  # the pool's own checks: point at the option
        message = str(error).partition(": ")[2] or str(error)
        where = _culprit(message, places, sides_at)
        hint = next((h for w, h in spec.REFUSAL_HINTS if w in message), spec.HINT)
        raise reader.fail(message, where, hint) from None


def _takes(written: str, used: dict[str, int], options: dict[str, object]) -> str:
    """Which options a pool takes after ``written`` (its text so far), the
    options ``used`` already written: a hint where one is refused."""
    free: list[str] = []
    for option in spec.OPTIONS:
        hidden = any(options.get(f) in values for f, values in option.hidden_when)
        if option.name in used or hidden:
            continue
        free.append(next((t for n, t in option.takes_after if n in used), option.takes))
    if not free:
        return spec.NO_MORE_OPTIONS.replace("{written}", written)
    listed = "; ".join(free)
    return spec.MORE_OPTIONS.replace("{written}", written).replace("{options}", listed)


def _culprit(message: str, places: dict[str, int], sides_at: int) -> int:
    for word, name in spec.CULPRITS:
        if word in message and name in places:
            return places[name]
    return sides_at


def _starts_compare(reader: _Reader) -> bool:
    return any(reader.peek(len(op)) == op for op in spec.COMPARISONS)


def _form(reader: _Reader) -> tuple[spec.Option, spec.Form] | spec.Refused | None:
    """The option written here: the longest token that matches (a refused
    token too), else a form without a token whose argument starts here."""
    found: tuple[spec.Option, spec.Form] | spec.Refused | None = None
    longest = 0
    for option in spec.OPTIONS:
        for form in option.forms:
            token = form.token
            if len(token) > longest and reader.peek(len(token)) == token:
                found, longest = (option, form), len(token)
    for refused in spec.REFUSED:
        if (
            len(refused.token) > longest
            and reader.peek(len(refused.token)) == refused.token
        ):
            found, longest = refused, len(refused.token)
    if found is not None or not _starts_compare(reader):
        return found
    return next(
        (
            (o, f)
            for o in spec.OPTIONS
            for f in o.forms
            if not f.token and o.argument.shape == "compare"
        ),
        None,
    )


def _option(reader: _Reader, options: dict[str, object]) -> spec.Option:
    """Read one option of a pool into ``options``; answer it."""
    found = _form(reader)
    if found is None:
        raise reader.unexpected()
    if isinstance(found, spec.Refused):
        raise reader.fail(found.message, reader.at, found.hint)
    option, form = found
    reader.at += len(form.token)
    options.update(form.sets)
    argument = option.argument
    if argument.shape == "compare":
        if not argument.optional or _starts_compare(reader):
            op = cast("Op | None", argument.op)  # the definition's comparisons
            options[argument.field] = _compare(reader, op, argument.what)
        return option
    at = reader.at
    if argument.default is not None:
        value = reader.number()
        value = argument.default if value is None else value
    else:
        value = reader.needed(argument.what)
    if argument.least is not None and value < argument.least:
        raise reader.fail(argument.below_least, at)
    options[argument.field] = value
    return option


def _compare(reader: _Reader, default: Op | None, what: str) -> Compare:
    op: Op | None = default
    for candidate in spec.COMPARISONS:
        if reader.peek(len(candidate)) == candidate:
            op = candidate
            break
    if op is None:
        raise reader.unexpected()
    if reader.peek(len(op)) == op:
        reader.at += len(op)
    return Compare(op, reader.signed(what))
