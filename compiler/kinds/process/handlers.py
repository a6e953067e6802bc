"""process, handlers: what a course does at each time it is scheduled for, and the end of a run.

Its onset (the pool rolled, then the check at once), its check (again at its
interval), the dealing of its pool (a roll on the track for every so many
points), a step of the subject's state on a failure; the records another rule
answers as courses; and, once every handler has run, the recovery.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...core.exprs import notation
from ...core.ir import (
    Append,
    Apply,
    Each,
    Handler,
    If,
    Local,
    Part,
    Run,
    Schedule,
    Set,
    Stmt,
    While,
)
from ...kinds.track.rule import OUTCOME_FIELDS
from ...lang.expr import Checked
from ...runtime.dice import Dice
from .held import CHECK_VALUES, renamed
from .lowering import Course, Lowering
from .records import callee_params, dice_name, enum_named, onset_units, record_fields


@dataclass
class Handlers:
    k: Lowering
    scores: list[str]
    last_dealt: str
    marked: str
    conditions: str
    track_state: str
    subject: str
    # each staged effect's label and the local of the condition it gives now
    held: list[tuple[str, str]]

    # -- a course's handlers -------------------------------------------------------

    def handlers(self, course: Course) -> tuple[list[Handler], str, str]:
        """A course's handlers, and the names of its check and its onset
        (``""``: none)."""
        k, rule = self.k, self.k.rule
        streak, made = self.k.local("streak", 0, None), self.k.local("made", 0, None)
        takes = course.takes
        check_name = k.fresh(f"check{course.suffix}")
        deal_name = k.fresh(f"deal{course.suffix}") if course.pool is not None else ""
        found: list[Handler] = []
        # a course checked again counts its streak and its checks
        params = [*takes, *((streak, made) if course.every is not None else ())]
        if course.pool is not None:  # the pool its onset rolled (null: none yet)
            params.append(self.k.local("rolled_pool", None, None, nullable=True))
        names = self._check_locals(course)
        body = self._check(course, names, params, check_name, deal_name)
        found.append(Handler(check_name, tuple(params), tuple(names), tuple(body)))
        onset_name = ""
        if rule.onset_event is not None and course.has_onset:
            onset_name = k.fresh(f"onset{course.suffix}")
            every = [*takes]
            pool: dict[str, Part] = {}
            body = []
            given = [k.c(t.name, every, (), course.bound) for t in takes]
            given += self._counts(course)
            if course.pool is not None:
                every.append(self.k.local("pool", 0, None))
                body.append(self.k.set("pool", self._pool_roll(course, every)))
                rolled = k.c("@pool", every, (), course.bound)
                pool = {rule.role_fields[5]: rolled}
                given.append(rolled)
            body += k.event(
                rule.onset_event, course, k.clock, pool, every, course.bound
            )
            body.append(Run(k.c(k.clock), check_name, tuple(given)))
            found.append(
                Handler(
                    onset_name, tuple(takes), tuple(every[len(takes) :]), tuple(body)
                )
            )
        if course.pool is not None:
            found.append(self._deal(course, deal_name))
        return found, check_name, onset_name

    def of_held(self, checked: Checked) -> Checked:
        """An expression of the state held, reading it by its local's name."""
        held = self.k.rule.held
        assert held is not None
        return renamed(checked, held.name, self.subject)

    def _check_locals(self, course: Course) -> list[Local]:
        rule = self.k.rule
        names = [
            self.k.local("roll", rule.check.min, rule.check.max),
            self.k.local("total", None, None),
            self.k.local("success", None, None, type="bool"),
            *self._effect_locals(),
        ]
        if course.pool is not None:
            names.append(self.k.local("pool", 0, None))
        return names

    def _effect_locals(self) -> list[Local]:
        """The names dealing points and stepping the state set."""
        found = [self.k.local("amount", None, None), self.k.local("before", None, None)]
        track = self.k.rule.track
        if track is not None:
            found += [
                self.k.local("rolls_due", 0, None),
                self.k.local("again", None, None, type="bool"),
                self.k.local("track_roll", track.roll.min, track.roll.max),
                self.k.local("effect", None, None, track.effect_enum, nullable=True),
                self.k.local("stage", None, None, nullable=True),
                self.k.local(
                    "condition", None, None, track.condition_enum, nullable=True
                ),
                self.k.local("reroll", None, None, type="bool"),
                self.k.local("marks", None, None, type="bool"),
            ]
        if self.k.rule.state is not None:
            found.append(self.k.local("level", None, None))
        return found

    def _pool_roll(self, course: Course, names: list[Local]) -> Checked:
        """A roll of the course's pool (no dice: no points)."""
        return self.k.c(self._pool_text(course), names, (), course.bound)

    def _counts(self, course: Course) -> tuple[Checked, ...]:
        """What a course's first check takes for its streak and checks made."""
        return () if course.every is None else (self.k.c("0"), self.k.c("0"))

    def _no_pool(self, course: Course) -> tuple[Checked, ...]:
        """What a check not made at its onset takes for the pool rolled there."""
        return () if course.pool is None else (self.k.c("null"),)

    def _pool_text(self, course: Course) -> str:
        if isinstance(course.pool, Dice):
            return notation(course.pool)
        name = str(course.pool)
        if course.bound[name].nullable:
            return f"(roll({name}) if {name} is not null else 0)"
        return f"roll({name})"

    def _check(
        self,
        course: Course,
        names: list[Local],
        params: list[Local],
        check_name: str,
        deal_name: str,
    ) -> list[Stmt]:
        """A check: its pool (the one rolled at its onset, or a new one), the
        die, the event; its pool dealt, its failure's effects; then again at
        its interval, until its streak or its limit."""
        k, rule = self.k, self.k.rule
        every = [*names, *params]

        def c(text: str) -> Checked:
            return k.c(text, every, course.label_texts, course.bound)

        body: list[Stmt] = []
        if course.pool is not None:
            roll = self._pool_text(course)
            body.append(self.k.set("pool", c(f"@rolled_pool ?? {roll}")))
        body.append(self.k.set("roll", c(f"roll({k.check_dice})")))
        bonus = f" + {rule.bonus_param}" if rule.bonus_param else ""
        body.append(self.k.set("total", c(f"@roll{bonus}")))
        test = f"@total >= {course.target}"
        if rule.always_fails is not None:
            test = f"@roll > {rule.always_fails} and {test}"
        if rule.always_succeeds is not None:
            test = f"@roll >= {rule.always_succeeds} or ({test})"
        body.append(self.k.set("success", c(test)))
        pool = rule.pool
        if course.pool is not None and pool is not None:
            halved = f"max(@pool // {pool.save_divisor}, {pool.save_minimum})"
            body.append(
                If(c("@success and @pool > 0"), (self.k.set("pool", c(halved)),))
            )
        roles = rule.role_fields
        values: dict[str, Part] = {
            roles[1]: c("@roll"),
            roles[2]: c("@total"),
            roles[3]: c(course.target),
            roles[4]: c("@success"),
        }
        if course.pool is not None:
            values[roles[5]] = c("@pool")
        body += k.event(rule.check_event, course, k.clock, values, every, course.bound)
        if course.every is not None:
            body.append(self.k.set("made", c("@made + 1")))
        if course.pool is not None:
            args = tuple(c(t.name) for t in course.takes if t.name != str(course.pool))
            body.append(
                If(
                    c("@pool > 0"),
                    (Schedule(c(k.clock), deal_name, (*args, c("@pool"))),),
                )
            )
        failed: list[Stmt] = []
        for score, dice in course.on_failure:
            failed += self.add(course, score, notation(dice), every)
        failed.append(Set(self.last_dealt, c(f"max({self.last_dealt}, {k.clock})")))
        for step in course.steps:
            level: dict[str, Part] = {}
            if step.call is None:
                failed.append(Apply(self.subject, step.name, (), ((k.n["level"], ""),)))
                level = {rule.state_field: c("@level")}
            else:  # a state with fields: the state its transition answers
                call = self.of_held(step.call)
                taken = {p.name for p in rule.params}
                for name in CHECK_VALUES:  # the failed check's, by their names here
                    if name not in taken:
                        call = renamed(call, name, k.n[name])
                failed.append(Set(self.subject, call))
            failed += k.event(
                str(rule.state_event), course, k.clock, level, every, course.bound
            )
        body.append(If(c("not @success"), tuple(failed)))
        if course.every is not None:
            body.append(self.k.set("streak", c("@streak + 1 if @success else 0")))
        again: list[Stmt] = []
        if course.every is not None:
            args = tuple(c(t.name) for t in course.takes)
            schedule = Schedule(
                c(f"{k.clock} + {course.every}"),
                check_name,
                (*args, c("@streak"), c("@made"), *self._no_pool(course)),
            )
            if course.check_limit is not None:
                again.append(If(c(f"@made < {course.check_limit}"), (schedule,)))
            else:
                again.append(schedule)
        held = rule.held
        if again and held is not None and held.goes_on is not None:
            again = [If(self.of_held(held.goes_on), tuple(again))]
        if course.until is not None:
            ended: list[Stmt] = []
            if rule.end_event is not None:
                ended += k.event(
                    rule.end_event, course, k.clock, {}, every, course.bound
                )
            if ended:
                body.append(
                    If(c(f"@streak >= {course.until}"), tuple(ended), tuple(again))
                )
            elif again:
                body.append(If(c(f"@streak < {course.until}"), tuple(again)))
        else:
            body += again
        return body

    def _deal(self, course: Course, name: str) -> Handler:
        k, rule = self.k, self.k.rule
        pool = rule.pool
        assert pool is not None
        takes = [t for t in course.takes if t.name != str(course.pool)]
        left = self.k.local("left", 0, None)
        names = self._effect_locals()
        every = [*names, *takes, left]

        def c(text: str) -> Checked:
            return k.c(text, every, course.label_texts, course.bound)

        interval = pool.interval_minutes // rule.clock_base
        body: list[Stmt] = [
            self.k.set(
                "amount",
                c(
                    f"min(roll({k.dice(pool.function.upper() + '_DEAL', pool.deal)}), @left)"
                ),
            ),
            self.k.set("left", c("@left - @amount")),
        ]
        body += self.add(course, rule.pool_score, "amount", every, rolled=True)
        args = tuple(c(t.name) for t in takes)
        body.append(
            If(
                c("@left > 0"),
                (Schedule(c(f"{k.clock} + {interval}"), name, (*args, c("@left"))),),
                (Set(self.last_dealt, c(f"max({self.last_dealt}, {k.clock})")),),
            )
        )
        return Handler(name, (*takes, left), tuple(names), tuple(body))

    def add(
        self,
        course: Course,
        score: int,
        amount: str,
        names: list[Local],
        *,
        rolled: bool = False,
    ) -> list[Stmt]:
        """Points dealt to a score: the event, the score's total, and a roll on
        the track for every so many points it passes."""
        k, rule = self.k, self.k.rule

        def c(text: str) -> Checked:
            return k.c(text, names, course.label_texts, course.bound)

        found: list[Stmt] = []
        if not rolled:
            found.append(self.k.set("amount", c(amount)))
        found += k.event(
            rule.score_events[score],
            course,
            k.clock,
            {rule.role_fields[0]: c("@amount")},
            names,
            course.bound,
        )
        dealt = self.scores[score]
        track = rule.track
        if track is None or score != rule.track_score:
            found.append(Set(dealt, c(f"{dealt} + @amount")))
            return found
        found += [
            self.k.set("before", c(dealt)),
            Set(dealt, c(f"{dealt} + @amount")),
            Set(
                "rolls_due",
                c(f"{dealt} // {track.every} - @before // {track.every}"),
            ),
        ]
        roll = [
            self.k.set(
                "track_roll",
                c(f"roll({k.dice(track.id.upper() + '_ROLL', track.roll)})"),
            ),
            Apply(
                self.track_state,
                "apply",
                (c("@track_roll"),),
                (
                    *((k.n[name], name) for name in OUTCOME_FIELDS),
                    (k.n["marks"], track.mark_field),
                ),
            ),
            *k.event(
                str(rule.track_event),
                None,
                k.clock,
                {
                    rule.role_fields[1]: c("@track_roll"),
                    "effect": c("@effect"),
                    "stage": c("@stage"),
                    "condition": c("@condition"),
                    "reroll": c("@reroll"),
                    track.mark_field: c("@marks"),
                },
                names,
                course.bound,
            ),
            If(c("@marks"), (Set(self.marked, c(f"{self.marked} + 1")),)),
            If(
                c("@condition is not null"),
                (
                    Append(self.conditions, c("@condition")),
                    *(
                        If(c(f'@effect == "{label}"'), (Set(name, c("@condition")),))
                        for label, name in self.held
                    ),
                ),
            ),
            self.k.set("again", c("@reroll")),
        ]
        found.append(
            While(
                c("@rolls_due > 0"),
                (
                    self.k.set("again", c("true")),
                    While(c("@again"), tuple(roll), 0),
                    self.k.set("rolls_due", c("@rolls_due - 1")),
                ),
                0,
            )
        )
        return found

    # -- starting each course --------------------------------------------------------

    def begin(
        self,
        course: Course,
        start: int | str,
        onset: Dice | str | None,
        check: str,
        onset_handler: str,
        names: Sequence[Local] = (),
    ) -> list[Stmt]:
        """A course's first handler scheduled: its onset's end, rolled now, or
        at its start its first check."""
        k, rule = self.k, self.k.rule
        every = [*names, self.k.local("delay", 0, None)]

        def c(text: str, bound: dict[str, Checked] | None = None) -> Checked:
            return k.c(
                text, every, course.label_texts, {**course.bound, **(bound or {})}
            )

        args = tuple(c(t.name) for t in course.takes)
        firsts = (*self._counts(course), *self._no_pool(course))
        at_start = Schedule(c(str(start)), check, (*args, *firsts))
        if onset is None:
            return [at_start]
        if isinstance(onset, Dice):
            per = dict(rule.ticks)[str(onset.unit)]
            roll = notation(onset) if per == 1 else f"{notation(onset)} * {per}"
            at = "@delay" if start == 0 else f"{start} + @delay"
            return [
                self.k.set("delay", c(roll)),
                Schedule(c(at), onset_handler, args),
            ]
        # a record's onset: dice in a unit of their own, or none
        units = onset_units(rule)
        scales = " else ".join(
            f"{ticks} if {onset}.unit == {{{len(course.label_texts) + i}}}"
            for i, (_, ticks) in enumerate(units[:-1])
        )
        last = units[-1][1]
        scale = f"({scales} else {last})" if scales else str(last)
        texts = [*course.label_texts, *(u for u, _ in units[:-1])]
        present = {onset: dice_name(onset, course.bound[onset].parts, nullable=False)}
        rolled = k.c(
            f"roll({onset}) * {scale}",
            every,
            texts,
            {**course.bound, **present},
        )
        rolled_onset = (
            self.k.set("delay", rolled),
            Schedule(c(f"{start} + @delay"), onset_handler, args),
        )
        if not course.bound[onset].nullable:
            return list(rolled_onset)
        return [If(c(f"{onset} is not null"), rolled_onset, (at_start,))]

    def each_record(self, handlers: list[Handler]) -> Stmt:
        """The courses another rule's records give: one set of handlers that
        take a record's figures, each record's first handler scheduled in turn."""
        k, rule = self.k, self.k.rule
        origin = rule.origin
        assert origin is not None
        fields = record_fields(origin.rule)
        takes: list[Local] = []
        bound: dict[str, Checked] = {}
        read: list[tuple[str, str]] = []
        labels = []
        for label, name in origin.labels:
            _, enum_name, _, nullable = fields[name]
            local = k.fresh(label)
            enum = enum_named(k.system, enum_name)
            takes.append(Local(local, None, None, enum, nullable=nullable))
            read.append((local, name))
            labels.append(local)
        target = k.fresh(origin.target)
        takes.append(Local(target, None, None))
        read.append((target, origin.target))
        pool_name: str | None = None
        if origin.pool is not None:
            pool_name = k.fresh(origin.pool)
            _, _, parts, nullable = fields[origin.pool]
            takes.append(Local(pool_name, None, None, type="dice", nullable=nullable))
            bound[pool_name] = dice_name(pool_name, parts, nullable=nullable)
            read.append((pool_name, origin.pool))
        start = k.fresh(origin.start)
        read.append((start, origin.start))
        onset_name: str | None = None
        extra = [Local(start, None, None)]
        if origin.onset is not None:
            onset_name = k.fresh(origin.onset)
            _, _, parts, nullable = fields[origin.onset]
            extra.append(Local(onset_name, None, None, type="dice", nullable=nullable))
            bound[onset_name] = dice_name(onset_name, parts, nullable=nullable)
            read.append((onset_name, origin.onset))
        course = Course(
            suffix="",
            labels=labels,
            label_texts=[],
            target=target,
            pool=pool_name,
            every=origin.every,
            until=origin.until,
            on_failure=origin.on_failure,
            check_limit=origin.check_limit,
            steps=origin.steps,
            has_onset=origin.onset is not None,
            takes=takes,
            bound=bound,
        )
        made, check, onset_handler = self.handlers(course)
        handlers += made
        args = []
        callee = [p.name for p in callee_params(origin.rule)]
        given = dict(origin.args)
        for name in callee:
            value = given[name]
            if isinstance(value, str):
                args.append((name, k.c(value)))
            else:
                args.append((name, k.c(notation(value.dice))))
        body = self.begin(
            course, start, onset_name, check, onset_handler, names=[*takes, *extra]
        )
        return Each(origin.function, tuple(args), tuple(read), tuple(body))

    # -- the end ---------------------------------------------------------------------

    def recover(self) -> tuple[list[Stmt], list[Local]]:
        """Once every handler has run, the recovery heals the points the track
        did not mark, the first a full interval after the later of leaving and
        the last point dealt."""
        k, rule = self.k, self.k.rule
        recovery = rule.recovery
        if recovery is None or rule.recover_score is None:
            return [], []
        names = [
            self.k.local("heal_time", None, None),
            self.k.local("left", None, None),
            self.k.local("amount", None, None),
        ]

        def c(text: str) -> Checked:
            return k.c(text, names)

        dealt = self.scores[rule.recover_score]
        unmarked = f"{dealt} - {self.marked}" if self.marked else dealt
        leave = rule.leave_param or "0"
        interval = recovery.interval_minutes // rule.clock_base
        heal = (
            self.k.set("heal_time", c(f"@heal_time + {interval}")),
            self.k.set("amount", c(f"min({recovery.amount}, @left)")),
            self.k.set("left", c("@left - @amount")),
            *k.event(
                str(rule.recover_event),
                None,
                "@heal_time",
                {rule.role_fields[0]: c("@amount")},
                names,
            ),
        )
        return [
            self.k.set("heal_time", c(f"max({leave}, {self.last_dealt})")),
            *self.end_conditions(names),
            self.k.set("left", c(unmarked)),
            While(c("@left > 0"), heal, 0),
        ], names

    def end_conditions(self, names: list[Local]) -> list[Stmt]:
        """When recovery may begin (``heal_time``), an event ends the condition
        each staged effect of the track gives then, in die order."""
        k, rule = self.k, self.k.rule
        if rule.ends_event is None:
            return []
        return [
            If(
                k.c(f"{name} is not null", names),
                tuple(
                    k.event(
                        rule.ends_event,
                        None,
                        "@heal_time",
                        {"condition": k.c(name, names)},
                        names,
                    )
                ),
            )
            for _, name in self.held
        ]
