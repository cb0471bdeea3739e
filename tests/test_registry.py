"""Finding rule sets by id or alias, and adding a third party's through an entry point."""

from __future__ import annotations

import doctest
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

import firefight
from firefight.chance import D6
from firefight.core.inputs import RuleInput
from firefight.errors import FirefightError, InputError
from firefight.rulesets import Procedure, RuleSet, registry


def test_lookup_by_id_and_alias():
    assert firefight.ruleset("ept") is firefight.ruleset("en-pointe-toujours")
    assert firefight.ruleset("ept").procedure("fire").chart == "combat"


def test_unknown_ruleset_lists_the_known_ones():
    with pytest.raises(InputError, match=r"'ruleset' must be one of .*ept.* \(got 'asl'\)"):
        firefight.ruleset("asl")


class Shot(RuleInput):
    need: int = 4


def shot(inp: Shot, chance) -> str:
    return "hit" if chance.roll(D6, "shot") >= inp.need else "miss"


HOUSE = RuleSet(
    id="house",
    title="House rules",
    source="a test",
    procedures=(Procedure("shot", "One shot", Shot, shot, lambda _: []),),  # type: ignore[arg-type]
    aliases=("hr",),
)


def test_a_third_party_rule_set_comes_in_through_the_entry_point_group(monkeypatch):
    point = EntryPoint(name="house", value="tests.test_registry:HOUSE", group=registry.GROUP)
    real = registry.entry_points

    def fake(group: str):
        return [*real(group=group), point]

    monkeypatch.setattr(registry, "entry_points", fake)
    registry._installed.cache_clear()
    try:
        house = firefight.ruleset("hr")
        assert house is HOUSE
        ids = [r.id for r in firefight.list_rulesets()]
        assert ids == sorted(ids)
        assert {"ept", "house"} <= set(ids)
        odds = house.procedure("shot").odds(Shot())
        assert odds["hit"] == odds["miss"]
    finally:
        registry._installed.cache_clear()


def test_an_entry_point_that_is_not_a_ruleset_is_left_out_in_one_clear_line(monkeypatch):
    point = EntryPoint(name="bad", value="tests.test_registry:Shot", group=registry.GROUP)
    monkeypatch.setattr(registry, "entry_points", lambda group: [point])
    registry._installed.cache_clear()
    try:
        assert "bad" not in [r.id for r in firefight.list_rulesets()]
        (line,) = registry.problems()
        assert "'bad' in firefight.rulesets is not a RuleSet" in line
        with pytest.raises(FirefightError, match=r"'bad' in firefight\.rulesets is not a RuleSet"):
            firefight.ruleset("bad")
    finally:
        registry._installed.cache_clear()


def test_register_at_run_time():
    registry.register(HOUSE)
    try:
        assert firefight.ruleset("house") is HOUSE
    finally:
        registry._registered.clear()


def test_package_docstring_example_runs():
    assert doctest.testmod(firefight, verbose=False).failed == 0


def test_a_rule_sets_source_line_speaks_of_its_rules_not_of_a_seed():
    """The source line under every page title and in ``firefight rulesets``: a player reads
    "seed" as ``--seed``, so it names the published rules alone."""
    from firefight.rulesets import rulesets  # noqa: PLC0415 - the function, not the package

    for found in rulesets():
        assert "seed" not in found.source.lower(), found.id


def test_a_charts_source_line_names_the_published_rules_not_a_seed_number():
    """Shown under every chart's title (``firefight table``, the web's chart pages, ``--json``):
    as the rule set's own source line, it names the rules, never "seed 000" (``--seed``)."""
    import re  # noqa: PLC0415

    from firefight.rulesets import rulesets  # noqa: PLC0415 - the function, not the package

    numbered = re.compile(r"\bseed\s*\d", re.IGNORECASE)
    found = [
        f"{ruleset.id}/{chart.id}: {chart.source}"
        for ruleset in rulesets()
        for chart in ruleset.charts()
        if numbered.search(chart.source)
    ]
    assert found == []
    docs = Path(__file__).parent.parent / "docs"
    for page in ("ept", "percentile", "tirs", "vv"):
        source = next(
            line for line in (docs / f"{page}.md").read_text().splitlines() if "Source" in line
        )
        assert not re.match(r"Sources?: seed", source), page


def test_the_built_in_games_are_those_of_firefights_own_entry_points():
    """:func:`registry.built_in`, where a built-in game's name is looked up before any
    package's metadata is read, names what pyproject.toml's entry points name."""
    import tomllib  # noqa: PLC0415

    project = tomllib.loads((Path(__file__).parent.parent / "pyproject.toml").read_text())
    declared = project["project"]["entry-points"][registry.GROUP]
    assert tuple(declared[key] for key in sorted(declared)) == registry.built_in()
    assert [info.id for info in registry._built_in()] == sorted(declared)
    for name in registry._built_in_names():  # never taken for a game file's path
        assert not name.endswith(".toml"), name


