"""The cookbook (tests/cookbook/) in JavaScript: its build writes a JavaScript
package beside its Python one, and its conformance kit (every worked example,
sampled input and seeded run) holds in both; its types pass ``tsc --strict``."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

from rulesc.pipeline import load_systems

from .conformance.kits import assert_conforms, missing_from
from .conformance.runner import read_kit
from .js_node import tsc_strict
from .test_cookbook import COOKBOOK, cb, out  # noqa: F401  (the built cookbook)


def test_the_cookbook_answers_in_javascript_as_in_python(
    cb: ModuleType,  # noqa: F811
    out: Path,  # noqa: F811
    tmp_path: Path,
) -> None:
    (system,) = [s for s in load_systems(COOKBOOK) if s.id == "cookbook"]
    kinds = {rule.kind for rule in system.rules}
    assert {"state", "process"} <= kinds
    assert missing_from(system, read_kit(out / "conformance/cookbook.json"), cb) == []
    assert_conforms(out, tmp_path, ["cookbook"])


def test_the_cookbook_types_pass_tsc_strict(out: Path, tmp_path: Path) -> None:  # noqa: F811
    done = tsc_strict([str(out / "js" / "*.d.ts")], tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
