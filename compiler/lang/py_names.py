"""Python names: the one table of names Python and the generated runtime hold, and each rule name's spelling in Python.

The rules keep their names: a name the rules give that Python or the generated
module already has (a keyword, a built-in, a name the module imports, the rng
argument, ``self``) is spelt with one more ``_`` in the generated code
(``class`` is ``class_``, ``round`` is ``round_``, ``rng`` is ``rng_``), and so
is such a name already ending in ``_`` (``class_`` is ``class__``), so no two
names of the rules are ever one name in Python. An attribute (a record's field,
a state's field, property or transition) is also renamed where its class's
base already has it (``count``, ``replace``, ``to_dict``). Everything else the
generated code names for itself (its private tables, helpers, temporaries and
locals) starts with ``_``, which no name of the rules can.
"""

from __future__ import annotations

from typing import Literal, TypeVar

from ..runtime._state import RecordState
from ..runtime.json import Record

# Python's keywords and soft keywords (every version rulesc supports).
KEYWORDS = frozenset(
    """
    False None True and as assert async await break class continue def del
    elif else except finally for from global if import in is lambda nonlocal
    not or pass raise return try while with yield _ case match type
    """.split()  # noqa: SIM905 (a list of words, read as one)
)
# Python's built-in names (3.11 to 3.13): fixed here, so that the generated code
# is the same whichever Python builds it.
BUILTINS = frozenset(
    """
    ArithmeticError AssertionError AttributeError BaseException
    BaseExceptionGroup BlockingIOError BrokenPipeError BufferError
    BytesWarning ChildProcessError ConnectionAbortedError ConnectionError
    ConnectionRefusedError ConnectionResetError DeprecationWarning EOFError
    Ellipsis EncodingWarning EnvironmentError Exception ExceptionGroup False
    FileExistsError FileNotFoundError FloatingPointError FutureWarning
    GeneratorExit IOError ImportError ImportWarning IndentationError
    IndexError InterruptedError IsADirectoryError KeyError KeyboardInterrupt
    LookupError MemoryError ModuleNotFoundError NameError None
    NotADirectoryError NotImplemented NotImplementedError OSError
    OverflowError PendingDeprecationWarning PermissionError
    ProcessLookupError PythonFinalizationError RecursionError ReferenceError
    ResourceWarning RuntimeError RuntimeWarning StopAsyncIteration
    StopIteration SyntaxError SyntaxWarning SystemError SystemExit TabError
    TimeoutError True TypeError UnboundLocalError UnicodeDecodeError
    UnicodeEncodeError UnicodeError UnicodeTranslateError UnicodeWarning
    UserWarning ValueError Warning ZeroDivisionError abs aiter all anext any
    ascii bin bool breakpoint bytearray bytes callable chr classmethod
    compile complex copyright credits delattr dict dir divmod enumerate eval
    exec exit filter float format frozenset getattr globals hasattr hash
    help hex id input int isinstance issubclass iter len license list locals
    map max memoryview min next object oct open ord pow print property quit
    range repr reversed round set setattr slice sorted staticmethod str sum
    super tuple type vars zip
    """.split()  # noqa: SIM905
)
# What a generated module imports (``from __future__ import annotations`` binds
# ``annotations``), as (module, name): each emitter's imports are among these
# (compiler.emit.python.views refuses any other), so no name of the rules is one of them.
IMPORTS: frozenset[tuple[str, str]] = frozenset(
    {
        ("__future__", "annotations"),
        ("collections.abc", "Mapping"),
        ("collections.abc", "Sequence"),
        ("typing", "ClassVar"),
        ("typing", "Final"),
        ("typing", "Literal"),
        ("typing", "NamedTuple"),
        ("typing", "TypeAlias"),
        ("rulebook", "_chain"),
        ("rulebook", "_odds"),
        ("rulebook", "_values"),
        ("rulebook", "dice_rolls"),
        ("rulebook", "dice_terms"),
        ("rulebook._state", "RecordState"),
        ("rulebook._support", "Label"),
        ("rulebook._support", "LabelMapping"),
        ("rulebook._support", "Ladder"),
        ("rulebook._support", "bad_bool"),
        ("rulebook._support", "bad_int"),
        ("rulebook._support", "choice"),
        ("rulebook._support", "folded"),
        ("rulebook._support", "mapping"),
        ("rulebook._support", "not_one_of"),
        ("rulebook._support", "past_limit"),
        ("rulebook._support", "runtime_call"),
        ("rulebook._support", "step"),
        ("rulebook._timeline", "Timeline"),
        ("rulebook.dice", "RNG"),
        ("rulebook.dice", "Dice"),
        ("rulebook.dice", "check_rng"),
        ("rulebook.errors", "RuleInputError"),
        ("rulebook.json", "JSON"),
        ("rulebook.json", "Record"),
        ("rulebook.json", "record"),
        ("rulebook.odds", "Chances"),
        ("rulebook.odds", "OddsByField"),
    }
)
_T = TypeVar("_T")
RNG = "rng"
"""The argument every function that rolls takes (a public name: the contract's)."""
# The names the generated code binds that a caller sees: the rng argument, and a
# method's own instance.
OWN = frozenset({RNG, "self", "cls"})
TAKEN = KEYWORDS | BUILTINS | {name for _, name in IMPORTS} | OWN
"""Every name the rules may give that Python, or the generated module, has."""


