"""The answers of ``firefight move --policy optimal``: one path's optimal defence (its exact
odds, the plan hex by hex, the named policies it beats and by how much), and with ``--to``
the mover's best paths against it (docs/advisor-paths.md gives the ``--json`` shapes).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from firefight.errors import InputError
from firefight.i18n import gettext as _
from firefight.rulesets.action import Line, Shown, Table, bold
from firefight.rulesets.vv.action_inputs import MoveInput
from firefight.rulesets.vv.defender import Decision
from firefight.rulesets.vv.defender_action import (
    Defended,
    Game,
    defend,
    path_plan,
    play,
    setting_of,
)
from firefight.rulesets.vv.defender_fire import Fire
from firefight.rulesets.vv.lanes import markers_along
from firefight.rulesets.vv.move_state import Mover, MoveState
from firefight.rulesets.vv.movement import MovePlan
from firefight.rulesets.vv.path_answer import score_columns
from firefight.rulesets.vv.path_search import Score
from firefight.rulesets.vv.scenario import BoardScenario

SHOWN_DECISIONS = 40
"""The fires the text lists (the JSON has every decision)."""


def _chance(p: Fraction) -> dict[str, object]:
    return {"probability": float(p), "fraction": str(p)}


def _score(score: Score) -> dict[str, object]:
    return {
        "unpinned": _chance(score.unpinned),
        "not_eliminated": _chance(score.not_eliminated),
        "cps": {"expected": float(score.cps), "fraction": str(score.cps)},
    }


def _decision(found: Defended, decision: Decision) -> dict[str, object]:
    plan = found.defence.plan
    fire = decision.fire
    return {
        "index": decision.state.at,
        "hex": plan.steps[decision.state.at - 1].label,
        "state": str(decision.state),
        "chance": _chance(decision.chance),
        "fire": None
        if fire is None
        else {
            "firer": fire.firer,
            "firer_hex": fire.firer_label,
            "kind": fire.kind,
            "lanes": [laid.lane.to_json(plan.scenario.board) for laid in fire.lanes],
        },
    }


def _where(plan: MovePlan, state: MoveState, mover: Mover) -> str:
    """Where a unit ends: the hex it stopped in, else the hex the move reached."""
    index = mover.stopped_at if mover.stopped_at >= 0 else state.at
    return plan.scenario.board.label(plan.hexes[index])


def _fired_at(found: Defended) -> dict[int, dict[str, Fire]]:
    """The fires the plan makes with some chance, by hex index then firer."""
    fired: dict[int, dict[str, Fire]] = {}
    for decision in found.walk.decisions:
        if decision.fire is not None:
            fired.setdefault(decision.state.at, {})[decision.fire.firer] = decision.fire
    return fired


def move_shape(found: Defended) -> dict[str, object]:
    """The plan's odds in the shape of ``move --path``'s (docs/vv.md): per hex the firers
    that may fire and those the plan fires with some chance, the chance of the first pin or
    worse there and the most lane markers it may meet; each unit's end; the lanes it may lay
    (and those standing); ``where_hit`` as the safest path's."""
    defence, walk = found.defence, found.walk
    plan = defence.plan
    board = plan.scenario.board
    fired = _fired_at(found)
    laid = {(x.lane.mg, x.index): x for f in fired.values() for g in f.values() for x in g.lanes}
    lanes = [*defence.standing, *laid.values()]
    markers = markers_along(plan.hexes, lanes)
    hexes, where_hit = [], []
    for step in plan.steps:
        fires = fired.get(step.index, {})
        may = defence.fires.get(step.index, [])
        hexes.append(
            {
                "index": step.index,
                "hex": step.label,
                "terrain": step.terrain,
                "fortification": step.fortification,
                "mp_spent": dict(step.spent),
                "attacks": sorted(k for k, f in fires.items() if f.kind == "ap"),
                "may_fire": sorted({f.firer for f in may if f.kind == "ap"}),
                "at_attacks": sorted(k for k, f in fires.items() if f.kind == "at"),
                "may_fire_at": sorted({f.firer for f in may if f.kind == "at"}),
                "first_hit": _chance(walk.first_hit[step.index - 1]),
                "lane_markers": markers.get(step.index, 0),
            }
        )
        if walk.first_hit[step.index - 1]:
            where_hit.append(
                {
                    "hex": step.label,
                    "index": step.index,
                    "first_hit": _chance(walk.first_hit[step.index - 1]),
                    "fire": [
                        {"firer": f.firer, "firer_hex": f.firer_label, "expected_cps": None}
                        for f in fires.values()
                        if f.kind == "ap"
                    ],
                    "at_fire": [
                        {"firer": f.firer, "firer_hex": f.firer_label}
                        for f in fires.values()
                        if f.kind == "at"
                    ],
                    "lane_markers": markers.get(step.index, 0),
                }
            )
    outcomes: dict[str, dict[tuple[str, str], Fraction]] = {u.id: {} for u in plan.stack}
    for state, p in walk.finals.items():
        for unit, mover, began in zip(plan.stack, state.movers, defence.start.movers, strict=True):
            key = (mover.condition(began), _where(plan, state, mover))
            outcomes[unit.id][key] = outcomes[unit.id].get(key, Fraction(0)) + p
    where_hit.sort(key=lambda e: -Fraction(str(e["first_hit"]["fraction"])))  # type: ignore[index]
    return {
        "hexes": hexes,
        "outcomes": {
            unit_id: [{"state": c, "hex": h, **_chance(p)} for (c, h), p in found_.items()]
            for unit_id, found_ in outcomes.items()
        },
        "lanes": [x.to_json(board) for x in lanes],
        "where_hit": where_hit,
    }


