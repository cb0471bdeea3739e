"""The whole board at once: every pair of hexes, its lines grouped by their offset (the
"Matrix" part of :mod:`firefight.board.visibility`).

The line from ``a`` to ``a + d`` is ``a`` plus the template of ``d`` (translation invariance),
so every id a rule reads on it (the cells on each side of a step, the hexside crossed or run
along, the corner met, the ends' hexsides and corner) is the source's or the target's id plus
a constant of the template and the step. On a whole board a template serves up to one line per
hex: :func:`derive` reads its step codes once into those constants (:class:`Templates`), and a
window of steps of many lines is then a gather, an add and a clip per id, where
:func:`~firefight.board.window.step_window` decodes every line's codes again in every window.
:func:`~firefight.board.visibility.record_line` keeps that decoding for the one line: the
reference the tests compare the matrix with, pair by pair.

Symmetry. A rule may declare (:func:`symmetry_of`) that the line from ``b`` to ``a`` has the
verdict of the line from ``a`` to ``b`` (``"verdict"``), or its visibility only
(``"visibility"``). The nudged trace of the line back is the line forth reversed (both ends move
by the same ``(ε, 2ε, −3ε)``, so it is the same segment), with the same hexes passed through,
the same hexsides and corners; what a rule makes of the two ends is the rule's, and so is the
declaration. Then only the offsets of one half are marched (``d`` after ``(0, 0)`` in
``(q, r)`` order, and ``d = 0``) and each verdict is written at both places; under
``"visibility"`` the lines back whose line forth is visible are marched again for their
modifier (a blocked line's is 0), unless the rule can turn a line's accumulators into those
of the line back (:func:`reverser_of`): then each line forth is judged both ways from the one
march, the line back with its own ends.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

import numpy as np
import numpy.typing as npt

from firefight.board.hexline import CODES, PAD, Bools, Int16s, Ints
from firefight.board.shape import Band, BoardShape
from firefight.board.sight_rule import Accumulators, LineEnds, SightRule, StepWindow, fold
from firefight.board.window import subset_of

Symmetry = Literal["none", "visibility", "verdict"]

Verdicts = tuple[Bools, Int16s]
"""Per line (or per pair of hexes): visible, and the dice modifier."""

NONE = np.int32(1 << 30)
"""A relative id that no source's id brings back onto the grid: "none" once clipped."""


def symmetry_of(rule: SightRule) -> Symmetry:
    """What the rule declares of the line back (its ``symmetry`` attribute; ``"none"``
    where it declares nothing)."""
    found: Symmetry = getattr(rule, "symmetry", "none")
    return found


Reverse = Callable[[Accumulators, LineEnds, LineEnds], Accumulators]
"""A rule's ``reverse``: from the accumulators of lines forth after all their steps, their ends
and the ends of the lines back, the accumulators of the lines back."""


def reverser_of(rule: SightRule) -> Reverse | None:
    """The rule's ``reverse`` where it declares ``"visibility"`` and has one: the line back
    passes the steps of the line forth in reverse order (the same segment, nudged alike), so
    what its steps fold into follows from theirs; ``None`` elsewhere."""
    found: Reverse | None = getattr(rule, "reverse", None)
    return found if symmetry_of(rule) == "visibility" else None


