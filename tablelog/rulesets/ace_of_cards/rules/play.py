"""An Ace's cards in play: Magic Cards (a set resolved for MP), Mulligan, Trap Card and its
free spell, and High or Low. Each check below is a rule of rules/ace-of-cards.md, refused
with a stable code and one sentence naming the rule, the value and the limit."""

from __future__ import annotations

from tablelog.errors import InvalidInput, RuleViolation
from tablelog.events.base import Event
from tablelog.rules.text import text_of
from tablelog.rulesets.ace_of_cards import events as ev
from tablelog.rulesets.ace_of_cards.rules import commands as c
from tablelog.rulesets.ace_of_cards.rules import flow
from tablelog.rulesets.ace_of_cards.rules import sets as s
from tablelog.rulesets.ace_of_cards.rules.cards import (
    Resolved,
    card_code,
    is_joker,
    suit_letter,
    suit_of,
    value_of,
)
from tablelog.rulesets.ace_of_cards.rules.deck import Plan, Shuffle, draw, drawable, pick
from tablelog.rulesets.ace_of_cards.rules.effects import effect_of
from tablelog.rulesets.ace_of_cards.rules.state import AceState, Character, Conflict

MP_STEP = 5
MAX_SET = 5  # "to a maximum of 5 cards", whatever the SL a campaign's options allow
JOKER_RULE = "joker needs a value 1-7 and one of the deck's suits"


def _not_owing(who: Character) -> None:
    if who.owes_discard is not None:
        raise RuleViolation(
            f"High or Low: {who.display} drew a card and must discard 1 card first",
            code="discard-owed",
        )


def _mp(who: Character, needed: int) -> None:
    if needed > who.mp:
        raise RuleViolation(f"not enough MP: {needed} needed, {who.mp} left", code="not-enough-mp")


def _jokers(cards: list[str], given: dict[str, str]) -> list[ev.JokerAs]:
    """Each joker of the set as the suit and value its owner chose."""
    in_set = [card for card in cards if is_joker(card)]
    chosen: dict[str, ev.JokerAs] = {}
    for text, as_text in given.items():
        code = card_code(text)
        if code == "JK":
            if len(in_set) != 1:
                raise InvalidInput(
                    f"the set holds {len(in_set)} jokers; name each (JK1=5H)", code="joker-choice"
                )
            code = in_set[0]
        if code not in in_set:
            raise InvalidInput(f"{code} is not among the resolved cards", code="joker-choice")
        try:
            as_card = card_code(as_text)
        except InvalidInput:
            as_card = "JK"
        if is_joker(as_card):
            raise RuleViolation(f"{JOKER_RULE}; {as_text.strip()!r} given", code="joker-choice")
        chosen[code] = ev.JokerAs(card=code, suit=suit_of(as_card), value=value_of(as_card))
    for code in in_set:
        if code not in chosen:
            raise RuleViolation(
                f"{JOKER_RULE}; {code} has none (e.g. {code}=5H)", code="joker-choice"
            )
    return [chosen[code] for code in in_set]


def resolve(cards: list[str], jokers: list[ev.JokerAs]) -> list[Resolved]:
    """The set's cards as resolved: a joker as its chosen suit and value."""
    chosen = {j.card: j for j in jokers}
    found = []
    for card in cards:
        j = chosen.get(card)
        if j is not None:
            found.append(Resolved(card, j.value, j.suit, True))
        else:
            found.append(Resolved(card, value_of(card), suit_of(card)))
    return found


def choose_set(
    fitting: list[str], named: str | None, resolved: list[Resolved], rule: str
) -> str | None:
    """The effect applied: the only one the set fits, the Ace's choice among several, none."""
    if named is None:
        if len(fitting) > 1:
            names = " and ".join(s.NAMES[f] for f in fitting)
            raise RuleViolation(f"set fits {names}: choose one", code="choose-set")
        return fitting[0] if fitting else None
    key = s.set_key(named)
    if key is None:
        raise InvalidInput(
            f"{named.strip()!r} is not a set; the sets are {', '.join(s.NAMES.values())}",
            code="unknown-set",
        )
    if key not in fitting:
        code, reason = s.why_not(key, resolved, rule)
        raise RuleViolation(reason, code=code)
    return key


def no_effect(mp: int, cards: list[str]) -> str:
    """What a set matching no effect costs, said before it is played (it is legal: option
    no_effect=spent); the command refuses it until it is confirmed (`anyway`)."""
    return (
        f"this set matches no effect: {' '.join(cards)} would spend {mp} MP and "
        f"{len(cards)} cards for nothing; play it anyway (`--anyway`) or choose other cards"
    )


