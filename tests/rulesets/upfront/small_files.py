"""Small deck and personality files for hand-computed Up Front cases (pages 2 and 4)."""

from __future__ import annotations

from pathlib import Path

MEN = """
title = "test personalities"
[[man]]
id = "gun"
nationality = "american"
rank = "vehicle"
weapon = "gun"
firepower = [1, 2, 3, 4, 5, 6]
morale = 5
panic = 6
rout = 9
malfunction = 6
to_hit = [2, 3, 4, 5, 6, 6]
[man.afv]
armour = { k = 9, s = 8, i = 7 }
flank = { k = 7, s = 6, i = 5 }
ce = 6
ovr = 8
turret = true
open_topped = false
boxed = true

[[man]]
id = "stug"
nationality = "german"
rank = "vehicle"
weapon = "gun"
firepower = [1, 2, 3, 4, 5, 6]
morale = 5
panic = 6
rout = 9
malfunction = 6
to_hit = [2, 3, 4, 5, 6, 6]
[man.afv]
armour = { k = 9, s = 8, i = 7 }
flank = { k = 7, s = 6, i = 5 }
ce = 6
ovr = 8
turret = false
open_topped = false
boxed = true

[[man]]
id = "halftrack"
nationality = "german"
rank = "vehicle"
weapon = "gun"
firepower = [1, 1, 1, 1, 1, 1]
morale = 4
panic = 5
rout = 9
to_hit = [2, 2, 2, 2, 2, 2]
[man.afv]
armour = { k = 7, s = 6, i = 6 }
flank = { k = 5, s = 4, i = 4 }
ce = 5
ovr = 6
turret = false
open_topped = true
boxed = false

[[man]]
id = "mortar"
nationality = "american"
rank = "private"
weapon = "mortar"
firepower = [2, 2, 3, 3, 4, 4]
morale = 4
panic = 5
rout = 6
malfunction = 6
to_hit = [3, 3, 4, 4, 5, 5]
kia = 7

[[man]]
id = "rifle"
nationality = "american"
rank = "private"
weapon = "rifle"
firepower = [1, 1, 2, 2, 3, 3]
morale = 4
panic = 5
rout = 6
kia = 8
"""


def men_file(tmp_path: Path) -> str:
    """The test personalities, written to ``tmp_path``."""
    path = tmp_path / "men.toml"
    path.write_text(MEN, encoding="utf-8")
    return str(path)


def deck_file(tmp_path: Path, rns: list[str], rpn7: list[int] | None = None) -> str:
    """A deck of movement cards numbered 1.. with these RNs (``"5b"``, ``"3r"``) and RPN
    column 7 (0 unless given; every other RPN 0 black)."""
    body = ['title = "test deck"', 'columns = ["0r","1","2b","3","4c","5o","6","7","8","9"]']
    for number, rn in enumerate(rns, 1):
        seven = rpn7[number - 1] if rpn7 else 0
        rpn = ", ".join(f'"{seven if column == 7 else 0}b"' for column in range(10))
        body += [
            "[[card]]",
            f"number = {number}",
            'kind = "movement"',
            f'rn = "{rn}"',
            f"rpn = [{rpn}]",
        ]
    path = tmp_path / f"deck{len(list(tmp_path.glob('deck*')))}.toml"
    path.write_text("\n".join(body) + "\n", encoding="utf-8")
    return str(path)


_RIFLEMAN = """
[[man]]
id = "{prefix}{i}"
nationality = "{nationality}"
rank = "private"
weapon = "rifle"
firepower = [1, 1, 2, 2, 3, 3]
morale = {morale}
panic = {panic}
rout = {rout}
malfunction = 6
kia = {kia}
"""
_PZ = """
[[man]]
id = "pz"
nationality = "german"
rank = "vehicle"
weapon = "gun"
firepower = [2, 3, 3, 4, 4, 5]
morale = 5
panic = 6
rout = 9
malfunction = 6
to_hit = [3, 4, 4, 5, 5, 6]
[man.afv]
armour = { k = 9, s = 8, i = 7 }
flank = { k = 7, s = 6, i = 5 }
ce = 6
ovr = 8
turret = true
open_topped = false
boxed = true
"""


def group_men(
    count: int, *, distinct: bool = True, prefix: str = "us", nationality: str = "american"
) -> str:
    """A personality file of ``count`` riflemen (``{prefix}0``, ``{prefix}1``, ...: of distinct
    profiles, KIA 6-9, morale 2-6, panic 3-7, rout 4-6, or all alike) and a Pz IV (``pz``, OVR
    8): a full group for the walks' caps and budgets."""
    text = 'title = "test group"\n'
    for i in range(count):
        values = (
            {"kia": 6 + i % 4, "morale": 2 + i % 5, "panic": 3 + i % 5, "rout": 4 + i % 3}
            if distinct
            else {"kia": 8, "morale": 4, "panic": 5, "rout": 6}
        )
        text += _RIFLEMAN.format(i=i, prefix=prefix, nationality=nationality, **values)
    return text + _PZ
