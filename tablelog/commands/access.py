"""Access tokens for the service: random, shown once, stored only as SHA-256 digests.

A token belongs to one campaign and one person in it, with a role: `gm` runs the campaign,
`player` acts for its own character, `observer` only reads.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import uuid
from typing import Literal, NamedTuple
from urllib.parse import quote

import msgspec

from tablelog.commands import ended, state
from tablelog.commands.session_policy import SECOND_US, SessionPolicy, session_ended
from tablelog.errors import AlreadyExists, Forbidden, InvalidInput, NotFound, Unauthenticated
from tablelog.events.base import Event
from tablelog.events.core import AccessReissued, AccessRevoked
from tablelog.events.envelope import Envelope, Pending
from tablelog.rules.common import JoinPlayer
from tablelog.rules.names import new_player_name, player_name
from tablelog.rules.registry import no_shuffle
from tablelog.storage import CampaignHead, EventStore
from tablelog.storage.access import (
    find_service_token,
    find_token,
    holders,
    live_tokens,
    revoke_token,
    revoke_tokens,
    touch_session,
)
from tablelog.storage.discord import unlink_in

TOKEN_BYTES = 32
ROLES = ("gm", "player", "observer")
# How a token may be used: `token` as a bearer token (the CLI, scripts); `link` once, traded
# by the web page for a `session`, which only a browser's cookie carries.
KINDS = ("token", "link", "session")
Role = Literal["gm", "player", "observer"]


class Caller(msgspec.Struct, frozen=True, kw_only=True):
    """Who is calling the service, as its token says."""

    campaign: str
    player: str
    role: str
    digest: str  # the token's digest: keys remembered responses per caller
    # The campaign's head when the token was checked: a read may start from it.
    head: CampaignHead | None = None
    # A web session's last use as recorded when it was checked (see `record_use`).
    used_at: int | None = None

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


def authenticate(
    store: EventStore, token: str | None, kind: str = "token", policy: SessionPolicy | None = None
) -> Caller:
    """The caller a token of `kind` names (a bearer token, or a browser's session, which
    `policy` may have ended for its age: refused like a revoked one)."""
    if not token:
        raise Unauthenticated(
            "no access token; send `Authorization: Bearer TOKEN` (the CLI: --access-token or "
            "TABLELOG_TOKEN)",
            code="no-token",
        )
    digest = token_digest(token.strip())
    row = find_token(store, digest)
    if row is None:
        if find_service_token(store, digest) is not None:  # a second read for a miss only
            raise Forbidden(
                "this is the service's admin token: it creates campaigns, and opens none; a "
                "campaign's commands take a token of that campaign",
                code="admin-token",
            )
        raise Unauthenticated("the access token is not known to this service")
    if row.kind != kind:
        if row.kind == "link":
            raise Unauthenticated(
                "this token belongs to a sign-in link: open the link in a browser",
                code="link-token",
            )
        raise Unauthenticated("the access token is not known to this service")
    if row.revoked:  # saying why: a page signed out by a re-issue tells its reader (ended.py)
        if row.kind == "session":
            raise Unauthenticated(
                ended.session_refusal(row.why, row.player, row.why_seq), code="revoked-token"
            )
        raise Unauthenticated(
            ended.token_refusal(row.why, row.player, row.why_seq), code="revoked-token"
        )
    used_at = None
    if row.kind == "session":
        session_ended(row, policy or SessionPolicy())
        used_at = row.created_at if row.used_at is None else row.used_at
    return Caller(
        campaign=row.campaign,
        player=row.player,
        role=row.role,
        digest=digest,
        head=row.head,
        used_at=used_at,
    )


def use_due(caller: Caller, policy: SessionPolicy) -> bool:
    """Whether this request should record its session's use (at most once a minute)."""
    return caller.used_at is not None and policy.clock() - caller.used_at >= policy.touch_us


