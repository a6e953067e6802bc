"""The cookbook (tests/cookbook/) in JavaScript: its build writes a JavaScript
package beside its Python one, and every worked example, sampled input and
seeded run answers there as in Python; its types pass ``tsc --strict``."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from types import ModuleType

from rulesc.pipeline import load_systems

from .js_node import (
    JS_TESTS,
    assert_every_rule_in,
    conformance_spec,
    missing,
    node,
    node_test,
)
from .test_cookbook import COOKBOOK, cb, out  # noqa: F401  (the built cookbook)

TSC = JS_TESTS / "node_modules" / ".bin" / "tsc"


def test_the_cookbook_answers_in_javascript_as_in_python(
    cb: ModuleType,  # noqa: F811
    out: Path,  # noqa: F811
    tmp_path: Path,
) -> None:
    (system,) = [s for s in load_systems(COOKBOOK) if s.id == "cookbook"]
    spec = conformance_spec(system, cb, out / "js")
    kinds = {rule.kind for rule in system.rules}
    assert {"state", "process"} <= kinds
    assert_every_rule_in(spec, system)
    node_test("conformance.test.mjs", spec, tmp_path)


def test_the_cookbook_types_pass_tsc_strict(out: Path, tmp_path: Path) -> None:  # noqa: F811
    node()
    if not TSC.is_file():
        missing("TypeScript (tests/js: npm ci)")
    config = tmp_path / "tsconfig.json"
    config.write_text(
        json.dumps(
            {
                "compilerOptions": {
                    "strict": True,
                    "noEmit": True,
                    "target": "es2022",
                    "module": "nodenext",
                    "moduleResolution": "nodenext",
                    "types": [],
                    "exactOptionalPropertyTypes": True,
                },
                "include": [str(out / "js" / "*.d.ts")],
            }
        ),
        "utf-8",
    )
    done = subprocess.run(
        [node(), str(TSC), "-p", str(config)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
