"""``firefight --lang fr engage`` (the odds, ``--optimal``, ``--samples``, ``--seed``), ``move
--to`` and ``advise`` in words, in French and in English: the results, fire policies, fire
order, unit states, objectives and search methods as the web's pages word them, never their
identifiers; the scenario's side and unit names as written; ``--json`` unchanged."""

from __future__ import annotations

import json

import pytest
from rich.cells import cell_len

from firefight.i18n import using
from firefight.sim.engagement_words import note_words, state_words, unit_words
from tests.helpers import run_cli

IDENTIFIERS = (
    "best_expected_effect",
    "a_wins",
    "b_wins",
    "undecided",
    "fire alternating",
    "branch_and_bound",
    "not_eliminated",
)
"""Identifiers that no sentence of either language shows."""

ENGLISH = (
    "How it ends",
    "Germans win",
    "both out at once",
    "still fighting",
    "expected turns fought",
    "By turn",
    "Survivors",
    "Most likely end states",
    "best expected effect",
    "fire policy",
    "steps",
    "neutralized",
    " against ",
    "at most",
    "alternating",
)
"""The English of the odds, none of which the French prints."""

OPTIMAL_ENGLISH = (
    "fires at",
    "meets most often",
    "Both sides playing",
    "best expected effect",
    "the best fire plan",
    "P(win)",
    "'s fire policy",
    "optimal opponent",
    "policy",
    "value",
    "loss",
    "target",
    "full",
    "spread",
    "focus",
    "alternating",
)
"""The English of the best fire plan, none of which the French prints."""

AUTOMATIC = "vv_village"
"""The sample whose best fire plan is quickest (3 against 3, alternating fire)."""

MG_HEDGEROW = "ept_hedgerow"


