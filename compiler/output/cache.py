"""Cache: reuse what an earlier build made from the very same inputs.

What rulesc writes is a function of the compiler (its code, templates, runtime
support and schemas, the Python and the libraries it runs on) and of the bytes
of the rules folder. Every entry here is keyed by a digest of both, so an entry
is used only for byte-identical inputs: nothing is guessed from file dates, and
changing any compiler file sets the whole cache aside. The kinds of entry:

- ``source``: one rules file, loaded and schema-checked (a ``SourceFile``);
- ``part``: what the outputs take from one system (``compiler.common.parts.Part``: its
  own module, pages and charts, and its share of the outputs made from every
  system), stored after its examples held; a rebuild reads these, never the
  models of the systems it does not build again;
- ``system``: that system's model, stored with its part and read only when a
  caller asks for the models (the workbench);
- ``build``: every output file made from the whole rules folder;
- ``house``: every output file of a build whose systems extend others (house
  rules, in the folder or in house packs): keyed by every folder read, whole,
  since a system's outputs then depend on another's files.

Only work that succeeded is stored. A build that finds any error is done again
from scratch without the cache, so errors read exactly as they would without
it. The cache lives beside the output folder, like the lock file
(``.generated.cache`` for ``generated``); ``rulesc --no-cache`` or
``RULESC_CACHE=off`` does without it. Entries are pickles, so the folder is
trusted as ``__pycache__`` is. A cache that cannot be read or written is simply
not used; ``rulesc build`` writes it only once the output is written, so it
never takes the room the output needed (``Store.later``). This module imports nothing heavy: a build that the cache answers
whole never loads the YAML, schema or template libraries.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import re
import shutil
import stat
import sys
import tempfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, replace
from functools import cache, cached_property
from pathlib import Path as FsPath
from typing import TYPE_CHECKING, Any

from ..common.parts import Part
from ..kinds import registry

if TYPE_CHECKING:
    from ..front.loader import SourceFile
    from ..front.model import System

LAYOUT = "rulesc-cache-3"  # change when the entries change shape
_COMPILER = FsPath(__file__).resolve().parents[1]
_SCHEMA = (  # as validate.SCHEMA_DIR: beside compiler/, or inside it once installed
    _COMPILER.parent / "schema"
    if (_COMPILER.parent / "schema" / "system.schema.json").is_file()
    else _COMPILER / "schema"
)
# The libraries the front end runs on; each target names those it runs on.
_LIBRARIES = (
    "jsonschema",
    "referencing",
    "ruamel",
    "yaml",
)
_MAX_INPUT = 1 << 20  # larger rules files are refused by the loader anyway
_KEEP_UNUSED = 64  # entries of each kind kept beyond those the last build used
_KEEP_UNUSED_BUILDS = 4  # but whole builds, the largest, only a few


def cache_dir_for(out_dir: FsPath) -> FsPath | None:
    """Where the cache of builds into ``out_dir`` lives; None when it is off."""
    if os.environ.get("RULESC_CACHE", "").strip().lower() in ("0", "off", "no"):
        return None
    out = out_dir.resolve()
    return out.parent / f".{out.name}.cache"


# -- digests --------------------------------------------------------------------


def _digest(*parts: str | bytes) -> str:
    h = hashlib.sha256()
    for part in parts:
        blob = (
            part.encode("utf-8", "surrogateescape") if isinstance(part, str) else part
        )
        h.update(len(blob).to_bytes(8, "little"))
        h.update(blob)
    return h.hexdigest()


def compiler_fingerprint() -> str:
    """A digest of everything besides the rules that the output depends on:
    the compiler, the schemas, and the folder of any kind registered at run time."""
    return _fingerprint(registry.generation())


@cache
def _fingerprint(generation: int) -> str:
    parts: list[str | bytes] = [LAYOUT, sys.version, sys.platform, *_installed()]
    outside = [
        folder
        for folder in registry.folders().values()
        if not folder.is_relative_to(_COMPILER)
    ]
    for root in (_COMPILER, _SCHEMA, *outside):
        for path in sorted(root.rglob("*")):
            if "__pycache__" in path.parts or not path.is_file():
                continue
            parts += [path.relative_to(root.parent).as_posix(), path.read_bytes()]
    return _digest(*parts)


def _installed() -> list[str]:
    """The installed distributions beside the libraries the compiler uses.

    Their ``.dist-info`` names carry their versions; reading them is far cheaper
    than asking ``importlib.metadata``.
    """
    from importlib.util import find_spec

    from ..emit.targets import TARGETS

    sites = set()
    for name in dict.fromkeys(
        [*_LIBRARIES, *(n for t in TARGETS for n in t.libraries)]
    ):
        spec = find_spec(name)
        if spec is None:
            continue
        for place in spec.submodule_search_locations or [spec.origin or ""]:
            sites.add(FsPath(place).parent)
    names = []
    for site in sorted(sites):
        try:
            names += sorted(n for n in os.listdir(site) if n.endswith(".dist-info"))
        except OSError:
            continue
    return names


def _read(path: FsPath | str) -> bytes | None:
    """A regular file's bytes (at most ``_MAX_INPUT``); None for anything else.

    Never blocks on a FIFO or a device, never reads past the limit.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > _MAX_INPUT:
            return None
        chunks = []
        size = 0
        while chunk := os.read(fd, _MAX_INPUT + 1 - size):
            chunks.append(chunk)
            size += len(chunk)
            if size > _MAX_INPUT:
                return None
        return b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(fd)


