"""Bounded reading (``firefight.core.files``): sizes, values, nesting and decompression are
refused before the work, in one line naming the source, never the content."""

from __future__ import annotations

import json
import resource
import zlib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firefight.core.files import (
    MAX_DEPTH,
    FileError,
    check_length,
    check_shape,
    inflate,
    parse_json,
    parse_toml,
    read_bytes,
    read_text,
    size_text,
    values_bound,
)


def _bomb(size: int) -> bytes:
    """``size`` zero bytes, compressed a MiB at a time (the test never holds them)."""
    packer = zlib.compressobj(9)
    block = bytes(2**20)
    parts = [packer.compress(block) for _ in range(size // 2**20)]
    return b"".join(parts) + packer.flush()


def test_a_zlib_bomb_is_refused_at_the_limit_without_inflating_it():
    bomb = _bomb(700 * 2**20)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with pytest.raises(FileError, match=r"^message: decompresses to more than 1 MiB$"):
        inflate(bomb, "message", 2**20)
    grown_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    assert grown_kib < 64 * 1024


def test_inflate_gives_back_what_was_compressed_up_to_the_limit():
    data = b"firefight " * 1000
    assert inflate(zlib.compress(data), "m", len(data)) == data
    with pytest.raises(FileError, match="decompresses to more than"):
        inflate(zlib.compress(data), "m", len(data) - 1)


@pytest.mark.parametrize(
    ("data", "problem"),
    [(b"not zlib at all", "damaged"), (zlib.compress(b"x" * 5000)[:-6], "cut short")],
)
def test_damaged_or_cut_compressed_data_is_one_line(data, problem):
    with pytest.raises(FileError, match=problem):
        inflate(data, "m", 2**20)


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 3_000, 100_000])
def test_deep_toml_is_refused_in_one_line(depth):
    text = "x = " + "[" * depth + "]" * depth
    with pytest.raises(FileError) as caught:
        parse_toml(text, "spec.toml")
    assert str(caught.value) == (
        f"spec.toml: arrays and tables nested more than {MAX_DEPTH} levels deep"
    )


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 8_000, 100_000])
def test_deep_json_is_refused_in_one_line(depth):
    with pytest.raises(FileError, match="nested more than 64 levels deep"):
        parse_json("[" * depth + "]" * depth, "request body")
    with pytest.raises(FileError, match="nested more than 64 levels deep"):
        parse_json('{"a":' * depth + "1" + "}" * depth, "request body")


def test_nesting_up_to_the_limit_is_read():
    text = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert parse_json(text, "b") is not None
    assert parse_toml("x = " + text[1:-1], "t") == {"x": json.loads(text[1:-1])}


def test_too_many_values_are_refused_before_parsing():
    text = "x = [" + "1," * 490_000 + "]"
    with pytest.raises(FileError, match=r"holds more than 20,000 values and separators"):
        parse_toml(text, "uploaded deck", max_values=20_000)


def test_the_exact_count_refuses_past_the_limit():
    with pytest.raises(FileError, match=r"^t: holds more than 2 values$"):
        check_shape({"x": [1]}, "t", 64, 2)
    check_shape({"x": [1]}, "t", 64, 3)


def _count(value: object) -> int:
    count, stack = 0, [value]
    while stack:
        item = stack.pop()
        count += 1
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return count


JSON_VALUES = st.recursive(
    st.integers() | st.floats(allow_nan=False) | st.text(max_size=5) | st.booleans(),
    lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=3), c, max_size=3),
)


@given(JSON_VALUES)
def test_the_bound_never_falls_below_the_exact_count_of_json(value):
    text = json.dumps(value, separators=(",", ":"))
    assert values_bound(text) >= _count(json.loads(text))


@pytest.mark.parametrize(
    "text",
    [
        "a.b.c = 1",
        "[a.b.c]\nx = 1",
        "[[t]]\nx = 1\n[[t]]\ny = {z = [1, 2]}",
        'k = """\nmany\nlines"""\nd = 1979-05-27T07:32:00Z',
        "x = [\n  1,\n  2,\n]",
    ],
)
def test_the_bound_never_falls_below_the_exact_count_of_toml(text):
    assert values_bound(text) >= _count(parse_toml(text, "t"))


def test_syntax_errors_and_long_numbers_are_one_line():
    with pytest.raises(FileError, match=r"^f: "):
        parse_toml("x = = 1", "f")
    with pytest.raises(FileError, match=r"^f: not JSON"):
        parse_json("{'a': 1}", "f")
    with pytest.raises(FileError, match=r"more than \d+ digits"):
        parse_toml("x = " + "9" * 5000, "f")
    with pytest.raises(FileError, match=r"more than \d+ digits"):
        parse_json("9" * 5000, "f")
    with pytest.raises(FileError, match="UTF-8"):
        parse_json(b'"\xff"', "f")


def test_check_shape_walks_without_recursion():
    value: list[object] = []
    for _ in range(200_000):
        value = [value]
    with pytest.raises(FileError, match="nested more than 64"):
        check_shape(value, "v", 64, 10**9)


def test_a_file_past_its_limit_is_refused_without_reading_it_whole(tmp_path: Path):
    path = tmp_path / "big.toml"
    with path.open("wb") as out:
        out.truncate(300 * 2**20)  # sparse: 300 MiB at no cost
    with pytest.raises(FileError, match=r"^big.toml: the file must be at most 2 MiB$"):
        read_bytes(path, "big.toml", 2 * 2**20)
    with pytest.raises(FileError, match="must be at most"):
        read_text(Path("/dev/zero"), "zero", 2**20)


def test_unreadable_and_non_utf8_files_are_one_line(tmp_path: Path):
    with pytest.raises(FileError, match=r"^gone: the file cannot be read"):
        read_text(tmp_path / "gone.toml", "gone", 100)
    with pytest.raises(FileError, match="cannot be read"):
        read_text(tmp_path, "a folder", 100)
    (tmp_path / "bad").write_bytes(b"ok\xfe")
    with pytest.raises(FileError, match="at byte 2"):
        read_text(tmp_path / "bad", "bad", 100)


def test_check_length_counts_bytes_not_characters():
    check_length("é" * 50, "paste", 100)
    with pytest.raises(FileError, match="at most 100 bytes"):
        check_length("é" * 51, "paste", 100)


def test_sizes_are_written_for_a_reader():
    assert [size_text(n) for n in (2 * 2**20, 64 * 2**10, 1_000_000, 500)] == [
        "2 MiB",
        "64 KiB",
        "1,000,000 bytes",
        "500 bytes",
    ]