@dataclass(frozen=True, eq=False)
class Templates:
    """Per template (a line from cell 0 to an offset), the ids of :class:`StepWindow` and
    :class:`LineEnds` relative to the source's id (cells) or six times it (hexsides and
    corners); :data:`NONE` where the step is the target's or padding, or the id is none.
    ``steps``: one array ``(5, steps, templates)`` for steps ``1 ..``, the window's ``left``,
    ``right``, ``across``, ``along`` and ``corner`` in that order (a window of many lines is one
    gather). The ends' ``last_across`` and ``last_corner`` are relative to six times the
    target's id."""

    steps: Ints
    distance: Ints
    first_across: Ints
    last_across: Ints
    last_corner: Ints

    def ends(self, shape: BoardShape, which: Ints, source: Ints, target: Ints) -> LineEnds:
        """The ends of lines of templates ``which`` from cells ``source`` to ``target``."""
        none = np.int32(6 * shape.cells)
        return LineEnds(
            source,
            target,
            self.distance[which],
            np.minimum(6 * source + self.first_across[which], none),
            np.minimum(6 * target + self.last_across[which], none),
            np.minimum(6 * target + self.last_corner[which], none),
        )

    def window(
        self, shape: BoardShape, first: int, stop: int, which: Ints, source: Ints
    ) -> StepWindow:
        """Steps ``first .. stop - 1`` of lines of templates ``which`` from cells ``source``."""
        found = _repeated(self.steps[:, first - 1 : stop - 1], which)
        cells, hexsides = found[:2], found[2:]
        cells += source
        np.minimum(cells, np.int32(shape.cells), out=cells)
        hexsides += 6 * source
        np.minimum(hexsides, np.int32(6 * shape.cells), out=hexsides)
        return StepWindow(first, *found)


def _repeated(steps: Ints, which: Ints) -> Ints:
    """``steps.take(which, axis=2)``, a run of equal ``which`` at a time (a march's lines
    come grouped by template): one column gathered per run, then repeated."""
    if len(which) < 2:
        return steps.take(which, axis=2)
    starts = np.flatnonzero(which[1:] != which[:-1]) + 1
    firsts = np.concatenate((np.zeros(1, dtype=starts.dtype), starts))
    lengths = np.diff(np.append(firsts, len(which)))
    found: Ints = np.repeat(steps.take(which[firsts], axis=2), lengths, axis=2)
    return found


def derive(shape: BoardShape, codes: npt.NDArray[np.uint8]) -> Templates:
    """The templates of lines from their step codes ``(lines, width)`` (``PAD`` after each
    line's last step): :func:`~firefight.board.window.line_ends` and
    :func:`~firefight.board.window.step_window` from a source at cell 0, unclipped."""
    count, width = codes.shape
    distance = (codes != PAD).sum(axis=1).astype(np.int32)
    inner = np.arange(width)[None, :] < (distance - 1)[:, None]  # steps between the ends
    step = np.where(inner, shape.cell_step.take(codes), 0)
    here = np.cumsum(step, axis=1, dtype=np.int64)
    before = np.concatenate([np.zeros((count, 1), np.int64), here[:, :-1]], axis=1)
    along = CODES["along"].take(codes).astype(np.bool_) & inner
    before_along = np.concatenate([np.zeros((count, 1), np.bool_), along[:, :-1]], axis=1)
    far = shape.along_side.take(codes) >= 6  # FAR: no hexside run along
    across_side = shape.across_side.take(codes)
    before_corner = shape.before_corner.take(codes)
    across = np.where((across_side >= 6) | before_along, NONE, 6 * before + across_side)
    corner = np.where(
        before_along,
        6 * here + CODES["after"].take(codes),
        np.where(before_corner >= 6, NONE, 6 * before + before_corner),
    )
    across[:, :1] = NONE  # leaving the firer's hex: its own hexsides and corners are exempt
    corner[:, :1] = NONE

    def steps(values: npt.NDArray[np.int64], valid: Bools) -> Ints:
        return np.where(valid, values, NONE).T.astype(np.int32).copy()

    picks = np.arange(count)
    first_code = codes[:, 0]
    last = codes[picks, np.maximum(distance - 1, 0)]
    before_last = codes[picks, np.maximum(distance - 2, 0)]
    two = distance >= 2
    last_along = CODES["along"][before_last] == 1
    first_across = CODES["plus"][first_code].astype(np.int64)
    last_across = CODES["plus"][last] - 6 * shape.cell_step[last].astype(np.int64)
    return Templates(
        steps=np.stack(
            [
                steps(here, inner),
                steps(here + shape.right_step.take(codes), inner),
                steps(across, inner),
                steps(6 * here + shape.along_side.take(codes), inner & ~far),
                steps(corner, inner),
            ]
        ),
        distance=distance,
        first_across=np.where(
            (distance >= 1) & (CODES["along"][first_code] == 0), first_across, NONE
        ).astype(np.int32),
        last_across=np.where(two & ~last_along, last_across, NONE).astype(np.int32),
        last_corner=np.where(two & last_along, CODES["after"][last], NONE).astype(np.int32),
    )


