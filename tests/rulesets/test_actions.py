"""A rule set's actions (firefight.rulesets.action) get their faces with no face code written
for them: a throwaway rule set registered here declares one tiny action and finds it as a
command (``firefight echo``), as a web route with its OpenAPI schema, and as a page when it
works on a board; the generic face modules import no game."""

from __future__ import annotations

import ast
import json
from dataclasses import dataclass
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from pydantic import Field

from firefight.board.board import Board
from firefight.cli import main
from firefight.core.inputs import RuleInput
from firefight.rulesets import register, registry
from firefight.rulesets.action import Action, Line, Subject, Table, bold
from firefight.rulesets.boards import load, sample_boards
from firefight.rulesets.procedure import RuleSet
from firefight.web.app import create_app

SRC = Path(__file__).resolve().parents[2] / "src" / "firefight"


class EchoInput(RuleInput):
    """A word said a few times."""

    word: str = Field(max_length=20, description="The word to say.")
    times: int = Field(1, ge=1, le=5, description="How many times.")
    loud: bool = Field(False, description="Say it in capitals.")


@dataclass(frozen=True)
class Echo:
    word: str
    times: int
    board: str | None

    def to_json(self) -> dict[str, object]:
        return {"said": [self.word] * self.times, "board": self.board}

    def text(self) -> list[Line | Table]:
        rows = tuple((str(i + 1), self.word) for i in range(self.times))
        return [Line.of(bold("echo"), f": {self.word}"), Table("Said", ("n", "word"), rows)]

    def draw(self, out: Path) -> Path:
        return out


def echo(board: Board | None, inp: EchoInput) -> Echo:
    word = inp.word.upper() if inp.loud else inp.word
    return Echo(word, inp.times, board.name if board is not None else None)


def _board(name: str) -> Board:
    return load(name)[0]


def _pasted(text: str, source: str) -> Board:
    """A sample board by its name or its file's text (what the page sends)."""
    for name, path in sample_boards().items():
        if text.strip() in {name, path.read_text(encoding="utf-8").strip()}:
            return _board(name)
    raise AssertionError(source)


BOARD: Subject[Board] = Subject(
    name="board",
    help="A sample board's name.",
    description="A sample board's name.",
    load=_board,
    parse=_pasted,
    samples=sample_boards,
    title=lambda board: board.name,
    board=lambda board: board,
    board_name=lambda board: board.name,
    page=lambda board, text: {"scenario": text, "board": board.name, "sides": {}, "units": []},
    page_text={"source": "Echoes on a board", "index": "Echo here", "index_more": "."},
)

ECHOES = RuleSet(
    id="echoes",
    title="Echoes",
    source="a test",
    procedures=(),
    actions=(
        Action(
            name="echo",
            title="Say a word a few times.",
            summary="The word, said.",
            input_model=EchoInput,
            answer=echo,
        ),
        Action(
            name="echo-on",
            title="Say a word on a board.",
            summary="The word, said on a board.",
            input_model=EchoInput,
            answer=echo,
            subject=BOARD,
        ),
    ),
)


@pytest.fixture
def echoes():
    register(ECHOES)
    yield ECHOES
    registry._registered.pop(ECHOES.id, None)  # its commands go at the next main()


def test_an_action_is_a_command_with_its_models_options(echoes, capsys):
    assert main(["echo", "--word", "hi", "--times", "2", "--loud", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"said": ["HI", "HI"], "board": None}
    assert main(["echo", "--word", "hi"]) == 0
    printed = capsys.readouterr().out
    assert "echo: hi" in printed
    assert "Said" in printed
    assert main(["echo-on", "vv_village", "--word", "x", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["board"] == "Village crossroads"


def test_an_actions_bad_option_is_one_line_naming_it(echoes, capsys):
    assert main(["echo", "--word", "hi", "--times", "9"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: '--times' must be an integer from 1 to 5")
    assert err.count("\n") == 1
    assert main(["echo", "--word", "w" * 21]) == 2
    assert "'--word' must be" in capsys.readouterr().err


def test_a_command_goes_with_its_rule_set(echoes, capsys):
    registry._registered.pop(ECHOES.id)
    assert main(["echo", "--word", "hi"]) == 2
    capsys.readouterr()


def test_an_action_is_a_web_route_with_its_models_schema(echoes):
    client = TestClient(create_app())
    answer = client.post("/api/echoes/echo", json={"word": "hi", "times": 3})
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"said": ["hi"] * 3, "board": None}
    bad = client.post("/api/echoes/echo", json={"word": "hi", "times": 9})
    assert bad.status_code == 422
    assert bad.json()["detail"].startswith("'times' must be")
    document = client.get("/openapi.json").json()
    body = document["paths"]["/api/echoes/echo"]["post"]["requestBody"]["content"]
    name = body["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
    schema = document["components"]["schemas"][name]
    assert set(schema["properties"]) == {"word", "times", "loud"}
    assert schema["properties"]["times"]["maximum"] == 5
    assert schema["required"] == ["word"]


def test_an_action_on_a_board_has_its_routes_and_page(echoes):
    client = TestClient(create_app())
    answer = client.post("/api/echoes/echo-on", json={"board": "vv_village", "word": "hi"})
    assert answer.status_code == 200, answer.text
    assert answer.json()["board"] == "Village crossroads"
    found = client.post("/api/echoes/board", json={"board": "vv_village"}).json()
    assert len(found["drawing"]["hexes"]) == 16 * 12
    names = [s["name"] for s in client.get("/api/echoes/boards").json()]
    assert names == list(sample_boards())
    page = client.get("/rulesets/echoes/board?name=vv_village")
    assert page.status_code == 200
    assert 'data-hex="0206"' in page.text
    assert "Echoes on a board" in page.text
    assert 'href="/rulesets/echoes/board"' in client.get("/").text


@pytest.mark.parametrize("face", ["cli/actions.py", "web/actions.py", "web/scenario.py"])
def test_the_generic_faces_import_no_game(face):
    games = {p.name for p in (SRC / "rulesets").iterdir() if (p / "__init__.py").exists()}
    tree = ast.parse((SRC / face).read_text(encoding="utf-8"))
    imported = [
        node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
    ] + [
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    ]
    for module in imported:
        parts = module.split(".")
        assert not (parts[:2] == ["firefight", "rulesets"] and len(parts) > 2 and parts[2] in games)
    assert games >= {"vv", "ept"}


def test_where_two_rule_sets_declare_an_action_the_ruleset_option_chooses(echoes, capsys):
    other = RuleSet(
        id="echoes2",
        title="Echoes again",
        source="a test",
        procedures=(),
        actions=(
            Action(
                name="echo",
                title="Say a word a few times.",
                summary="The word, said.",
                input_model=EchoInput,
                answer=lambda _board, inp: Echo("again " + inp.word, 1, None),
            ),
        ),
    )
    register(other)
    try:
        assert main(["echo", "--word", "hi", "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["said"] == ["hi"]
        assert main(["echo", "--word", "hi", "--ruleset", "ECHOES2", "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["said"] == ["again hi"]
        assert main(["echo", "--word", "hi", "--ruleset", "nope"]) == 2
        assert "'--ruleset' must be one of echoes, echoes2" in capsys.readouterr().err
    finally:
        registry._registered.pop(other.id, None)
