"""A rule procedure and the rule set that holds it."""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from importlib import import_module
from pathlib import Path
from threading import Lock, RLock
from typing import TYPE_CHECKING, Any, Generic, TypeVar, overload

from firefight.chance import Chance, Resolution, exact, generator, sample, scripted
from firefight.core.inputs import RuleInput, validate
from firefight.errors import FirefightError, InputError, one_of, prefixed
from firefight.rulesets.declared import ProcedureInfo
from firefight.translation import gettext

if TYPE_CHECKING:  # what a rule set holds, imported by the game that gives it
    from firefight.board.los import LosPolicy
    from firefight.chance.batch import Batch, Sampler
    from firefight.chance.distribution import Distribution
    from firefight.core.chart import Chart
    from firefight.core.modifier import Modifier
    from firefight.rulesets.action import Action
    from firefight.rulesets.cardtable import CardView
    from firefight.rulesets.datafile import DataFile
    from firefight.rulesets.engagement import EngagementRules
    from firefight.rulesets.fire_feed import BoardFire
    from firefight.rulesets.severity import Severity
    from firefight.rulesets.worked_example import WorkedExample

I = TypeVar("I", bound=RuleInput)  # noqa: E741 - I for "input", as in the rulebook's procedures

SAMPLER_CACHE = 256
"""How many inputs' exact odds a procedure keeps ready for batch sampling (least recently
used first out)."""
_SAMPLERS_LOCK = Lock()
_PROCEDURES_LOCK = RLock()  # a module imported may ask for another procedure


@dataclass(frozen=True)
class Procedure(Generic[I]):
    """One rule procedure: its input model, the rule itself and its itemized modifiers.

    ``rule`` is ordinary Python that reads like the rulebook; it asks ``chance`` for every
    random event. The same function gives the odds (``odds``), a seeded resolution
    (``resolve``) and a resolution with the player's own dice (``replay``).
    """

    name: str
    title: str
    input_model: type[I]
    rule: Callable[[I, Chance], str]
    modifiers: Callable[[I], Sequence[Modifier]]
    chart: str | None = None
    outcome_order: Sequence[str] = ()
    facts: Callable[[I], Sequence[tuple[str, str]]] = field(default=lambda _: ())
    meanings: Mapping[str, str] = field(default_factory=dict)
    """What each outcome means, when the chart's legend does not say (chained procedures)."""
    names: Callable[[str], tuple[str, str] | None] | None = None
    """A short name and a meaning, in the active language, for an outcome whose code is made
    up of counts (a group's tally of losses) that :attr:`meanings` cannot list; ``None`` (or
    ``None`` from it): the code is its own name (:meth:`named`)."""
    exact_odds: Callable[[I], Distribution[str]] | None = None
    """The exact odds worked out over states (a hit track walked as a Markov chain, phases with
    equal states merged between them) from the same steps ``rule`` takes, where the generic
    prefix replay of ``rule`` would re-run it once per branch; ``None``: the replay. They must
    equal :meth:`replayed_odds` (the tests keep it as their brute-force twin)."""
    _samplers: OrderedDict[Hashable, Sampler[str]] = field(
        default_factory=OrderedDict, compare=False, repr=False
    )
    _positions: dict[str, int] = field(default_factory=dict, compare=False, repr=False)

    def named(self, outcome: str) -> tuple[str, str] | None:
        """:attr:`names` of ``outcome``: its short name and meaning, or ``None``."""
        return None if self.names is None else self.names(outcome)

    def parse(self, data: Mapping[str, object]) -> I:
        """Validate raw input (e.g. from the CLI or JSON) into the input model."""
        return validate(self.input_model, data)

    def _order(self, outcome: str) -> int:
        if not self._positions:
            self._positions.update(_positions(self.outcome_order))
        return self._positions.get(outcome, len(self.outcome_order))

    def odds(self, inp: I) -> Distribution[str]:
        """The exact distribution of outcomes, ordered as the chart orders them (by
        ``exact_odds`` where the procedure has them, else by :meth:`replayed_odds`)."""
        if self.exact_odds is not None:
            return self.exact_odds(inp).ordered(self._order)
        return self.replayed_odds(inp)

    def replayed_odds(self, inp: I) -> Distribution[str]:
        """The exact distribution by prefix replay: ``rule`` re-run once per branch of its
        events (:func:`~firefight.chance.exact`), ordered as the chart orders them."""
        distribution = exact(lambda chance: self.rule(inp, chance))
        return distribution.ordered(self._order)

    def resolve(self, inp: I, seed: int) -> Resolution[str]:
        """One seeded resolution with its trace."""
        return sample(lambda chance: self.rule(inp, chance), seed)

    def replay(self, inp: I, values: Sequence[int | str]) -> Resolution[str]:
        """A resolution with the dice (or cards) the player supplies."""
        return scripted(lambda chance: self.rule(inp, chance), values)

    def sampler(self, inp: I) -> Sampler[str]:
        """The batch sampler of this input's exact odds (computed once, cached)."""
        key = _input_key(inp)
        with _SAMPLERS_LOCK:  # the web serves requests from several threads
            found = self._samplers.get(key)
            if found is not None:
                self._samplers.move_to_end(key)
                return found
        from firefight.chance.batch import Sampler  # noqa: PLC0415 - numpy when sampled

        found = Sampler.of(self.odds(inp))
        with _SAMPLERS_LOCK:
            self._samplers[key] = found
            if len(self._samplers) > SAMPLER_CACHE:
                self._samplers.popitem(last=False)
        return found

    def sample_batch(self, inp: I, n: int, seed: int) -> Batch[str]:
        """``n`` seeded outcomes drawn at once from the cached exact odds (one vectorized
        inverse-CDF draw): the same seed gives the same outcomes. Sampled, never exact."""
        return sample_batch(self, inp, n, seed)

    def probability_of(self, inp: I, outcome: str) -> Fraction:
        """The exact chance of one outcome."""
        return self.odds(inp)[outcome]