def defended_json(found: Defended, objective: str) -> dict[str, object]:
    """One path's optimal defence: the path, its odds under it, the plan's decisions and
    each named policy's odds with how far it falls short of the optimal (``behind_optimal``,
    the mover's objective)."""
    plan = found.defence.plan
    optimal = found.walk.score()
    return {
        "path": [s.label for s in plan.steps],
        "assault": plan.assault,
        "units": [u.id for u in plan.stack],
        **_score(optimal),
        "optimal": _score(optimal),
        **move_shape(found),
        "decisions": [_decision(found, d) for d in found.walk.decisions],
        "named": [
            {
                "policy": name,
                **_score(score),
                "behind_optimal": str(score.value(objective) - optimal.value(objective)),
            }
            for name, score in found.named
        ],
    }


def _percent(p: Fraction) -> str:
    return f"{100 * float(p):.2f}%"


def _rows(found: Defended) -> list[tuple[str, ...]]:
    optimal = found.walk.score()
    rows = [("optimal", _percent(optimal.unpinned), str(optimal.unpinned))]
    rows += [(n, _percent(s.unpinned), str(s.unpinned)) for n, s in found.named]
    return [
        (*row, _percent(score.not_eliminated), f"{float(score.cps):.3f}")
        for row, score in zip(rows, [optimal, *(s for _, s in found.named)], strict=True)
    ]


def _plan_lines(found: Defended) -> list[Shown]:
    """Per hex, each fire the plan makes there and its chance (summed over the states it
    fires in; ``--json`` lists each state)."""
    plan = found.defence.plan
    fires: dict[tuple[int, str], Fraction] = {}
    for decision in found.walk.decisions:
        if decision.fire is not None:
            key = (decision.state.at, _described(decision.fire))
            fires[key] = fires.get(key, Fraction(0)) + decision.chance
    lines: list[Shown] = [
        Line.of(
            _("{hex}: {fire}, chance {chance}").format(
                hex=plan.steps[index - 1].label, fire=what, chance=chance
            )
        )
        for (index, what), chance in sorted(fires.items(), key=lambda kv: (kv[0][0], -kv[1]))
    ]
    if not fires:
        lines.append(Line.of(_("The defender holds its fire: no shot gains.")))
    return lines[:SHOWN_DECISIONS]


def _described(fire: Fire) -> str:
    """A fire of the plan in words (:meth:`.Fire.describe`, in the active language): its
    firer and hex, and the lanes it lays (13.9)."""
    said = _("{firer} (AT) from {hex}") if fire.kind == "at" else _("{firer} from {hex}")
    where = said.format(firer=fire.firer, hex=fire.firer_label)
    if not fire.lanes:
        return where
    return _("{fire}, laying {count} lane(s)").format(fire=where, count=len(fire.lanes))


def _table(title: str, found: Defended) -> Table:
    """The defences of one path: the optimal one, then each named policy."""
    columns = (_("defender"), *score_columns())
    return Table(title, columns, tuple(_rows(found)), frozenset(columns[1:]))


