"""Every Durak mass battle ruling (DB-1..DB-9) in words, and the index of where each is implemented.

:data:`BOOK` is the one statement of the rulings' ids and texts; each row of its index is
claimed in the rules layer by :func:`toolkit.rulings.implements` (``docs/rulings.md`` and
the README's list are generated from it: ``python scripts/rulings.py``).
"""

from __future__ import annotations

from toolkit.rulings import Part, Ruling, RulingBook

__all__ = ["BOOK", "ruling_book"]

RULINGS: tuple[Ruling, ...] = (
    Ruling(
        "DB-1",
        "the deck",
        (
            "54 cards: the 52 and two jokers, ranked 2 < … < 10 < J < Q < K < A < joker. The suit is "
            "the action: ♠ Attack, ♥ Defence, ♦ Manoeuvre, ♣ Counterattack. A joker is whichever of "
            "the four its player names when playing it, and beats every other card. Variant: "
            "`jokers=True` (default) or `False` (52 cards)."
        ),
    ),
    Ruling(
        "DB-2",
        "the Reconnaissance roll",
        (
            "A Savage Worlds trait roll of the leader's Knowledge (Battle) die (d4–d12); a Wild Card "
            "leader also rolls a d6 Wild Die and keeps the higher. No die explodes; flat modifiers "
            "are added. The army draws that many cards (never fewer than 0), plus 1 for every token "
            "by which it outnumbers the other army. Variant: a leader who is an Extra "
            "(`wild_die=False`) rolls no Wild Die."
        ),
    ),
    Ruling(
        "DB-3",
        "initiative",
        (
            "The side holding the highest card that can attack (a spade or a joker) attacks first, "
            "and must: an action always opens with an attack; passing (DB-6) is possible only after a"
            " Defence, a Manoeuvre or a strike. Joker against joker: compare the next highest spades;"
            " still equal: a coin flip. If neither side holds a card that can attack, there is no "
            "clash this round."
        ),
    ),
    Ruling(
        "DB-4",
        "answering an attack",
        (
            "The defender may answer with a legal card, or decline and take the strike (4 tokens). "
            "Without a legal card she takes the strike."
        ),
    ),
    Ruling(
        "DB-5",
        "a counterattack of equal value",
        (
            'Counts as a higher one: no token is lost. Variant: `counter_tie="no_loss"` (default) or '
            '`"loses"` (counts as a lower one: 1 token lost).'
        ),
    ),
    Ruling(
        "DB-6",
        "after a Defence, Manoeuvre or strike",
        (
            "The side holding the initiative *may* attack again with a spade or a joker; if she "
            "passes, or has none, the initiative goes to the other side, who *must* attack while she "
            "holds a spade (a joker she may keep). The clash ends when neither side attacks. Variant:"
            " `holder_must_attack=False` (default) or `True` (the initiative holder must attack while"
            " she holds a spade)."
        ),
    ),
    Ruling(
        "DB-7",
        "tokens",
        (
            "An army has tokens (up to 10, as in Savage Worlds). Losses never take it below 0; an "
            "army at 0 is destroyed and the battle is over."
        ),
    ),
    Ruling(
        "DB-8",
        "morale",
        (
            "After each clash each leader rolls Spirit (plus the Wild Die for a Wild Card, no "
            "explosions), −1 for every token lost **in this clash**, and needs 4 or more. The side "
            "that was attacked (the one without the initiative when the clash began) rolls first; if "
            "it fails, it retreats and the other side does not roll. Variant: "
            '`morale_penalty="clash"` (default) or `"battle"` (every token lost in the whole battle '
            "counts)."
        ),
    ),
    Ruling(
        "DB-9",
        "cards left over",
        ("Cards still in hand when a clash ends are discarded; every round deals new hands from a reshuffled deck."),
    ),
)

PARTS: tuple[Part, ...] = (
    Part("DB-1", "the deck: 52 cards and two jokers, or 52"),
    Part("DB-1 rank", "rank order, a joker above every card"),
    Part("DB-1 actions", "suit = action, a joker any of the four"),
    Part("DB-2", "cards drawn = max(0, roll) + the token advantage"),
    Part("DB-2 roll", "the Knowledge (Battle) roll"),
    Part("DB-2 advantage", "the token advantage"),
    Part("DB-3", "initiative: the highest attack card; no attack card, no clash"),
    Part(
        "DB-3 joker",
        "joker against joker",
        reading="joker against joker compares the two sides' attack cards in order (a second joker "
        "beats any spade); identical lists are a coin flip. With no attack card on either side there "
        "is no clash and no morale roll that round.",
    ),
    Part("DB-3 attack cards", "attack cards, highest first"),
    Part("DB-4", "declining: the strike"),
    Part("DB-4 no answer", "no legal card: struck at once"),
    Part("DB-5", "answers judged; a counterattack of equal value"),
    Part("DB-6", "after Defence / Manoeuvre / strike: who may pass"),
    Part(
        "DB-6 both pass",
        "the clash ends when both pass in a row",
        reading="the clash ends when both sides pass one after the other; a side with no attack card passes by itself.",
    ),
    Part("DB-6 no attack card", "no attack card: she passes by herself"),
    Part("DB-6 course", "the course of a clash"),
    Part("DB-7", "tokens: losses floored at 0, destruction"),
    Part("DB-8", "morale: the side originally attacked rolls first"),
    Part("DB-8 spirit", "the Spirit roll"),
    Part("DB-8 penalty", "the penalty: tokens lost in the clash or the battle"),
    Part("DB-8 success", "success on 4+"),
    Part("DB-9", "fresh hands from a reshuffled deck"),
)

BOOK = RulingBook(
    system="durak-battle",
    title="Durak mass battle",
    prefix="DB",
    blurb="Card suits as battle actions, built on the card game *Durak*.",
    rulings=RULINGS,
    parts=PARTS,
    modules=(
        "toolkit.durak_battle.rules",
        "toolkit.durak_battle.recon",
        "toolkit.durak_battle.initiative_rule",
        "toolkit.durak_battle.clash",
        "toolkit.durak_battle.position",
        "toolkit.durak_battle.morale",
    ),
    house_readings=(
        '**DB-5 (`counter_tie="loses"`):** a Counterattack equal to the attack costs '
        "`counter_lower_loss` tokens, like a lower one.",
        '**DB-6 (`holder_must_attack`):** "while holding a spade" means a card of the attack suit '
        "(`suits`); jokers are never compulsory.",
        "**DB-8 (`morale_per_token`):** the penalty is that many points per token lost in the clash "
        '(or the battle, with `morale_penalty="battle"`).',
        "**DB-4 (`strike_loss`):** both a declined answer and an unanswerable attack cost `strike_loss` tokens.",
    ),
)


def ruling_book() -> RulingBook:
    """Return the Durak mass battle rulings and their index (DB-1..DB-9): the hook a
    system's record points at."""
    return BOOK
