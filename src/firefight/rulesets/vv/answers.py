"""The answers of V&V's actions (:mod:`.actions`): each its ``--json`` shape (docs/vv.md), the
lines and tables ``firefight move`` and ``firefight threat`` print, and its picture
(``--out``: the board, the units, the path, the threat shading); the threat map's in
:mod:`.threat_answers`, importable from here too."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path

from firefight.board.hexes import Hex
from firefight.board.overlay import (
    LANE_COLOUR,
    PATH_COLOUR,
    SHADE_ALPHA,
    SHADE_STOPS,
    SIDE_COLOURS,
)
from firefight.chance import Resolution
from firefight.rulesets.action import Line, Shown, Table, bold, dim
from firefight.rulesets.vv.allocator import allocator_json, allocator_text
from firefight.rulesets.vv.at_move import AtMove
from firefight.rulesets.vv.lanes import FireLane
from firefight.rulesets.vv.move_results import MoveOdds, MoveResolution
from firefight.rulesets.vv.movement import MovePlan
from firefight.rulesets.vv.overrun import OverrunOutcome
from firefight.rulesets.vv.overrun_move import OverrunOdds, OverrunSetup
from firefight.rulesets.vv.scenario import BoardScenario
from firefight.rulesets.vv.threat import scenario_counters, threat_overlay
from firefight.rulesets.vv.threat_answers import AtThreatAnswer, ThreatAnswer

__all__ = [
    "AtThreatAnswer",
    "MoveOddsAnswer",
    "MoveRunAnswer",
    "OverrunOddsAnswer",
    "OverrunRunAnswer",
    "ThreatAnswer",
    "draw_move",
    "draw_overrun",
    "page_data",
    "units_json",
]


def _percent(p: Fraction) -> str:
    return f"{100 * float(p):6.2f}"


def _trace_table(title: str, trace: Sequence[object]) -> Table:
    rows = []
    for event in trace:
        label = str(getattr(event, "label", ""))
        rows.append((label, str(event)[len(label) + 2 :]))
    return Table(title, ("event", "value"), tuple(rows))


def draw_move(
    out: Path,
    plan: MovePlan,
    *,
    odds: MoveOdds | None = None,
    resolution: MoveResolution | None = None,
    lanes: Sequence[Sequence[Hex]] = (),
    standing: Sequence[FireLane] = (),
) -> Path:
    """Draw the board with every unit, the fortifications and snipers (named under their
    hex), the stack's path, the threat map of the stack's move shaded under it, and per hex of
    the path the chance that the first pin or worse happens there (with ``odds``) or where
    each unit stopped (with ``resolution``). ``lanes``: each fire lane, its MG's hex first
    (13.9); ``standing``: the lanes laid before the move, whose attacks join the shading."""
    from firefight.board.render import render_board  # noqa: PLC0415 - matplotlib is slow
    from firefight.rulesets.vv.threat import threat_map  # noqa: PLC0415

    scenario = plan.scenario
    board = scenario.board
    written: dict[Hex, str] = {}
    for fort in scenario.fortifications:
        written.setdefault(fort.hex, fort.kind.replace("_", " "))
    for sniper in scenario.snipers:
        text = f"sniper ({sniper.side})"
        written[sniper.hex] = f"{written[sniper.hex]}; {text}" if sniper.hex in written else text
    title = f"{scenario.name}: {board.label(plan.start)} to {plan.steps[-1].label}"
    if odds is not None:
        for step, p in zip(plan.steps, odds.first_hit, strict=True):
            if p:
                chance = f"{100 * float(p):.0f}%"
                written[step.hex] = (
                    f"{written[step.hex]}; {chance}" if step.hex in written else chance
                )
        title += f" ({odds.policy})"
    if resolution is not None:
        for unit_id, (condition, where) in resolution.outcome().items():
            hex_ = board.hex(where)
            text = f"{unit_id} {condition}"
            written[hex_] = f"{written[hex_]}; {text}" if hex_ in written else text
    everyone_infantry = all(u.is_infantry for u in plan.stack)
    stack = (
        plan.start
        if everyone_infantry and len(plan.stack) == len(scenario.units_at(plan.start))
        else None
    )
    threat = threat_map(
        scenario, plan.side, stack=stack, assault_movement=plan.assault, lanes=standing
    )
    overlay = replace(
        threat_overlay(threat, path=plan.hexes),
        notes=written,
        lanes=tuple(tuple(lane) for lane in lanes),
    )
    return render_board(board, out, title=title, overlay=overlay)


def _at_table(whole: AtMove) -> Table:
    """The AT fire at the stack's vehicles (13.8, 18): every shot possible, the ones fired."""
    stack = whole.lanes.model.plan.stack
    fired = {(a.firer.id, a.index) for a in whole.at_attacks}
    rows = []
    for firer_id, found in whole.at_options.items():
        for option in found:
            data = option.to_json(stack)
            rows.append(
                (
                    firer_id,
                    option.label,
                    str(data["target"]),
                    f"{data['weapon']} {data['atfp']}",
                    str(data["facing"] or "-"),
                    str(data["range"]),
                    _percent(option.score),
                    "yes" if (firer_id, option.index) in fired else "",
                )
            )
    columns = ("firer", "hex", "target", "weapon", "armour", "range", "stop %", "fires")
    return Table("AT opportunity fire at the vehicles (13.8, 18)", columns, tuple(rows))


