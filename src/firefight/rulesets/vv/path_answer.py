"""The answer of ``firefight move --to``: the safest paths found (:mod:`.path_search`), each with
its exact odds and what makes it worse than the best (who fires where); its ``--json`` shape
(docs/vv.md, docs/advisor-paths.md), the table printed and the picture of ``--out`` (the
best paths over the threat map of the stack's move).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cached_property
from pathlib import Path

from firefight.board.hexes import Hex
from firefight.i18n import N_
from firefight.i18n import gettext as _
from firefight.rulesets.action import Line, Shown, Table, bold
from firefight.rulesets.vv.move_results import MoveOdds, model_odds
from firefight.rulesets.vv.path_search import Found, PathSearch
from firefight.rulesets.vv.scenario import BoardScenario
from firefight.rulesets.vv.threat import threat_map, threat_overlay

OBJECTIVE_WORDS = {
    "unpinned": N_("every unit unpinned"),
    "not_eliminated": N_("no unit eliminated"),
    "cps": N_("the fewest expected CPs"),
}
"""An objective (:data:`~firefight.rulesets.vv.path_search.OBJECTIVES`) in the scenario
page's words."""
METHOD_WORDS = {"branch_and_bound": N_("branch and bound"), "exhaustive": N_("exhaustive")}
"""How the paths were searched (:class:`~firefight.rulesets.vv.path_search.PathSearch`'s
``method``, both exact) in words."""


def _chance(p: Fraction) -> dict[str, object]:
    return {"probability": float(p), "fraction": str(p)}


def _percent(p: Fraction) -> str:
    return f"{100 * float(p):.2f}%"


def odds_of(found: Found, policy: str) -> MoveOdds:
    """The path's odds hex by hex (the ``move --path`` answer's), for what makes it worse."""
    lanes = found.whole.lanes
    return model_odds(lanes.model, policy, lanes.options)


def fire_on(found: Found, odds: MoveOdds) -> list[dict[str, object]]:
    """Per hex of the path where the first pin or worse may happen: its chance, the firers
    firing there (AP with their expected CPs, AT with their chance of stopping), the lane
    markers the stack crosses there (13.9); the most likely first."""
    whole = found.whole
    board = found.plan.scenario.board
    markers = whole.lanes.markers
    entries = []
    for step, p in zip(found.plan.steps, odds.first_hit, strict=True):
        if not p:
            continue
        fire = [
            {
                "firer": a.firer.id,
                "firer_hex": board.label(a.firer.hex),
                "expected_cps": None if a.attack is None else str(a.expected_cps),
            }
            for a in odds.model.attacks
            if a.index == step.index
        ]
        at_fire = [
            {"firer": a.firer.id, "firer_hex": board.label(a.firer.hex)}
            for a in whole.at_attacks
            if a.index == step.index
        ]
        entries.append(
            {
                "hex": step.label,
                "index": step.index,
                "first_hit": _chance(p),
                "fire": fire,
                "at_fire": at_fire,
                "lane_markers": markers.get(step.index, 0),
            }
        )
    return sorted(entries, key=lambda e: -float(e["first_hit"]["probability"]))  # type: ignore[index]


def score_columns() -> tuple[str, ...]:
    """The columns of a path's odds, in the active language (the defender's tables too)."""
    return (_("all unpinned"), _("exact"), _("none eliminated"), _("E[CPs]"))


def _worse(entry: dict[str, object]) -> str:
    """One hex where the first pin or worse may happen: its chance and who fires there."""
    who = [
        _("{firer} from {hex}").format(firer=f["firer"], hex=f["firer_hex"])
        for f in entry["fire"]  # type: ignore[attr-defined]
    ]
    who += [
        _("{firer} (AT) from {hex}").format(firer=f["firer"], hex=f["firer_hex"])
        for f in entry["at_fire"]  # type: ignore[attr-defined]
    ]
    if entry["lane_markers"]:
        who.append(_("{count} lane marker(s)").format(count=entry["lane_markers"]))
    chance = entry["first_hit"]["fraction"]  # type: ignore[index]
    mines = _("mines")  # no firer there: its minefield
    return f"{entry['hex']} {chance} ({', '.join(who) or mines})"