def _kind(entry: os.DirEntry[str]) -> str:
    try:
        if entry.is_symlink():
            return "link:" + os.readlink(entry.path)
        if entry.is_dir(follow_symlinks=False):
            return "dir"
        if entry.is_file(follow_symlinks=False):
            return "file"
    except OSError:
        pass
    return "other"


def _folder(path: str, files: list[tuple[str, str]], depth: int = 0) -> str | None:
    """A digest of a folder's whole content; None where it holds anything odd.

    Adds the name and digest of each file directly in it to ``files``.
    """
    try:
        entries = sorted(os.scandir(path), key=lambda e: e.name)
    except OSError:
        return None
    parts: list[str | bytes] = []
    for entry in entries:
        kind = _kind(entry)
        parts += [entry.name, kind]
        if kind == "other":
            return None
        if entry.is_dir():  # a folder, or a link to one
            if depth >= 4 or kind != "dir":
                return None
            inner = _folder(entry.path, [], depth + 1)
            if inner is None:
                return None
            parts.append(inner)
        else:
            blob = _read(entry.path)
            if blob is None:
                return None
            content = hashlib.sha256(blob).hexdigest()
            parts.append(content)
            if depth == 0:
                files.append((entry.name, content))
    return _digest(*parts)


@dataclass(frozen=True, slots=True)
class Scan:
    """The digest of a rules folder, and of each system folder in it (in order)."""

    digest: str
    systems: dict[str, str]
    files: tuple[tuple[str, str], ...]  # (shown path, digest) of each system file


def scan(rules_dir: FsPath) -> Scan | None:
    """Digests of the rules folder; None when it cannot be read plainly."""
    try:
        entries = sorted(os.scandir(rules_dir), key=lambda e: e.name)
    except OSError:
        return None
    parts: list[str | bytes] = []
    systems = {}
    shown: list[tuple[str, str]] = []
    for entry in entries:
        kind = _kind(entry)
        parts += [entry.name, kind]
        if entry.name.startswith("."):
            continue  # the pipeline skips hidden entries
        try:
            is_dir = entry.is_dir()
        except OSError:
            return None
        files: list[tuple[str, str]] = []
        content = _folder(entry.path, files) if is_dir else None
        if is_dir and content is not None:
            systems[entry.name] = content
            prefix = f"{rules_dir.name}/{entry.name}/"
            shown += [(prefix + name, digest) for name, digest in files]
        elif not is_dir and (blob := _read(entry.path)) is not None:
            content = _digest(blob)
        if content is None:
            return None
        parts.append(content)
    return Scan(_digest(*parts), systems, tuple(shown))


