"""A command imports what it needs: ``firefight odds ept fire ...`` loads the rule set it names
and none of the others, nor the libraries of other faces (the web server, the journal's
database, the distributed sweeps, Up Front's compiler); listing the rule sets, the help and
the completion of a rule set's id read the rule sets' metadata alone. Each case runs the
command in a fresh interpreter and reads what it imported."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import tomllib
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path

import pytest

import firefight
from firefight.errors import FirefightError
from firefight.rulesets import RuleSetInfo, infos, registry, rulesets
from tests.test_registry import HOUSE

ROOT = Path(__file__).resolve().parent.parent
ODDS = ["odds", "ept", "fire", "--strength", "6", "--range", "adjacent", "--protection", "medium"]
GAMES = ("ept", "percentile", "tirs", "upfront", "vv")
LIBRARIES = ("numba", "llvmlite", "matplotlib", "sqlalchemy", "dask", "distributed", "fastapi")
"""Libraries no procedure command of EPT needs."""
EXACT = ("numpy", "icepool")
"""Libraries exact odds do not need: numpy draws batches and judges boards' sight, icepool
builds dice the rules build themselves (``Dice.d``)."""
RUN = """
import runpy, sys
out, sys.argv = sys.argv[1], ["firefight", *sys.argv[2:]]
try:
    runpy.run_module("firefight", run_name="__main__")
except SystemExit as done:
    code = done.code
with open(out, "w", encoding="utf-8") as file:
    file.write("\\n".join(sorted(sys.modules)))
sys.exit(code)
"""


def _installed_entry_points_are_the_projects() -> None:
    """The installed metadata names what pyproject.toml names (else a reinstall is due, and
    the entry points read would load every game)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    declared = project["project"]["entry-points"][registry.GROUP]
    installed = {point.name: point.value for point in entry_points(group=registry.GROUP)}
    if not set(declared.items()) <= set(installed.items()):
        pytest.fail(
            f"the installed entry points {installed} are not pyproject.toml's {declared}: "
            "reinstall (make, or pip install -e .)"
        )


def imported(tmp_path: Path, *args: str) -> set[str]:
    """The modules ``firefight ARGS`` imported: every ``-X importtime`` line, and what is in
    ``sys.modules`` at its end (``importlib.import_module`` is not timed)."""
    _installed_entry_points_are_the_projects()
    out = tmp_path / "modules.txt"
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", RUN, str(out), *args],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    timed = {
        line.rsplit("|", 1)[1].strip()
        for line in done.stderr.splitlines()
        if line.startswith("import time:") and "|" in line
    }
    return timed | set(out.read_text(encoding="utf-8").split())


def _under(modules: set[str], package: str) -> set[str]:
    return {m for m in modules if m == package or m.startswith(package + ".")}


def test_odds_of_one_game_imports_that_game_alone(tmp_path):
    modules = imported(tmp_path, *ODDS)
    assert "firefight.rulesets.ept.ruleset" in modules
    for library in LIBRARIES:
        assert not _under(modules, library), library
    for game in GAMES[1:]:  # a game's light package (its metadata) and nothing more
        package = f"firefight.rulesets.{game}"
        assert _under(modules, package) <= {package}, game
    assert not _under(modules, "firefight.web")
    assert not _under(modules, "firefight.journal")


def _procedure_modules() -> set[str]:
    """Every module holding a procedure of a game (read from the loaded rule sets)."""
    return {p.rule.__module__ for found in rulesets() for p in found.procedures}


def test_odds_of_one_procedure_import_that_procedures_module_alone(tmp_path):
    """``firefight odds ept fire ...`` imports the fire procedure's module, none of the other
    EPT procedures' (antitank, assault, command...), nor the game's engagement rules, boards
    or worked example; and no library of the other faces (numba, matplotlib, SQLAlchemy,
    dask)."""
    modules = imported(tmp_path, *ODDS)
    assert "firefight.rulesets.ept.fire" in modules
    fire_reads = {"firefight.rulesets.ept.fire", "firefight.rulesets.ept.terrain"}  # its terrain
    assert _procedure_modules() & modules == fire_reads
    for part in ("engagement", "board", "board_fire", "sight", "example"):
        assert f"firefight.rulesets.ept.{part}" not in modules, part
    assert not _under(modules, "firefight.board")
    for game in GAMES[1:]:
        assert _under(modules, f"firefight.rulesets.{game}") <= {f"firefight.rulesets.{game}"}
    for library in ("numba", "matplotlib", "sqlalchemy", "dask"):
        assert not _under(modules, library), library


@pytest.mark.parametrize("args", [["--help"], ["rulesets"], ["odds", "--help"], ["--version"]])
def test_help_and_listing_import_no_procedure_module(tmp_path, args):
    modules = imported(tmp_path, *args)
    assert not _procedure_modules() & modules
    assert "firefight.rulesets.procedure" not in modules


