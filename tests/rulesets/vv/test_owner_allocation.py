"""14.6 on the board: the owner of the units hit applies the CPs, in a move under opportunity
fire and in an overrun; the policies, the order declared before a run, and the hook a run
consults when the CPs are known."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from firefight.chance.asked import asking
from firefight.errors import FirefightError, InputError
from firefight.rulesets.vv.allocator import (
    Hit,
    PolicyAllocator,
    parse_orders,
    policy_allocator,
)
from firefight.rulesets.vv.casualties import (
    NONE,
    Casualty,
    default_allocation,
    legal_allocations,
    ordered_allocation,
)
from firefight.rulesets.vv.move_results import build_move, model_run
from firefight.rulesets.vv.movement import plan_move
from firefight.rulesets.vv.overrun_move import build_overrun, overrun_odds, resolve_overrun_move
from firefight.rulesets.vv.scenario import load_board_scenario, sample_board_scenarios
from firefight.rulesets.vv.units import HexUnits, Unit
from firefight.web.app import create_app
from tests.cli.test_move_lanes_overrun_cli import tank
from tests.cli.test_roll_ask import asked_lines, piped
from tests.helpers import run_cli
from tests.rulesets.vv.test_overrun_move import PATH, example

SQUAD = Unit("squad", 5, name="de-sq1", half_squad_rating=3)
EXAMPLE_HEX = HexUnits(
    (SQUAD, Unit("squad", 5, name="de-sq2", half_squad_rating=3), Unit("leader", 2, name="ldr"))
)
"""Chapter 19's target hex: two squads of rating 5 (half squads 3) and Schmidt (2)."""
MOVE = ["move", "village", "--stack", "0206", "--path", "0306,0406,0506,0606"]


def test_in_order_eliminates_one_squad_and_pins_the_other_as_the_example() -> None:
    """Chapter 19: "eliminate one squad to cover five Casualty Points, and pins the other
    squad to cover the final Casualty Point" (6 CPs); least_rating_lost does otherwise."""
    book = (Casualty("eliminate", 5), Casualty("pin", 1), NONE)
    assert ordered_allocation(EXAMPLE_HEX, 6, (0, 1)) == book
    assert default_allocation(EXAMPLE_HEX, 6, "in_order") == book
    assert default_allocation(EXAMPLE_HEX, 6) != book
    assert book in legal_allocations(EXAMPLE_HEX, 6)


def test_the_first_of_the_order_takes_the_most() -> None:
    """The last unit of the order is spared first: 2 CPs reduce the first squad; named the
    other way round, the second."""
    two = HexUnits((SQUAD, Unit("squad", 5, name="de-sq2", half_squad_rating=3)))
    assert ordered_allocation(two, 2, (0,)) == (Casualty("reduce", 2), NONE)
    assert ordered_allocation(two, 2, (1,)) == (NONE, Casualty("reduce", 2))
    assert ordered_allocation(two, 0, (1,)) == (NONE, NONE)


def test_the_policy_allocator_reads_the_hex_then_all_then_the_policy() -> None:
    ids = ("de-sq1", "de-sq2", "ldr")
    allocator = PolicyAllocator(orders=(("0402", ("de-sq2", "de-sq1")), ("all", ("de-sq1",))))
    here = allocator(Hit("0402", "de", ids, EXAMPLE_HEX, 6))
    assert here == (Casualty("pin", 1), Casualty("eliminate", 5), NONE)
    elsewhere = allocator(Hit("0403", "de", ids, EXAMPLE_HEX, 6))
    assert elsewhere == (Casualty("eliminate", 5), Casualty("pin", 1), NONE)
    plain = PolicyAllocator()(Hit("0403", "de", ids, EXAMPLE_HEX, 6))
    assert plain == default_allocation(EXAMPLE_HEX, 6)


def test_orders_as_typed_and_their_one_line_refusals() -> None:
    assert parse_orders("us-sq1/us-sq2, 0406=us-ldr/us-sq1") == {
        "all": ["us-sq1", "us-sq2"],
        "0406": ["us-ldr", "us-sq1"],
    }
    with pytest.raises(InputError, match="HEX=ID/ID"):
        parse_orders("0406=")
    with pytest.raises(InputError, match="each hex named once"):
        parse_orders("a/b,all=b/a")
    with pytest.raises(InputError, match="casualty_policy"):
        policy_allocator("bogus", None, hexes=[], units=[])
    with pytest.raises(InputError, match="each unit named once"):
        policy_allocator("in_order", {"all": ["a", "a"]}, hexes=[], units=["a"])


