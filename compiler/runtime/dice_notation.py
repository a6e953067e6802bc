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
the culprit, a message and a hint.
"""

from __future__ import annotations

from ._support import MAX_ENTRIES, shown
from .dice import DiceSyntaxError
from .dice_terms import COMPARISONS, EXPLODES, KEEPS, Compare, DiceSum, Op, Pool, Term
from .errors import RuleInputError

__all__ = ["MAX_TERMS", "parse_notation"]

MAX_TERMS = 100
"""The most terms one expression adds up."""
_MAX_DIGITS = 15
HINT = (
    "write NdS with optional r, !, kh/kl/dh/dl, a target such as >=5 and xM, "
    "added to or subtracted from others and whole numbers (e.g. 4d6kh3, 2d6x10+5, "
    "d20-1, 6d6>=5)"
)


class _Reader:
    """The text and the place reading has got to."""

    def __init__(self, text: str, bare_d6: bool) -> None:
        self.text = text
        self.at = 0
        self.bare_d6 = bare_d6
        self.hint = HINT  # what a mistake here is told to write

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
        if len(digits) > _MAX_DIGITS:
            raise self.fail(f"a number has more than {_MAX_DIGITS} digits", start)
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
        if len(terms) == MAX_TERMS:
            raise reader.fail(
                f"more than {MAX_TERMS} terms", reader.at, "add fewer terms"
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
        name = _option(reader, options)
        if name in places:
            raise reader.fail(f"a second {_NAMES[name]}", at)
        places[name] = at
    reader.hint = HINT
    pool_options = {k: v for k, v in options.items() if k != "reroll_op"}
    try:
        return Pool(count, sides, fudge=fudge, **pool_options)  # type: ignore[arg-type]
    except Exception as error:  # the pool's own checks: point at the option
        message = str(error).partition(": ")[2] or str(error)
        where = _culprit(message, places, sides_at)
        hint = (
            "write !! to add the new dice into their die, then keep or drop"
            if "keep or drop" in message
            else HINT
        )
        raise reader.fail(message, where, hint) from None


_NAMES = {
    "reroll": "reroll",
    "explode": "explosion",
    "keep": "keep or drop",
    "target": "target",
    "multiplier": "multiplier",
}


_TAKES = (
    ("reroll", "r1 or r<3 (reroll once), rr1 (reroll while it shows it)"),
    ("explode", "!, !! or !o (explode; !>=9: on 9 or more)"),
    ("keep", "kh1, kl1, dh1 or dl1 (keep or drop)"),
    ("target", ">=5, >5, <=2, <2 or =6 (count the dice that meet it)"),
    ("multiplier", "x2 (multiply the value)"),
)


_COMPOUNDS = "!! (explode, adding into the die)"


def _takes(written: str, used: dict[str, int], options: dict[str, object]) -> str:
    """Which options a pool takes after ``written`` (its text so far), the
    options ``used`` already written: a hint where one is refused."""
    free = [text for name, text in _TAKES if name not in used]
    if options.get("explode") in ("!", "!o"):  # they add dice: no keep
        free = [text for text in free if not text.startswith("kh")]
    if "keep" in used and "explode" not in used:
        free = [_COMPOUNDS if t.startswith("!") else t for t in free]
    if not free:
        return f"after '{written}' a pool takes no more options: write + or - and another term"
    return (
        f"after '{written}' a pool takes, each once and in any order: "
        + "; ".join(free)
        + "; then + or - and another term"
    )


def _culprit(message: str, places: dict[str, int], sides_at: int) -> int:
    for word, name in (
        ("keep", "keep"),
        ("drop", "keep"),
        ("kh", "keep"),
        ("kl", "keep"),
        ("dh", "keep"),
        ("dl", "keep"),
        ("explodes", "explode"),
        ("rerolled", "reroll"),
    ):
        if word in message and name in places:
            return places[name]
    return sides_at


def _option(reader: _Reader, options: dict[str, object]) -> str:
    """Read one option of a pool into ``options``; answer its name."""
    at = reader.at
    ch = reader.peek()
    if ch == "r":
        reader.at += 1
        again = reader.peek() == "r"
        reader.at += again or reader.peek() == "o"
        once = not again
        options["reroll"] = _compare(reader, "=", "the face to reroll")
        options["reroll_once"] = once
        return "reroll"
    if ch == "!":
        options["explode"] = next(e for e in EXPLODES if reader.peek(len(e)) == e)
        reader.at += len(str(options["explode"]))
        if reader.peek() in ("<", ">", "="):
            options["explode_at"] = _compare(reader, None, "the face that explodes")
        return "explode"
    if reader.peek(2) in KEEPS or ch == "k":
        keep = reader.peek(2) if reader.peek(2) in KEEPS else "kh"
        reader.at += len(keep) if reader.peek(2) in KEEPS else 1
        found = reader.number()
        options["keep"], options["keep_count"] = keep, 1 if found is None else found
        return "keep"
    if ch in "<>=":
        options["target"] = _compare(reader, None, "the target")
        return "target"
    if ch in "x*":
        reader.at += 1
        multiplier = reader.needed("the multiplier")
        if multiplier < 1:
            raise reader.fail("the multiplier must be 1 or more", at + 1)
        options["multiplier"] = multiplier
        return "multiplier"
    if ch == "d":
        raise reader.fail(
            "'d' after a pool's sides",
            at,
            "write dl1 or dh1 to drop dice, or + for another pool",
        )
    raise reader.unexpected()


def _compare(reader: _Reader, default: Op | None, what: str) -> Compare:
    op: Op | None = default
    for candidate in COMPARISONS:
        if reader.peek(len(candidate)) == candidate:
            op = candidate
            break
    if op is None:
        raise reader.unexpected()
    if reader.peek(len(op)) == op:
        reader.at += len(op)
    return Compare(op, reader.signed(what))
