"""Fuzzing the board loaders: TOML and Tiled JSON board files, mutated at random (a value
replaced by any other JSON or TOML value, a key dropped, the text cut or spliced), are loaded
or refused with :class:`~firefight.errors.FirefightError`; no other exception escapes.

The examples are bounded (a few hundred, small boards) so the test stays fast; hypothesis
shrinks any escape to the smallest mutation that causes it."""

from __future__ import annotations

import json
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firefight.board.board import board_from_data
from firefight.errors import FirefightError
from firefight.rulesets.boards import load, policies, sample_boards
from tests.board.test_tiled import TWIN_TOML, fixture

WORDS = [
    "0101", "0201", "0504", "0101/0201", "٠١٠١", "０１０１", "9999", "forest", "clear", "open",
    "wall", "hedge", "bocage", "terrain", "elevation", "hexsides", "feature", "from", "to",
    "group", "tilelayer", "objectgroup", "base64", "zlib", "gzip", "csv", "hexagonal", "x",
    "even", "odd", "ept", "vv", "levels.tsj", "../secret.json", "/etc/hostname.json", "",
]  # fmt: skip
"""Words the loaders look for, so that mutations reach past the first check."""

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 1000),
    st.integers(),
    st.integers(-(2**80), 2**80),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(WORDS),
    st.text(max_size=12),
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(WORDS) | st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)
"""Any JSON value (TOML has no null; its loader gets the parsed mapping directly)."""


def paths(node: object, prefix: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    """Every place in a parsed document: the path of keys and indexes that leads to it (of a
    layer's tile ids, the first two only, so that mutations spread over the whole map)."""
    found = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            found += paths(value, (*prefix, key))
    elif isinstance(node, list):
        ids = prefix[-1:] == ("data",)
        for index, value in enumerate(node[:2] if ids else node):
            found += paths(value, (*prefix, index))
    return found


@st.composite
def mutated(draw: st.DrawFn, document: object) -> object:
    """``document`` with one to three places replaced by another value or removed."""
    document = json.loads(json.dumps(document))
    for _ in range(draw(st.integers(1, 3))):
        places = paths(document)[1:]
        if not places:
            break
        *parent_path, last = draw(st.sampled_from(places))
        parent = document
        for step in parent_path:
            parent = parent[step]  # type: ignore[index]
        if draw(st.booleans()) and isinstance(parent, dict):
            del parent[last]
        else:
            parent[last] = draw(values)  # type: ignore[index]
    return document


def spliced(draw: st.DrawFn, text: str) -> str:
    """``text`` with a piece cut out and something else put in its place."""
    start = draw(st.integers(0, len(text)))
    end = draw(st.integers(start, min(len(text), start + 40)))
    piece = draw(st.sampled_from(["[", "]", "{", "}", '"', "'", ",", "=", "\n", "#", "\\"]))
    return text[:start] + piece * draw(st.integers(0, 3)) + draw(st.text(max_size=8)) + text[end:]


def refusal(call: Callable[[], object]) -> str:
    """What ``call`` is refused with (empty if it is not); any other exception escapes."""
    try:
        call()
    except FirefightError as error:
        return str(error)
    return ""


def load_or_refuse(path: Path) -> None:
    assert "\n" not in refusal(lambda: load(str(path)))


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the mutated files are written, with the external tileset the map names."""
    found = tmp_path_factory.mktemp("fuzz")
    (found / "levels.tsj").write_text(json.dumps(fixture()["tilesets"][1]), encoding="utf-8")
    return found


TILED = fixture()
TILED["tilesets"][1] = {"firstgid": 20, "source": "levels.tsj"}
SAMPLE_TILED = json.loads(
    sample_boards()["normandy_bocage"].with_suffix(".json").read_text(encoding="utf-8")
)
TOML_TEXTS = [TWIN_TOML, sample_boards()["vv_village"].read_text(encoding="utf-8")]
POLICIES = policies()

FUZZ = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@FUZZ
@given(st.sampled_from([TILED, SAMPLE_TILED]).flatmap(mutated))
def test_a_mutated_tiled_map_loads_or_is_refused_in_one_line(folder, document):
    path = folder / "map.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    load_or_refuse(path)


@FUZZ
@given(st.data())
def test_a_spliced_tiled_map_loads_or_is_refused_in_one_line(folder, data):
    text = json.dumps(data.draw(st.sampled_from([TILED, SAMPLE_TILED])), indent=1)
    path = folder / "spliced.tmj"
    path.write_text(spliced(data.draw, text), encoding="utf-8")
    load_or_refuse(path)


@FUZZ
@given(st.sampled_from([tomllib.loads(text) for text in TOML_TEXTS]).flatmap(mutated))
def test_a_mutated_toml_board_loads_or_is_refused_in_one_line(document):
    ruleset = document.get("ruleset") if isinstance(document, dict) else None
    policy = POLICIES.get(ruleset, POLICIES["ept"]) if isinstance(ruleset, str) else POLICIES["vv"]
    assert "\n" not in refusal(lambda: board_from_data(document, policy, "mutated.toml"))


@FUZZ
@given(st.data())
def test_a_spliced_toml_board_loads_or_is_refused_in_one_line(folder, data):
    path = folder / "spliced.toml"
    path.write_text(spliced(data.draw, data.draw(st.sampled_from(TOML_TEXTS))), encoding="utf-8")
    load_or_refuse(path)
