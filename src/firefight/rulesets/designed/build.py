"""A designer's game made a rule set: its input model, its one procedure (the rule that
resolves a roll, whose every branch gives the exact odds), its modifiers itemized with their
rules, its chart and the severity of its results.

Written against :mod:`firefight.api`, as a third party's rule set is; the chart's axes are
the one piece taken from below it (a chart built from values rather than read from its file).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, ClassVar, Literal

from pydantic import Field, create_model

from firefight.api import (
    Chance,
    Chart,
    Dice,
    InputError,
    Modifier,
    ModifierKind,
    Procedure,
    RuleError,
    RuleInput,
    RuleSet,
    one_of,
)
from firefight.core.chart import Axis
from firefight.rulesets.designed.bands import ratio_label
from firefight.rulesets.designed.schema import (
    DiceSpec,
    FollowUp,
    Game,
    ModifierSpec,
    tested_at_once,
)
from firefight.rulesets.severity import ranked
from firefight.translation import add_words
from firefight.translation import gettext as _

_KINDS = {
    "dice": ModifierKind.DICE,
    "column_shift": ModifierKind.COLUMN_SHIFT,
    "factor": ModifierKind.FACTOR,
}


@dataclass(frozen=True)
class DesignedRuleSet(RuleSet):
    """A rule set read from one TOML file: its one chart built from the file, not read from
    a ``data/`` folder; its words are its own (the file's, in each language it gives them),
    which no catalogue holds."""

    own_words: ClassVar[bool] = True
    built_chart: Chart | None = None
    file: Path | None = None
    """The file it was read from."""

    def charts(self) -> list[Chart]:
        return [] if self.built_chart is None else [self.built_chart]

    def chart(self, chart_id: str) -> Chart:
        found = self.built_chart
        if found is not None and chart_id == found.id:
            return found
        raise InputError("table", one_of(c.id for c in self.charts()), chart_id)


def input_model(game: Game) -> type[RuleInput]:
    """The game's input fields as a frozen, strict pydantic model."""
    definitions: dict[str, Any] = {}
    for spec in game.fields:
        default = ... if spec.default is None else spec.default
        if spec.kind == "integer":
            annotation: Any = int
            info = Field(default, ge=spec.low, le=spec.high, description=spec.description)
        elif spec.kind == "flag":
            annotation = bool
            info = Field(default, description=spec.description)
        else:
            annotation = Literal.__getitem__(spec.choices)
            info = Field(default, description=spec.description)
        definitions[spec.name] = (annotation, info)
    name = "".join(part.title() for part in game.id.split("-")) + "Input"
    model: type[RuleInput] = create_model(
        name, __base__=RuleInput, __doc__=f"The inputs of {game.title}.", **definitions
    )
    return model


def _holds(spec: ModifierSpec, inp: RuleInput) -> bool:
    return all(c.holds(getattr(inp, c.field)) for c in spec.when)


def _rolled(dice: DiceSpec, chance: Chance, label: str) -> int:
    """Each term rolled (its own event of the trace), added or taken away."""
    if len(dice.terms) == 1:
        term = dice.terms[0]
        return term.sign * chance.roll(Dice.d(term.sides, term.count), label)
    total = 0
    for i, term in enumerate(dice.terms, start=1):
        total += term.sign * chance.roll(Dice.d(term.sides, term.count), f"{label} [{i}]")
    return total


@dataclass(frozen=True)
class DesignedRule:
    """The rule of a designed game: the column from its strengths (after their factors) and
    column shifts, the row from the roll and its dice modifiers, the cell, then the follow-ups
    the result calls for."""

    game: Game
    chart: Chart
    file: Path | None = None

    def played_from(self) -> tuple[str, str]:
        """The game's file name and id: whom a bug raised while its rule runs is reported
        against (:func:`firefight.rulesets.registry.fault`)."""
        return (self.file.name if self.file else f"{self.game.id}.toml", self.game.id)

    def applied(self, inp: RuleInput) -> list[ModifierSpec]:
        return [spec for spec in self.game.modifiers if _holds(spec, inp)]

    def modifiers(self, inp: RuleInput) -> list[Modifier]:
        return [
            Modifier(spec.label, spec.value, _KINDS[spec.what], spec.rule)
            for spec in self.applied(inp)
        ]

    def strength(self, inp: RuleInput, name: str) -> Fraction:
        """A strength field's value, times the factors that apply to it."""
        value = Fraction(getattr(inp, name))
        for spec in self.applied(inp):
            if spec.what == "factor" and spec.strength == name:
                value *= spec.value
        return value

    def column(self, inp: RuleInput) -> tuple[int, str]:
        """The column's index after its shifts, and how it was read (a fact)."""
        column = self.game.column
        axis = column.ladder
        if column.by == "odds":
            attacker = self.strength(inp, column.attacker)
            defender = self.strength(inp, column.defender)
            if attacker <= 0 or defender <= 0:
                msg = _(
                    "{header}: a strength of 0 ({attacker} against {defender}) gives no odds"
                ).format(header=axis.header, attacker=attacker, defender=defender)
                raise RuleError(msg)
            step, label = ratio_label(attacker, defender)
            base = axis.index(step, label)
            read = f"{attacker} : {defender} = {label}"
        elif column.by == "strength":
            exact = self.strength(inp, column.strength)
            value = math.floor(exact) if column.round == "down" else math.ceil(exact)
            base = axis.index(value, str(value))
            read = f"{value}: {axis.labels[base]}"
            if exact != value:
                read = f"{exact} → {read}"
        else:
            choice = getattr(inp, column.field)
            base = axis.labels.index(choice)
            read = axis.labels[base]
        shift = sum(int(s.value) for s in self.applied(inp) if s.what == "column_shift")
        index = min(max(base + shift, 0), len(axis.labels) - 1)
        if index != base:
            read += f" → {axis.labels[index]}"
        return index, read

    def row(self, total: int) -> int:
        return self.game.rows.index(total, str(total))

    def rule(self, inp: RuleInput, chance: Chance) -> str:
        column, _read = self.column(inp)
        dice = sum(int(s.value) for s in self.applied(inp) if s.what == "dice")
        roll = _rolled(self.game.dice, chance, self.game.dice.text)
        total = roll + dice
        cell = self.chart.cell(self.row(total), column)
        chance.note(
            self.chart.title,
            f"{self.game.rows.header} {total}, {self.game.column.ladder.header} "
            f"{cell.column}: {cell.value}",
        )
        outcome = cell.value
        for follow in self.game.follow_ups:
            if outcome in follow.after:
                outcome = self.follow_up(follow, inp, outcome, chance)
        return outcome

    def follow_up(self, follow: FollowUp, inp: RuleInput, outcome: str, chance: Chance) -> str:
        target = follow.target if isinstance(follow.target, int) else getattr(inp, follow.target)
        at_most = follow.passes == "at_most"

        def passes(total: int) -> bool:
            return total <= target if at_most else total >= target

        terms = follow.dice.terms
        if tested_at_once(terms):  # one event: exact odds branch on pass/fail
            passed = chance.check(Dice.d(terms[0].sides, terms[0].count), passes, follow.label)
        else:
            passed = passes(_rolled(follow.dice, chance, follow.label))
        if passed:
            return follow.if_passed or outcome
        return follow.if_failed

    def facts(self, inp: RuleInput) -> list[tuple[str, str]]:
        _index, read = self.column(inp)
        dice = sum(int(s.value) for s in self.applied(inp) if s.what == "dice")
        roll = self.game.dice.text + (f" {dice:+d}" if dice else "")
        return [(self.game.column.ladder.header, read), (self.game.rows.header, roll)]


def chart_of(game: Game) -> Chart:
    """The game's chart, as ``firefight table`` and the table page show it."""
    rows = Axis(game.rows.header, game.rows.labels, game.rows.below, game.rows.above, "bands")
    columns = Axis(game.column.ladder.header, game.column.ladder.labels, kind="labels")
    return Chart(
        game.id, game.title, game.source, rows, columns, game.cells, game.results, game.notes
    )


def ruleset_of(game: Game, file: Path | None = None) -> DesignedRuleSet:
    """The rule set of a designer's game, its words added to what the faces translate."""
    add_words(game.id, game.words)
    chart = chart_of(game)
    designed = DesignedRule(game, chart, file)
    procedure: Procedure[RuleInput] = Procedure(
        name=game.procedure,
        title=game.procedure_title,
        input_model=input_model(game),
        rule=designed.rule,
        modifiers=designed.modifiers,
        chart=chart.id,
        outcome_order=tuple(code for code, _ in game.results),
        facts=designed.facts,
    )
    return DesignedRuleSet(
        id=game.id,
        title=game.title,
        source=game.source,
        procedures=(procedure,),
        severity={game.procedure: ranked(*(code for code, _ in game.results))},
        built_chart=chart,
        file=file,
    )