def record_use(store: EventStore, caller: Caller, policy: SessionPolicy) -> bool:
    """Record that a web session was used now (when `use_due`); whether it wrote."""
    if not use_due(caller, policy):
        return False
    return touch_session(store, caller.digest, policy.clock(), policy.touch_us)


class Watched(NamedTuple):
    """What a campaign's live feeds follow: its head, the digests of its live tokens, and
    when (microseconds UTC) the first of its live sessions ends for its age, if one does
    before anything else changes (None: no session)."""

    head: CampaignHead | None
    live: frozenset[str]
    next_end: int | None


def watched(store: EventStore, campaign: str, policy: SessionPolicy | None = None) -> Watched:
    """A campaign's head and its live tokens (sessions `policy` ended for their age are
    not)."""
    kept = policy or SessionPolicy()
    idle_before, born_before = kept.cutoffs()
    live = live_tokens(store, campaign, idle_before=idle_before, born_before=born_before)
    ends = []
    if live.oldest_use is not None:
        ends.append(live.oldest_use + int(kept.idle_s * SECOND_US))
    if live.oldest_sign_in is not None:
        ends.append(live.oldest_sign_in + int(kept.max_s * SECOND_US))
    return Watched(store.head(campaign), live.digests, min(ends, default=None))


def require_campaign(caller: Caller, campaign: str) -> None:
    if caller.campaign != campaign:
        raise Forbidden(
            f"the access token is for campaign {caller.campaign}, not {campaign}",
            code="other-campaign",
        )


def gm_only(caller: Caller | None, doing: str) -> None:
    if caller is not None and caller.role == "observer":
        raise Forbidden(f"{caller.player} is an observer and may only read", code="observer")
    if caller is not None and caller.role != "gm":
        raise Forbidden(
            f"only the GM may {doing}; {caller.player} is a {caller.role}", code="gm-only"
        )


class Invited(msgspec.Struct, frozen=True, kw_only=True):
    """A token handed out (shown once), and whether it replaced earlier ones."""

    token: str
    player: str
    role: str
    # A re-issue: every earlier token of `player` stopped working (`revoked` were still
    # live), and the log says so at `seq` for everyone.
    reissued: bool = False
    revoked: int = 0
    seq: int | None = None


def invite(
    store: EventStore,
    campaign: str,
    player: str,
    role: str = "player",
    *,
    caller: Caller | None = None,
) -> str:
    """A new token for `player` (created as a player of the campaign if new); shown once.
    See `grant`, which also says whether it was a re-issue."""
    return grant(store, campaign, player, role, caller=caller).token


