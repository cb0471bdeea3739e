"""Scatter on the board: where a fire aimed at a hex lands.

A rule set's scatter procedure gives a direction (1d6, numbered clockwise from the top as on
the V&V Artillery Scatter Diagram) and a distance in hexes; the impact hex lies that many hexes
from the aim hex in a straight line along that direction. The direction die is uniform and
independent of the distance, so the exact distribution of impact hexes follows from the
distance distribution alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from firefight.board.hexes import DIRECTIONS, Hex
from firefight.chance.distribution import Distribution


def impact_hex(aim: Hex, direction: int, distance: int) -> Hex:
    """The hex ``distance`` hexes from ``aim`` along ``direction`` (1-6)."""
    first = aim.neighbour(direction)  # names a bad direction clearly
    return aim if distance == 0 else first.step(direction, distance - 1)


def impact_distribution(aim: Hex, distances: Mapping[int, Fraction]) -> Distribution[Hex]:
    """The exact distribution of impact hexes, given that of the scatter distance."""
    probabilities: dict[Hex, Fraction] = {}
    for distance, p in distances.items():
        if distance == 0:
            probabilities[aim] = probabilities.get(aim, Fraction(0)) + p
            continue
        for direction in DIRECTIONS:
            hex_ = impact_hex(aim, direction, distance)
            probabilities[hex_] = probabilities.get(hex_, Fraction(0)) + p / len(DIRECTIONS)
    return Distribution(probabilities)