def sample_batch(procedure: Procedure[I], inp: I, n: int, seed: int) -> Batch[str]:
    """``n`` outcomes of ``procedure`` for ``inp``, drawn in one vectorized call from its
    cached exact odds with ``Generator(PCG64(seed))``; reproducible for a seed."""
    if n < 0:
        raise InputError("n", "a number of draws of at least 0", n)
    sampler = procedure.sampler(inp)
    from firefight.chance.batch import Batch  # noqa: PLC0415 - numpy when sampled

    return Batch(sampler.outcomes, sampler.indices(n, generator(seed)), seed)


def _input_key(inp: RuleInput) -> Hashable:
    try:
        hash(inp)
    except TypeError:  # a field holding a list or a mapping: key by its JSON instead
        return (type(inp), inp.model_dump_json())
    return inp


def _positions(order: Sequence[str]) -> dict[str, int]:
    """Each outcome's place in a procedure's ``outcome_order`` (its first, as ``index``)."""
    positions: dict[str, int] = {}
    for index, outcome in enumerate(order):
        positions.setdefault(outcome, index)
    return positions


def _load(path: Path) -> Chart:
    from firefight.core.chart import chart_file  # noqa: PLC0415 - when a chart is read

    return chart_file(path)


_CHART_FILE = re.compile(r"[A-Za-z0-9_-]+")
"""A chart id that may be its file's name (``data/<id>.toml``)."""


class Procedures(Sequence[Procedure[Any]]):
    """A rule set's procedures, declared (:class:`~firefight.rulesets.info.ProcedureInfo`:
    name, title, ``module:ATTRIBUTE``) or given: each declared one is imported the first time
    it is asked for, by name (:meth:`named`) or by going through them all. Their names and
    titles are read without importing any, so that one procedure's command imports that
    procedure's module and input model alone."""

    def __init__(self, *procedures: ProcedureInfo | Procedure[Any]) -> None:
        self._declared = procedures
        self._loaded: list[Procedure[Any] | None] = [
            p if isinstance(p, Procedure) else None for p in procedures
        ]

    @property
    def names(self) -> tuple[str, ...]:
        """The procedures' names, in order (none imported)."""
        return tuple(p.name for p in self._declared)

    @property
    def titles(self) -> tuple[str, ...]:
        """The procedures' titles, in order (none imported)."""
        return tuple(p.title for p in self._declared)

    def named(self, name: str) -> Procedure[Any] | None:
        """The procedure of this name, in any case, imported if it is not yet; ``None``."""
        wanted = name.casefold()
        for i, declared in enumerate(self._declared):
            if declared.name.casefold() == wanted:
                return self._load(i)
        return None

    def _load(self, i: int) -> Procedure[Any]:
        found = self._loaded[i]
        if found is None:
            with _PROCEDURES_LOCK:  # the web serves requests from several threads
                found = self._loaded[i]
                if found is None:
                    found = self._loaded[i] = _imported(self._declared[i])
        return found

    def __len__(self) -> int:
        return len(self._declared)

    @overload
    def __getitem__(self, index: int) -> Procedure[Any]: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Procedure[Any]]: ...
    def __getitem__(self, index: int | slice) -> Procedure[Any] | Sequence[Procedure[Any]]:
        if isinstance(index, slice):
            return tuple(self._load(i) for i in range(len(self))[index])
        return self._load(range(len(self))[index])

    def __iter__(self) -> Iterator[Procedure[Any]]:
        return (self._load(i) for i in range(len(self)))

    def __repr__(self) -> str:
        return f"Procedures({', '.join(self.names)})"


