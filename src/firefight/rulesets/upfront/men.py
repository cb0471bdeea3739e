"""Personality cards (``men.toml``): one entry per man (or AFV), validated on load.

The printed values are not public; ``data/illustrative/men.toml`` holds a few ILLUSTRATIVE
personalities (format in docs/upfront.md), never the published values.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from firefight.core.files import loader
from firefight.rulesets.upfront.cards import NATIONALITIES, RN_HIGHEST
from firefight.rulesets.upfront.loader import (
    FileCache,
    Reader,
    Uploads,
    read_data_file,
    read_data_text,
)
from firefight.rulesets.upfront.paths import ILLUSTRATIVE_MEN

__all__ = [
    "CREW_ROLES",
    "UPLOADED_MEN",
    "UPLOADED_MEN_FILES",
    "WEAPONS",
    "Afv",
    "Armour",
    "Man",
    "MenData",
    "load_men",
    "men_file",
    "men_from_text",
]

RANGES = 6
"""Relative Range 0 (long) to 5 (point blank): one firepower value per RR."""
WEAPONS = (
    "rifle",
    "bolt_rifle",
    "carbine",
    "assault_rifle",
    "mp",
    "bar",
    "lmg",
    "mmg",
    "atr",
    "flamethrower",
    "mortar",
    "gun",
    "pistol",
    "unarmed",
)
"""Weapons named on the flow charts (pages 1, 6 and 8's close combat list); gun is an AFV's
main gun (ordnance)."""
ORDNANCE = ("atr", "mortar", "gun")
"""Weapons that make ordnance attacks (page 2): zero firepower in a firepower attack (page 1)."""
CREW_ROLES = ("none", "gunner", "crewman", "assistant")
"""A man's part in crewing a weapon (page 1: a crewman's firepower is 0; page 6: the
assistant crewman of an LMG/MMG)."""
RANKS = ("private", "leader", "hero", "vehicle")


@dataclass(frozen=True, slots=True)
class Armour:
    """An AFV's defence values: FR > k kills, = s stuns, = i immobilizes (page 4)."""

    k: int
    s: int
    i: int


@dataclass(frozen=True, slots=True)
class Afv:
    """What an AFV card adds (page 4 and 7): armour and flank values, CE, OVR, flags."""

    armour: Armour
    flank: Armour
    ce: int
    ovr: int
    turret: bool
    open_topped: bool
    boxed: bool
    vp: int | None = None
    """The # printed on the AFV card that page 4 and 7's "AFV KIA 10 + # VP" adds (optional:
    the player's data; None when the men file does not give it)."""


@dataclass(frozen=True, slots=True)
class Man:
    """One personality card. ``firepower`` and ``bracketed`` by RR 0-5; ``kia`` only for the
    reading that KIA is printed on the personality card (``kia_on = "man"``, the default)."""

    id: str
    name: str
    nationality: str
    rank: str
    weapon: str
    firepower: tuple[int, ...]
    bracketed: tuple[int, ...] | None
    morale: int
    panic: int
    rout: int
    malfunction: int | None
    crew: str
    kia: int | None
    to_hit: tuple[int, ...] | None
    afv: Afv | None


@dataclass(frozen=True)
class MenData:
    """Every personality of a file, by id."""

    source: str
    title: str
    men: tuple[Man, ...]
    illustrative: bool
    note: str

    def man(self, man_id: str) -> Man:
        """A man by id (KeyError if there is none)."""
        for man in self.men:
            if man.id == man_id:
                return man
        raise KeyError(man_id)

    @property
    def ids(self) -> tuple[str, ...]:
        """Every man's id, in file order."""
        return tuple(m.id for m in self.men)

    @property
    def label(self) -> str:
        """The file's title, and ILLUSTRATIVE when it is not the published values."""
        if self.illustrative:
            return f"ILLUSTRATIVE personalities ({self.title}), not the published values"
        return self.title


_REQUIRED = {"id", "nationality", "rank", "weapon", "firepower", "morale", "panic", "rout"}
_OPTIONAL = {"name", "bracketed", "malfunction", "crew", "kia", "to_hit", "afv"}
_AFV = {"armour", "flank", "ce", "ovr", "turret", "open_topped", "boxed"}


def _by_range(reader: Reader, entry: str, field: str, value: object, high: int) -> tuple[int, ...]:
    items = reader.array(entry, field, value, RANGES)
    return tuple(reader.integer(entry, f"{field}[{i}]", v, 0, high) for i, v in enumerate(items))


def _armour(reader: Reader, entry: str, field: str, value: object) -> Armour:
    table = reader.table(entry, field, value)
    reader.keys(f"{entry}.{field}", table, {"k", "s", "i"}, set())
    k, s, i = (reader.integer(entry, f"{field}.{key}", table[key], 0, 30) for key in "ksi")
    return Armour(k, s, i)


