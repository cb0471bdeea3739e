"""One thing the defender may do in a hex of a move (:class:`Fire`): what the optimal
defender (:mod:`~.defender`) chooses among and its count of decision states
(:mod:`~.defender_count`) walks over (14.2 opportunity fire, 15 fire lanes)."""

from __future__ import annotations

from dataclasses import dataclass

from firefight.rulesets.vv.lanes import LaidLane
from firefight.rulesets.vv.move_shots import ShotPhase


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
