"""The hex line in numpy, and a line as one byte a step: the "Lines" part of
:mod:`firefight.board.visibility` (its sections "the hex line, in numpy" and "a line as one byte
a step").

The line to an offset is traced once (:func:`hex_lines`, ``Hex.line_to`` replicated operation
for operation, with the ``(ε, 2ε, −3ε)`` nudge of :func:`firefight.board.hexes.lines_between`)
and kept as one byte a step (:func:`step_codes`): the direction of each of the two nudged traces
and whether the step runs along a hexside; :data:`CODES` reads those bytes back.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from firefight.board.hexes import _EPSILON, DIRECTIONS, Hex

Ints = npt.NDArray[np.signedinteger[Any]]
"""An array of integers (per line, or per step and line)."""


Bools = npt.NDArray[np.bool_]
"""An array of flags (per line, or per step and line)."""


Floats = npt.NDArray[np.float64]


Int16s = npt.NDArray[np.int16]


NUDGE = _EPSILON
"""The ε of :func:`firefight.board.hexes.lines_between`."""


STEPS = tuple(DIRECTIONS.values())


_DIRECTION_CODE = {step: code for code, step in enumerate(STEPS)}


PAD = 255
"""The step code of padding after a line's last step."""


FAR = 1 << 20
"""Beyond every cell id of a board (a cell-id step for padding; an offset that turns a
hexside or corner id into "none" once clipped)."""


_ALONG_BIT = 64


# --- the hex line, in numpy -----------------------------------------------------------------


def cube_round_arrays(q: Floats, r: Floats, s: Floats) -> tuple[Ints, Ints]:
    """:func:`firefight.board.hexes.cube_round`, elementwise, tie-breaking included.

    ``round`` and ``np.rint`` both round halves to even; the comparisons are the same.
    """
    rq, rr, rs = np.rint(q), np.rint(r), np.rint(s)
    dq, dr, ds = np.abs(rq - q), np.abs(rr - r), np.abs(rs - s)
    fix_q = (dq > dr) & (dq > ds)
    fix_r = ~fix_q & (dr > ds)
    out_q = np.where(fix_q, -rr - rs, rq)
    out_r = np.where(fix_r, -rq - rs, rr)
    return out_q.astype(np.int32), out_r.astype(np.int32)


def hex_lines(
    a: tuple[Ints, Ints], b: tuple[Ints, Ints], n: int, nudge: float
) -> tuple[Ints, Ints]:
    """``Hex.line_to`` for many pairs at the same distance ``n``: arrays ``(pairs, n + 1)``.

    Float for float the operations of ``line_to``: each end nudged by ``(ε, 2ε, −3ε)``, then
    ``aq + (bq - aq) * i / n`` and :func:`cube_round_arrays`.
    """
    (a_q, a_r), (b_q, b_r) = a, b
    count = len(a_q)
    if n == 0:
        return a_q.reshape(count, 1).copy(), a_r.reshape(count, 1).copy()
    a_s, b_s = -a_q - a_r, -b_q - b_r
    aq, ar, as_ = a_q + nudge, a_r + 2 * nudge, a_s - 3 * nudge
    bq, br, bs = b_q + nudge, b_r + 2 * nudge, b_s - 3 * nudge
    i = np.arange(n + 1, dtype=np.float64)
    q = aq[:, None] + (bq - aq)[:, None] * i / n
    r = ar[:, None] + (br - ar)[:, None] * i / n
    s = as_[:, None] + (bs - as_)[:, None] * i / n
    return cube_round_arrays(q, r, s)


def trace_lines(a: Hex, targets: Sequence[Hex]) -> list[tuple[list[Hex], list[Hex]]]:
    """:func:`firefight.board.hexes.lines_between` from ``a`` to each target, with numpy."""
    q = np.array([t.q for t in targets], dtype=np.int32)
    r = np.array([t.r for t in targets], dtype=np.int32)
    n = offset_distance(q - a.q, r - a.r)
    found: list[tuple[list[Hex], list[Hex]]] = [([], []) for _ in targets]
    for distance in np.unique(n).tolist():
        which = np.flatnonzero(n == distance)
        a_q = np.full(len(which), a.q, dtype=np.int32)
        a_r = np.full(len(which), a.r, dtype=np.int32)
        plus = hex_lines((a_q, a_r), (q[which], r[which]), distance, NUDGE)
        minus = hex_lines((a_q, a_r), (q[which], r[which]), distance, -NUDGE)
        for k, index in enumerate(which.tolist()):
            found[index] = (_hexes(plus, k), _hexes(minus, k))
    return found


