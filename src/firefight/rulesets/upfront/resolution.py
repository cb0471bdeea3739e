"""Page 3: Fire/Ordnance Resolution on each man, and its exact odds over the unseen cards.

One card is drawn for each man of the target group (transferring men first) and read three
ways, "same card" as the chart says: its RN makes the Fire Result (FR) against the man's KIA
number, its RPN in column 7 the wound and berserk checks, its RPN in column 0 the rout check.
The malfunction check (firepower and overrun attacks only) reads the same card's RN and
colour; its BREEZE removes smoke and changes the FFS for the men after.

The formula behind FR and where KIA is printed are not public: named readings (``fr``,
``kia_on``, ``equality``, ``panic``, ``malfunction_check``, ``malfunction``) with documented
defaults (docs/upfront.md, "Readings").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Literal

from pydantic import Field

from firefight.chance import Chance
from firefight.errors import InputError, RuleError
from firefight.i18n import gettext as _
from firefight.rulesets.upfront.cards import Card
from firefight.rulesets.upfront.lists import ManIds, shown
from firefight.rulesets.upfront.malfunction import MalfunctionReadings
from firefight.rulesets.upfront.men import Man, MenData
from firefight.rulesets.upfront.pool import CardInput, PoolState, Reads, men_by_id, pool_for
from firefight.rulesets.upfront.printed import (
    BERSERK_COLUMN,
    BERSERK_RR,
    KIA_VP,
    ROUT_COLUMN,
    ROUT_TAKEN_RR,
    ROUT_TAKEN_VP,
    ROUTED_VP,
    WOUND_COLUMN,
    WOUNDED_VP,
)

__all__ = [
    "MAN_RESULTS",
    "READS",
    "Readings",
    "Tally",
    "Target",
    "UpFrontResolution",
    "data_facts",
    "fire_result",
    "malfunctions",
    "man_result",
    "resolve_group",
    "rout_vp",
    "tally_add",
    "why",
]

PAGE3 = "Up Front flow charts, page 3: Fire/Ordnance Resolution on each man"
AttackKind = Literal["firepower", "overrun", "ordnance", "artillery", "dc"]
FrReading = Literal["ffs_plus_rn", "ffs_only"]
KiaOn = Literal["man", "card"]
Equality = Literal["column7", "wounded"]
PanicReading = Literal["rout_check", "panic_column"]
MalfunctionCheck = Literal["red_at_least", "any_at_least"]
MalfunctionEffect = Literal["end_attack", "continue", "page6"]

MAN_RESULTS = (
    "KIA",
    "KIA (2nd wound)",
    "KIA (banzai)",
    "KIA (panic)",
    "berserk",
    "wounded",
    "routed",
    "pinned",
    "no effect",
    "attack ended",
)
"""Every result one man can have, worst first ("attack ended": a malfunction ended the attack
before his card, or on it)."""
RESULT_MEANINGS = {
    "KIA": "FR > KIA: the man is killed (2 VP); he leaves his weapon",
    "KIA (2nd wound)": "a second wound is KIA (2 VP)",
    "KIA (banzai)": "a banzaiing Japanese who would rout is KIA instead (2 VP)",
    "KIA (panic)": "panic (reading panic_column): a pinned man with FR > panic whose RPNC(0) "
    "<= his panic # is KIA (2 VP)",
    "berserk": "FR = KIA and RPNC(7) = morale at RR 5: berserk, enters CC next turn",
    "wounded": "FR = KIA and RPNC(7) = morale: wounded (1 VP), stays pinned/unpinned",
    "routed": "a pinned man with FR > panic whose RPNC(0) > his panic # (reading panic_column) "
    "or > his rout # (rout_check): routs (1 VP), an uncrewed weapon is removed",
    "pinned": "an unpinned man with FR > morale: pinned, flip to the pinned side",
    "no effect": "no effect on this man",
    "attack ended": "a weapon malfunction ended the attack (page 6) before this man",
}
VP = {"KIA": KIA_VP, "KIA (2nd wound)": KIA_VP, "KIA (banzai)": KIA_VP, "KIA (panic)": KIA_VP}
VP.update({"wounded": WOUNDED_VP, "routed": ROUTED_VP})

READS = Reads(rn=True, rn_colour=True, rpn=(ROUT_COLUMN, WOUND_COLUMN), breeze=True, kia=False)
"""What page 3 reads of a card: RN and colour (FR, malfunction), RPN columns 0 and 7, BREEZE
(and the card's KIA number under ``kia_on = "card"``)."""
READS_CARD_KIA = Reads(
    rn=True, rn_colour=True, rpn=(ROUT_COLUMN, WOUND_COLUMN), breeze=True, kia=True
)


class Readings(MalfunctionReadings):
    """The readings of page 3 where the charts are silent (docs/upfront.md, "Readings")."""

    fr: FrReading = Field(
        "ffs_plus_rn",
        description=(
            "The Fire Result: ffs_plus_rn (FR = FFS + the drawn card's RN; docs/sources.md's "
            "inference) or ffs_only (FR = FFS; the card is read for its RPNs only)."
        ),
    )
    kia_on: KiaOn = Field(
        "man",
        description=(
            "Where the KIA number is printed: man (each personality's kia in men.toml) or "
            "card (the drawn action card's kia in deck.toml)."
        ),
    )
    equality: Equality = Field(
        "column7",
        description=(
            "FR = KIA: column7 (RPNC(7) = morale: berserk at RR 5, wounded otherwise; any "
            "other RPN: on to the pinned/unpinned test) or wounded (always wounded, berserk "
            "instead when RPNC(7) = morale at RR 5)."
        ),
    )
    panic: PanicReading = Field(
        "panic_column",
        description=(
            "A pinned man with FR > panic: panic_column (RPNC(0) <= his panic #: KIA, "
            "otherwise routs; docs/sources.md's panic rule, page 3's 'Is RPNC(0) > Rout #?' "
            "with both its branches) or rout_check (RPNC(0) > rout #: routs, otherwise no "
            "effect, the man stays pinned)."
        ),
    )
    malfunction_check: MalfunctionCheck = Field(
        "red_at_least",
        description=(
            "When a fire weapon malfunctions on a resolution card: red_at_least (a red RN at "
            "least its malfunction #) or any_at_least (any RN at least its malfunction #)."
        ),
    )
    malfunction: MalfunctionEffect = Field(
        "end_attack",
        description=(
            "What a malfunction does: end_attack (page 6's 'malfunction that weapon, END "
            "ATTACK'), continue (the attack goes on at the same FFS, page 6's no-effect "
            "branches) or page6 (page 6's chart: whose weapon, the FFS cut, END ATTACK only "
            "for a group's one armed man; readings select, ft_reduction, breaks_on)."
        ),
    )
    attack: AttackKind = Field(
        "firepower",
        description=(
            "The attack resolved: the malfunction check is made only on firepower and "
            "overrun attacks (page 3)."
        ),
    )
    smoke: int = Field(
        0,
        ge=-9,
        le=0,
        description=(
            "The smoke modifier included in the FFS (negative): a BREEZE card removes it, "
            "changing the FFS for the men after (page 3)."
        ),
    )
    targets: ManIds = Field(
        ("ger-rifle-1",),
        description="The target group's men, ids from the men file, comma-separated.",
    )
    pinned_targets: ManIds = Field((), description="Targets already pinned (ids).")
    wounded_targets: ManIds = Field((), description="Targets already wounded once (ids).")
    transferring: ManIds = Field(
        (),
        description="Targets transferring between groups (ids): resolved first (page 3).",
    )
    banzai: bool = Field(
        False, description="The target group is banzaiing Japanese (a rout is KIA)."
    )


@dataclass(frozen=True)
class Target:
    """A man attacked, with his state before the attack."""

    man: Man
    pinned: bool
    wounded: bool
    banzai: bool

    @property
    def profile(self) -> tuple[object, ...]:
        """What his result depends on (men with equal profiles resolve alike)."""
        m = self.man
        return (m.kia, m.morale, m.panic, m.rout, self.pinned, self.wounded, self.banzai)


def targets(inp: Readings, men: MenData) -> tuple[Target, ...]:
    """The target group, transferring men first (page 3), each man once."""
    ids = men_by_id(men, "targets", inp.targets)
    if len(set(ids)) != len(ids):
        raise InputError("targets", "each man once", shown(inp.targets))
    for name in ("pinned_targets", "wounded_targets", "transferring"):
        for man_id in getattr(inp, name):
            if man_id not in ids:
                raise InputError(
                    name, _("ids among the targets: {ids}").format(ids=", ".join(ids)), man_id
                )
    pinned = set(inp.pinned_targets)
    wounded = set(inp.wounded_targets)
    moving = list(inp.transferring)
    ordered = [*moving, *(i for i in ids if i not in moving)]
    group = []
    for man_id in ordered:
        man = men.man(man_id)
        if man.afv is not None:
            raise RuleError(
                _(
                    "'targets': {man} is an AFV: page 4 resolves it (procedure afv; fire and "
                    "ordnance take an AFV target)"
                ).format(man=man_id)
            )
        if inp.kia_on == "man" and man.kia is None:
            raise RuleError(
                _("'targets': {man} has no kia in {file} (needed with kia_on = man)").format(
                    man=man_id, file=men.source
                )
            )
        banzai = inp.banzai and man.nationality == "japanese"
        group.append(Target(man, man_id in pinned, man_id in wounded, banzai))
    return tuple(group)


def fire_result(ffs: int, card: Card, reading: FrReading) -> int:
    """FR: the FFS plus the card's RN (default), or the FFS alone."""
    return ffs + card.rn.value if reading == "ffs_plus_rn" else ffs


def malfunctions(card: Card, numbers: Sequence[int], check: MalfunctionCheck) -> bool:
    """Whether the card's RN malfunctions any of the firing weapons (``numbers``: their
    malfunction numbers)."""
    if check == "red_at_least" and not card.rn.red:
        return False
    return any(card.rn.value >= n for n in numbers)


def man_result(target: Target, ffs: int, rr: int, card: Card, inp: Readings) -> str:
    """Page 3 for one man with his card: FR against KIA, equality's checks, the pinned or
    unpinned test, the rout check. Deterministic once the card is drawn."""
    man = target.man
    fr = fire_result(ffs, card, inp.fr)
    kia = card.kia if inp.kia_on == "card" else man.kia
    if kia is None:
        msg = _("card {card} has no kia in the deck file (needed with kia_on = card)").format(
            card=card.number
        )
        raise RuleError(msg)
    if fr > kia:
        return "KIA"
    column7 = card.rpn_at(WOUND_COLUMN).value == man.morale
    if fr == kia and (column7 or inp.equality == "wounded"):
        if column7 and rr == BERSERK_RR and card.rpn_at(BERSERK_COLUMN).value == man.morale:
            return "berserk"
        return "KIA (2nd wound)" if target.wounded else "wounded"
    if target.pinned:
        return _panic(target, fr, card, inp) if fr > man.panic else "no effect"
    if fr > man.morale:
        return "pinned"
    return "no effect"


def _panic(target: Target, fr: int, card: Card, inp: Readings) -> str:
    """Page 3: a pinned man with FR > panic panics; the same card's RPNC(0) decides: at most
    his panic # KIA, else he routs (``panic = panic_column``), or above his rout # he routs,
    else no effect (``rout_check``). A banzaiing Japanese who would rout is KIA."""
    rpn0 = card.rpn_at(ROUT_COLUMN).value
    limit = target.man.panic if inp.panic == "panic_column" else target.man.rout
    if rpn0 <= limit:
        return "KIA (panic)" if inp.panic == "panic_column" else "no effect"
    return "KIA (banzai)" if target.banzai else "routed"


def why(result: str, target: Target, ffs: int, card: Card, inp: Readings) -> str:
    """The comparison that decided ``result`` (:func:`man_result`'s, for this man and card),
    for the trace: FR against KIA, panic or morale, and a panic's RPNC(0) against the number
    the reading ``panic`` reads it against (his panic # or his rout #)."""
    man = target.man
    fr = fire_result(ffs, card, inp.fr)
    kia = card.kia if inp.kia_on == "card" else man.kia
    rpn0 = card.rpn_at(ROUT_COLUMN).value
    name, limit = ("panic", man.panic) if inp.panic == "panic_column" else ("rout", man.rout)
    panicked = target.pinned and fr > man.panic
    if result == "KIA":
        return f"FR {fr} > KIA {kia}"
    if result in ("wounded", "KIA (2nd wound)", "berserk"):
        rpn7 = card.rpn_at(WOUND_COLUMN).value
        sign = "=" if rpn7 == man.morale else "!="
        return f"FR {fr} = KIA {kia}; RPNC(7) {rpn7} {sign} morale {man.morale}"
    if panicked:
        sign = ">" if result in ("routed", "KIA (banzai)") else "<="
        return f"FR {fr} > panic {man.panic}; RPNC(0) {rpn0} {sign} {name} # {limit}"
    if target.pinned:
        return f"FR {fr} <= panic {man.panic}"
    if result == "pinned":
        return f"FR {fr} > morale {man.morale}"
    return f"FR {fr} <= morale {man.morale}"


def reads_for(inp: Readings) -> Reads:
    """The card fields this input's resolution reads."""
    return READS_CARD_KIA if inp.kia_on == "card" else READS


RoutTaken = Literal["rout", "taken_at_rr5"]
ROUT_TAKEN_DESCRIPTION = (
    "Page 3's 'May take as RR5, 5VP' beside MAN ROUTS 1VP: rout (every routed man scores 1 "
    "VP; the victory points of docs/sources.md) or taken_at_rr5 (at RR 5 the attacker takes "
    "each routing "
    "man, for 5 VP instead of 1; no card is read, so the odds of each result are unchanged)."
)


def rout_vp(rr: int, reading: RoutTaken) -> int:
    """The VP a routed man scores: 5 when taken at RR 5 (reading ``taken_at_rr5``), else 1."""
    return ROUT_TAKEN_VP if reading == "taken_at_rr5" and rr == ROUT_TAKEN_RR else ROUTED_VP


class UpFrontResolution(Readings):
    """Page 3 on each man of a target group, at a Final Fire Strength already worked out
    (page 1, 2, 5 or 7 gives it)."""

    readings: ClassVar[frozenset[str]] = frozenset({"malfunction", "rout_taken"})
    """The fields that read the rules where they are silent (folded apart on the web)."""

    ffs: int = Field(ge=-20, le=60, description="The Final Fire Strength (FFS).")
    rr: int = Field(0, ge=0, le=5, description="The Relative Range (berserk only at RR 5).")
    rout_taken: RoutTaken = Field("rout", description=ROUT_TAKEN_DESCRIPTION)
    firers: ManIds = Field(
        (),
        description=(
            "The firing men (ids) whose weapons the malfunction check reads; empty: no "
            "check (page 3: firepower and overrun attacks only)."
        ),
    )
    not_firing: ManIds = Field(
        (),
        description=(
            "Firers (ids) who do not fire this attack (page 1's 'Non-firing "
            "infiltrator/flamethrower', page 6's 'Non-firing FT/IF'): their weapon is not "
            "checked for malfunction (page 3 checks the weapons firing), as fire's not_firing."
        ),
    )


def malfunction_numbers(inp: Readings, men: MenData, firers: Sequence[Man]) -> tuple[int, ...]:
    """The malfunction numbers checked: every firing weapon's, on firepower and overrun
    attacks only (page 3)."""
    if inp.attack not in ("firepower", "overrun"):
        return ()
    return tuple(m.malfunction for m in firers if m.malfunction is not None)


def resolution_firers(inp: UpFrontResolution, men: MenData) -> tuple[list[Man], list[Man]]:
    """``firers`` as men, and those of them that fire (less ``not_firing``, which must name
    firers); one-line errors."""
    if not inp.firers:
        if inp.not_firing:
            raise InputError("not_firing", "empty when no firers are given", shown(inp.not_firing))
        return [], []
    ids = men_by_id(men, "firers", inp.firers)
    quiet = set(inp.not_firing)
    for man_id in sorted(quiet):
        if man_id not in ids:
            raise InputError(
                "not_firing", _("ids among the firers: {ids}").format(ids=", ".join(ids)), man_id
            )
    firers = [men.man(i) for i in ids]
    return firers, [m for m in firers if m.id not in quiet]


@dataclass(frozen=True)
class Tally:
    """A group's losses: KIA (every kind), wounded, pinned, routed, berserk, and whether a
    malfunction ended the attack (1 or 0); the men with no effect are the rest."""

    counts: tuple[int, ...]

    @staticmethod
    def of(results: Sequence[str]) -> Tally:
        """The tally of a list of man results."""
        counts = EMPTY_TALLY
        for result in results:
            counts = tally_add(counts, MAN_RESULTS.index(result))
        return Tally(counts)

    @staticmethod
    def of_counts(by_result: Sequence[int]) -> Tally:
        """The tally of how many men had each result (indexed as :data:`MAN_RESULTS`)."""
        counts = EMPTY_TALLY
        for index, n in enumerate(by_result):
            counts = tally_add(counts, index, n)
        return Tally(counts)

    @property
    def vp(self) -> int:
        """Victory points the attacker gains: KIA 2, wounded or routed 1 (page 3)."""
        return self.vp_with(ROUTED_VP)

    def vp_with(self, rout_vp: int) -> int:
        """Victory points with ``rout_vp`` for each routed man (:func:`rout_vp`)."""
        kia, wounded, _, routed, _, _ = self.counts
        return KIA_VP * kia + WOUNDED_VP * wounded + rout_vp * routed

    def text(self, rout_vp: int = ROUTED_VP) -> str:
        """``KIA 1, wounded 0, pinned 2, routed 0, berserk 0 (VP 2)``."""
        kia, wounded, pinned, routed, berserk, ended = self.counts
        text = (
            f"KIA {kia}, wounded {wounded}, pinned {pinned}, routed {routed}, "
            f"berserk {berserk} (VP {self.vp_with(rout_vp)})"
        )
        return text + (" attack ended" if ended else "")


LOSSES = ("KIA", "wounded", "pinned", "routed", "berserk", "attack ended")
"""The slots of a :class:`Tally`."""
ENDED_SLOT = LOSSES.index("attack ended")
LOSS_SLOT = tuple(
    0 if result.startswith("KIA") else LOSSES.index(result) if result in LOSSES else -1
    for result in MAN_RESULTS
)
"""Each man result's slot in a :class:`Tally` (-1: no effect, not counted)."""
EMPTY_TALLY = (0,) * len(LOSSES)
"""The counts of a :class:`Tally` of no losses."""


def tally_add(counts: tuple[int, ...], result: int, n: int = 1) -> tuple[int, ...]:
    """A :class:`Tally`'s counts with ``n`` more men of ``result`` (an index into
    :data:`MAN_RESULTS`): every kind of KIA in one slot, "no effect" not counted, "attack
    ended" a flag (1 once any man's attack ended). The one place the slots are filled, so
    that every walk's tallies equal :meth:`Tally.of` of the rule's results."""
    slot = LOSS_SLOT[result]
    if slot < 0 or n == 0 or (slot == ENDED_SLOT and counts[slot]):
        return counts
    added = 1 if slot == ENDED_SLOT else counts[slot] + n
    return (*counts[:slot], added, *counts[slot + 1 :])


def resolve_group(  # noqa: PLR0917 - the attack's parts, as group_odds takes them
    inp: Readings,
    chance: Chance,
    ffs: int,
    rr: int,
    group: Sequence[Target],
    malfunction_at: Sequence[int],
    played: tuple[int, ...] = (),
    start: PoolState | None = None,
) -> list[str]:
    """Page 3 on each man in order, one card each from the pool: the rule itself, used by
    every procedure that resolves fire on a group (sampled, replayed, exact). ``start``: the
    pool left by earlier draws of the same attack (a to-hit card, page 2), if any."""
    pool = pool_for(inp, reads_for(inp), played)
    state = pool.start if start is None else start
    smoke = inp.smoke
    results: list[str] = []
    for position, target in enumerate(group, 1):
        label = f"card for man {position} ({target.man.id})"
        drawn = pool.draw(chance, state, label)
        if drawn is None:
            results.extend("no effect" for _ in group[position - 1 :])
            break
        card, state = drawn
        if malfunction_at and malfunctions(card, malfunction_at, inp.malfunction_check):
            chance.note("malfunction", f"RN {card.rn}: a fire weapon malfunctions (page 6)")
            if inp.malfunction == "end_attack":
                results.extend("attack ended" for _ in group[position - 1 :])
                break
        result = man_result(target, ffs, rr, card, inp)
        explained = why(result, target, ffs, card, inp)
        chance.note(f"man {position} ({target.man.id})", f"{explained}: {result}")
        results.append(result)
        if card.breeze and smoke:
            ffs -= smoke
            chance.note("BREEZE", f"smoke removed: FFS {ffs}")
            smoke = 0
    return results


def data_facts(inp: CardInput) -> list[tuple[str, str]]:
    """The deck and personalities used, ILLUSTRATIVE ones labelled so."""
    return [("deck", inp.deck_data().label), ("men", inp.men_data().label)]
