"""Up Front benchmark: exact odds of a firepower attack's resolution on a 10-man group over a
162-card pool (issue 14: target 100 ms), against prefix replay and sampling, in one run.

* **pool states** (``RESOLUTION.odds``: the men walked over pool states, equal states merged,
  each man's draw one compiled step, rulesets/upfront/kernel.py): a 10-man squad of identical
  riflemen, firepower attack with the malfunction check, over the ILLUSTRATIVE deck (observer:
  162 cards, none seen). Also a squad of two alternating profiles, a squad of ten distinct
  profiles (KIA, morale, panic and rout all differ), and each of the three with smoke in play
  (BREEZE makes the draws depend on each other), each against the same target (met or
  MISSED), and against the same walk in Python (``benchmarks/upfront_before.py``, the code
  before issue 14 compiled it) in the same run, as a ratio; both must give equal odds.
* **overrun** (page 7, ``overrun_odds``: the FS card by FFS, then every card one compiled step,
  rulesets/upfront/overrun_walk.py): a Pz IV (OVR 8) on the ten distinct profiles, and with a
  TMM on the tenth man in woods, against the Python walk it replaced
  (``benchmarks/overrun_before.py``) in the same run: the same attack, and for the TMM the 3
  men that walk was limited to (10 were out of its reach); both must give equal odds.
* **prefix replay** (``exact()`` re-running the rule once per prefix of cards): timed on 1 and
  2 men, extrapolated to 10 by its measured growth per man (labelled so: 10 men would take
  years).
* **sampling** (the rule run with a seeded generator, ``sample_many``): 2,000 runs timed, and
  the half-width of the 95 % interval it gives on P(no KIA) next to the exact answer.
* **page 6 walk** (``malfunction = page6``: a malfunction goes through page 6, whose FFS cuts,
  weapons' states and selection cards make every man's draw depend on the ones before):
  fire by an LMG (malfunction 5) and a rifle (6), or by those and an MP (4), smoke in play,
  on growing groups of the squad's riflemen over the 162-card pool, and on ten men over a
  known 12-card pile (omniscient), against the walk before issue 14's rework
  (``benchmarks/upfront_page6_before.py``, refused past 200,000 states) in the same run;
  both must give equal odds.

Run with ``.venv/bin/python benchmarks/upfront.py`` (in ``make bench``); prints a table; a
missed target prints MISSED and the exit code is 0 all the same.
"""

from __future__ import annotations

import math
import tempfile
import time
from pathlib import Path

from firefight.chance import exact, sample_many
from firefight.errors import RuleError
from firefight.rulesets.upfront.fire import RESOLUTION
from firefight.rulesets.upfront.malfunction_walk import firers_of, page6_group_odds
from firefight.rulesets.upfront.overrun import overrun_odds
from firefight.rulesets.upfront.overrun_attack import UpFrontOverrun
from firefight.rulesets.upfront.paths import ILLUSTRATIVE_MEN
from firefight.rulesets.upfront.resolution import (
    UpFrontResolution,
    malfunction_numbers,
    resolution_firers,
    targets,
)
from overrun_before import overrun_odds_before
from upfront_before import group_odds_before
from upfront_page6_before import page6_group_odds_before

TARGET_S = 0.100
MEN = 10
RIFLEMAN = """
[[man]]
id = "r{i}"
nationality = "german"
rank = "private"
weapon = "rifle"
firepower = [1, 1, 2, 2, 3, 3]
morale = {morale}
panic = {panic}
rout = {rout}
malfunction = 6
kia = 8
"""


DISTINCT = """
[[man]]
id = "r{i}"
nationality = "german"
rank = "private"
weapon = "rifle"
firepower = [1, 1, 2, 2, 3, 3]
morale = {morale}
panic = {panic}
rout = {rout}
malfunction = 6
kia = {kia}
"""


