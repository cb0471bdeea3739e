"""The play-by-e-mail protocol on both databases: a whole game verifies, and a wrong element,
a reused element, a declaration changed after the other's reveal, a forged roll and an edited
journal row are each refused or detected."""

from __future__ import annotations

import copy
import json

import pytest
import sqlalchemy

import firefight
from firefight.errors import FirefightError
from firefight.journal import Draft, Entry, Journal
from firefight.pbem import play
from firefight.pbem.chain import element
from firefight.pbem.game import Game, ProtocolError, answer_draft, check_next, declare_draft

FIRE = {"strength": 6, "range": "adjacent"}


class Players:
    """Alice (side A) and Bob (side B), each with his own journal and secrets folder."""

    def __init__(self, tmp_path, monkeypatch, db_url: str) -> None:
        self.tmp = tmp_path
        self.monkeypatch = monkeypatch
        self.dbs = {"alice": db_url, "bob": str(tmp_path / "bob.sqlite3")}

    def as_(self, who: str) -> str:
        self.monkeypatch.setenv(play.SECRETS_VARIABLE, str(self.tmp / f"{who}-secrets"))
        return self.dbs[who]

    def start(self) -> play.Step:
        step = play.new(self.as_("alice"), "A", {"A": "alice", "B": "bob"}, "Hill 112", 20)
        step = play.answer(self.as_("bob"), step.message or "")
        play.answer(self.as_("alice"), step.message or "")
        return step

    def resolve(self, name: str, actor: str = "alice") -> play.Step:
        answerer = "bob" if actor == "alice" else "alice"
        declared = play.declare(self.as_(actor), name, "ept", "fire", FIRE)
        answered = play.answer(self.as_(answerer), declared.message or "")
        play.answer(self.as_(actor), answered.message or "")
        return answered


@pytest.fixture
def players(tmp_path, monkeypatch, db_url) -> Players:
    return Players(tmp_path, monkeypatch, db_url)


def test_a_whole_game_verifies_with_every_roll_recomputed_from_both_seeds(players):
    name = players.start().name
    first = players.resolve(name, "alice")
    players.resolve(name, "bob")
    ended = play.end(players.as_("alice"), name)
    final = play.answer(players.as_("bob"), ended.message or "")
    play.answer(players.as_("alice"), final.message or "")
    for who in ("alice", "bob"):
        verdict = play.verify(players.as_(who), name)
        assert verdict.ok, verdict.problems
        assert verdict.game is not None
        assert verdict.game.resolved == 2
        assert sorted(verdict.game.seeds) == ["A", "B"]
    body = first.game.last.body if first.game.last else {}
    assert body["outcome"]
    assert body["dice"]
    assert body["trace"]
    assert first.game.last is not None
    assert first.game.last.who == "alice"


def test_the_two_players_hold_the_same_journal(players):
    name = players.start().name
    players.resolve(name)
    heads = []
    for who in ("alice", "bob"):
        with Journal.open(players.as_(who), name) as journal:
            heads.append(journal.head())
    assert heads[0] == heads[1]
    assert heads[0][0] == 4


def _game(players: Players, who: str, name: str) -> tuple[Journal, Game]:
    journal = Journal.open(players.as_(who), name)
    return journal, Game.read(journal.entries())


def test_a_reused_element_is_refused(players):
    name = players.start().name
    players.resolve(name, "alice")
    seeds_dir = players.tmp / "bob-secrets"
    journal, game = _game(players, "bob", name)
    with journal:
        seed = bytes.fromhex(json.loads(next(seeds_dir.glob("*.json")).read_text())["seed"])
        used = element(seed, game.length, 1).hex()  # bob's element of resolution 1, again
        draft = declare_draft(game, "B", "ept", "fire", FIRE, used)
        with pytest.raises(ProtocolError, match="does not hash to the one revealed before"):
            check_next(game, draft)


def test_a_made_up_element_is_refused(players):
    """The other player cannot declare in my name: he does not know my next element."""
    name = players.start().name
    journal, game = _game(players, "bob", name)
    with journal:
        draft = declare_draft(game, "A", "ept", "fire", FIRE, "ab" * 32)
        with pytest.raises(ProtocolError, match="side A's element does not hash"):
            check_next(game, draft)


