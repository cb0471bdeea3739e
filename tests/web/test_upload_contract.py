"""A data file a rule set declares (``RuleSet.files``) is taken uploaded by the web with no
other line written for it: the upload path finds it through the contract."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from firefight.chance import Chance
from firefight.core.inputs import RuleInput
from firefight.errors import ChartError
from firefight.rulesets import Procedure, RuleSet, registry
from firefight.rulesets.datafile import DataFile
from firefight.web.app import create_app
from firefight.web.uploads import takes_uploads


class RosterError(ChartError):
    """A malformed roster (one line)."""


class Rosters:
    """Uploaded rosters (``men = N``), kept by content hash."""

    def __init__(self) -> None:
        self.loaded: dict[str, object] = {}

    def name_of(self, text: str) -> str:
        return "uploaded:" + hashlib.sha256(text.encode()).hexdigest()

    def read(self, text: str) -> object:
        key, _, value = text.partition("=")
        if key.strip() != "men" or not value.strip().isdigit():
            raise RosterError(f"uploaded roster: 'men' must be a number (got {text!r})")
        return int(value)

    def register(self, text: str) -> str:
        name = self.name_of(text)
        self.loaded[name] = self.read(text)
        return name

    def keep(self, name: str, loaded: object) -> None:
        self.loaded[name] = loaded

    def get(self, name: str) -> object | None:
        return self.loaded.get(name)


ROSTERS = Rosters()


class Muster(RuleInput):
    roster: str = "illustrative"


def muster(inp: Muster, chance: Chance) -> str:
    return f"{ROSTERS.get(inp.roster) or 1} men"


ROSTER = DataFile(
    field="roster",
    text_field="roster_text",
    what="roster",
    uploads=ROSTERS,
    max_bytes=100,
    max_values=10,
    error=RosterError,
    shipped_label=lambda: "ILLUSTRATIVE roster",
)
BARRACKS = RuleSet(
    id="barracks",
    title="A throwaway rule set with a data file",
    source="a test",
    procedures=(Procedure("muster", "Muster", Muster, muster, lambda _: []),),  # type: ignore[arg-type]
    files=(ROSTER,),
)


@pytest.fixture
def client() -> Iterator[TestClient]:
    registry.register(BARRACKS)
    try:
        yield TestClient(create_app())
    finally:
        registry._registered.pop(BARRACKS.id, None)


def test_a_declared_data_file_is_uploaded_through_the_contract(client):
    assert takes_uploads(Muster)
    url = "/api/rulesets/barracks/muster/odds"
    answer = client.post(url, json={"roster_text": "men = 7"})
    assert answer.status_code == 200, answer.text
    assert "7 men" in answer.text
    assert "1 men" in client.post(url, json={}).text  # none sent: the shipped file


def test_a_declared_data_file_is_refused_as_a_path_and_when_malformed_in_one_line(client):
    url = "/api/rulesets/barracks/muster/odds"
    path = client.post(url, json={"roster": "/etc/passwd"})
    assert path.status_code == 422
    assert path.json()["field"] == "roster"
    assert "the server reads no file path" in path.json()["detail"]
    bad = client.post(url, json={"roster_text": "women = 2"})
    assert bad.status_code == 422
    assert bad.json() == {
        "field": "roster_text",
        "detail": "uploaded roster: 'men' must be a number (got 'women = 2')",
    }
    large = client.post(url, json={"roster_text": "men = " + "1" * 200})
    assert large.status_code == 422
    assert "at most 100 bytes" in large.json()["detail"]


def test_a_rule_set_without_data_files_takes_no_upload():
    assert not takes_uploads(RuleInput)
    assert RuleSet("none", "None", "a test", ()).files == ()
