"""The compiled walks built once at install (the Makefile), so that the first odds a player asks
for do not wait for numba's compiler: page 3's step (:func:`.kernel.warm`) and page 6's
(:mod:`.malfunction_loop`), which compiles for about 15 s."""

from __future__ import annotations

from firefight.rulesets.upfront import kernel
from firefight.rulesets.upfront.fire import FIRE, UpFrontFire

__all__ = ["warm"]


def warm() -> None:
    """Compile (or load from numba's cache) page 3's step, then page 6's, by asking the odds of
    the smallest fire that draws it: ``firefight odds upfront fire --targets ger-rifle-1
    --firers us-rifle,us-bar --fire-cards 62 --malfunction page6`` (the shipped ILLUSTRATIVE
    men)."""
    kernel.warm()
    FIRE.odds(
        UpFrontFire(
            targets=("ger-rifle-1",),
            firers=("us-rifle", "us-bar"),
            fire_cards=(62,),
            malfunction="page6",
        )
    )
