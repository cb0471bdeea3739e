"""The example commands of the README and the players' pages run, so they cannot rot."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from firefight.cli import main

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").glob("*.md"))]


def console_examples() -> list[tuple[list[str], str | None]]:
    """Each ``$ firefight ...`` line of a console block, with the line printed after it."""
    examples = []
    blocks = [
        block
        for page in PAGES
        for block in re.findall(r"```console\n(.*?)```", page.read_text(encoding="utf-8"), re.S)
    ]
    for block in blocks:
        lines = block.splitlines()
        for i, line in enumerate(lines):
            if line.startswith("$ firefight "):
                after = (
                    lines[i + 1]
                    if i + 1 < len(lines) and not lines[i + 1].startswith("$")
                    else None
                )
                examples.append((shlex.split(line[2:])[1:], after))
    return examples


EXAMPLES = console_examples()


def test_the_readme_starts_with_the_two_set_up_commands():
    text = README.read_text(encoding="utf-8")
    first_block = text.split("```sh\n", 1)[1].split("```", 1)[0].splitlines()
    assert first_block[0].startswith("make run ")
    assert first_block[1].startswith("make test ")
    assert text.index("```sh") < text.index("## ")


_RAN: dict[tuple[str, ...], tuple[int, str, str]] = {}
"""What each example command printed, by its arguments: a command the README and a page of the
docs both show (``engage ept_hedgerow --optimal``, a sweep) is run once and both its examples are
checked on that one run. Only a command that reads no state left by another is kept (not
``journal``, which reads what the resolutions before it wrote)."""


def _ran(capsys: pytest.CaptureFixture[str], args: list[str]) -> tuple[int, str, str]:
    """``main(args)``'s exit code, standard output and standard error (the first run's, for a
    command run before)."""
    key = tuple(args)
    if key in _RAN:
        return _RAN[key]
    code = main(args)
    captured = capsys.readouterr()
    ran = (code, captured.out, captured.err)
    if args[0] != "journal":
        _RAN[key] = ran
    return ran


@pytest.mark.parametrize(("args", "printed"), EXAMPLES, ids=[" ".join(a) for a, _ in EXAMPLES])
def test_readme_command_runs(capsys, monkeypatch, tmp_path, args, printed):
    monkeypatch.chdir(tmp_path)  # pictures drawn with --out land here, not in the work tree
    monkeypatch.setenv("FIREFIGHT_DB", str(tmp_path / "journal.sqlite3"))  # not the user's
    if args[0] == "journal":  # as in its block: a resolution journaled first (reading creates none)
        assert main(["resolve", "ept", "fire", "--strength", "6", "--seed", "1", "--journal"]) == 0
        capsys.readouterr()
    code, out, err = _ran(capsys, args)
    if printed is not None and printed.startswith("error:"):
        assert code == 2
        assert err.strip() == printed
    else:
        assert code == 0, err
        assert out


def test_readme_has_examples():
    assert len(EXAMPLES) >= 8


def test_every_rule_set_has_a_players_page():
    import firefight  # noqa: PLC0415 - only this test needs the registry

    for ruleset in firefight.list_rulesets():
        assert (ROOT / "docs" / f"{ruleset.id}.md").is_file()


def test_readme_python_example_runs():
    text = README.read_text(encoding="utf-8")
    code = re.search(r"```python\n(.*?)```", text, re.S)
    assert code is not None
    namespace: dict[str, object] = {}
    exec(compile(code.group(1), "README.md", "exec"), namespace)  # our own README's example
    assert str(namespace["fire"].odds(namespace["attack"])["-"]) == "5/18"  # type: ignore[attr-defined]


def _slug(heading: str) -> str:
    """A heading's anchor as GitHub writes it: lower case, punctuation dropped, spaces as -."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    found: set[str] = set()
    seen: dict[str, int] = {}
    for heading in re.findall(r"^#+ (.*)$", text, re.M):
        slug = _slug(heading)
        found.add(slug if slug not in seen else f"{slug}-{seen[slug]}")
        seen[slug] = seen.get(slug, 0) + 1
    return found


def test_links_to_a_pages_section_name_one_of_its_headings():
    """README.md's and the docs' links such as docs/vv.md#threat-map reach a heading
    (a section renamed or merged leaves no dead link)."""
    dead = []
    for page in PAGES:
        for target, anchor in re.findall(r"\]\(([^)#\s]*)#([^)\s]+)\)", page.read_text("utf-8")):
            linked = page.parent / target if target else page
            if not linked.is_file() or anchor not in _anchors(linked):
                dead.append(f"{page.name}: {target}#{anchor}")
    assert dead == []