def test_the_version_reads_no_entry_point(tmp_path):
    modules = imported(tmp_path, "--version")
    assert "importlib.metadata" not in modules
    assert "firefight.rulesets.registry" not in modules


def test_exact_odds_import_neither_numpy_nor_icepool(tmp_path):
    modules = imported(tmp_path, *ODDS)
    for library in EXACT:
        assert not _under(modules, library), library


def test_the_version_imports_no_rich_no_chart_nor_pydantic(tmp_path):
    modules = imported(tmp_path, "--version")
    for package in ("rich", "pydantic", "numpy", "icepool", "firefight.chance"):
        assert not _under(modules, package), package
    assert not {"firefight.core.chart", "firefight.core.modifier"} & modules


@pytest.mark.parametrize("args", [["rulesets"], ["rulesets", "--json"], ["--help"]])
def test_listing_and_help_read_metadata_alone(tmp_path, args):
    modules = imported(tmp_path, *args)
    assert not {f"firefight.rulesets.{game}.ruleset" for game in GAMES} & modules
    assert "firefight.rulesets.procedure" not in modules


@pytest.mark.parametrize("command", ["odds", "modifiers", "resolve"])
def test_a_procedure_commands_help_lists_every_rule_set_from_metadata_alone(tmp_path, command):
    """``firefight odds --help`` (no rule set named) lists every rule set's procedures and
    their titles from the metadata (``RuleSetInfo.procedure_titles``), loading no game."""
    modules = imported(tmp_path, command, "--help")
    assert not {f"firefight.rulesets.{game}.ruleset" for game in GAMES} & modules
    assert "firefight.rulesets.procedure" not in modules


def test_completing_a_rule_set_id_reads_metadata_alone(tmp_path):
    script = (
        "import sys; from firefight.cli.common import complete_ruleset; "
        "print(complete_ruleset('T'), complete_ruleset('')); "
        "print(sorted(m for m in sys.modules if m.endswith('.ruleset')))"
    )
    _installed_entry_points_are_the_projects()
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert done.stdout.splitlines() == [f"['tirs'] {list(GAMES)}", "[]"]


def test_each_games_metadata_is_its_rule_sets():
    """What ``firefight rulesets`` lists unloaded is what the loaded rule set holds: the same
    id, title, source, aliases, document and procedures, in the same order."""
    for info, loaded in zip(infos(), rulesets(), strict=True):
        assert info.to_json() == loaded.to_json()
        assert info.doc == loaded.doc
        assert info.actions == tuple((action.name, action.title) for action in loaded.actions)
        assert info.procedure_titles == tuple(p.title for p in loaded.procedures)
        assert info.load() is loaded


