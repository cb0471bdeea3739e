"""An action: what a player asks of a rule set beyond one procedure (a stack's move along a
path, a threat map), declared once so that every face is generated from it.

An :class:`Action` names a typed frozen input model (a :class:`~firefight.core.inputs.RuleInput`)
and a function from it to a typed :class:`Answer`: ``to_json()`` is the ``--json`` shape and
the web's answer, ``text()`` what the command prints, ``draw(path)`` the picture of ``--out``.
An action may work on a :class:`Subject` (a scenario on its board): the command takes it as
its argument (a file or a sample's name), the web as one field of the body (its text). An
action that rolls has ``seed`` and ``roll`` fields; the faces allow one of them at most.

The CLI (:mod:`firefight.cli.actions`) makes one command per action name and the web
(:mod:`firefight.web.actions`) one route per rule set and action, with no line about a game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

from firefight.board.board import Board
from firefight.core.inputs import RuleInput

I = TypeVar("I", bound=RuleInput)  # noqa: E741 - I for "input", as for procedures
S = TypeVar("S")


@dataclass(frozen=True)
class Line:
    """One line of text, in spans: ``(text, style)`` where style is ``""``, ``bold`` or
    ``dim``. The text is the rule set's (names and ids as the scenario writes them)."""

    spans: tuple[tuple[str, str], ...]

    @classmethod
    def of(cls, *parts: str | tuple[str, str]) -> Line:
        """``Line.of(bold(name), ": threat map")``: plain text or ``(text, style)`` spans."""
        return cls(tuple(p if isinstance(p, tuple) else (p, "") for p in parts))

    @property
    def plain(self) -> str:
        """The line without its styles."""
        return "".join(text for text, _ in self.spans)


def bold(text: str) -> tuple[str, str]:
    """A bold span of a :class:`Line`."""
    return (text, "bold")


def dim(text: str) -> tuple[str, str]:
    """A dim span of a :class:`Line`."""
    return (text, "dim")


@dataclass(frozen=True)
class Table:
    """A table of text: its title, its columns' headers and its rows (``right``: the columns
    justified right)."""

    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    right: frozenset[str] = frozenset()


Shown = Line | Table
"""What an answer shows, in order."""


class Answer(Protocol):
    """An action's typed answer."""

    def to_json(self) -> Mapping[str, object]:
        """The ``--json`` shape (and the web's answer)."""

    def text(self) -> Sequence[Shown]:
        """What the command prints."""

    def draw(self, out: Path) -> Path:
        """The picture (``--out``: a ``.png`` or ``.svg`` file); the path written."""


@dataclass(frozen=True)
class Subject(Generic[S]):
    """What actions work on (a scenario on its board): read from a file or a sample's name on
    the command line, from its text on the web (which reads no file it is told)."""

    name: str
    """The command's argument and the web body's field (``scenario``)."""
    help: str
    """The argument's help."""
    description: str
    """The web field's description."""
    load: Callable[[str], S]
    """A file or a sample's name (the command line)."""
    parse: Callable[[str, str], S]
    """A text and how its errors name it (the web)."""
    samples: Callable[[], Mapping[str, Path]]
    """The sample files by name."""
    title: Callable[[S], str]
    board: Callable[[S], Board]
    board_name: Callable[[S], str]
    page: Callable[[S, str], dict[str, object]] | None = None
    """What a page showing it starts from (its text given): the web's ``POST /api/RULESET/
    NAME`` answer and the page ``/rulesets/RULESET/NAME``; ``None``: no page."""
    choices: Callable[[], Mapping[str, Sequence[str]]] = field(default=dict)
    """The choices the page offers, each default first."""
    page_text: Mapping[str, str] = field(default_factory=dict)
    """The page's texts: ``name`` (the subject's, in the page's path), ``source`` (under its
    title), ``how`` (how to use it), ``index`` (the link on the index page) and ``index_more``
    (after the link)."""
    default_sample: str = ""
    """The sample a page shows when none is named (``""``: the first)."""
    max_chars: int = 60_000
    """The longest text the web takes."""


@dataclass(frozen=True)
class CliForm:
    """How one field of an input model is typed on the command line where it differs from
    the field: the option's name (``--fire`` for ``player``), its text read into the field's
    value (``0306,0406`` into a list), its help."""

    option: str | None = None
    """The option's name as a parameter (``fire``); ``None``: the field's."""
    read: Callable[[str], object] | None = None
    help: str | None = None


@dataclass(frozen=True)
class Action(Generic[I, S]):
    """One action of a rule set, from which every face is generated."""

    name: str
    """The command (``firefight move``) and the route (``/api/vv/move``)."""
    title: str
    """One line: the command's help (wrapped in ``_()`` where it is declared)."""
    summary: str
    """The web route's description."""
    input_model: type[I]
    answer: Callable[[S, I], Answer]
    """The answer: the subject (``None`` without one) and the input."""
    subject: Subject[S] | None = None
    cli: Mapping[str, CliForm] = field(default_factory=dict)
    """The fields typed on the command line otherwise than in JSON (:class:`CliForm`)."""
    cli_only: frozenset[str] = frozenset()
    """Fields the web leaves out (none by default: the web takes what the command takes)."""
    cli_errors: Mapping[str, str] = field(default_factory=dict)
    """Fields the answer's errors name that the command names by an option: the error's field
    to the model's (``first_side`` to ``lane_side``, printed ``'--lane-side'``)."""
    web_errors: Mapping[str, str] = field(default_factory=dict)
    """Fields the answer's errors name that the web names otherwise (``fire`` to ``player``,
    ``fire.de-sq1`` to ``player.de-sq1``)."""
    rolls: bool = False
    """The input has ``seed`` and ``roll`` fields, one at most given."""
    draws: str = ""
    """The help of the command's ``--out`` (the answer's :meth:`Answer.draw`); ``""``: the
    command draws nothing."""
    budgeted: bool = False
    """The web answers it under the work budget of the odds (one line past it), as a request
    for odds; the command line has no budget."""
    costly: tuple[str, str] = ("", "")
    """What the web's refusal of an answer past its time limit names: the field whose value
    made the work too large and what to reduce (an English message, marked with ``N_``);
    ``("", "")``: the subject's field, fewer units (the default of an action on a subject)."""

    def run(self, subject: Any, inp: I) -> Answer:  # noqa: ANN401 - the action's own subject
        """The answer for ``inp`` on ``subject``."""
        return self.answer(subject, inp)
