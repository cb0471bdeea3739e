"""The help of every field the web shows (each procedure's and action's input model: the
forms' help, the OpenAPI schema's descriptions) is worded for both faces: it names no
command-line option (``--to``), since the web names its fields otherwise."""

from __future__ import annotations

import re

import pytest

from firefight.rulesets import rulesets

OPTION = re.compile(r"(?<![\w-])--[a-z]")
MODELS = {
    f"{r.id}/{name}": model
    for r in rulesets()
    for name, model in [(p.name, p.input_model) for p in r.procedures]
    + [(a.name, a.input_model) for a in r.actions]
}


@pytest.mark.parametrize("where", sorted(MODELS))
def test_no_field_help_names_a_command_line_option(where):
    said = {
        name: info.description
        for name, info in MODELS[where].model_fields.items()
        if info.description and OPTION.search(info.description)
    }
    assert not said, said
