"""One thing the defender may do in a hex of a move (:class:`Fire`): what the optimal
defender (:mod:`~.defender`) chooses among and its count of decision states
(:mod:`~.defender_count`) walks over (14.2 opportunity fire, 15 fire lanes); a plan of
such choices (:data:`Choose`), and a named policy's (:func:`fixed_plan`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from firefight.rulesets.vv.lanes import LaidLane
from firefight.rulesets.vv.move_shots import ShotPhase
from firefight.rulesets.vv.move_state import MoveState


@dataclass(frozen=True)
class Fire:
    """One thing the defender may do in a hex: ``firer`` fires (``kind`` ``ap`` or ``at``),
    an MG group laying ``lanes`` (none: it lays none) to the hex fired at."""

    kind: str
    firer: str
    index: int
    label: str
    firer_label: str
    lanes: tuple[LaidLane, ...]
    phase: ShotPhase
    key: int = -1
    """Its number in the game's store (:meth:`~.defender_kernels.GameKernels.phase`):
    the same for the same attack laying the same lanes or none, on any path."""

    @property
    def mark(self) -> str:
        """The mark the move's state carries once it has fired."""
        return f"fired:{self.firer}"

    @property
    def lane_mark(self) -> str:
        """The mark the move's state carries once its lanes are laid."""
        return f"lane:{self.firer}@{self.index}"

    def describe(self) -> str:
        """In words: who fires from where, and the lanes."""
        what = f"{self.firer} from {self.firer_label}" + (" AT" if self.kind == "at" else "")
        if self.lanes:
            what += f", laying {len(self.lanes)} lane(s)"
        return what


Choose = Callable[[MoveState, Sequence[Fire]], Fire | None]
"""A defender's plan: in a state of the move, which of the fires it may make it makes next
(``None``: it holds the rest of its fire in this hex)."""


def fixed_plan(fires: Sequence[tuple[str, int, bool]]) -> Choose:
    """The plan that makes the fires named ``(firer, index, lays lanes)``, each where it may,
    in the order given (a named policy's fire plan, for the twin of the move's own odds)."""
    wanted = list(fires)

    def choose(state: MoveState, may: Sequence[Fire]) -> Fire | None:
        for firer, index, lays in wanted:
            if index != state.at:
                continue
            for fire in may:
                if fire.firer == firer and bool(fire.lanes) == lays:
                    return fire
        return None

    return choose
