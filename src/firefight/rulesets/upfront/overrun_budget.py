"""What page 7's exact odds pay the web's work budget (:func:`firefight.chance.spend`).

The overrun's odds are worked out in four kinds of work (:mod:`.overrun`,
:mod:`.overrun_walk`), each priced by what it does and paid before it is done, so that an
overrun past the budget is refused before the work (past it by one compiled step at most),
not after it, and a step costs about what a step of page 3's walk
(:data:`.walk.DRAWS_PER_STEP` pair-groups) costs:

* the readings (:func:`reading_steps`): every card kind of the pool read at every FFS the
  FS card can give (page 7: "FFS = OVR + RNC"), for each man his page 3 result with smoke in
  play and without, whether he fights back and the adverse effects on the AFV (Red 6, Red 5
  on an open-topped AFV, the heroic variants), and the card's TMM result; paid at once before
  any card is read;
* each FFS's walk (:data:`WALK_STEPS`): its card groups, its first level (the pools the FS
  cards leave) and the gathering of its finished paths; paid before the walks;
* each draw: as it begins (:func:`draw_steps`: a man's card, a TMM card), its tables (one
  move for each card group) and the compiled step over its (pool state, tally) pairs times
  card groups; once the step is made (:func:`made_steps`), the states it made (each found or
  added by its counts) and the levels' work on the pairs it left (split off the ended
  attack, gathered, compacted), before that work;
* between draws, before it is done: the tallies that draw no TMM card split off at a TMM
  card (:data:`SPLIT_PAIRS_PER_STEP`) and their states counted in the next draw's card
  groups (:data:`SPLIT_CELLS_PER_STEP`), and levels merged into one, equal states and
  tallies added (:data:`MERGED_PAIRS_PER_STEP`).

Each price is measured against the walk's own work in CPU time on the benchmark's cases and
on overruns of 1 to 10 men with and without smoke and TMMs (docs/upfront.md, "Work budget").
"""

from __future__ import annotations

from firefight.chance import spend

__all__ = [
    "DRAW_STEPS",
    "GROUP_STEPS",
    "MERGED_PAIRS_PER_STEP",
    "OVERRUN_DRAWS_PER_STEP",
    "PAIRS_PER_STEP",
    "READING_CARD_UNITS",
    "READING_UNITS_PER_STEP",
    "SPLIT_CELLS_PER_STEP",
    "SPLIT_PAIRS_PER_STEP",
    "STATES_PER_STEP",
    "WALK_STEPS",
    "charge_draw",
    "charge_made",
    "charge_merge",
    "charge_readings",
    "charge_split",
    "charge_walks",
    "draw_steps",
    "made_steps",
    "reading_steps",
]

OVERRUN_DRAWS_PER_STEP = 2048
"""How many (pool state, tally) pairs times card groups of a draw's compiled step pay for one
step (the groups counted at the draw's widest, as :func:`.kernel.advance` holds them)."""
STATES_PER_STEP = 16
"""How many pool states a draw's compiled step makes pay for one step: each is found among
the states already made, or added, by its counts (one exact key)."""
PAIRS_PER_STEP = 1024
"""How many (pool state, tally) pairs a compiled step leaves pay for one step of the levels'
work on them: the ended attack split off and gathered, the tallies compacted, the counts
padded for the next draw."""
SPLIT_PAIRS_PER_STEP = 128
"""How many pairs at a TMM card pay for one step of splitting off the tallies that draw none
(no red RN)."""
SPLIT_CELLS_PER_STEP = 256
"""How many of a level's cells (its states times its card groups' columns) at a TMM card pay
for one step of counting the states of the tallies split off in the next draw's groups."""
MERGED_PAIRS_PER_STEP = 32
"""How many pairs merged into one level (the tallies that drew a TMM card and those that did
not, or a refilled pool's) pay for one step: the states sorted by their counts, the pairs by
state and tally, equal ones added."""
DRAW_STEPS = 9
"""The steps every draw pays whatever its size: its tables, the tallies after each result
column (:func:`.draws.with_next_tally`), the levels split, merged and compacted."""
GROUP_STEPS = 2
"""The steps a draw pays for each card group it reads (one move built for each, and its
result column)."""
WALK_STEPS = 5
"""The steps each FFS's walk pays before its first draw: its card groups at every draw, its
first level and the gathering of its paths."""
READING_CARD_UNITS = 3
"""A card kind's reading at one FFS, in units of one man's reading on it (its malfunction
check, BREEZE and TMM result read once for all the men)."""
READING_UNITS_PER_STEP = 6
"""How many units of readings pay for one step: a unit is one man's page 3 result on one card
at one FFS, with smoke in play and without, and the adverse effects read on it."""


def reading_steps(cards: int, men: int) -> int:
    """The steps the readings of ``cards`` card kinds (the pool's kinds times the FFS values)
    by ``men`` men cost: one step at least."""
    return cards * (men + READING_CARD_UNITS) // READING_UNITS_PER_STEP + 1


def charge_readings(cards: int, men: int) -> None:
    """Pay the web's work budget for the readings (:func:`reading_steps`), before any is
    read."""
    spend(reading_steps(cards, men))


def charge_walks(walks: int) -> None:
    """Pay the web's work budget for ``walks`` FFS walks' fixed work, before the first."""
    spend(walks * WALK_STEPS)


def draw_steps(pair_groups: int, groups: int) -> int:
    """The steps one draw costs as it begins: ``pair_groups`` (pool state, tally) pairs times
    card groups, reading ``groups`` card groups."""
    return DRAW_STEPS + GROUP_STEPS * groups + pair_groups // OVERRUN_DRAWS_PER_STEP


def charge_draw(pair_groups: int, groups: int) -> None:
    """Pay the web's work budget for one draw (:func:`draw_steps`), as it begins."""
    spend(draw_steps(pair_groups, groups))


def made_steps(states: int, pairs: int) -> int:
    """The steps of a compiled step that made ``states`` pool states and left ``pairs``
    pairs, and of the levels' work on them."""
    return states // STATES_PER_STEP + pairs // PAIRS_PER_STEP


def charge_made(states: int, pairs: int) -> None:
    """Pay the web's work budget for what a compiled step made (:func:`made_steps`), before
    the levels' work on it."""
    spend(made_steps(states, pairs))


def charge_split(pairs: int, cells: int) -> None:
    """Pay the web's work budget for splitting a level of ``pairs`` pairs and ``cells``
    cells at a TMM card, before it."""
    spend(pairs // SPLIT_PAIRS_PER_STEP + cells // SPLIT_CELLS_PER_STEP)


def charge_merge(pairs: int) -> None:
    """Pay the web's work budget for merging levels of ``pairs`` pairs in all, before it."""
    spend(pairs // MERGED_PAIRS_PER_STEP)