def _allocation(plan: MovePlan) -> dict[str, object]:
    """The ``"allocation"`` of a move's JSON: how the moving player applies the CPs (14.6)."""
    return {"allocation": allocator_json(plan.allocator)}


def _allocation_line(plan: MovePlan) -> Line:
    """How the moving player applies the CPs of each hit (14.6), in one line."""
    return Line.of(
        dim(f"CPs applied by the moving player (14.6): {allocator_text(plan.allocator)}")
    )


@dataclass(frozen=True)
class MoveOddsAnswer:
    """A move's exact odds along its path, with its fire lanes and AT fire."""

    plan: MovePlan
    whole: AtMove
    odds: MoveOdds
    standing: tuple[FireLane, ...]

    def to_json(self) -> dict[str, object]:
        """``firefight move --json`` (docs/vv.md)."""
        return {**self.whole.with_at(self.odds.to_json()), **_allocation(self.plan)}

    def draw(self, out: Path) -> Path:
        """The board, the path and the chance of the first pin per hex."""
        lanes = self.whole.lanes.lane_paths()
        return draw_move(out, self.plan, odds=self.odds, lanes=lanes, standing=self.standing)

    def text(self) -> list[Shown]:
        """The path's table, the lanes, the AT fire and how each unit ends."""
        odds, plan = self.odds, self.odds.model.plan
        board = plan.scenario.board
        shown: list[Shown] = [
            Line.of(
                bold(plan.scenario.name),
                f": {', '.join(u.id for u in plan.stack)} from {board.label(plan.start)} "
                f"(policy {odds.policy}; exact, {odds.states} states)",
            )
        ]
        fire_at: dict[int, list[str]] = {}
        for attack in odds.model.attacks:
            total = 0 if attack.attack is None else attack.attack.apfp
            fire_at.setdefault(attack.index, []).append(
                f"{attack.firer.id} (APFP {total}, E[CP] {float(attack.expected_cps):.2f})"
                if attack.attack is not None
                else f"{attack.firer.id} (cover {attack.target_cover})"
            )
        rows = []
        for step, p in zip(plan.steps, odds.first_hit, strict=True):
            may = sorted(
                f for f, opts in odds.options.items() if any(o.index == step.index for o in opts)
            )
            rows.append(
                (
                    step.label,
                    step.terrain + (f", {step.fortification}" if step.fortification else ""),
                    " ".join(str(v) for v in dict.fromkeys(step.spent.values())),
                    ", ".join(may),
                    "; ".join(fire_at.get(step.index, [])),
                    _percent(p),
                )
            )
        columns = ("hex", "terrain", "MP spent", "may fire", "fires", "first pin %")
        shown.append(Table("Along the path", columns, tuple(rows)))
        for laid in self.whole.lanes.lanes:
            lane = laid.lane
            when = f"laid at hex {laid.index}" if laid.index else "standing"
            shown.append(
                Line.of(
                    f"Fire lane {lane.mg} from {board.label(lane.firer)}: "
                    + " ".join(board.label(h) for h in lane.hexes)
                    + f" ({when}; 13.9)"
                )
            )
        if self.whole.at_options:
            shown.append(_at_table(self.whole))
        ends = []
        for unit_id, dist in odds.units.items():
            for (condition, where), p in sorted(dist.items(), key=lambda kv: -kv[1]):
                text = str(p)
                ends.append(
                    (unit_id, condition, where, _percent(p), text if len(text) <= 24 else "--json")
                )
        heads = ("unit", "state", "hex", "%", "exact")
        shown.append(Table("Each unit: how it ends and where it stops", heads, tuple(ends)))
        shown.append(_allocation_line(plan))
        return shown