def test_a_move_consults_its_allocator_with_each_hit() -> None:
    """The hook (``plan_move(..., allocator=...)``): asked with the hex hit, the moving side
    (the owner), the units hit and the CPs; its answer is applied and noted."""
    scenario = load_board_scenario("village")
    asked: list[Hit] = []

    def owner(hit: Hit) -> tuple[Casualty, ...]:
        asked.append(hit)
        return ordered_allocation(hit.units, hit.cps, (len(hit.ids) - 1,))

    plan = plan_move(scenario, "0206", ["0306", "0406", "0506", "0606"], allocator=owner)
    model, _ = build_move(plan, "first_sight")
    run = model_run(model, seed=3)
    assert asked
    assert {h.owner for h in asked} == {"us"}
    assert all(h.hex in {"0306", "0406", "0506", "0606"} and h.cps > 0 for h in asked)
    first = asked[0]
    noted = [str(e.value) for s in run.run.steps for e in s.trace if "allocation" in e.label]
    expected = owner(first)
    assert noted[0] == first.entries(expected)


def test_an_illegal_answer_of_the_hook_is_refused_in_one_line() -> None:
    scenario = load_board_scenario("village")

    def nothing(hit: Hit) -> tuple[Casualty, ...]:
        return (NONE,) * len(hit.ids)

    plan = plan_move(scenario, "0206", ["0306", "0406", "0506", "0606"], allocator=nothing)
    model, _ = build_move(plan, "first_sight")
    with pytest.raises(FirefightError, match="illegal allocation"):
        model_run(model, seed=3)


def test_move_allocation_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    """``--allocation all=us-sq1/us-sq2``: us-sq1 takes the 4 CPs of the first hit (seed 3),
    where the policy reduced and pinned us-sq2 and pinned the leader."""
    code, out, _ = run_cli(capsys, *MOVE, "--seed", "3", "--json")
    assert code == 0
    default = json.loads(out)
    code, out, _ = run_cli(capsys, *MOVE, "--seed", "3", "--allocation", "us-sq1/us-sq2", "--json")
    assert code == 0
    chosen = json.loads(out)
    first = next(
        e["value"] for s in chosen["steps"] for e in s["trace"] if e["label"] == "14.61 allocation"
    )
    assert first == "us-sq1 eliminate 4"
    assert chosen["allocation"] == {
        "policy": "least_rating_lost",
        "orders": {"all": ["us-sq1", "us-sq2"]},
    }
    assert default["allocation"]["orders"] == {}
    code, _, err = run_cli(capsys, *MOVE, "--allocation", "0906=us-sq1")
    assert code == 2
    assert "'--allocation' must be a hex its units may be hit in" in err
    code, _, err = run_cli(capsys, *MOVE, "--casualty-policy", "most")
    assert code == 2
    assert "'--casualty-policy' must be one of least_rating_lost, in_order" in err


def test_move_allocation_on_the_web() -> None:
    """The API takes the same fields: ``allocation`` {hex: [ids]}, ``casualty_policy``."""
    client = TestClient(create_app())
    body = {
        "scenario": sample_board_scenarios()["village"].read_text(encoding="utf-8"),
        "stack": "0206",
        "path": ["0306", "0406", "0506", "0606"],
        "seed": 3,
        "allocation": {"all": ["us-sq1", "us-sq2"]},
    }
    answer = client.post("/api/vv/move", json=body)
    assert answer.status_code == 200, answer.text
    notes = [e["value"] for s in answer.json()["steps"] for e in s["trace"]]
    assert "us-sq1 eliminate 4" in notes
    bad = client.post("/api/vv/move", json={**body, "casualty_policy": "most"})
    assert bad.status_code == 422
    assert "'casualty_policy' must be one of least_rating_lost, in_order" in bad.text


def overrun(**kwargs: object):
    return build_overrun(
        example(), "0405", PATH, armour=("E", "C"), at_ratings={"de-sq1": "D"}, **kwargs
    )


def test_the_overrun_example_is_played_as_the_defender_allocates() -> None:
    """The example's dice (Panzerfaust 7, 11; overrun 2: 6 CPs), the German order sq1 then
    sq2: one squad eliminated, the other pinned, Schmidt unhurt."""
    allocator = policy_allocator(
        "least_rating_lost",
        {"0402": ["de-sq1", "de-sq2"]},
        hexes=["0402"],
        units=["de-sq1", "de-sq2"],
    )
    run = resolve_overrun_move(overrun(allocator=allocator), roll=[3, 4, 5, 6, 1, 1])
    assert run.outcome.defenders == ("eliminated", "pinned", "unhurt")
    noted = [str(e.value) for e in run.trace if e.label == "14.61 allocation"]
    assert noted == ["eliminate 5, pin 1, none"]
    plain = resolve_overrun_move(overrun(), roll=[3, 4, 5, 6, 1, 1])
    assert plain.outcome.defenders != ("eliminated", "pinned", "unhurt")