# -- the store ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BuildEntry:
    """A whole build: the outputs made from every system together (or from
    none), and the key of each system's part, which holds its own outputs."""

    shared: dict[str, bytes]
    system_keys: tuple[str, ...]


class Store:
    """A folder of pickled entries by kind and key, for one compiler fingerprint.

    A store made ``later`` keeps what it is given in memory until ``flush``: a
    build writes its output first, and only then the cache, so the cache never
    takes the room the output needed. The first write that fails (a full disk,
    a read-only folder) is removed, and the cache skipped for the rest of the
    build.
    """

    def __init__(self, root: FsPath, fingerprint: str, *, later: bool = False) -> None:
        self.base = root
        self.root = root / fingerprint[:24]
        self.fingerprint = fingerprint
        self.used: dict[str, set[str]] = {}
        self.wrote = False
        self.later = later
        self.pending: dict[FsPath, bytes] = {}
        self.broken = False  # a write failed: write nothing more
        self.live: dict[str, set[str]] | None = None  # what prune keeps, once known

    def _path(self, kind: str, key: str) -> FsPath:
        return self.root / kind / f"{key}.pickle"

    def load(self, kind: str, key: str, expect: type[Any]) -> Any:
        """The entry, or None when there is none (or it is unreadable)."""
        try:
            blob = self._path(kind, key).read_bytes()
            value = pickle.loads(blob)
        except Exception:  # a missing, partial or stale entry is a miss
            return None
        if not isinstance(value, expect):
            return None
        self.used.setdefault(kind, set()).add(key)
        return value

    def save(self, kind: str, key: str, value: object) -> None:
        """Store an entry; a cache that cannot be written is skipped."""
        try:
            blob = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        except pickle.PicklingError:
            return
        self.used.setdefault(kind, set()).add(key)
        self.put(self._path(kind, key), blob)

    def put(self, target: FsPath, blob: bytes) -> None:
        """Write ``blob`` at ``target`` in the cache, now or at ``flush``."""
        if self.later:
            self.pending[target] = blob
        else:
            self._write(target, blob)

    def _write(self, target: FsPath, blob: bytes) -> None:
        """Write one entry atomically; once one fails, the cache is skipped."""
        if self.broken:
            return
        tmp = None
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            handle, tmp = tempfile.mkstemp(prefix=".tmp-", dir=target.parent)
            with os.fdopen(handle, "wb") as out:
                out.write(blob)
            os.replace(tmp, target)
        except OSError:
            self.broken = True
            if tmp is not None:
                with suppress(OSError):
                    os.unlink(tmp)  # no partial entry is left to fill the disk
            return
        self.wrote = True

    def flush(self) -> None:
        """Write what was kept for later, then prune; never raises ``OSError``."""
        pending, self.pending, self.later = self.pending, {}, False
        for target, blob in pending.items():
            self._write(target, blob)
        if self.live is not None:
            self.prune(self.live)

    def prune(self, live: Mapping[str, set[str]]) -> None:
        """Drop other compilers' entries, and of the entries neither used nor
        ``live`` (for the rules as they are now) all but the newest few."""
        if not self.wrote:
            return
        try:
            for other in self.base.iterdir():
                if other.is_dir() and other != self.root:
                    shutil.rmtree(other, ignore_errors=True)
            for kind in set(self.used) | set(live):
                keep = self.used.get(kind, set()) | live.get(kind, set())
                folder = self.root / kind
                if not folder.is_dir():
                    continue
                unused = [
                    (p.stat().st_mtime_ns, p)
                    for p in folder.iterdir()
                    if p.stem not in keep
                ]
                kept = _KEEP_UNUSED_BUILDS if kind == "build" else _KEEP_UNUSED
                for _, path in sorted(unused, reverse=True)[kept:]:
                    path.unlink(missing_ok=True)
        except OSError:
            return


