"""A hand-written reference ("test oracle") for d20_scifi's radiation sickness.

Written straight from the source's "Radiation" section (000_67cc3971ad3938cc.txt)
and the rulings in rules/d20_scifi/radiation.yaml, with every figure typed out
here by hand. It shares no code with compiler/ or the generated runtime: a wrong
figure or a wrong step in either should make the differential test disagree.

The source, in short:

- Table: Radiation Exposure (incubation, Fort DC, primary effect in CON damage):
  Minor 6d6 h / 10 / 1, Low 5d6 h / 12 / 2d2, Moderate 4d6 h / 15 / 3d2,
  High 3d6 h / 19 / 3d3, Severe 2d6 h / 24 / 3d4, Critical 2d6 x 10 min / 30 / 3d6.
- Full exposure takes 3d4 minutes; its incubation starts when it completes.
- Half exposure: exposed for half or more of that time (exposed * 2 >= full,
  compared exactly), one level lower, timed from leaving; nothing below Minor.
- Instant exposure: from Moderate up, two levels lower, incubation 2d10+10
  minutes, timed from contact (minute 0).
- At the end of an incubation the primary effect is rolled as a pool, then a
  Fortitude save (d20 + bonus vs DC, natural 1 fails, natural 20 succeeds);
  success halves the pool, rounding down, minimum 1.
- 1d4 points of the pool are dealt at once, then every hour, never more than is
  left.
- Every 3rd point dealt (over all exposures) rolls 1d5 on the secondary effects
  track; a rolled effect the character has, or whose condition the character
  already suffers, moves on to its next stage; past stage 3 is a reroll (the
  effect stays at stage 3); Internal makes one point permanent every time.
- Healing: 1 point per day (1440 minutes), the first a day after the later of
  leaving and the last point dealt; permanent points never heal.
- The conditions: each effect's condition lasts until its next stage replaces
  it, or else until the later of leaving and the last point dealt, when every
  condition still suffered ends (one ``condition_end`` event each, in die order).

Dice are rolled one ``rng.randint(1, sides)`` per die, in the order of the
``roll_order`` ruling: the time to full exposure, then each exposure's incubation
in the order the exposures are listed, then, as events happen, each primary
effect and its save, each 1d4 deal and each 1d5 secondary roll. Events at the
same minute happen in the order they were scheduled: decontamination is
scheduled first, then the incubation ends in exposure order; a pool's first deal
is scheduled (at its incubation end minute) when its save has been made, and each
later deal 60 minutes after the previous one when that deal is made.
"""

from __future__ import annotations

import heapq
from typing import NamedTuple, Protocol, TypedDict

__all__ = [
    "LEVELS",
    "Event",
    "RandInt",
    "ReferenceResult",
    "simulate_radiation",
]


class RandInt(Protocol):
    """What the reference needs of an rng: ``random.Random`` has it."""

    def randint(self, a: int, b: int, /) -> int: ...


class Event(NamedTuple):
    """One event: a minute, a kind, and the figures that kind has (None otherwise)."""

    minute: int
    kind: str
    exposure: str | None = None
    level: str | None = None
    amount: int | None = None
    roll: int | None = None
    total: int | None = None
    dc: int | None = None
    success: bool | None = None
    pool: int | None = None
    effect: str | None = None
    stage: int | None = None
    condition: str | None = None
    reroll: bool | None = None
    permanent_point: bool | None = None


class ReferenceResult(TypedDict):
    events: list[Event]
    con_damage_dealt: int
    permanent: int
    conditions: tuple[str, ...]


# -- the source's figures, by hand -----------------------------------------------

LEVELS: tuple[str, ...] = ("Minor", "Low", "Moderate", "High", "Severe", "Critical")

# level -> (incubation dice count, sides, minutes per pip total multiplier)
#   incubation minutes = sum of the dice * multiplier
INCUBATION: dict[str, tuple[int, int, int]] = {
    "Minor": (6, 6, 60),  # 6d6 hours
    "Low": (5, 6, 60),  # 5d6 hours
    "Moderate": (4, 6, 60),  # 4d6 hours
    "High": (3, 6, 60),  # 3d6 hours
    "Severe": (2, 6, 60),  # 2d6 hours
    "Critical": (2, 6, 10),  # 2d6 x 10 minutes
}

FORT_DC: dict[str, int] = {
    "Minor": 10,
    "Low": 12,
    "Moderate": 15,
    "High": 19,
    "Severe": 24,
    "Critical": 30,
}

# level -> (dice count, sides); Minor is the constant 1 (count 0 means "no die").
PRIMARY_EFFECT: dict[str, tuple[int, int]] = {
    "Minor": (0, 1),  # 1 CON damage, no die rolled
    "Low": (2, 2),
    "Moderate": (3, 2),
    "High": (3, 3),
    "Severe": (3, 4),
    "Critical": (3, 6),
}

