"""Package checks: the generated packages' names, version and licence, as pip, flit_core and npm read them.

Each function answers why a value of ``package.yaml`` would stop a package from
building or installing (a message and a hint), or None:

- the Python distribution's name: a PEP 508 name, as ``packaging`` (pip's) and
  flit_core (the generated package's build backend) read it;
- the npm name: as npm validates it (validate-npm-package-name, valid for a new
  package: at most 214 characters, lowercase, no leading ``.``, ``-`` or ``_``,
  URL-safe, not a core module of Node or an excluded name such as
  ``node_modules``; a scoped name ``@scope/name`` too);
- the version: a semantic version npm reads (node-semver's strict form), a PEP
  440 version pip and flit_core read, and the same kind of version to both (a
  release, or a pre-release of it); the Python package carries pip's spelling
  of it (``python_version``: ``1.0.0-rc.1`` is ``1.0.0rc1``);
- the licence: an SPDX expression flit_core and ``packaging`` (PEP 639) both
  read, written as both write it (so npm's SPDX parser reads it too).
"""

from __future__ import annotations

import logging
import os
import re
import string
from collections.abc import Iterator
from contextlib import contextmanager

Problem = tuple[str, str]  # a message and its hint

# -- npm names (validate-npm-package-name 7, as npm 10 and 11 bundle it) -------------

MAX_NPM_LENGTH = 214
_EXCLUDED = ("node_modules", "favicon.ico")
# its lib/builtin-modules.json: the core modules of Node a package may not be named as
NODE_CORE_MODULES = frozenset(
    """
    _http_agent _http_client _http_common _http_incoming _http_outgoing
    _http_server _stream_duplex _stream_passthrough _stream_readable
    _stream_transform _stream_wrap _stream_writable _tls_common _tls_wrap assert
    assert/strict async_hooks buffer child_process cluster console constants
    crypto dgram diagnostics_channel dns dns/promises domain events fs fs/promises
    http http2 https inspector inspector/promises module net os path path/posix
    path/win32 perf_hooks process punycode querystring readline readline/promises
    repl stream stream/consumers stream/promises stream/web string_decoder sys
    timers timers/promises tls trace_events tty url util util/types v8 vm wasi
    worker_threads zlib node:sea node:sqlite node:test node:test/reporters
    """.split()  # noqa: SIM905 (a list as the package writes it, unquoted)
)
# what encodeURIComponent leaves as it is
_URL_SAFE = frozenset(string.ascii_letters + string.digits + "-_.!~*'()")
# what String.prototype.trim takes off: JavaScript's white space and line ends
_JS_SPACE = "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
_JS_SPACE += "\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
_SCOPED = re.compile(r"(?:@([^/]+?)/)?([^/]+?)", re.DOTALL)
_NPM_HINT = (
    "npm names are lowercase letters, digits, '-', '.' and '_' (not first), at "
    f"most {MAX_NPM_LENGTH} characters, optionally @scope/ first"
)


def _url_safe(text: str) -> bool:
    return all(ch in _URL_SAFE for ch in text)


def npm_reasons(name: str) -> list[str]:
    """Why npm would not take ``name`` for a new package (its own words), in
    the order validate-npm-package-name finds them; none when it would."""
    found = []
    if not name:
        found.append("name length must be greater than zero")
    for first, what in ((".", "a period"), ("-", "a hyphen"), ("_", "an underscore")):
        if name.startswith(first):
            found.append(f"name cannot start with {what}")
    if name.strip(_JS_SPACE) != name:
        found.append("name cannot contain leading or trailing spaces")
    found += [
        f"{x} is not a valid package name" for x in _EXCLUDED if name.lower() == x
    ]
    if name.lower() in NODE_CORE_MODULES:
        found.append(f"{name} is a core module name")
    if len(name) > MAX_NPM_LENGTH:
        found.append(
            f"name can no longer contain more than {MAX_NPM_LENGTH} characters"
        )
    if name.lower() != name:
        found.append("name can no longer contain capital letters")
    if any(ch in "~'!()*" for ch in name.split("/")[-1]):
        found.append('name can no longer contain special characters ("~\'!()*")')
    if not _url_safe(name):
        scoped = _SCOPED.fullmatch(name)
        if scoped is not None:
            user, package = scoped.groups()
            if package.startswith("."):
                found.append("name cannot start with a period")
            if user is not None and _url_safe(user) and _url_safe(package):
                return found
        found.append("name can only contain URL-friendly characters")
    return found


def npm_problem(name: str) -> Problem | None:
    reasons = npm_reasons(name)
    if not reasons:
        return None
    return f"npm refuses the package name {name!r}: {reasons[0]}", _NPM_HINT


# -- the Python distribution's name --------------------------------------------------