def source_key(fingerprint: str, shown: str, content: str) -> str:
    """The key of a rules file's entry, by its shown path and its bytes' digest."""
    return _digest("source", fingerprint, shown, content)


class SourceMemo:
    """Loaded, schema-checked rules files by their shown path and bytes."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.seen: dict[FsPath, bytes] = {}

    def _key(self, shown: str, blob: bytes) -> str:
        return source_key(
            self.store.fingerprint, shown, hashlib.sha256(blob).hexdigest()
        )

    def get(self, path: FsPath, shown: str) -> SourceFile | None:
        blob = _read(path)
        if blob is None:
            return None
        self.seen[path] = blob
        from ..front.loader import SourceFile

        found: SourceFile | None = self.store.load(
            "source", self._key(shown, blob), SourceFile
        )
        return found

    def put(self, path: FsPath, shown: str, source: SourceFile) -> None:
        blob = self.seen.get(path)
        # Store only if the file held the same bytes before and after loading.
        if blob is not None and _read(path) == blob:
            self.store.save("source", self._key(shown, blob), source)


# -- the build ------------------------------------------------------------------


class Built:
    """What a build made: file contents by path, and (when needed) its systems."""

    def __init__(
        self,
        files: Mapping[str, bytes],
        systems: Callable[[], tuple[System, ...]],
        store: Store | None = None,
    ) -> None:
        self.files = files
        self._systems = systems
        self._store = store

    @cached_property
    def systems(self) -> tuple[System, ...]:
        return self._systems()

    def remember(self) -> None:
        """Fill the cache with what a ``later`` build kept (once its output is
        written); a cache that cannot be written is skipped."""
        if self._store is not None:
            self._store.flush()


def build(
    rules_dir: FsPath,
    cache_dir: FsPath | None,
    *,
    later: bool = False,
    more: Sequence[FsPath] = (),
) -> Built:
    """``pipeline.build(rules_dir)``, reusing and filling the cache at ``cache_dir``.

    Systems the cache holds are not loaded, rendered or run again. When many
    are missing and there is more than one CPU (``RULESC_JOBS`` sets how many
    may be used), they are built apart in worker processes, a chunk at a time,
    and the whole output is put together from every system's entry. With
    ``later``, a successful build writes the cache only at ``Built.remember``
    (call it once the output is written); a failed one writes it before raising.
    """
    if more or _extends_any(rules_dir):  # house rules: a system's outputs
        # then depend on another's files, which the parts do not track
        return _house(rules_dir, more, cache_dir, later)
    found = scan(rules_dir) if cache_dir is not None else None
    if cache_dir is None or found is None:
        return _uncached(rules_dir)
    store = Store(cache_dir, compiler_fingerprint(), later=later)
    name = rules_dir.name
    system_keys = {
        sys_id: _digest("system", store.fingerprint, name, sys_id, content)
        for sys_id, content in found.systems.items()
    }
    whole = _digest("build", store.fingerprint, name, found.digest)
    hit: BuildEntry | None = store.load("build", whole, BuildEntry)
    if hit is not None and (files := _whole(store, hit)) is not None:
        keys = hit.system_keys
        return Built(files, lambda: _systems(store, rules_dir, keys), store)

    from .. import pipeline
    from ..common.diagnostics import RulesError
    from ..front.rules_folders import recorded
    from ..front.settings import load as load_settings

    parts: dict[str, Part] = {}
    for sys_id, key in system_keys.items():
        part = store.load("part", key, Part)
        if part is not None and part.id == sys_id:
            parts[sys_id] = part
    missing = [s for s in system_keys if s not in parts]
    models: dict[str, System] = {}
    workers = min(jobs(), len(missing))
    if workers >= 2 and len(missing) >= _PARALLEL_FROM:
        fresh = _build_apart(rules_dir, missing, store, workers)
        if fresh is None:
            return _uncached(rules_dir, store)  # the errors as a plain build has them
        for sys_id, (model, part) in fresh.items():
            models[sys_id], parts[sys_id] = model, part
    try:
        loaded = {
            s.id: s
            for s in pipeline.load_systems(
                rules_dir, {s for s in missing if s not in parts}, SourceMemo(store)
            )
        }
        outputs = pipeline.generate(
            [parts[s] if s in parts else loaded[s] for s in system_keys],
            settings=replace(
                load_settings(rules_dir), folders=tuple(recorded([rules_dir]))
            ),
        )
    except (RulesError, KeyError):
        return _uncached(rules_dir, store)  # the errors as a plain build has them
    models.update((s.id, s) for s in outputs.systems)
    made = {p.id: p for p in outputs.parts}
    if scan(rules_dir) == found:  # the rules did not change while being built
        for sys_id in missing:
            store.save("system", system_keys[sys_id], models[sys_id])
            store.save("part", system_keys[sys_id], made[sys_id])
        keys = tuple(system_keys.values())
        # what the targets assemble from the parts is made again (_whole)
        own = {path for part in outputs.parts for path in part.own}
        own |= _assembled(outputs.parts).keys()
        shared = {p: b for p, b in outputs.files.items() if p not in own}
        store.save("build", whole, BuildEntry(shared, keys))
        store.live = {
            "build": {whole},
            "system": set(keys),
            "part": set(keys),
            "source": {
                source_key(store.fingerprint, shown, content)
                for shown, content in found.files
            },
        }
    if not store.later:
        store.flush()  # prunes
    keys = tuple(system_keys.values())
    order = tuple(system_keys)

    def systems() -> tuple[System, ...]:
        if all(s in models for s in order):
            return tuple(models[s] for s in order)
        return _systems(store, rules_dir, keys)

    return Built(outputs.files, systems, store)


@dataclass(frozen=True, slots=True)
class HouseEntry:
    """A whole build of house rules: every output file."""

    files: dict[str, bytes]


def _house(
    rules_dir: FsPath, more: Sequence[FsPath], cache_dir: FsPath | None, later: bool
) -> Built:
    """A build of house rules (``more`` folders, or a system of ``rules_dir``
    that extends another): from the cache when every folder read is as it was
    (a ``house`` entry, keyed by them all), else built whole and stored."""
    folders = (rules_dir, *more)

    def models() -> tuple[System, ...]:
        from .. import pipeline

        return tuple(pipeline.load_systems(rules_dir, more=more))

    scans = [scan(f) for f in folders] if cache_dir is not None else []
    if cache_dir is None or any(s is None for s in scans):
        return _uncached(rules_dir, more=more)
    from ..front.rules_folders import recorded

    store = Store(cache_dir, compiler_fingerprint(), later=later)
    key = _digest(
        "house",
        store.fingerprint,
        *recorded(folders),
        *(s.digest for s in scans if s is not None),
    )
    hit: HouseEntry | None = store.load("house", key, HouseEntry)
    if hit is not None:
        return Built(hit.files, models, store)
    built = _uncached(rules_dir, store, more=more)
    if [scan(f) for f in folders] == scans:  # not changed while being built
        store.save("house", key, HouseEntry(dict(built.files)))
        store.live = {"house": {key}}
    if not store.later:
        store.flush()  # prunes
    return built


def _whole(store: Store, entry: BuildEntry) -> dict[str, bytes] | None:
    """Every output of a cached build: its shared outputs, its systems' parts'
    own, and what the targets assemble from the parts; None when a part is
    missing."""
    files = dict(entry.shared)
    parts = []
    for key in entry.system_keys:
        part = store.load("part", key, Part)
        if part is None:
            return None
        parts.append(part)
        files.update(part.own)
    files.update(_assembled(parts))
    return dict(sorted(files.items()))


def _assembled(parts: Sequence[Part]) -> dict[str, bytes]:
    """The outputs every target makes from the parts alone."""
    from ..emit.targets import TARGETS

    found: dict[str, bytes] = {}
    for target in TARGETS:
        found.update(target.assemble(parts))
    return found


def jobs() -> int:
    """How many processes may build systems at once."""
    try:
        wanted = int(os.environ.get("RULESC_JOBS", "0"))
    except ValueError:
        wanted = 0
    return wanted if wanted > 0 else len(os.sched_getaffinity(0))


_CHUNKS_PER_JOB = 4
_PARALLEL_FROM = 8  # fewer systems than this are not worth starting workers for


def _build_apart(
    rules_dir: FsPath, names: list[str], store: Store, workers: int
) -> dict[str, tuple[System, Part]] | None:
    """The named systems' models and parts, built in worker processes; None on
    errors."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    count = min(len(names), workers * _CHUNKS_PER_JOB)
    chunks = [names[i::count] for i in range(count)]
    # Forked workers start with the compiler already imported, and with what
    # every chunk needs made once, here, rather than once in each worker.
    _warm()
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(workers, mp_context=context) as pool:
        done = list(
            pool.map(_build_chunk, [rules_dir] * count, chunks, [store] * count)
        )
    entries: dict[str, tuple[System, Part]] = {}
    for result in done:
        if result is None:
            return None
        built, used, pending = result
        entries.update(built)
        for kind, keys in used.items():
            store.used.setdefault(kind, set()).update(keys)
            store.wrote = True
        for target, blob in pending.items():
            store.put(target, blob)
    return entries


