"""Page 1's Hero: x2 ("Hero (on uncrewable LMG req's RNC)" among the x2), x2 bracketed on an
LMG/MMG (reading ``hero_on_mg``, default ``doubled_bracketed``), and never below the man's FP
without the Hero (no line of page 1 lowers a man's FP for a Hero)."""

from __future__ import annotations

from itertools import product
from pathlib import Path

import pytest

from firefight.rulesets.upfront.fire import UpFrontFire, fire_strength

MEN = """
title = "test personalities"
[[man]]
id = "lmg-alone"
nationality = "german"
rank = "private"
weapon = "lmg"
firepower = [7, 7, 7, 7, 7, 7]
bracketed = [3, 3, 3, 3, 3, 3]
morale = 4
panic = 5
rout = 6
malfunction = 5
kia = 8

[[man]]
id = "mmg"
nationality = "german"
rank = "private"
weapon = "mmg"
firepower = [4, 5, 6, 7, 8, 9]
bracketed = [1, 2, 3, 3, 4, 4]
morale = 4
panic = 5
rout = 6
malfunction = 5
crew = "gunner"
kia = 8

[[man]]
id = "rifle"
nationality = "german"
rank = "private"
weapon = "rifle"
firepower = [1, 1, 2, 2, 3, 3]
morale = 4
panic = 5
rout = 6
kia = 8
"""


@pytest.fixture
def men(tmp_path: Path) -> str:
    path = tmp_path / "men.toml"
    path.write_text(MEN, encoding="utf-8")
    return str(path)


def _fp(men: str, man: str, **fields: object) -> tuple[int, str]:
    inp = UpFrontFire(men=men, firers=man, fire_cards="62", rr=3, **fields)  # type: ignore[arg-type]
    (row,) = fire_strength(inp).firers
    return row[1], row[2]


def test_a_hero_on_an_uncrewable_lmg_never_fires_below_the_man_alone(men: str):
    # FP 7, bracketed 3: x2 bracketed 6 and bracketed 3 are both below his own 7
    assert _fp(men, "lmg-alone")[0] == 7
    for reading in ("doubled_bracketed", "bracketed"):
        fp, why = _fp(men, "lmg-alone", hero="lmg-alone", hero_on_mg=reading)
        assert fp == 7
        assert "a Hero never lowers FP" in why


def test_a_hero_on_a_crewed_machine_gun_fires_x2_bracketed_by_default(men: str):
    # MMG at RR 3: FP 7, bracketed 3 -> x2 bracketed 6 < 7: 7; at RR 5: 9, [4] x2 = 8 < 9
    assert UpFrontFire().hero_on_mg == "doubled_bracketed"
    fp, why = _fp(men, "mmg", hero="mmg", mg_fully_crewed=False)
    assert (fp, why) == (6, "[3] Hero on an MG x2 Hero = 6")  # not fully crewed: [3] alone
    # ger-lmg (illustrative) at RR 3: FP 5, bracketed 3: x2 bracketed 6
    strength = fire_strength(UpFrontFire(fire_cards="67", hero="ger-lmg"))
    assert {m: fp for m, fp, _ in strength.firers}["ger-lmg"] == 6


@pytest.mark.parametrize(
    ("man", "reading", "flags"),
    list(
        product(
            ("lmg-alone", "mmg", "rifle"),
            ("doubled_bracketed", "bracketed"),
            (
                {},
                {"moving": True},
                {"mg_fully_crewed": False},
                {"stream_or_marsh": True},
                {"flanking": True},
                {"wounded_firers": "{man}"},
            ),
        )
    ),
)
def test_a_hero_never_lowers_firepower(men: str, man: str, reading: str, flags: dict[str, object]):
    fields = {k: (v.format(man=man) if isinstance(v, str) else v) for k, v in flags.items()}
    alone = _fp(men, man, hero_on_mg=reading, **fields)[0]
    assert _fp(men, man, hero=man, hero_on_mg=reading, **fields)[0] >= alone
