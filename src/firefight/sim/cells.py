"""What a sweep computes at each cell: a *cell kind*.

A kind turns a cell's raw input (the spec's fixed inputs and the cell's axis values) into a
validated input, and gives either the exact distribution of its outcomes or ``n`` seeded
samples of them. The sweep does the rest (the grid, the seeds, the batching, the backends,
the statistics, the files), the same for every kind. Today one kind exists, ``procedure``:
any registered rule procedure. An engagement (issue 13, part 2) plugs in as another kind:

1. write a class with the methods of :class:`CellKind` (``cell`` reads the scenario with the
   cell's values, ``exact`` solves it, ``sample`` draws ``n`` engagements from ``seed``; its
   outcomes are strings such as ``"A wins"``);
2. add a :class:`KindFactory` for it to :data:`CELL_KINDS` under its name, with the
   top-level keys its specs need (``keys=("scenario",)``);
3. a spec then says ``kind = "engagement"`` and ``scenario = "…"``.

A kind is rebuilt in each worker from the spec's pure data (``build``), so it must be
importable there: workers of a Dask cluster need firefight installed (or on ``PYTHONPATH``);
a rule set added at run time with ``firefight.rulesets.register`` is not seen by them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from firefight.chance import sample_many
from firefight.chance.distribution import Distribution
from firefight.core.files import FileError, named_inside
from firefight.core.inputs import named_files
from firefight.errors import FirefightError, InputError, quoted
from firefight.i18n import gettext as _
from firefight.sim.grid import Scalar
from firefight.sim.spec import SpecError


class CellKind(Protocol):
    """The thing computed at each cell of a sweep."""

    def describe(self) -> dict[str, object]:
        """What the cells compute, for the summary (``{"ruleset": …, "procedure": …}``)."""
        ...

    def outcomes(self) -> Sequence[str]:
        """The outcomes declared in order (the default statistics); empty when unknown."""
        ...

    def cell(self, values: Mapping[str, object]) -> Any:  # noqa: ANN401 - each kind its own input
        """The validated input of one cell; an ``InputError`` names the field at fault."""
        ...

    def exact(self, cell: Any) -> Distribution[str]:  # noqa: ANN401 - the input ``cell`` made
        """The exact distribution of the cell's outcomes."""
        ...

    def sample(self, cell: Any, n: int, seed: int) -> Counter[str]:  # noqa: ANN401
        """How often each outcome came up in ``n`` samples drawn from ``seed`` (the same seed
        always gives the same counts)."""
        ...


@dataclass(frozen=True)
class KindFactory:
    """A cell kind's name in specs, its own top-level keys, and how to build it."""

    keys: tuple[str, ...]
    build: Callable[[Mapping[str, Scalar], str], CellKind]


class ProcedureCells:
    """Cells that are one attack (or test) of a registered rule procedure: ``odds`` exactly,
    or ``n`` seeded resolutions of the same rule (the code ``firefight resolve`` runs)."""

    def __init__(self, ruleset_id: str, procedure_name: str, folder: Path) -> None:
        from firefight.rulesets import ruleset  # noqa: PLC0415 - rule sets load on first use

        found = ruleset(ruleset_id)
        self.ruleset = found.id
        self.procedure = found.procedure(procedure_name)
        self.folder = folder
        self.files = named_files(self.procedure.input_model)

    def describe(self) -> dict[str, object]:
        return {"ruleset": self.ruleset, "procedure": self.procedure.name}

    def outcomes(self) -> Sequence[str]:
        return [str(o) for o in self.procedure.outcome_order]

    def cell(self, values: Mapping[str, object]) -> Any:  # noqa: ANN401 - the procedure's input
        return self.procedure.parse({**values, **self._files(values)})

    def _files(self, values: Mapping[str, object]) -> dict[str, object]:
        """The files the spec names, found in its own folder only (a spec sent by someone else
        must not make firefight open a file of the reader's)."""
        found: dict[str, object] = {}
        for name, marker in self.files.items():
            given = values.get(name)
            if not isinstance(given, str) or given in marker.keywords:
                continue
            try:
                found[name] = str(named_inside(self.folder, given, marker.suffixes))
            except FileError as error:
                allowed = _(
                    "{keywords} or a {suffixes} file in the spec's own folder or one below it "
                    "({why})"
                ).format(
                    keywords=", ".join(marker.keywords) or "-",
                    suffixes="/".join(marker.suffixes),
                    why=error.problem,
                )
                raise InputError(name, allowed, given) from None
        return found

    def exact(self, cell: Any) -> Distribution[str]:  # noqa: ANN401
        return self.procedure.odds(cell).map(str)

    def sample(self, cell: Any, n: int, seed: int) -> Counter[str]:  # noqa: ANN401
        rule = self.procedure.rule
        return Counter(str(o) for o in sample_many(lambda chance: rule(cell, chance), seed, n))


def _procedure_cells(settings: Mapping[str, Scalar], source: str) -> CellKind:
    try:
        folder = Path(source).parent
        return ProcedureCells(str(settings["ruleset"]), str(settings["procedure"]), folder)
    except FirefightError as error:
        place = "ruleset" if "'ruleset'" in str(error) else "procedure"
        raise SpecError(source, place, str(error)) from None


def _engagement_cells(settings: Mapping[str, Scalar], source: str) -> CellKind:
    from firefight.sim.engagement_cells import engagement_cells  # noqa: PLC0415 - it imports this module

    return engagement_cells(settings, source)


CELL_KINDS: dict[str, KindFactory] = {
    "procedure": KindFactory(keys=("ruleset", "procedure"), build=_procedure_cells),
    "engagement": KindFactory(keys=("scenario",), build=_engagement_cells),
}
"""The cell kinds by name (a spec's ``kind``)."""


def cell_kind(name: object, source: str) -> KindFactory:
    """A kind's factory by name; an unknown name is a one-line error naming the file."""
    if isinstance(name, str) and name in CELL_KINDS:
        return CELL_KINDS[name]
    raise SpecError(source, "kind", f"must be one of {', '.join(CELL_KINDS)} (got {quoted(name)})")