def test_a_declaration_changed_after_the_others_reveal_is_refused(players):
    name = players.start().name
    declared = play.declare(players.as_("alice"), name, "ept", "fire", FIRE)
    answered = play.answer(players.as_("bob"), declared.message or "")
    # Alice, having seen the dice, rewrites her declaration 1 (another input, same element)
    journal, _ = _game(players, "alice", name)
    with journal:
        entries = list(journal.entries())
    original = entries[-1]
    changed = Entry.chained(
        _draft_like(
            original, {**original.body, "input": {**original.body["input"], "strength": 12}}
        ),
        original.seq,
        original.prev,
    )
    forged = play.armor(name, [changed])
    with pytest.raises(FirefightError, match="differs from yours"):
        play.answer(players.as_("bob"), forged)
    # and a journal whose declaration was changed and re-hashed does not verify: the answer
    # names the declaration it answered, and the dice are bound to the declared input
    rest = answered.game.last
    assert rest is not None
    relinked = Entry.chained(_draft_like(rest, rest.body), rest.seq, changed.hash)
    verdict = play.verify_entries(name, [*entries[:-1], changed, relinked], [])
    assert not verdict.ok
    assert "must answer resolution 1" in verdict.problems[0]


def test_a_forged_roll_does_not_verify_even_with_every_hash_recomputed(players):
    name = players.start().name
    answered = players.resolve(name)
    journal, _ = _game(players, "alice", name)
    with journal:
        entries = list(journal.entries())
    last = entries[-1]
    body = {**last.body, "outcome": "K", "dice": ["6+6"]}
    forged = Entry.chained(_draft_like(last, body), last.seq, last.prev)
    verdict = play.verify_entries(name, [*entries[:-1], forged], [])
    assert not verdict.ok
    assert "does not recompute" in verdict.problems[0]
    assert answered.game.resolved == 1


def test_an_edited_journal_row_is_detected(players):
    name = players.start().name
    players.resolve(name)
    url = players.as_("alice")
    with Journal.open(url, name) as journal:
        last = journal.head()[0]
        body = dict(journal.entry(last).body)
        body["outcome"] = "K"
        with journal.engine.begin() as connection:
            connection.execute(
                sqlalchemy.text(
                    "UPDATE journal_entry SET body = :body WHERE journal = :name AND seq = :seq"
                ),
                {
                    "body": json.dumps(body, sort_keys=True, separators=(",", ":")),
                    "name": name,
                    "seq": last,
                },
            )
    verdict = play.verify(url, name)
    assert not verdict.ok
    assert any("does not match its content" in problem for problem in verdict.problems)
    assert any("does not recompute" in problem for problem in verdict.problems)


def test_the_last_revealer_refusing_is_visible(players):
    name = players.start().name
    play.declare(players.as_("alice"), name, "ept", "fire", FIRE)
    verdict = play.verify(players.as_("alice"), name)
    assert verdict.ok
    assert verdict.game is not None
    assert verdict.game.status() == (
        "resolution 1 declared by side A; waiting for side B's element"
    )
    with pytest.raises(FirefightError, match="not yet answered"):
        play.declare(players.as_("alice"), name, "ept", "fire", FIRE)


def test_the_declarer_cannot_answer_his_own_declaration(players):
    name = players.start().name
    play.declare(players.as_("alice"), name, "ept", "fire", FIRE)
    journal, game = _game(players, "alice", name)
    with journal, pytest.raises(ProtocolError, match="the other side answers"):
        answer_draft(game, "A", "00" * 32)


def _draft_like(entry: Entry, body: dict) -> Draft:
    return Draft(who=entry.who, body=body, kind=entry.kind, time=entry.time)


def test_two_writers_taking_the_same_turn_at_once_are_refused_but_one(players):
    """A step is written only if the journal still ends where its writer read it (two server
    processes, two commands): the second writer of the same turn is refused."""
    name = players.start().name
    seeds_dir = players.tmp / "alice-secrets"
    seed = bytes.fromhex(json.loads(next(seeds_dir.glob("*.json")).read_text())["seed"])
    journal, game = _game(players, "alice", name)
    with journal:
        stale = copy.deepcopy(game)
        mine = element(seed, game.length, 1).hex()
        play.append_step(journal, game, declare_draft(game, "A", "ept", "fire", FIRE, mine))
        other_input = {**FIRE, "strength": 3}
        with pytest.raises(play.StepConflictError, match="moved on meanwhile"):
            play.append_step(
                journal, stale, declare_draft(stale, "A", "ept", "fire", other_input, mine)
            )
        assert journal.head()[0] == 3
        assert journal.verify().ok


def test_verify_notes_a_game_played_with_another_version(players, monkeypatch):
    name = players.start().name
    assert play.verify(players.as_("alice"), name).notes == []
    monkeypatch.setattr(play, "rules_version", lambda: "firefight 9.9")
    verdict = play.verify(players.as_("alice"), name)
    assert verdict.ok
    played = f"firefight {firefight.__version__}"
    assert verdict.notes == [f"the game was played with {played}; verified with firefight 9.9"]
