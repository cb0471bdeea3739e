"""Up Front on the web, from uploaded files: ``deck`` and ``men`` take
only ``illustrative`` or uploaded text, never a path the server would read (the JSON API, the
lean odds route, the pages); an uploaded file is validated by the loaders' own checks; every
procedure's page opens with odds or a one-line message and says the shipped files are
ILLUSTRATIVE."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from fastapi.testclient import TestClient

from firefight.rulesets import ruleset
from firefight.rulesets.upfront.cards import UPLOADED_DECKS, deck_file
from firefight.rulesets.upfront.loader import MAX_FILE_BYTES, Uploads
from firefight.rulesets.upfront.men import UPLOADED_MEN_FILES
from firefight.rulesets.upfront.paths import ILLUSTRATIVE_DECK, ILLUSTRATIVE_MEN
from firefight.web import compute as app_module
from firefight.web.app import create_app
from firefight.web.compute import compute_odds
from firefight.web.forms import controls
from firefight.web.uploads import takes_uploads, upload_control

UPFRONT = ruleset("upfront")
PROCEDURES = [p.name for p in UPFRONT.procedures]
CARD_PROCEDURES = [p.name for p in UPFRONT.procedures if takes_uploads(p.input_model)]
"""Every procedure that draws cards (all but ``range`` and ``hand``, which read no deck)."""
DECK = ILLUSTRATIVE_DECK.read_text(encoding="utf-8")
MEN = ILLUSTRATIVE_MEN.read_text(encoding="utf-8")
CARD_2_RN = 'number = 2\nkind = "terrain"\nvalue = -1\nrn = "3r"'


@pytest.fixture(scope="module")
def lean() -> TestClient:
    return TestClient(create_app())


@pytest.fixture(scope="module")
def routed() -> TestClient:
    """The FastAPI odds route (the lean route turned off)."""
    return TestClient(create_app(lean_odds=False))


def _secret_deck(tmp_path):
    """A readable, valid deck file: before the fix the server loaded it and gave odds."""
    path = tmp_path / "deck.toml"
    path.write_text(DECK, encoding="utf-8")
    return str(path)


PATHS = ["/etc/passwd", str(ILLUSTRATIVE_DECK), "../../etc/hostname", "uploaded:" + "0" * 64]


@pytest.mark.parametrize("field", ["deck", "men"])
@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("route", ["odds", "modifiers"])
def test_a_path_in_deck_or_men_is_refused_on_the_api(lean, routed, field, path, route):
    for client in (lean, routed):
        answer = client.post(f"/api/rulesets/upfront/artillery/{route}", json={field: path})
        assert answer.status_code == 422
        body = answer.json()
        assert body["field"] == field
        assert "\n" not in body["detail"]
        assert body["detail"].startswith(f"'{field}' must be illustrative")
        assert "uploaded" in body["detail"]
        assert "root:" not in body["detail"]


def test_a_readable_deck_file_path_is_refused_not_read(lean, routed, tmp_path):
    path = _secret_deck(tmp_path)
    for client in (lean, routed):
        answer = client.post("/api/rulesets/upfront/artillery/odds", json={"deck": path})
        assert answer.status_code == 422
        assert answer.json()["field"] == "deck"
    resolve = lean.post(
        "/api/rulesets/upfront/artillery/resolve", json={"input": {"men": path}, "seed": 1}
    )
    assert resolve.status_code == 422
    assert resolve.json()["field"] == "men"


def test_the_alias_route_refuses_a_path_too(lean):
    answer = lean.post("/api/rulesets/up-front/artillery/odds", json={"deck": "/etc/passwd"})
    assert answer.status_code == 422
    assert answer.json()["field"] == "deck"


@pytest.mark.parametrize("field", ["deck", "men"])
def test_a_path_in_the_page_query_is_refused(lean, field, tmp_path):
    for path in ("/etc/passwd", _secret_deck(tmp_path)):
        answer = lean.get(f"/rulesets/upfront/fire?{field}={path}")
        assert answer.status_code == 422
        assert f"&#39;{field}&#39; must be illustrative" in answer.text
        assert "root:" not in answer.text


def test_the_page_draws_file_inputs_for_the_deck_and_men(lean):
    page = lean.get("/rulesets/upfront/artillery").text
    assert '<input type="file" id="f-deck" name="deck"' in page
    assert '<input type="file" id="f-men" name="men"' in page
    data = json.loads(page.split('id="page-data">')[1].split("</script>")[0])
    assert data["uploads"] == {"deck": "deck_toml", "men": "men_toml"}
    assert data["fields"]["deck"]["kind"] == "upload"
    replayed = lean.get("/rulesets/upfront/artillery?deck=uploaded&men=illustrative")
    assert replayed.status_code == 200  # a replay link: the page asks for the file again
    assert 'data-given="uploaded"' in replayed.text


def _odds(client, procedure, body):
    answer = client.post(f"/api/rulesets/upfront/{procedure}/odds", json=body)
    assert answer.status_code == 200, answer.text
    return {k: Fraction(v) for k, v in answer.json()["distribution"].items()}


def test_an_uploaded_deck_changes_the_odds(lean, routed):
    # card 2's RN 3 turned from red to black: artillery hits on a black RN 0-6 (page 5)
    changed = DECK.replace(CARD_2_RN, CARD_2_RN.replace('"3r"', '"3b"'))
    assert changed != DECK
    for client in (lean, routed):
        shipped = _odds(client, "artillery", {})
        same = _odds(client, "artillery", {"deck": "uploaded", "deck_toml": DECK})
        other = _odds(client, "artillery", {"deck": "uploaded", "deck_toml": changed})
        assert same == shipped
        assert other != shipped
        assert sum(other.values()) == 1
        implicit = _odds(client, "artillery", {"deck_toml": changed})  # deck: uploaded implied
        assert implicit == other


def test_uploaded_personalities_are_used(lean):
    mine = MEN.replace('title = "illustrative personalities v1"', 'title = "my men"')
    assert mine != MEN
    answer = lean.post("/api/rulesets/upfront/ordnance/odds", json={"men_toml": mine})
    assert answer.status_code == 200
    assert answer.json()["input"]["men"].startswith("uploaded:")
    facts = dict(map(tuple, answer.json()["facts"]))
    assert facts["men"] == "ILLUSTRATIVE personalities (my men), not the published values"


def test_past_the_work_budget_upfront_odds_are_a_one_line_422(monkeypatch):
    monkeypatch.setattr(app_module, "WORK_BUDGET", 5)
    monkeypatch.setattr(app_module, "QUICK_STEPS", 2)
    client = TestClient(create_app())
    # six men: every man's draw pays at least one step, whatever the walk's rate per step
    men = "ger-rifle-1,ger-rifle-2,us-rifle,us-bar,ger-leader,ger-lmg"
    body = {"fire_cards": "62", "targets": men}
    answer = client.post("/api/rulesets/upfront/fire/odds", json=body)
    assert answer.status_code == 422
    assert "\n" not in answer.json()["detail"]
    assert "5" in answer.json()["detail"]


def test_a_seeded_roll_uses_the_uploaded_deck(lean):
    body = {"input": {"deck": "uploaded", "deck_toml": DECK}, "seed": 7}
    answer = lean.post("/api/rulesets/upfront/artillery/resolve", json=body)
    shipped = lean.post("/api/rulesets/upfront/artillery/resolve", json={"input": {}, "seed": 7})
    assert answer.status_code == 200
    assert answer.json()["trace"] == shipped.json()["trace"]


@pytest.mark.parametrize(
    ("field", "text", "detail"),
    [
        (
            "deck_toml",
            DECK.replace(CARD_2_RN, CARD_2_RN.replace('"3r"', '"9r"')),
            "uploaded deck: card 2: 'rn' must be a number 0 to 6 and its colour",
        ),
        ("deck_toml", "title = [", "uploaded deck: "),
        ("deck_toml", DECK.replace("number = 2\n", "number = 1\n", 1), "uploaded deck: card 1: "),
        ("men_toml", MEN.replace("morale = ", "morale = 99 #", 1), "uploaded personalities: man "),
    ],
)
def test_a_broken_upload_is_a_one_line_422_naming_the_card_and_field(
    lean, routed, field, text, detail
):
    for client in (lean, routed):
        answer = client.post("/api/rulesets/upfront/artillery/odds", json={field: text})
        assert answer.status_code == 422
        body = answer.json()
        assert body["field"] == field
        assert body["detail"].startswith(detail)
        assert "\n" not in body["detail"]


def test_a_broken_men_upload_names_the_man_and_the_field(lean):
    text = MEN.replace("morale = ", "morale = 99 #", 1)
    detail = lean.post("/api/rulesets/upfront/artillery/odds", json={"men_toml": text}).json()
    assert "'morale' must be an integer" in detail["detail"]


def test_an_upload_that_is_not_text_or_contradicts_deck_is_refused(lean):
    answer = lean.post("/api/rulesets/upfront/artillery/odds", json={"deck_toml": 5})
    assert (answer.status_code, answer.json()["field"]) == (422, "deck_toml")
    both = {"deck": "illustrative", "deck_toml": DECK}
    answer = lean.post("/api/rulesets/upfront/artillery/odds", json=both)
    assert (answer.status_code, answer.json()["field"]) == (422, "deck")
    alone = lean.post("/api/rulesets/upfront/artillery/odds", json={"deck": "uploaded"})
    assert (alone.status_code, alone.json()["field"]) == (422, "deck")


def test_an_oversize_upload_is_refused(lean):
    over = "#" * (MAX_FILE_BYTES + 1)
    answer = lean.post("/api/rulesets/upfront/artillery/odds", json={"deck_toml": over})
    assert answer.status_code == 422
    assert answer.json()["field"] == "deck_toml"
    assert "at most 1,000,000 bytes" in answer.json()["detail"]
    huge = "#" * (3 * MAX_FILE_BYTES)
    answer = lean.post("/api/rulesets/upfront/artillery/odds", json={"deck_toml": huge})
    assert answer.status_code == 413
    other = lean.post("/api/rulesets/ept/fire/odds", json={"strength": 6, "pad": "#" * 70_000})
    assert other.status_code == 413  # every other route keeps its 64 KiB


def test_the_pool_worker_gets_the_uploaded_text_in_the_body(monkeypatch):
    changed = DECK.replace(CARD_2_RN, CARD_2_RN.replace('"3r"', '"3b"'))
    raw = json.dumps({"deck": "uploaded", "deck_toml": changed}).encode()
    expected = compute_odds("upfront", "artillery", raw)
    # a fresh pool process has no upload registered: the body alone must carry the deck
    monkeypatch.setattr(UPLOADED_DECKS, "loaded", type(UPLOADED_DECKS.loaded)())
    assert compute_odds("upfront", "artillery", raw) == expected
    assert expected[0] == 200


def test_uploads_are_kept_by_content_hash_and_bounded():
    loads: list[str] = []

    def load(text: str) -> str:
        loads.append(text)
        return text.upper()

    kept = Uploads(load)
    name = kept.register("a")
    assert kept.register("a") == name
    assert loads == ["a"]
    assert kept.get(name) == "A"
    for i in range(3 * Uploads.KEPT):
        kept.register(str(i))
    assert len(kept.loaded) == Uploads.KEPT
    assert kept.get(name) is None
    assert kept.get("/etc/passwd") is None


def test_the_cli_and_python_api_keep_paths(tmp_path):
    assert deck_file(_secret_deck(tmp_path)).cards == deck_file("illustrative").cards
    assert UPLOADED_MEN_FILES.get("illustrative") is None


def test_the_openapi_document_names_the_uploads(lean):
    schemas = lean.get("/openapi.json").json()["components"]["schemas"]
    assert len(CARD_PROCEDURES) >= 10
    for name in CARD_PROCEDURES:
        properties = schemas[f"upfront.{name}.input"]["properties"]
        assert properties["deck"]["enum"] == ["illustrative", "uploaded"]
        assert properties["deck_toml"]["maxLength"] == MAX_FILE_BYTES
        assert properties["men_toml"]["maxLength"] == MAX_FILE_BYTES


def _form_body(procedure: str) -> dict[str, object]:
    """What the page's script sends for the form as it opens (static/app.js, readInputs)."""
    proc = UPFRONT.procedure(procedure)
    body: dict[str, object] = {}
    for control in map(upload_control, controls(proc.input_model, {})):
        if control.kind == "upload":
            continue
        if control.kind == "checkbox":
            body[control.name] = control.checked
        elif control.kind == "select":
            if control.value:
                kind = dict(zip(control.choices, control.choice_types, strict=True))
                body[control.name] = (
                    int(control.value) if kind.get(control.value) == "integer" else control.value
                )
        elif control.kind == "number":
            if control.value:
                body[control.name] = int(control.value)
        elif control.value:
            body[control.name] = control.value
    return body


