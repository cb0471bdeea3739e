"""The board feeds the fire forms with the LOS *rule's* numbers (each LOS rule is written once, as a
SightRule; the policy's ``explain`` only names the reasons, from the rule's record of the line)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from firefight.board.board import Board
from firefight.board.los import Hindrance, line_of_sight
from firefight.rulesets.board_fire import fire_inputs
from firefight.rulesets.ept.board import EPT_LOS, EptLosPolicy


def test_ept_hindrance_hexes_is_the_rules_modifier_not_the_named_reasons():
    """A policy that names a reason the rule did not count changes no input of the fire form."""

    @dataclass(frozen=True)
    class Talkative(EptLosPolicy):
        def explain(self, board, record):
            told = super().explain(board, record)
            extra = Hindrance("hex nowhere", "mist", 1)
            return replace(told, hindrances=(*told.hindrances, extra))

    shell = Board("b", "ept", 1, 6)  # one column: a straight line down it
    board = replace(shell, terrain={shell.hex("0103"): "orchard"})
    a, b = board.hex("0101"), board.hex("0106")
    honest = fire_inputs(board, a, b, line_of_sight(board, a, b, EPT_LOS))
    assert honest.inputs["hindrance_hexes"] == "1"
    verdict = line_of_sight(board, a, b, Talkative())
    assert verdict.modifier == 1
    assert fire_inputs(board, a, b, verdict).inputs == honest.inputs
