"""Page 8, Infiltration Attempt: the RPNC count (the start and every printed addition, 1 to
10), a morale check for each man, then an RPNC: a red RPN under the count's column
infiltrates, a black one pins (a Hero lets one man retry). Exact odds by
:mod:`.infiltration_walk` (docs/upfront.md, "Page 8")."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Literal

from pydantic import Field

from firefight.chance import Chance
from firefight.chance.distribution import Distribution
from firefight.errors import InputError
from firefight.rulesets.upfront.classes import class_cards
from firefight.rulesets.upfront.group import GroupProcedure
from firefight.rulesets.upfront.infiltration_walk import Infiltration, walk
from firefight.rulesets.upfront.lists import ManIds, shown
from firefight.rulesets.upfront.men import Man
from firefight.rulesets.upfront.page8 import (
    MoraleReading,
    OutOfCards,
    draw_card,
    morale_reads,
    morale_threshold,
    named,
    no_modifiers,
    page8_men,
    passes_morale,
    tally_text,
)
from firefight.rulesets.upfront.pool import pool_for
from firefight.rulesets.upfront.printed import (
    INFILTRATION_MAX,
    INFILTRATION_MIN,
    INFILTRATION_RPN,
    INFILTRATION_VS_AFV,
)
from firefight.rulesets.upfront.resolution import data_facts

__all__ = [
    "INFILTRATION",
    "INFILTRATION_RESULTS",
    "INFILTRATORS_MAX",
    "UpFrontInfiltration",
    "infiltration_count",
    "infiltration_setup",
    "rpn_column",
]

INFILTRATORS_MAX = 10
"""The most infiltrators one infiltration procedure takes: a full group. Exact odds by
:mod:`.infiltration_walk` (the morale checks and the RPNCs counted apart), measured here
(docs/upfront.md, Figures): 10 men of seven morale classes with a Hero over the 162-card pool
in 0.03 to 0.08 s, over any smaller pile (reshuffled) at most 0.12 s, where the walk card by
card took 2.4 s for 3 such men and past 60 s for 4; past 10, a one-line refusal. The walk pays
the web's work budget (:data:`.infiltration_walk.STEPS_PER_MOVE`)."""

Terrain = Literal["none", "brush", "open", "woods", "hill"]
AfvStatus = Literal["buttoned_up", "crew_exposed", "open_topped"]


class UpFrontInfiltration(MoraleReading):
    """Page 8, Infiltration Attempt: each infiltrator passes a morale check, then draws an
    RPNC; he infiltrates if the RPN under the column of the count is red; otherwise he is
    pinned and loses infiltration (a Hero card lets one man retry)."""

    infiltrators: ManIds = Field(
        ("ger-rifle-1",),
        description=f"The men attempting infiltration (ids, 1 to {INFILTRATORS_MAX}).",
    )
    target: Literal["infantry", "afv"] = Field(
        "infantry", description="The opposing group: infantry or an AFV (page 8 footnote)."
    )
    unpinned_defenders: int = Field(
        1,
        ge=0,
        le=10,
        description="Infantry target: the number of unpinned men in the opposing group.",
    )
    afv_status: AfvStatus = Field(
        "buttoned_up",
        description=(
            "AFV target: start with 2 (buttoned_up), 4 (crew_exposed) or 5 (open_topped "
            "with infantry)."
        ),
    )
    night: bool = Field(False, description="Night: +3.")
    smoke: int = Field(0, ge=0, le=2, description="SMOKE cards on either group (A/D): +2 each.")
    from_terrain: Terrain = Field(
        "none",
        description="The terrain infiltrated from: brush +2, open (ground) +2, woods +1, hill +1.",
    )
    pillbox: bool = Field(False, description="Vs. pillbox: +1.")
    jungle: bool = Field(False, description="Jungle scenario: +1.")
    commander_kia: int = Field(0, ge=0, le=3, description="Vs. AFV: +1 per commander KIA.")
    morale_check: Literal["each", "none"] = Field(
        "each",
        description=(
            "each (every infiltrator first passes a morale check, failing: pinned; the chart's "
            "MORALE CHECK box) or none (the RPNC alone decides)."
        ),
    )
    hero: bool = Field(
        False,
        description="A Hero is played: the first man whose RPNC is black draws it again.",
    )


def infiltration_count(inp: UpFrontInfiltration, japanese: bool) -> tuple[int, list[str]]:
    """Page 8's RPNC column: the start (unpinned defenders, or 2/4/5 against an AFV) plus every
    printed addition, clamped to 1..10; with the items, for the trace."""
    if inp.target == "afv":
        count = INFILTRATION_VS_AFV[inp.afv_status]
        items = [f"start {count} (AFV {inp.afv_status.replace('_', ' ')})"]
    else:
        count = inp.unpinned_defenders
        items = [f"start {count} (unpinned defenders)"]
    adds: list[tuple[str, int]] = []
    if inp.night:
        adds.append(("night", INFILTRATION_RPN["night"]))
    if inp.smoke:
        adds.append((f"smoke x{inp.smoke}", INFILTRATION_RPN["smoke"] * inp.smoke))
    if inp.from_terrain != "none":
        adds.append((f"from {inp.from_terrain}", INFILTRATION_RPN[inp.from_terrain]))
    if inp.pillbox:
        adds.append(("vs pillbox", INFILTRATION_RPN["pillbox"]))
    if japanese:
        adds.append(("Japanese", INFILTRATION_RPN["japanese"]))
    if inp.jungle:
        adds.append(("jungle", INFILTRATION_RPN["jungle"]))
    if inp.commander_kia:
        if inp.target != "afv":
            raise InputError("commander_kia", "0 unless target = afv", inp.commander_kia)
        adds.append(
            (
                f"commander KIA x{inp.commander_kia}",
                INFILTRATION_RPN["commander_kia"] * inp.commander_kia,
            )
        )
    for name, value in adds:
        count += value
        items.append(f"{name} +{value}")
    clamped = min(INFILTRATION_MAX, max(INFILTRATION_MIN, count))
    if clamped != count:
        items.append(f"{count} -> {clamped} (min 1, max 10)")
    return clamped, items


