"""package.yaml's values checked as the tools read them (compiler/front/package_checks.py).

npm's own checks (validate-npm-package-name and semver, from tests/js's
node_modules) answer generated names and versions in one Node process, and
rulesc must agree with each; a version and licence rulesc takes is one
flit_core builds the generated pyproject.toml with and pip reads as the same
kind of version npm reads.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flit_core.config import read_flit_config
from hypothesis import given, settings
from hypothesis import strategies as st
from packaging.licenses import canonicalize_license_expression
from packaging.version import Version

from rulesc.emit.python.views import package_view
from rulesc.emit.render import render
from rulesc.front import licence, package_checks
from rulesc.front.settings import Settings

from .js_node import JS_TESTS, drawn, missing, node_cases

CASES = 400

# -- names -------------------------------------------------------------------------

_NAME_PARTS = [
    "rulebook",
    "a",
    "-",
    ".",
    "_",
    "~",
    "!",
    "(",
    "*",
    "'",
    "A",
    "Z9",
    " ",
    "\u00a0",
    "\ufeff",
    "\x85",
    "%",
    "/",
    "@",
    "é",
    "node_modules",
    "NODE_MODULES",
    "favicon.ico",
    "http",
    "Fs",
    "fs/promises",
    "node:test",
    "_http_agent",
    "x" * 100,
]
name_text = st.lists(st.sampled_from(_NAME_PARTS), max_size=4).map("".join)
npm_names = st.one_of(
    name_text,
    st.tuples(name_text, name_text).map(lambda p: f"@{p[0]}/{p[1]}"),
    st.text(max_size=8),
    st.integers(1, 3).map(lambda n: "a" * (210 + n)),
)

# -- versions ----------------------------------------------------------------------

_WORDS = ["0", "1", "01", "10", "9007199254740991", "9007199254740992", "x", "rc"]
_WORDS += ["alpha", "beta", "dev", "post", "r", "a1", "-", "1a", "", "RC", "b-2"]
part = st.sampled_from(["0", "1", "12", "01", "9007199254740991", "9007199254740992"])
word = st.sampled_from(_WORDS)
dotted = st.lists(word, min_size=1, max_size=3).map(".".join)
versions = st.one_of(
    st.tuples(
        st.sampled_from(["", "v", "=", " "]),
        st.lists(part, min_size=1, max_size=4).map(".".join),
        st.sampled_from(["", "-"]),
        dotted,
        st.sampled_from(["", "+"]),
        dotted,
        st.sampled_from(["", " ", "\n"]),
    ).map(lambda t: t[0] + t[1] + (t[2] + t[3] if t[2] else "") + t[4] + t[5] + t[6]),
    st.text(alphabet="0123456789.-+abcrv", max_size=14),
)


def _npm(tmp: Path, names: list[str], versions: list[str]) -> Any:
    """What npm's own checks answer (tests/js/package_checks.mjs)."""
    if not (JS_TESTS / "node_modules" / "validate-npm-package-name").is_dir():
        missing("validate-npm-package-name (tests/js: npm ci)")
    spec = {"names": names, "versions": versions}
    return node_cases(JS_TESTS / "package_checks.mjs", spec, tmp)


def test_npm_names_and_versions_are_refused_as_npm_refuses_them(
    tmp_path: Path,
) -> None:
    names = [*drawn(npm_names, CASES), "-x", "node_modules", "@scope/name", "rulebook"]
    tried = [*drawn(versions, CASES), "1.0.0", "1.0.0-rc.1", "1.0.0+build", "v1.0.0"]
    npm = _npm(tmp_path, names, tried)
    wrong = [
        (name, said)
        for name, said in zip(names, npm["names"], strict=True)
        if said != (not package_checks.npm_reasons(name))
    ]
    assert not wrong, wrong[:10]
    assert 0 < sum(npm["names"]) < len(names)  # both kinds were tried
    wrong = [
        (version, said)
        for version, said in zip(tried, npm["versions"], strict=True)
        if said != (package_checks.npm_version_reason(version) is None)
    ]
    assert not wrong, wrong[:10]
    assert 0 < sum(npm["versions"]) < len(tried)


def _pyproject(tmp: Path, version: str, licence: str) -> Any:
    """flit_core's reading of the pyproject.toml a build writes for these."""
    chosen = Settings(distribution="a-b", npm="a-b", version=version, licence=licence)
    (tmp / "pyproject.toml").write_text(
        render("pyproject.toml.j2", package_view([], chosen)), "utf-8"
    )
    (tmp / "README.md").write_text("readme", "utf-8")
    (tmp / "rulebook").mkdir(exist_ok=True)
    (tmp / "rulebook" / "__init__.py").write_text('"""Doc."""\n', "utf-8")
    return read_flit_config(tmp / "pyproject.toml").metadata


@settings(max_examples=150, deadline=None, derandomize=True)
@given(version=versions)
def test_a_version_taken_is_one_both_tools_read_as_one(version: str) -> None:
    if package_checks.version_problem(version) is not None:
        return
    read = Version(version)  # pip reads it...
    assert package_checks.npm_version_reason(version) is None  # ... so does npm
    assert read.is_prerelease == ("-" in version)  # as the same kind of version
    assert read.post is None and read.local is None
    assert package_checks.python_version(version) == str(read)