FIRERS = """
[[man]]
id = "f-lmg"
nationality = "german"
rank = "private"
weapon = "lmg"
firepower = [3, 4, 4, 5, 5, 6]
bracketed = [2, 2, 3, 3, 4, 4]
morale = 4
panic = 5
rout = 6
malfunction = 5
crew = "gunner"
kia = 8

[[man]]
id = "f-rifle"
nationality = "german"
rank = "private"
weapon = "rifle"
firepower = [1, 1, 2, 2, 3, 3]
morale = 4
panic = 5
rout = 6
malfunction = 6
kia = 8

[[man]]
id = "f-mp"
nationality = "german"
rank = "leader"
weapon = "mp"
firepower = [0, 1, 2, 3, 4, 5]
morale = 5
panic = 6
rout = 7
malfunction = 4
kia = 9
"""
"""The firing men of the page 6 rows (ILLUSTRATIVE values): weapons of malfunction numbers 5,
6 and 4."""
PAGE6_PILE = "3,14,17,29,31,45,1,2,4,5,6,7"
"""A known draw pile for the 10-man page 6 row: red RN 6, 5 and 4 cards, a BREEZE, plain ones."""


def squad(folder: Path, name: str, alternate: bool, distinct: bool = False) -> Path:
    """A men file of ten riflemen (ILLUSTRATIVE values): one profile, two alternating, or ten
    distinct ones (KIA 6-9, morale 2-6, panic 3-7, rout 4-6: no two men alike); and the
    page 6 rows' firers."""
    text = 'title = "benchmark squad"\nillustrative = true\n' + FIRERS
    for i in range(MEN):
        low = alternate and i % 2
        if distinct:
            text += DISTINCT.format(
                i=i, kia=6 + i % 4, morale=2 + i % 5, panic=3 + i % 5, rout=4 + i % 3
            )
            continue
        text += RIFLEMAN.format(
            i=i, morale=3 if low else 4, panic=4 if low else 5, rout=5 if low else 6
        )
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def afv_entry() -> str:
    """The ILLUSTRATIVE Pz IV (OVR 8) as the shipped men file gives it."""
    text = ILLUSTRATIVE_MEN.read_text(encoding="utf-8")
    start = text.rindex("[[man]]", 0, text.index('id = "ger-pz4"'))
    end = text.find("[[man]]", start + 1)
    return "\n" + text[start : end if end >= 0 else len(text)]


def overrun(men: Path, count: int = MEN, **fields: object) -> UpFrontOverrun:
    """An ILLUSTRATIVE Pz IV (OVR 8) overrunning the squad (page 7)."""
    with_afv = men.with_name(men.stem + "_afv.toml")
    if not with_afv.exists():
        with_afv.write_text(men.read_text(encoding="utf-8") + afv_entry(), encoding="utf-8")
    targets = ",".join(f"r{i}" for i in range(count))
    return UpFrontOverrun(men=str(with_afv), afv="ger-pz4", targets=targets, **fields)


def overrun_rows(ten: Path) -> list[tuple[str, str, str]]:
    """Page 7 on ten distinct profiles, with and without a TMM, against the Python walk it
    replaced (``benchmarks/overrun_before.py``) in the same run: on the same attack, and with
    a TMM on the 3 men that walk was limited to (it took 28 s for 5)."""
    rows = []
    plain = overrun(ten)
    overrun_odds(plain)
    seconds = best_of(lambda: overrun_odds(plain), repeat=3)
    start = time.perf_counter()
    assert dict(overrun_odds_before(plain)) == dict(overrun_odds(plain)), "the walks disagree"
    baseline = time.perf_counter() - start
    rows.append(
        (
            "overrun, 10 distinct men",
            f"{seconds * 1000:.1f} ms",
            f"Python walk {baseline:.2f} s, x{baseline / seconds:.0f}; target 1 s",
        )
    )
    tmm = overrun(ten, tmm="r9", defender_terrain="woods")
    overrun_odds(tmm)
    seconds = best_of(lambda: overrun_odds(tmm), repeat=3)
    # the walk before read no adverse effect on a card whose malfunction ends the attack
    three = overrun(ten, 3, tmm="r2", defender_terrain="woods", adverse_on_malfunction="skipped")
    start = time.perf_counter()
    assert dict(overrun_odds_before(three)) == dict(overrun_odds(three)), "the walks disagree"
    baseline = time.perf_counter() - start
    rows.append(
        (
            "overrun with TMM, 10 men",
            f"{seconds * 1000:.1f} ms",
            f"Python walk: 3 men {baseline:.2f} s (its cap; 10 men out of its reach)",
        )
    )
    return rows


