"""Hostile journal files and database URLs: ``firefight journal import`` refuses what
it cannot hash or store in one line with exit code 2, what a forged but well-chained file holds
never reaches the terminal as control characters, and ``--db`` never echoes a password."""

from __future__ import annotations

import json
import uuid

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firefight.errors import quoted
from firefight.journal.canonical import GENESIS, canonical_text, entry_hash
from tests.helpers import run_cli as run

BODY = {"ruleset": "ept", "procedure": "fire", "outcome": "N1"}


def _entry(seq: int = 1, body: object = None, **fields: object) -> dict[str, object]:
    """A well-chained entry with a hash computed as an attacker would (SHA-256 is public)."""
    content = {
        "seq": seq,
        "kind": "resolution",
        "time": "2026-11-30T00:00:00.000000Z",
        "who": "mallory",
        "body": BODY if body is None else body,
        "prev": GENESIS,
        **fields,
    }
    return {**content, "hash": entry_hash(content)}


def _import(capsys, tmp_path, text: str) -> tuple[int, str, str]:
    path = tmp_path / "hostile.jsonl"
    path.write_text(text, encoding="utf-8")
    return run(capsys, "journal", "import", str(path), "--db", str(tmp_path / "j.sqlite3"))


def _refused(code: int, out: str, err: str) -> str:
    assert (code, out) == (2, "")
    assert err.count("\n") == 1
    assert "internal error" not in err
    return err


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e400"])
def test_a_number_canonical_json_cannot_write_is_refused_in_one_line(capsys, tmp_path, number):
    line = json.dumps(_entry()).replace('"outcome": "N1"', f'"outcome": {number}')
    err = _refused(*_import(capsys, tmp_path, line))
    assert "hostile.jsonl line 1: not canonical JSON" in err


def test_a_lone_surrogate_is_refused_in_one_line(capsys, tmp_path):
    line = json.dumps(_entry()).replace('"outcome": "N1"', '"outcome": "\\ud800"')
    err = _refused(*_import(capsys, tmp_path, line))
    assert "hostile.jsonl line 1: not canonical JSON" in err


def test_a_seq_past_what_the_database_stores_is_refused_in_one_line(capsys, tmp_path):
    err = _refused(*_import(capsys, tmp_path, json.dumps(_entry(seq=10**30))))
    assert "'seq' must be an integer from 1 to 4611686018427387904" in err


ESCAPES = {"who": "\x1b[2J\x1b[31mmallory", "time": "\x1b]0;pwned\x07", "kind": "resolution"}
HOSTILE_BODY = {
    "ruleset": "\x1b[31mept",
    "procedure": "fire\x9b2J",
    "outcome": "N\x1b[0m",
    "odds": [["N\x1b[0m", "1/2"], ["-", "1/2"]],
    "\x1b[1mkey": "\x1b[5mvalue",
}


@pytest.mark.parametrize("command", [["list"], ["show", "1"], ["luck"]])
def test_control_characters_in_an_imported_entry_never_reach_the_terminal(
    capsys, tmp_path, command, monkeypatch
):
    # the escaped name is one word of 26 characters, which 80 columns fold inside its cell
    monkeypatch.setenv("COLUMNS", "200")
    code, _, err = _import(capsys, tmp_path, canonical_text(_entry(body=HOSTILE_BODY, **ESCAPES)))
    assert (code, err) == (0, "")
    code, out, err = run(capsys, "journal", *command, "--db", str(tmp_path / "j.sqlite3"))
    assert (code, err) == (0, "")
    assert not any(c in out for c in "\x1b\x07\x9b")
    assert "mallory" in out  # shown, its control characters as escapes