def _imported(declared: ProcedureInfo | Procedure[Any]) -> Procedure[Any]:
    """The procedure a declaration names, imported; it must be a :class:`Procedure` of the
    name and title declared."""
    if isinstance(declared, Procedure):
        return declared
    module, _, attribute = declared.target.partition(":")
    found = getattr(import_module(module), attribute, None) if attribute else None
    if not isinstance(found, Procedure):
        msg = gettext("procedure {name!r}: {target!r} does not name a Procedure").format(
            name=declared.name, target=declared.target
        )
        raise FirefightError(msg)
    if (found.name, found.title) != (declared.name, declared.title):
        msg = gettext(
            "procedure {name!r}: {target!r} is the procedure {found!r} ({title!r}), not "
            "the one declared ({declared!r})"
        ).format(
            name=declared.name,
            target=declared.target,
            found=found.name,
            title=found.title,
            declared=declared.title,
        )
        raise FirefightError(msg)
    return found


@dataclass(frozen=True)
class Deferred:
    """A rule set's part named by where it is (``"package.module:ATTRIBUTE"``), imported the
    first time the rule set's field is read: :func:`deferred`."""

    target: str

    def load(self) -> object:
        module, _, attribute = self.target.partition(":")
        found = getattr(import_module(module), attribute, None) if attribute else None
        if found is None:
            msg = gettext("{target!r} names nothing").format(target=self.target)
            raise FirefightError(msg)
        return found


def deferred(target: str) -> Any:  # noqa: ANN401 - stands for the field's own type
    """A value for one of a :class:`RuleSet`'s hooks (``engagement``, ``sight``,
    ``board_fire``, ``example``, ``actions``...), imported from ``"package.module:ATTRIBUTE"``
    the first time the field is read: a command that reads none of them (``odds`` of one
    procedure) imports none of their modules."""
    return Deferred(target)


FEATURED_DEFAULT = 3
"""How many procedures the home page features for a rule set that names none."""