def _afv(reader: Reader, entry: str, value: object) -> Afv:
    table = reader.table(entry, "afv", value)
    reader.keys(f"{entry}.afv", table, _AFV, {"vp"})
    return Afv(
        _armour(reader, entry, "afv.armour", table["armour"]),
        _armour(reader, entry, "afv.flank", table["flank"]),
        reader.integer(entry, "afv.ce", table["ce"], 0, 20),
        reader.integer(entry, "afv.ovr", table["ovr"], 0, 30),
        reader.flag(entry, "afv.turret", table["turret"]),
        reader.flag(entry, "afv.open_topped", table["open_topped"]),
        reader.flag(entry, "afv.boxed", table["boxed"]),
        reader.integer(entry, "afv.vp", table["vp"], 0, 30) if "vp" in table else None,
    )


def _man(reader: Reader, position: int, raw: object) -> Man:
    if not isinstance(raw, dict):
        raise reader.fail(f"man #{position}", "man", "a table ([[man]])", raw)
    entry = f"man #{position}"
    if isinstance(raw.get("id"), str):
        entry = f"man {reader.text(entry, 'id', raw['id'], 40)}"
    reader.keys(entry, raw, _REQUIRED, _OPTIONAL)
    man_id = reader.text(entry, "id", raw["id"], 40)
    if any(ch in man_id for ch in ", ="):
        raise reader.fail(entry, "id", "text without commas, spaces or '='", man_id)
    bracketed = raw.get("bracketed")
    malfunction = raw.get("malfunction")
    kia = raw.get("kia")
    to_hit = raw.get("to_hit")
    return Man(
        man_id,
        reader.text(entry, "name", raw["name"]) if "name" in raw else man_id,
        reader.choice(entry, "nationality", raw["nationality"], NATIONALITIES),
        reader.choice(entry, "rank", raw["rank"], RANKS),
        reader.choice(entry, "weapon", raw["weapon"], WEAPONS),
        _by_range(reader, entry, "firepower", raw["firepower"], 30),
        None if bracketed is None else _by_range(reader, entry, "bracketed", bracketed, 30),
        reader.integer(entry, "morale", raw["morale"], 0, 10),
        reader.integer(entry, "panic", raw["panic"], 0, 10),
        reader.integer(entry, "rout", raw["rout"], 0, 10),
        None
        if malfunction is None
        else reader.integer(entry, "malfunction", malfunction, 0, RN_HIGHEST),
        reader.choice(entry, "crew", raw.get("crew", "none"), CREW_ROLES),
        None if kia is None else reader.integer(entry, "kia", kia, 0, 30),
        None if to_hit is None else _by_range(reader, entry, "to_hit", to_hit, 10),
        None if "afv" not in raw else _afv(reader, entry, raw["afv"]),
    )


MAX_MEN = 500
"""The most personalities one file may hold."""


def _shipped_men() -> str:
    """The shipped personalities file's text: the loader's valid example."""
    return ILLUSTRATIVE_MEN.read_text(encoding="utf-8")


@loader("men", ".toml", _shipped_men, ("odds", "upfront", "artillery", "--men", "{path}"))
def load_men(path: Path) -> MenData:
    """Load and validate a personality file; the first problem is one line."""
    return _men(read_data_file(path, "a personality file"), path.name)


UPLOADED_MEN = "uploaded personalities"
"""How errors and facts name personalities that came as text (the web's upload)."""


def men_from_text(text: str) -> MenData:
    """Load and validate personalities given as TOML text (the web's uploaded file), with the
    file loader's checks and limit; errors name ``uploaded personalities``, the man and the
    field."""
    return _men(read_data_text(text, UPLOADED_MEN, "a personality file"), UPLOADED_MEN)


UPLOADED_MEN_FILES: Uploads[MenData] = Uploads(men_from_text)
"""Uploaded personality files by content hash (``men = "uploaded:SHA256"``, web only)."""


def _men(data: dict[str, object], source: str) -> MenData:
    reader = Reader(source)
    reader.keys("", data, {"title", "man"}, {"illustrative", "note"})
    title = reader.text("", "title", data["title"], 120)
    illustrative = reader.flag("", "illustrative", data.get("illustrative", False))
    note = data.get("note", "")
    if not isinstance(note, str) or len(note) > 2000:
        raise reader.fail("", "note", "text of at most 2000 characters", note)
    raw_men = reader.array("", "man", data["man"], None)
    if not 1 <= len(raw_men) <= MAX_MEN:
        raise reader.fail("", "man", f"1 to {MAX_MEN} [[man]] entries", len(raw_men))
    men: list[Man] = []
    for position, raw in enumerate(raw_men, 1):
        man = _man(reader, position, raw)
        if any(m.id == man.id for m in men):
            raise reader.fail(f"man {man.id}", "id", "unique in the file", man.id)
        men.append(man)
    return MenData(source, title, tuple(men), illustrative, note)


_FILES: FileCache[MenData] = FileCache("a personality file", ILLUSTRATIVE_MEN, load_men)


def men_file(name: str) -> MenData:
    """The personality file a procedure's ``men`` field names: ``illustrative`` or a path
    (or personalities the web registered from uploaded text, :data:`UPLOADED_MEN_FILES`)."""
    uploaded = UPLOADED_MEN_FILES.get(name)
    if uploaded is not None:
        return uploaded
    return _FILES(name)
