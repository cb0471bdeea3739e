"""Every refusal a player can get is words of the catalogue (docs/languages.md): the phrase a
refusal varies (what a field allows, what a limit counts, a rule's refusal) is one message
with placeholders, never English text built at run time, and every literal phrase given to a
refusal is a message of the catalogue (its extraction takes it)."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

from babel.messages.pofile import read_po

from firefight.cli.catalogue import SOURCES, TEMPLATE

MESSAGE_ARGUMENT = {
    "InputError": (1, "allowed"),
    "ScriptError": (1, "allowed"),
    "StateLimitError": (0, "what"),
    "RuleError": (0, None),
    "FirefightError": (0, None),
    "ScenarioError": (2, "message"),  # its file and place come first
    "BoardScenarioError": (0, None),
    "BoardError": (0, None),
    "ChartError": (0, None),
    "DataFileError": (0, None),
    "JournalError": (0, None),
    "JournalFileError": (2, None),
    "MessageError": (0, None),
    "ServerError": (0, None),
    "SpecError": (2, None),
    "TableError": (1, "message"),  # its HTTP status first
    "_": (0, None),
    "gettext": (0, None),
    "N_": (0, None),
}
"""Each call's message argument (its position and keyword): the refusals a player meets, the
one-line errors of the files a player gives (scenarios, boards, charts, journals, messages) and
the web's table, and gettext's own calls."""
EXTRACTED = ("InputError", "ScriptError", "StateLimitError")
"""The calls whose literal phrase the catalogue's extraction takes (its KEYWORDS)."""
ALLOWED: set[tuple[str, int]] = set()
"""Built messages let through: none."""


def _name(call: ast.Call) -> str | None:
    func = call.func
    return func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)


def _words(node: ast.AST) -> bool:
    """A piece of text with letters in it: English that a built message would carry."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return any(c.isalpha() for c in node.value)
    if isinstance(node, ast.JoinedStr):
        return any(_words(part) for part in node.values if isinstance(part, ast.Constant))
    return False


def built(node: ast.AST) -> bool:
    """An f-string with its words, a ``+`` joining words, or a ``%`` format of words."""
    if isinstance(node, ast.JoinedStr):
        return _words(node) and any(isinstance(p, ast.FormattedValue) for p in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _words(node.left) or _words(node.right) or built(node.left) or built(node.right)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        return _words(node.left)
    return False


def message_argument(call: ast.Call) -> ast.expr | None:
    name = _name(call)
    if name not in MESSAGE_ARGUMENT:
        return None
    index, keyword = MESSAGE_ARGUMENT[name]
    if len(call.args) > index:
        return call.args[index]
    return next((k.value for k in call.keywords if keyword and k.arg == keyword), None)


def _assigned(function: ast.AST) -> dict[str, list[ast.expr]]:
    found: dict[str, list[ast.expr]] = {}
    for node in ast.walk(function):
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name):
                found.setdefault(target.id, []).append(node.value)
    return found


def built_messages(source: str) -> list[tuple[str, int]]:
    """``(call, line)`` of every refusal or message whose message is built: given as is, or
    through a name the same function assigns it to (``msg = f"..."; raise RuleError(msg)``)."""
    tree = ast.parse(source)
    found = []
    functions = (ast.FunctionDef, ast.AsyncFunctionDef)
    scopes: list[ast.Module | ast.FunctionDef | ast.AsyncFunctionDef] = [
        tree,
        *(n for n in ast.walk(tree) if isinstance(n, functions)),
    ]
    for scope in scopes:
        assigned = _assigned(scope) if scope is not tree else {}
        for statement in scope.body:
            for node in ast.walk(statement):
                if not isinstance(node, ast.Call):
                    continue
                argument = message_argument(node)
                if argument is None:
                    continue
                values = [argument]
                if isinstance(argument, ast.Name):
                    values += assigned.get(argument.id, [])
                if any(built(value) for value in values):
                    found.append((_name(node) or "", node.lineno))
    return sorted(set(found))


def _sources() -> list[Path]:
    return sorted(SOURCES.rglob("*.py"))


def test_no_refusal_or_message_of_the_code_is_built_from_english_at_run_time():
    found = [
        f"{path.relative_to(SOURCES)}:{line}: {name}"
        for path in _sources()
        for name, line in built_messages(path.read_text(encoding="utf-8"))
        if (str(path.relative_to(SOURCES)), line) not in ALLOWED
    ]
    assert found == [], "one _() message with placeholders: _('... {x} ...').format(x=...)"


def test_the_walk_finds_each_way_of_building_a_message():
    source = """
def f(n, x):
    raise InputError("n", f"an integer from 1 to {n}", n)

def g(x):
    msg = f"{x} cannot fire"
    raise RuleError(msg)

def h(xs):
    raise InputError("x", "one of " + ", ".join(xs), None)

def k(x):
    return _("got %s" % x)

def fine(n, x):
    raise InputError("n", _("an integer from 1 to {n}").format(n=n), f"{x}!")
"""
    assert [name for name, _line in built_messages(source)] == [
        "InputError",
        "InputError",
        "RuleError",
        "_",
    ]


@cache
def _template() -> frozenset[str]:
    with TEMPLATE.open("rb") as source:
        return frozenset(m.id for m in read_po(source) if isinstance(m.id, str))


def literal_phrases(source: str) -> list[tuple[int, str]]:
    """``(line, phrase)`` of every literal phrase an extracted refusal is given."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and _name(node) in EXTRACTED:
            argument = message_argument(node)
            if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
                found.append((node.lineno, argument.value))
    return found


def test_every_literal_phrase_of_a_refusal_is_a_message_of_the_catalogue():
    phrases = [
        (f"{path.relative_to(SOURCES)}:{line}", phrase)
        for path in _sources()
        for line, phrase in literal_phrases(path.read_text(encoding="utf-8"))
    ]
    assert len(phrases) > 100  # the rule sets', the faces' and the engine's
    missing = [(where, phrase) for where, phrase in phrases if phrase not in _template()]
    assert missing == [], "run `make catalogue` (its KEYWORDS take these calls' phrases)"


def test_a_limit_s_count_and_a_field_s_phrase_are_messages_the_refusals_translate():
    assert {
        "reachable states",  # StateLimitError's count
        "states within one {within}",
        "an integer of at least 1",  # InputError's allowed phrase
        "a hand holding one or more FIRE cards",  # the Up Front advisor's
        "{count} dice of {faces} or a total of {totals}",  # the dice a player gives
    } <= _template()
