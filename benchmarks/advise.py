"""Advisor benchmark: Up Front's best play from the hand (``firefight advise``), a 7-card hand
against 5 men over the 162-card ILLUSTRATIVE deck (target 1 s).

The advisor is new, so there is no baseline revision to check out (benchmarks/baseline.py):
its baseline is the plain per-play evaluation measured in the same run, every set of the
hand's FIRE cards (total at most the group's FP), with every CONCEALMENT and SMOKE of the
hand added or not, evaluated alone with the fire procedure's odds (``FIRE.odds``), as the
tests' brute-force twin does. Both must give the same best play and the same odds per play.
The caches of the fire's odds are emptied before each timed run (each run computes every
play), and the compiled walk is warmed on another input first (its start-up is not the
advisor's). Wall and CPU seconds are printed with the load average before and after; the
ratio is the figure where the machine is loaded.

Run with ``.venv/bin/python benchmarks/advise.py``; a missed target prints MISSED, the exit
code is 0 all the same.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from itertools import combinations
from typing import Any

from firefight.rulesets.upfront.advise import AdviseInput, advise, fire_input, play_input
from firefight.rulesets.upfront.fire import FIRE, fire_odds
from firefight.rulesets.upfront.firepower import fire_strength, is_fire_card

TARGET_S = 1.0
RUNS = 3
SITUATION: dict[str, Any] = {
    "firers": "ger-leader,ger-rifle-1,ger-rifle-2,ger-lmg,ger-assistant",
    "targets": "us-rifle,us-bar,jap-rifle,brit-rifle,ita-rifle",
    "rr": 2,
    "hand": "62,64,67,70,73,129,143",
}
"""A German squad with its leader at RR 2 (FP 10) holding five FIRE cards (1, 2, 3, 4, 6), a
CONCEALMENT and a SMOKE, against five men of five profiles, observer pool (155 cards)."""


def _timed(function: Callable[[], object]) -> tuple[float, float, object]:
    """The best wall and CPU seconds of :data:`RUNS` cold runs, and the last result."""
    best_wall = best_cpu = float("inf")
    result: object = None
    for _ in range(RUNS):
        fire_odds.cache_clear()
        wall, cpu = time.perf_counter(), time.process_time()
        result = function()
        best_wall = min(best_wall, time.perf_counter() - wall)
        best_cpu = min(best_cpu, time.process_time() - cpu)
    return best_wall, best_cpu, result


def per_play(inp: AdviseInput) -> dict[tuple[int, ...], Any]:
    """Every play listed and evaluated alone (the baseline): its odds by its cards."""
    deck = inp.deck_data()
    hand = [deck.card(n) for n in inp.hand]
    fire = [c for c in hand if is_fire_card(c, "german")]
    conceal = [None, *(c for c in hand if c.kind == "concealed")]
    smoke = [None, *(c for c in hand if c.kind == "smoke")]
    fp = FIRE.odds  # the plain procedure
    found = {}
    limit = advise_fp(inp)
    for size in range(1, len(fire) + 1):
        for chosen in combinations(fire, size):
            if sum(c.value or 0 for c in chosen) > limit:
                continue
            for c in conceal:
                for s in smoke:
                    numbers = tuple(x.number for x in chosen)
                    odds = fp(play_input(inp, numbers, c, s))
                    key = (*numbers, c.number if c else 0, s.number if s else 0)
                    found[key] = odds
    return found


def advise_fp(inp: AdviseInput) -> int:
    """The group's FP (page 1, as the advisor reads it)."""
    return fire_strength(fire_input(inp)).fp


def same_odds(plays: Any, listed: dict[tuple[int, ...], Any]) -> bool:
    """Each play of the advisor has the odds the baseline gives its cards."""
    for play in plays:
        if play.call_off:
            continue
        key = (*play.fire_cards, play.concealment or 0, play.smoke or 0)
        if dict(listed[key].items()) != dict(play.outcomes.items()):
            return False
    return True


def main() -> None:
    """Time the advisor and the per-play baseline; print the table."""
    load_before = os.getloadavg()
    inp = AdviseInput.model_validate(SITUATION)
    advise(AdviseInput.model_validate({**SITUATION, "rr": 3}))  # warm the compiled walk
    wall, cpu, advice = _timed(lambda: advise(inp))
    base_wall, base_cpu, listed = _timed(lambda: per_play(inp))
    plays = advice.plays  # type: ignore[attr-defined]
    best = plays[0]
    load_after = os.getloadavg()
    print(f"load average before {load_before[0]:.2f}, after {load_after[0]:.2f}")
    print(f"advisor: {len(plays)} plays ({len(listed)} listed by the baseline), best play")
    print(f"  FIRE {best.fire_cards} total {best.total}, E[VP] {float(best.expected_vp):.3f}")
    print(f"  equal odds per play: {same_odds(plays, listed)}")
    print("| case | advisor | per-play baseline | ratio | target 1 s |")
    print("|---|---|---|---|---|")
    verdict = "met" if wall <= TARGET_S else "MISSED"
    print(
        f"| best play, 7-card hand vs 5 men, 162 cards | {wall * 1000:.0f} ms wall, "
        f"{cpu * 1000:.0f} ms CPU | {base_wall * 1000:.0f} ms wall, {base_cpu * 1000:.0f} ms "
        f"CPU | x{base_wall / wall:.1f} | {verdict} |"
    )


if __name__ == "__main__":
    main()
