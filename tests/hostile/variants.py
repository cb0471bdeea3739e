"""Hostile variants of a file format's small valid example, written into a folder one by one.

The shape of the example decides how a value is planted in it: TOML (the first ``key = value``
line's value is replaced), a JSON object (its first key's value), JSON Lines (the first line's
first key) or a play-by-e-mail message (the JSON Lines inside its zlib and base64 block). Each
variant says whether the loader may accept it (``valid``) or must refuse it in one line.

This module is imported by the runner (a script of its own) and by the tests; it imports only
the standard library.
"""

from __future__ import annotations

import base64
import json
import re
import tomllib
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

HUGE = 50 * 2**20
"""Bytes of the oversized files: far past any cap a loader sets (the largest is a few MiB)."""

BOMB = 700 * 2**20
"""Bytes a zlib bomb inflates to (it is about 700 KiB compressed)."""

BEGIN, END = "-----BEGIN FIREFIGHT PBEM-----", "-----END FIREFIGHT PBEM-----"
PLACE = "__HOSTILE_VALUE__"

VALUES: dict[str, str] = {
    "deep-arrays-3000": "[" * 3000 + "1" + "]" * 3000,
    "brackets-100000": "[" * 100_000 + "]" * 100_000,
    "values-490000": "[" + "0," * 489_999 + "0]",
    "integer-5000-digits": "9" * 5000,
}
"""Raw values planted as a known key's value (text of the format's own syntax)."""


@dataclass(frozen=True)
class Case:
    """One hostile file: its name, whether a loader may accept it, how to write it."""

    name: str
    valid: bool
    write: Callable[[Path], None]


class Shape:
    """How to plant text in an example (``put``) and pad it (``pad``) without breaking it."""

    def __init__(self, example: str) -> None:
        self.example = example

    def put(self, value: str) -> str:
        return self.example + "\n" + value

    def deep_tables(self) -> str:
        return '{"a":' * 3000 + "1" + "}" * 3000

    def pad(self) -> tuple[str, str, str]:
        """(head, filler character, tail): the valid file is head + filler * n + tail."""
        return self.example, " ", ""


class Toml(Shape):
    _KEY = re.compile(r'^(\s*[A-Za-z0-9_."-]+\s*=\s*)(.+)$', re.M)

    def put(self, value: str) -> str:
        for match in self._KEY.finditer(self.example):
            if not match[2].rstrip().endswith(("[", "{", '"""', "'''")):
                return self.example[: match.start(2)] + value + self.example[match.end(2) :]
        return value + "\n" + self.example

    def deep_tables(self) -> str:
        return "{a = " * 3000 + "1" + "}" * 3000

    def pad(self) -> tuple[str, str, str]:
        return self.example.rstrip("\n") + "\n# ", "x", "\n"


class Json(Shape):
    def put(self, value: str) -> str:
        data = json.loads(self.example)
        key = next(iter(data))
        data[key] = PLACE
        return json.dumps(data).replace(json.dumps(PLACE), value)


class JsonLines(Shape):
    def put(self, value: str) -> str:
        first, _, rest = self.example.partition("\n")
        return Json(first).put(value) + "\n" + rest

    def pad(self) -> tuple[str, str, str]:
        first, _, rest = self.example.partition("\n")
        return first, " ", "\n" + rest