@dataclass(frozen=True)
class MoveRunAnswer:
    """One move resolved with seeded dice or the player's, with its trace."""

    plan: MovePlan
    whole: AtMove
    run: MoveResolution
    standing: tuple[FireLane, ...]

    def to_json(self) -> dict[str, object]:
        """``firefight move --seed N --json`` (docs/vv.md), the lane attacks made included."""
        answer = self.whole.lanes.with_run_attacks(self.whole.with_at(self.run.to_json()), self.run)
        return {**answer, **_allocation(self.plan)}

    def draw(self, out: Path) -> Path:
        """The board, the path and where each unit stopped."""
        lanes = self.whole.lanes.lane_paths()
        return draw_move(out, self.plan, resolution=self.run, lanes=lanes, standing=self.standing)

    def text(self) -> list[Shown]:
        """Each hex's trace, how each unit ends and the dice that replay the move."""
        run, plan = self.run, self.run.model.plan
        source = f"seed {run.run.seed}" if run.run.seed is not None else "your dice"
        shown: list[Shown] = [Line.of(bold(plan.scenario.name), f" ({source})")]
        for step in run.run.steps:
            label = plan.steps[step.after.at - 1].label if step.after.at else plan.steps[0].label
            if not step.trace:
                shown.append(Line.of(f"hex {step.number}: {label}, no fire"))
                continue
            shown.append(_trace_table(f"Hex {step.number}: {label}", step.trace))
        for unit_id, (condition, where) in run.outcome().items():
            shown.append(Line.of(f"{unit_id}: {condition} in {where}"))
        shown.append(_allocation_line(plan))
        shown.append(Line.of(dim(f"replay with: --roll {','.join(run.run.replay_values())}")))
        return shown


def draw_overrun(out: Path, setup: OverrunSetup) -> Path:
    """The board, the units, the AFV's route through the target hex into the exit hex."""
    from firefight.board.render import render_board  # noqa: PLC0415 - matplotlib is slow

    scenario = setup.scenario
    board = scenario.board
    units = {u.hex: u.id[:6] for u in scenario.units}
    notes = {setup.plan.target: "overrun", setup.plan.exit: "exit"}
    return render_board(
        board,
        out,
        units=units,
        title=f"{scenario.name}: {setup.afv.id} overruns {board.label(setup.plan.target)}",
        paths=[((*setup.plan.path, setup.plan.exit), PATH_COLOUR)],
        notes=notes,
    )


def _overrun_allocation(setup: OverrunSetup) -> Line:
    """How the defender applies the overrun's CPs (14.6), and the AT fire policy, in one line."""
    return Line.of(
        dim(
            f"AT fire: policy {setup.policy}; CPs applied by the defender (14.6): "
            + allocator_text(setup.allocator)
        )
    )


