"""Access tokens for the service: random, shown once, stored only as SHA-256 digests.

A token belongs to one campaign and one person in it, with a role: `gm` runs the campaign,
`player` acts for its own character, `observer` only reads.
"""

from __future__ import annotations

import hashlib
import secrets
import uuid
from typing import Literal

import msgspec

from tablelog.commands import state
from tablelog.errors import Forbidden, InvalidInput, NotFound, Unauthenticated
from tablelog.events.envelope import Envelope, Pending
from tablelog.rules.common import JoinPlayer
from tablelog.rules.names import new_player_name, player_name
from tablelog.rules.registry import no_shuffle
from tablelog.storage import CampaignHead, EventStore
from tablelog.storage.access import find_token, revoke_tokens

TOKEN_BYTES = 32
ROLES = ("gm", "player", "observer")
Role = Literal["gm", "player", "observer"]


class Caller(msgspec.Struct, frozen=True, kw_only=True):
    """Who is calling the service, as its token says."""

    campaign: str
    player: str
    role: str
    digest: str  # the token's digest: keys remembered responses per caller
    # The campaign's head when the token was checked: a read may start from it.
    head: CampaignHead | None = None

    @property
    def viewer(self) -> str:
        """Whose eyes reads are filtered for: the GM's seat, a player, or nobody's cards."""
        if self.role == "gm":
            return "gm"
        # An observer, or a player token named like the GM's seat (issued before such names
        # were refused), matches no owner: public information only.
        if self.role == "observer" or self.player == "gm":
            return f"observer:{self.player}"
        return self.player


def new_token() -> tuple[str, str]:
    """A fresh token and the digest that is stored in its place."""
    token = secrets.token_urlsafe(TOKEN_BYTES)
    return token, token_digest(token)


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def authenticate(store: EventStore, token: str | None) -> Caller:
    if not token:
        raise Unauthenticated(
            "no access token; send `Authorization: Bearer TOKEN` (the CLI: --access-token or "
            "TABLELOG_TOKEN)",
            code="no-token",
        )
    digest = token_digest(token.strip())
    row = find_token(store, digest)
    if row is None:
        raise Unauthenticated("the access token is not known to this service")
    if row.revoked:
        raise Unauthenticated("the access token was revoked", code="revoked-token")
    return Caller(
        campaign=row.campaign, player=row.player, role=row.role, digest=digest, head=row.head
    )


def require_campaign(caller: Caller, campaign: str) -> None:
    if caller.campaign != campaign:
        raise Forbidden(
            f"the access token is for campaign {caller.campaign}, not {campaign}",
            code="other-campaign",
        )


def _gm_only(caller: Caller | None, doing: str) -> None:
    if caller is not None and caller.role == "observer":
        raise Forbidden(f"{caller.player} is an observer and may only read", code="observer")
    if caller is not None and caller.role != "gm":
        raise Forbidden(
            f"only the GM may {doing}; {caller.player} is a {caller.role}", code="gm-only"
        )


def invite(
    store: EventStore,
    campaign: str,
    player: str,
    role: str = "player",
    *,
    caller: Caller | None = None,
) -> str:
    """A new token for `player` (created as a player of the campaign if new); shown once."""
    _gm_only(caller, "invite")
    if role not in ROLES or (role == "gm" and caller is not None):
        raise InvalidInput(f"--role is player or observer; got {role!r}", code="bad-role")
    name = player_name(player, "player name")
    token, digest = new_token()
    entry = state.entry_for(store, campaign)
    written: list[Envelope] = []
    with entry.lock:
        with store.transaction(campaign) as tx:
            folded = state.load_locked(entry, tx)
            gm_name = getattr(folded.state, "gm", "gm")
            if role == "gm" and name != gm_name:
                # The operator, holding the database, may mint a new token for the GM (after
                # `demo`, or a lost one); the GM's seat cannot be given to someone else.
                raise InvalidInput(
                    f"the GM of campaign {campaign} is {gm_name}; --role gm is only for them",
                    code="bad-role",
                )
            if role == "observer":  # not a player, but never under a name of the rules
                new_player_name(player, gm=gm_name, players={})
            if role == "player":
                # An observer is not a player of the game: no event, only a token.
                events = folded.ruleset.decide(folded.state, JoinPlayer(player=player), no_shuffle)
                gm = getattr(folded.state, "gm", None)
                written = tx.append(
                    [Pending.of(e, actor=gm or "gm", event_id=str(uuid.uuid4())) for e in events]
                ).events
            tx.add_access_token(token_hash=digest, player=name, role=role)
        state.advance(entry, written, None)  # committed: the cached state moves on
    return token


def revoke(store: EventStore, campaign: str, player: str, *, caller: Caller | None = None) -> int:
    """Revoke every live token of `player`; how many were revoked."""
    _gm_only(caller, "revoke access")
    name = player_name(player, "player name")
    with store.transaction(campaign) as tx:
        count = revoke_tokens(tx.connection, campaign=campaign, player=name)
    if count == 0:
        raise NotFound(f"{player} has no live access token in campaign {campaign}", code="no-token")
    return count
