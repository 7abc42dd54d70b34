"""Every Fairy Meat ruling (FM-1..FM-14) in words, and the index of where each is implemented.

:data:`BOOK` is the one statement of the rulings' ids and texts; each row of its index is
claimed in the rules layer by :func:`toolkit.rulings.implements` (``docs/rulings.md`` and
the README's list are generated from it: ``python scripts/rulings.py``).
:func:`implementation` returns the one function implementing a key.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from toolkit.rulings import Part, Ruling, RulingBook

__all__ = ["BOOK", "implementation", "ruling_book"]

RULINGS: tuple[Ruling, ...] = (
    Ruling(
        "FM-1",
        "the deck",
        (
            "52 cards, no jokers. The `2`–`10` are **Numbered** cards worth their pips; `J`, `Q`, "
            "`K`, `A` are **Trumps**, each worth 1 when applied."
        ),
    ),
    Ruling(
        "FM-2",
        "combat hand sizes",
        (
            "The attacker draws Kill points + her weapon's attack bonus + 1 for attacking + any other"
            " modifiers (e.g. −1 when Fluttered). The defender draws Live points + modifiers (e.g. +1"
            " while she still holds an Order Card, her weapon's defence modifier). A hand is never "
            "below 0 cards. When **Wrestling** (FM-14) both sides draw by their Kill points instead, "
            "and everything else applies as usual: the attacker's +1 and all modifiers. Variant: "
            '`wrestling_hand="as_usual"` (default) or `"kill_only"` (when Wrestling each draws '
            "exactly her Kill points: no +1, no modifiers)."
        ),
    ),
    Ruling(
        "FM-3",
        "Add or Subtract",
        (
            "After seeing her hand, each fairy declares once per combat, in public, whether her "
            "matching Trumps add to or subtract from her Numbered card; the attacker declares first. "
            "The declaration holds for all her matching Trumps for the whole combat."
        ),
    ),
    Ruling(
        "FM-4",
        "Trumps in an attack",
        (
            "A fairy may place any number of Trumps, all of one colour, face down (none at all is "
            'saying "None"); both sides reveal together.'
        ),
    ),
    Ruling(
        "FM-5",
        'the "None" rule',
        (
            "When one fairy says None, the other's face-down Trumps stay hidden; once the Numbered "
            "cards are shown, their owner either reveals and applies all of them or none (the engine "
            "picks the better for her unless a person chooses). Trumps turned up from the deck (FM-6)"
            " are always shown. A fairy has said None when she applies **no Trump of any kind** in "
            "the attack: no face-down Trump, no Wild Trump from her hand, no Trump turned up by a "
            "draw, no Wild Trump points (FM-7). So a fairy with a Wild Trump or Wild Trump points in "
            "play has *not* said None, and her opponent's face-down Trumps are shown and applied as "
            "usual. A blind draw (FM-7) that turns up no Trump counts as None. Variants: "
            '`none_reveal="all_or_nothing"` (default) or `"subset"` (the owner may reveal any of '
            'them); `none_means="no_trumps"` (default) or `"no_face_down"` (None is said by whoever '
            "places no face-down Trump, whatever she plays or turns up afterwards)."
        ),
    ),
    Ruling(
        "FM-6",
        "no Numbered card to play",
        (
            "A fairy holding a Numbered card must play one. Without one she plays a Trump as a **Wild"
            " Trump**: she turns up cards from the deck until a Numbered card appears; that card is "
            "her Numbered card, and every Trump turned up on the way joins her Trumps for this "
            "attack."
        ),
    ),
    Ruling(
        "FM-7",
        "a defender with neither Numbered card nor Trump",
        (
            "If she scored points against the previous attack of this combat, she may use them as "
            "**Wild Trump points** of a colour she names (red or black) at the reveal, then draw as "
            "in FM-6. Otherwise she is **undefended** and turns up cards as in FM-6 with no Trumps of"
            " her own (a blind draw). Points can be spent only once: used as Wild Trump points, they "
            "are no longer extra cards or a next-defence bonus (FM-11), whichever she chose when she "
            'scored them. Variant: `undefended="blind_draw"` (default) or `"unopposed"` (the attacker'
            " simply wins, scoring half her value rounded up)."
        ),
    ),
    Ruling(
        "FM-8",
        "cheating",
        (
            "A Trump whose colour differs from its owner's Numbered card lets the **opponent** move "
            "each of the two Numbered values up or down by 1, choosing the direction card by card. "
            "The engine picks the directions best for the opponent; in the stepper a person may "
            "choose. Matching Trumps are applied by their owner, in the direction she declared "
            "(FM-3)."
        ),
    ),
    Ruling(
        "FM-9",
        "who wins",
        (
            "Numbered cards of the same colour: the higher final value wins. Of different colours: "
            "the lower wins. Equal final values: a draw, and nobody scores."
        ),
    ),
    Ruling(
        "FM-10",
        "points and damage",
        (
            "The winner scores half the difference, rounded up. When the attacker wins, the defender "
            'takes 1 damage per point. Variant: `damage="halved"` (default) or `"table"` (no halving:'
            " a difference of 1–4 is 1 damage, 5–8 is 2, 9 or more is 3, in the style of the rule "
            "book's page 11)."
        ),
    ),
    Ruling(
        "FM-11",
        "when the defender wins",
        (
            "She chooses, as she scores, either **extra cards** (as many as her points, for her own "
            "attack back at the same fairy this turn; worth nothing if she has already attacked this "
            "round) or a **next-defence bonus** (all or none of the points added to her next Numbered"
            " card in this combat, decided after the reveal, in her declared direction, with no "
            "colour)."
        ),
    ),
    Ruling(
        "FM-12",
        "the Ace of Spades",
        (
            "If the A♠ is among the cards applied in an attack (from the hand or turned up), the "
            "fairy who takes damage from that attack also suffers a **Nasty Hit**. The draft has no "
            'Nasty Hit table, so the toolkit records that it happens. Variant: `nasty_hit="damaged"` '
            '(default) or `"loser"` (the loser suffers it even when she takes no damage; in a '
            "Wrestling draw, which has no loser, both fairies take damage and both suffer it, as "
            "by default: the toolkit's reading of a case the variant does not name)."
        ),
    ),
    Ruling(
        "FM-13",
        "several attacks",
        (
            "Each fairy has one combat hand for all the attacks of a combat; spent cards go to the "
            "Spoils Heap, and the deck is reshuffled only when it runs out."
        ),
    ),
    Ruling(
        "FM-14",
        "Wrestling",
        (
            "Both sides draw by Kill points (hand sizes: FM-2). The winner damages the loser, whoever"
            " attacked, or may give up the damage to escape: then nobody is hurt, the result records "
            "0 damage and the escape, and the log says so. A draw deals 1 damage to each."
        ),
    ),
)

PARTS: tuple[Part, ...] = (
    Part("FM-1", "the deck: the cards of the Numbered and Trump ranks (and jokers, house rules)"),
    Part("FM-1 numbered", "a Numbered card, worth its pips"),
    Part("FM-1 trump", "a Trump"),
    Part("FM-1 types", "a card's type (what its effect depends on) for the exact odds", reached_by="the exact odds"),
    Part("FM-2", "combat hand sizes (Wrestling: by Kill points, `wrestling_hand`)"),
    Part("FM-3", "the Add/Subtract declaration"),
    Part("FM-4", "Trumps of one colour per attack, face down"),
    Part("FM-5", 'the "None" rule: who said None (`none_means`), whose Trumps stay hidden'),
    Part(
        "FM-5 spoils",
        "hidden Trumps go to the Spoils Heap",
        reading="face-down Trumps that stay hidden still go to the Spoils Heap with the rest of the "
        "attack's cards (the draft's step 9: \"all associated cards played\").",
    ),
    Part(
        "FM-5 order",
        "the attacker chooses first (reveal, bonus)",
        reading="(with FM-11) when a hidden-Trumps reveal and a bonus are both to be decided, the "
        "attacker, whose turn it is, decides first.",
    ),
    Part(
        "FM-5 reveal",
        "the engine reveals face-down Trumps once the other side plays a Trump",
        reading='(the engine, default `none_means="no_trumps"`) a fairy who placed Trumps face down '
        "sees them stay face down while the other side has played no Trump; they are revealed (and the "
        "log says so) as soon as the other side's Wild Trump is shown with the Numbered cards or a Trump "
        "is turned up for her. Wild Trump points are declared with the Trumps, so they reveal at once.",
    ),
    Part(
        "FM-5 seen",
        "the solvers: the opponent sees how many Trumps lie face down",
        reading="(the strategy solvers) the opponent sees how many Trumps lie face down, not which "
        "ones. The reveal, the bonus and the cheating shifts are played as the referee's best choice "
        "(the chooser then knows every card on the table; with hidden Trumps in a combat of several "
        "attacks this leaves out what a reveal tells the opponent about later attacks).",
        reached_by="the hidden-hands solver",
    ),
    Part("FM-6", "no Numbered card: a Wild Trump, turn up until a Numbered card"),
    Part(
        "FM-6 keep-back",
        "keep a Trump back for the Wild Trump",
        reading="a fairy with no Numbered card must keep a Trump back to play as her Wild Trump.",
    ),
    Part(
        "FM-6 draw law",
        "the ways a Wild Trump draw turns up its cards (the exact odds on card types)",
        reached_by="the exact odds",
    ),
    Part("FM-7", "neither Numbered nor Trump: Wild Trump points or a blind draw"),
    Part(
        "FM-7 points",
        "Wild Trump points are the points of the previous attack",
        reading="Wild Trump points are the points scored against the previous attack, whichever FM-11 "
        "option was chosen; once used as Wild Trump points they are not also a bonus.",
    ),
    Part("FM-7 spent once", "points are spent once: no extra cards for points used as Wild Trump points"),
    Part("FM-8", "cheating: a Trump that does not match lets the opponent shift each value by 1"),
    Part("FM-9", "who wins: same colour highest, different colours lowest"),
    Part("FM-10", "points: half the difference, rounded up; damage"),
    Part(
        "FM-10 down",
        "damage comes off Live points",
        reading="damage comes off Live points; a fairy with no Live points left is down (as "
        "Sparklespaz is in the draft's example).",
    ),
    Part("FM-11", "the defender's points: extra cards or a next-defence bonus"),
    Part("FM-12", "the Ace of Spades: a Nasty Hit"),
    Part("FM-13", "multiple attacks from one combat hand: spent cards to the Spoils Heap"),
    Part(
        "FM-13 no cards",
        "no cards left, no more attacks",
        reading="an attacker with no cards left loses her remaining attacks.",
    ),
    Part("FM-14", "Wrestling: damage, a draw, an escape (no damage)"),
    Part(
        "FM-14 escape",
        "the winner's choice to escape, made before the attack is settled",
        reading="the Wrestling winner chooses to deal the damage or escape before the attack is settled, "
        'so the result, the log ("… escapes the brawl") and the summary record what happened.',
    ),
)

BOOK = RulingBook(
    system="fairy-meat",
    title="Fairy Meat alternate combat",
    prefix="FM",
    blurb="Cards, trumps, colours and bluffing.",
    rulings=RULINGS,
    parts=PARTS,
    modules=(
        "toolkit.fairy_meat.rules",
        "toolkit.fairy_meat.deck",
        "toolkit.fairy_meat.legality",
        "toolkit.fairy_meat.attack",
        "toolkit.fairy_meat.referee",
        "toolkit.fairy_meat.engine",
    ),
    after_rulings=(
        "The draft's worked example (Dizzytwig against Sparklespaz) is the check on these\n"
        "rulings: in the first attack Dizzytwig has 2 and Sparklespaz 3, so Sparklespaz wins 1\n"
        "point; had Dizzytwig played her 5♣ it would still be 2 against 3, lowest winning, for\n"
        "1 damage; in the second attack Sparklespaz has 6 and Dizzytwig 3: 2 damage and a Nasty\n"
        "Hit. `data/examples/` plays it move by move."
    ),
    house_readings=(
        "**FM-1 (`jokers`):** a joker is a Trump of no colour: it matches every Numbered card (never "
        "cheating) and may join a face-down set of either colour.",
        "**FM-1/FM-8 (`trump_value`):** the worth of matching Trumps and Wild Trump points; a cheating "
        "shift stays 1 per Trump.",
        "**FM-12 (`death_card`):** must be a Trump of the rules, or none.",
    ),
)


def ruling_book() -> RulingBook:
    """Return the Fairy Meat rulings and their index (FM-1..FM-14): the hook a system's
    record points at."""
    return BOOK


def implementation(key: str) -> Callable[..., Any]:
    """Return the one function implementing ``key`` (a ruling id, ``"FM-4"``, or a part:
    ``"FM-6 keep-back"``).

    >>> implementation("FM-4").__name__
    'trump_sets'
    """
    return BOOK.implementation(key)
