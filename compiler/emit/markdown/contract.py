"""Contract: the public surface of the generated runtime, read from its own code.

The contract page (``docs/contract.md``) lists, for each system module, every
name its ``__all__`` exports, grouped by the rule that gives it: each function
with its signature, each class with its base and fields, each constant with its
type; and, for the support modules, the names every system shares. It is read
from the formatted modules' syntax trees, so it says what the code is, and a
build that changes a name changes the page.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ...core.viewkit import (
    View,
    header_of,
)
from ...front.model import (
    EnumType,
    System,
)
from ...lang.naming import label_alias
from ...lang.py_names import pyname
from ..literals import (
    code,
    md,
    py,
)
from ..viewkit import (
    all_enums,
)
from .files import TARGET_NAME

if TYPE_CHECKING:
    from ...common.parts import Shares

_CHUNK = re.compile(r"^# -- (\S+) --$", re.MULTILINE)
# The support modules a caller uses directly (the others are the kinds' engines).
PUBLIC_SUPPORT = (
    "dice",
    "dice_notation",
    "dice_odds",
    "dice_rolls",
    "dice_terms",
    "dice_tree",
    "errors",
    "json",
    "odds",
)
# What the generated modules' own names are made of: the bases of every record
# and every label enum, and the type of a mapping argument (rulebook._support's
# other names are the argument checks).
SUPPORT_BASES = ("Frozen", "Label", "Ladder", "LabelMapping")


def contract_view(parts: Sequence[Shares], modules: Mapping[str, str]) -> View:
    """``modules``: the package's module texts by path (``rulebook/x.py``)."""
    return {
        "header": header_of(parts),
        "labels": label_examples([p.views[TARGET_NAME]["labels"] for p in parts]),
        "first_module": code(f"rulebook.{parts[0].id}" if parts else "rulebook.dice"),
        "support": [
            *(
                _module_view(
                    f"rulebook.{name}", modules[f"rulebook/{name}.py"], None, modules
                )
                for name in PUBLIC_SUPPORT
            ),
            _module_view(
                "rulebook._support",
                modules["rulebook/_support.py"],
                None,
                modules,
                list(SUPPORT_BASES),
            ),
        ],
        "systems": [p.views[TARGET_NAME]["contract"] for p in parts],
    }


def module_entry(system: System, modules: Mapping[str, str]) -> View:
    """A system's section of the contract page (``modules`` as ``contract_view``'s)."""
    return {
        "title": md(system.title),
        "page": f"{system.id}.md",
        **_module_view(
            f"rulebook.{system.id}",
            modules[f"rulebook/{system.id}.py"],
            system,
            modules,
        ),
    }


def label_candidates(system: System) -> View:
    """What ``label_examples`` may take from a system: the examples its first
    ordered and first unordered enum of two labels or more would give."""
    enums = [e for e in all_enums(system) if len(e.members) > 1]
    ordered = next((e for e in enums if e.ordered), None)
    unordered = next((e for e in enums if not e.ordered), None)
    view: View = {"ordered": None, "unordered": None}
    if ordered is not None:
        low, high = ordered.members[0], ordered.members[-1]
        view["ordered"] = {
            "less": code(
                f"{pyname(ordered.name)}.{low.name} < {py(_other_case(high.label))}"
            ),
            "enum": code(pyname(ordered.name)),
            "equal": _equal(ordered),
        }
    if unordered is not None:
        a, b = unordered.members[0], unordered.members[1]
        view["unordered"] = {
            "less": code(
                f"{pyname(unordered.name)}.{a.name} < {pyname(unordered.name)}.{b.name}"
            ),
            "enum": code(pyname(unordered.name)),
            "equal": _equal(unordered),
        }
    return view


def _equal(enum: EnumType) -> View:
    first = enum.members[0]
    return {
        "same": code(f"{pyname(enum.name)}.{first.name} == {py(first.label)}"),
        "other": code(
            f"{pyname(enum.name)}.{first.name} == {py(_other_case(first.label))}"
        )
        if _other_case(first.label) != first.label
        else None,
        "lookup": code(f"{pyname(enum.name)}({py(_other_case(first.label))})"),
        "member": code(f"{pyname(enum.name)}.{first.name}"),
        "alias": code(pyname(label_alias(enum.name))),
    }


def label_examples(candidates: Sequence[View]) -> View:
    """Comparisons of the systems' own labels, for the contract's conventions:
    none where no system has an enum of the kind (so the page never names a
    label the rules do not have). ``candidates``: each system's
    ``label_candidates``, in order; the first ordered enum of all, and the first
    unordered one, give the examples."""
    ordered = next((c["ordered"] for c in candidates if c["ordered"]), None)
    unordered = next((c["unordered"] for c in candidates if c["unordered"]), None)
    any_enum = ordered or unordered
    return {
        "ordered": None
        if ordered is None
        else {"less": ordered["less"], "enum": ordered["enum"]},
        "unordered": None
        if unordered is None
        else {"less": unordered["less"], "enum": unordered["enum"]},
        "equal": None if any_enum is None else any_enum["equal"],
    }


def _other_case(label: str) -> str:
    """The label in another case, where it has letters: lower, else upper."""
    lower = label.lower()
    return lower if lower != label else label.upper()


