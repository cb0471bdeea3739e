"""Up Front benchmark: exact odds of page 8's infiltration attempts with a Hero (issue 14's
open item: up to 10 men of distinct morale, each at most 1 s, aim 0.1 s), before and after,
in one run.

* **counted apart** (``INFILTRATION.odds``, rulesets/upfront/infiltration_walk.py): the
  morale checks by morale, then the RPNCs' colours, split where the pile runs out. Groups of
  1 to 10 riflemen (ILLUSTRATIVE values) of seven morale classes (morale 0 to 6 in a mixed
  order: as distinct as RN 0-6 can tell), a Hero in play, the count's column 3, over the
  ILLUSTRATIVE deck: the 162-card observer pool, and a 20-card pool (142 cards seen: the pile
  runs out in the middle of the attempts and the discards are reshuffled), and the same with
  reshuffle = end_attack.
* **card by card** (``benchmarks/infiltration_before.py``, the walk before): the same groups
  up to 4 men in the same run (about 15 s for 4; 5 men took 186 s, measured apart), its odds
  checked equal.

Run with ``.venv/bin/python benchmarks/infiltration.py`` (in ``make bench``, ~25 s); prints a
table; a missed target prints MISSED and the exit code is 0 all the same.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from firefight.rulesets.upfront.infiltration import INFILTRATION, UpFrontInfiltration
from infiltration_before import infiltration_odds_before
from upfront import best_of

TARGET_S = 1.0
AIM_S = 0.1
MORALE = (3, 0, 5, 1, 6, 2, 4, 5, 1, 3)
MAN = """
[[man]]
id = "m{i}"
nationality = "german"
rank = "private"
weapon = "rifle"
firepower = [1, 1, 2, 2, 3, 3]
morale = {morale}
panic = 5
rout = 6
"""
BEFORE_MEN = 4


def attempt(men: Path, count: int, **extra: object) -> UpFrontInfiltration:
    ids = ",".join(f"m{i}" for i in range(count))
    return UpFrontInfiltration(
        men=str(men), infiltrators=ids, hero=True, unpinned_defenders=3, **extra
    )


def verdict(seconds: float) -> str:
    if seconds > TARGET_S:
        return "MISSED"
    return "met (aim 0.1 s met)" if seconds <= AIM_S else "met (aim 0.1 s missed)"


def row(label: str, inp: UpFrontInfiltration) -> tuple[str, str, str]:
    """Time the walk counted apart on ``inp`` and, up to BEFORE_MEN men, the walk card by
    card on the same input (their odds must be equal)."""
    INFILTRATION.odds(inp)  # load the files and build the pool once
    seconds = best_of(lambda: INFILTRATION.odds(inp), repeat=3)
    note = verdict(seconds)
    if len(inp.infiltrators.split(",")) <= BEFORE_MEN:
        assert dict(infiltration_odds_before(inp)) == dict(INFILTRATION.odds(inp)), "disagree"
        before = best_of(lambda: infiltration_odds_before(inp), repeat=1)
        note += f"; card by card {before * 1000:.0f} ms, x{before / seconds:.0f}"
    elif "seen" not in inp.model_fields_set:
        note += "; card by card not run (5 men took 186 s, growing x13 a man)"
    return label, f"{seconds * 1000:.1f} ms", note


def main() -> None:
    rows: list[tuple[str, str, str]] = []
    with tempfile.TemporaryDirectory() as folder:
        men = Path(folder) / "men.toml"
        text = 'title = "benchmark infiltrators"\nillustrative = true\n'
        text += "".join(MAN.format(i=i, morale=m) for i, m in enumerate(MORALE))
        men.write_text(text, encoding="utf-8")
        small = ",".join(str(n) for n in range(1, 143))  # 20 cards left to draw
        rows.extend(
            row(f"{count} men, 162-card pool", attempt(men, count)) for count in (1, 2, 3, 4, 10)
        )
        for label, extra in (
            ("20-card pool, reshuffled", {"seen": small}),
            ("20-card pool, end_attack", {"seen": small, "reshuffle": "end_attack"}),
        ):
            rows.extend(
                row(f"{count} men, {label}", attempt(men, count, **extra)) for count in (3, 10)
            )
    width = max(len(r[0]) for r in rows)
    print(
        "Up Front: exact odds of infiltration with a Hero, seven morale classes "
        f"(target {TARGET_S:.0f} s, aim {AIM_S * 1000:.0f} ms)"
    )
    for label, value, note in rows:
        print(f"  {label:<{width}}  {value:>10}  {note}")


if __name__ == "__main__":
    main()