def distribution_problem(name: str) -> Problem | None:
    from flit_core.config import name_is_valid
    from packaging.utils import InvalidName, canonicalize_name

    try:
        canonicalize_name(name, validate=True)
    except InvalidName:
        pass
    else:
        if name_is_valid(name):
            return None
    return (
        f"pip refuses the distribution name {name!r}: it is not a PEP 508 name",
        "ASCII letters, digits, '-', '_' and '.', beginning and ending with a "
        "letter or digit",
    )


# -- versions ------------------------------------------------------------------------

MAX_SEMVER_LENGTH = 256
MAX_SAFE_INTEGER = 2**53 - 1  # JavaScript's; node-semver refuses a larger part
_NUMBER = r"0|[1-9][0-9]*"
_WORD = rf"(?:{_NUMBER}|[0-9]*[a-zA-Z-][0-9a-zA-Z-]*)"
SEMVER = re.compile(
    rf"({_NUMBER})\.({_NUMBER})\.({_NUMBER})(?:-({_WORD}(?:\.{_WORD})*))?"
    r"(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?"
)
_VERSION_HINT = (
    "write MAJOR.MINOR.PATCH (1.2.0), or a pre-release of it both read alike: "
    "1.2.0-alpha.1, 1.2.0-beta.1, 1.2.0-rc.1, 1.2.0-dev.1"
)


def npm_version_reason(version: str) -> str | None:
    """Why npm would not write ``version`` as it is (node-semver's strict
    parse, which also drops build metadata and a leading ``v``), or None."""
    if len(version) > MAX_SEMVER_LENGTH:
        return f"it is longer than {MAX_SEMVER_LENGTH} characters"
    found = SEMVER.fullmatch(version)
    if found is None:
        return "it is not a semantic version"
    if any(int(part) > MAX_SAFE_INTEGER for part in found.groups()[:3]):
        return f"a part is larger than {MAX_SAFE_INTEGER:,}"
    if found.group(5) is not None:
        return "npm drops build metadata (+...)"
    return None


def python_version(version: str) -> str:
    """``version`` as pip writes it (PEP 440's normal form); ``version`` itself
    when it is none (``version_problem`` refuses it)."""
    from packaging.version import InvalidVersion, Version

    try:
        return str(Version(version))
    except InvalidVersion:
        return version


def version_problem(version: str) -> Problem | None:
    from flit_core.common import InvalidVersion as FlitInvalid
    from flit_core.versionno import normalise_version
    from packaging.version import InvalidVersion, Version

    reason = npm_version_reason(version)
    if reason is not None:
        return f"npm refuses the version {version!r}: {reason}", _VERSION_HINT
    try:
        with _flit_strict():
            normalise_version(version)
        read = Version(version)
    except (InvalidVersion, FlitInvalid):
        return f"pip refuses the version {version!r}: it is not a PEP 440 version", (
            _VERSION_HINT
        )
    npm_pre = "-" in version
    pip_pre = (read.pre is not None or read.dev is not None) and read.post is None
    if npm_pre != pip_pre or read.local is not None:
        pip_reads = "a post-release" if read.post is not None else "a release"
        return (
            f"npm and pip read the version {version!r} differently: npm as a "
            f"pre-release, pip as {pip_reads} ({read})",
            _VERSION_HINT,
        )
    return None


# -- licences ------------------------------------------------------------------------


@contextmanager
def _flit_strict() -> Iterator[None]:
    """flit_core as it checks when FLIT_ALLOW_INVALID is not set (so the
    build answers the same whatever the environment), and silent: its
    warnings (a version it would normalise) are no concern of rulesc's output."""
    saved = os.environ.pop("FLIT_ALLOW_INVALID", None)
    logger = logging.getLogger("flit_core")
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        yield
    finally:
        logger.setLevel(level)
        if saved is not None:
            os.environ["FLIT_ALLOW_INVALID"] = saved


def licence_problem(licence: str) -> Problem | None:
    from flit_core.config import (
        ConfigError,
        normalise_compound_license_expr,
    )
    from packaging.licenses import (
        InvalidLicenseExpression,
        canonicalize_license_expression,
    )

    hint = "an SPDX licence expression: MIT, Apache-2.0, MIT OR Apache-2.0..."
    try:
        with _flit_strict():
            flit = str(normalise_compound_license_expr(licence))
    except ConfigError as error:
        reason = str(error).rstrip("!").replace(f"'{licence}' is ", "it is ")
        return f"flit_core cannot read the licence {licence!r}: {reason}", hint
    try:
        pip = str(canonicalize_license_expression(licence))
    except InvalidLicenseExpression as error:
        return f"pip refuses the licence {licence!r}: {error}", hint
    if flit != licence or pip != licence:
        written = flit if flit != licence else pip
        return (
            f"licence {licence!r} is not written as SPDX writes it",
            f"write {written!r} (npm reads SPDX identifiers in their own case)",
        )
    return None