@pytest.mark.parametrize(
    ("version", "said"),
    [
        ("1.0", "npm refuses the version '1.0': it is not a semantic version"),
        ("01.0.0", "it is not a semantic version"),
        ("v1.0.0", "it is not a semantic version"),
        ("1.0.0+build.5", "npm drops build metadata"),
        ("9007199254740992.0.0", "a part is larger than 9,007,199,254,740,991"),
        ("1.0.0-x.y", "pip refuses the version '1.0.0-x.y'"),
        ("1.0.0-1", "npm as a pre-release, pip as a post-release (1.0.0.post1)"),
        ("1.0.0-post.1", "pip as a post-release"),
    ],
)
def test_a_version_either_tool_refuses_is_refused(version: str, said: str) -> None:
    problem = package_checks.version_problem(version)
    assert problem is not None and said in problem[0], problem


@pytest.mark.parametrize(
    ("version", "python"),
    [("0.2.0", "0.2.0"), ("1.0.0-rc.1", "1.0.0rc1"), ("2.1.0-alpha", "2.1.0a0")],
)
def test_the_python_package_carries_pips_spelling(
    tmp_path: Path, version: str, python: str
) -> None:
    assert package_checks.version_problem(version) is None
    assert _pyproject(tmp_path, version, "MIT")["version"] == python


# -- licences ----------------------------------------------------------------------

_LICENCE_WORDS = [
    "MIT",
    "mit",
    "Apache-2.0",
    "GPL-2.0+",
    "GPL-2.0-or-later",
    "(",
    "MIT)",
]
_LICENCE_WORDS += ["Classpath-exception-2.0", "Foo-1.0", "BSD-3-Clause", ""]
_LICENCE_WORDS += ["LicenseRef-Mine", "LicenseRef-a_b", "DocumentRef-x:LicenseRef-y"]
_OPERATORS = ["AND", "OR", "OR", "WITH", "and", "AND  "]
licences = st.recursive(
    st.sampled_from(_LICENCE_WORDS),
    lambda inner: st.one_of(
        st.tuples(inner, st.sampled_from(_OPERATORS), inner).map(" ".join),
        inner.map(lambda text: f"({text})"),
    ),
    max_leaves=4,
)


@settings(max_examples=150, deadline=None, derandomize=True)
@given(licence=licences)
def test_a_licence_taken_builds_and_reads_as_written(licence: str) -> None:
    problem = package_checks.licence_problem(licence)
    if problem is None:
        assert canonicalize_license_expression(licence) == licence
        assert "WITH" not in licence.split()


def test_the_licences_taken_build(tmp_path: Path) -> None:
    taken = [
        lic
        for lic in drawn(licences, CASES)
        if package_checks.licence_problem(lic) is None
    ]
    assert "MIT" in taken and any(" OR " in lic for lic in taken)
    for lic in sorted(set(taken))[:40]:
        assert _pyproject(tmp_path, "1.0.0", lic)["license_expression"] == lic


@pytest.mark.parametrize(
    ("licence", "said"),
    [
        ("MIT WITH Classpath-exception-2.0", "'WITH' operator is not yet supported"),
        ("Foo-1.0", "it is not a recognised SPDX license ID"),
        ("GPL-2.0+", "it is not a recognised SPDX license ID"),
        ("mit", "licence 'mit' is not written as SPDX writes it"),
        ("MIT  OR Apache-2.0", "is not written as SPDX writes it"),
        ("MIT OR", "a license ID or expression should follow 'OR'"),
    ],
)
def test_a_licence_flit_or_pip_refuses_is_refused(licence: str, said: str) -> None:
    problem = package_checks.licence_problem(licence)
    assert problem is not None and said in problem[0], problem


# -- distributions -----------------------------------------------------------------


@settings(max_examples=200, deadline=None, derandomize=True)
@given(name=name_text | st.text(max_size=6))
def test_a_distribution_name_taken_is_a_pep_508_name(name: str) -> None:
    from packaging.utils import canonicalize_name

    if package_checks.distribution_problem(name) is None:
        assert canonicalize_name(name, validate=True)
        assert name[0].isalnum() and name[-1].isalnum() and name.isascii()


# -- the licence's file --------------------------------------------------------------

_PATH_PARTS = ["..", ".", "LICENSE", "inner", "link", "out", "", "/", "\\", "~"]
licence_paths = st.lists(st.sampled_from(_PATH_PARTS), min_size=1, max_size=5).map(
    "/".join
)


@pytest.fixture(scope="module")
def guarded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A rules folder with a licence inside, a secret beside it, and links to both."""
    top = tmp_path_factory.mktemp("licence")
    rules = top / "rules"
    (rules / "inner").mkdir(parents=True)
    (rules / "LICENSE").write_text("ours\n", "utf-8")
    (rules / "inner" / "LICENSE").write_text("ours too\n", "utf-8")
    (top / "LICENSE").write_text("SECRET\n", "utf-8")
    (rules / "link").symlink_to(top / "LICENSE")
    (rules / "inner" / "link").symlink_to(rules / "LICENSE")
    (rules / "out").symlink_to(top)
    return rules


@settings(max_examples=120, deadline=None, derandomize=True)
@given(name=licence_paths)
def test_a_licence_file_is_read_from_inside_the_rules_folder_only(
    guarded: Path, name: str
) -> None:
    found = licence.file_text(guarded, name)
    if isinstance(found, str):
        assert found in ("ours\n", "ours too\n")
        assert ".." not in name.split("/") and not name.startswith("/")
    else:
        message, hint = found
        assert repr(name) in message and "rules folder" in hint