def public_attributes(cls: type) -> set[str]:
    """The public names every instance of ``cls`` has, along its bases."""
    return {
        attr
        for klass in cls.__mro__
        if klass is not object
        for attr in vars(klass)
        if not attr.startswith("_")
    }


# What each base class of a generated class already has (compiler.runtime's
# classes, read from them), besides ``TAKEN``: a field, property or method of
# the class by one of these names is renamed too. A record is a ``Record`` or,
# where it is made often, a named tuple (whose ``to_dict`` the module writes):
# its fields are named alike whichever it is; a state's class (whose instances
# change, ``mutable``) is a ``RecordState``.
Base = Literal["record", "mutable"]
MEMBERS: dict[Base, frozenset[str]] = {
    "record": frozenset(
        public_attributes(Record) | public_attributes(tuple) | {"to_dict"}
    ),
    "mutable": frozenset(public_attributes(RecordState)),
}
_ATTRS = {base: TAKEN | members for base, members in MEMBERS.items()}


def _renamed(name: str, taken: frozenset[str]) -> str:
    return name + "_" if name.rstrip("_") in taken else name


def pyname(name: str) -> str:
    """The Python name of a name the rules give (a function, class, constant,
    parameter, bound name): ``class`` -> ``class_``, ``class_`` -> ``class__``,
    ``cover`` -> ``cover``."""
    return _renamed(name, TAKEN)


def pyattr(name: str, base: Base = "record") -> str:
    """The Python name of a field, property or method of a generated class
    whose base is ``base``."""
    return _renamed(name, _ATTRS[base])


def rules_name(code: str, base: Base | None = None) -> str:
    """The name the rules give for a Python name: ``pyname``'s inverse, or
    ``pyattr``'s for a member of a class whose base is ``base``."""
    taken = TAKEN if base is None else _ATTRS[base]
    stem = code[:-1]
    return stem if code.endswith("_") and stem.rstrip("_") in taken else code


def field_of(value: object, key: str) -> str:
    """The attribute of a generated record or state (``value``; None: a
    record) that holds its field the rules call ``key``."""
    return pyattr(key, "mutable" if hasattr(type(value), "_shown") else "record")


def py_kwargs(args: dict[str, _T]) -> dict[str, _T]:
    """Arguments by the rules' names of the parameters, by their Python names."""
    return {pyname(name): value for name, value in args.items()}
