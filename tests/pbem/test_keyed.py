"""The keyed dice (HMAC-SHA256, rejection sampling): independent of numpy, exactly uniform."""

from __future__ import annotations

import hashlib
import hmac
import json
from collections import Counter

from firefight.chance import Deck, Dice
from firefight.chance import keyed as keyed_module
from firefight.chance.keyed import Keyed, keyed, uniform
from firefight.pbem import chain
from firefight.rulesets import ruleset

KEY = bytes(range(64))
CONTEXT = {"game": "g", "index": 1}
PINNED = ["1+5"]
"""The dice KEY and CONTEXT give for EPT fire at strength 6, adjacent (computed once)."""


def _independent_uniform(  # noqa: PLR0917 - the HMAC message's parts
    key: bytes, context: dict, event: int, label: str, draw: int, n: int
) -> int:
    """docs/pbem.md's recipe, written again from the page (what a verifier elsewhere does)."""
    attempt = 1
    while True:
        data = {**context, "event": event, "label": label, "draw": draw, "try": attempt}
        text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        value = int.from_bytes(hmac.new(key, text.encode(), hashlib.sha256).digest()[:8], "big")
        value &= (1 << (n - 1).bit_length()) - 1
        if value < n:
            return value
        attempt += 1


def test_uniform_follows_the_documented_recipe():
    for n in (1, 2, 6, 10, 36, 1000):
        for draw in range(1, 30):
            assert uniform(KEY, CONTEXT, 3, "fire", draw, n) == _independent_uniform(
                KEY, CONTEXT, 3, "fire", draw, n
            )


def test_rejection_sampling_rejects_values_above_the_faces(monkeypatch):
    """A try whose low bits give 6 or 7 for a d6 is rejected, never folded by a modulo."""
    tries = iter([7, 6, 5])

    class FakeDigest:
        def __init__(self, value: int) -> None:
            self.value = value

        def digest(self) -> bytes:
            return self.value.to_bytes(8, "big") + bytes(24)

    monkeypatch.setattr(keyed_module.hmac, "new", lambda *_: FakeDigest(next(tries)))
    assert uniform(KEY, CONTEXT, 1, "x", 1, 6) == 5


def test_each_face_of_a_die_has_exactly_the_same_share_of_hmac_values():
    """Over the 3-bit values a d6 reads, each face keeps exactly one: no face is favoured."""
    accepted = Counter(value for value in range(8) if value < 6)
    assert sorted(accepted) == list(range(6))
    assert set(accepted.values()) == {1}


def test_keyed_dice_are_roughly_uniform_over_many_contexts():
    counts = Counter(uniform(KEY, {"i": i}, 1, "d6", 1, 6) for i in range(6000))
    assert all(900 < counts[face] < 1100 for face in range(6))


def test_keyed_rolls_draws_and_counts_are_traced():
    chance = Keyed(KEY, CONTEXT)
    total = chance.roll(Dice.d(6, 2), "fire")
    card = chance.draw(Deck.of({"a": 1, "b": 3}), "card")
    hits = chance.count(Dice.d(6, 3), lambda face: face >= 5, "pool")
    assert [event.label for event in chance.trace] == ["fire", "card", "pool"]
    assert chance.trace[0].value == total == sum(chance.trace[0].dice)
    assert card in {"a", "b"}
    assert hits == sum(1 for face in chance.trace[2].dice if face >= 5)


def test_the_same_key_and_context_give_the_same_resolution_and_another_key_others():
    procedure = ruleset("ept").procedure("fire")
    inp = procedure.parse({"strength": 6, "range": "adjacent"})
    first = keyed(lambda c: procedure.rule(inp, c), KEY, CONTEXT)
    again = keyed(lambda c: procedure.rule(inp, c), KEY, CONTEXT)
    assert first == again
    others = {
        tuple(keyed(lambda c: procedure.rule(inp, c), KEY, {"index": i}).replay_values())
        for i in range(20)
    }
    assert len(others) > 1
    # replayed through the procedure's own replay: the same outcome and trace
    assert procedure.replay(inp, first.replay_values()) == first


def test_chain_elements_walk_back_to_the_anchor():
    seed = bytes(32)
    top = chain.anchor(seed, 5)
    before = top
    for index in range(1, 6):
        value = chain.element(seed, 5, index)
        assert chain.follows(value, before)
        before = value
    assert chain.sha(seed) == before  # the last element is SHA-256(seed)
    assert chain.seed_reaches(seed, 5, top)
    assert not chain.seed_reaches(bytes(31) + b"\x01", 5, top)


def test_keyed_dice_never_touch_numpys_generator(monkeypatch):
    """Its streams are not promised across versions and machines."""
    import numpy as np  # noqa: PLC0415

    def refuse(*_: object, **__: object) -> None:
        msg = "numpy's generator was used"
        raise AssertionError(msg)

    monkeypatch.setattr(np.random, "Generator", refuse)
    monkeypatch.setattr(np.random, "default_rng", refuse)
    procedure = ruleset("ept").procedure("fire")
    inp = procedure.parse({"strength": 6, "range": "adjacent"})
    resolution = keyed(lambda c: procedure.rule(inp, c), KEY, CONTEXT)
    assert procedure.replay(inp, resolution.replay_values()).outcome == resolution.outcome


def test_a_pinned_roll_stays_the_same_across_versions():
    """The recipe is frozen: this key and context gave these dice when it was written, and a
    change that alters them breaks every journal's verification."""
    procedure = ruleset("ept").procedure("fire")
    inp = procedure.parse({"strength": 6, "range": "adjacent"})
    resolution = keyed(lambda c: procedure.rule(inp, c), KEY, CONTEXT)
    assert resolution.replay_values() == PINNED