def grant(
    store: EventStore,
    campaign: str,
    player: str,
    role: str = "player",
    *,
    caller: Caller | None = None,
    link: bool = False,
    replace: bool = False,
    reissue: bool = True,
) -> Invited:
    """A new access token for `player`, shown once (`link`: a sign-in link's, which a
    browser trades once for a session; see `open_session`).

    A signed-in caller asking for itself adds a device: a token of its own role, nothing
    else changes. Otherwise only the GM (through the service) or the operator (`caller`
    None, on the database) invites: a new player joins the campaign (an observer only gets a
    token); someone who has held a token here before gets the new one *in place of* every
    earlier one, which stop working, and an `access.reissued` event tells everyone. So no
    one holds a second working token of another's seat unseen. `reissue` False refuses that
    instead (`seat-held`: the page asks the GM first).

    The GM's seat is the exception: a sign-in link the operator asks for the GM adds a
    device (the GM's CLI token and other browsers keep working; the GM's sessions list shows
    it) unless `replace` asks for a re-issue. A bearer token for the GM is a re-issue, as
    for anyone: a lost token must stop working.
    """
    name = player_name(player, "player name")
    if caller is not None and caller.player == name:
        return _another_device(store, campaign, caller, role, link)
    gm_only(caller, "invite")
    if caller is None and role == "gm" and link and not replace:
        return _gm_device(store, campaign, name, link)
    if role not in ROLES or (role == "gm" and caller is not None):
        raise InvalidInput(f"--role is player or observer; got {role!r}", code="bad-role")
    token, digest = new_token()
    entry = state.entry_for(store, campaign)
    written: list[Envelope] = []
    revoked: int | None = None
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
            events: list[Event] = []
            if role == "observer":  # not a player, but never under a name of the rules
                new_player_name(player, gm=gm_name, players={})
            if role == "player":
                # An observer is not a player of the game: no event, only a token.
                events = list(
                    folded.ruleset.decide(folded.state, JoinPlayer(player=player), no_shuffle)
                )
            if holders(tx.connection, campaign=campaign, player=name):
                if not reissue:
                    raise AlreadyExists(held_question(name), code="seat-held")
                by = "operator" if caller is None else "gm"
                at = tx.head.seq + len(events) + 1  # the AccessReissued event's: last below
                revoked = revoke_tokens(
                    tx.connection,
                    campaign=campaign,
                    player=name,
                    why=ended.reissued(by),
                    seq=at,
                )
                events.append(AccessReissued(player=name, role=role, revoked=revoked, by=by))
            actor = caller.player if caller is not None else "operator"
            gm = getattr(folded.state, "gm", None) or "gm"
            written = tx.append(
                [
                    Pending.of(
                        e,
                        actor=actor if isinstance(e, AccessReissued) else gm,
                        event_id=str(uuid.uuid4()),
                    )
                    for e in events
                ]
            ).events
            tx.add_access_token(
                token_hash=digest, player=name, role=role, kind="link" if link else "token"
            )
        state.advance(entry, written, None)  # committed: the cached state moves on
    if revoked is None:
        return Invited(token=token, player=name, role=role)
    return Invited(
        token=token,
        player=name,
        role=role,
        reissued=True,
        revoked=revoked,
        seq=written[-1].seq,
    )


def held_question(player: str) -> str:
    """What the GM's page asks before a re-issue."""
    return f"{player} already has a seat; a new link signs out {player}'s other devices. Go on?"


def _gm_device(store: EventStore, campaign: str, name: str, link: bool) -> Invited:
    """Another sign-in link of the GM's seat, asked for by the operator: nothing ends."""
    entry = state.entry_for(store, campaign)
    with entry.lock, store.transaction(campaign) as tx:
        gm_name = getattr(state.load_locked(entry, tx).state, "gm", "gm")
        if name != gm_name:
            raise InvalidInput(
                f"the GM of campaign {campaign} is {gm_name}; --role gm is only for them",
                code="bad-role",
            )
        token, digest = new_token()
        tx.add_access_token(
            token_hash=digest, player=name, role="gm", kind="link" if link else "token"
        )
    return Invited(token=token, player=name, role="gm")


def _another_device(
    store: EventStore, campaign: str, caller: Caller, role: str, link: bool
) -> Invited:
    """The caller's own second token (another device): same seat, same role, no event."""
    if role != caller.role:
        raise InvalidInput(
            f"a token you ask for yourself has your own role ({caller.role}); got {role!r}",
            code="bad-role",
        )
    token, digest = new_token()
    with store.transaction(campaign) as tx:
        tx.add_access_token(
            token_hash=digest,
            player=caller.player,
            role=caller.role,
            kind="link" if link else "token",
        )
    return Invited(token=token, player=caller.player, role=caller.role)


def sign_in_link(base: str, campaign: str, token: str) -> str:
    """The web page's address with the token in its fragment: a browser never sends a
    fragment to a server, so the token reaches no log and no Referer."""
    return f"{base.rstrip('/')}/campaigns/{quote(campaign, safe='')}/play#token={token}"


