"""The Up Front walks' contract: a procedure without exact odds says so in one line, and the
rule set is imported without numba (the compiled step loads it when a walk first draws)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from firefight.errors import RuleError
from firefight.rulesets.upfront.fire import RESOLUTION
from firefight.rulesets.upfront.group import GroupProcedure
from firefight.rulesets.upfront.resolution import UpFrontResolution

NO_NUMBA = (
    "import sys\n"
    "import firefight.rulesets.upfront\n"
    "from firefight.rulesets import ruleset\n"
    "ruleset('upfront').procedure('fire')\n"
    "print('numba' in sys.modules)\n"
)


def test_a_group_procedure_without_exact_odds_refuses_in_one_line():
    bare: GroupProcedure[UpFrontResolution] = GroupProcedure(
        "bare", "No walk", UpFrontResolution, RESOLUTION.rule, lambda _: []
    )
    with pytest.raises(RuleError) as refused:
        bare.odds(UpFrontResolution(ffs=3, rr=5))
    assert str(refused.value) == "bare: no exact odds are computed for this procedure"


def test_importing_the_rule_set_does_not_import_numba():
    done = subprocess.run(
        [sys.executable, "-c", NO_NUMBA], capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "False"


def test_a_walk_loads_the_compiled_step_when_it_draws():
    script = (
        "import sys\n"
        "from firefight.rulesets.upfront.fire import RESOLUTION\n"
        "from firefight.rulesets.upfront.resolution import UpFrontResolution\n"
        "RESOLUTION.odds(UpFrontResolution(ffs=3, rr=5))\n"
        "print('numba' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "True"