def rpn_column(count: int) -> int:
    """The RPN column read for a count: 1-9 as is, 10 in column 0 (the tenth, "0r")."""
    return count % 10


def infiltration_setup(inp: UpFrontInfiltration) -> tuple[tuple[Man, ...], int, list[str]]:
    men = page8_men(inp, "infiltrators", inp.infiltrators, INFILTRATORS_MAX)
    if len({m.nationality for m in men}) > 1:
        raise InputError("infiltrators", "men of one nationality", shown(inp.infiltrators))
    count, items = infiltration_count(inp, men[0].nationality == "japanese")
    return men, count, items


INFILTRATION_RESULTS = ("infiltrated", "pinned (morale check)", "pinned", "not attempted")


def _infiltration_rule(inp: UpFrontInfiltration, chance: Chance) -> str:
    men, count, _ = infiltration_setup(inp)
    column = rpn_column(count)
    checked = men if inp.morale_check == "each" else ()
    pool = pool_for(inp, morale_reads(inp, checked, (column,)))
    label = pool.data.columns[column]
    state = pool.start
    hero = inp.hero
    results: list[str] = []
    try:
        for position, man in enumerate(men, 1):
            if inp.morale_check == "each":
                card, state = draw_card(pool, chance, state, f"morale check, man {position}")
                if not passes_morale(card.rn.value, man.morale, inp.morale_pass):
                    chance.note(man.id, f"RN {card.rn.value} fails morale {man.morale}: pinned")
                    results.append("pinned (morale check)")
                    continue
            card, state = draw_card(pool, chance, state, f"infiltration RPNC, man {position}")
            red = card.rpn[column].red
            if not red and hero:
                hero = False
                chance.note(man.id, f"RPN({label}) black: the Hero retries")
                card, state = draw_card(pool, chance, state, f"Hero retry, man {position}")
                red = card.rpn[column].red
            verdict = "infiltrated" if red else "pinned"
            chance.note(man.id, f"RPN({label}) {'red' if red else 'black'}: {verdict}")
            results.append(verdict)
    except OutOfCards:
        results.extend("not attempted" for _ in men[len(results) :])
    if len(men) == 1:
        return results[0]
    return tally_text(results, INFILTRATION_RESULTS[:3])


def _infiltration_odds(inp: UpFrontInfiltration) -> Distribution[str]:
    """Exact odds of :func:`_infiltration_rule` by :func:`.infiltration_walk.walk`: the
    morale checks and the RPNCs counted apart where the pile cannot run out, the rule's own
    steps over pool states where it can (tested equal to prefix replay of the rule)."""
    men, count, _ = infiltration_setup(inp)
    column = rpn_column(count)
    checked = men if inp.morale_check == "each" else ()
    pool = pool_for(inp, morale_reads(inp, checked, (column,)))
    atoms, start, refill = [], [], []
    for card, left, again in zip(
        class_cards(pool), pool.start.counts(), pool.refill.counts(), strict=True
    ):
        if card is not None:
            atoms.append((card.rn.value, card.rpn[column].red))
            start.append(left)
            refill.append(again)
    attempt = Infiltration(
        thresholds=tuple(
            morale_threshold(m.morale, inp.morale_pass) if inp.morale_check == "each" else None
            for m in men
        ),
        hero=inp.hero,
        atoms=tuple(atoms),
        start=tuple(start),
        refill=tuple(refill),
        end_attack=inp.reshuffle == "end_attack" or sum(refill) == 0,
    )
    odds: dict[str, Fraction] = {}
    for tally, weight in walk(attempt).items():
        name = named(tally, INFILTRATION_RESULTS, INFILTRATION_RESULTS[:3])
        odds[name] = odds.get(name, Fraction(0)) + weight
    return Distribution(odds)


def _infiltration_facts(inp: UpFrontInfiltration) -> Sequence[tuple[str, str]]:
    _, count, items = infiltration_setup(inp)
    facts = data_facts(inp)
    columns = inp.deck_data().columns
    facts.append(("RPNC count", f"{count}: " + ", ".join(items)))
    facts.append(("column read", f"{columns[rpn_column(count)]} (infiltrate on a red RPN)"))
    return facts


INFILTRATION: GroupProcedure[UpFrontInfiltration] = GroupProcedure(
    name="infiltration",
    title="Infiltration attempt: infiltrate on a red RPN under the count's column (page 8)",
    input_model=UpFrontInfiltration,
    rule=_infiltration_rule,
    modifiers=no_modifiers,
    facts=_infiltration_facts,
    outcome_order=INFILTRATION_RESULTS,
    exact_odds=_infiltration_odds,
    meanings={
        "infiltrated": "a red RPN under the count's column: the man infiltrates",
        "pinned (morale check)": "the morale check failed: MAN PINNED, lose INF",
        "pinned": "a black RPN: MAN PINNED, flip to the pinned side, lose INF",
        "not attempted": "the pile ran out (reshuffle = end_attack)",
    },
)
