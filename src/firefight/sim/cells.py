"""The cell kinds of a sweep by name (a spec's ``kind``), and the ``procedure`` kind.

A kind (:class:`~firefight.sim.kind.CellKind`) turns a cell's raw input (the spec's fixed
inputs and the cell's axis values) into a validated input, and gives either the exact
distribution of its outcomes or ``n`` seeded samples of them. The sweep does the rest (the
grid, the seeds, the batching, the backends, the statistics, the files), the same for every
kind. Two exist: ``procedure`` (any registered rule procedure, here) and ``engagement``
(:mod:`firefight.sim.engagement_cells`). Another plugs in by:

1. a class with the methods of :class:`~firefight.sim.kind.CellKind` (``cell`` reads the
   cell's values, ``exact`` solves it, ``sample`` draws ``n`` of it from ``seed``; its
   outcomes are strings);
2. a :class:`~firefight.sim.kind.KindFactory` for it in :data:`CELL_KINDS` under its name,
   with the top-level keys its specs need (``keys=("scenario",)``).

A kind is rebuilt in each worker from the spec's pure data (``build``), so it must be
importable there: workers of a Dask cluster need firefight installed (or on ``PYTHONPATH``);
a rule set added at run time with ``firefight.rulesets.register`` is not seen by them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from firefight.chance import sample_many
from firefight.chance.distribution import Distribution
from firefight.core.files import FileError, named_inside
from firefight.core.inputs import named_files
from firefight.errors import FirefightError, InputError, quoted
from firefight.i18n import gettext as _
from firefight.sim.engagement_cells import engagement_cells
from firefight.sim.kind import CellKind, KindFactory, Scalar, SpecError

__all__ = [
    "CELL_KINDS",
    "CellKind",
    "KindFactory",
    "ProcedureCells",
    "cell_kind",
]


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


CELL_KINDS: dict[str, KindFactory] = {
    "procedure": KindFactory(keys=("ruleset", "procedure"), build=_procedure_cells),
    "engagement": KindFactory(keys=("scenario",), build=engagement_cells),
}
"""The cell kinds by name (a spec's ``kind``)."""


def cell_kind(name: object, source: str) -> KindFactory:
    """A kind's factory by name; an unknown name is a one-line error naming the file."""
    if isinstance(name, str) and name in CELL_KINDS:
        return CELL_KINDS[name]
    raise SpecError(
        source,
        "kind",
        _("must be one of {cell_kinds} (got {name})").format(
            cell_kinds=", ".join(CELL_KINDS), name=quoted(name)
        ),
    )