@dataclass(frozen=True)
class Sweep:
    """A rule marched on lines grouped by template: ``window`` steps at a time, ``chunk``
    lines together."""

    rule: SightRule
    shape: BoardShape
    window: int
    chunk: int

    def pairs(self, templates: Templates, which: Ints, pairs: tuple[Ints, Ints]) -> Verdicts:
        """Visible and modifier of lines of templates ``which`` between hex-index ``pairs``."""
        visible, modifier, _ = self.both_ways(templates, None, which, pairs)
        return visible, modifier

    def both_ways(
        self, templates: Templates, back: Templates | None, which: Ints, pairs: tuple[Ints, Ints]
    ) -> tuple[Bools, Int16s, Int16s]:
        """:meth:`pairs`, and with ``back`` (the templates of the lines back, row for row) the
        modifier of each line back, judged from the line forth's accumulators reversed (the
        rule's ``reverse``, :func:`reverser_of`); 0 where the line forth is blocked."""
        source, target = self.shape.hex_cells[pairs[0]], self.shape.hex_cells[pairs[1]]
        visible = np.zeros(len(which), dtype=np.bool_)
        modifier = np.zeros(len(which), dtype=np.int16)
        modifier_back = np.zeros(len(which) if back is not None else 0, dtype=np.int16)
        for start in range(0, len(which), self.chunk):
            part = slice(start, start + self.chunk)
            cells = (source[part], target[part])
            into = (visible[part], modifier[part], modifier_back[part])
            self._march(templates, back, which[part], cells, into)
        return visible, modifier, modifier_back

    def march(self, templates: Templates, which: Ints, cells: tuple[Ints, Ints]) -> Verdicts:
        """Judge lines of templates ``which`` between ``cells`` (source and target), as
        :func:`~firefight.board.visibility.march` does: windows of steps, then the lines that
        have ended are judged and leave, and so do the settled ones, blocked whatever follows
        (:meth:`SightRule.settled`: not visible, modifier 0, without their judgement)."""
        found = np.zeros(len(which), dtype=np.bool_), np.zeros(len(which), dtype=np.int16)
        self._march(templates, None, which, cells, (*found, found[1][:0]))
        return found

    def _march(
        self,
        templates: Templates,
        back: Templates | None,
        which: Ints,
        cells: tuple[Ints, Ints],
        found: tuple[Bools, Int16s, Int16s],
    ) -> None:
        """:meth:`march` into ``found``, and with ``back`` the lines back's modifiers too."""
        rule, shape = self.rule, self.shape
        ends = templates.ends(shape, which, *cells)
        back_ends = None if back is None else back.ends(shape, which, cells[1], cells[0])
        acc = rule.start(ends)
        active = np.flatnonzero(ends.distance >= 2)  # lines with steps between their ends
        self._judge(acc, ends, np.flatnonzero(ends.distance < 2), found, None, back_ends)
        sub, sub_ends, sub_which = subset_of(acc, active), ends.take(active), which[active]
        first = 1
        while len(active):
            # Windows double up to ``window`` steps: most lines blocked early leave early.
            stop = min(first + min(self.window, first), int(sub_ends.distance.max()))
            steps = templates.window(shape, first, stop, sub_which, sub_ends.source)
            fold(rule.folds, sub, rule.steps(sub, steps, sub_ends))
            first = stop
            going = ~rule.settled(sub)
            ended = sub_ends.distance <= first
            self._judge(sub, sub_ends, np.flatnonzero(ended & going), found, active, back_ends)
            keep = going & ~ended
            if keep.all():
                continue
            kept = np.flatnonzero(keep)
            active, sub_ends = active.take(kept), sub_ends.take(kept)
            sub, sub_which = subset_of(sub, kept), sub_which.take(kept)

    def _judge(  # noqa: PLR0917 - the lines, where they go, and the lines back's ends
        self,
        acc: Accumulators,
        ends: LineEnds,
        lines: Ints,
        into: tuple[Bools, Int16s, Int16s],
        at: Ints | None,
        back_ends: LineEnds | None,
    ) -> None:
        """Judge ``lines`` (of ``acc`` and ``ends``) into the results at ``at[lines]``, and
        with ``back_ends`` (of every line of the march) the lines back."""
        if not len(lines):
            return
        rule, forth, line_ends = self.rule, subset_of(acc, lines), ends.take(lines)
        judged = rule.judge(forth, line_ends)
        where = lines if at is None else at[lines]
        into[0][where] = judged["visible"]
        into[1][where] = judged["modifier"]
        reverse = reverser_of(rule)
        if back_ends is None or reverse is None:
            return
        ends_back = back_ends.take(where)
        into[2][where] = rule.judge(reverse(forth, line_ends, ends_back), ends_back)["modifier"]


