"""``--roll ask``: the command asks for each roll as the rule comes to it.

At a terminal each question (what the roll is for, which dice, how to give them) is written to
standard error, so that what the command prints stays on standard output, and an entry the dice
cannot show is asked for again. From a pipe or a file, one roll is read a line, nothing is
prompted, and a bad entry or an early end of the input is refused in one line (exit 2), naming
how many rolls were read and what the next one was for. A rule's question with choices
(:func:`firefight.chance.asked.choose`, the owner's allocation of a hit under 14.6) is asked
the same way: the option's number or its words.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from contextlib import AbstractContextManager, nullcontext
from typing import TYPE_CHECKING, TextIO, TypeVar

import typer

from firefight.errors import InputError, ScriptError, one_of, quoted
from firefight.i18n import gettext as _
from firefight.i18n import ngettext

if TYPE_CHECKING:
    from firefight.chance.asked import Wanted

V = TypeVar("V")

LISTED_INLINE = 5
"""A choice of at most this many options is listed on the question's line; a longer one (the
legal allocations of a hit, 14.6) one option a line, and a refusal counts them."""


class LineAsk:
    """The player at the command line, answering one line for each roll or choice
    (:class:`firefight.chance.asked.Ask`). ``terminal``: whether ``stdin`` is a terminal
    (default: as it says), where prompts are written to ``prompts`` and bad entries asked
    again."""

    def __init__(
        self,
        stdin: TextIO | None = None,
        prompts: TextIO | None = None,
        terminal: bool | None = None,
    ) -> None:
        self._stdin = sys.stdin if stdin is None else stdin
        self._prompts = sys.stderr if prompts is None else prompts
        self.terminal = self._stdin.isatty() if terminal is None else terminal
        self.read = 0
        """How many rolls and choices have been answered."""

    def _line(self, prompt: str, next_one: str) -> str:
        """One line of input (its end of line dropped); the early end of the input refused."""
        if self.terminal:
            self._prompts.write(prompt)
            self._prompts.flush()
        try:
            line = self._stdin.readline()
        except KeyboardInterrupt:
            raise typer.Abort from None
        if not line:
            if self.terminal:
                self._prompts.write("\n")
            read = ngettext("{count} roll", "{count} rolls", self.read).format(count=self.read)
            allowed = _(
                "one value a line for each roll the run asks for: input ended after {read}, "
                "before {next_one}"
            ).format(read=read, next_one=next_one)
            raise InputError("roll", allowed, _("end of input"))
        return line.rstrip("\r\n")

    def _refused(self, error: InputError) -> None:
        """A bad entry: at a terminal, said and asked again; from a pipe, refused."""
        if not self.terminal:
            raise error
        refused = _("not taken: must be {allowed} (got {got})").format(
            allowed=error.allowed, got=quoted(error.got)
        )
        self._prompts.write(refused + "\n")

    def ask_roll(self, purpose: str, dice: Wanted[V]) -> V:
        """The roll for ``purpose``, read by ``dice.read``."""
        named = dice.dice in purpose  # the label names its dice already: "combat roll (2d6)"
        prompt = f"{purpose} [{dice.how}]: " if named else f"{purpose} [{dice.dice}: {dice.how}]: "
        next_one = (
            _("the roll for {purpose!r}").format(purpose=purpose)
            if named
            else _("the roll for {purpose!r} ({dice})").format(purpose=purpose, dice=dice.dice)
        )
        while True:
            text = self._line(prompt, next_one)
            try:
                value = dice.read(text)
            except ScriptError as error:
                self._refused(error)
                continue
            self.read += 1
            return value

    def ask_choice(self, purpose: str, options: Sequence[str]) -> str:
        """One of ``options`` for ``purpose``: its number (from 1) or its name, any case."""
        if len(options) > LISTED_INLINE:  # the legal allocations of a hit (14.6): a list
            listed = "".join(f"  {i}) {option}\n" for i, option in enumerate(options, 1))
            prompt = f"{purpose}:\n{listed}[1..{len(options)}]: "
            allowed = _("one of {count} options, by number or words").format(count=len(options))
        else:
            listed = ", ".join(f"{i}) {option}" for i, option in enumerate(options, 1))
            prompt = f"{purpose} [{listed}]: "
            allowed = one_of(options)
        next_one = _("the choice for {purpose!r} ({allowed})").format(
            purpose=purpose, allowed=allowed
        )
        by_name = {option.casefold(): option for option in options}
        by_number = {str(i): option for i, option in enumerate(options, 1)}
        while True:
            text = self._line(prompt, next_one).strip()
            chosen = by_number.get(text) or by_name.get(text.casefold())
            if chosen is None:
                refused = _("{options} (or its number) for {purpose!r}").format(
                    options=allowed, purpose=purpose
                )
                self._refused(InputError("roll", refused, text))
                continue
            self.read += 1
            return chosen


def at_table(given: str | None) -> AbstractContextManager[None]:
    """Where ``given`` (the text of ``--roll`` or ``--draw``) is ``ask``, the player at the
    command line answers every roll of the run inside; otherwise nothing changes."""
    from firefight.chance.asked import asking, asks  # noqa: PLC0415 - lazy: fast start-up

    if given is None or not asks([given]):
        return nullcontext()
    return asking(LineAsk())
