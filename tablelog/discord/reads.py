"""The core subcommands that read: `/tl hand`, `state`, `waiting`, `show CONFLICT`, each
answered to the caller alone (ephemeral), from the caller's own view (an unlinked user's is
an observer's)."""

from __future__ import annotations

import msgspec

from tablelog.cli.table import state_lines
from tablelog.commands import state
from tablelog.commands.access import Caller
from tablelog.commands.database import EventStore
from tablelog.commands.page import panels
from tablelog.commands.reads import show
from tablelog.commands.table import state_view_of
from tablelog.commands.waiting import oldest_first, waiting_in
from tablelog.projections.page import Card, Panel
from tablelog.projections.post_escape import escape_discord


def state_read(store: EventStore, campaign: str, caller: Caller) -> list[str]:
    # With the head, the view is the one kept for this viewer until the campaign moves.
    view = state_view_of(store, campaign, caller.viewer, head=store.head(campaign))
    return state_lines(view)


def waiting_read(store: EventStore, campaign: str, caller: Caller) -> list[str]:
    found = oldest_first(waiting_in(store, campaign, notices=caller.role == "gm"))
    if not found:
        return ["no step waits on anyone"]
    lines = []
    for w in found:
        who = f"{w.player} (GM)" if w.gm else w.player
        if w.character:
            who += f" for {w.character}"
        what = f"may {w.what}" if w.optional else w.what
        where = f" ({w.conflict})" if w.conflict else ""
        lines.append(f"{who}: {what}{where}, since {w.since.replace('T', ' ')}")
    return [escape_discord(line) for line in lines]


def show_read(store: EventStore, campaign: str, caller: Caller, conflict: str) -> list[str]:
    return show(store, campaign, conflict, caller.viewer).lines


def _card(card: Card) -> str:
    face = card.face or "face down"
    extra = f" ({card.note})" if card.note else ""
    label = f"{card.label}: " if card.label else ""
    return f"{label}{face}{extra}"


def _cards(cards: list[Card]) -> str:
    """Cards in a row; a label they all share ("in your hand") said once."""
    labels = {c.label for c in cards}
    if len(labels) == 1 and len(cards) > 1:
        (label,) = labels
        bare = [msgspec.structs.replace(c, label="") for c in cards]
        return (f"{label}: " if label else "") + ", ".join(_card(c) for c in bare)
    return ", ".join(_card(c) for c in cards)


def _panel_lines(panel: Panel) -> list[str]:
    lines = [f"{panel.title}:"]
    if panel.cards:
        lines.append("  " + _cards(panel.cards))
    lines += [f"  {label}: {value}" for label, value in panel.facts]
    lines += [f"  {line}" for line in panel.lines]
    if panel.grid is not None:
        lines.append("  " + " | ".join(panel.grid.header))
        for row in panel.grid.rows:
            lines.append("  " + " | ".join(_cell(c) for c in row))
    return lines


def _cell(cell: object) -> str:
    if isinstance(cell, list):
        return ", ".join(_card(c) if isinstance(c, Card) else str(c) for c in cell)
    return str(cell)


def _mine(panel: Panel) -> list[Card]:
    cards = [c for c in panel.cards if c.mine]
    for row in panel.grid.rows if panel.grid is not None else []:
        for cell in row:
            if isinstance(cell, list):
                cards += [c for c in cell if isinstance(c, Card) and c.mine]
    return cards


def _content(panel: Panel) -> object:
    """What a panel shows, not how it words the outcome for its viewer ("You won")."""
    return msgspec.to_builtins([panel.facts, panel.grid, panel.cards, panel.lines])


def hand_read(store: EventStore, campaign: str, caller: Caller) -> list[str]:
    """What only the caller sees, for any ruleset: each panel of the caller's page that an
    observer's page has not (a hand, a deck), the caller's own cards on the others (a card
    played face down), and any other panel the caller sees more of (a pool bought, not yet
    rolled)."""
    if caller.role == "observer":
        return ["you hold no seat here, so nothing is yours to see alone (`/tl link CODE`)"]
    with state.reading(store, campaign) as folded:
        own = panels(folded, caller.viewer)
        public = {p.key: _content(p) for p in panels(folded, "observer:")}
    lines: list[str] = []
    for panel in own:
        if panel.key not in public:
            lines += _panel_lines(panel)
        elif mine := _mine(panel):
            lines += [f"{panel.title}:", "  " + _cards(mine)]
        elif _content(panel) != public[panel.key]:
            lines += _panel_lines(panel)
    found = [_escaped(line) for line in lines]
    return found or ["nothing on this table is yours alone to see"]


def _escaped(line: str) -> str:
    """A line escaped for Discord, its indent kept (an item under its panel's title)."""
    text = line.lstrip(" ")
    return line[: len(line) - len(text)] + escape_discord(text)
