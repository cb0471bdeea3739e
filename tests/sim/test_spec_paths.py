"""A sweep spec names its scenario as a sample or a file beside it, and nowhere else: a spec
sent by someone else cannot make firefight open a file of the reader's."""

from __future__ import annotations

from pathlib import Path

import pytest

from firefight.sim import load_spec
from firefight.sim.scenario import sample_scenarios
from firefight.sim.spec import SpecError

SPEC = 'kind = "engagement"\nscenario = "{name}"\n\n[axes]\nturns = [1, 2]\n'


def _spec(folder: Path, name: str) -> Path:
    path = folder / "spec.toml"
    path.write_text(SPEC.format(name=name), encoding="utf-8")
    return path


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    """A valid scenario outside the spec's folder (the reader's own file)."""
    outside = tmp_path / "private"
    outside.mkdir()
    path = outside / "secret.toml"
    path.write_text(sample_scenarios()["vv_village"].read_text(encoding="utf-8"), encoding="utf-8")
    return path


@pytest.mark.parametrize("how", ["absolute", "dotdot", "link"])
def test_a_spec_naming_a_scenario_outside_its_folder_is_refused(tmp_path, secret, how):
    folder = tmp_path / "shared"
    folder.mkdir()
    if how == "absolute":
        name = str(secret)
    elif how == "dotdot":
        name = "../private/secret.toml"
    else:
        (folder / "s.toml").symlink_to(secret)
        name = "s.toml"
    with pytest.raises(SpecError) as raised:
        load_spec(_spec(folder, name))
    message = str(raised.value)
    assert message.startswith(f"{folder / 'spec.toml'}: scenario: 'scenario' must be a sample (")
    assert "\n" not in message


def test_a_spec_names_a_sample_or_a_file_below_its_folder(tmp_path):
    below = tmp_path / "scenarios"
    below.mkdir()
    text = sample_scenarios()["vv_village"].read_text(encoding="utf-8")
    (below / "mine.toml").write_text(text, encoding="utf-8")
    assert load_spec(_spec(tmp_path, "scenarios/mine.toml")).cells == 2
    assert load_spec(_spec(tmp_path, "vv_village")).cells == 2


DATA = Path(__file__).resolve().parents[2] / "src/firefight/rulesets/upfront/data/illustrative"
FILE_SPEC = 'ruleset = "upfront"\nprocedure = "artillery"\n\n[inputs]\ndeck = "{name}"\n\n'
FILE_SPEC += "[axes]\nrr = [0, 1]\n"


@pytest.mark.parametrize("how", ["absolute", "dotdot", "link", "missing"])
def test_a_spec_naming_a_data_file_outside_its_folder_is_refused(tmp_path, how):
    folder = tmp_path / "shared"
    folder.mkdir()
    secret = tmp_path / "deck.toml"
    secret.write_bytes((DATA / "deck.toml").read_bytes())
    name = {"absolute": str(secret), "dotdot": "../deck.toml", "link": "d.toml"}.get(how, "x.toml")
    if how == "link":
        (folder / "d.toml").symlink_to(secret)
    spec = folder / "spec.toml"
    spec.write_text(FILE_SPEC.format(name=name), encoding="utf-8")
    with pytest.raises(SpecError) as raised:
        load_spec(spec)
    assert "inputs.deck: 'deck' must be illustrative or a .toml file in the spec's" in str(
        raised.value
    )


def test_a_spec_names_a_data_file_beside_it(tmp_path):
    (tmp_path / "mine.toml").write_bytes((DATA / "deck.toml").read_bytes())
    spec = tmp_path / "spec.toml"
    spec.write_text(FILE_SPEC.format(name="mine.toml"), encoding="utf-8")
    assert load_spec(spec).cells == 2
    spec.write_text(FILE_SPEC.format(name="illustrative"), encoding="utf-8")
    assert load_spec(spec).cells == 2
