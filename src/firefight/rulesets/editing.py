"""A data file typed entry by entry (a rule set's :class:`~.datafile.FileEditor`): the entries
as a page holds them (each field as typed: text, or true/false for a flag) written as the
file's TOML, and a file's TOML read back into such entries.

What is typed is written as given, never put right: a field typed ``abc`` where an integer is
wanted is written as the text ``"abc"``, so that the file's own check names it. Fields the
editor does not type (an AFV's table, a deck's column labels) are kept as they came, in
``extra``, so that a file uploaded and downloaded again loses nothing."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from firefight.rulesets.datafile import EntryField, FileEditor

__all__ = ["Entry", "entries_of", "file_text", "toml_value"]

Entry = dict[str, Any]
"""An entry as typed: each field's text (a flag's true or false); ``extra``, the fields the
editor does not type, as read from the file."""
_INTEGER = re.compile(r"-?[0-9]{1,6}")
_KEY = re.compile(r"[A-Za-z0-9_-]+")


def toml_value(value: object) -> str:
    """``value`` (text, integer, true/false, an array or a table of them) as TOML."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value)  # JSON's escapes are TOML's basic string's
    if isinstance(value, Sequence):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{ " + ", ".join(f"{_key(k)} = {toml_value(v)}" for k, v in value.items()) + " }"
    return json.dumps(str(value))


def _key(key: object) -> str:
    text = str(key)
    return text if _KEY.fullmatch(text) else json.dumps(text)


def _integer(text: str) -> object:
    text = text.strip()
    return int(text) if _INTEGER.fullmatch(text) else text


def _pairs(text: str) -> object:
    """``german=fire american=movement`` as a table; text that is no such pairs as text."""
    pairs = [part.split("=", 1) for part in re.split(r"[\s,]+", text) if part]
    return dict(pairs) if all(len(p) == 2 and p[0] and p[1] for p in pairs) else text


def _typed(field: EntryField, given: object) -> object | None:
    """A field as typed, as the file writes it (``None``: left empty, not written)."""
    if field.kind == "flag":
        return True if given is True else None
    if isinstance(given, list):
        items = [str(item).strip() for item in given]
        if not any(items):
            return None
        return [_integer(i) for i in items] if field.kind == "integers" else items
    text = "" if given is None else str(given).strip()
    written: dict[str, object] = {
        "integer": _integer(text),
        "integers": [_integer(part) for part in re.split(r"[\s,]+", text) if part],
        "pairs": _pairs(text),
    }
    return written.get(field.kind, text) if text else None


def file_text(
    editor: FileEditor, title: str, entries: Sequence[Mapping[str, object]], extra: object = None
) -> str:
    """The file's TOML: its title, the file's own other fields (``extra``) and each entry."""
    lines = [f"title = {toml_value(title.strip() or editor.title)}"]
    if isinstance(extra, Mapping):
        lines += [f"{_key(k)} = {toml_value(v)}" for k, v in extra.items() if k != "title"]
    for entry in entries:
        lines += ["", f"[[{editor.entry}]]"]
        for field in editor.fields:
            value = _typed(field, entry.get(field.name))
            if value is not None:
                lines.append(f"{field.name} = {toml_value(value)}")
        kept = entry.get("extra")
        if isinstance(kept, Mapping):
            named = {f.name for f in editor.fields}
            lines += [f"{_key(k)} = {toml_value(v)}" for k, v in kept.items() if k not in named]
    return "\n".join(lines) + "\n"


def _shown(field: EntryField, value: object) -> object:
    """A field read from the file, as the page types it."""
    if field.kind == "flag":
        return value is True
    if field.kind == "coloured_row" and isinstance(value, list):
        return [str(v) for v in value]
    if field.kind == "integers" and isinstance(value, list):
        return " ".join(str(v) for v in value)
    if field.kind == "pairs" and isinstance(value, Mapping):
        return " ".join(f"{k}={v}" for k, v in value.items())
    if isinstance(value, (str, int)):
        return str(value)
    return toml_value(value)


def entries_of(editor: FileEditor, data: Mapping[str, object]) -> tuple[str, list[Entry], Entry]:
    """A parsed file as the page types it: its title, its entries, its own other fields."""
    title = data.get("title")
    extra = {k: v for k, v in data.items() if k not in {"title", editor.entry}}
    raw = data.get(editor.entry)
    entries: list[Entry] = []
    for item in raw if isinstance(raw, list) else []:
        if not isinstance(item, Mapping):
            continue
        entry: Entry = {f.name: _shown(f, item[f.name]) for f in editor.fields if f.name in item}
        named = {f.name for f in editor.fields}
        others = {k: v for k, v in item.items() if k not in named}
        if others:
            entry["extra"] = others
        entries.append(entry)
    return (title if isinstance(title, str) else ""), entries, extra
