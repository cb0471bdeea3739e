"""The rule errors of Up Front, Valor & Victory, the percentile table and the board loaders in
French: one line, exit code 2, the values as given, the rulebook's section kept."""

from __future__ import annotations

import pytest

from tests.helpers import run_cli as run


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["odds", "percentile", "fire", "--firepower", "11", "--beyond-chart", "refuse"],
            "erreur : puissance de feu 11 supérieure à 10, hors des colonnes 1-10 de la "
            "Defense/Firepower Table (beyond_chart=refuse ; clamp lit la colonne 10)\n",
        ),
        (
            ["odds", "upfront", "resolution", "--targets", "ger-pz4", "--ffs", "3"],
            "erreur : 'targets' : ger-pz4 est un blindé : la page 4 le résout (procédure afv ; le "
            "tir et l'artillerie d'appui prennent un blindé pour cible)\n",
        ),
        (
            ["odds", "vv", "ap_attack", "--attack", "mortar", "--apfp", "4", "--adjacent"],
            "erreur : les mortiers ne peuvent tirer sur un hexagone adjacent : leur portée "
            "minimale est de 2 hexagones (12.65)\n",
        ),
        (
            [
                *("odds", "vv", "close_assault", "--assaulting-units", "2"),
                *("--assault-apfp", "2", "--assault-grenades", "3"),
            ],
            "erreur : '--assault-grenades' ne peut dépasser '--assaulting-units' (V&V 12.52)\n",
        ),
    ],
)
def test_a_rule_error_of_up_front_vv_and_percentile_is_one_french_line(capsys, args, message):
    code, out, err = run(capsys, "--lang", "fr", *args)
    assert (code, out, err) == (2, "", message)


def test_a_board_file_error_is_one_french_line(capsys, tmp_path):
    path = tmp_path / "big.toml"
    path.write_text('name = "x"\nruleset = "vv"\ncolumns = 999\nrows = 999\n', encoding="utf-8")
    code, _, err = run(capsys, "--lang", "fr", "board", "visible", str(path), "0101")
    assert code == 2
    assert err.startswith(
        "erreur : big.toml : 'columns' et 'rows' doivent valoir au moins 1, et columns x rows "
        "au plus 40000 hexagones (reçu 999 x 999)"
    ), err
    assert err.count("\n") == 1
