"""Turn notices: the table tells a player it waits on them (issue 28).

Queued in the append's own transaction (outbox.py calls `Turns.queue`): for each step the
command's events made the table wait on (`awaits.Since`), not an optional one and not the
caller's own, one notice per channel its player has: each enabled `turn` webhook (a Discord
one only once the player has linked a Discord id: the message mentions exactly that user),
and `mail` while the player has an address and has not unsubscribed. The unique constraint
of the `notices` table makes each exactly once, a restart included.

Sent by the same worker as the webhooks' posts (deliver.py), oldest first per channel, with
the same backoff. A notice whose step the table no longer waits on when its turn comes is
dropped, not sent. Reminders are worked out by the sender too (reminders.py): a player
still awaited `remind_hours` after the first notice went out gets one on the channels they
have, then one a day at most, never more than `remind_max` (rules/notice_options.py).

No notice carries anything hidden: an `Await` says who must act and what, which the table
shows everyone.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlsplit

import httpx
import msgspec

from tablelog.commands import state
from tablelog.commands.deliver import (
    SECOND,
    SIGNATURE_HEADER,
    Failed,
    Policy,
    _send,
    _why,
    signature,
)
from tablelog.commands.reminders import awaited_steps, queue_reminders
from tablelog.commands.webhooks import private_address, unseal
from tablelog.errors import InvalidInput
from tablelog.notices import mail as smtp
from tablelog.projections.post_escape import escape_discord
from tablelog.rules.table import GM
from tablelog.storage import EventStore
from tablelog.storage.notices import (
    DISCORD,
    MAIL,
    claim_notice,
    contacts_of,
    mailed_to,
    record_dropped,
    record_sent,
    record_waiting,
    unsent,
    unsubscribe,
)
from tablelog.storage.notices import (
    NoticeRow as NoticeRow,  # the notices' row, for the Discord poster (discord/notices.py)
)
from tablelog.storage.store import now_us
from tablelog.storage.webhooks import WebhookRow, webhooks_of

HOUR_S = 3600.0
NO_MAIL_SERVER = "no mail server configured (`tablelog serve --smtp`): the mail waits"
NOT_AWAITED = "the table no longer waits on this step"


def unsubscribe_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


# --- what a notice says --------------------------------------------------------------------


def checked_public_url(url: str) -> str:
    """`serve --public-url`: an http(s) address naming a host, without a trailing slash."""
    given = url.strip().rstrip("/")
    parts = urlsplit(given)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query:
        raise InvalidInput(
            f"--public-url is the service's address as players reach it, such as "
            f"https://table.example.org; got {url!r}",
            code="bad-url",
        )
    return given


def page_link(public_url: str, campaign: str) -> str:
    return f"{public_url.rstrip('/')}/campaigns/{quote(campaign, safe='')}/play"


def words(campaign: str, sentence: str, number: int) -> str:
    """The notice's sentence (plain text), without the mention."""
    if number == 0:
        return f"the table waits on you in {campaign}: {sentence}"
    return f"the table still waits on you in {campaign}: {sentence} (reminder {number})"


def discord_body(campaign: str, notice: NoticeRow, user_id: str, link: str | None) -> bytes:
    """A Discord message mentioning exactly `user_id`: nobody else, no role, never everyone."""
    text = f"<@{user_id}>, {escape_discord(words(campaign, notice.sentence, notice.number))}"
    if link:
        text += f"\n{link}"
    return msgspec.json.encode(
        {"content": text, "allowed_mentions": {"parse": [], "users": [user_id]}}
    )


def json_body(
    campaign: str, notice: NoticeRow, player: str, user_id: str | None, link: str | None
) -> bytes:
    return msgspec.json.encode(
        {
            "trigger": "turn",
            "campaign": campaign,
            "player": player,
            "discord_id": user_id,
            "kind": notice.kind,
            "number": notice.number,
            "what": notice.sentence,
            "conflict": notice.conflict,
            "since_seq": notice.since_seq,
            "text": words(campaign, notice.sentence, notice.number),
            "link": link,
        }
    )


