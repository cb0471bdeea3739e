"""Refusals in French end to end (docs/languages.md): the command with ``--lang fr`` exits 2
with one French line, the web asked in French answers the same line as a 4xx (its fields
named as the request's), and no word of the English line is left in it but the values given
and the names of the game's own things. One refusal of each kind: a field's allowed phrase
built at run time, the dice a player gives, a rule's refusal, the advisors' budgets, the
engagement optimum's bound and its count, and the numbers a line groups by thousands."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from fastapi.testclient import TestClient

from firefight.chance import limits
from firefight.chance.limits import Budget, StateLimitError
from firefight.i18n import using
from firefight.rulesets.vv import defender, path_search
from firefight.sim.scenario import sample_scenarios
from firefight.translation import thousands
from firefight.web.app import create_app
from tests.cli.test_engage_optimal_cli import SMALL
from tests.helpers import run_cli
from tests.web.test_advisor_refusals import SIX, VILLAGE, as_fields

GROUPED = "\u202f"
"""The thousands separator Babel's French gives (a narrow no-break space)."""
SQUAD = "ger-rifle-1,ger-rifle-2,ger-lmg,ger-assistant"
SIMULTANEOUS = SMALL.replace("turns = 2\n", 'turns = 2\norder = "simultaneous"\n', 1)
FILES = {"SIX": SIX, "SIMULTANEOUS": SIMULTANEOUS}
"""The scenarios the command reads from a file (named so in its arguments), the web as text."""


@dataclass(frozen=True)
class Refusal:
    cli: tuple[str, ...]
    route: str
    body: dict[str, object]
    french: str
    """A piece of the French line."""
    same: frozenset[str] = frozenset()
    """Words both lines hold: values given, names of the game's things, options."""
    get: bool = False


def refusal(cli, route, body, french, same="", *, get=False) -> Refusal:
    return Refusal(tuple(cli), route, body, french, frozenset(same.split()), get)


CASES = {
    "a hex of a board, its range built": refusal(
        ["board", "los", "vv_village", "9999", "0101"],
        "/api/boards/vv_village/los", {"from": "9999", "to": "0101"},
        "doit être un hexagone de la carte 'Village crossroads' (0101..1612)",
        "FROM from Village crossroads", get=True,
    ),
    "a path's next hex": refusal(
        ["move", "village", "--stack", "0206", "--path", "0306,0808"],
        "/api/vv/move", {"scenario": VILLAGE, "stack": "0206", "path": ["0306", "0808"]},
        "doit être un hexagone adjacent à 0306 (hexagone 2)", "path",
    ),
    "the dice a player gives": refusal(
        ["resolve", "ept", "fire", "--strength", "6", "--roll", "13"],
        "/api/rulesets/ept/fire/resolve", {"input": {"strength": 6}, "roll": "13"},
        "doit être 2 dés de 1..6 ou un total de 2..12 pour",
        "roll combat", # the roll's label, quoted as the rules name it
    ),
    "a rule of Les tirs": refusal(
        ["odds", "tirs", "precision", "--cdt", "1", "--experience", "trained",
         "--firer-moving", "--range", "medium"],
        "/api/rulesets/tirs/precision/odds",
        {"cdt": 1, "experience": "trained", "firer_moving": True, "range": "medium"},
        "le tir en mouvement ne se fait qu'à courte portée (reçu la portée medium",
        "medium Les tirs Tir mouvement",  # the rule's French title, cited
    ),
    "the Up Front advisor's hand": refusal(
        ["advise", "--firers", SQUAD, "--targets", "us-rifle,us-bar", "--hand", "5,129"],
        "/api/upfront/advise",
        {"firers": SQUAD, "targets": "us-rifle,us-bar", "hand": [5, 129]},
        "doit être une main contenant une ou plusieurs cartes TIR", "hand",
    ),
    "an opponent the simultaneous fire cannot have": refusal(
        ["engage", "SIMULTANEOUS", "--optimal", "--against", "optimal"],
        "/api/engage", {"scenario": SIMULTANEOUS, "optimal": True, "against": "optimal"},
        "(tir simultané : un adversaire optimal demande des stratégies mixtes)",
        "against optimal best_expected_effect focus spread",
    ),
    "the engagement optimum's bound": refusal(
        ["engage", "SIX", "--optimal"],
        "/api/engage", {"scenario": SIX, "optimal": True},
        f"peut avoir jusqu'à 28{GROUPED}488{GROUPED}923 successeurs à fusionner, plus de 2 "
        f"fois la limite de 8{GROUPED}000{GROUPED}000 des chances exactes",
        "six",
    ),
}  # fmt: skip


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app())


COGNATES = frozenset({"adjacent", "total", "destination", "budget", "optimal"})
"""Words French writes as English does."""


def words(line: str) -> set[str]:
    return set(re.findall(r"[A-Za-z_]{3,}", line)) - COGNATES