def test_the_overrun_hook_is_asked_with_the_target_hex_and_the_defender() -> None:
    asked: list[Hit] = []

    def owner(hit: Hit) -> tuple[Casualty, ...]:
        asked.append(hit)
        return ordered_allocation(hit.units, hit.cps, (1, 0))

    run = resolve_overrun_move(overrun(allocator=owner), roll=[3, 4, 5, 6, 1, 1])
    assert [(h.hex, h.owner, h.ids, h.cps) for h in asked] == [
        ("0402", "de", ("de-sq1", "de-sq2", "schmidt"), 6)
    ]
    assert run.outcome.defenders == ("pinned", "eliminated", "unhurt")


def test_the_defender_holds_the_panzerfaust_for_the_rear_armour() -> None:
    """19.2: under the player policy a unit not named holds its fire: the Panzerfaust does
    not fire at D3 (front armour) and fires as Final Opportunity Fire at the rear."""
    held = overrun(policy="player", player={})
    assert held.approach == ((), ())
    assert held.exit_fire == ()
    assert held.final[0].rear_armour == "C"
    named = overrun(policy="player", player={"de-sq1": "0401"})
    assert [(s.firer, s.at, s.moment) for s in named.exit_fire] == [("de-sq1", "0401", "exits")]
    assert named.final == {}  # 12.5: the Panzerfaust is spent
    first = overrun()
    assert [s.firer for shots in first.approach for s in shots] == ["de-sq1"]
    assert overrun_odds(held).afv != overrun_odds(first).afv
    with pytest.raises(InputError, match="a unit with an AT shot on this overrun"):
        overrun(policy="player", player={"schmidt": "0403"})
    with pytest.raises(InputError, match=r"fire\.de-sq1"):
        overrun(policy="player", player={"de-sq1": "0404"})


def test_overrun_options_are_applied_or_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``--overrun --policy player --fire``: applied to the AT fire (the Panzerschreck held
    without ``--fire``, fired where named); an option the overrun does not read is refused in
    one line, as ``--position-cost`` without ``--overrun``."""
    base = [*tank(tmp_path), "--armour", "E,C", "--at", "de-sq=D", "--json"]
    code, out, err = run_cli(capsys, *base)
    assert code == 0, err
    assert [s["hex"] for s in json.loads(out)["overrun"]["at_fire"]] == ["0211"]
    code, out, err = run_cli(capsys, *base, "--policy", "player")
    assert code == 0, err
    held = json.loads(out)["overrun"]
    assert held["at_fire"] == []
    assert held["final_fire"] == ["de-sq"]
    assert held["policy"] == "player"
    code, out, err = run_cli(capsys, *base, "--policy", "player", "--fire", "de-sq=0209")
    assert code == 0, err
    assert [s["moment"] for s in json.loads(out)["overrun"]["at_fire"]] == ["exits"]
    code, out, err = run_cli(
        capsys, *base, "--allocation", "0210=de-sq", "--casualty-policy", "in_order"
    )
    assert code == 0, err
    assert json.loads(out)["overrun"]["allocation"] == {
        "policy": "in_order",
        "orders": {"0210": ["de-sq"]},
    }
    for option, value, message in [
        ("--lanes", "never", "'--lanes' must be left out with --overrun"),
        ("--threshold", "2", "'--threshold' must be left out with --overrun"),
        ("--assault", None, "'--assault' must be left out with --overrun"),
        ("--fire", "de-sq=0209", "'--fire' must be given with --policy player only"),
        ("--allocation", "0211=de-sq", "'--allocation' must be a hex its units may be hit in"),
    ]:
        extra = [option] if value is None else [option, value]
        code, _, err = run_cli(capsys, *base, *extra)
        assert code == 2, (option, err)
        assert message in err
        assert len(err.strip().splitlines()) == 1


def cli_out(*args: str) -> tuple[int, str, str]:
    """``firefight ARGS`` with nothing on standard input."""
    return piped(*args, lines="")


class Owner:
    """A player at the table (:class:`~firefight.chance.asked.Ask`): the rolls given, and the
    allocation in words at each hit; each question kept."""

    def __init__(self, rolls: list[str], allocation: str) -> None:
        self.rolls = iter(rolls)
        self.allocation = allocation
        self.asked: list[tuple[str, tuple[str, ...]]] = []

    def ask_roll(self, purpose: str, dice: Any) -> Any:
        return dice.read(next(self.rolls))

    def ask_choice(self, purpose: str, options: Sequence[str]) -> str:
        self.asked.append((purpose, tuple(options)))
        return self.allocation


BOOK = "de-sq1 eliminate 5, de-sq2 pin 1"
"""Chapter 19: "eliminate one squad to cover five Casualty Points, and pins the other squad to
cover the final Casualty Point"."""


