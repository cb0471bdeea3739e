"""A rule set's procedures declared by name, title and module (``Procedures`` of
``ProcedureInfo``): each is imported when it is asked for, the names and titles are read
without importing any, and going through them all gives what the modules hold, in order.
Parts named by where they are (``deferred``) are imported when first read."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from firefight.errors import FirefightError, InputError
from firefight.rulesets.declared import ProcedureInfo
from firefight.rulesets.ept import INFO, PROCEDURES
from firefight.rulesets.procedure import Procedures, RuleSet, deferred
from firefight.rulesets.registry import ruleset
from tests.test_registry import HOUSE

ROOT = Path(__file__).resolve().parent.parent
SHOT = HOUSE.procedures[0]
DECLARED_SHOT = ProcedureInfo("shot", "One shot", "tests.test_declared_procedures:SHOT")


def _eager_ept() -> tuple[object, ...]:
    """The twin of the declarations: every EPT module's ``PROCEDURES``, imported at once, in
    the order of the chart sheet (as the rule set listed them before they were declared)."""
    from firefight.rulesets.ept import (  # noqa: PLC0415 - the eager twin
        antitank,
        artillery,
        assault,
        command,
        fire,
        observation,
        terrain,
        vehicles,
    )

    modules = (fire, antitank, assault, command, artillery, vehicles, terrain, observation)
    return tuple(p for module in modules for p in module.PROCEDURES)


def test_going_through_the_declared_procedures_gives_every_modules_own():
    loaded = ruleset("ept")
    assert tuple(loaded.procedures) == _eager_ept()
    assert loaded.procedure_names == [p.name for p in _eager_ept()]  # type: ignore[attr-defined]
    assert tuple(loaded.procedure_titles) == INFO.procedure_titles
    assert INFO.procedures == tuple(p.name for p in PROCEDURES)


def test_each_declared_procedure_is_found_by_name_in_any_case():
    loaded = ruleset("ept")
    for procedure in _eager_ept():
        name = procedure.name  # type: ignore[attr-defined]
        assert loaded.procedure(name.upper()) is procedure


def test_asking_for_one_procedure_imports_its_module_alone():
    script = (
        "import sys; from firefight.rulesets import ruleset; "
        "print(ruleset('ept').procedure('fire').name); "
        "print(*sorted(m for m in sys.modules if m.startswith('firefight.rulesets.ept.')))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=ROOT
    )
    name, modules = done.stdout.splitlines()
    assert name == "fire"
    imported = set(modules.split())
    assert "firefight.rulesets.ept.fire" in imported
    others = {p.target.partition(":")[0] for p in PROCEDURES} - {
        "firefight.rulesets.ept.fire",
        "firefight.rulesets.ept.terrain",  # the terrain the fire procedure reads
    }
    assert others  # the antitank, assault, command... modules
    assert not imported & others
    for part in ("engagement", "board", "board_fire", "example", "sight"):
        assert f"firefight.rulesets.ept.{part}" not in imported, part


def test_names_titles_and_length_are_read_without_importing():
    procedures = Procedures(ProcedureInfo("shot", "One shot", "no.such.module:SHOT"))
    assert procedures.names == ("shot",)
    assert procedures.titles == ("One shot",)
    assert len(procedures) == 1
    assert "shot" in repr(procedures)


def test_indexing_and_slicing_import_what_they_give():
    procedures = Procedures(DECLARED_SHOT, SHOT)
    assert procedures[0] is SHOT
    assert procedures[-1] is SHOT
    assert procedures[0:2] == (SHOT, SHOT)
    with pytest.raises(IndexError):
        procedures[2]


def test_an_unknown_name_lists_the_declared_ones():
    house = RuleSet("house", "House rules", "a test", Procedures(DECLARED_SHOT))
    with pytest.raises(InputError, match="shot"):
        house.procedure("volley")
    assert house.procedure("SHOT") is SHOT
    assert house.procedure_titles == ["One shot"]


@pytest.mark.parametrize(
    ("declared", "message"),
    [
        (
            ProcedureInfo("shot", "One shot", "tests.test_registry:Shot"),
            "does not name a Procedure",
        ),
        (ProcedureInfo("shot", "One shot", "tests.test_registry"), "does not name a Procedure"),
        (ProcedureInfo("volley", "One shot", DECLARED_SHOT.target), "is the procedure 'shot'"),
        (ProcedureInfo("shot", "Two shots", DECLARED_SHOT.target), "not the one declared"),
    ],
)
def test_a_declaration_naming_something_else_is_a_clear_error(declared, message):
    with pytest.raises(FirefightError, match=message):
        Procedures(declared)[0]


def test_a_deferred_part_is_imported_when_first_read():
    house = RuleSet(
        "house",
        "House rules",
        "a test",
        (SHOT,),
        example=deferred("tests.test_declared_procedures:DECLARED_SHOT"),
    )
    assert house.example is DECLARED_SHOT
    assert house.example is DECLARED_SHOT  # kept once read


def test_a_deferred_part_naming_nothing_is_a_clear_error():
    house = RuleSet(
        "house", "House rules", "a test", (SHOT,), example=deferred("tests.test_registry:NOTHING")
    )
    with pytest.raises(FirefightError, match="names nothing"):
        _ = house.example


def test_a_chart_asked_by_id_parses_its_own_file_alone():
    from firefight.core.chart import chart_file  # noqa: PLC0415

    loaded = ruleset("ept")
    chart_file.cache_clear()
    try:
        assert loaded.chart("combat").id == "combat"
        assert chart_file.cache_info().currsize == 1
    finally:
        chart_file.cache_clear()


def test_a_chart_by_id_is_the_one_every_chart_lists():
    """The twin of the lookup by file name: the chart of that id among all of them."""
    for found in (ruleset(name) for name in ("ept", "percentile", "tirs", "vv")):
        for chart in found.charts():
            assert found.chart(chart.id) is chart


@pytest.mark.parametrize("chart_id", ["nosuch", "../ept/data/combat", "combat.toml", ""])
def test_an_unknown_chart_id_lists_the_allowed_ones(chart_id):
    with pytest.raises(InputError, match="combat"):
        ruleset("ept").chart(chart_id)


def test_declared_procedures_copy_as_a_rule_set_does():
    """A rule set (and its declared procedures) deep-copies: nothing in it is a lock."""
    import copy  # noqa: PLC0415

    procedures = Procedures(DECLARED_SHOT)
    assert tuple(copy.deepcopy(procedures)) == (SHOT,)


@pytest.mark.parametrize("game", ["ept", "percentile", "tirs", "upfront", "vv"])
def test_every_game_declares_its_procedures_as_its_metadata_names_them(game):
    from firefight.rulesets.registry import info  # noqa: PLC0415

    loaded = ruleset(game)
    assert isinstance(loaded.procedures, Procedures)
    assert tuple(loaded.procedure_names) == info(game).procedures
    assert tuple(p.name for p in loaded.procedures) == info(game).procedures