def attack(men: Path, count: int = MEN, smoke: int = 0) -> UpFrontResolution:
    targets = ",".join(f"r{i}" for i in range(count))
    return UpFrontResolution(men=str(men), ffs=3, rr=5, targets=targets, firers="r0", smoke=smoke)


def best_of(function, repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def cold_odds(inp: UpFrontResolution) -> float:
    """Time the exact odds with the group-odds cache out of the way (a fresh input each time
    is not possible: the odds are not cached per input here, only the pool is)."""
    return best_of(lambda: RESOLUTION.odds(inp), repeat=3)


def before(inp: UpFrontResolution) -> float:
    """Time the walk in Python (the baseline) on the same attack; its odds must be equal."""
    men = inp.men_data()
    group = targets(inp, men)
    numbers = malfunction_numbers(inp, men, resolution_firers(inp, men)[1])
    walk = group_odds_before(inp, inp.ffs, inp.rr, group, numbers)
    single = len(group) == 1
    assert dict(walk.outcomes(single)) == dict(RESOLUTION.odds(inp)), "the walks disagree"
    return best_of(lambda: group_odds_before(inp, inp.ffs, inp.rr, group, numbers), repeat=1)


def page6(inp: UpFrontResolution) -> tuple[float, str]:
    """Time the page 6 walk on ``inp`` and the walk before (equal odds, or its refusal)."""
    men = inp.men_data()
    group = targets(inp, men)
    firers = firers_of(inp, resolution_firers(inp, men)[0])
    seconds = best_of(lambda: page6_group_odds(inp, inp.ffs, inp.rr, group, firers), repeat=1)
    walk = page6_group_odds(inp, inp.ffs, inp.rr, group, firers)
    start = time.perf_counter()
    try:
        old = page6_group_odds_before(inp, inp.ffs, inp.rr, group, firers)
    except RuleError:
        refused = time.perf_counter() - start
        return seconds, f"before: refused after {refused:.1f} s (past 200,000 states)"
    baseline = time.perf_counter() - start
    assert dict(old.tally) == dict(walk.tally), "the page 6 walks disagree"
    assert [dict(m) for _, m in old.men] == [dict(m) for _, m in walk.men], "on a man's odds"
    return seconds, f"before: {baseline:.3f} s, x{baseline / seconds:.1f}"


def page6_rows(one: Path, two: Path) -> list[tuple[str, str, str]]:
    """The page 6 walk's rows: growing groups over the 162-card pool, ten men over a pile."""
    rows = []
    for firers, counts in (("f-lmg,f-rifle", (3, 4, 5, 6)), ("f-lmg,f-rifle,f-mp", (2, 3))):
        for count in counts:
            inp = UpFrontResolution(
                men=str(one),
                ffs=3,
                rr=5,
                targets=",".join(f"r{i}" for i in range(count)),
                firers=firers,
                smoke=-2,
                malfunction="page6",
            )
            seconds, note = page6(inp)
            weapons = firers.count(",") + 1
            label = f"page 6 walk, {weapons} weapons, {count} men, smoke, 162 cards"
            rows.append((label, f"{seconds * 1000:.0f} ms", note))
    inp = UpFrontResolution(
        men=str(two),
        pool="omniscient",
        pile=PAGE6_PILE,
        reshuffle="end_attack",
        ffs=3,
        rr=5,
        targets=",".join(f"r{i}" for i in range(MEN)),
        firers="f-lmg,f-rifle",
        smoke=-2,
        malfunction="page6",
    )
    seconds, note = page6(inp)
    label = "page 6 walk, 2 weapons, 10 men of two profiles, smoke, a 12-card pile"
    rows.append((label, f"{seconds * 1000:.0f} ms", note))
    return rows


def main() -> None:
    rows: list[tuple[str, str, str]] = []
    with tempfile.TemporaryDirectory() as folder:
        one = squad(Path(folder), "one.toml", alternate=False)
        two = squad(Path(folder), "two.toml", alternate=True)
        ten = squad(Path(folder), "ten.toml", alternate=False, distinct=True)
        RESOLUTION.odds(attack(one))  # load the files and build the pool once
        pool_states = cold_odds(attack(one))
        verdict = "met" if pool_states <= TARGET_S else "MISSED"
        baseline = before(attack(one))
        rows.append(
            (
                "10 identical riflemen, pool states",
                f"{pool_states * 1000:.1f} ms",
                f"{verdict}; Python walk {baseline * 1000:.0f} ms, x{baseline / pool_states:.1f}",
            )
        )
        for label, inp in (
            ("10 men, two profiles", attack(two)),
            ("10 identical men, smoke and BREEZE", attack(one, smoke=-2)),
            ("10 men, two profiles, smoke and BREEZE", attack(two, smoke=-2)),
            ("10 men, ten distinct profiles", attack(ten)),
            ("10 men, ten distinct profiles, smoke and BREEZE", attack(ten, smoke=-2)),
        ):
            RESOLUTION.odds(inp)
            seconds = cold_odds(inp)
            verdict = "met" if seconds <= TARGET_S else "MISSED"
            baseline = before(inp)
            rows.append(
                (
                    f"{label}, pool states",
                    f"{seconds * 1000:.1f} ms",
                    f"{verdict}; Python walk {baseline * 1000:.0f} ms, x{baseline / seconds:.1f}",
                )
            )
        rows.extend(overrun_rows(ten))
        replay = []
        for count in (1, 2):
            inp = attack(one, count)
            seconds = best_of(lambda inp=inp: exact(lambda c: RESOLUTION.rule(inp, c)), 1)
            fast = dict(RESOLUTION.odds(inp))
            assert fast == dict(exact(lambda c, inp=inp: RESOLUTION.rule(inp, c)))
            replay.append(seconds)
            rows.append((f"prefix replay, {count} men (measured)", f"{seconds:.3f} s", ""))
        growth = replay[1] / replay[0]
        extrapolated = replay[-1] * growth ** (MEN - 2)
        rows.append(
            (
                "prefix replay, 10 men (extrapolated)",
                f"{extrapolated:.3g} s (x{growth:.0f} per man)",
                f"{extrapolated / pool_states:.3g}x slower",
            )
        )
        rows.extend(page6_rows(one, two))
        inp = attack(one)
        exact_odds = RESOLUTION.odds(inp)
        no_kia = sum(p for outcome, p in exact_odds.items() if outcome.startswith("KIA 0,"))
        runs = 2000
        start = time.perf_counter()
        outcomes = sample_many(lambda c: RESOLUTION.rule(inp, c), 1, runs)
        sampling = time.perf_counter() - start
        share = sum(1 for o in outcomes if o.startswith("KIA 0,")) / runs
        half = 1.96 * math.sqrt(share * (1 - share) / runs)
        rows.append(
            (
                f"sampling, {runs:,} runs",
                f"{sampling:.2f} s",
                f"P(no KIA) {share:.3f} +/- {half:.3f}; exact {float(no_kia):.4f}",
            )
        )
    width = max(len(r[0]) for r in rows)
    print(
        f"Up Front: exact odds over {MEN} men and a 162-card pool (target {TARGET_S * 1000:.0f} ms)"
    )
    for label, value, note in rows:
        print(f"  {label:<{width}}  {value:>28}  {note}")


if __name__ == "__main__":
    main()
