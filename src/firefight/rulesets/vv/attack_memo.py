"""What the paths of one search share of their opportunity fire (V&V 13.8, 13.9, 17.4): the
lines of sight, the attacks and the fire lanes judged on one board
(:func:`~.opportunity.opportunities`, :func:`~.lanes_move.laid_lanes`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from firefight.board.board import Board
from firefight.board.hexes import Hex

if TYPE_CHECKING:
    from firefight.rulesets.vv.scenario import BoardScenario


@dataclass(eq=False)
class AttackMemo:
    """The lines of sight and the attacks judged on one board with its fortifications, shared
    by the paths of one search (:func:`~.opportunity.opportunities`): a line depends on its
    two ends and the board alone, and a firer's attack at a hex entered on the firer, the hex
    and the movers' reading of it (Assault Movement, the fortification cover there, infantry
    or AP targets among them), never on the rest of the path or the hex's index (13.8), and
    the fire lanes a fire group lays on its hex, its units and the hex it fires at (13.9), so
    each is judged once. Asked for another board or fortifications, it starts again."""

    board: Board | None = None
    fortifications: tuple[object, ...] = ()
    sights: dict[tuple[Hex, Hex], tuple[bool, int]] = field(default_factory=dict)
    attacks: dict[tuple[object, ...], Any] = field(default_factory=dict)
    """Each attack (an :class:`~.opportunity.Opportunity`, or ``None``) by its key."""
    lanes: dict[tuple[object, ...], Any] = field(default_factory=dict)
    """Each fire group's lanes (:class:`~.lanes.FireLane`) by its key."""

    def of(self, scenario: BoardScenario) -> AttackMemo:
        """The memo for ``scenario``'s board and fortifications (emptied if another's)."""
        board, forts = scenario.board, scenario.fortifications
        if (board is not self.board and board != self.board) or forts != self.fortifications:
            self.board, self.fortifications = board, forts
            self.sights.clear()
            self.attacks.clear()
            self.lanes.clear()
        return self