def _module_view(
    name: str,
    text: str,
    system: System | None,
    modules: Mapping[str, str],
    only: list[str] | None = None,
) -> View:
    tree = ast.parse(text)
    exported = only if only is not None else _all(tree)
    starts = [
        (text.count("\n", 0, m.start()) + 1, m.group(1)) for m in _CHUNK.finditer(text)
    ]
    groups: dict[str, list[View]] = {}
    for node in tree.body:
        for entry in _entries(node, exported) + _reexported(node, exported, modules):
            owner = next(
                (rule for line, rule in reversed(starts) if line <= node.lineno), ""
            )
            groups.setdefault(owner, []).append(entry)
    titles = {r.qualified_id: r for r in system.rules} if system else {}
    return {
        "module": code(name),
        "groups": [
            {
                "rule": code(owner) if owner else None,
                "title": md(titles[owner].title) if owner in titles else None,
                "kind": titles[owner].kind if owner in titles else None,
                "entries": entries,
            }
            for owner, entries in groups.items()
        ],
    }


def _reexported(
    node: ast.stmt, exported: list[str] | None, modules: Mapping[str, str]
) -> list[View]:
    """The names a module exports from a support module, as that module has them."""
    if not isinstance(node, ast.ImportFrom) or exported is None or not node.module:
        return []
    source = modules.get(node.module.replace(".", "/") + ".py")
    wanted = {a.asname or a.name for a in node.names} & set(exported)
    if source is None or not wanted:
        return []
    entries = []
    for item in ast.parse(source).body:
        for entry in _entries(item, sorted(wanted)):
            entry["doc"] = f"{entry['doc']} (from {code(node.module)})".lstrip()
            entries.append(entry)
    return entries


def _all(tree: ast.Module) -> list[str] | None:
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
        ):
            value = ast.literal_eval(node.value)
            return [str(v) for v in value]
    return None


def _entries(node: ast.stmt, exported: list[str] | None) -> list[View]:
    def public(name: str) -> bool:
        return name in exported if exported is not None else not name.startswith("_")

    if isinstance(node, ast.FunctionDef) and public(node.name):
        return [_entry("function", node.name, _signature(node), _first_line(node))]
    if isinstance(node, ast.ClassDef) and public(node.name):
        bases = ", ".join(ast.unparse(b) for b in node.bases)
        members = [_member(item) for item in node.body]
        return [
            _entry(
                "class",
                node.name,
                f"{node.name}({bases})" if bases else node.name,
                _first_line(node),
                [m for m in members if m is not None],
            )
        ]
    if (
        isinstance(node, ast.AnnAssign)
        and isinstance(node.target, ast.Name)
        and public(node.target.id)
        and ast.unparse(node.annotation) == "TypeAlias"
        and node.value is not None
    ):
        value = node.value
        text = (  # a forward reference written as a string: its text
            value.value
            if isinstance(value, ast.Constant) and isinstance(value.value, str)
            else ast.unparse(value)
        )
        return [_entry("type alias", node.target.id, f"{node.target.id} = {text}", "")]
    if (
        isinstance(node, ast.AnnAssign)
        and isinstance(node.target, ast.Name)
        and public(node.target.id)
    ):
        return [
            _entry(
                "constant",
                node.target.id,
                f"{node.target.id}: {ast.unparse(node.annotation)}",
                "",
            )
        ]
    return []


def _entry(
    kind: str, name: str, text: str, doc: str, members: list[str] | None = None
) -> View:
    return {
        "kind": kind,
        "name": name,
        "text": code(text),
        "doc": _doc_md(doc),
        "members": members or [],
    }


def _member(item: ast.stmt) -> str | None:
    """A class's field (``name: type``), member (``NAME = "label"``) or public method."""
    if (
        isinstance(item, ast.AnnAssign)
        and isinstance(item.target, ast.Name)
        and not item.target.id.startswith("_")
    ):
        return code(f"{item.target.id}: {ast.unparse(item.annotation)}")
    if isinstance(item, ast.Assign) and len(item.targets) == 1:
        target = item.targets[0]
        if isinstance(target, ast.Name) and not target.id.startswith("_"):
            return code(f"{target.id} = {ast.unparse(item.value)}")
    if isinstance(item, ast.FunctionDef) and not item.name.startswith("_"):
        return code(_signature(item))
    return None


def _signature(node: ast.FunctionDef) -> str:
    returns = f" -> {ast.unparse(node.returns)}" if node.returns else ""
    return f"{node.name}({ast.unparse(node.args)}){returns}"


# An inline literal as reStructuredText reads one: no space just inside its
# backquotes (so a rule's text holding "`` ` ``" stays text, not code).
_RST_CODE = re.compile(r":func:`([^`]+)`|``([^`\s](?:[^`]*[^`\s])?)``")


def _doc_md(doc: str) -> str:
    """A docstring's first paragraph in Markdown: its ``code`` as code spans."""
    out, at = [], 0
    for m in _RST_CODE.finditer(doc):
        out += [
            _text(doc[at : m.start()]),
            code(f"{m.group(1)}()" if m.group(1) else m.group(2)),
        ]
        at = m.end()
    return "".join([*out, _text(doc[at:])])


def _text(part: str) -> str:
    """Markdown-escaped text keeping the spaces around it (md() trims them)."""
    if not part.strip():
        return part
    lead = part[: len(part) - len(part.lstrip())]
    trail = part[len(part.rstrip()) :]
    return lead + md(part) + trail


def _first_line(node: ast.FunctionDef | ast.ClassDef) -> str:
    doc = ast.get_docstring(node) or ""
    return doc.split("\n\n", 1)[0].replace("\n", " ")