# --- sending ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class NoticePolicy:
    """What the sender of notices needs beside the webhooks' Policy."""

    public_url: str | None = None  # the service's address as players reach it
    mail: smtp.MailSettings | None = None  # the SMTP server (`serve --smtp`), if any
    hour_s: float = HOUR_S  # seconds in an hour of `remind_hours` (tests only shorten it)
    # Posts a notice in the campaign's bound Discord channels (the service's Discord
    # adapter gives it when it has the bot's token; None: such notices are dropped).
    discord: Callable[[EventStore, httpx.Client, NoticeRow, str, str | None], None] | None = None


class Skip(Exception):
    """The notice is not to be sent, ever: dropped with this reason."""


class Later(Exception):
    """The notice cannot go now; it waits, with this reason shown."""


def _seat_name(store: EventStore, campaign: str, player: str) -> str:
    if player != GM:
        return player
    with state.reading(store, campaign) as folded:
        return str(folded.ruleset.cast.gm(folded.state))


def _send_webhook(
    store: EventStore, client: httpx.Client, notice: NoticeRow, hook: WebhookRow, **given: Any
) -> None:
    policy, notice_policy = given["policy"], given["notice_policy"]
    if hook.disabled_reason is not None:
        raise Skip(f"the webhook {hook.id} is disabled")
    contact = next(
        (c for c in contacts_of(store, notice.campaign) if c.player == notice.player), None
    )
    user_id = None if contact is None else contact.discord_id
    link = None
    if notice_policy.public_url:
        link = page_link(notice_policy.public_url, notice.campaign)
    if hook.format == "discord":
        if user_id is None:
            raise Skip("the player has no Discord id linked")
        body = discord_body(notice.campaign, notice, user_id, link)
    else:
        seat = _seat_name(store, notice.campaign, notice.player)
        body = json_body(notice.campaign, notice, seat, user_id, link)
    url = unseal(store, hook.url_sealed)
    if not policy.allow_private and private_address(url):
        raise Failed(
            "the receiver's address is in a private network, where this service does not post"
        )
    headers = {"Content-Type": "application/json", "User-Agent": "tablelog-webhook"}
    if hook.secret_sealed is not None:
        headers[SIGNATURE_HEADER] = signature(unseal(store, hook.secret_sealed), body)
    _send(client, url, body, headers)


def _send_discord(
    store: EventStore, client: httpx.Client, notice: NoticeRow, notice_policy: NoticePolicy
) -> None:
    """Post the notice in the campaign's bound channels, through the service's bot."""
    if notice_policy.discord is None:
        raise Skip("the service has no Discord bot token (TABLELOG_DISCORD_BOT_TOKEN)")
    contact = next(
        (c for c in contacts_of(store, notice.campaign) if c.player == notice.player), None
    )
    if contact is None or contact.discord_id is None:
        raise Skip("the player has no Discord id linked")
    link = (
        page_link(notice_policy.public_url, notice.campaign) if notice_policy.public_url else None
    )
    notice_policy.discord(store, client, notice, contact.discord_id, link)


def _send_mail(store: EventStore, notice: NoticeRow, notice_policy: NoticePolicy) -> str:
    """Mail the notice; the digest of the unsubscribe token it carried."""
    contact = next(
        (c for c in contacts_of(store, notice.campaign) if c.player == notice.player), None
    )
    if contact is None or contact.email_sealed is None:
        raise Skip("the player has no address any more")
    if contact.unsubscribed_at is not None:
        raise Skip("the player unsubscribed")
    if notice_policy.mail is None:
        raise Later(NO_MAIL_SERVER)
    base = notice_policy.public_url or ""
    token = secrets.token_urlsafe(32)
    message = smtp.compose(
        notice_policy.mail,
        campaign=notice.campaign,
        to=unseal(store, contact.email_sealed),
        sentence=words(notice.campaign, notice.sentence, notice.number),
        link=page_link(base, notice.campaign) if base else "",
        unsubscribe_url=f"{base.rstrip('/')}/unsubscribe/{token}",
        thread_id=notice.campaign,
    )
    try:
        smtp.send(notice_policy.mail, message)
    except smtp.MailError as exc:
        raise Failed(str(exc)) from None
    return unsubscribe_digest(token)


