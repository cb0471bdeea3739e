"""The public API (``firefight.api``, docs/api.md): what a rule set may import from firefight.

Every name is importable, documented in docs/api.md and has a docstring; the set of names is
pinned here, so that a change to the API is a deliberate edit of this test. Importing a rule
set's metadata type from it stays light.
"""

from __future__ import annotations

import ast
import inspect
import re
import subprocess
import sys
from pathlib import Path

import pytest

from firefight import api

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "api.md"

PINNED = {
    # the contract
    "RuleSet",
    "RuleSetInfo",
    "Procedure",
    "ProcedureInfo",
    "Procedures",
    "deferred",
    "lazy_attribute",
    # inputs, modifiers, charts
    "RuleInput",
    "NamedFile",
    "validate",
    "Modifier",
    "ModifierKind",
    "Chart",
    "Cell",
    "load_chart",
    # the chance engine
    "Chance",
    "Dice",
    "Deck",
    "D6",
    "TWO_D6",
    "D10",
    "binomial",
    "Distribution",
    "Resolution",
    "TraceEvent",
    "exact",
    "sample",
    "scripted",
    "choose",
    "spend",
    "Process",
    "Phases",
    "ProcessResolution",
    # errors and words
    "FirefightError",
    "InputError",
    "RuleError",
    "ChartError",
    "one_of",
    "quoted",
    "_",
    "N_",
    "ngettext",
    # the hooks' types
    "EngagementRules",
    "Order",
    "DataFile",
    "Kept",
    "BoardFire",
    "FireInputs",
    "Filled",
    "NoOptions",
    "WorkedExample",
    "Severity",
    "ranked",
    # boards and sight
    "LosPolicy",
    "TerrainVocabulary",
    "SightRule",
    "Board",
    "Hex",
    "LosVerdict",
    "LosReasons",
    "Hindrance",
    "line_of_sight",
    "BoardCells",
    "LineEnds",
    "StepWindow",
    "LineRecord",
    "StepRecord",
    "Fold",
    "Accumulators",
    "Facts",
    "Judgement",
    "Bools",
    "Ints",
    "Corner",
}
"""The public API. A name added or taken out is a change for every rule set: edit this set,
docs/api.md and ``firefight.api`` together."""


def test_the_api_is_the_pinned_set():
    assert sorted(api.__all__) == sorted(PINNED)
    assert len(api.__all__) == len(set(api.__all__))
    assert set(api._WHERE) == PINNED


def test_the_type_checking_imports_are_where_the_names_come_from():
    tree = ast.parse(Path(api.__file__).read_text(encoding="utf-8"))
    block = next(
        node
        for node in tree.body
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING"
    )
    typed = {
        alias.asname or alias.name: node.module
        for node in block.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }
    assert typed == api._WHERE


@pytest.mark.parametrize("name", sorted(PINNED))
def test_every_name_is_importable_and_is_the_modules_own(name):
    namespace: dict[str, object] = {}
    exec(f"from firefight.api import {name}", namespace)
    source = sys.modules[api._WHERE[name]]
    assert namespace[name] is getattr(source, name)


def _attribute_docstring(module: str, name: str) -> str | None:
    """The string that stands after ``name = ...`` at the top of ``module``'s source."""
    tree = ast.parse(inspect.getsource(sys.modules[module]))
    for node, after in zip(tree.body, tree.body[1:], strict=False):
        targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
        if any(isinstance(t, ast.Name) and t.id == name for t in targets) and (
            isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant)
        ):
            return str(after.value.value)
    return None


@pytest.mark.parametrize("name", sorted(PINNED))
def test_every_name_has_a_docstring(name):
    value = getattr(api, name)
    if inspect.isclass(value) or inspect.isfunction(value):
        doc = value.__dict__.get("__doc__") if inspect.isclass(value) else value.__doc__
    else:  # a type alias or a constant: the docstring written after its assignment
        doc = _attribute_docstring(api._WHERE[name], name)
    assert doc
    assert doc.strip()
    assert not doc.startswith(f"{name}("), "a dataclass's generated signature is no docstring"


def test_every_name_is_documented_in_the_page():
    text = PAGE.read_text(encoding="utf-8")
    listed = set(re.findall(r"^\| `([A-Za-z_0-9]+)` \|", text, flags=re.M))
    assert listed == PINNED


def test_importing_the_metadata_type_from_the_api_stays_light():
    """A rule set's light module (its ``RuleSetInfo``) may import from the API: that imports
    neither the contract's procedures, the chance engine nor numpy."""
    code = (
        "import sys\n"
        "from firefight.api import RuleSetInfo\n"
        "print(sorted(m for m in sys.modules if m.startswith(('numpy', 'firefight.chance', "
        "'firefight.board', 'firefight.rulesets.procedure'))))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert done.stdout.strip() == "[]"


def test_an_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'Nothing'"):
        _ = api.Nothing  # type: ignore[attr-defined]
    assert "RuleSet" in dir(api)
