"""A table of text that fits the console's width without breaking a number.

Rich wraps a cell too long for its column anywhere, a number, a fraction or a percentage
included (``85.`` then ``3``). :func:`fitted` wraps a cell only between its words (and after a
comma between numbers, ``62,64,`` then ``67``), never inside one: a percentage keeps its ``%``.
The table is boxed where its columns fit so; else drawn without borders nor padding; else, at
widths too narrow for any table, each row is a short block of ``column: value`` fields."""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

from rich import box
from rich.cells import cell_len
from rich.console import Group, JustifyMethod, RenderableType
from rich.table import Table
from rich.text import Text

_UNIT = re.compile(r"\S+?(?:,(?!\d{3}(?!\d))|$|(?=\s))(?: %\S*)?")
"""A piece of text never broken: a word (a number, a fraction: ``5/12``, ``0:85.3``) with the
``%`` after it, or a comma-separated list's item with its comma (``62,``; a thousands
separator, ``216,685``, is not a break)."""

BOXED_COLUMN = 3
"""The cells a boxed column takes besides its text: a space either side and a border."""


def _pieces(text: str) -> list[re.Match[str]]:
    """The pieces of ``text`` never broken (its line breaks are between pieces)."""
    return list(_UNIT.finditer(text))


def shortest(text: str) -> int:
    """The narrowest column that shows ``text`` without breaking a piece of it."""
    return max((cell_len(piece.group()) for piece in _pieces(text)), default=0)


def widest(text: str) -> int:
    """The column ``text`` takes on one line per line it has."""
    return max((cell_len(line) for line in text.split("\n")), default=0)


def _lines(text: str, width: int) -> list[tuple[int, int]]:
    """Where each line of ``text`` wrapped to ``width`` cells starts and ends: between its
    pieces (a piece wider than ``width`` alone on its line), its own line breaks kept."""
    spans: list[tuple[int, int]] = []
    at = 0
    for paragraph in text.split("\n"):
        begin: int | None = None
        end = at
        for piece in _pieces(paragraph):
            start, stop = at + piece.start(), at + piece.end()
            if begin is not None and cell_len(text[begin:stop]) > width:
                spans.append((begin, end))
                begin = None
            begin = start if begin is None else begin
            end = stop
        spans.append((at if begin is None else begin, end))
        at += len(paragraph) + 1
    return spans


def wrap(text: str, width: int) -> str:
    """``text`` wrapped to ``width`` cells between its pieces, never inside one."""
    return "\n".join(text[start:end] for start, end in _lines(text, width))


def wrapped(text: Text, width: int) -> Text:
    """A styled line wrapped as :func:`wrap` wraps, its styles kept: printed, it is not
    wrapped again (no line is wider than ``width`` save a piece wider alone)."""
    return Text("\n").join(text[start:end] for start, end in _lines(text.plain, width))


def _widths(natural: list[int], least: list[int], room: int) -> list[int] | None:
    """Each column's width within ``room`` cells: the widest first narrowed, none below its
    least; None where even the least do not fit."""
    if sum(least) > room:
        return None
    widths = list(natural)
    while sum(widths) > room:
        wider = [i for i, w in enumerate(widths) if w > least[i]]
        top = max(wider, key=lambda i: widths[i])
        widths[top] -= 1
    return widths


def fitted(
    title: str,
    columns: Sequence[str],
    rows: Sequence[Sequence[str]],
    width: int,
    right: Collection[str] = (),
) -> RenderableType:
    """The table in ``width`` cells: boxed, else bare, else a block a row; no number broken.
    The texts are shown as given (no markup read)."""
    cells = [list(columns), *(list(row) for row in rows)]
    natural = [max(widest(row[i]) for row in cells) for i in range(len(columns))]
    least = [max(shortest(row[i]) for row in cells) for i in range(len(columns))]
    boxed = _widths(natural, least, width - BOXED_COLUMN * len(columns) - 1)
    if boxed is not None:
        return _table(title, columns, rows, right, boxed, compact=False)
    bare = _widths(natural, least, width - max(len(columns) - 1, 0))
    if bare is not None:
        return _table(title, columns, rows, right, bare, compact=True)
    return _blocks(title, columns, rows, width)


def _table(
    title: str,
    columns: Sequence[str],
    rows: Sequence[Sequence[str]],
    right: Collection[str],
    widths: list[int],
    *,
    compact: bool,
) -> Table:
    table = Table(
        title=Text(title) if title else None,
        box=box.SIMPLE_HEAD if compact else box.HEAVY_HEAD,
        padding=(0, 0) if compact else (0, 1),
        pad_edge=not compact,
        show_edge=not compact,
    )
    for column, w in zip(columns, widths, strict=True):
        justify: JustifyMethod = "right" if column in right else "left"
        table.add_column(Text(wrap(column, w)), justify=justify, width=w, overflow="fold")
    for row in rows:
        table.add_row(*(Text(wrap(cell, w)) for cell, w in zip(row, widths, strict=True)))
    return table


def _blocks(title: str, columns: Sequence[str], rows: Sequence[Sequence[str]], width: int) -> Group:
    """Each row as a heading (its first cell, the second after a rank) and its other cells
    as ``column: value`` fields, as many to a line as fit, one wider than a line wrapped."""
    shown: list[Text] = [Text(wrap(title, width), style="bold")] if title else []
    ranked = columns[0] == "#" and len(columns) > 1  # the heading: the rank and what it ranks
    for row in rows:
        head = f"#{row[0]} {row[1]}" if ranked else row[0]
        shown.append(Text(wrap(head, width), style="bold"))
        lines: list[str] = []
        first = 2 if ranked else 1
        for column, cell in zip(columns[first:], row[first:], strict=True):
            field = f"{column}: {cell}"
            if lines and cell_len(lines[-1]) + 2 + cell_len(field) <= width:
                lines[-1] += "; " + field
            else:
                lines.extend("  " + line for line in wrap(field, width - 2).split("\n"))
        shown.append(Text("\n".join(lines)))
    return Group(*shown)