def _out(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    code, out, err = run_cli(capsys, *args)
    assert code == 0, err
    return out


def _words(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """The output as one line of words (a table's borders and line breaks taken out)."""
    out = _out(capsys, *args)
    for border in "│┃┏┓┗┛┡┩└┘━─┳┻╇╈┼┬┴":
        out = out.replace(border, " ")
    return " ".join(out.split())


def _absent(out: str, *phrases: str) -> None:
    for phrase in phrases:
        assert phrase not in out, phrase


@pytest.fixture
def wide(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "400")  # a sentence on one line, a row on one line


@pytest.mark.usefixtures("wide")
def test_how_an_engagement_ends_is_said_in_french(capsys):
    out = _words(capsys, "--lang", "fr", "engage", MG_HEDGEROW)
    for french in (
        "EPT : la haie (3 contre 3) (ept) : Germans contre Americans, au plus 10 tours, "
        "politique meilleur effet attendu, tir alterné — exact",
        "Comment cela finit",
        "résultat probabilité %",
        "Germans gagnent",
        "Americans gagnent",
        "tous deux hors de combat en même temps",
        "toujours au combat après le dernier tour",
        "P(victoire de Germans) = 81.98 % ; tours de combat attendus : 5.005 (exact)",
        "Tour par tour",
        "P(Germans au combat)",
        "Survivants (P(non éliminé) à la fin)",
        "camp unité %",
        "États finaux les plus probables (sur 1,337)",
        "MG 42 team: 2 pas; Gruppe 1: 2 pas",
        "BAR team: 1 pas, neutralisé",
    ):
        assert french in out, french
    _absent(out, *IDENTIFIERS, *ENGLISH)


@pytest.mark.usefixtures("wide")
def test_how_an_engagement_ends_keeps_its_english_words(capsys):
    out = _words(capsys, "engage", MG_HEDGEROW)
    for english in (
        "EPT: the hedgerow (3 against 3) (ept): Germans against Americans, at most 10 turns, "
        "policy best expected effect, alternating fire — exact",
        "How it ends",
        "Germans win",
        "still fighting after the last turn",
        "P(Germans win) = 81.98 %; expected turns fought: 5.005 (exact)",
        "Survivors (P(not eliminated) at the end)",
        "MG 42 team: 2 steps; Gruppe 1: 2 steps",
        "BAR team: 1 step, neutralized",
    ):
        assert english in out, english
    _absent(out, *IDENTIFIERS)


@pytest.mark.usefixtures("wide")
def test_the_best_fire_plan_is_said_in_french(capsys):
    out = _words(capsys, "--lang", "fr", "engage", AUTOMATIC, "--optimal", "--side", "b")
    for french in (
        "V&V : l'orée du village (3 contre 3) : le meilleur plan de tir pour Americans, "
        "P(victoire) sur 6 tours contre un adversaire optimal (minimax), tir alterné — exact",
        "P(victoire) selon la politique de tir de Americans",
        "politique valeur fraction perte",
        "optimale 1.04 %",
        "meilleur effet attendu 0.94 %",
        "concentration",
        "répartition",
        "0.10 points",
        "Les deux camps suivant la politique du scénario (meilleur effet attendu) : 0.95 %",
        "Tour 1 : Able tire sur 1st squad, dans l'état qu'elle rencontre le plus souvent "
        "(47.03 %) : 1st squad: entier; 2nd squad: entier",
        "cible valeur perte",
    ):
        assert french in out, french
    _absent(out, *IDENTIFIERS, *OPTIMAL_ENGLISH)


@pytest.mark.usefixtures("wide")
def test_the_best_fire_plan_keeps_its_english_words(capsys):
    out = _words(capsys, "engage", AUTOMATIC, "--optimal", "--side", "b")
    for english in (
        "V&V: the village edge (3 against 3): the best fire plan for Americans, P(win) over 6 "
        "turns against an optimal opponent (minimax), alternating fire — exact",
        "P(win) of Americans's fire policy",
        "best expected effect 0.94 %",
        "Both sides playing the scenario's policy (best expected effect): 0.95 %",
        "Turn 1: Able fires at 1st squad, in the state it meets most often (47.03 %): "
        "1st squad: full; 2nd squad: full",
    ):
        assert english in out, english
    _absent(out, *IDENTIFIERS)


@pytest.mark.usefixtures("wide")
def test_the_best_fire_plan_for_losses_against_a_policy_is_said_in_french(capsys):
    out = _words(
        capsys, "--lang", "fr", "engage", AUTOMATIC, "--optimal", "--objective", "losses",
        "--against", "focus",
    )  # fmt: skip
    for french in (
        "pertes ennemies espérées sur 6 tours contre la politique concentration de "
        "l'adversaire, tir alterné",
        "pertes ennemies espérées selon la politique de tir de Germans",
    ):
        assert french in out, french
    _absent(out, *IDENTIFIERS, *OPTIMAL_ENGLISH, "expected enemy losses", "opponent")


@pytest.mark.usefixtures("wide")
def test_sampled_odds_are_said_in_french(capsys):
    out = _words(capsys, "--lang", "fr", "engage", AUTOMATIC, "--samples", "200")
    assert "ÉCHANTILLONNÉ (200 parties, graine 0 ; intervalles à 95 %)" in out
    _absent(out, *IDENTIFIERS, "SAMPLED", "runs", "intervals", "alternating")


@pytest.mark.usefixtures("wide")
def test_one_engagement_turn_by_turn_is_said_in_french(capsys):
    out = _words(capsys, "--lang", "fr", "engage", MG_HEDGEROW, "--seed", "3")
    for french in (
        "EPT : la haie (3 contre 3) (graine 3)",
        "départ : MG 42 team: 2 pas",
        "Tour 1",
        "pas valeur",
        "après le tour 1 :",
        "Résultat :",
        "rejouer avec :",
        "tir Germans MG 42 team tire sur Squad 1",
        "test de neutralisation (2d6)",
        "effet Squad 1: sans effet: 2 pas -> 2 pas",
    ):
        assert french in out, french
    _absent(out, *IDENTIFIERS, "start:", "after turn", "Result:", "replay with:", "(seed")
    _absent(out, "fires at", "steps", "effect", "neutralization", "no_effect")
    village = _words(capsys, "--lang", "fr", "engage", AUTOMATIC, "--seed", "3")
    assert "effet Able: unité 1 indemne: entier -> entier" in village
    _absent(village, "fires at", "unhurt", "full")


@pytest.mark.usefixtures("wide")
def test_the_other_games_states_are_said_in_french(capsys):
    farm = _words(capsys, "--lang", "fr", "engage", "percentile_farm")
    assert ": apte" in farm
    assert ": tué" in farm
    _absent(farm, *IDENTIFIERS, "killed", ": fit", "sitting out")
    crossroads = _words(capsys, "--lang", "fr", "engage", "tirs_crossroads")
    _absent(crossroads, *IDENTIFIERS, "eliminated", "pinned", "demoralized")


@pytest.mark.usefixtures("wide")
def test_the_safest_paths_name_their_objective_policy_and_method_in_words(capsys):
    move = ("move", "vv_crossroads", "--stack", "0206", "--to", "0606")
    french = _words(capsys, "--lang", "fr", *move)
    assert (
        "(selon toutes les unités non clouées, politique seuil ; exact, séparation et "
        "évaluation, 121 chemins évalués)"
    ) in french
    _absent(french, *IDENTIFIERS, "unpinned,", "threshold", "branch and bound")
    english = _words(capsys, *move)
    assert (
        "(by every unit unpinned, policy threshold; exact, branch and bound, 121 paths evaluated)"
    ) in english
    _absent(english, *IDENTIFIERS)


@pytest.mark.usefixtures("wide")
def test_the_best_play_from_the_hand_is_french_to_its_colon(capsys):
    advise = (
        "advise", "--firers", "ger-rifle-1,ger-rifle-2,ger-lmg,ger-assistant",
        "--targets", "us-rifle,us-bar", "--rr", "3", "--hand", "62,64,67,70,5",
    )  # fmt: skip
    french = _words(capsys, "--lang", "fr", *advise)
    assert "Meilleur jeu : TIR 64+67+70 = 9 (PV espérés : 3.552)" in french
    _absent(french, "expected VP", "expected_vp", "Best play")
    assert "Best play: FIRE 64+67+70 = 9 (expected VP: 3.552)" in _words(capsys, *advise)


@pytest.mark.parametrize(
    "args",
    [
        (MG_HEDGEROW,),
        (MG_HEDGEROW, "--seed", "3"),
        (AUTOMATIC, "--optimal", "--side", "b"),
        (AUTOMATIC, "--samples", "200"),
    ],
)
def test_the_french_fits_eighty_columns_through_a_pipe(capsys, args):
    out = _out(capsys, "--lang", "fr", "engage", *args)
    assert all(cell_len(line) <= 80 for line in out.splitlines()), out
    _absent(out, *IDENTIFIERS, "alternating")


@pytest.mark.parametrize(
    "args", [(MG_HEDGEROW,), (MG_HEDGEROW, "--seed", "3"), (AUTOMATIC, "--optimal")]
)
def test_the_json_keeps_its_identifiers_in_either_language(capsys, args):
    english = json.loads(_out(capsys, "engage", *args, "--json"))
    french = json.loads(_out(capsys, "--lang", "fr", "engage", *args, "--json"))
    assert french == english
    text = json.dumps(english)
    assert "steps" in text or "full" in text  # the rule sets' English states, as they were


def test_a_units_state_is_worded_part_by_part():
    assert unit_words("MG 42 team: 2 steps, stopped") == "MG 42 team: 2 steps, stopped"
    with using("fr"):
        assert unit_words("MG 42 team: 2 steps, stopped") == "MG 42 team: 2 pas, stoppé"
        assert unit_words("Squad: 1: 1 step, neutralized") == "Squad: 1: 1 pas, neutralisé"
        assert state_words("reduced, pinned") == "réduit, cloué"
        assert state_words("eliminated") == "éliminé"
        assert state_words("no such word") == "no such word"  # English, never dropped


def test_an_engagements_own_notes_are_worded_by_its_names():
    sides = [("Germans", ["MG 42: team", "Gruppe 1"]), ("Americans", ["Squad 1"])]
    with using("fr"):
        assert note_words(sides, "fire", "Germans MG 42: team fires at Squad 1") == (
            "tir",
            "Germans MG 42: team tire sur Squad 1",
        )
        assert note_words(sides, "effect", "Squad 1: no_effect: 2 steps -> 1 step") == (
            "effet",
            "Squad 1: sans effet: 2 pas -> 1 pas",
        )
        assert note_words(
            sides, "Americans: start of fire", "Squad 1: 2 steps, neutralized -> 2 steps"
        ) == ("Americans : début du tir", "Squad 1: 2 pas, neutralisé -> 2 pas")
        assert note_words(sides, "neutralization test (2d6)", "2 + 2 = 4") == (
            "test de neutralisation (2d6)",
            "2 + 2 = 4",
        )
    assert note_words(sides, "fire", "Germans Gruppe 1 fires at Squad 1") == (
        "fire",
        "Germans Gruppe 1 fires at Squad 1",
    )
