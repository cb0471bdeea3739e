"""A page of the project's documentation rendered for players (the shared table's rules,
docs/pbem.md): Markdown to HTML by markdown-it (CommonMark and tables; raw HTML in the file is
shown as text, never rendered), links to other documents of the project kept as their words.

The documents ship inside the package (``firefight/web/docs``, the wheel's ``force-include``)
and are read from the checkout's ``docs/`` folder when firefight runs from its source."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from markdown_it import MarkdownIt
from markdown_it.token import Token

HERE = Path(__file__).resolve().parent
FOLDERS = (HERE / "docs", HERE.parents[2] / "docs")
"""Where a document is looked for: the package's copy, then the checkout's ``docs/``."""


def _unlinked(tokens: list[Token]) -> list[Token]:
    """Inline tokens without the links that point inside the repository (another document, a
    source file): the page shows their words; a link to a heading of this page (``#…``) stays."""
    kept: list[Token] = []
    dropped = 0
    for token in tokens:
        if token.type == "link_open" and not str(token.attrGet("href") or "").startswith("#"):
            dropped += 1
            continue
        if token.type == "link_close" and dropped:
            dropped -= 1
            continue
        kept.append(token)
    return kept


@cache
def rendered(name: str) -> str:
    """The HTML of the document ``name`` (``"pbem.md"``); a document not found is an
    ``FileNotFoundError`` naming where it was looked for."""
    for folder in FOLDERS:
        path = folder / name
        if path.is_file():
            break
    else:
        looked = ", ".join(str(folder) for folder in FOLDERS)
        raise FileNotFoundError(f"{name}: not in {looked}")
    parser = MarkdownIt("commonmark", {"html": False}).enable("table")
    tokens = parser.parse(path.read_text(encoding="utf-8"))
    for token in tokens:
        if token.children:
            token.children = _unlinked(token.children)
    return str(parser.renderer.render(tokens, parser.options, {}))
