"""Notation pools: a pool's sides and options, and a group's options, read from the definition's table (``rulebook.dice_notation``'s)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from . import _dice_spec as spec
from ._notation_reader import FOLLOWERS, SPACES, Reader, words
from .dice_terms import FUDGE_1, AnyNode, AnyOf, Compare, Condition, Op, Pool
from .dice_tree import Group

__all__ = ["group_options", "read_pool"]

_Found = tuple[spec.Option, spec.Form] | spec.Refused | None


class _Options:
    """The options read so far: the fields they set, where each was written,
    and the conditions of each (several for an option that repeats; None for
    a bare ``r``: the lowest face)."""

    def __init__(self, start: int) -> None:
        self.start = start
        self.fields: dict[str, object] = {}
        self.places: dict[str, int] = {}
        self.conditions: dict[str, list[Compare | None]] = {}
        self.sets: dict[str, tuple[tuple[str, bool | str], ...]] = {}


def read_pool(reader: Reader, count: int, start: int) -> Pool:
    """The pool whose ``d`` ``reader`` has just read (``count`` dice, its text from ``start``)."""
    sides_at = reader.at
    sides, fudge, listed = _sides(reader)
    found = _options(reader, _Options(start), group=False)
    fields = found.fields
    if "reroll" in found.conditions:
        lowest = min(
            Pool(
                count,
                sides,
                fudge=fudge,
                listed=listed,
                minimum=cast("int | None", fields.get("minimum")),
                maximum=cast("int | None", fields.get("maximum")),
            ).shown_faces
        )
        fields["reroll"] = _condition(found.conditions["reroll"], lowest)
    for name in ("explode_at", "target", "failure"):
        written = [c for c in found.conditions.get(name, ()) if c is not None]
        if written:
            fields[name] = _condition(written, 0)
    try:
        pool = Pool(count, sides, fudge=fudge, listed=listed, **fields)  # type: ignore[arg-type]
    except Exception as error:  # the pool's own checks: point at the option
        message = str(error).partition(": ")[2] or str(error)
        where = _culprit(message, found.places, sides_at)
        hint = next((h for w, h in spec.REFUSAL_HINTS if w in message), spec.HINT)
        raise reader.fail(message, where, hint) from None
    _met(reader, pool, found)
    _spaced(reader, start)
    return pool


def group_options(reader: Reader, items: tuple[AnyNode, ...], start: int) -> Group:
    """The group of ``items`` whose ``}`` ``reader`` has just read, with its options."""
    found = _options(reader, _Options(start), group=True)
    fields = found.fields
    for name in ("target", "failure"):
        if name in found.conditions:
            fields[name] = _condition(found.conditions[name], 0)
    try:
        return Group(items, **fields)  # type: ignore[arg-type]
    except Exception as error:
        message = str(error).partition(": ")[2] or str(error)
        raise reader.fail(message, _culprit(message, found.places, start)) from None


def _sides(reader: Reader) -> tuple[int, bool, tuple[int, ...] | None]:
    if reader.peek() == "%":
        reader.at += 1
        return 100, False, None
    if reader.peek() == "F":
        reader.at += 1
        if reader.peek() != "." or not ("0" <= reader.peek(2)[1:] <= "9"):
            return 3, True, None
        variant = reader.peek(3)
        if variant in (".1", ".2") or (
            variant[:2] in (".1", ".2") and not ("0" <= variant[2:] <= "9")
        ):
            reader.at += 2
            return (6, True, FUDGE_1) if variant[:2] == ".1" else (3, True, None)
        raise reader.fail(
            words("fudge_variant"), reader.at, words("fudge_variant_hint")
        )
    sides_at = reader.at
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
    if found is not None and reader.peek() == "." and "0" <= reader.peek(2)[1:] <= "9":
        raise reader.fail(words("whole_sides"), sides_at)
    from ._support import MAX_ENTRIES

    if sides > MAX_ENTRIES:
        raise reader.fail(
            f"a die has at most {MAX_ENTRIES:,} sides", sides_at, "use fewer sides"
        )
    return sides, False, None


def _options(reader: Reader, found: _Options, *, group: bool) -> _Options:
    """Read the options written here, up to the first that is none."""
    while True:
        at = reader.at
        reader.hint = _takes(reader.text[found.start : at], found, group)
        form = _form(reader, group)
        if form is None:
            break
        if isinstance(form, spec.Refused):
            raise reader.fail(form.message, at, form.hint)
        option, written = form
        if option.name in found.places and not option.repeats:
            raise reader.fail(spec.SECOND.replace("{noun}", option.noun), at)
        _option(reader, option, written, found)
        found.places.setdefault(option.name, at)
    if reader.at < len(reader.text) and reader.peek() not in FOLLOWERS:
        raise reader.stray()
    reader.hint = spec.HINT
    return found


def _takes(written: str, found: _Options, group: bool) -> str:
    """Which options a pool takes after ``written`` (its text so far), the
    options in ``found`` already written: a hint where one is refused."""
    free: list[str] = []
    for option in spec.OPTIONS:
        hidden = any(found.fields.get(f) in values for f, values in option.hidden_when)
        if (option.name in found.places and not option.repeats) or hidden:
            continue
        if group and not option.in_groups:
            continue
        free.append(
            next((t for n, t in option.takes_after if n in found.places), option.takes)
        )
    if not free:
        return spec.NO_MORE_OPTIONS.replace("{written}", written)
    listed = "; ".join(free)
    return spec.MORE_OPTIONS.replace("{written}", written).replace("{options}", listed)


def _culprit(message: str, places: dict[str, int], sides_at: int) -> int:
    for word, name in spec.CULPRITS:
        if word in message and name in places:
            return places[name]
    return sides_at


def _starts_compare(reader: Reader) -> bool:
    return any(reader.peek(len(op)) == op for op in spec.COMPARISONS)


def _form(reader: Reader, group: bool) -> _Found:
    """The option written here: the longest token that matches (a refused
    token too), else a form without a token whose argument starts here."""
    found: _Found = None
    longest = 0
    for option in spec.OPTIONS:
        if group and not option.in_groups:
            continue
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


def _option(
    reader: Reader, option: spec.Option, form: spec.Form, found: _Options
) -> None:
    """Read one option of a pool (or group) into ``found``."""
    at = reader.at
    if option.name in found.sets and found.sets[option.name] != form.sets:
        raise reader.fail(words("mixed_rerolls"), at, words("mixed_rerolls_hint"))
    found.sets[option.name] = form.sets
    reader.at += len(form.token)
    found.fields.update(form.sets)
    argument = option.argument
    if argument.shape == "none":
        return
    if argument.shape == "compare":
        conditions = found.conditions.setdefault(argument.field, [])
        digit = reader.peek().isdigit() or (
            reader.peek() == "-" and reader.peek(2)[1:].isdigit()
        )
        if argument.optional and not (
            _starts_compare(reader) or (argument.op is not None and digit)
        ):
            conditions.append(None)
            return
        op = cast("Op | None", argument.op)  # the definition's comparisons
        conditions.append(_compare(reader, op, argument.what))
        return
    value_at = reader.at
    if argument.signed:
        value = reader.signed(argument.what)
    elif argument.default is not None and not form.required:
        number = reader.number()
        value = argument.default if number is None else number
    else:
        value = reader.needed(argument.what)
    if argument.least is not None and value < argument.least:
        raise reader.fail(argument.below_least, value_at)
    found.fields[argument.field] = value


def _compare(reader: Reader, default: Op | None, what: str) -> Compare:
    op: Op | None = default
    for candidate in spec.COMPARISONS:
        if reader.peek(len(candidate)) == candidate:
            op = candidate
            break
    if op is None:
        raise reader.unexpected()
    op_at = reader.at
    if reader.peek(len(op)) == op:
        reader.at += len(op)
    value = reader.signed(what)
    if op == ">":
        raise reader.fail(
            words("strict_greater", value=value),
            op_at,
            words("strict_greater_hint", value=value, next=value + 1),
        )
    if op == "<":
        raise reader.fail(
            words("strict_less", value=value),
            op_at,
            words("strict_less_hint", value=value, previous=value - 1),
        )
    return Compare(op, value)


def _condition(conditions: Sequence[Compare | None], lowest: int) -> Condition:
    """One condition of those written (None: ``lowest``, the die's lowest face)."""
    found = tuple(Compare("=", lowest) if c is None else c for c in conditions)
    if len(found) == 1:
        return found[0]
    return AnyOf(found)


def _met(reader: Reader, pool: Pool, found: _Options) -> None:
    """Refuse a target (or failure) that no face of the die can meet."""
    if pool.explode == "!!" or not pool.numeric:
        return
    faces = set(pool.final_faces())
    if pool.explode == "!p":
        faces |= {f - 1 for f in faces}
    for name, key in (("target", "no_face_meets"), ("failure", "no_face_fails")):
        condition = cast("Condition | None", getattr(pool, name))
        if condition is None or any(condition.meets(f) for f in faces):
            continue
        at = found.places[name]
        written = reader.text[found.start : at]
        compare = (
            condition if isinstance(condition, Compare) else condition.conditions[0]
        )
        raise reader.fail(
            words(key, pool=written, target=condition, failure=condition),
            at,
            words(f"{key}_hint", pool=written, op=compare.op, value=compare.value),
        )


def _spaced(reader: Reader, start: int) -> None:
    """Refuse a pool's option written after a space (``4d6 kh3``)."""
    back = reader.at
    reader.skip()
    if reader.at == back or _starts_compare(reader):
        reader.at = back
        return
    form = _form(reader, group=False)
    if (
        form is None
        or isinstance(form, spec.Refused)
        or not form[1].token
        or reader.peek() == "d"  # (a pool after a space: an operator is missing)
        or reader.text[reader.at + len(form[1].token) :].lstrip(SPACES)[:1] == "("
    ):
        reader.at = back
        return
    raise reader.fail(
        words("spaced_options"),
        reader.at,
        words(
            "spaced_options_hint",
            pool=reader.text[start:back],
            option=reader.text[reader.at :].split()[0],
        ),
    )