def same_line_in_french(client, capsys, tmp_path, case: Refusal) -> str:
    cli = list(case.cli)
    for name, text in FILES.items():
        if name in cli:
            (tmp_path / f"{name.lower()}.toml").write_text(text, encoding="utf-8")
            cli[cli.index(name)] = str(tmp_path / f"{name.lower()}.toml")
    english_code, _out, english = run_cli(capsys, *cli)
    code, _out, err = run_cli(capsys, "--lang", "fr", *cli)
    assert english_code == code == 2, err
    line = err.strip().removeprefix("erreur : ")
    assert "\n" not in line
    assert case.french in line
    left = words(english.removeprefix("error: ")) & words(line)
    assert left <= case.same, f"English left in {line!r}"
    if case.get:
        response = client.get(case.route, params={**case.body, "lang": "fr"})
    else:
        response = client.post(case.route, params={"lang": "fr"}, json=case.body)
    assert 400 <= response.status_code < 500, response.text
    detail = response.json()["detail"]
    assert detail.split(" ", 1)[1] == as_fields(line).split(" ", 1)[1]  # the field's own name
    return line


@pytest.mark.parametrize("name", CASES)
def test_a_refusal_is_one_french_line_on_the_command_line_and_the_web(
    client, capsys, tmp_path, name
):
    same_line_in_french(client, capsys, tmp_path, CASES[name])


def test_the_advisors_past_their_budgets_refuse_in_french(client, capsys, tmp_path, monkeypatch):
    monkeypatch.setattr(path_search, "MAX_EVALUATIONS", 2)
    monkeypatch.setattr(defender, "MAX_STATES", 5)
    path = refusal(
        ["move", "village", "--stack", "0206", "--to", "0406"],
        "/api/vv/move", {"scenario": VILLAGE, "stack": "0206", "to": "0406"},
        "doit être une destination que la recherche de chemins atteint dans son budget de 2 "
        "chemins évalués exactement", "units assault",
    )  # fmt: skip
    same_line_in_french(client, capsys, tmp_path, path)
    optimal = refusal(
        ["move", "village", "--stack", "0206", "--path", "0306,0406", "--policy", "optimal"],
        "/api/vv/move",
        {"scenario": VILLAGE, "stack": "0206", "path": ["0306", "0406"], "policy": "optimal"},
        "un mouvement que le défenseur optimal résout dans son budget de 5 états",
        "policy optimal units",
    )  # fmt: skip
    same_line_in_french(client, capsys, tmp_path, optimal)


def test_the_engagement_optimum_past_its_count_refuses_in_french(
    client, capsys, tmp_path, monkeypatch
):
    # The hedgerow's game explored within far less work than the limit (its bound, within the
    # slack, lets it be explored), so that the count stops it as it would a bigger game.
    monkeypatch.setattr(Budget.__init__, "__defaults__", (limits.MAX_STATES, 20_000))
    text = sample_scenarios()["ept_hedgerow"].read_text(encoding="utf-8")
    text = re.sub(r'(?m)^title = ".*"$', 'title = "haie"', text)
    (tmp_path / "haie.toml").write_text(text, encoding="utf-8")
    count = refusal(
        ["engage", str(tmp_path / "haie.toml"), "--optimal"],
        "/api/engage", {"scenario": text, "optimal": True},
        f"et son jeu a plus de 8{GROUPED}000{GROUPED}000 successeurs à fusionner, la limite "
        "des chances exactes (moins d'unités ou de tours)", "haie",
    )  # fmt: skip
    same_line_in_french(client, capsys, tmp_path, count)


def test_a_state_limit_is_worded_in_french_with_its_numbers_grouped():
    with using("fr"):
        line = str(StateLimitError("reachable states", 20_000, "x"))
        budget = Budget("x", max_states=10, work=100)
        with pytest.raises(StateLimitError) as estimated:
            budget.estimate(5_000, 1)
        with pytest.raises(StateLimitError) as within:
            budget.states(11, "turn")
    assert line == (
        f"'x' a plus de 20{GROUPED}000 états atteignables, la limite des chances exactes (voir "
        "firefight.chance.process) ; demandez plutôt des chances échantillonnées avec un "
        "intervalle de confiance (Process.sampled)"
    )
    assert f"environ 8{GROUPED}004{GROUPED}900 estimés" in str(estimated.value)
    assert "plus de 10 états en un tour," in str(within.value)
    assert (estimated.value.what, estimated.value.limit) == (
        f"successeurs à fusionner (environ 8{GROUPED}004{GROUPED}900 estimés)",
        limits.MAX_EXPANSIONS,
    )


def test_english_groups_thousands_with_a_comma_and_french_with_its_own_space():
    assert thousands(28_488_923) == "28,488,923"
    with using("fr"):
        assert thousands(28_488_923) == f"28{GROUPED}488{GROUPED}923"