@pytest.mark.parametrize("procedure", PROCEDURES)
def test_every_upfront_page_opens_with_odds_or_a_one_line_message(lean, procedure):
    page = lean.get(f"/rulesets/upfront/{procedure}")
    assert page.status_code == 200
    if procedure in CARD_PROCEDURES:
        assert 'id="illustrative"' in page.text
        assert "ILLUSTRATIVE deck" in page.text
        assert "ILLUSTRATIVE personalities" in page.text
        assert "not the published values" in page.text
    answer = lean.post(f"/api/rulesets/upfront/{procedure}/odds", json=_form_body(procedure))
    assert answer.status_code in (200, 422), answer.text
    if answer.status_code == 422:
        assert "\n" not in answer.json()["detail"]
        assert answer.json()["field"]
    else:
        assert sum(Fraction(v) for v in answer.json()["distribution"].values()) == 1


def _distinct_men(n: int) -> str:
    """A personality file of ``n`` riflemen whose values all differ (no two share a class)."""
    text = 'title = "distinct men"\n'
    for i in range(n):
        text += (
            f'\n[[man]]\nid = "m{i}"\nnationality = "german"\nrank = "private"\n'
            f'weapon = "rifle"\nfirepower = [1, 1, 2, 2, 3, 3]\nmorale = {i % 6 + 1}\n'
            f"panic = {(i // 6) % 6 + 1}\nrout = {(i // 3) % 8 + 1}\nmalfunction = 6\n"
            f"kia = {i % 5 + 5}\n"
        )
    return text


def test_an_uploaded_group_too_costly_for_the_work_budget_is_a_one_line_422(lean):
    # before the walk over states paid the budget, this took minutes (12 men: 1.3 s, 15: 21 s)
    body = {
        "men_toml": _distinct_men(30),
        "fire_cards": "62",
        "firers": "m0",
        "targets": ",".join(f"m{i}" for i in range(1, 30)),
    }
    answer = lean.post("/api/rulesets/upfront/fire/odds", json=body)
    assert answer.status_code == 422
    assert answer.json()["detail"].startswith("'input' must be inputs whose exact odds")


def test_group_odds_with_page6_malfunctions_on_several_men_are_not_a_500(lean):
    body = {
        "fire_cards": "62",
        "targets": "ger-rifle-1,ger-rifle-2",
        "malfunction": "page6",
    }
    answer = lean.post("/api/rulesets/upfront/fire/odds", json=body)
    assert answer.status_code == 200, answer.text
    odds = {k: Fraction(v) for k, v in answer.json()["distribution"].items()}
    assert sum(odds.values()) == 1
    assert all(k.startswith("KIA ") for k in odds)