_Chunk = tuple[
    dict[str, tuple["System", "Part"]], dict[str, set[str]], dict[FsPath, bytes]
]


def _warm() -> None:
    """Import and make what building any system needs: the kinds, the YAML
    parser, both root schemas' validators, and what each target warms (the
    parent uses them all afterwards too)."""
    from .. import pipeline
    from ..emit.targets import TARGETS
    from ..front import (
        loader,
        validate,
    )

    registry.kinds()
    loader._fast_kit()
    for root in validate.ROOTS:
        validate._validator(root)
    for warm in dict.fromkeys(t.warm for t in TARGETS):
        warm()
    del pipeline  # imported for every stage's module it imports


def _build_chunk(rules_dir: FsPath, names: list[str], store: Store) -> _Chunk | None:
    """Build some systems on their own: their models and parts, the cache keys
    used, and what the cache is to hold later."""
    from .. import pipeline
    from ..common.diagnostics import RulesError

    store.used = {}
    try:
        systems = pipeline.load_systems(rules_dir, set(names), SourceMemo(store))
        outputs = pipeline.generate(systems)
    except RulesError:
        return None
    entries = {
        s.id: (s, p) for s, p in zip(outputs.systems, outputs.parts, strict=True)
    }
    if set(entries) != set(names):
        return None
    return entries, store.used, store.pending


