"""The Ace of Cards' actions on the web page: what the viewer may do at this point of play.

A player acts for its own characters: an action, Magic Cards from its own hand, a Mulligan,
a Trap Card after an enemy's action, the free spell a hit allows, High or Low after a
critical or a fumble, its Checks (called, Double or Nothing declared, rolled). The GM runs
the table (`page_gm`: sessions, characters, HP and MP, conflicts, the enemies' actions,
Checks) and acts for its NPCs like a player. Every action of play carries a probe, so core
code offers it only if the rules would take it now; the choices are the caller's own cards
and characters and the conflict's enemies.

Where the table records its own cards or dice (deck_mode or dice `recorded`), a probe needs
cards drawn: it names the deck's first cards, which the rules accept in any order (a
recorded deck has none). The probe is only tried, never shown, so nothing hidden reaches
the page.
"""

from __future__ import annotations

import itertools

from tablelog.projections.page import Action, Field, role_of
from tablelog.rules.table import GM
from tablelog.rulesets.ace_of_cards.rules import commands as c
from tablelog.rulesets.ace_of_cards.rules.cards import SUITS, is_joker, value_of
from tablelog.rulesets.ace_of_cards.rules.play import MAX_SET, MP_STEP, resolve
from tablelog.rulesets.ace_of_cards.rules.sets import NAMES, STATUSES, fits
from tablelog.rulesets.ace_of_cards.rules.state import AceState, Character, Conflict, Pile
from tablelog.rulesets.ace_of_cards.views.page_gm import call_check, gm_conflict, gm_table
from tablelog.rulesets.ace_of_cards.views.page_panels import pretty
from tablelog.rulesets.ace_of_cards.views.page_setup import player_setup
from tablelog.rulesets.ace_of_cards.views.visibility import owner

_TEXT = "…"  # what a probe says where the person will write their own words


def actions(state: AceState, viewer: str | None) -> list[Action]:
    seen = viewer or GM
    role = role_of(seen)
    if role == "observer":
        return []
    found: list[Action] = gm_table(state) if role == "gm" else []
    mine = [who for key, who in sorted(state.characters.items()) if owner(state, key) == seen]
    if role == "player":
        found += player_setup(state, seen, mine)
    for conflict in state.open_conflicts():
        inside = [who for who in mine if who.key in conflict.party]
        for who in inside:
            found += _character_actions(state, conflict, who, gm=role == "gm")
        if role == "gm":
            found += gm_conflict(state, conflict)
        elif inside:  # a player calls its own characters' Checks (the GM anyone's)
            found.append(call_check(conflict, [who.key for who in inside], gm=False))
    return found


def _hand_choice(name: str, label: str, pile: Pile, *, kind: str = "list") -> Field:
    return Field(
        name=name,
        label=label,
        kind="list" if kind == "list" else "choice",
        choices=list(pile.hand),
        shown=[pretty(card) for card in pile.hand],
    )


def _drawn(state: AceState) -> list[Field]:
    if state.options.deck_mode != "recorded":
        return []
    return [Field(name="drawn", label="cards drawn (as the table drew them)", kind="list")]


def _recorded(state: AceState, pile: Pile, count: int) -> list[str] | None:
    """Cards drawn for a probe of a recorded deck (any of the deck's cards will do)."""
    if state.options.deck_mode != "recorded":
        return None
    return list((pile.deck + pile.discard)[:count])


