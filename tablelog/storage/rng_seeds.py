"""The server seeds of committed shuffles (schema `rng_seeds`), read and written inside a
campaign's write transaction, and the players a new request awaits (`access_tokens`)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, insert, select, update

from tablelog.events.envelope import Envelope
from tablelog.storage.rows import EVENT_COLUMNS, envelope_of
from tablelog.storage.schema import access_tokens, events, rng_seeds


@dataclass(frozen=True)
class SeedRow:
    request: str
    seed: bytes
    committed_seq: int
    state: str  # open, drawn, held, revealed
    conflict: str | None = None
    unretired: list[list[str]] | None = None  # held: its draws not shuffled again yet


def keep(conn: Connection, campaign: str, request: str, seed: bytes, committed_seq: int) -> None:
    conn.execute(
        insert(rng_seeds).values(
            campaign_id=campaign,
            request=request,
            seed=seed,
            committed_seq=committed_seq,
            state="open",
        )
    )


def seed_of(conn: Connection, campaign: str, request: str) -> SeedRow | None:
    row = conn.execute(
        select(rng_seeds).where(rng_seeds.c.campaign_id == campaign, rng_seeds.c.request == request)
    ).first()
    return None if row is None else _row(row)


def in_state(conn: Connection, campaign: str, state: str) -> list[SeedRow]:
    rows = conn.execute(
        select(rng_seeds)
        .where(rng_seeds.c.campaign_id == campaign, rng_seeds.c.state == state)
        .order_by(rng_seeds.c.committed_seq)
    )
    return [_row(r) for r in rows]


def _row(row: Any) -> SeedRow:
    unretired = None if row.unretired is None else json.loads(row.unretired)
    return SeedRow(row.request, row.seed, row.committed_seq, row.state, row.conflict, unretired)


def move(
    conn: Connection,
    campaign: str,
    request: str,
    state: str,
    conflict: str | None = None,
    unretired: list[list[str]] | None = None,
) -> None:
    changes: dict[str, str] = {"state": state}
    if conflict is not None:
        changes["conflict"] = conflict
    if unretired is not None:
        changes["unretired"] = json.dumps(unretired)
    conn.execute(
        update(rng_seeds)
        .where(rng_seeds.c.campaign_id == campaign, rng_seeds.c.request == request)
        .values(**changes)
    )


def event_at(conn: Connection, campaign: str, seq: int) -> Envelope:
    row = conn.execute(
        select(*EVENT_COLUMNS).where(events.c.campaign_id == campaign, events.c.seq == seq)
    ).one()
    return envelope_of(row)


def players(conn: Connection, campaign: str) -> list[str]:
    """Every player holding a live token of the campaign (the GM and observers are not
    players), in name order: the order their contributions are hashed in."""
    rows = conn.execute(
        select(access_tokens.c.player)
        .where(
            access_tokens.c.campaign_id == campaign,
            access_tokens.c.role == "player",
            access_tokens.c.revoked_at.is_(None),
        )
        .distinct()
        .order_by(access_tokens.c.player)
    )
    return [str(r[0]) for r in rows]