def magic_limits(
    state: AceState, conflict: str | None, character: str, mp: int, given: list[str]
) -> tuple[Conflict, Character, list[str]]:
    """Magic Cards' limits (the skill, MP in steps of 5 up to 10 + 5 x SL and at most 5
    cards, the MP left, the cards in hand): the command and the audit check them alike.
    Returns the conflict, the Ace and the cards as resolved from its hand."""
    found, who, pile = flow.ace(state, conflict, character)
    _not_owing(who)
    sl = flow.skill(who, "magic_cards", "Magic Cards")
    cap = min(10 + MP_STEP * sl, MP_STEP * MAX_SET)
    if mp % MP_STEP:
        raise RuleViolation(f"{mp} MP is not a multiple of 5", code="mp-step")
    if not 10 <= mp <= cap:
        raise RuleViolation(
            f"Magic Cards at SL {sl} takes 10-{cap} MP in steps of 5; got {mp}",
            code="mp-range",
        )
    _mp(who, mp)
    count = mp // MP_STEP
    if count > len(pile.hand):
        raise RuleViolation(
            f"{mp} MP resolves {count} cards; the hand holds {len(pile.hand)}",
            code="hand-short",
        )
    if len(given) != count:
        raise RuleViolation(
            f"{mp} MP resolves exactly {count} cards; {len(given)} given", code="card-count"
        )
    return found, who, pick(given, pile.hand, "hand")


def use_magic_cards(state: AceState, cmd: c.UseMagicCards, shuffle: Shuffle) -> list[Event]:
    found, who, cards = magic_limits(state, cmd.conflict, cmd.character, cmd.mp, cmd.cards)
    count = len(cards)
    jokers = _jokers(cards, cmd.jokers)
    resolved = resolve(cards, jokers)
    fitting = s.fits(resolved, state.options.same_value_groups)
    chosen = choose_set(fitting, cmd.set, resolved, state.options.same_value_groups)
    if chosen is None and not cmd.anyway:
        raise RuleViolation(no_effect(cmd.mp, cards), code="no-effect")
    plan = Plan(state, shuffle)
    plan.add(
        ev.MagicCardsUsed(
            conflict=found.key,
            character_id=who.key,
            mp_spent=cmd.mp,
            cards=cards,
            jokers=jokers,
            set=chosen,
            fits=fitting,
        )
    )
    if chosen is not None:
        plan.add(
            effect_of(
                plan.state,
                plan.state.conflicts[found.key],
                who.key,
                chosen,
                resolved,
                targets=cmd.targets,
                damage_type=cmd.damage_type,
                statuses=cmd.statuses,
            )
        )
    elif cmd.targets or cmd.damage_type or cmd.statuses:
        raise InvalidInput("the set matches no effect: it takes no choices", code="no-choice")
    plan.add(ev.CardsDiscarded(conflict=found.key, character_id=who.key, cards=cards, reason="set"))
    draw(plan, found.key, who.key, count, cmd.drawn, "set_refill")
    return plan.events


def mulligan_limits(who: Character, count: int) -> None:
    """Mulligan's limits (the skill, 1 to SL cards, once a turn): the command and the audit
    check them alike."""
    _not_owing(who)
    sl = flow.skill(who, "mulligan", "Mulligan")
    if not count:
        raise InvalidInput("Mulligan discards at least 1 card; none given", code="card-count")
    if count > sl:
        raise RuleViolation(
            f"Mulligan allows at most SL ({sl}) cards; {count} given", code="mulligan-limit"
        )
    if who.mulligan_done:
        raise RuleViolation(
            f"Mulligan comes once, at the end of your turn; {who.display} has taken no "
            "action since the last",
            code="mulligan-used",
        )


def mulligan(state: AceState, cmd: c.Mulligan, shuffle: Shuffle) -> list[Event]:
    found, who, pile = flow.ace(state, cmd.conflict, cmd.character)
    mulligan_limits(who, len(cmd.cards))
    cards = pick(cmd.cards, pile.hand, "hand")
    plan = Plan(state, shuffle)
    plan.add(
        ev.CardsDiscarded(conflict=found.key, character_id=who.key, cards=cards, reason="mulligan")
    )
    drawn = draw(plan, found.key, who.key, len(cards), cmd.drawn, "mulligan")
    plan.add(
        ev.MulliganTaken(conflict=found.key, character_id=who.key, discarded=cards, drawn=drawn)
    )
    return plan.events


