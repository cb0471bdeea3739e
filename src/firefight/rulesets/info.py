"""What is known of a rule set before its code is imported: :class:`RuleSetInfo`.

Each game's package declares one (its ``INFO``) and names it in the entry point group
``firefight.rulesets``; the package imports nothing else, so that finding a rule set by id,
listing the rule sets or completing an id on the command line reads no game's procedures.
The full :class:`~firefight.rulesets.procedure.RuleSet` is imported by :meth:`RuleSetInfo.load`
the first time it is wanted. This module imports nothing of firefight but the errors.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import import_module
from threading import Lock
from typing import TYPE_CHECKING, Any

from firefight.errors import FirefightError
from firefight.rulesets.declared import ProcedureInfo
from firefight.translation import gettext

if TYPE_CHECKING:
    from firefight.rulesets.procedure import RuleSet

_LOAD_LOCK = Lock()


@dataclass(frozen=True)
class RuleSetInfo:
    """A rule set's metadata, and where its full :class:`RuleSet` is (``module:attribute``).

    The fields repeat the ``RuleSet``'s own (a test of each built-in game checks that they
    agree, procedure names included), so that ``firefight rulesets`` lists them unloaded."""

    id: str
    title: str
    source: str
    target: str
    """``"package.module:ATTRIBUTE"`` of the full :class:`RuleSet` (``""`` for one already
    loaded: :meth:`of`)."""
    aliases: tuple[str, ...] = ()
    doc: str = ""
    procedures: tuple[str, ...] = ()
    """The names of the rule set's procedures, in the ``RuleSet``'s order."""
    procedure_titles: tuple[str, ...] = ()
    """Each procedure's title, in :attr:`procedures`' order: ``firefight odds --help`` lists
    the procedures from these alone (none given: :meth:`titles` loads the rule set)."""
    actions: tuple[tuple[str, str], ...] = ()
    """Each action's name and one-line help (its ``title``), in the ``RuleSet``'s order: the
    command line lists an action's command, and makes it, from these alone."""
    _loaded: list[RuleSet] = field(default_factory=list, compare=False, repr=False)

    @classmethod
    def of(cls, ruleset: RuleSet) -> RuleSetInfo:
        """The info of a rule set already loaded (registered at run time, or named directly
        by a third party's entry point): :meth:`load` gives it back."""
        info = cls(
            id=ruleset.id,
            title=ruleset.title,
            source=ruleset.source,
            target="",
            aliases=ruleset.aliases,
            doc=ruleset.doc,
            procedures=tuple(ruleset.procedure_names),
            procedure_titles=tuple(ruleset.procedure_titles),
            actions=tuple((action.name, action.title) for action in ruleset.actions),
        )
        info._loaded.append(ruleset)
        return info

    @classmethod
    def declare(
        cls,
        procedures: tuple[ProcedureInfo, ...],
        **fields: Any,  # noqa: ANN401 - the other fields, as RuleSetInfo takes them
    ) -> RuleSetInfo:
        """The metadata of a rule set whose procedures are declared (:class:`ProcedureInfo`):
        their names and titles read from the declarations, the other fields as given."""
        return cls(
            procedures=tuple(p.name for p in procedures),
            procedure_titles=tuple(p.title for p in procedures),
            **fields,
        )

    def names(self) -> set[str]:
        """The id and the aliases, casefolded: what :func:`~firefight.rulesets.ruleset` matches."""
        return {self.id.casefold(), *(alias.casefold() for alias in self.aliases)}

    def titles(self) -> tuple[str, ...]:
        """The procedures' titles, in :attr:`procedures`' order: :attr:`procedure_titles`,
        else (a third party's metadata without them) the loaded rule set's."""
        if len(self.procedure_titles) == len(self.procedures):
            return self.procedure_titles
        loaded = self.load()
        return tuple(loaded.procedure(name).title for name in self.procedures)

    def load(self) -> RuleSet:
        """The full rule set, imported the first time (its module and the game's procedures)."""
        if self._loaded:
            return self._loaded[0]
        with _LOAD_LOCK:  # the web serves requests from several threads
            if not self._loaded:
                self._loaded.append(self._import())
        return self._loaded[0]

    def _import(self) -> RuleSet:
        from firefight.rulesets.procedure import RuleSet  # noqa: PLC0415 - the heavy part

        module, _, attribute = self.target.partition(":")
        found = getattr(import_module(module), attribute, None) if attribute else None
        if not isinstance(found, RuleSet):
            msg = gettext("rule set {id!r}: {target!r} does not name a RuleSet").format(
                id=self.id, target=self.target
            )
            raise FirefightError(msg)
        if found.id != self.id:
            msg = gettext("rule set {id!r}: {target!r} is the rule set {found!r}").format(
                id=self.id, target=self.target, found=found.id
            )
            raise FirefightError(msg)
        return found

    def to_json(self) -> dict[str, object]:
        """The shape of :meth:`RuleSet.to_json`: ``{"id", "title", "source", "aliases",
        "procedures"}``."""
        return {
            "id": self.id,
            "title": self.title,
            "source": self.source,
            "aliases": list(self.aliases),
            "procedures": list(self.procedures),
        }


def lazy_attribute(package: str, names: Mapping[str, str], name: str) -> object:
    """A light package's module ``__getattr__`` (PEP 562): ``name`` imported from the module
    ``names[name]`` (relative to ``package``) the first time it is asked for."""
    if name not in names:
        msg = f"module {package!r} has no attribute {name!r}"
        raise AttributeError(msg)
    return getattr(import_module(f"{package}.{names[name]}"), name)
