"""The valor check as a known phase (16.2): its exact kernel and its batch draws agree with the
phase run on a chance, and an attack whose checks are not due is left as it is."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from firefight.chance import exact
from firefight.rulesets.vv.ap import Rolled, ValorCheck

KINDS = st.sampled_from(["squad", "half_squad", "leader"])
STATES = st.builds(
    Rolled,
    st.sampled_from(["-", "1", "4"]),
    st.booleans(),
    st.sampled_from([(), ("firer1",)]),
)


@settings(max_examples=40, deadline=None)
@given(kind=KINDS, rating=st.integers(1, 12), state=STATES)
def test_the_kernel_is_the_check_evaluated(kind, rating, state):
    check = ValorCheck("firer2", kind, rating if kind != "leader" else None)
    replayed = exact(lambda chance: check(state, chance))
    assert dict(check.kernel(state)) == dict(replayed.items())
    if not state.valor_due:
        assert check.kernel(state) == ((state, Fraction(1)),)


@settings(max_examples=20, deadline=None)
@given(kind=KINDS, rating=st.integers(1, 12), state=STATES, seed=st.integers(0, 2**32 - 1))
def test_the_draws_land_on_the_kernel_states(kind, rating, state, seed):
    check = ValorCheck("firer2", kind, rating if kind != "leader" else None)
    drawn = check.draw(state, 500, np.random.default_rng(seed))
    assert sum(n for _, n in drawn) == 500
    assert {s for s, _ in drawn} <= {s for s, _ in check.kernel(state)}
