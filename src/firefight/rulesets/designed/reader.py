"""Reading a designer's TOML file one key at a time: each refusal is one line naming the
file, the place in it (``fields[2] 'terrain'.choices``, ``rows.labels "5-4"``, ``cells."3"[2]``)
and what was expected, with the value given."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from firefight.api import ChartError
from firefight.rulesets.added import PRINTABLE, Said
from firefight.rulesets.added import expected as said_expected
from firefight.translation import LANGUAGES, N_

MAX_TEXT = 500
"""The longest text (a title, a description) a file may give, in characters."""
MAX_NUMBER = 1_000_000
"""The largest integer (in size) a file may give: a bound, a modifier, a target."""


@dataclass(frozen=True)
class Place:
    """Where a value is in the file, and the file's name, for its error line."""

    file: str
    where: str = ""

    def at(self, key: str | int) -> Place:
        """The place of a key (or an index) inside this one."""
        if isinstance(key, int):
            return Place(self.file, f"{self.where}[{key + 1}]")
        return Place(self.file, f"{self.where}.{key}" if self.where else key)

    def named(self, name: str) -> Place:
        """This place, followed by the name of what it holds (``fields[2] 'terrain'``)."""
        return Place(self.file, f"{self.where} {name!r}")

    def refuse(self, expected: Said, got: object = None, *, given: bool = True) -> ChartError:
        """The error: ``FILE: PLACE: expected EXPECTED (got VALUE)``, its frame and what was
        expected worded in the language active when it is shown (the file's names, the
        place and the value given as written)."""
        where = f"{self.file}: {self.where}" if self.where else self.file
        return ChartError(said_expected(where, expected, got, given=given))


class Table:
    """A TOML table read key by key: a key it does not know is refused (a misspelt key
    would otherwise be silently ignored)."""

    def __init__(self, data: object, place: Place, known: tuple[str, ...]) -> None:
        if not isinstance(data, dict):
            raise place.refuse(Said(N_("a table")), data)
        self.data: dict[str, Any] = data
        self.place = place
        translated = tuple(f"{key}_{lang}" for key in known for lang in LANGUAGES)
        for key in data:
            if key not in known and key not in translated:
                keys = ", ".join(known)
                raise place.at(key).refuse(Said(N_("one of the keys {keys}"), keys=keys), key)

    def has(self, key: str) -> bool:
        return key in self.data

    def text(self, key: str, default: str | None = None) -> str:
        value = self.data.get(key, default)
        if value is None:
            raise self.place.at(key).refuse(Said(N_("a text (it is missing)")), given=False)
        if not isinstance(value, str) or not value.strip() or len(value) > MAX_TEXT:
            expected = Said(N_("a text of 1 to {most} characters"), most=MAX_TEXT)
            raise self.place.at(key).refuse(expected, value)
        if not value.isprintable():
            raise self.place.at(key).refuse(PRINTABLE, value)
        return value

    def words(self, key: str, default: str | None = None) -> tuple[str, dict[str, str]]:
        """A text and its translations (``title``, ``title_fr``): the text, and each
        language's word for it."""
        text = self.text(key, default)
        own = {lang: self.text(f"{key}_{lang}") for lang in LANGUAGES if self.has(f"{key}_{lang}")}
        return text, own

    def integer(self, key: str, default: int | None = None) -> int:
        value = self.data.get(key, default)
        if value is None:
            raise self.place.at(key).refuse(Said(N_("an integer (it is missing)")), given=False)
        if not isinstance(value, int) or isinstance(value, bool) or abs(value) > MAX_NUMBER:
            expected = Said(N_("an integer from {low} to {high}"), low=-MAX_NUMBER, high=MAX_NUMBER)
            raise self.place.at(key).refuse(expected, value)
        return value

    def choice(self, key: str, allowed: tuple[str, ...], default: str | None = None) -> str:
        value = self.data.get(key, default)
        if value not in allowed:
            expected = Said(N_("one of {values}"), values=", ".join(allowed))
            raise self.place.at(key).refuse(expected, value)
        assert isinstance(value, str)
        return value

    def fraction(self, key: str) -> Fraction:
        """A factor: an integer or a fraction written ``"1/2"``, above 0."""
        value = self.data.get(key)
        expected = Said(N_('a factor above 0: an integer, or a fraction written "1/2"'))
        if isinstance(value, int) and not isinstance(value, bool):
            found = Fraction(value)
        elif isinstance(value, str) and len(value) <= 20:
            try:
                found = Fraction(value.strip())
            except (ValueError, ZeroDivisionError):
                raise self.place.at(key).refuse(expected, value) from None
        else:
            raise self.place.at(key).refuse(expected, value)
        if found <= 0 or found > MAX_NUMBER or found.denominator > MAX_NUMBER:
            raise self.place.at(key).refuse(expected, value)
        return found

    def strings(self, key: str, most: int, *, longest: int = MAX_TEXT) -> tuple[str, ...]:
        value = self.data.get(key)
        if (
            not isinstance(value, list)
            or not 1 <= len(value) <= most
            or not all(isinstance(v, str) and v.strip() and len(v) <= longest for v in value)
        ):
            expected = Said(
                N_("a list of 1 to {most} texts of at most {longest} characters"),
                most=most,
                longest=longest,
            )
            raise self.place.at(key).refuse(expected, value)
        for i, text in enumerate(value):
            if not text.isprintable():
                raise self.place.at(key).at(i).refuse(PRINTABLE, text)
        return tuple(value)

    def tables(self, key: str, most: int, *, required: bool = False) -> list[tuple[Place, Any]]:
        """An array of tables (``[[fields]]``): each with its place."""
        value = self.data.get(key)
        if value is None and not required:
            return []
        if not isinstance(value, list) or not (1 if required else 0) <= len(value) <= most:
            expected = Said(N_("an array of 1 to {most} tables ([[{key}]])"), most=most, key=key)
            raise self.place.at(key).refuse(expected, value, given=value is not None)
        return [(self.place.at(key).at(i), item) for i, item in enumerate(value)]


class Words(dict[str, dict[str, str]]):
    """A file's own words: language -> a text as the faces show it -> its words in that
    language (``title_fr``)."""

    def keep(self, base: str, own: Mapping[str, str]) -> None:
        """Keep a text's own words in each language given."""
        for lang, text in own.items():
            if text != base:
                self.setdefault(lang, {})[base] = text

    def read(self, table: Table, key: str, default: str | None = None) -> str:
        """A text key (its default when it is missing) and its words in each language."""
        text, own = table.words(key, default)
        self.keep(text, own)
        return text
