"""The percentile capabilities file is read bounded (size, values, nesting, number length),
each refusal one ChartError line naming the file; it is registered for the hostile-input run."""

from __future__ import annotations

import pytest

from firefight.core.files import LOADERS
from firefight.errors import ChartError
from firefight.rulesets.percentile.capabilities import (
    EXAMPLE_CAPABILITIES,
    MAX_CAPABILITIES_BYTES,
    load_capabilities,
)

TEXT = EXAMPLE_CAPABILITIES.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ("x = " + "[" * 3000 + "]" * 3000, "nested more than 64 levels deep"),
        ("x = " + "{a = " * 3000 + "1" + "}" * 3000, "nested more than 64 levels deep"),
        ("x = " + "9" * 5000, "a number in it has more than"),
        ("x = [" + "0," * 100_000 + "0]", "holds more than 100,000 values"),
        ("# " + "x" * MAX_CAPABILITIES_BYTES, "the file must be at most 1 MiB"),
    ],
    ids=["deep-arrays", "deep-tables", "long-number", "many-values", "too-large"],
)
def test_a_hostile_capabilities_file_is_one_chart_error_line(tmp_path, extra, message):
    path = tmp_path / "mine.toml"
    path.write_text(extra + "\n" + TEXT, encoding="utf-8")
    with pytest.raises(ChartError) as caught:
        load_capabilities(path)
    assert str(caught.value).startswith("mine.toml: ")
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_device_or_a_folder_is_one_line(tmp_path):
    (tmp_path / "zero.toml").symlink_to("/dev/zero")
    (tmp_path / "folder.toml").mkdir()
    for name, message in [("zero.toml", "at most 1 MiB"), ("folder.toml", "cannot be read")]:
        with pytest.raises(ChartError, match=message):
            load_capabilities(tmp_path / name)


def test_the_data_file_is_registered_with_a_valid_example(tmp_path):
    registered = LOADERS["percentile-capabilities"]
    assert registered.load is load_capabilities
    path = tmp_path / "example.toml"
    path.write_text(registered.example(), encoding="utf-8")
    assert load_capabilities(path).infantry