def test_under_an_asked_run_the_defender_chooses_the_allocation_as_the_example() -> None:
    """The overrun's 6 CPs known, the German player is asked among the legal allocations (the
    policy's first) and eliminates one squad, pinning the other; the replay gives the choice
    as ``#N`` and repeats the run; seeded and given up front without it, the policy."""
    owner = Owner(["3+4", "5+6", "1+1"], BOOK)
    with asking(owner):
        run = resolve_overrun_move(overrun(), roll=["ask"])
    assert run.outcome.defenders == ("eliminated", "pinned", "unhurt")
    [(purpose, options)] = owner.asked
    assert purpose == "14.6 allocation of 6 CPs in 0402 (de)"
    expected = {
        Hit("0402", "de", ("de-sq1", "de-sq2", "schmidt"), EXAMPLE_HEX, 6).entries(a)
        for a in legal_allocations(EXAMPLE_HEX, 6)
    }
    assert set(options) == expected
    assert BOOK in options
    plain = resolve_overrun_move(overrun(), roll=[3, 4, 5, 6, 1, 1])
    noted = next(str(e.value) for e in plain.trace if e.label == "14.61 allocation")
    assert options[0] == ", ".join(
        f"{i} {c}"
        for i, c in zip(("de-sq1", "de-sq2", "schmidt"), noted.split(", "), strict=True)
        if c != "none"
    )
    replay = run.replay_values()
    assert replay == ["3+4", "5+6", "1+1", f"#{options.index(BOOK) + 1}"]
    again = resolve_overrun_move(overrun(), roll=replay)
    assert again.outcome == run.outcome
    assert again.trace == run.trace
    assert plain.outcome.defenders != run.outcome.defenders


def test_an_order_declared_is_not_asked_again() -> None:
    """``--allocation`` for the hex: the owner declared it before the run (no question)."""
    allocator = policy_allocator(
        "least_rating_lost",
        {"0402": ["de-sq1", "de-sq2"]},
        hexes=["0402"],
        units=["de-sq1", "de-sq2"],
    )
    owner = Owner(["3+4", "5+6", "1+1"], "never asked")
    with asking(owner):
        run = resolve_overrun_move(overrun(allocator=allocator), roll=["ask"])
    assert owner.asked == []
    assert run.outcome.defenders == ("eliminated", "pinned", "unhurt")


def test_the_owner_picks_the_allocation_through_a_pipe() -> None:
    """``move --roll ask`` read from a pipe: at the first hit (4 CPs in 0306) the moving
    player takes them all on us-sq1, which the policy spares; the answer shows it, its replay
    (``#N``) repeats the run, and the input ending at the question is refused in one line."""
    code, out, _ = cli_out(*MOVE, "--seed", "3", "--json")
    assert code == 0
    seeded = json.loads(out)
    first_roll = seeded["replay"][0]
    code, out, err = piped(*MOVE, "--roll", "ask", "--json", lines=f"{first_roll}\n")
    assert code == 2
    assert err.startswith("error: '--roll' must be one value a line")
    assert "before the choice for '14.6 allocation of 4 CPs in 0306 (us)'" in err
    assert len(err.strip().splitlines()) == 1
    code, out, _ = cli_out(*MOVE, "--seed", "3", "--allocation", "us-sq1/us-sq2", "--json")
    ordered = json.loads(out)
    code, out, err = piped(*MOVE, "--roll", "ask", "--json", lines=asked_lines(ordered))
    assert (code, err) == (0, "")
    chosen = json.loads(out)
    notes = [e["value"] for s in chosen["steps"] for e in s["trace"] if "allocation" in e["label"]]
    assert notes[:2] == ["us-sq1 eliminate 4", "us-sq1 eliminate 4"]
    assert chosen["outcome"] == ordered["outcome"] != seeded["outcome"]
    code, out, _ = cli_out(*MOVE, "--roll", ",".join(chosen["replay"]), "--json")
    assert json.loads(out) == chosen
    body = {
        "scenario": sample_board_scenarios()["village"].read_text(encoding="utf-8"),
        "stack": "0206",
        "path": ["0306", "0406", "0506", "0606"],
        "roll": ",".join(chosen["replay"]),
    }
    answer = TestClient(create_app()).post("/api/vv/move", json=body)  # the web replays it too
    assert answer.status_code == 200, answer.text
    assert answer.json()["outcome"] == chosen["outcome"]
    code, out, err = piped(*MOVE, "--roll", "ask", lines=asked_lines(ordered))
    assert "us-sq1 eliminate 4" in out
    assert "replay with: --roll " + ",".join(chosen["replay"]) in out
