"""Frozen records: the core's many small immutable types, made without generating code.

``@frozen`` does for a class what ``@dataclass(frozen=True)`` does for the
core's needs (a constructor by field, in order, with defaults; equality,
hashing and a repr by the fields; no setting after construction), but with
shared functions instead of code compiled for each class: the core declares
some forty types, and ``dataclass`` made them in 15 ms of every run of
``rulesc``; these take a tenth of that.
"""

from __future__ import annotations

from typing import Any, TypeVar, dataclass_transform

__all__ = ["frozen"]

T = TypeVar("T", bound=type)


@dataclass_transform(frozen_default=True)
def frozen(cls: T) -> T:
    """The class as a frozen record of its annotated fields (bases' first)."""
    names: list[str] = []
    defaults: dict[str, Any] = {}
    for klass in reversed(cls.__mro__):
        for name in vars(klass).get("__annotations__", {}):
            if name not in names:
                names.append(name)
            if name in vars(klass):
                defaults[name] = vars(klass)[name]
    fields = tuple(names)
    made: Any = cls  # the attributes the shared methods read
    attributes: dict[str, object] = {
        "__frozen_fields__": fields,
        "__frozen_defaults__": defaults,
        "__match_args__": fields,
        **_METHODS,
    }
    for name, value in attributes.items():
        setattr(made, name, value)
    return cls


def _init(self: Any, *args: Any, **kwargs: Any) -> None:
    fields: tuple[str, ...] = type(self).__frozen_fields__
    defaults: dict[str, Any] = type(self).__frozen_defaults__
    if len(args) > len(fields):
        raise TypeError(f"{type(self).__name__}() takes {len(fields)} arguments")
    given = dict(zip(fields, args, strict=False))
    for name, value in kwargs.items():
        if name not in fields or name in given:
            raise TypeError(f"{type(self).__name__}() got a bad argument {name!r}")
        given[name] = value
    for name in fields:
        if name in given:
            object.__setattr__(self, name, given[name])
        elif name in defaults:
            object.__setattr__(self, name, defaults[name])
        else:
            raise TypeError(f"{type(self).__name__}() is missing {name!r}")


def _values(self: Any) -> tuple[Any, ...]:
    return tuple(getattr(self, name) for name in type(self).__frozen_fields__)


def _eq(self: Any, other: object) -> Any:
    if other.__class__ is not self.__class__:
        return NotImplemented
    return _values(self) == _values(other)


def _hash(self: Any) -> int:
    # worked out once: the core's records are keys of caches (a checked
    # expression's names), hashed again and again, and never change
    found: int | None = self.__dict__.get("__frozen_hash__")
    if found is None:
        found = hash((type(self), _values(self)))
        object.__setattr__(self, "__frozen_hash__", found)
    return found


def _repr(self: Any) -> str:
    shown = ", ".join(
        f"{name}={getattr(self, name)!r}" for name in type(self).__frozen_fields__
    )
    return f"{type(self).__qualname__}({shown})"


def _setattr(self: Any, name: str, value: object) -> None:
    raise AttributeError(f"cannot set {name!r}: a {type(self).__name__} is frozen")


def _delattr(self: Any, name: str) -> None:
    raise AttributeError(f"cannot delete {name!r}: a {type(self).__name__} is frozen")


_METHODS = {
    "__init__": _init,
    "__eq__": _eq,
    "__hash__": _hash,
    "__repr__": _repr,
    "__setattr__": _setattr,
    "__delattr__": _delattr,
}