def _read_points(monkeypatch, points: list[EntryPoint]) -> list[str]:
    """The registry's entry points: the installed ones and ``points``; what it reads them for
    is recorded in the list given back (one ``"read"`` per scan)."""
    real = registry.entry_points
    reads: list[str] = []

    def read(group: str):
        reads.append("read")
        return [*real(group=group), *points]

    monkeypatch.setattr(registry, "entry_points", read)
    monkeypatch.setattr(registry, "_registered", {})  # rule sets other tests registered
    registry._installed.cache_clear()
    return reads


@pytest.mark.parametrize("name", ["ept", "EPT", "en-pointe-toujours", "vv"])
def test_a_built_in_game_asked_by_name_is_found_without_reading_the_entry_points(monkeypatch, name):
    reads = _read_points(monkeypatch, [])
    try:
        found = registry.ruleset(name, files=True)
        assert name.casefold() in {found.id, *found.aliases}
        assert reads == []
    finally:
        registry._installed.cache_clear()


def test_a_third_partys_game_is_found_after_a_built_in_one_was_found_without_the_scan(
    monkeypatch,
):
    point = EntryPoint(name="house", value="tests.test_registry:HOUSE", group=registry.GROUP)
    reads = _read_points(monkeypatch, [point])
    try:
        assert registry.ruleset("ept").id == "ept"
        assert reads == []
        assert registry.ruleset("hr") is HOUSE  # its alias: the scan
        assert reads == ["read"]
        assert "house" in [info.id for info in registry.infos()]
        with pytest.raises(InputError, match=r"'ruleset' must be one of .*house.*"):
            registry.ruleset("nothing-of-the-kind")
    finally:
        registry._installed.cache_clear()


SHADOW_ID = RuleSet(
    id="ept",
    title="Another EPT",
    source="a test",
    procedures=(Procedure("shot", "One shot", Shot, shot, lambda _: []),),  # type: ignore[arg-type]
)
SHADOW_ALIAS = RuleSet(
    id="aaa",
    title="A game aliased as a built-in one",
    source="a test",
    procedures=(Procedure("shot", "One shot", Shot, shot, lambda _: []),),  # type: ignore[arg-type]
    aliases=("vv",),
)


@pytest.mark.parametrize(
    ("value", "key", "name"),
    [
        ("tests.test_registry:SHADOW_ID", "ept", "ept"),
        ("tests.test_registry:SHADOW_ALIAS", "aaa", "vv"),
    ],
)
def test_a_package_taking_a_built_in_games_name_is_left_out_in_one_line(
    monkeypatch, value, key, name
):
    """A third party's package whose id or alias is a built-in game's shadows nothing, with
    the scan or without: the name gives the built-in game, the package is left out and said
    in one line (asked for by its own id: that line)."""
    point = EntryPoint(name="zzz", value=value, group=registry.GROUP)  # read after the games
    _read_points(monkeypatch, [point])
    try:
        built_in = next(info for info in registry._built_in() if name in info.names())
        assert registry.ruleset(name) is registry.ruleset(name.upper()) is built_in.load()
        titles = [info.title for info in registry.infos()]
        assert "Another EPT" not in titles
        assert "A game aliased as a built-in one" not in titles
        (line,) = registry.problems()
        assert line == (
            f"rule set package 'tests' left out: {name!r} is a built-in rule set's name"
        )
        if key != name:
            with pytest.raises(FirefightError, match="is a built-in rule set's name"):
                registry.ruleset(key)
    finally:
        registry._installed.cache_clear()


def test_a_rule_set_registered_at_run_time_still_replaces_the_built_in_one_of_its_name(
    monkeypatch,
):
    reads = _read_points(monkeypatch, [])
    registry.register(SHADOW_ID)
    try:
        assert registry.ruleset("ept") is SHADOW_ID
        assert reads == ["read"]
    finally:
        registry._registered.clear()
        registry._installed.cache_clear()


def test_the_packages_left_out_are_said_after_a_built_in_game_was_found_without_the_scan(
    monkeypatch,
):
    point = EntryPoint(name="zzz", value="tests.test_registry:SHADOW_ID", group=registry.GROUP)
    reads = _read_points(monkeypatch, [point])
    try:
        assert registry.ruleset("ept").id == "ept"
        assert reads == []
        assert [key for key, _line in registry.left_out()] == ["ept"]
    finally:
        registry._installed.cache_clear()
