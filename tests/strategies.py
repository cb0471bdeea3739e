"""Hypothesis strategies shaped like the domain."""

from __future__ import annotations

from hypothesis import strategies as st

from firefight.rulesets.vv.units import HexUnits, Unit

RANGES = ("adjacent", "normal", "long")
MOVEMENTS = ("none", "tactical", "normal", "force_march")
PROTECTIONS = ("none", "light", "medium", "important")


@st.composite
def ept_fire_inputs(draw: st.DrawFn, follow_up: bool = False) -> dict[str, object]:
    """Raw input for ``ept fire`` that can attack (final factor of at least 1, LOS open)."""
    data: dict[str, object] = {
        "strength": draw(st.integers(1, 45)),
        "range": draw(st.sampled_from(RANGES)),
        "moved_and_fired": draw(st.booleans()),
        "firer_stopped": draw(st.booleans()),
        "firer_in_smoke": draw(st.booleans()),
        "target_hidden": draw(st.booleans()),
        "target_movement": draw(st.sampled_from(MOVEMENTS)),
        "gun_fired_on_from_front": draw(st.booleans()),
        "protection": draw(st.sampled_from(PROTECTIONS)),
        "target_in_smoke": draw(st.booleans()),
        "hindrance_hexes": draw(st.integers(0, 3)),
        "factor_rounding": draw(st.sampled_from(("down", "nearest", "up"))),
    }
    if data["range"] == "adjacent":  # no hex between adjacent hexes to hinder
        data["hindrance_hexes"] = 0
    halvings = sum(
        bool(data[k])
        for k in ("moved_and_fired", "firer_stopped", "firer_in_smoke", "target_hidden")
    ) + (data["range"] == "long")
    doubling = 2 if data["range"] == "adjacent" else 1
    if data["strength"] * doubling < 2**halvings:  # type: ignore[operator]
        data["strength"] = 2**halvings
    if follow_up:
        data["follow_up"] = "morale_test"
        data["morale"] = draw(st.integers(1, 12))
        data["test_digit"] = draw(st.sampled_from(("adds_to_roll", "ignored")))
        data["passed_neutralization"] = draw(st.sampled_from(("no_effect", "stopped")))
    return data


@st.composite
def small_decks(draw: st.DrawFn, max_signatures: int = 4, max_count: int = 4) -> dict[str, int]:
    """A small deck as ``{signature: count}`` with at least one card."""
    names = "abcdef"[: draw(st.integers(1, max_signatures))]
    deck = {name: draw(st.integers(0, max_count)) for name in names}
    if not any(deck.values()):
        deck[names[0]] = 1
    return deck


@st.composite
def chain_tables(draw: st.DrawFn, max_states: int = 5) -> tuple[int, tuple[tuple[int, ...], ...]]:
    """An absorbing chain on states ``0..m-1`` (non-terminal) and ``m``, ``m+1`` (terminal),
    stepped by a d6: ``table[state][face - 1]`` is the next state. Cycles are allowed; a 6
    always moves on to ``state + 1`` so that a terminal state is reachable from every state."""
    m = draw(st.integers(1, max_states))
    targets = st.integers(0, m + 1)
    table = tuple((*(draw(targets) for _ in range(5)), state + 1) for state in range(m))
    return m, table


@st.composite
def vv_units(draw: st.DrawFn, carrier: bool = True) -> Unit:
    """A V&V unit that may be hit by AP fire: infantry of any rating, pinned or valorous, or
    a vehicle or Gun (a shield, passengers when ``carrier``)."""
    kind = draw(
        st.sampled_from(
            ["squad", "half_squad", "leader", "unarmoured_vehicle", "armoured_vehicle", "gun"]
            if carrier
            else ["squad", "half_squad", "leader"]
        )
    )
    rating = draw(st.integers(2 if kind == "squad" else 1, 6))
    pinned = draw(st.booleans())
    if kind in ("squad", "half_squad", "leader"):
        half = draw(st.integers(1, rating - 1)) if kind == "squad" else None
        valorous = draw(st.booleans())
        return Unit(kind, rating, half_squad_rating=half, pinned=pinned, valorous=valorous)
    riders = draw(st.lists(vv_units(carrier=False), max_size=2)) if kind != "gun" else []
    shield = kind == "gun" and draw(st.booleans())
    return Unit(kind, rating, pinned=pinned, gun_shield=shield, passengers=tuple(riders))


@st.composite
def vv_hexes(draw: st.DrawFn, max_slots: int = 4) -> HexUnits:
    """A V&V hex of one to three units, at most ``max_slots`` with the passengers."""
    units = draw(st.lists(vv_units(), min_size=1, max_size=3))
    found = units[:1]
    for unit in units[1:]:
        if sum(1 + len(u.passengers) for u in (*found, unit)) <= max_slots:
            found.append(unit)
    return HexUnits(tuple(found))
