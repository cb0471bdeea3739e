"""The README and docs/ stand on their own in a clone: every relative link
resolves to a file of the repository, no link or path leaves it, and an anchor names a heading."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
OUTSIDE = re.compile(r"(?<![\w.])\.\./shared|(?<![\w/.])shared/(?:research|seeds)|/work/")


def _links(page: Path) -> list[str]:
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    return [m[1] for m in LINK.finditer(text) if not re.match(r"[a-z]+:", m[1])]


def _anchors(page: Path) -> set[str]:
    """GitHub's heading anchors: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    headings = re.findall(r"^#{1,6}\s+(.+?)\s*$", text, flags=re.M)
    return {re.sub(r"[^\w\- ]", "", h.lower()).replace(" ", "-").strip("-") for h in headings}


CASES = [(page, link) for page in PAGES for link in _links(page)]


def test_the_pages_have_links_to_check():
    assert len(CASES) > 20
    assert any(link.startswith("docs/architecture.md") for _, link in CASES)


@pytest.mark.parametrize(
    ("page", "link"), CASES, ids=[f"{p.relative_to(ROOT)}:{link}" for p, link in CASES]
)
def test_every_relative_link_resolves_inside_the_repository(page, link):
    path, _, anchor = link.partition("#")
    target = (page.parent / path).resolve() if path else page
    assert target.is_relative_to(ROOT), f"{link} leaves the repository"
    assert target.exists(), f"{link} does not exist"
    if anchor and target.suffix == ".md":
        assert anchor.strip("-") in _anchors(target), f"no heading {anchor} in {target.name}"


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_no_page_points_outside_the_repository(page):
    text = page.read_text(encoding="utf-8")
    assert OUTSIDE.findall(text) == []
    assert "FACTS.md" not in text
    assert "DESIGN.md" not in text
