"""Page 2: ordnance attacks, the To Hit number and every modifier, the To Hit RNC, boxed and
unboxed FS, then page 4 on the AFV; hand-computed over small decks, exact against seeded
sampling, one-line errors and replay by inventory number."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest
from scipy.stats import chisquare

from firefight.chance import exact
from firefight.errors import InputError, RuleError
from firefight.rulesets.registry import register
from firefight.rulesets.upfront import RULESET
from firefight.rulesets.upfront.ordnance import (
    ORDNANCE,
    Attack,
    final_fire_strength,
    to_hit_modifiers,
    to_hit_number,
)
from tests.helpers import assert_replay_reproduces, run_cli
from tests.rulesets.upfront.small_files import deck_file, men_file

F = Fraction


def attack(tmp_path, rns=("0b",), **fields):
    data = {
        "deck": deck_file(tmp_path, list(rns)),
        "men": men_file(tmp_path),
        "firer": "gun",
        "afv": "stug",
        "rr": 3,
        **fields,
    }
    return ORDNANCE.parse(data)


def odds(tmp_path, rns, **fields):
    return dict(ORDNANCE.odds(attack(tmp_path, rns, **fields)))


def test_the_to_hit_number_is_the_firers_at_the_current_rr(tmp_path):
    assert [to_hit_number(attack(tmp_path, rr=rr)) for rr in range(6)] == [2, 3, 4, 5, 6, 6]


def test_every_to_hit_modifier_of_page_2_is_itemized(tmp_path):
    inp = attack(
        tmp_path,
        commander_kia=2,
        smoke_cards=2,
        wire=1,
        acquired=True,
        concealment=2,
        target_moving=True,
        firer_moving=True,
    )
    shown = {m.label: int(m.value) for m in to_hit_modifiers(inp)}
    assert shown == {
        "commander KIA x2": -2,
        "SMOKE x2": -2,
        "firer in WIRE x1": -1,
        "target acquired": 1,
        "CONCEALMENT 2": -2,
        "moving or hull-down target": -1,
        "firer moving": -1,
    }
    assert to_hit_number(inp) == 5 - 8
    assert all(m.rule == "Up Front flow charts, page 2" for m in to_hit_modifiers(inp))


def test_a_turretless_assault_gun_immobilized_or_bogged_is_minus_2(tmp_path):
    for flag in ("firer_immobilized", "firer_bogged"):
        assert to_hit_number(attack(tmp_path, firer="stug", afv="gun", **{flag: True})) == 3
        assert to_hit_number(attack(tmp_path, firer="gun", **{flag: True})) == 5  # turret


def test_a_turretless_assault_gun_cannot_fire_while_moving(tmp_path):
    inp = attack(tmp_path, firer="stug", afv="gun", firer_moving=True)
    with pytest.raises(RuleError, match="turretless assault gun cannot fire while moving"):
        ORDNANCE.odds(inp)
    allowed = attack(tmp_path, firer="stug", afv="gun", firer_moving=True, moving_fire="all_may")
    assert sum(ORDNANCE.odds(allowed).values()) == 1


def test_the_moving_target_modifier_may_be_read_as_the_turretless_guns_only(tmp_path):
    assert to_hit_number(attack(tmp_path, target_moving=True)) == 4
    only = {"target_moving": True, "moving_target_to_hit": "turretless"}
    assert to_hit_number(attack(tmp_path, **only)) == 5  # the gun has a turret
    assert to_hit_number(attack(tmp_path, firer="stug", afv="gun", **only)) == 4


def test_a_hull_down_target_counts_as_moving_unless_read_otherwise(tmp_path):
    assert to_hit_number(attack(tmp_path, hull_down=True)) == 4
    assert to_hit_number(attack(tmp_path, hull_down=True, hull_down_to_hit="none")) == 5


def hits(inp, rns):
    """Each card's To Hit result, and the FFS after a hit."""
    man = inp.men_data().man(inp.firer)
    deck = inp.deck_data()
    shown = []
    for number in range(1, len(rns) + 1):
        card = deck.card(number)
        result = Attack.of(inp).to_hit(card, None)
        if result == "hit":
            result = f"hit, FFS {final_fire_strength(inp, man, card)[0]}"
        shown.append(result)
    return shown


def test_the_to_hit_rnc_malfunction_miss_and_hit_then_unboxed_fs_plus_rn(tmp_path):
    # To Hit 5 at RR 3, malfunction 6 (red); FS 4 unboxed + RN, + attacker TEM 1 + wire 1
    rns = ["0b", "5b", "6b", "6r", "3r"]
    inp = attack(
        tmp_path,
        rns,
        target="men",
        targets="rifle",
        boxed="unboxed",
        attacker_tem=1,
        defender_wire=1,
    )
    assert hits(inp, rns) == [
        "hit, FFS 6",
        "hit, FFS 11",
        "miss",
        "ordnance weapon broken",
        "hit, FFS 9",
    ]
    below = attack(tmp_path, rns, target="men", targets="rifle", boxed="unboxed", hit_on="below")
    assert hits(below, rns)[1] == "miss"  # RN 5 is no longer within 5