@pytest.mark.parametrize(
    "url",
    [
        "mysql://bob:hunter2@db.example/club",
        "postgresql://bob:hunter2@[::1/club",
        "postgresql://bob:hunter2@db.example:port/club",
        "mysql://bob:hun@ter2@db.example/club",
    ],
)
def test_a_refused_database_url_never_echoes_its_password(capsys, url):
    code, out, err = run(capsys, "journal", "verify", "--db", url)
    _refused(code, out, err)
    assert "hunter2" not in err
    assert "ter2" not in err
    assert "'--db' must be a postgresql:// or sqlite:/// URL, or a file path" in err
    assert "bob:***@" in err


def test_a_line_past_the_limit_is_refused_as_it_is_read(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr("firefight.journal.transfer.MAX_LINE_BYTES", 1000)
    line = canonical_text(_entry(body={**BODY, "trace": ["x" * 5000]}))
    err = _refused(*_import(capsys, tmp_path, line + "\n"))
    assert "hostile.jsonl line 1: a line longer than 1000 bytes" in err


def test_a_file_without_line_ends_is_refused_not_read_to_the_end(capsys, tmp_path):
    """/dev/zero has no end: it is refused at the first MAX_LINE_BYTES, not read forever."""
    code, out, err = run(
        capsys, "journal", "import", "/dev/zero", "--db", str(tmp_path / "j.sqlite3")
    )
    assert "/dev/zero line 1: a line longer than 16777216 bytes" in _refused(code, out, err)


def test_verify_on_a_missing_file_fails_instead_of_verifying_an_empty_journal(capsys, tmp_path):
    """A mistyped --db made a new journal and said "ok: 0 entries" (exit 0)."""
    missing = tmp_path / "typo.sqlite3"
    err = _refused(*run(capsys, "journal", "verify", "--db", str(missing)))
    assert err == (
        "error: '--db' must be an existing journal database (reading never creates one) "
        f"(got {quoted(str(missing))})\n"
    )
    assert not missing.exists()


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    fields=st.tuples(
        st.dictionaries(st.text(max_size=8), JSON_VALUES, max_size=5),
        st.text(max_size=30),
        st.text(max_size=12),
        st.integers(min_value=-5, max_value=2**64),
    )
)
def test_any_json_entry_is_imported_or_refused_in_one_line(capsys, tmp_path, fields):
    """Whatever a well-chained line holds, import answers exit 0 or a one-line exit 2."""
    body, who, kind, seq = fields
    content = {
        "seq": seq,
        "kind": kind,
        "time": "2026-11-30T00:00:00.000000Z",
        "who": who,
        "body": body,
        "prev": GENESIS,
    }
    try:
        line = canonical_text({**content, "hash": entry_hash(content)})
    except ValueError:  # no canonical form (NaN, a lone surrogate): the hash is anyone's guess
        line = json.dumps({**content, "hash": "0" * 64})
    path = tmp_path / "fuzz.jsonl"
    path.write_text(line + "\n", encoding="utf-8", errors="surrogatepass")
    db = tmp_path / f"fuzz-{uuid.uuid4().hex}.sqlite3"  # one per example
    code, _, err = run(capsys, "journal", "import", str(path), "--db", str(db))
    assert code in {0, 2}, err
    assert "internal error" not in err
    if code == 2:
        assert err.count("\n") == 1


@pytest.mark.parametrize("kind", ["png", "svg"])
def test_dollar_signs_in_a_journal_are_drawn_as_text_not_mathtext(capsys, tmp_path, kind):
    """A player or outcome such as "$\\sqrt{$" was parsed as mathtext: an internal error."""
    body = {**BODY, "outcome": "$\\frac{$", "odds": [["$\\frac{$", "1/2"], ["-", "1/2"]]}
    code, _, err = _import(capsys, tmp_path, canonical_text(_entry(body=body, who="$\\sqrt{$")))
    assert (code, err) == (0, "")
    picture = tmp_path / f"luck.{kind}"
    db = str(tmp_path / "j.sqlite3")
    code, _, err = run(capsys, "journal", "luck", "--db", db, "--out", str(picture))
    assert (code, err) == (0, "")
    assert picture.stat().st_size > 0