@dataclass(frozen=True)
class RuleSet:
    """A game's rules: declared metadata, its procedures by name and its charts as data.

    Its procedures may be declared, each imported when asked for (:class:`Procedures`), and
    its parts ``engagement``, ``sight``, ``board_fire`` and ``example`` named by where they
    are (:func:`deferred`), each imported when first read."""

    if not TYPE_CHECKING:  # the fields' declared types stand for what a read gives

        def __getattribute__(self, name: str) -> Any:  # noqa: ANN401 - any field's value
            value = object.__getattribute__(self, name)
            if type(value) is Deferred:
                value = value.load()
                object.__setattr__(self, name, value)
            return value

    id: str
    title: str
    source: str
    procedures: Sequence[Procedure[Any]]
    """Its procedures: given (a tuple), or declared and imported when asked for
    (:class:`Procedures`)."""
    aliases: tuple[str, ...] = ()
    data: Path | None = None
    doc: str = ""
    rulebook_language: str = "en"
    """The language its rulebook is printed in (a language tag): where it is not English, the
    descriptions of its fields, which cite that rulebook, are translated for its players too
    (docs/languages.md)."""
    engagement: type[EngagementRules[Any, Any]] | None = None
    """The game's engagement rules (``firefight engage``: its units, the procedure of one
    fire and what a result does; :mod:`firefight.rulesets.engagement`), or ``None``: a
    scenario naming this rule set is refused."""
    scenarios: Path | None = None
    """The folder of the game's sample engagement scenarios (``*.toml``, each naming this
    rule set), listed by ``firefight engage`` and the engage page by their files' names."""
    sight: LosPolicy | None = None
    """The line-of-sight policy that judges this game's boards (a board file naming the rule
    set is read with it); ``None``: the game has no boards."""
    board_fire: BoardFire[Any] | None = None
    """How a line of sight on this game's boards fills in its fire procedure
    (:mod:`firefight.rulesets.board_fire`); ``None``: a board's line opens no procedure."""
    boards: Path | None = None
    """The folder of the sample boards this game ships (``*.toml`` boards, Tiled maps and
    their tilesets), listed by ``firefight board list``; ``None``: none."""
    example: WorkedExample | None = None
    """The worked example ``firefight demo`` prints (that of the first rule set, by id, that
    has one); ``None``: none."""
    files: tuple[DataFile[Any], ...] = ()
    """The data files a player may supply to its procedures (a deck, a roster): each names the
    input field it fills, its loader and its limits; the web takes them uploaded."""
    actions: tuple[Action[Any, Any], ...] = ()
    """What a player asks beyond one procedure (a stack's move, a threat map): each a command
    and a web route generated from its input model (:mod:`firefight.rulesets.action`)."""
    card_views: tuple[CardView, ...] = ()
    """Procedures a player may see as a card table (his hand, the men, the odds beside):
    :mod:`firefight.rulesets.cardtable`."""
    featured: tuple[str, ...] = ()
    """The procedures most players use first, by name, in the order shown: the home page
    offers them ahead of the full list. ``()``: the first :data:`FEATURED_DEFAULT`."""
    severity: Mapping[str, Severity] = field(default_factory=dict)
    """How bad each procedure's outcomes are, from no effect to eliminated, by the procedure's
    name (:mod:`firefight.rulesets.severity`; the faces colour the odds by it). Every
    procedure has one (a contract test); a procedure without: its outcomes uncoloured."""

    def outcome_severity(self, procedure: str) -> Severity | None:
        """The severity of a procedure's outcomes, by its name; ``None``: none declared."""
        return self.severity.get(procedure)

    def card_view(self, procedure: str) -> CardView | None:
        """The card view of the procedure named ``procedure``, or ``None``."""
        return next((v for v in self.card_views if v.procedure == procedure), None)

    def featured_procedures(self) -> tuple[Procedure[Any], ...]:
        """The procedures of :attr:`featured` (an unknown name is refused, listing the allowed
        ones), else the first :data:`FEATURED_DEFAULT` procedures."""
        if not self.featured:
            return tuple(self.procedures[:FEATURED_DEFAULT])
        return tuple(self.procedure(name) for name in self.featured)

    def action(self, name: str) -> Action[Any, Any]:
        """An action by name, in any case; an unknown name lists the allowed ones."""
        names = [a.name for a in self.actions]
        found = prefixed(name, names)
        for action in self.actions:
            if action.name == found:
                return action
        raise InputError("action", one_of(names), name, options=names)

    def procedure(self, name: str) -> Procedure[RuleInput]:
        """A procedure by name, in any case or a unique beginning (``artillery_m``); an unknown
        name lists the allowed ones. Of declared procedures (:class:`Procedures`), only this one
        is imported."""
        names = self.procedure_names
        found = prefixed(name, names)
        if found is not None and isinstance(self.procedures, Procedures):
            named = self.procedures.named(found)
            if named is not None:
                return named
        elif found is not None:
            for procedure in self.procedures:
                if procedure.name == found:
                    return procedure
        raise InputError("procedure", one_of(names), name, options=names)

    @property
    def procedure_names(self) -> list[str]:
        """The names of this rule set's procedures (none imported)."""
        if isinstance(self.procedures, Procedures):
            return list(self.procedures.names)
        return [p.name for p in self.procedures]

    @property
    def procedure_titles(self) -> list[str]:
        """The titles of this rule set's procedures, in their order (none imported)."""
        if isinstance(self.procedures, Procedures):
            return list(self.procedures.titles)
        return [p.title for p in self.procedures]

    def chart_paths(self) -> list[Path]:
        """The chart files in this rule set's ``data/`` folder."""
        if self.data is None:
            return []
        return sorted(self.data.glob("*.toml"))

    def charts(self) -> list[Chart]:
        """Every chart of this rule set, loaded and validated once."""
        return [_load(path) for path in self.chart_paths()]

    def chart(self, chart_id: str) -> Chart:
        """A chart by id; an unknown id lists the allowed ones."""
        if self.data is not None and _CHART_FILE.fullmatch(chart_id):
            named = self.data / f"{chart_id}.toml"  # a chart's file is named by its id
            if named.is_file() and (found := _load(named)).id == chart_id:
                return found
        charts = self.charts()  # else: look through them all
        for chart in charts:
            if chart.id == chart_id:
                return chart
        raise InputError("table", one_of(c.id for c in charts), chart_id)

    def to_json(self) -> dict[str, object]:
        """``{"id", "title", "source", "procedures"}`` (and aliases)."""
        return {
            "id": self.id,
            "title": self.title,
            "source": self.source,
            "aliases": list(self.aliases),
            "procedures": self.procedure_names,
        }
