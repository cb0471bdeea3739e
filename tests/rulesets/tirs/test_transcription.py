"""Every chart of "Les tirs" against a second transcription: the seed's own text.

The text below is pasted verbatim from seed 001 (001_b10f447f4ca2861c.txt), re-wrapped only.
It is parsed here, independently of firefight's chart loader, and compared with the data files:
a typo in either cannot pass.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from firefight.core.chart import Chart, load_chart
from firefight.errors import ChartError
from firefight.rulesets.tirs.paths import DATA

PRECISION_TEXT = """Test de précision (D10)
Novice: 4
Entraîné: 5
Vétéran: 6"""

MODIFIERS_TEXT = """Modificateurs pour l’infanterie et armes de soutien :
La cadence de tir peut être modifiée par les facteurs suivants :
Portée courte : Cadence de tir multipliée par 2. (non applicable aux mortiers);
Portée longue : Cadence de tir divisée par 2. Arrondir à l’entier inférieur. (non applicable
aux mortiers);
Tireur en mouvement : Cadence de tir divisé par 2. Arrondir à l’entier inférieur. Impossible
pour les armes de soutien moyennes et lourdes.
Le résultat du jet de dé peut être modifié par les facteurs suivants :
Cible en mouvement : - 2 ;
Cible protégé par le terrain :Si la cible bénéficie de la protection du terrain, appliquer la
protection aux tirs ;
Cible camouflé : (La cible n’a pas été identifié, elle est représenté par un marqueur de
camouflage). + 3 ;
Tir d’une arme de soutien dirigé par un chef : (Le chef doit être en contact avec l’arme de
soutien). Appliquer au résultat du Dé, l’aptitude à commander du chef.
Le tireur est cloué : + 2."""

GROUP_TEXT = """Effets des tirs contre un groupe
1er élément cloué
2ème élément cloué
1er élément démoralisé
2ème élément démoralisé
1er élément éliminé
2ème élément éliminé"""

CREW_TEXT = """Effets des tirs contre PC et servants
Elément cloué
Elément démoralisé
Elément éliminé"""


def seed_precision() -> dict[str, str]:
    return dict(re.findall(r"^(\S+): (\d+)$", PRECISION_TEXT, re.M))


SEED_MODIFIER_NAMES = (
    "Portée courte",
    "Portée longue",
    "Tireur en mouvement",
    "Cible en mouvement",
    "Cible protégé par le terrain",
    "Cible camouflé",
    "Tir d'une arme de soutien dirigé par un chef",
    "Le tireur est cloué",
)


def seed_modifiers() -> dict[str, tuple[str, str]]:
    """Row -> (rate-of-fire effect, die effect) as the seed words them, read independently:
    each entry runs from ``Name :`` to the next entry's name."""
    text = " ".join(MODIFIERS_TEXT.replace("’", "'").split())
    starts = [text.index(f"{name} :") for name in SEED_MODIFIER_NAMES]
    rows: dict[str, tuple[str, str]] = {}
    for name, begin, end in zip(SEED_MODIFIER_NAMES, starts, [*starts[1:], len(text)], strict=True):
        body = text[begin + len(name) + 2 : end].split("Le résultat du jet")[0]
        cdt = "x2" if "multipliée par 2" in body else "/2" if "divis" in body else ""
        number = re.search(r"([+-]) ?(\d)", body)
        if number:
            die = number.group(1) + number.group(2)
        elif "appliquer la protection" in body:
            die = "protection"
        elif "aptitude à commander" in body:
            die = "aptitude"
        else:
            die = ""
        rows[name] = (cdt, die)
    return rows


def seed_lines(text: str) -> list[str]:
    return text.splitlines()[1:]


def test_precision_chart_matches_the_seed():
    chart = load_chart(DATA / "precision.toml")
    read = {row: chart.cell_at(row, "D10").value for row in chart.rows.labels}
    assert read == seed_precision() == {"Novice": "4", "Entraîné": "5", "Vétéran": "6"}


def test_the_chart_has_the_seed_modifiers_in_order():
    chart = load_chart(DATA / "modifiers.toml")
    assert chart.rows.labels == SEED_MODIFIER_NAMES


@pytest.mark.parametrize("row", SEED_MODIFIER_NAMES)
def test_modifier_matches_the_seed(row):
    chart = load_chart(DATA / "modifiers.toml")
    printed = (
        chart.cell_at(row, "Cadence de tir").value,
        chart.cell_at(row, "Dé").value,
    )
    assert printed == seed_modifiers()[row]


def test_modifier_restrictions_match_the_seed():
    chart = load_chart(DATA / "modifiers.toml")
    text = " ".join(MODIFIERS_TEXT.replace("’", "'").lower().split())
    for row in chart.rows.labels:
        restriction = chart.cell_at(row, "Restriction").value
        assert restriction.lower() in text


@pytest.mark.parametrize(("name", "text"), [("group_hits", GROUP_TEXT), ("crew_hits", CREW_TEXT)])
def test_hit_track_matches_the_seed_line_by_line(name, text):
    chart = load_chart(DATA / f"{name}.toml")
    lines = [chart.cell_at(row, "Effet").value for row in chart.rows.labels]
    assert lines == seed_lines(text)
    assert chart.title.startswith(text.splitlines()[0])
    assert list(chart.rows.labels) == [str(k) for k in range(1, len(lines) + 1)]


def differences(chart: Chart, text: str) -> list[str]:
    lines = seed_lines(text)
    return [
        f"hit {row}: data {chart.cell_at(row, 'Effet').value!r}, seed {expected!r}"
        for row, expected in zip(chart.rows.labels, lines, strict=True)
        if chart.cell_at(row, "Effet").value != expected
    ]


def test_a_typo_in_a_copy_of_the_data_is_caught(tmp_path: Path):
    original = (DATA / "group_hits.toml").read_text(encoding="utf-8")
    typo = original.replace('"1er élément démoralisé"', '"2ème élément démoralisé"', 1)
    assert typo != original
    copy = tmp_path / "group_hits.toml"
    copy.write_text(typo, encoding="utf-8")
    assert differences(load_chart(copy), GROUP_TEXT) == [
        "hit 3: data '2ème élément démoralisé', seed '1er élément démoralisé'"
    ]


def test_a_malformed_copy_is_one_line_naming_the_file(tmp_path: Path):
    copy = tmp_path / "precision.toml"
    text = (DATA / "precision.toml").read_text(encoding="utf-8")
    copy.write_text(text.replace('"Vétéran" = ["6"]', '"Vétéran" = [6]'), encoding="utf-8")
    with pytest.raises(ChartError, match=r"^precision\.toml: \[cells\] row 'Vétéran'"):
        load_chart(copy)
