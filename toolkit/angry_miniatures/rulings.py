"""Every Angry Miniatures ruling (AM-1..AM-10) in words, and the index of where each is implemented.

:data:`BOOK` is the one statement of the rulings' ids and texts; each row of its index is
claimed in the rules layer by :func:`toolkit.rulings.implements` (``docs/rulings.md`` and
the README's list are generated from it: ``python scripts/rulings.py``).
"""

from __future__ import annotations

from toolkit.rulings import Part, Ruling, RulingBook

__all__ = ["BOOK", "ruling_book"]

RULINGS: tuple[Ruling, ...] = (
    Ruling(
        "AM-1",
        "the dice",
        (
            "Each die is a six-sided poker die with faces 9, 10, J, Q, K, A. A J, Q, K or A is a hit;"
            " a 9 or a 10 is a blank."
        ),
    ),
    Ruling(
        "AM-2",
        "the pools",
        (
            "The attacker rolls as many dice as the attack she uses. The defender rolls her Body "
            "against melee, her Mind against ranged attacks and her Spirit against magic. Modifiers "
            "(AM-9) add or take away dice, and no pool goes below zero."
        ),
    ),
    Ruling(
        "AM-3",
        "comparing hits",
        (
            "If the attacker has more hits, the defender takes the difference as damage. If she has "
            "fewer, the attack fails, and in melee only the defender deals the difference back to the"
            " attacker."
        ),
    ),
    Ruling(
        "AM-4",
        "equal hits (at least one each)",
        (
            "The side with more Aces wins; if equal, more Kings, then Queens, then Jacks. Still "
            "equal: a **SuperTieBreaker**, where each side throws one die, equal faces are thrown "
            "again, and the higher face wins (A > K > Q > J > 10 > 9); each side wins it exactly half"
            " the time. Whoever wins a tie deals exactly 1 damage, never more (no perk or crit adds "
            "to it); the defender's tie win only hurts the attacker in melee."
        ),
    ),
    Ruling(
        "AM-5",
        "no hits on either side",
        (
            'The attack misses and nobody is hurt. Variant: `zero_tie="miss"` (default) or '
            '`"super_tiebreak"` (settle it with a SuperTieBreaker as in AM-4).'
        ),
    ),
    Ruling(
        "AM-6",
        "the experimental melee rule",
        (
            "Off by default; when on, a melee character who defends against a melee attack rolls one "
            "extra die. Variant: `melee_defence_bonus=False` (default) or `True`."
        ),
    ),
    Ruling(
        "AM-7",
        "crits",
        (
            "A roll with two or more Aces is a crit, attack or defence, hit or not; a character crits"
            " at most once a turn. The toolkit gives the chance of a crit; what a crit does depends "
            "on the character and is left out."
        ),
    ),
    Ruling(
        "AM-8",
        "magic area attacks",
        (
            "One attack roll is used against the target and against every creature next to it; each "
            "of them rolls her own defence, and each pairing is settled on its own against that same "
            "attack roll (so the results are linked)."
        ),
    ),
    Ruling(
        "AM-9",
        "modifiers",
        (
            "The defender gets +1 die for each square of hindering terrain and for each occupied "
            "square a ranged or magic attack crosses, and −1 die when prone. The attacker gets +1 die"
            " for a melee charge of more than 2 squares, and +1 die from higher ground with a ranged "
            "or magic attack."
        ),
    ),
    Ruling(
        "AM-10",
        "health",
        ("Damage adds up; a character is out once her damage reaches her Health."),
    ),
)

PARTS: tuple[Part, ...] = (
    Part("AM-1", "hits counted: the faces that hit (J, Q, K, A)"),
    Part("AM-2", "pools: attack value against Body / Mind / Spirit, never below 0 dice"),
    Part("AM-3", "more hits deal the difference; in melee the defender deals it back"),
    Part("AM-4", "a tie on hits: Aces, Kings, Queens, Jacks, then the SuperTieBreaker"),
    Part("AM-4 super-tiebreak", "the SuperTieBreaker throw: the higher face wins, equal faces throw again"),
    Part("AM-5", "both roll 0 hits: a miss (variant `zero_tie`)"),
    Part("AM-6", "experimental: a melee character defending in melee rolls +1 die (variant)"),
    Part("AM-7", "2+ Aces crit, on faces or on counts of crit faces"),
    Part("AM-8", "magic area: one attack roll against the target and each adjacent creature"),
    Part(
        "AM-8 own-tiebreak",
        "each tied pairing throws its own SuperTieBreaker",
        reading="in a magic area attack, every tied pairing of attacker and defender throws its own SuperTieBreaker.",
    ),
    Part("AM-9", "modifiers: terrain, occupied squares, prone, charge, elevation, each of its size"),
    Part("AM-10", "damage accumulates; a character whose damage reaches her Health is out"),
)

BOOK = RulingBook(
    system="angry-miniatures",
    title="Angry Miniatures",
    prefix="AM",
    blurb="Opposed pools of poker dice.",
    rulings=RULINGS,
    parts=PARTS,
    modules=(
        "toolkit.angry_miniatures.rules",
        "toolkit.angry_miniatures.referee",
        "toolkit.angry_miniatures.engine",
    ),
    after_rulings=(
        'The toolkit also offers `tie_break="chain"` (default) or `"coin_flip"`: a yardstick, not\n'
        "a ruling, that settles AM-4 ties by a plain coin flip so a designer can see what the\n"
        "Ace-King-Queen-Jack chain is worth."
    ),
    house_readings=(
        "**AM-4 (`tie_break_order`):** the chain may name hit faces only; left out, it is Aces, Kings, "
        "Queens, Jacks restricted to the faces that hit (`hit_faces: [Q, K, A]` gives A, K, Q). With a "
        "die that has a face twice, equal SuperTieBreaker faces are thrown again and the higher face "
        "wins, so each side still wins half of them.",
        "**AM-4:** with the default chain the Jacks step can never decide a tie: hits are the J, Q, K "
        "and A rolled, so two rolls tied on hits, Aces, Kings and Queens have as many Jacks (checked "
        "over every pair of rolls up to 3 dice each).",
        "**AM-7 (`crit_faces`):** crit faces may be blanks (two 9s, say).",
    ),
)


def ruling_book() -> RulingBook:
    """Return the Angry Miniatures rulings and their index (AM-1..AM-10): the hook a
    system's record points at."""
    return BOOK
