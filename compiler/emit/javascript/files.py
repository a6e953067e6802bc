"""The JavaScript target's files: the package ``js/``, its runtime modules and where each output goes."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path as FsPath

from ...kinds import registry

TARGET_NAME = "javascript"
JS_DIR = "js"
RUNTIME_JS = FsPath(__file__).resolve().parents[2] / "runtime_js"
# The runtime modules every JavaScript package has; each kind adds its own.
JS_SUPPORT = (
    "_dice_spec.js",
    "errors.js",
    "_messages.js",
    "_fold.js",
    "_support.js",
    "dice.js",
    "random.js",
    "json.js",
    "dice_terms.js",
    "dice_tree.js",
    "_notation_reader.js",
    "_notation_pool.js",
    "dice_notation.js",
    "dice_rolls.js",
    "_dice_nodes.js",
    "_dice_unique.js",
    "_dice_keep.js",
    "dice_odds.js",
    "_dist.js",
    "_multiset.js",
    "_plan.js",
    "odds.js",
    "_chain.js",
    "_state.js",
    "_timeline.js",
    "_values.js",
)
PACKAGE_JSON, INDEX_JS, INDEX_TYPES = "js/package.json", "js/index.js", "js/index.d.ts"
PACKAGE_README = "js/README.md"
PACKAGE_LICENCE = "js/LICENSE"  # with a licence only (compiler/front/licence.py)
MESSAGES_JS = "_messages.js"  # its table written in by the build


def js_support_modules() -> tuple[str, ...]:
    """Every runtime module of the JavaScript package (each has a ``.d.ts``)."""
    found = dict.fromkeys(JS_SUPPORT)
    for kind in registry.kinds().values():
        found.update(dict.fromkeys(kind.js_runtime))
    return tuple(found)


def js_own_files(system_id: str, rule_ids: Iterable[str] = ()) -> tuple[str, str]:
    """The JavaScript outputs made from one system alone: its module and types."""
    return f"{JS_DIR}/{system_id}.js", f"{JS_DIR}/{system_id}.d.ts"


def js_shared_files() -> tuple[str, ...]:
    support = [
        f"{JS_DIR}/{name}{ext}"
        for name in (m.removesuffix(".js") for m in js_support_modules())
        for ext in (".js", ".d.ts")
    ]
    return (
        *support,
        PACKAGE_JSON,
        PACKAGE_README,
        PACKAGE_LICENCE,
        INDEX_JS,
        INDEX_TYPES,
    )