def _character_actions(
    state: AceState, conflict: Conflict, who: Character, *, gm: bool
) -> list[Action]:
    key = conflict.key
    fixed = {"conflict": key, "character": who.key}
    found = [
        Action(
            command=c.TakeAction,
            title=f"{who.display} acts",
            fields=[
                Field(name="text", label="what the action does"),
                Field(name="visible", label="seen by the enemies", kind="flag", default=True),
            ],
            fixed={"conflict": key, "actor": who.key},
            probe=c.TakeAction(conflict=key, actor=who.key, text=_TEXT),
            conflict=key,
            gm=gm,
        )
    ]
    found += _check_actions(state, conflict, who, gm=gm)
    pile = who.pile
    if pile is None:
        return found
    if who.owes_discard is not None:  # High or Low: nothing else until the discard
        return [
            *found,
            Action(
                command=c.HighOrLowDiscard,
                title=f"High or Low: {who.display} discards 1 card",
                fields=[_hand_choice("card", "card", pile, kind="choice")],
                fixed=fixed,
                probe=c.HighOrLowDiscard(conflict=key, character=who.key, card=pile.hand[0])
                if pile.hand
                else None,
                conflict=key,
                gm=gm,
            ),
        ]
    found.append(_magic_cards(state, conflict, who, pile, gm=gm))
    if who.free_attack is not None:
        found.append(_free_attack(conflict, who, gm=gm))
    found.append(
        Action(
            command=c.Mulligan,
            title=f"Mulligan: {who.display} discards and draws as many",
            fields=[
                _hand_choice("cards", f"cards (up to SL {who.sl('mulligan')})", pile),
                *_drawn(state),
            ],
            fixed=fixed,
            probe=c.Mulligan(
                conflict=key,
                character=who.key,
                cards=pile.hand[:1],
                drawn=_recorded(state, pile, 1),
            ),
            conflict=key,
            gm=gm,
        )
    )
    suits = sorted(who.suit_types or {}, key=list(SUITS).index)
    found.append(
        Action(
            command=c.TrapCard,
            title=f"Trap Card: {who.display} names a suit",
            fields=[
                Field(
                    name="suit",
                    label="suit",
                    kind="choice",
                    choices=suits,
                    shown=[f"{SUITS[s]} ({(who.suit_types or {})[s]})" for s in suits],
                ),
                *(
                    [Field(name="card", label="the deck's bottom card")]
                    if state.options.deck_mode == "recorded"
                    else []
                ),
            ],
            fixed=fixed,
            probe=c.TrapCard(
                conflict=key,
                character=who.key,
                suit=suits[0] if suits else "C",
                card=pile.deck[-1] if state.options.deck_mode == "recorded" and pile.deck else None,
            ),
            conflict=key,
            gm=gm,
        )
    )
    found.append(
        Action(
            command=c.FreeSpell,
            title=f"{who.display}'s free spell (Trap Card hit)",
            fields=[
                Field(name="spell", label="spell"),
                Field(
                    name="mp", label=f"MP cost (at most {who.sl('trap_card') * 5})", kind="number"
                ),
            ],
            fixed=fixed,
            probe=c.FreeSpell(conflict=key, character=who.key, spell=_TEXT, mp=0),
            conflict=key,
            gm=gm,
        )
    )
    found.append(
        Action(
            command=c.HighOrLowDraw,
            title=f"High or Low: {who.display} draws 1 card",
            fields=[Field(name="card", label="card drawn")]
            if state.options.deck_mode == "recorded"
            else [],
            fixed=fixed,
            probe=c.HighOrLowDraw(
                conflict=key,
                character=who.key,
                card=next(iter(_recorded(state, pile, 1) or []), None),
            ),
            conflict=key,
            gm=gm,
        )
    )
    return found