def test_rulesets_json_is_the_loaded_rule_sets(capsys):
    from firefight.cli import main  # noqa: PLC0415

    assert main(["rulesets", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == [r.to_json() for r in rulesets()]


def _house(target: str, house_id: str = "house") -> RuleSetInfo:
    return RuleSetInfo(house_id, "House rules", "a test", target, ("hr",), procedures=("shot",))


HOUSE_INFO = _house("tests.test_registry:HOUSE")


def test_a_third_partys_info_loads_its_rule_set_only_when_asked(monkeypatch):
    point = EntryPoint(name="house", value="tests.test_startup:HOUSE_INFO", group=registry.GROUP)
    monkeypatch.setattr(registry, "entry_points", lambda group: [point])
    monkeypatch.setattr(registry, "_registered", {})  # rule sets other tests registered
    HOUSE_INFO._loaded.clear()
    registry._installed.cache_clear()
    try:
        assert registry.infos() == [HOUSE_INFO]
        assert not HOUSE_INFO._loaded
        assert firefight.ruleset("HR") is HOUSE
        assert HOUSE_INFO._loaded == [HOUSE]
    finally:
        registry._installed.cache_clear()


@pytest.mark.parametrize(
    ("target", "house_id", "message"),
    [
        (
            "tests.test_registry:Shot",
            "house",
            r"'tests\.test_registry:Shot' does not name a RuleSet",
        ),
        ("tests.test_registry", "house", r"does not name a RuleSet"),
        ("tests.test_registry:HOUSE", "home", r"is the rule set 'house'"),
    ],
)
def test_an_info_naming_something_else_is_a_clear_error(target, house_id, message):
    with pytest.raises(FirefightError, match=message):
        _house(target, house_id).load()


@pytest.mark.parametrize("json_flag", [[], ["--json"]])
def test_odds_of_a_procedure_import_no_typer_nor_click(tmp_path, json_flag):
    """``firefight odds ept fire --strength 6 ...`` is worked out by the fast dispatch
    (``cli/fast.py``): no command-line library is imported; with ``--json``, no Rich either."""
    modules = imported(tmp_path, *ODDS, *json_flag)
    for library in ("typer", "click", *(["rich"] if json_flag else [])):
        assert not _under(modules, library), library
    assert "firefight.cli.fast" in modules


def test_help_of_odds_is_the_typer_commands(tmp_path):
    assert "typer" in imported(tmp_path, *ODDS, "--help")


PLUGINS = """
import os, sys
from firefight.cli import run
sys.argv = ["firefight", "--version"]
try:
    run()
except SystemExit:
    pass
print(os.environ.get("PYDANTIC_DISABLE_PLUGINS"))
"""


@pytest.mark.parametrize(("given", "seen"), [(None, "__all__"), ("my_plugin", "my_plugin")])
def test_the_entry_point_turns_pydantics_plugin_scan_off_unless_the_user_set_it(given, seen):
    env = {k: v for k, v in os.environ.items() if k != "PYDANTIC_DISABLE_PLUGINS"}
    if given is not None:
        env["PYDANTIC_DISABLE_PLUGINS"] = given
    done = subprocess.run(
        [sys.executable, "-c", PLUGINS],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        env=env,
    )
    assert done.stdout.splitlines()[-1] == seen


@pytest.mark.parametrize("json_flag", [[], ["--json"]])
def test_odds_of_a_built_in_game_read_no_packages_metadata(tmp_path, json_flag):
    """``firefight odds ept fire ...`` finds the built-in game by its name (no entry point
    read) and, pydantic's plugins off, builds its input model with pydantic's plugin loader
    unread: :mod:`importlib.metadata` is not imported, nor the folder of game files read."""
    modules = imported(tmp_path, *ODDS, *json_flag)
    assert not _under(modules, "importlib.metadata")
    assert "firefight.rulesets.added" not in modules
    assert "platformdirs" not in modules


LOADER = """
import sys
from firefight.cli import run
sys.argv = ["firefight", "odds", "ept", "fire", "--strength", "6", "--json"]
try:
    run()
except SystemExit as done:
    assert done.code == 0, done.code
loader = sys.modules["pydantic.plugin._loader"]
print(getattr(loader, "__file__", None) is not None, "importlib.metadata" in sys.modules)
import pydantic
class Late(pydantic.BaseModel):  # a model built after the command: the same loader
    x: int
print(Late(x=1).x, sys.modules["pydantic.plugin._loader"] is loader)
"""


@pytest.mark.parametrize(
    ("given", "seen"), [(None, ["False False", "1 True"]), ("my_plugin", ["True True", "1 True"])]
)
def test_pydantics_plugin_loader_is_its_own_unless_every_plugin_is_off(given, seen):
    """Every plugin off (the entry point's default), pydantic's plugin loader is not imported;
    a user who keeps some plugins on gets pydantic's own loader, which reads the entry points."""
    env = {k: v for k, v in os.environ.items() if k != "PYDANTIC_DISABLE_PLUGINS"}
    if given is not None:
        env["PYDANTIC_DISABLE_PLUGINS"] = given
    done = subprocess.run(
        [sys.executable, "-c", LOADER],
        check=False,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.splitlines()[-2:] == seen


def test_the_unread_loader_answers_as_pydantics_own(monkeypatch):
    """The stand-in's ``get_plugins`` finds none while every plugin is off, and asks pydantic's
    own loader once the variable no longer says so (the finder then out of the way); any
    other name is pydantic's loader's."""
    from firefight.cli import plugins  # noqa: PLC0415

    monkeypatch.setenv(plugins.VARIABLE, "__all__")
    monkeypatch.delitem(sys.modules, plugins.LOADER, raising=False)
    monkeypatch.setattr(sys, "meta_path", [plugins.Finder(), *sys.meta_path])
    stand_in = importlib.import_module(plugins.LOADER)
    assert isinstance(stand_in, plugins.StandIn)
    assert stand_in.get_plugins() == ()
    monkeypatch.setenv(plugins.VARIABLE, "")
    assert list(stand_in.get_plugins()) == []  # none installed: pydantic's own answer
    own = sys.modules[plugins.LOADER]
    assert not isinstance(own, plugins.StandIn)
    assert own.__file__ is not None
    assert not any(isinstance(f, plugins.Finder) for f in sys.meta_path)
    assert stand_in.PYDANTIC_ENTRY_POINT_GROUP == own.PYDANTIC_ENTRY_POINT_GROUP == "pydantic"


def test_the_unread_loader_is_not_set_up_when_pydantics_is_imported(monkeypatch):
    from firefight.cli import plugins  # noqa: PLC0415

    importlib.import_module(plugins.LOADER)
    monkeypatch.setattr(sys, "meta_path", list(sys.meta_path))
    plugins.install()
    assert not any(isinstance(f, plugins.Finder) for f in sys.meta_path)
