"""Discord's rows beside the log (issue 30): which channel plays which campaign, and the
one-time codes that link a Discord user to a seat. A Discord user's seat itself is its
`player_contacts.discord_id` (storage/notices.py), the same id the turn notices mention.
"""

from __future__ import annotations

from sqlalchemy import delete, insert, select, update
from sqlalchemy.engine import Connection

from tablelog.storage.schema import discord_channels, discord_codes, player_contacts
from tablelog.storage.store import EventStore, now_us


def channel_campaign(store: EventStore, channel_id: str) -> str | None:
    """The campaign bound to a channel, if any."""
    with store.engine.connect() as conn:
        found = conn.execute(
            select(discord_channels.c.campaign_id).where(
                discord_channels.c.channel_id == channel_id
            )
        ).scalar_one_or_none()
    return None if found is None else str(found)


def channels_of(store: EventStore, campaign: str) -> list[str]:
    with store.engine.connect() as conn:
        rows = conn.execute(
            select(discord_channels.c.channel_id)
            .where(discord_channels.c.campaign_id == campaign)
            .order_by(discord_channels.c.channel_id)
        ).scalars()
        return [str(r) for r in rows]


def bind_channel(store: EventStore, channel_id: str, campaign: str) -> str | None:
    """Bind a channel to `campaign`, unless another campaign holds it: that campaign's name
    (nothing written) or None (bound, or already bound to it)."""
    with store.service_rows() as conn:
        held = conn.execute(
            select(discord_channels.c.campaign_id).where(
                discord_channels.c.channel_id == channel_id
            )
        ).scalar_one_or_none()
        if held is not None:
            return None if held == campaign else str(held)
        conn.execute(
            insert(discord_channels).values(
                channel_id=channel_id, campaign_id=campaign, bound_at=now_us()
            )
        )
    return None


def unbind_channel(store: EventStore, channel_id: str) -> bool:
    with store.service_rows() as conn:
        gone = conn.execute(
            delete(discord_channels).where(discord_channels.c.channel_id == channel_id)
        )
    return bool(gone.rowcount)


def seats_of_user(store: EventStore, campaign: str, discord_id: str) -> list[str]:
    """The seats (players' keys, or `gm`) whose contact names this Discord user: one, once
    linked; more only when contacts were set by hand to the same id."""
    with store.engine.connect() as conn:
        rows = conn.execute(
            select(player_contacts.c.player)
            .where(
                player_contacts.c.campaign_id == campaign,
                player_contacts.c.discord_id == discord_id,
            )
            .order_by(player_contacts.c.player)
        ).scalars()
        return [str(r) for r in rows]


def unlink_in(conn: Connection, campaign: str, player: str) -> bool:
    """End a seat's Discord link inside the caller's transaction (a revocation's): whether
    there was one. The contact keeps its address, if any."""
    changed = conn.execute(
        update(player_contacts)
        .where(
            player_contacts.c.campaign_id == campaign,
            player_contacts.c.player == player,
            player_contacts.c.discord_id.is_not(None),
        )
        .values(discord_id=None, updated_at=now_us())
    )
    return bool(changed.rowcount)


def save_code(
    store: EventStore, digest: str, campaign: str, player: str, made_by: str, expires_at: int
) -> None:
    with store.service_rows() as conn:
        # The seat's earlier codes are spent: only the newest one links.
        conn.execute(
            delete(discord_codes).where(
                discord_codes.c.campaign_id == campaign, discord_codes.c.player == player
            )
        )
        conn.execute(
            insert(discord_codes).values(
                digest=digest,
                campaign_id=campaign,
                player=player,
                made_by=made_by,
                expires_at=expires_at,
                created_at=now_us(),
            )
        )


def take_code(store: EventStore, digest: str, now: int) -> tuple[str, str, str] | None:
    """The (campaign, seat, who made it) of a live code, spent by this call (a code links
    once)."""
    with store.service_rows() as conn:
        row = conn.execute(select(discord_codes).where(discord_codes.c.digest == digest)).first()
        if row is None:
            return None
        conn.execute(delete(discord_codes).where(discord_codes.c.digest == digest))
        if int(row.expires_at) <= now:
            return None
        return str(row.campaign_id), str(row.player), str(row.made_by)


def move_user_in(
    conn: Connection, campaign: str, player: str, discord_id: str
) -> tuple[list[str], bool]:
    """Make `discord_id` the Discord user of `player`'s seat, inside the caller's transaction
    (the append of `access.linked`): the other seats of the campaign it acted for lose it
    (their names returned), and whether another account acted for this seat until now."""
    earlier = [
        str(r)
        for r in conn.execute(
            select(player_contacts.c.player).where(
                player_contacts.c.campaign_id == campaign,
                player_contacts.c.discord_id == discord_id,
                player_contacts.c.player != player,
            )
        ).scalars()
    ]
    stamp = now_us()
    if earlier:
        conn.execute(
            update(player_contacts)
            .where(player_contacts.c.campaign_id == campaign, player_contacts.c.player.in_(earlier))
            .values(discord_id=None, updated_at=stamp)
        )
        # A contact with nothing left is no contact (as `save_contact` keeps them).
        conn.execute(
            delete(player_contacts).where(
                player_contacts.c.campaign_id == campaign,
                player_contacts.c.discord_id.is_(None),
                player_contacts.c.email_sealed.is_(None),
            )
        )
    before = conn.execute(
        select(player_contacts.c.discord_id).where(
            player_contacts.c.campaign_id == campaign, player_contacts.c.player == player
        )
    ).first()
    if before is None:
        conn.execute(
            insert(player_contacts).values(
                campaign_id=campaign, player=player, discord_id=discord_id, updated_at=stamp
            )
        )
    else:
        conn.execute(
            update(player_contacts)
            .where(player_contacts.c.campaign_id == campaign, player_contacts.c.player == player)
            .values(discord_id=discord_id, updated_at=stamp)
        )
    replaced = before is not None and before[0] is not None and before[0] != discord_id
    return earlier, replaced
