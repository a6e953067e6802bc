"""Fuzzed house rules packs: a pack extending real rules with overrides of them, through loading, the merge, the model and the build.

A case is a base system (a real rule of rules/ or the cookbook, with the rules
it names, as the harness draws them) and a pack extending it, whose
overrides change the base's rules where they hold a value: a value of the
rule (a row's cell, a column's title, a worked example's expect, anything
its data holds) to one the schema allows there, to an awkward one or to the
same; a new ruling or worked example; a rule, entry or field that is not
there; an id or kind; a rule or an entry overridden twice; now and then a
mutation of the pack's file as the schema fuzzer makes them. Every outcome
must be a build or located errors in the case's files, never a crash.
"""

from __future__ import annotations

import traceback
from typing import Any

from rulesc.common.diagnostics import RulesError
from rulesc.front.house import identity
from rulesc.pipeline import build_systems, generate

from .generate import AWKWARD_INT, AWKWARD_TEXT
from .harness import Case, Cases, Report, _shown, _text, checked, located_problems
from .mutate import nodes, schema_at
from .schemas import RULES_FILE, SYSTEM_FILE, Json, clone

Path = tuple[str | int, ...]


class Packs(Cases):
    """Fuzzed packs drawn from one seed."""

    def case(self, index: int) -> Case:
        rng = self.rng
        own, rules = rng.choice(self.by_kind[rng.choice(self.kinds)])
        base, pack = f"fzb{index}", f"fz{index}"
        meta = clone(self.own[own])
        meta["system"] = base
        doc = {"system": base, "rules": clone(rules)}
        which = rng.sample(range(len(rules)), rng.randint(1, min(3, len(rules))))
        if rng.random() < 0.1:  # a rule overridden twice
            which.append(which[0])
        overrides = [self.override(doc, at) for at in which]
        house: Json = {"system": pack, "overrides": overrides}
        if rng.random() < 0.15:
            house = self.mutator.mutate(self.schemas.root(RULES_FILE), house)
        pack_meta = {"system": pack, "extends": base, "title": "P", "summary": "P."}
        return Case(
            index,
            "a pack of overrides",
            {
                f"rules/{base}/system.yaml": _text(meta, SYSTEM_FILE, rng),
                f"rules/{base}/rules.yaml": _text(doc, RULES_FILE, rng),
                f"packs/{pack}/system.yaml": _text(pack_meta, SYSTEM_FILE, rng),
                f"packs/{pack}/house.yaml": _text(house, RULES_FILE, rng),
            },
        )

    def override(self, doc: Json, at: int) -> Json:
        """An override of rule ``at`` of the base's ``doc``: one to three changes."""
        rng = self.rng
        rule = doc["rules"][at]
        entry: dict[str, Any] = {"rule": rule.get("id")}
        for _ in range(rng.choice((1, 1, 2, 3))):
            way = rng.random()
            if way < 0.55:
                leaves = [p for p, n in nodes(rule) if p and not isinstance(n, dict)]
                path = rng.choice(leaves) if leaves else ("title",)
                change = _reach(rule, path, self.value(doc, at, path))
            elif way < 0.7:
                change = {"rulings": [{"id": "fz", "ruling": "R.", "reason": "W."}]}
            elif way < 0.8:
                change = {rng.choice(("colour", "id", "kind", "rows")): "x"}
            elif way < 0.9:
                entry["rule"] = rng.choice(("nope", rule.get("id"), str(rng.random())))
                continue
            else:
                new = {"name": "fz", "summary": "S.", "args": {}, "expect": 1}
                change = {"examples": [new]}
            _merge(entry, change)
        if rng.random() < 0.1:  # an entry of a list given twice
            for value in entry.values():
                if isinstance(value, list) and value:
                    value.append(clone(value[0]))
                    break
        return entry

    def value(self, doc: Json, at: int, path: Path) -> Json:
        """A new value for the leaf at ``path`` of rule ``at``: one the schema
        allows there, an awkward one, or the same."""
        rng = self.rng
        roll = rng.random()
        if roll < 0.5:
            where = ("rules", at, *path)
            schema = schema_at(self.schemas, self.schemas.root(RULES_FILE), doc, where)
            key = next((s for s in reversed(path) if isinstance(s, str)), "")
            return self.gen.make(schema, key, 4)
        if roll < 0.8:
            return rng.choice((*AWKWARD_TEXT, *AWKWARD_INT, None, True, [], {}))
        node: Json = doc["rules"][at]
        for step in path:
            node = node[step]
        return clone(node)


def _reach(node: Json, path: Path, new: Json) -> Json:
    """The override of ``node`` that sets the value at ``path`` to ``new``: a
    mapping key by key, a list of entries with a key by that entry's key, any
    other list whole."""
    if not path:
        return new
    step, rest = path[0], path[1:]
    if isinstance(node, dict):
        return {step: _reach(node[step], rest, new)}
    ident = identity(node)
    item = node[step] if isinstance(step, int) else None
    if ident is None or not isinstance(item, dict):
        whole = clone(node)
        target = whole
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = new
        return whole
    return [{ident: item[ident], **_reach(item, rest, new)}]


def _merge(into: dict[str, Any], change: Json) -> None:
    for key, value in change.items() if isinstance(change, dict) else ():
        if isinstance(into.get(key), list) and isinstance(value, list):
            into[key] = [*into[key], *value]
        elif key != "rule":
            into[key] = value


def _systems(case: Case) -> list[Any]:
    """The case's systems: the base and the pack, merged and checked."""
    loaded = checked(case, [])
    return build_systems([(loaded[0], [loaded[1]]), (loaded[2], [loaded[3]])])


def run_packs(count: int, seed: int) -> Report:
    """Fuzz ``count`` packs from ``seed``: each built alone with its base."""
    report = Report()
    packs = Packs(seed)
    for index in range(count):
        case = packs.case(index)
        stage = "pack refused"  # by the schema, the merge or the model
        try:
            systems = _systems(case)
            stage = "pack build errors"
            generate(systems)
            report.outcomes["pack built"] += 1
        except RulesError as exc:
            report.outcomes[stage] += 1
            report.crashes += [
                f"{_shown(case)}\n{w}"
                for w in located_problems(exc.diagnostics, case.files)
            ]
        except Exception:  # a crash: what the fuzzer is for
            report.crashes.append(f"{_shown(case)}\n{traceback.format_exc()}")
    return report