_EXTENDS = re.compile(r"^extends[ \t]*:", re.MULTILINE)


def _extends_any(rules_dir: FsPath) -> bool:
    """Whether a system of the folder may extend another (its system.yaml has
    an ``extends`` key): read as text, without YAML."""
    try:
        metas = sorted(rules_dir.glob("*/system.yaml"))
        return any(_EXTENDS.search(p.read_text(errors="replace")) for p in metas)
    except OSError:
        return False


def _uncached(
    rules_dir: FsPath, store: Store | None = None, *, more: Sequence[FsPath] = ()
) -> Built:
    from .. import pipeline
    from ..common.diagnostics import RulesError

    try:
        outputs = pipeline.build(rules_dir, more=more)
    except RulesError:
        if store is not None:
            store.flush()  # what loaded well; a failed build writes no output
        raise
    return Built(outputs.files, lambda: outputs.systems, store)


def _systems(
    store: Store, rules_dir: FsPath, keys: Iterable[str]
) -> tuple[System, ...]:
    """The systems of a cached build: from their entries, or built afresh."""
    from ..front.model import System

    entries = [store.load("system", key, System) for key in keys]
    if all(entry is not None for entry in entries):
        return tuple(entries)
    from .. import pipeline

    return tuple(pipeline.load_systems(rules_dir))