def _hexes(line: tuple[Ints, Ints], k: int) -> list[Hex]:
    return [Hex(q, r) for q, r in zip(line[0][k].tolist(), line[1][k].tolist(), strict=True)]


def offset_distance(dq: Ints, dr: Ints) -> Ints:
    found: Ints = np.maximum(np.maximum(np.abs(dq), np.abs(dr)), np.abs(dq + dr))
    return found


def direction_codes(dq: Ints, dr: Ints) -> Ints:
    """0-5 for the steps of directions 1-6; -1 where the two hexes are not adjacent."""
    table = np.full((3, 3), -1, dtype=np.int32)
    for (q, r), code in _DIRECTION_CODE.items():
        table[q + 1, r + 1] = code
    inside = (np.abs(dq) <= 1) & (np.abs(dr) <= 1)
    return np.where(inside, table[np.clip(dq, -1, 1) + 1, np.clip(dr, -1, 1) + 1], -1)


# --- a line as one byte a step --------------------------------------------------------------


def step_codes(plus: tuple[Ints, Ints], minus: tuple[Ints, Ints]) -> npt.NDArray[np.uint8]:
    """The steps ``1 .. n`` of lines traced both ways (arrays ``(lines, n + 1)``), one byte
    each: the direction code of the ``plus`` trace's step, that of the ``minus`` trace's step
    times 8, and 64 where the step runs along a hexside (the traces differ there)."""
    pq, pr = plus
    mq, mr = minus
    d_plus = direction_codes(np.diff(pq, axis=1), np.diff(pr, axis=1))
    d_minus = direction_codes(np.diff(mq, axis=1), np.diff(mr, axis=1))
    along = (pq[:, 1:] != mq[:, 1:]) | (pr[:, 1:] != mr[:, 1:])
    if not ((d_plus >= 0).all() and (d_minus >= 0).all()):
        msg = "a traced line is not contiguous"
        raise AssertionError(msg)
    if along.shape[1] and (along[:, -1].any() or (along[:, :-1] & along[:, 1:]).any()):
        msg = "a line ends along a hexside, or runs along two in a row"
        raise AssertionError(msg)
    found: npt.NDArray[np.uint8] = (d_plus + 8 * d_minus + _ALONG_BIT * along).astype(np.uint8)
    return found


def _code_tables() -> dict[str, Ints]:
    """Per step code (0-255): what a step of that code is, as small integers.

    ``plus``: the plus trace's direction; ``along``: 1 where the step runs along a hexside;
    ``side``: there, the direction from the ``left`` hex (plus trace) to the ``right`` one
    (minus trace), both reached from the same hex; ``before``: there, the corner ``k`` of the
    hex passed before the run (between its hexsides ``k`` and ``k + 1``) that the line meets;
    ``after``: for a step that ends a run along, the corner of the hex it enters."""
    plus = np.zeros(256, dtype=np.int32)
    along = np.zeros(256, dtype=np.int32)
    side = np.zeros(256, dtype=np.int32)
    before = np.zeros(256, dtype=np.int32)
    after = np.zeros(256, dtype=np.int32)

    def corner(to_left: int, to_right: int) -> int:
        return to_left if (to_left + 1) % 6 == to_right else to_right

    for code in range(128):
        p, m, runs = code & 7, (code >> 3) & 7, code >> 6
        if p > 5 or m > 5:
            continue
        plus[code], along[code] = p, runs
        gap = (STEPS[m][0] - STEPS[p][0], STEPS[m][1] - STEPS[p][1])
        if gap in _DIRECTION_CODE:  # the two traces' steps end in adjacent hexes
            side[code] = _DIRECTION_CODE[gap]
            before[code] = corner(p, m)
            after[code] = corner((p + 3) % 6, (m + 3) % 6)
    return {"plus": plus, "along": along, "side": side, "before": before, "after": after}


CODES = _code_tables()
