"""One notice as a mail: a short plain text, one-click unsubscribe, one thread per campaign.

Every mail of a campaign answers the same imagined first message, `<campaign-thread.ID@domain>`
(its `In-Reply-To` and `References`), so mail clients show one thread per game, while each
mail keeps a `Message-ID` of its own. Texts the players wrote (a campaign's name, a sentence)
go through the email package's header encoding, after their line breaks and other control
characters are folded to spaces: no text given can start a header of its own.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import formatdate, make_msgid
from urllib.parse import urlsplit

from tablelog.errors import InvalidInput
from tablelog.notices.mail_settings import MailSettings, check_address

# What may stand as is before the @ of a Message-ID (RFC 5322 dot-atom-text, kept simpler).
_PLAIN_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}(\.[A-Za-z0-9_-]{1,64}){0,3}")


def compose(
    settings: MailSettings,
    *,
    campaign: str,
    to: str,
    sentence: str,
    link: str,
    unsubscribe_url: str,
    thread_id: str,
) -> EmailMessage:
    """The mail telling `to` that the table of `campaign` waits on them: `sentence` (what
    to do), `link` (the page) and `unsubscribe_url` (one click, RFC 8058), threaded under
    `thread_id` (stable per campaign: its name or id). InvalidInput for an address or a
    link that cannot go in a mail."""
    name = one_line(campaign)
    # Lines up to RFC 5322's 998: a header folded at 78 without a space to fold at becomes
    # encoded-words, and `List-Unsubscribe` must stay the bare `<URL>` (RFC 2369); a body
    # that is not ASCII still goes encoded (7bit), as a long line would have made it.
    message = EmailMessage(policy=SMTP.clone(max_line_length=998, cte_type="7bit"))
    message["Subject"] = f"Your move in {name}"
    message["From"] = settings.mail_from
    message["To"] = check_address(to)
    message["Date"] = formatdate(localtime=True)
    message["Message-ID"] = make_msgid(domain=settings.domain)
    thread = thread_message_id(settings, thread_id)
    message["In-Reply-To"] = thread
    message["References"] = thread
    message["Auto-Submitted"] = "auto-generated"  # RFC 3834: no vacation replies to it
    message["List-Unsubscribe"] = f"<{_web_url(unsubscribe_url)}>"
    message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    message.set_content(
        f"{one_line(sentence)}\n\n"
        f"Open the game: {_web_url(link)}\n\n"
        f"-- \n"
        f"You get this mail because you play in {name} and the table waits on you.\n"
        f"No more mails from {name}: {unsubscribe_url}\n"
    )
    return message


def thread_message_id(settings: MailSettings, thread_id: str) -> str:
    """`<campaign-thread.ID@domain>`: `thread_id` as is when it is plain letters, digits and
    dashes, else a digest of it (stable, and nothing a Message-ID cannot hold)."""
    plain = _PLAIN_ID.fullmatch(thread_id) is not None
    token = thread_id if plain else hashlib.sha256(thread_id.encode()).hexdigest()[:32]
    return f"<campaign-thread.{token}@{settings.domain}>"


def one_line(text: str) -> str:
    """`text` with every run of line breaks, tabs, other control characters and spaces a
    single space: a campaign name or a sentence stays on the one line it was meant for.
    (Format characters stay: an emoji's joiners, a right-to-left name's marks.)"""
    spaced = "".join(
        " " if unicodedata.category(c) in {"Cc", "Zl", "Zp", "Zs"} else c for c in text
    )
    return " ".join(spaced.split())


def _web_url(url: str) -> str:
    parts = urlsplit(url)
    if parts.scheme not in {"http", "https"} or not parts.netloc or not url.isprintable():
        raise InvalidInput(f"{url!r} is not a web address to put in a mail", code="bad-link")
    if any(c in url for c in " <>\"'"):
        raise InvalidInput(f"{url!r} holds a space, quote or angle bracket", code="bad-link")
    return url