@dataclass(frozen=True)
class DefenceAnswer:
    """``move --path ... --policy optimal``: the path's optimal defence."""

    scenario: BoardScenario
    found: Defended
    objective: str

    def to_json(self) -> dict[str, object]:
        """docs/advisor-paths.md."""
        plan = self.found.defence.plan
        return {
            "scenario": self.scenario.name,
            "stack": self.scenario.board.label(plan.hexes[0]),
            "objective": self.objective,
            "policy": "optimal",
            "exact": True,
            "states": self.found.defence.budget.used,
            **defended_json(self.found, self.objective),
        }

    def text(self) -> list[Shown]:
        """The odds under the optimal defence and the named policies, then its plan."""
        plan = self.found.defence.plan
        states = self.found.defence.budget.used
        head = _(
            ": the defender's best fire on {path} (against {objective}; exact, {count} states)"
        ).format(path=" ".join(s.label for s in plan.steps), objective=self.objective, count=states)
        return [
            Line.of(bold(self.scenario.name), head),
            _table(_("Defences"), self.found),
            Line.of(_("The plan, hex by hex (each fire as the state of the move allows):")),
            *_plan_lines(self.found),
        ]

    def draw(self, out: Path) -> Path:
        """The board and the path, with its odds under the optimal defence."""
        from firefight.rulesets.vv.answers import draw_move  # noqa: PLC0415 - matplotlib

        return draw_move(out, self.found.defence.plan)


@dataclass(frozen=True)
class GameAnswer:
    """``move --to ... --policy optimal``: the mover's best paths against the optimal
    defender."""

    scenario: BoardScenario
    game: Game
    objective: str

    def to_json(self) -> dict[str, object]:
        """docs/advisor-paths.md."""
        paths = self.game.paths
        best = paths[0].value if paths else Fraction(0)
        start = paths[0].defence.plan.hexes[0] if paths else None
        return {
            "scenario": self.scenario.name,
            "stack": None if start is None else self.scenario.board.label(start),
            "to": self.game.to,
            "objective": self.objective,
            "policy": "optimal",
            "method": self.game.method,
            "exact": True,
            "evaluated": self.game.solved,
            "states": paths[0].defence.budget.used if paths else 0,
            "paths": [
                {
                    "rank": rank,
                    **defended_json(found, self.objective),
                    "behind_best": str(best - found.value),
                }
                for rank, found in enumerate(paths, start=1)
            ],
        }

    def text(self) -> list[Shown]:
        """The best paths against the optimal defender, each with the named policies."""
        head = _(
            ": the best paths to {to} against the optimal defender (by {objective}; exact, "
            "{method}, {count} paths solved)"
        ).format(
            to=self.game.to,
            objective=self.objective,
            method=self.game.method,
            count=self.game.solved,
        )
        shown: list[Shown] = [Line.of(bold(self.scenario.name), head)]
        if not self.game.paths:
            shown.append(Line.of(_("No legal path reaches that hex.")))
            return shown
        for rank, found in enumerate(self.game.paths, start=1):
            plan = found.defence.plan
            title = f"#{rank} {' '.join(s.label for s in plan.steps)}"
            if plan.assault:
                title += " (" + _("Assault Movement") + ")"
            shown.append(_table(title, found))
            shown.extend(_plan_lines(found)[:5])
        return shown

    def draw(self, out: Path) -> Path:
        """The board and the best path."""
        from firefight.rulesets.vv.answers import draw_move  # noqa: PLC0415 - matplotlib

        if not self.game.paths:
            from firefight.board.render import render_board  # noqa: PLC0415

            return render_board(self.scenario.board, out)
        return draw_move(out, self.game.paths[0].defence.plan)


def optimal_move(
    scenario: BoardScenario, inp: MoveInput, level: Fraction, at_level: Fraction
) -> DefenceAnswer | GameAnswer:
    """``move --policy optimal``: the path's optimal defence, or with ``--to`` the best paths
    against it (:mod:`.defender_action`)."""
    setting = setting_of(scenario, inp, level, at_level)
    if inp.to is not None:
        if inp.path:
            raise InputError(
                "path", "left out with --to (the search finds the paths)", ",".join(inp.path)
            )
        return GameAnswer(scenario, play(setting, inp.to, inp.top), inp.objective)
    return DefenceAnswer(scenario, defend(setting, path_plan(setting)), inp.objective)
