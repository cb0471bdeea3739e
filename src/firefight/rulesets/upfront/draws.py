"""One draw of a compiled walk (page 3's :mod:`.group`, page 7's :mod:`.overrun_walk`) as the
tables :func:`.kernel.advance` reads: what a card of each card group does, per phase.

A walk states what a card does (:data:`Move`: whether it ends the attack, the result column
it adds to a tally, the phase after) and the cuts of its card groups before and after the
draw (:mod:`.cuts`); :func:`draw_tables` fills the tables, card groups that lead alike being
one move, and :func:`with_next_tally` the tally after each (tally, result column).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

import numpy as np
import numpy.typing as npt

from firefight.rulesets.upfront import kernel
from firefight.rulesets.upfront.cuts import Groups

__all__ = ["Move", "draw_tables", "results_of", "with_next_tally"]

Move = tuple[bool, int, int]
"""What a card does at a draw: whether it ends the attack, the result column it adds to the
tally, and the phase after (:data:`.kernel.CLEAR` or :data:`.kernel.SMOKE`)."""
Ints = npt.NDArray[np.int64]


def draw_tables(
    width: int,
    phases: Sequence[int],
    now: Callable[[int], Groups],
    after: Callable[[int], Groups],
    move: Callable[[int, int], Move],
) -> kernel.Tables:
    """The tables of one draw (``next_tally`` left empty): for each phase of ``phases``, the
    card groups ``now(phase)`` drawn from, each moved as ``move(phase, its first kind)``
    says, into the groups ``after(phase after)`` of the next draw; at most ``width``
    groups."""
    tables = kernel.Tables.blank(width)
    into_phase = ((kernel.CLEAR, tables.to_clear), (kernel.SMOKE, tables.to_smoke))
    for phase in phases:
        _, groups, first = now(phase)
        for later, into in into_phase:
            if later > phase:  # smoke cleared stays cleared
                continue
            ids_next, tables.new_width[later], _ = after(later)
            into[phase, :groups] = [ids_next[k] for k in first]
        moves: dict[tuple[bool, int, int, int], int] = {}
        for g in range(groups):
            ended, column, later = move(phase, first[g])
            place = -1 if ended else after(later)[0][first[g]]
            key = (ended, column, -1 if ended else later, place)
            if key not in moves:
                m = moves[key] = len(moves)
                tables.ends[phase, m] = ended
                tables.result[phase, m] = column
                tables.still[phase, m] = later
                tables.slot[phase, m] = max(place, 0)
            tables.move_of[phase, g] = moves[key]
        tables.n_moves[phase] = len(moves)
    return tables


def results_of(tables: kernel.Tables) -> set[int]:
    """The result columns the draw's moves add."""
    found: set[int] = set()
    for phase, count in enumerate(tables.n_moves.tolist()):
        found.update(tables.result[phase, :count].tolist())
    return found


def with_next_tally(
    tables: kernel.Tables,
    stepped: Ints,
    columns: Sequence[int] | None = None,
    width: int = 0,
) -> tuple[kernel.Tables, Ints]:
    """``tables`` with the tally after each (tally, result column) and the tallies that
    follow, from ``stepped`` (each tally's code after each column, one row per tally): the
    columns given (``columns`` of ``width``; the others never drawn) or all of them."""
    following, index = np.unique(stepped, return_inverse=True)
    index = index.reshape(stepped.shape).astype(np.int64)
    if columns is None:
        table = index
    else:
        table = np.zeros((stepped.shape[0], width), np.int64)
        table[:, columns] = index
    return replace(tables, next_tally=table), following.astype(np.int64)
