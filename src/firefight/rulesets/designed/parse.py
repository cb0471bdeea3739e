"""A designer's file read whole: its header, then its parts in the order each needs the ones
before it (the fields, the results, the column, the modifiers, the rows and cells, the
follow-ups)."""

from __future__ import annotations

from typing import Any

from firefight.rulesets.added import Said
from firefight.rulesets.designed.parts import (
    parse_cells,
    parse_column,
    parse_fields,
    parse_follow_ups,
    parse_modifiers,
    parse_results,
)
from firefight.rulesets.designed.reader import Place, Table, Words
from firefight.rulesets.designed.schema import (
    _ID,
    _NAME,
    KEYS,
    MOST_LABELS,
    MOST_PATHS,
    Game,
    dice_spec,
    ladder,
    outcomes,
)
from firefight.translation import LANGUAGES, N_


def parse_game(data: dict[str, Any], file: str) -> Game:
    """The game a file's parsed TOML gives, or one :class:`ChartError` naming the place."""
    top = Table(data, Place(file), KEYS[""])
    words = Words()
    worded = words.read

    game_id = top.text("id")
    if not _ID.fullmatch(game_id):
        expected = Said(N_("an id of lower-case letters, digits and '-', beginning with a letter"))
        raise top.place.at("id").refuse(expected, game_id)
    title = worded(top, "title")
    source = worded(top, "source")
    procedure = top.text("procedure", "combat")
    if not _NAME.fullmatch(procedure):
        expected = Said(N_("a name of lower-case letters, digits and '_', beginning with a letter"))
        raise top.place.at("procedure").refuse(expected, procedure)
    procedure_title = worded(top, "procedure_title", title)
    dice = dice_spec(top.data.get("dice"), top.place.at("dice"))
    fields = parse_fields(top, words)
    results = parse_results(top, worded)
    column = parse_column(top, fields, worded)
    modifiers = parse_modifiers(top, fields, column, worded)
    rows_table = Table(top.data.get("rows"), top.place.at("rows"), KEYS["rows"])
    rows = ladder(
        rows_table,
        ratios=False,
        below="clamp",
        above="clamp",
        header=worded(rows_table, "header", "roll"),
    )
    cells = parse_cells(top, rows, column.ladder, results)
    follow_ups = parse_follow_ups(top, fields, results, worded)
    paths = outcomes(dice.terms)
    for follow in follow_ups:  # a follow-up may follow another: the worst case, all in a row
        paths *= outcomes(follow.dice.terms, checked=True)
    if paths > MOST_PATHS:
        expected = Said(
            N_(
                "at most {most} ways the roll and its follow-ups can fall "
                "(the roll's totals times each follow-up's)"
            ),
            most=MOST_PATHS,
        )
        raise top.place.at("follow_ups").refuse(expected, paths)
    notes = top.strings("notes", MOST_LABELS) if top.has("notes") else ()
    for lang in LANGUAGES:
        if top.has(f"notes_{lang}"):
            own = top.strings(f"notes_{lang}", MOST_LABELS)
            if len(own) != len(notes):
                expected = Said(N_("{count} texts, one per note"), count=len(notes))
                raise top.place.at(f"notes_{lang}").refuse(expected, own)
            for note, text in zip(notes, own, strict=True):
                words.keep(note, {lang: text})
    return Game(
        game_id,
        title,
        source,
        procedure,
        procedure_title,
        dice,
        fields,
        modifiers,
        column,
        rows,
        cells,
        results,
        follow_ups,
        notes,
        words,
    )