def _lookup(shape: BoardShape) -> tuple[Ints, Ints, int]:
    """Hex indices on a grid of positions wide enough that a hex plus any offset between two
    hexes stays on it (no wrapping): the table (-1 off the board), each hex's position, and
    the position step of one ``q``."""
    span_q, span_r = int(np.ptp(shape.q)), int(np.ptp(shape.r))
    across_r = 3 * span_r + 1
    position = (shape.q - shape.q.min() + span_q) * across_r + (shape.r - shape.r.min() + span_r)
    table = np.full((3 * span_q + 1) * across_r, -1, dtype=np.int32)
    table[position] = np.arange(len(shape.hexes), dtype=np.int32)
    return table, position.astype(np.int32), across_r


def whole_board(sweep: Sweep, block: int) -> Verdicts:
    """Visible and modifier for every pair of hexes (rows: sources, columns: targets), the
    lines of each band of distances grouped by template, ``block`` candidate pairs enumerated
    at once."""
    shape, size = sweep.shape, len(sweep.shape.hexes)
    visible = np.zeros((size, size), dtype=np.bool_)
    modifier = np.zeros((size, size), dtype=np.int16)
    symmetry = symmetry_of(sweep.rule)
    reversible = reverser_of(sweep.rule) is not None
    table, position, across_r = _lookup(shape)
    per_group = max(1, block // size)
    for band in shape.bands:
        rows = np.arange(len(band.off_q))
        if symmetry != "none":  # one of d and -d (and d = 0)
            rows = rows[(band.off_q > 0) | ((band.off_q == 0) & (band.off_r >= 0))]
        for start in range(0, len(rows), per_group):
            group = rows[start : start + per_group]
            offset = band.off_q[group] * across_r + band.off_r[group]
            found = table.take(position[None, :] + offset[:, None])
            which, source = np.nonzero(found >= 0)
            target = found[which, source]
            forth = derive(shape, band.built()[group])
            if reversible:  # both ways from one march
                back = derive(shape, band.built()[_reversed_rows(shape, band, group)])
                seen, mods, back_mods = sweep.both_ways(forth, back, which, (source, target))
                forth_at, back_at = source * size + target, target * size + source
                for at, mod in ((forth_at, mods), (back_at, back_mods)):
                    np.put(visible, at, seen)
                    np.put(modifier, at, mod)
                continue
            seen, mods = sweep.pairs(forth, which, (source, target))
            visible[source, target], modifier[source, target] = seen, mods
            if symmetry == "none":
                continue
            visible[target, source] = seen
            if symmetry == "verdict":
                modifier[target, source] = mods
                continue
            # "visibility": the visible lines back, for their modifier (blocked: 0)
            back = derive(shape, band.built()[_reversed_rows(shape, band, group)])
            keep = np.flatnonzero(seen)
            pairs = (target[keep], source[keep])
            modifier[pairs] = sweep.pairs(back, which[keep], pairs)[1]
    return visible, modifier


def _reversed_rows(shape: BoardShape, band: Band, group: Ints) -> Ints:
    """The rows of the templates of ``-d`` of the band's ``group`` (the same distance: the
    same band)."""
    off_q, off_r = band.off_q[group], band.off_r[group]
    rows: Ints = shape.row_of[-off_q - shape.offset_q0, -off_r - shape.offset_r0]
    return rows