@dataclass(frozen=True)
class PathSearchAnswer:
    """``move --to``: the best paths, best first, each with its exact odds."""

    scenario: BoardScenario
    search: PathSearch

    @cached_property
    def odds(self) -> tuple[MoveOdds, ...]:
        """Each path's odds hex by hex."""
        return tuple(odds_of(f, self.search.policy) for f in self.search.paths)

    def to_json(self) -> dict[str, object]:
        """``firefight move --to --json`` (docs/advisor-paths.md)."""
        search = self.search
        board = self.scenario.board
        best = search.paths[0].score.value(search.objective) if search.paths else Fraction(0)
        paths = []
        for rank, (found, odds) in enumerate(zip(search.paths, self.odds, strict=True), start=1):
            score = found.score
            paths.append(
                {
                    "rank": rank,
                    "path": [s.label for s in found.plan.steps],
                    "assault": found.plan.assault,
                    "units": [u.id for u in found.plan.stack],
                    "unpinned": _chance(score.unpinned),
                    "not_eliminated": _chance(score.not_eliminated),
                    "cps": {"expected": float(score.cps), "fraction": str(score.cps)},
                    "behind_best": str(best - score.value(search.objective)),
                    "mp_spent": dict(found.plan.steps[-1].spent),
                    "where_hit": fire_on(found, odds),
                }
            )
        return {
            "scenario": self.scenario.name,
            "stack": board.label(search.start),
            "to": board.label(search.to),
            "objective": search.objective,
            "policy": search.policy,
            "method": search.method,
            "exact": True,
            "evaluated": search.evaluated,
            "prefixes": search.prefixes,
            "paths": paths,
        }

    def text(self) -> list[Shown]:
        """The ranking, then per path the hexes that make it worse (the words in the active
        language; choice values, ids and hexes as typed)."""
        search = self.search
        board = self.scenario.board
        head = _(
            ": the safest paths from {start} to {to} (by {objective}, policy {policy}; exact, "
            "{method}, {count} paths evaluated)"
        ).format(
            start=board.label(search.start),
            to=board.label(search.to),
            objective=_(OBJECTIVE_WORDS[search.objective]),
            policy=_(search.policy.replace("_", " ")),
            method=_(METHOD_WORDS[search.method]),
            count=search.evaluated,
        )
        shown: list[Shown] = [Line.of(bold(self.scenario.name), head)]
        if not search.paths:
            shown.append(Line.of(_("No legal path reaches that hex.")))
            return shown
        rows = []
        for rank, found in enumerate(search.paths, start=1):
            score = found.score
            rows.append(
                (
                    str(rank),
                    " ".join(s.label for s in found.plan.steps),
                    _("yes") if found.plan.assault else _("no"),
                    _percent(score.unpinned),
                    str(score.unpinned) if len(str(score.unpinned)) <= 24 else "--json",
                    _percent(score.not_eliminated),
                    f"{float(score.cps):.3f}",
                )
            )
        columns = ("#", _("path"), _("assault"), *score_columns())
        shown.append(Table(_("Best paths"), columns, tuple(rows), frozenset(columns[3:])))
        for rank, (found, odds) in enumerate(zip(search.paths, self.odds, strict=True), start=1):
            worse = [_worse(entry) for entry in fire_on(found, odds)]
            text = "; ".join(worse) if worse else _("no fire reaches it")
            shown.append(
                Line.of(_("#{rank} first pin or worse: {where}").format(rank=rank, where=text))
            )
        return shown

    def draw(self, out: Path) -> Path:
        """The threat map of the stack's move, the best path drawn, every path's rank noted
        on its hexes."""
        from firefight.board.render import render_board  # noqa: PLC0415 - matplotlib is slow

        search = self.search
        if not search.paths:
            found = threat_map(self.scenario, self._side(), stack=search.start)
            return render_board(self.scenario.board, out, overlay=threat_overlay(found))
        best = search.paths[0].plan
        found = threat_map(
            self.scenario, best.side, stack=search.start, assault_movement=best.assault
        )
        overlay = threat_overlay(found, path=best.hexes)
        notes = dict(overlay.notes)
        ranks: dict[Hex, list[str]] = {}
        for rank, path in enumerate(search.paths, start=1):
            for step in path.plan.steps:
                ranks.setdefault(step.hex, []).append(f"#{rank}")
        for hex_, marks in ranks.items():
            notes[hex_] = " ".join(marks) + (f" {notes[hex_]}" if hex_ in notes else "")
        title = _("{scenario}: best paths {start} to {to} ({objective})").format(
            scenario=self.scenario.name,
            start=self.scenario.board.label(search.start),
            to=self.scenario.board.label(search.to),
            objective=search.objective,
        )
        return render_board(
            self.scenario.board, out, title=title, overlay=replace(overlay, notes=notes)
        )

    def _side(self) -> str:
        units = self.scenario.units_at(self.search.start)
        return units[0].side if units else next(iter(self.scenario.sides))