class Message(Shape):
    """A pasted message: text around a block of base64 lines of zlib of JSON Lines."""

    def __init__(self, example: str) -> None:
        super().__init__(example)
        lines = example.splitlines()
        start, end = lines.index(BEGIN), lines.index(END)
        self.head, self.game = lines[: start + 2], lines[start + 1]
        self.tail = lines[end:]
        payload = base64.b64decode("".join(lines[start + 2 : end]))
        self.lines = JsonLines(zlib.decompress(payload).decode())

    def armour(self, payload: bytes) -> str:
        text = base64.b64encode(payload).decode()
        wrapped = [text[i : i + 76] for i in range(0, len(text), 76)]
        return "\n".join([*self.head, *wrapped, *self.tail]) + "\n"

    def put(self, value: str) -> str:
        return self.armour(zlib.compress(self.lines.put(value).encode(), 9))

    def pad(self) -> tuple[str, str, str]:
        return "", " ", "\n" + self.example

    def bomb(self) -> str:
        """A block inflating to :data:`BOMB` zero bytes: one MiB of zeros compressed once and
        its (independent, fully flushed) deflate block repeated, with the zlib header and the
        Adler-32 of the whole."""
        squeeze = zlib.compressobj(9, zlib.DEFLATED, -15)
        block = squeeze.compress(bytes(2**20)) + squeeze.flush(zlib.Z_FULL_FLUSH)
        ending = squeeze.flush()
        check = ((BOMB % 65521) << 16) | 1  # Adler-32 of zeros: a = 1, b = n mod 65521
        stream = b"\x78\xda" + block * (BOMB // 2**20) + ending + check.to_bytes(4, "big")
        return self.armour(stream)


def shape_of(example: str, suffix: str = "") -> Shape:
    """The example's shape, read from its text (and a JSON Lines file's suffix: one line of
    JSON Lines is a JSON object too)."""
    if BEGIN in example and END in example:
        return Message(example)
    if suffix in (".jsonl", ".ndjson"):
        return JsonLines(example)
    try:
        tomllib.loads(example)
        return Toml(example)
    except tomllib.TOMLDecodeError:
        pass
    try:
        if isinstance(json.loads(example), dict):
            return Json(example)
    except ValueError:
        pass
    lines = [line for line in example.splitlines() if line.strip()]
    try:
        if lines and all(isinstance(json.loads(line), dict) for line in lines):
            return JsonLines(example)
    except ValueError:
        pass
    return Shape(example)


def _text(text: str) -> Callable[[Path], None]:
    return lambda path: path.write_text(text, encoding="utf-8")


def _raw(data: bytes) -> Callable[[Path], None]:
    return lambda path: path.write_bytes(data)


def _padded(shape: Shape) -> Callable[[Path], None]:
    def write(path: Path) -> None:
        head, filler, tail = shape.pad()
        chunk = filler * 2**20
        with path.open("w", encoding="utf-8") as file:
            file.write(head)
            for _ in range(HUGE // len(chunk)):
                file.write(chunk)
            file.write(tail)

    return write


def _repeated(example: str) -> Callable[[Path], None]:
    """The example's lines written again and again, to :data:`HUGE` bytes: every line valid."""

    def write(path: Path) -> None:
        text = example if example.endswith("\n") else example + "\n"
        block = text * max(1, 2**20 // len(text))
        with path.open("w", encoding="utf-8") as file:
            for _ in range(HUGE // len(block) + 1):
                file.write(block)

    return write


def _sparse(example: str) -> Callable[[Path], None]:
    def write(path: Path) -> None:
        with path.open("wb") as file:
            file.write(example.encode())
            file.truncate(HUGE)

    return write


def _link(target: str) -> Callable[[Path], None]:
    return lambda path: path.symlink_to(target)


def _set(example: str, key: str, value: str, before: str = "") -> str:
    """A TOML example with top-level ``key`` set to ``value`` (added at the top if absent)."""
    line = re.compile(rf"^{re.escape(key)}\s*=.*$", re.M)
    if line.search(example):
        return line.sub(lambda _: f"{key} = {value}", example, count=1)
    return f"{before}{key} = {value}\n{example}"


def _huge_axis(example: str) -> str:
    bound = re.compile(r"\bto\s*=\s*\d+")
    if bound.search(example):
        return bound.sub("to = 1000000000000", example, count=1)
    return example.replace("[axes]\n", "[axes]\nhostile = { from = 1, to = 1000000000000 }\n", 1)


def _specific(name: str, example: str, shape: Shape) -> Iterator[Case]:
    """The variants only one format has."""
    if isinstance(shape, Message):
        yield Case("zlib-bomb-700MiB", False, _text(shape.bomb()))
    if isinstance(shape, JsonLines):
        yield Case("huge-50MiB-of-valid-lines", False, _repeated(example))
    if name == "sweep":
        yield Case("axis-to-10^12", False, _text(_huge_axis(example)))
        sampled = _set(example, "mode", '"sampled"')
        yield Case("samples-10^15", False, _text(_set(sampled, "samples", "999999999999999")))
    if name in ("scenario", "vv-scenario"):
        hostile = _set(example, "board", '"../../../../etc/passwd"')
        yield Case("board-escapes-folder", False, _text(hostile))


def cases(name: str, example: str, suffix: str = "") -> Iterator[Case]:
    """Every hostile variant of ``example`` for the loader ``name``, the valid example first."""
    shape = shape_of(example, suffix)
    yield Case("valid-example", True, _text(example))
    for label, value in VALUES.items():
        yield Case(label, False, _text(shape.put(value)))
    yield Case("deep-tables-3000", False, _text(shape.put(shape.deep_tables())))
    yield Case("huge-50MiB-padded", False, _padded(shape))
    yield Case("huge-50MiB-sparse", False, _sparse(example))
    head, _, rest = example.partition("\n")
    yield Case("invalid-utf8", False, _raw(head.encode() + b"\n\xff\xfe\xfd\n" + rest.encode()))
    yield Case("nul-bytes", False, _raw(head.encode() + b"\n\x00\x00\n" + rest.encode()))
    yield Case("empty", False, _text(""))
    yield Case("symlink-to-dev-zero", False, _link("/dev/zero"))
    yield Case("a-folder", False, lambda path: path.mkdir())
    yield Case("missing", False, lambda path: None)
    yield from _specific(name, example, shape)
