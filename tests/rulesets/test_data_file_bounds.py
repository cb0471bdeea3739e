"""The tirs data file and the percentile capabilities file are read bounded (size, values,
nesting, number length), each refusal one ChartError line naming the file; each is registered
for the hostile-input run with a valid example."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from firefight.core.files import LOADERS
from firefight.errors import ChartError
from firefight.rulesets.percentile.capabilities import (
    EXAMPLE_CAPABILITIES,
    MAX_CAPABILITIES_BYTES,
    load_capabilities,
)
from firefight.rulesets.tirs.userdata import EXAMPLE_DATA, MAX_DATA_BYTES, load_data

FORMATS: dict[str, tuple[Callable[[Path], object], Path, int]] = {
    "tirs-data": (load_data, EXAMPLE_DATA, MAX_DATA_BYTES),
    "percentile-capabilities": (load_capabilities, EXAMPLE_CAPABILITIES, MAX_CAPABILITIES_BYTES),
}
HOSTILE = [
    ("x = " + "[" * 3000 + "]" * 3000, "nested more than 64 levels deep"),
    ("x = " + "{a = " * 3000 + "1" + "}" * 3000, "nested more than 64 levels deep"),
    ("x = " + "9" * 5000, "a number in it has more than"),
    ("x = [" + "0," * 100_000 + "0]", "holds more than 100,000 values"),
    (None, "the file must be at most 1 MiB"),
]


@pytest.mark.parametrize("name", FORMATS)
@pytest.mark.parametrize(
    ("extra", "message"),
    HOSTILE,
    ids=["deep-arrays", "deep-tables", "long-number", "many-values", "too-large"],
)
def test_a_hostile_file_is_one_chart_error_line(tmp_path, name, extra, message):
    load, example, most = FORMATS[name]
    path = tmp_path / "mine.toml"
    text = ("# " + "x" * most) if extra is None else extra
    path.write_text(text + "\n" + example.read_text(encoding="utf-8"), encoding="utf-8")
    with pytest.raises(ChartError) as caught:
        load(path)
    assert str(caught.value).startswith("mine.toml: ")
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("name", FORMATS)
def test_a_device_or_a_folder_is_one_line(tmp_path, name):
    load = FORMATS[name][0]
    (tmp_path / "zero.toml").symlink_to("/dev/zero")
    (tmp_path / "folder.toml").mkdir()
    for file, message in [("zero.toml", "at most 1 MiB"), ("folder.toml", "cannot be read")]:
        with pytest.raises(ChartError, match=message):
            load(tmp_path / file)


def test_each_file_is_registered_with_a_valid_example(tmp_path):
    for name, (load, _, _) in FORMATS.items():
        registered = LOADERS[name]
        assert registered.load is load
        path = tmp_path / f"{name}.toml"
        path.write_text(registered.example(), encoding="utf-8")
    assert load_data(tmp_path / "tirs-data.toml").example
    assert load_capabilities(tmp_path / "percentile-capabilities.toml").infantry
