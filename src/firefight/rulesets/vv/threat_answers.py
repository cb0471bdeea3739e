"""The answers of ``firefight threat`` (:mod:`.actions`): the threat map for the units and for
the vehicles of the side about to move, each its ``--json`` shape (docs/vv.md), the tables it
prints and its picture (``--out``: the board, the units, the threat shading)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from firefight.board.hexes import Hex
from firefight.board.overlay import (
    Overlay,
)
from firefight.rulesets.action import Line, Shown, Table, bold
from firefight.rulesets.vv.at_move import VehicleThreat
from firefight.rulesets.vv.scenario import BoardScenario
from firefight.rulesets.vv.threat import ThreatMap, scenario_counters, threat_json, threat_overlay


@dataclass(frozen=True)
class ThreatAnswer:
    """The threat map of a side's move (13.8, 13.9)."""

    found: ThreatMap

    def to_json(self) -> dict[str, object]:
        """``firefight threat --json`` (docs/vv.md, "Threat map")."""
        return threat_json(self.found)

    def draw(self, out: Path) -> Path:
        """The board shaded by each hex's chance of pinned or worse."""
        from firefight.board.render import render_board  # noqa: PLC0415 - matplotlib is slow

        found = self.found.scenario
        title = f"{found.name}: threat map"
        return render_board(found.board, out, overlay=threat_overlay(self.found), title=title)

    def text(self) -> list[Shown]:
        """The firers, each hex under fire (most dangerous first) and the standing lanes."""
        answer = self.found
        label = answer.scenario.board.label
        side = answer.scenario.sides.get(answer.side, answer.side)
        groups = ", ".join(f"{g.id} in {label(g.hex)}" for g in answer.groups)
        shown: list[Shown] = [
            Line.of(bold(answer.scenario.name), f": threat map of the move of {side}"),
            Line.of(f"target: {answer.target.description}"),
            Line.of(f"enemy units able to fire on opportunity: {groups or 'none'}"),
        ]
        rows = []
        for threat in sorted(answer.hexes.values(), key=lambda t: (-t.pinned_or_worse, t.hex)):
            firers = ", ".join(
                f"{f.group.id} ({float(f.pinned_or_worse):.0%})" for f in threat.firers
            )
            if threat.lanes is not None:
                marks = threat.lanes
                firers += (", " if firers else "") + (
                    f"fire lane x{marks.markers} ({float(marks.hit):.0%}; 13.9)"
                )
            rows.append(
                (
                    label(threat.hex),
                    firers,
                    str(threat.pinned_or_worse),
                    f"{float(threat.pinned_or_worse) * 100:.2f}",
                )
            )
        columns = ("hex", "firers", "pinned or worse", "%")
        right = frozenset({"pinned or worse", "%"})
        shown.append(Table("Hexes under fire (most dangerous first)", columns, tuple(rows), right))
        for lane in answer.lanes:
            hexes = " ".join(label(h) for h in lane.hexes)
            shown.append(
                Line.of(f"Fire lane {lane.mg} from {label(lane.firer)}: {hexes} (standing; 13.9)")
            )
        total = answer.scenario.board.columns * answer.scenario.board.rows
        shown.append(Line.of(f"{len(answer.hexes)} of {total} hexes under fire"))
        return shown


@dataclass(frozen=True)
class AtThreatAnswer:
    """The AT threat map of a side's vehicles (13.8, 18)."""

    scenario: BoardScenario
    side: str
    origin: Hex | None
    kind: str
    found: VehicleThreat

    def to_json(self) -> dict[str, object]:
        """``firefight threat --at ... --json`` (docs/vv.md)."""
        label = self.scenario.board.label
        return {
            "scenario": self.scenario.name,
            "side": self.side,
            "stack": label(self.origin) if self.origin else None,
            **self.found.to_json(),
        }

    def draw(self, out: Path) -> Path:
        """The board shaded by each hex's chance of the vehicle being stopped."""
        from firefight.board.render import render_board  # noqa: PLC0415 - matplotlib is slow

        hexes = self.found.hexes
        overlay = Overlay(
            counters=scenario_counters(self.scenario),
            shading={h: t.stopped for h, t in hexes.items()},
            notes={h: f"{float(t.stopped):.0%}" for h, t in hexes.items()},
            legend=f"{self.side}: P({self.kind} stopped by AT fire) on entering",
        )
        title = f"{self.scenario.name}: AT threat map"
        return render_board(self.scenario.board, out, overlay=overlay, title=title)

    def text(self) -> list[Shown]:
        """Each hex under AT fire, most dangerous first."""
        answer, label = self.found, self.scenario.board.label
        facing = (
            f", heading {answer.heading}, armour {'/'.join(answer.armour)}" if answer.armour else ""
        )
        head = f": AT threat map of {self.side}'s {self.kind}{facing}"
        rows = []
        for threat in sorted(answer.hexes.values(), key=lambda t: (-t.stopped, t.hex)):
            firers = ", ".join(
                f"{unit_id} ({attack.facing if attack.target == 'afv' else 'hit'}, {float(p):.0%})"
                for unit_id, attack, p in threat.firers
            )
            stopped = threat.stopped
            rows.append((label(threat.hex), firers, str(stopped), f"{float(stopped) * 100:.2f}"))
        columns = ("hex", "firers", "stopped", "%")
        table = Table("Hexes under AT fire (most dangerous first)", columns, tuple(rows))
        return [Line.of(bold(self.scenario.name), head), table]