def _magic_cards(
    state: AceState, conflict: Conflict, who: Character, pile: Pile, *, gm: bool
) -> Action:
    """Magic Cards: MP in steps of 5 up to the skill's cap, cards from the Ace's own hand.
    The probe spends the least MP on two cards of different values, a set with no effect
    (confirmed: `anyway`), which asks no further choice: whether the Ace may play cards now
    is what it tests. A set matching no effect is refused until the form's box `anyway` is
    ticked, so the form says so before anything is spent; when no set this hand can pay for
    matches any effect, its title says that at once."""
    key = conflict.key
    cap = min(10 + MP_STEP * who.sl("magic_cards"), MP_STEP * MAX_SET)
    plain = [card for card in pile.hand if not is_joker(card)]
    pair = next(
        ([a, b] for i, a in enumerate(plain) for b in plain[i + 1 :] if value_of(a) != value_of(b)),
        pile.hand[:2],
    )
    types = sorted(set((who.suit_types or {}).values()))
    matched = _matchable(state, pile.hand, min(cap, who.mp) // MP_STEP)
    warning = "" if matched else f" ({NO_SET})"
    fields = [
        Field(
            name="mp",
            label=f"MP spent: 10 to {cap}, 1 card per 5",
            kind="number",
            default=2 * MP_STEP,
        ),
        _hand_choice("cards", "cards resolved", pile),
    ]
    if any(is_joker(card) for card in pile.hand):
        fields.append(
            Field(
                name="jokers", label="each joker as a card (JK1=5H)", kind="pairs", required=False
            )
        )
    fields += [
        Field(
            name="set",
            label="set (when it fits several)",
            kind="choice",
            choices=list(NAMES),
            shown=list(NAMES.values()),
            required=False,
        ),
        Field(
            name="targets",
            label="targets (Double Trouble)",
            kind="list",
            choices=list(conflict.enemies),
            required=False,
        ),
        Field(
            name="damage_type",
            label="damage type (Double Trouble, Magic Pair)",
            kind="choice",
            choices=types,
            required=False,
        ),
        Field(
            name="statuses",
            label="statuses (Full Status: 2)",
            kind="list",
            choices=list(STATUSES),
            required=False,
        ),
        Field(
            name="anyway",
            label=f"play it anyway {NO_EFFECT} (its MP and cards spent for nothing)",
            kind="flag",
        ),
        *_drawn(state),
    ]
    return Action(
        command=c.UseMagicCards,
        title=f"Magic Cards: {who.display} resolves a set{warning}",
        fields=fields,
        fixed={"conflict": key, "character": who.key},
        preview="public",  # the set's effect, or that it matches none, before MP are spent
        probe=c.UseMagicCards(
            conflict=key,
            character=who.key,
            mp=2 * MP_STEP,
            cards=pair,
            drawn=_recorded(state, pile, 2),
            anyway=True,
        ),
        conflict=key,
        gm=gm,
    )


def _check_actions(
    state: AceState, conflict: Conflict, who: Character, *, gm: bool
) -> list[Action]:
    """The character's Checks not rolled yet: Double or Nothing, then the roll."""
    key = conflict.key
    recorded = state.options.dice == "recorded"
    found = []
    for check in conflict.checks.values():
        if check.character_id != who.key or check.values is not None:
            continue
        fixed = {"conflict": key, "check": check.check_id}
        dice = " + ".join(f"d{size}" for size in check.sizes)
        found.append(
            Action(
                command=c.DeclareDoubleOrNothing,
                title=f"Double or Nothing on {who.display}'s check {check.check_id}",
                fixed=fixed,
                probe=c.DeclareDoubleOrNothing(conflict=key, check=check.check_id),
                conflict=key,
                gm=gm,
            )
        )
        fields = [Field(name="values", label=f"faces rolled ({dice})", kind="numbers")]
        if check.kind == "clock":
            fields.append(
                Field(name="opportunity_on_clock", label="opportunity on the Clock", kind="flag")
            )
        found.append(
            Action(
                command=c.RollCheck,
                title=f"Roll {who.display}'s check {check.check_id} ({dice}, DL {check.dl})",
                fields=fields if recorded else fields[1:],
                fixed=fixed,
                probe=c.RollCheck(
                    conflict=key, check=check.check_id, values=[1, 1] if recorded else None
                ),
                conflict=key,
                gm=gm,
            )
        )
    return found


NO_EFFECT = "if this set matches no effect"
NO_SET = "no set of this hand matches an effect"


def _matchable(state: AceState, hand: list[str], most: int) -> bool:
    """Whether some set of 2 to `most` cards of `hand` matches an effect. A joker with any
    other card is a Magic Pair (it takes that card's value), so only a hand without one is
    searched: at most 26 sets of its 5 cards."""
    if most < 2 or len(hand) < 2:
        return False
    if any(is_joker(card) for card in hand):
        return True
    rule = state.options.same_value_groups
    return any(
        fits(resolve(list(cards), []), rule)
        for size in range(2, min(most, MAX_SET, len(hand)) + 1)
        for cards in itertools.combinations(hand, size)
    )


def _free_attack(conflict: Conflict, who: Character, *, gm: bool) -> Action:
    """A Magic Pair's free attack: an Accuracy Check with an equipped weapon, called like any
    other (Double or Nothing may be declared), its damage of the pair's chosen type."""
    key = conflict.key
    return Action(
        command=c.CallCheck,
        title=f"Magic Pair: {who.display}'s free attack (an Accuracy Check)",
        fields=[
            Field(name="dice", label="two dice (the weapon's, e.g. 8 10)", kind="numbers"),
            Field(name="dl", label="the target's Defense", kind="number"),
            Field(name="modifier", label="modifier", kind="number", required=False),
            Field(name="damage", label="the weapon's fixed damage (HR +)", kind="number"),
            Field(
                name="target",
                label="target",
                kind="choice",
                choices=list(conflict.enemies),
                required=False,
            ),
            Field(name="double", label="Double or Nothing", kind="flag"),
        ],
        fixed={"conflict": key, "character": who.key, "kind": "accuracy", "free_attack": True},
        probe=c.CallCheck(
            conflict=key,
            character=who.key,
            kind="accuracy",
            dice=[6, 6],
            dl=10,
            free_attack=True,
        ),
        conflict=key,
        gm=gm,
    )