def trap_card(state: AceState, cmd: c.TrapCard) -> list[Event]:
    found, who, pile = flow.ace(state, cmd.conflict, cmd.character)
    _not_owing(who)
    flow.skill(who, "trap_card", "Trap Card")
    rule = "Trap Card needs a resolved action by an enemy you can see"
    if not found.actions:
        raise RuleViolation(f"{rule}; conflict {found.key} has no action yet", code="no-trigger")
    latest = found.actions[-1]
    if cmd.action is not None and cmd.action.strip().lower() != latest.action_id:
        raise RuleViolation(
            f"Trap Card answers an action as it resolves: the latest ({latest.action_id}); "
            f"{cmd.action.strip()} given",
            code="not-latest",
        )
    if not latest.enemy:
        raise RuleViolation(
            f"{rule}; {latest.action_id} is {latest.actor}'s, no enemy's", code="no-trigger"
        )
    if not latest.visible:
        raise RuleViolation(
            f"{rule}; {latest.actor} could not be seen in {latest.action_id}", code="no-trigger"
        )
    if latest.action_id in who.trapped:
        raise RuleViolation(
            f"{who.display} has already answered {latest.action_id} with a Trap Card",
            code="trap-used",
        )
    if not pile.deck:
        raise RuleViolation(
            "Trap Card is not usable while the deck is empty; 0 cards in it", code="deck-empty"
        )
    suit = suit_letter(cmd.suit)
    if state.options.deck_mode == "recorded":
        if cmd.card is None:
            raise InvalidInput(
                "the deck is recorded from the table (option deck_mode=recorded): give the "
                "card at the bottom of the deck",
                code="draw-count",
            )
        card = pick([cmd.card], pile.deck, "the deck")[0]
    else:
        if cmd.card is not None:
            raise InvalidInput(
                "the deck is managed by tablelog (option deck_mode=managed): its bottom card "
                "is not given",
                code="managed-deck",
            )
        card = pile.deck[-1]
    hit = is_joker(card) or suit_of(card) == suit
    return [
        ev.TrapCardRevealed(
            conflict=found.key,
            character_id=who.key,
            trigger_action_id=latest.action_id,
            named_suit=suit,
            card=card,
            hit=hit,
        )
    ]


def free_spell(state: AceState, cmd: c.FreeSpell) -> list[Event]:
    found, who, _pile = flow.ace(state, cmd.conflict, cmd.character)
    sl = flow.skill(who, "trap_card", "Trap Card")
    if who.trap_window is None:
        raise RuleViolation(
            f"a free spell follows at once a Trap Card that hit; {who.display} has none pending",
            code="no-trap-hit",
        )
    if not 0 <= cmd.mp <= sl * MP_STEP:
        raise RuleViolation(
            f"free spell costs {cmd.mp} MP; limit is SL x 5 = {sl * MP_STEP}",
            code="spell-cost",
        )
    _mp(who, cmd.mp)
    spell = text_of(cmd.spell, "the spell")
    return [ev.FreeSpellCast(conflict=found.key, character_id=who.key, spell=spell, mp_cost=cmd.mp)]


def high_or_low_draw(state: AceState, cmd: c.HighOrLowDraw, shuffle: Shuffle) -> list[Event]:
    found, who, pile = flow.ace(state, cmd.conflict, cmd.character)
    _not_owing(who)
    flow.class_skill(state, who, "high_or_low")
    if who.high_or_low is None:
        raise RuleViolation(
            f"High or Low needs a critical success or a fumble; {who.display} has none pending",
            code="no-high-or-low",
        )
    if not drawable(pile, 1):
        raise RuleViolation(
            "High or Low draws 1 card; the deck and discard pile are empty", code="deck-empty"
        )
    plan = Plan(state, shuffle)
    draw(plan, found.key, who.key, 1, None if cmd.card is None else [cmd.card], "high_or_low")
    return plan.events


def high_or_low_discard(state: AceState, cmd: c.HighOrLowDiscard) -> list[Event]:
    found, who, pile = flow.ace(state, cmd.conflict, cmd.character)
    if who.owes_discard is None or who.drew is None:
        raise RuleViolation(
            f"High or Low discards after its draw; {who.display} has drawn none",
            code="no-discard-owed",
        )
    card = pick([cmd.card], pile.hand, "hand")[0]
    return [
        ev.CardsDiscarded(
            conflict=found.key, character_id=who.key, cards=[card], reason="high_or_low"
        ),
        ev.HighOrLowUsed(
            conflict=found.key,
            character_id=who.key,
            check_id=who.owes_discard,
            drawn=who.drew,
            discarded=card,
        ),
    ]