def test_boxed_ordnance_is_fs_plus_rr(tmp_path):
    inp = attack(tmp_path, ["0b", "5b"], target="men", targets="rifle", boxed="boxed")
    assert hits(inp, ["0b", "5b"]) == ["hit, FFS 7", "hit, FFS 7"]  # FS 4 + RR 3


def test_a_moving_firer_misses_on_a_red_rnc_and_black_0_is_always_a_hit(tmp_path):
    # modified To Hit 5 - 1 (moving) - 6 (concealment) = -2: only the black 0 hits
    rns = ["0b", "0r", "1b"]
    kw = {"target": "men", "targets": "rifle", "boxed": "unboxed", "firer_moving": True}
    assert hits(attack(tmp_path, rns, concealment=6, **kw), rns) == ["hit, FFS 4", "miss", "miss"]
    # the red 1 is within To Hit 4, but a moving firer misses on red
    assert hits(attack(tmp_path, ["1r"], **kw), ["1r"]) == ["miss"]
    black = attack(tmp_path, ["1r"], miss_colour="black", **kw)
    assert hits(black, ["1r"]) == ["hit, FFS 5"]


def test_a_hit_on_men_goes_to_page_3_with_the_cards_left(tmp_path):
    # rifle: KIA 8, morale 4. Cards 0b, 4b, 6r: 6r breaks the gun (1/3); 0b hits (FFS 4) and
    # 4b or 6r resolves: FR 8 = KIA, RPNC(7) 0 != morale: 8 > morale, pinned; FR 10 KIA;
    # 4b hits (FFS 8): 0b FR 8 pinned, 6r FR 14 KIA.
    got = odds(tmp_path, ["0b", "4b", "6r"], target="men", targets="rifle", boxed="unboxed")
    assert got == {"ordnance weapon broken": F(1, 3), "pinned": F(1, 3), "KIA": F(1, 3)}


def test_the_group_odds_after_the_to_hit_rnc_are_the_rules_own(tmp_path):
    rns = ["0b", "4b", "6r", "2r", "3b", "5b", "1r"]
    inp = attack(tmp_path, rns, target="men", targets="rifle,gun", boxed="unboxed", firer="mortar")
    with pytest.raises(RuleError):  # page 3 resolves men; an AFV target is page 4
        ORDNANCE.odds(inp)
    inp = ORDNANCE.parse({**inp.model_dump(), "targets": "rifle,mortar"})
    fast = ORDNANCE.odds(inp)
    assert dict(fast) == dict(exact(lambda chance: ORDNANCE.rule(inp, chance)))
    assert sum(fast.values()) == 1
    # two To Hit cards 2b, RPN(7) 4 and 0, give the same FFS 4 + 2 but leave different
    # pools: the rifle (KIA 8, morale 4) drawing the other 2b has FR 8 = KIA, wounded only
    # if its RPN(7) is 4
    deck = deck_file(tmp_path, ["2b", "2b", "5r", "0b"], rpn7=[4, 0, 0, 0])
    inp = ORDNANCE.parse({**inp.model_dump(), "deck": deck, "rr": 4, "targets": "rifle"})
    fast = ORDNANCE.odds(inp)
    assert dict(fast) == dict(exact(lambda chance: ORDNANCE.rule(inp, chance)))
    assert fast["wounded"] == F(1, 4) * F(1, 3)
    assert any("wounded" in outcome for outcome in fast)


def test_a_hit_on_an_afv_goes_to_page_4_with_the_cards_left(tmp_path):
    # card 2b hits, then resolution from 4b, 6r: FR 11, 13 > k 9; 4b hits, then 2b: FR 9
    # no effect, 6r: FR 13 KIA; 6r malfunctions. Boxed FFS = FS 4 + RR 3 = 7.
    got = odds(tmp_path, ["2b", "4b", "6r"])
    assert got == {"ordnance weapon broken": F(1, 3), "AFV KIA": F(1, 2), "no effect": F(1, 6)}


def test_boxed_fire_adds_attacker_tem_unless_the_afv_is_hull_down(tmp_path):
    # both cards hit; FFS = FS 4 + RR 3 (+ TEM 1); the other card is the resolution card
    # TEM: 0b then 1b: FR 9 no effect; 1b then 0b: FR 8 = s stunned
    with_tem = odds(tmp_path, ["0b", "1b"], attacker_tem=1)
    assert with_tem == {"stunned": F(1, 2), "no effect": F(1, 2)}
    # hull down: no TEM; FR 8 = s stunned, or FR 7 = i immobilized and stunned
    hull_down = odds(tmp_path, ["0b", "1b"], attacker_tem=1, hull_down=True)
    assert hull_down == {"stunned": F(1, 2), "immobilized, stunned": F(1, 2)}


def test_unboxed_ordnance_against_an_afv_adds_no_tem_against_morale_and_ce(tmp_path):
    # FFS = FS 4 + To Hit RN; FR = 5 either way: not > MORALE 5 (TEM 3 would make it 8 > CE)
    got = odds(tmp_path, ["0b", "1b"], boxed="unboxed", attacker_tem=3)
    assert got == {"no effect": 1}


