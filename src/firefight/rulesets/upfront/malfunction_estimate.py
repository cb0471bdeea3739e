"""How much work the page 6 walk (:mod:`.malfunction_walk`) will do, estimated from the input
before any of it is done, so that an input far past the work allowed is refused at once.

The walk's work at a man is its *moves*: each mode's draw of each card group, and of each
selection card's group and RPN where page 6 draws one ("Only one weapon affected with
RNC?" answered no). What multiplies the modes is the selection cards seen (``Mode.seen``,
kept while another selection can happen): every multiset of them is its own mode. So the
estimate walks the modes' *cores* alone (FFS, smoke, the weapons' states, and how many
selection cards are seen), page 6's boxes read on one card of each (RN, BREEZE) signature,
and counts the seen multisets a core stands for by combinatorics: ``j`` cards seen among
``P`` (kind, RPN) pairs are at most C(P + j - 1, j) multisets. A core's moves are its card
groups, a group that draws a selection card counting once per (group, RPN) the selection
card can show. The counts of cards left never enter: the estimate is an upper bound on the
modes' moves where the pool is large (every mode reachable), a close one where the
selection cards seen are what tells the modes apart.
"""

from __future__ import annotations

from firefight.rulesets.upfront.malfunction_kinds import Attack

__all__ = ["Core", "moves_estimate"]

Core = tuple[int, bool, tuple[int, ...], int]
"""A mode's core: FFS, smoke in play, the weapons' states, selection cards seen."""


def _signatures(attack: Attack, position: int) -> dict[tuple[int, bool], tuple[int, int]]:
    """The card groups at man ``position`` by what page 6 and BREEZE read of them (the
    malfunction RN, -1 for none; BREEZE with smoke): a representative kind of each and how
    many groups."""
    found: dict[tuple[int, bool], tuple[int, int]] = {}
    for kind in attack.cut.first[position]:
        key = (attack.rn[kind], attack.breeze[kind])
        first, groups = found.get(key, (kind, 0))
        found[key] = (first, groups + 1)
    return found


def _selection_ways(attack: Attack, position: int) -> tuple[int, list[int]]:
    """The ways a selection card drawn at man ``position`` can show (card group and RPN,
    one per group whose cards all show one RPN) and, per man it selects, the (kind, RPN)
    pairs a mode can keep as seen (kinds of two RPNs or more)."""
    ways = 0
    pairs = [0] * len(attack.firers)
    for rpns in attack.group_rpns(attack.cut, position, 0):
        shown = sum(1 for cards in rpns if cards)
        ways += max(shown, 1)
        for pick, cards in enumerate(rpns):
            pairs[pick] += 1 if cards and shown > 1 else 0
    return ways, pairs


def _after(  # noqa: PLR0917 - a core and the card read on it
    attack: Attack, position: int, core: Core, kind: int, chosen: int, selected: bool
) -> Core | None:
    """The core after page 6 on man ``chosen`` (None: the attack ended)."""
    ffs, smoke, weapons, seen = core
    move = attack.outcome(position, kind, chosen, ffs, smoke, weapons)
    if move is None:
        return None
    _, _, level, smoke_after, after = move
    kept = seen + selected if attack.can_select(after) else 0
    return level, smoke_after, after, kept


def _successors(
    attack: Attack, position: int, core: Core, checks: bool
) -> tuple[dict[Core, int], int]:
    """The cores one draw leads to from a mode of ``core``, each with the modes it stands
    for there (a selection card seen: one a (kind, RPN) pair selecting its man), and the
    moves the draw takes."""
    ffs, smoke, weapons, _ = core
    ways, pairs = _selection_ways(attack, position)
    found: dict[Core, int] = {}
    moves = attack.cut.groups[position]
    for kind, alike in _signatures(attack, position).values():
        if not (checks and attack.malfunctions(kind, weapons)):
            _, _, level, smoke_after, _ = attack.read(position, kind, ffs, smoke, weapons)  # type: ignore[misc]
            found.setdefault((level, smoke_after, weapons, core[3]), 1)
            continue
        reached = attack.reached(kind, weapons)
        if len(reached) == 1 or attack.readings.select == "lowest_malf":
            now = attack.now(weapons)
            chosen = min(reached, key=lambda q: (now[q].man.malfunction or 0, q))
            after = _after(attack, position, core, kind, chosen, False)
            if after is not None:
                found.setdefault(after, 1)
            continue
        moves += alike * (ways - 1)  # these groups' selection ways besides their one move
        for chosen in range(len(attack.firers)):
            after = _after(attack, position, core, kind, chosen, True)
            if after is not None:
                seen = pairs[chosen] if after[3] and pairs[chosen] else 1
                found[after] = max(found.get(after, 0), seen)
    return found, moves


def moves_estimate(attack: Attack, men: int, ffs: int, smoke: bool, limit: int) -> int:
    """The moves the walk would work out, summed over the men, estimated from the cores
    (see the module); it stops adding once past ``limit``, returning what it has."""
    checks = attack.inp.attack in ("firepower", "overrun")
    cores: dict[Core, int] = {(ffs, smoke, tuple(0 for _ in attack.firers), 0): 1}
    total = 0
    for position in range(men):
        after: dict[Core, int] = {}
        for core, modes in cores.items():
            found, moves = _successors(attack, position, core, checks)
            total += moves * modes
            for into, times in found.items():
                after[into] = after.get(into, 0) + modes * times
        if total > limit:
            break
        # with no selection card kept, modes differ only by the denominator: by how many
        # selection cards were drawn, at most one a man
        cores = {c: modes if c[3] else min(modes, position + 2) for c, modes in after.items()}
    return total