@dataclass(frozen=True)
class OverrunOddsAnswer:
    """An AFV's overrun (19): its attack, the AT fire at it and how it ends, exact."""

    odds: OverrunOdds

    def to_json(self) -> dict[str, object]:
        """``firefight move --overrun --json`` (docs/vv.md)."""
        return self.odds.to_json()

    def draw(self, out: Path) -> Path:
        """The AFV's route through the target hex."""
        return draw_overrun(out, self.odds.setup)

    def text(self) -> list[Shown]:
        """The overrun's attack, the shots at the AFV and how it ends."""
        odds = self.odds
        data = odds.setup.to_json()
        attack = data["attack"]
        assert isinstance(attack, dict)
        shown: list[Shown] = [
            Line.of(
                bold(odds.setup.scenario.name),
                f": {odds.setup.afv.id} overruns {data['target']} into {data['exit']} "
                f"({data['movement_points']} MPs, 19.3); APFP {attack['apfp']} "
                f"({attack['row']}), cover "
                + (
                    ", ".join(f"{m['label']} {m['value']:+d}" for m in attack["modifiers"])
                    or "none"
                ),
            )
        ]
        shots: list[tuple[str, ...]] = [
            (shot.firer, shot.at, shot.moment, shot.attack.facing, str(shot.attack.range_hexes))
            for shot in (
                *(s for group in odds.setup.approach for s in group),
                *odds.setup.exit_fire,
            )
        ]
        shots += [
            (odds.setup.defenders[index].id, str(data["target"]), "final", "rear", "1")
            for index in sorted(odds.setup.final)
        ]
        columns = ("firer", "at", "moment", "armour", "range")
        shown.append(Table("AT fire at the AFV (19.2)", columns, tuple(shots)))
        rows = [(odds.setup.afv.id, state, _percent(p), str(p)) for state, p in odds.afv.items()]
        for unit_id, dist in odds.defenders.items():
            rows += [(unit_id, state, _percent(p), str(p)) for state, p in dist.items()]
        shown.append(Table("How it ends (exact)", ("who", "state", "%", "exact"), tuple(rows)))
        shown.append(_overrun_allocation(odds.setup))
        return shown


@dataclass(frozen=True)
class OverrunRunAnswer:
    """One overrun resolved with seeded dice or the player's, with its trace."""

    setup: OverrunSetup
    run: Resolution[OverrunOutcome]
    seed: int | None

    def to_json(self) -> dict[str, object]:
        """``firefight move --overrun --seed N --json`` (docs/vv.md)."""
        return {
            "overrun": self.setup.to_json(),
            "seed": self.seed,
            "outcome": str(self.run.outcome),
            "trace": [e.to_json() for e in self.run.trace],
            "replay": self.run.replay_values(),
        }

    def draw(self, out: Path) -> Path:
        """The AFV's route through the target hex."""
        return draw_overrun(out, self.setup)

    def text(self) -> list[Shown]:
        """The overrun's trace and its outcome."""
        setup = self.setup
        source = f"seed {self.seed}" if self.seed is not None else "your dice"
        title = (
            f"{setup.afv.id} overruns {setup.scenario.board.label(setup.plan.target)} ({source})"
        )
        return [
            _trace_table(title, self.run.trace),
            Line.of(str(self.run.outcome)),
            _overrun_allocation(setup),
        ]


def units_json(scenario: BoardScenario) -> list[dict[str, object]]:
    """The counters a page draws: each unit with its side's index (colours) and its text."""
    label = scenario.board.label
    return [
        {
            "id": unit.id,
            "name": unit.label,
            "side": unit.side,
            "side_index": counter.side,
            "kind": unit.type,
            "hex": label(unit.hex),
            "text": counter.text,
            "state": counter.state,
        }
        for unit, counter in zip(scenario.units, scenario_counters(scenario), strict=True)
    ]


def page_data(scenario: BoardScenario, text: str) -> dict[str, object]:
    """What the scenario page's script starts from: the scenario's text and counters, the
    colours."""
    return {
        "scenario": text,
        "board": scenario.board_name,
        "sides": dict(scenario.sides),
        "units": units_json(scenario),
        "colours": {
            "stops": [list(stop) for stop in SHADE_STOPS],
            "alpha": SHADE_ALPHA,
            "sides": [list(pair) for pair in SIDE_COLOURS],
            "lane": LANE_COLOUR,
            "path": PATH_COLOUR,
        },
    }