def deliver_notices(
    store: EventStore, client: httpx.Client, policy: Policy, notice_policy: NoticePolicy
) -> int:
    """Send the oldest due notice of each channel (per campaign and player for mail); how
    many attempts were made. Reminders that came due are queued first."""
    queue_reminders(store, notice_policy.hour_s)
    now = now_us()
    heads: dict[tuple[str, ...], NoticeRow] = {}
    for notice in unsent(store):
        group: tuple[str, ...] = (notice.channel,)
        if notice.channel == MAIL:
            group = (MAIL, notice.campaign, notice.player)
        elif notice.channel == DISCORD:
            group = (DISCORD, notice.campaign)
        heads.setdefault(group, notice)
    hooks: dict[str, WebhookRow] = {}
    awaited: dict[str, set[tuple[str, int]]] = {}
    attempts = 0
    for notice in heads.values():
        if notice.next_attempt_at > now:
            continue
        if notice.channel == MAIL and notice_policy.mail is None:
            if notice.last_error != NO_MAIL_SERVER:  # said once; it waits for a server
                record_waiting(store, notice.id, NO_MAIL_SERVER, retry_at=now, attempts=0)
            continue
        if (notice.step_key, notice.since_seq) not in awaited_steps(
            store, notice.campaign, awaited
        ):
            record_dropped(store, notice.id, NOT_AWAITED)
            attempts += 1
            continue
        lease = now_us() + int((policy.timeout + 1) * SECOND * 4)
        if not claim_notice(store, notice, lease):
            continue
        attempts += 1
        try:
            if notice.channel == MAIL:
                record_sent(store, notice.id, _send_mail(store, notice, notice_policy))
                continue
            if notice.channel == DISCORD:
                _send_discord(store, client, notice, notice_policy)
                record_sent(store, notice.id)
                continue
            if notice.campaign not in hooks:
                hooks.update({h.id: h for h in webhooks_of(store, notice.campaign)})
            hook = hooks.get(notice.channel)
            if hook is None:
                raise Skip("the webhook was removed")
            _send_webhook(store, client, notice, hook, policy=policy, notice_policy=notice_policy)
            record_sent(store, notice.id)
        except Skip as why:
            record_dropped(store, notice.id, str(why))
        except Later as why:
            record_waiting(store, notice.id, str(why), retry_at=now_us(), attempts=notice.attempts)
        except Exception as exc:  # one notice's trouble must not stop the others
            reason, wait = _why(exc)
            if wait is None:
                wait = min(policy.max_backoff, policy.backoff * 2**notice.attempts)
            record_waiting(
                store,
                notice.id,
                reason,
                retry_at=now_us() + int(wait * SECOND),
                attempts=notice.attempts + 1,
            )
    return attempts


# --- reminders -------------------------------------------------------------------------------


# --- unsubscribing ----------------------------------------------------------------------------


def _token_digest(token: str) -> str | None:
    given = token.strip()
    if not 20 <= len(given) <= 100 or not given.replace("-", "").replace("_", "").isalnum():
        return None
    return unsubscribe_digest(given)


def unsubscribe_known(store: EventStore, token: str) -> tuple[str, str] | None:
    """(campaign, seat) a mail's unsubscribe token was sent to, or None."""
    digest = _token_digest(token)
    found = None if digest is None else mailed_to(store, digest)
    if found is None:
        return None
    return found[0], _seat_name(store, found[0], found[1])


def unsubscribed(store: EventStore, token: str) -> tuple[str, str] | None:
    """Stop the mails of the player whose mail carried `token`: (campaign, seat), or None."""
    digest = _token_digest(token)
    done = None if digest is None else unsubscribe(store, digest)
    if done is None:
        return None
    return done[0], _seat_name(store, done[0], done[1])