FULL_TIME_DICE = (3, 4)  # 3d4 minutes
INSTANT_INCUBATION = (2, 10, 10)  # 2d10+10 minutes
INSTANT_FROM = "Moderate"
DEAL_SIDES = 4  # 1d4 points
DEAL_EVERY = 60  # every hour
SAVE_SIDES = 20
SECONDARY_SIDES = 5  # 1d5
SECONDARY_EVERY = 3  # every 3rd point
HEAL_EVERY = 1440  # one point per day

# 1d5 -> (effect, its stages' conditions); Internal has no stages.
SECONDARY_TABLE: dict[int, tuple[str, tuple[str, ...]]] = {
    1: ("Nausea", ("Fatigued", "Sickened", "Nauseated")),
    2: ("Headache / Pain", ("Dazzled", "Fascinated", "Dazed")),
    3: ("Weakness", ("Fatigued", "Exhausted", "Paralyzed")),
    4: ("Disorientation", ("Flat-Footed", "Shaken", "Dazed")),
    5: ("Internal", ()),
}
INTERNAL_ROLL = 5


# -- helpers ----------------------------------------------------------------------


def _roll(rng: RandInt, count: int, sides: int) -> int:
    total = 0
    for _ in range(count):
        total += rng.randint(1, sides)
    return total


def _lower(level: str, steps: int) -> str | None:
    index = LEVELS.index(level) - steps
    return LEVELS[index] if index >= 0 else None


class _Exposure(NamedTuple):
    kind: str  # "instant" / "full" / "half"
    level: str  # the level whose figures it uses
    starts_at: int


class _Pool:
    """A pool being dealt: what is left of it."""

    def __init__(self) -> None:
        self.left = 0


class _Track:
    """The character's secondary effects: each effect's stage (0 = not had)."""

    def __init__(self) -> None:
        self.stage: dict[str, int] = {}
        self.conditions_of: dict[str, tuple[str, ...]] = {}

    def suffered(self) -> set[str]:
        """Conditions suffered now: only each effect's current stage's condition."""
        now: set[str] = set()
        for effect, stage in self.stage.items():
            if stage >= 1:
                now.add(self.conditions_of[effect][stage - 1])
        return now

    def apply(self, roll: int, minute: int) -> tuple[Event, bool, str | None]:
        """One 1d5 result: the event, whether to roll again, a condition acquired."""
        effect, conditions = SECONDARY_TABLE[roll]
        if roll == INTERNAL_ROLL:
            # Internal has no stages: its text sits in the table's Stage 1 column,
            # and it never advances, so every Internal outcome is reported as stage 1.
            event = Event(
                minute,
                "secondary_effect",
                roll=roll,
                effect=effect,
                stage=1,
                condition=None,
                reroll=False,
                permanent_point=True,
            )
            return event, False, None
        self.conditions_of[effect] = conditions
        suffered = self.suffered()
        stage = self.stage.get(effect, 0) + 1
        # "already suffers the rolled effect or its condition": move on, stage by stage
        while stage <= len(conditions) and conditions[stage - 1] in suffered:
            stage += 1
        if stage > len(conditions):
            # stage 4: reroll; the effect stays at its last stage
            self.stage[effect] = len(conditions)
            event = Event(
                minute,
                "secondary_effect",
                roll=roll,
                effect=effect,
                stage=len(conditions) + 1,
                condition=None,
                reroll=True,
                permanent_point=False,
            )
            return event, True, None
        self.stage[effect] = stage
        condition = conditions[stage - 1]
        event = Event(
            minute,
            "secondary_effect",
            roll=roll,
            effect=effect,
            stage=stage,
            condition=condition,
            reroll=False,
            permanent_point=False,
        )
        return event, False, condition


# -- the simulation ---------------------------------------------------------------


def _exposures(
    level: str, exposed_minutes: int, full_time: int, rng: RandInt
) -> tuple[list[_Exposure], list[int]]:
    """The exposures of an encounter and when each one's incubation ends."""
    # which exposures: instant first, then full or half
    found: list[_Exposure] = []
    if LEVELS.index(level) >= LEVELS.index(INSTANT_FROM):
        lower2 = _lower(level, 2)
        assert lower2 is not None
        found.append(_Exposure("instant", lower2, 0))
    if exposed_minutes >= full_time:
        found.append(_Exposure("full", level, full_time))
    elif exposed_minutes * 2 >= full_time:
        lower1 = _lower(level, 1)
        if lower1 is not None:
            found.append(_Exposure("half", lower1, exposed_minutes))

    # each exposure's incubation, in that order
    ends: list[int] = []
    for exposure in found:
        if exposure.kind == "instant":
            count, sides, plus = INSTANT_INCUBATION
            minutes = _roll(rng, count, sides) + plus
        else:
            count, sides, multiplier = INCUBATION[exposure.level]
            minutes = _roll(rng, count, sides) * multiplier
        ends.append(exposure.starts_at + minutes)
    return found, ends