def test_exact_ordnance_odds_agree_with_seeded_resolutions_chi_square():
    inp = ORDNANCE.parse({"rr": 3, "flanked": True})
    exact = ORDNANCE.odds(inp)
    assert sum(exact.values()) == 1
    n = 3000
    counts = Counter(ORDNANCE.resolve(inp, seed).outcome for seed in range(n))
    assert set(counts) <= set(exact)
    observed = [counts[o] for o in exact]
    expected = [float(p) * n for p in exact.values()]
    assert chisquare(observed, expected).pvalue > 1e-3


def test_a_seeded_ordnance_attack_replays_from_its_cards():
    assert_replay_reproduces(ORDNANCE, {"rr": 2, "target_moving": True}, 5)


def test_a_firer_without_to_hit_numbers_is_one_line(tmp_path):
    inp = attack(tmp_path, firer="rifle")
    with pytest.raises(
        InputError,
        match=r"^'firer' must be ordnance of men.toml \(with "
        r"to_hit\): gun, stug, halftrack, mortar \(got 'rifle'\)$",
    ):
        ORDNANCE.odds(inp)


def test_a_mortar_cannot_fire_boxed_and_a_man_has_no_commander(tmp_path):
    with pytest.raises(InputError, match=r"^'boxed' must be card or unboxed for a mortar"):
        ORDNANCE.odds(attack(tmp_path, firer="mortar", boxed="boxed"))
    with pytest.raises(InputError, match=r"^'commander_kia' must be 0"):
        ORDNANCE.odds(attack(tmp_path, firer="mortar", commander_kia=1))


def test_the_cli_gives_ordnance_odds_and_replays_the_players_cards(capsys):
    register(RULESET)
    code, out, err = run_cli(capsys, "odds", "upfront", "ordnance", "--rr", "3", "--json")
    assert code == 0, err
    assert '"miss"' in out
    code, out, err = run_cli(capsys, "resolve", "upfront", "ordnance", "--draw", "8,1")
    assert code == 0, err
    assert "To Hit RNC: card 8" in out
    assert "resolution card (ger-pz4): card 1" in out
    code, _, err = run_cli(capsys, "odds", "upfront", "ordnance", "--firer", "ger-lmg")
    assert code == 2
    assert len(err.strip().splitlines()) == 1


def test_ordnance_on_men_exact_odds_agree_with_seeded_resolutions_chi_square():
    inp = ORDNANCE.parse({"target": "men", "targets": "ger-rifle-1", "boxed": "unboxed"})
    exact_odds = ORDNANCE.odds(inp)
    n = 3000
    counts = Counter(ORDNANCE.resolve(inp, seed).outcome for seed in range(n))
    assert set(counts) <= set(exact_odds)
    observed = [counts[o] for o in exact_odds]
    expected = [float(p) * n for p in exact_odds.values()]
    assert chisquare(observed, expected).pvalue > 1e-3


def test_a_seeded_ordnance_attack_on_men_replays_from_its_cards():
    data = {"target": "men", "targets": "ger-rifle-1,ger-lmg", "boxed": "unboxed"}
    for seed in (1, 7, 12):
        assert_replay_reproduces(ORDNANCE, data, seed)


def _brute_force(procedure, inp, pile):
    """Every order of the pile equally likely, each replayed for as many cards as the rule
    draws (a replay with cards left over or too few is refused): the odds by counting."""
    from itertools import permutations  # noqa: PLC0415 - this helper only

    counts: Counter[str] = Counter()
    orders = list(permutations(pile))
    for order in orders:
        for k in range(1, len(order) + 1):
            try:
                outcome = procedure.replay(inp, list(order[:k])).outcome
            except (InputError, RuleError, ValueError):
                continue
            counts[outcome] += 1
            break
        else:  # pragma: no cover - every order replays at some length
            raise AssertionError(order)
    return {o: F(c, len(orders)) for o, c in counts.items()}


def test_ordnance_on_men_over_the_omniscient_pile_takes_the_to_hit_card_from_it(capsys):
    # The To Hit RNC drawn from the pile is on the table: page 3 draws from the pile without
    # it (it was refused as a pile card "in play" before).
    pile = (1, 2, 3, 4, 5)
    data = {"target": "men", "targets": "ger-rifle-1,ger-lmg", "boxed": "unboxed"}
    inp = ORDNANCE.parse({**data, "pool": "omniscient", "pile": pile})
    fast = dict(ORDNANCE.odds(inp))
    assert sum(fast.values()) == 1
    assert fast == _brute_force(ORDNANCE, inp, pile)
    register(RULESET)
    code, out, err = run_cli(
        capsys, "odds", "upfront", "ordnance", "--target", "men", "--targets",
        "ger-rifle-1", "--pool", "omniscient", "--pile", "1,2,3,4,5", "--json",
    )  # fmt: skip
    assert code == 0, err
    assert "must be cards in no hand" not in err
    assert '"KIA"' in out