def revoke(store: EventStore, campaign: str, player: str, *, caller: Caller | None = None) -> int:
    """Revoke every live token of `player`, and its Discord link; how many tokens were
    revoked. The log says so
    (`access.revoked`, public): a committed shuffle awaits the players holding a token when
    it is committed, so a seat dropped before one is dropped in plain sight."""
    gm_only(caller, "revoke access")
    name = player_name(player, "player name")
    entry = state.entry_for(store, campaign)
    with entry.lock:
        with store.transaction(campaign) as tx:
            by = "operator" if caller is None else "gm"
            count = revoke_tokens(
                tx.connection,
                campaign=campaign,
                player=name,
                why=ended.revoked(by),
                seq=tx.head.seq + 1,
            )
            # A seat linked to a Discord account acts from there too: that ends with it.
            unlinked = unlink_in(tx.connection, campaign, name)
            if count == 0 and not unlinked:
                raise NotFound(
                    f"{player} has no live access token and no Discord link in campaign {campaign}",
                    code="no-token",
                )
            actor = caller.player if caller is not None else "operator"
            event = AccessRevoked(player=name, revoked=count, by=by)
            written = tx.append([Pending.of(event, actor=actor, event_id=str(uuid.uuid4()))]).events
        state.advance(entry, written, None)  # committed: the cached state moves on
    return count


def link_seat(store: EventStore, campaign: str, link_token: str) -> dict[str, str]:
    """Whose seat a sign-in link opens (`player`, `role`), without using it: refused as
    `open_session` would refuse it."""
    row = find_token(store, token_digest(link_token.strip()))
    if row is None or row.kind != "link" or row.campaign != campaign:
        raise Unauthenticated(
            f"this sign-in link is not one of campaign {campaign}; ask the GM for a new one",
            code="bad-link",
        )
    if row.revoked:
        raise Unauthenticated(used_link(row.why, row.player, row.why_seq), code="used-link")
    return {"player": row.player, "role": row.role}


def used_link(why: str | None, player: str, seq: int | None) -> str:
    said = ended.reason(why, player, seq) if why != "used" else None
    if why == "used":
        return "this sign-in link was already used (a link works once); ask the GM for a new one"
    if said is None:
        return "this sign-in link was already used or revoked; ask the GM for a new one"
    return f"this sign-in link no longer works: {said}; ask the GM for a new one"


def open_session(store: EventStore, campaign: str, link_token: str) -> tuple[str, Caller]:
    """Trade a sign-in link's token, once, for a browser session of the same seat: the
    session's token (for an HttpOnly cookie; stored as a digest) and its caller.

    The link stops working in the same transaction, so two trades of one link make one
    session; a revoked, used or unknown link is refused in one sentence."""
    digest = token_digest(link_token.strip())
    row = find_token(store, digest)
    if row is None or row.kind != "link" or row.campaign != campaign:
        raise Unauthenticated(
            f"this sign-in link is not one of campaign {campaign}; ask the GM for a new one",
            code="bad-link",
        )
    session, session_digest = new_token()
    with store.transaction(campaign) as tx:
        if row.revoked or not revoke_token(tx.connection, digest, "used"):
            raise Unauthenticated(
                used_link(row.why if row.revoked else "used", row.player, row.why_seq),
                code="used-link",
            )
        tx.add_access_token(
            token_hash=session_digest, player=row.player, role=row.role, kind="session"
        )
    caller = Caller(campaign=campaign, player=row.player, role=row.role, digest=session_digest)
    return session, caller


def close_session(store: EventStore, caller: Caller, why: ended.Why = "signed-out") -> None:
    """Sign a browser session out: its token stops working at once (its feed ends too).
    `switched`: the browser signed in as another seat instead."""
    with store.transaction(caller.campaign) as tx:
        revoke_token(tx.connection, caller.digest, why)


def csrf_token(session: str) -> str:
    """The session's CSRF token: the page sends it in a header with every write. Derived
    from the session's secret (so nothing more is stored), and it does not reveal it."""
    return hmac.new(session.encode(), b"tablelog csrf", hashlib.sha256).hexdigest()