def _heal(events: list[Event], track: _Track, ready: int, healable: int) -> None:
    """The conditions that end and the points that heal, from ``ready``: the
    later of leaving and the last damage (nothing heals or wears off before)."""
    # each staged effect's condition still suffered then ends (the ruling
    # conditions_end_when_healing_may_begin), in die order
    for effect, stages in SECONDARY_TABLE.values():
        stage = track.stage.get(effect, 0)
        if stage >= 1:
            events.append(Event(ready, "condition_end", condition=stages[stage - 1]))
    # healing: a point a day from a day after that moment
    if healable > 0:
        for day in range(1, healable + 1):
            events.append(Event(ready + day * HEAL_EVERY, "heal", amount=1))


def simulate_radiation(
    level: str, exposed_minutes: int, fort_bonus: int, rng: RandInt
) -> ReferenceResult:
    """One encounter with radiation at ``level`` (a label such as "High")."""
    if level not in LEVELS:
        raise ValueError(f"unknown radiation level {level!r}")
    if type(exposed_minutes) is not int or exposed_minutes < 1:
        raise ValueError("exposed_minutes must be an int of at least 1")
    if type(fort_bonus) is not int:
        raise ValueError("fort_bonus must be an int")

    events: list[Event] = [Event(0, "contaminated")]

    # 1. the time to full exposure, rolled first
    full_time = _roll(rng, *FULL_TIME_DICE)

    # 2. which exposures, and 3. each one's incubation
    found, ends = _exposures(level, exposed_minutes, full_time, rng)

    # 4. play the events in time order, ties in scheduling order
    queue: list[tuple[int, int, str, int]] = []
    sequence = 0

    def schedule(minute: int, what: str, index: int) -> None:
        nonlocal sequence
        heapq.heappush(queue, (minute, sequence, what, index))
        sequence += 1

    schedule(exposed_minutes, "decontaminated", -1)
    for index, end in enumerate(ends):
        schedule(end, "incubation_end", index)

    pools = [_Pool() for _ in found]
    track = _Track()
    dealt = 0
    permanent = 0
    conditions: list[str] = []
    last_damage = -1

    while queue:
        minute, _, what, index = heapq.heappop(queue)
        if what == "decontaminated":
            events.append(Event(minute, "decontaminated"))
            continue
        exposure = found[index]
        pool = pools[index]
        if what == "incubation_end":
            count, sides = PRIMARY_EFFECT[exposure.level]
            rolled = _roll(rng, count, sides) if count else 1
            events.append(
                Event(
                    minute,
                    "incubation_end",
                    exposure=exposure.kind,
                    level=exposure.level,
                    pool=rolled,
                )
            )
            natural = rng.randint(1, SAVE_SIDES)
            total = natural + fort_bonus
            dc = FORT_DC[exposure.level]
            if natural == 1:
                success = False
            elif natural == SAVE_SIDES:
                success = True
            else:
                success = total >= dc
            after = max(1, rolled // 2) if success else rolled
            events.append(
                Event(
                    minute,
                    "save",
                    exposure=exposure.kind,
                    level=exposure.level,
                    roll=natural,
                    total=total,
                    dc=dc,
                    success=success,
                    pool=after,
                )
            )
            pool.left = after
            schedule(minute, "deal", index)
            continue
        # a deal: 1d4, never more than is left
        amount = min(rng.randint(1, DEAL_SIDES), pool.left)
        pool.left -= amount
        events.append(
            Event(
                minute,
                "con_damage",
                exposure=exposure.kind,
                level=exposure.level,
                amount=amount,
            )
        )
        before = dealt
        dealt += amount
        last_damage = minute
        for point in range(before + 1, dealt + 1):
            if point % SECONDARY_EVERY:
                continue
            again = True
            while again:
                roll = rng.randint(1, SECONDARY_SIDES)
                event, again, condition = track.apply(roll, minute)
                events.append(event)
                if event.permanent_point:
                    permanent += 1
                if condition is not None:
                    conditions.append(condition)
        if pool.left > 0:
            schedule(minute + DEAL_EVERY, "deal", index)

    # 5. conditions end and 6. points heal
    _heal(events, track, max(exposed_minutes, last_damage), dealt - permanent)

    return {
        "events": events,
        "con_damage_dealt": dealt,
        "permanent": permanent,
        "conditions": tuple(conditions),
    }
