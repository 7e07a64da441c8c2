"""Notices by mail, through real SMTP servers on 127.0.0.1 (tests/support/smtp.py): a plain
relay, STARTTLS with a login, implicit TLS; the password never goes out unencrypted, every
failure is one MailError sentence, one thread per campaign, no header injected."""

from __future__ import annotations

import re
import socket
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path

import pytest

from tablelog.errors import InvalidInput
from tablelog.notices.mail import (
    CA_FILE_ENV,
    PASSWORD_ENV,
    MailError,
    MailSettings,
    compose,
    mail_settings,
    send,
)
from tests.e2e.transcript import no_crash, refused, run
from tests.support.certs import Certificates, make_certificates
from tests.support.server import running_service
from tests.support.smtp import Mailbox, smtp_server

PASSWORD = "correct horse battery staple"
QUICK_S = 5.0  # the client's timeout here: a test never waits longer on one answer
FROM = "tablelog <notices@example.org>"


@pytest.fixture(scope="module")
def certs(tmp_path_factory: pytest.TempPathFactory) -> Certificates:
    return make_certificates(tmp_path_factory.mktemp("certs"))


@pytest.fixture
def relay() -> Iterator[Mailbox]:
    with smtp_server() as mailbox:
        yield mailbox


def settings(url: str, *, password: str | None = None, ca_file: Path | None = None) -> MailSettings:
    environ = {PASSWORD_ENV: password} if password is not None else {}
    ca = str(ca_file) if ca_file is not None else None
    return mail_settings(url, FROM, ca_file=ca, environ=environ, timeout=QUICK_S)


def notice(
    where: MailSettings,
    *,
    to: str = "ben@example.org",
    campaign: str = "heist",
    sentence: str = "answer Alice's raise of 18 (c2)",
) -> EmailMessage:
    return compose(
        where,
        campaign=campaign,
        to=to,
        sentence=sentence,
        link="http://127.0.0.1:8000/campaigns/heist",
        unsubscribe_url="http://127.0.0.1:8000/unsubscribe/Zm9v",
        thread_id="heist",
    )


# --- a plain relay ----------------------------------------------------------------------------


def test_a_relay_without_tls_gets_the_mail_with_every_header(relay: Mailbox) -> None:
    where = settings(f"smtp://127.0.0.1:{relay.port}")
    send(where, notice(where))

    [got] = relay.received
    assert got.mail_from == "notices@example.org"
    assert got.rcpt_tos == ["ben@example.org"]
    assert not got.encrypted
    mail = got.message
    assert mail["Subject"] == "Your move in heist"
    assert mail["From"] == FROM
    assert mail["To"] == "ben@example.org"
    assert mail["Date"] is not None
    assert mail["Auto-Submitted"] == "auto-generated"
    assert mail["List-Unsubscribe"] == "<http://127.0.0.1:8000/unsubscribe/Zm9v>"
    assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert mail["Message-ID"].endswith("@example.org>")
    assert mail["In-Reply-To"] == "<campaign-thread.heist@example.org>"
    assert mail["References"] == "<campaign-thread.heist@example.org>"
    body = mail.get_content()
    assert body.splitlines()[0] == "answer Alice's raise of 18 (c2)"
    assert "http://127.0.0.1:8000/campaigns/heist" in body
    assert "http://127.0.0.1:8000/unsubscribe/Zm9v" in body
    assert relay.auths == []


def test_a_long_unsubscribe_link_goes_as_one_bracketed_url_a_mail_client_reads(
    relay: Mailbox,
) -> None:
    """RFC 2369 wants `<URL>` as it is: no encoded-words, however long the public address
    and its token (a folded, encoded header hides the link from the client's button)."""
    where = settings(f"smtp://127.0.0.1:{relay.port}")
    url = "https://table.example.org/unsubscribe/" + "EiHeFBr_oam2aXmFb_X-nB3y2CSYEIPhWQSDjDymvu8"
    mail = compose(
        where,
        campaign="heist",
        to="ben@example.org",
        sentence="answer Alice's raise of 18 (c2)",
        link="https://table.example.org/campaigns/heist/play",
        unsubscribe_url=url,
        thread_id="heist",
    )
    send(where, mail)
    [got] = relay.received
    assert f"\r\nList-Unsubscribe: <{url}>\r\n".encode() in got.raw
    assert b"=?" not in got.raw.split(b"\r\n\r\n", 1)[0].replace(b"Subject: ", b"")


def test_two_mails_of_one_campaign_share_its_thread(relay: Mailbox) -> None:
    where = settings(f"smtp://127.0.0.1:{relay.port}")
    send(where, notice(where, sentence="answer Alice's raise of 18 (c2)"))
    send(where, notice(where, sentence="play a card face down in c3"))

    first, second = (r.message for r in relay.received)
    assert first["Message-ID"] != second["Message-ID"]
    assert first["In-Reply-To"] == second["In-Reply-To"] == "<campaign-thread.heist@example.org>"
    assert first["References"] == second["References"]


def test_header_injection_stays_in_its_header(relay: Mailbox) -> None:
    where = settings(f"smtp://127.0.0.1:{relay.port}")
    send(
        where,
        notice(
            where,
            campaign="heist\r\nBcc: eve@example.org\r\nX-Injected: yes",
            sentence="bid\r\n\r\nX-Also: no — Ünïcode ✓ 大胆",
        ),
    )

    [got] = relay.received
    assert got.rcpt_tos == ["ben@example.org"]
    mail = got.message
    assert mail["Bcc"] is None
    assert mail["X-Injected"] is None
    assert mail["X-Also"] is None
    assert mail["Subject"] == "Your move in heist Bcc: eve@example.org X-Injected: yes"
    assert mail.get_content().splitlines()[0] == "bid X-Also: no — Ünïcode ✓ 大胆"
    assert relay.received[0].message.as_bytes().isascii()  # encoded, not raw 8-bit headers
    assert got.raw.isascii()  # and so on the wire


def test_a_non_ascii_campaign_name_is_encoded_in_the_subject(relay: Mailbox) -> None:
    where = settings(f"smtp://127.0.0.1:{relay.port}")
    send(where, notice(where, campaign="Überfall 🎲"))

    [got] = relay.received
    assert got.message["Subject"] == "Your move in Überfall 🎲"
    assert "=?utf-8?" in got.message.as_string().split("\n\n")[0]


@pytest.mark.parametrize(
    "to",
    [
        "ben@example.org\r\nBcc: eve@example.org",
        "ben@example.org, eve@example.org",
        "Ben <ben@example.org>",
        "bén@example.org",
        "ben",
    ],
)
def test_a_recipient_that_is_not_one_plain_address_is_refused(relay: Mailbox, to: str) -> None:
    where = settings(f"smtp://127.0.0.1:{relay.port}")
    with pytest.raises(InvalidInput, match="is not a mail address") as caught:
        notice(where, to=to)
    assert caught.value.code == "bad-email"


def test_a_refused_recipient_is_a_mail_error() -> None:
    with smtp_server(refuse={"nobody@example.org"}) as mailbox:
        where = settings(f"smtp://127.0.0.1:{mailbox.port}")
        with pytest.raises(MailError) as caught:
            send(where, notice(where, to="nobody@example.org"))
    assert caught.value.code == "mail-failed"
    assert caught.value.permanent
    assert "refused the recipient nobody@example.org (550" in caught.value.message
    assert mailbox.received == []


def test_a_closed_port_is_a_mail_error() -> None:
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]  # bound, never listening: the connection is refused
        where = settings(f"smtp://127.0.0.1:{port}")
        with pytest.raises(MailError, match=re.escape(f"127.0.0.1:{port} refused the connection")):
            send(where, notice(where))


def test_a_silent_server_is_a_mail_error_within_the_timeout() -> None:
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen()  # accepts, never greets
        port = silent.getsockname()[1]
        where = mail_settings(f"smtp://127.0.0.1:{port}", FROM, environ={}, timeout=0.3)
        with pytest.raises(MailError, match=re.escape("did not answer within 0.3 seconds")):
            send(where, notice(where))


# --- STARTTLS and a login ---------------------------------------------------------------------


def test_starttls_comes_before_the_login(certs: Certificates) -> None:
    with smtp_server(
        tls=certs.server_context(), starttls=True, users={"tablelog": PASSWORD}
    ) as mailbox:
        where = settings(
            f"smtp://tablelog@127.0.0.1:{mailbox.port}", password=PASSWORD, ca_file=certs.ca_file
        )
        send(where, notice(where))

    assert mailbox.logins == ["tablelog"]
    assert mailbox.auths
    assert all(a.encrypted for a in mailbox.auths)
    [got] = mailbox.received
    assert got.encrypted
    assert got.message["Subject"] == "Your move in heist"


def test_a_relay_offering_starttls_gets_it_without_a_login(certs: Certificates) -> None:
    with smtp_server(tls=certs.server_context(), starttls=True) as mailbox:
        where = settings(f"smtp://127.0.0.1:{mailbox.port}", ca_file=certs.ca_file)
        send(where, notice(where))

    [got] = mailbox.received
    assert got.encrypted
    assert mailbox.auths == []


def test_a_user_is_never_sent_to_a_server_without_starttls() -> None:
    # The server even offers AUTH unencrypted: the client must not take it.
    with smtp_server(users={"tablelog": PASSWORD}, auth_in_plain=True) as mailbox:
        where = settings(f"smtp://tablelog@127.0.0.1:{mailbox.port}", password=PASSWORD)
        with pytest.raises(MailError) as caught:
            send(where, notice(where))

    assert mailbox.auths == []
    assert mailbox.received == []
    sentence = caught.value.message
    assert "offers no STARTTLS" in sentence
    assert "never sent over an unencrypted connection" in sentence
    assert PASSWORD not in sentence


def test_a_wrong_password_is_a_mail_error(certs: Certificates) -> None:
    with smtp_server(
        tls=certs.server_context(), starttls=True, users={"tablelog": PASSWORD}
    ) as mailbox:
        where = settings(
            f"smtp://tablelog@127.0.0.1:{mailbox.port}", password="wrong", ca_file=certs.ca_file
        )
        with pytest.raises(MailError) as caught:
            send(where, notice(where))

    assert "refused the login of tablelog (535" in caught.value.message
    assert "wrong" not in caught.value.message
    assert mailbox.logins == []
    assert mailbox.received == []


def test_an_untrusted_certificate_is_a_mail_error(certs: Certificates) -> None:
    # No CA file named: the system's trust store does not know the tests' CA.
    with smtp_server(
        tls=certs.server_context(), starttls=True, users={"tablelog": PASSWORD}
    ) as mailbox:
        where = settings(f"smtp://tablelog@127.0.0.1:{mailbox.port}", password=PASSWORD)
        with pytest.raises(MailError) as caught:
            send(where, notice(where))

    assert "certificate that is not trusted" in caught.value.message
    assert CA_FILE_ENV in caught.value.message
    assert mailbox.auths == []


# --- implicit TLS -----------------------------------------------------------------------------


def test_smtps_speaks_tls_from_the_start(certs: Certificates) -> None:
    with smtp_server(tls=certs.server_context(), users={"tablelog": PASSWORD}) as mailbox:
        where = settings(
            f"smtps://tablelog@127.0.0.1:{mailbox.port}", password=PASSWORD, ca_file=certs.ca_file
        )
        send(where, notice(where))

    assert mailbox.logins == ["tablelog"]
    assert all(a.encrypted for a in mailbox.auths)
    [got] = mailbox.received
    assert got.encrypted


def test_smtps_to_a_plain_server_is_a_mail_error(relay: Mailbox, certs: Certificates) -> None:
    where = settings(f"smtps://127.0.0.1:{relay.port}", ca_file=certs.ca_file)
    with pytest.raises(MailError, match=re.escape("TLS with the SMTP server 127.0.0.1")) as caught:
        send(where, notice(where))
    assert "takes smtp://" in caught.value.message
    assert relay.received == []


# --- the settings -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "implicit_tls", "port", "user"),
    [
        ("smtp://mail.example.org", False, 587, None),
        ("smtp://tablelog@mail.example.org:2525", False, 2525, "tablelog"),
        ("smtps://tablelog@mail.example.org", True, 465, "tablelog"),
        ("smtps://ben%40example.org@mail.example.org:4650", True, 4650, "ben@example.org"),
    ],
)
def test_a_url_names_the_server(url: str, implicit_tls: bool, port: int, user: str | None) -> None:
    got = mail_settings(url, FROM, environ={PASSWORD_ENV: PASSWORD} if user else {})
    assert (got.implicit_tls, got.host, got.port, got.user) == (
        implicit_tls,
        "mail.example.org",
        port,
        user,
    )
    assert PASSWORD not in repr(got)
    assert PASSWORD not in got.url


# --- `tablelog serve` ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "mail_from", "env", "mentions"),
    [
        ("http://mail.example.org", FROM, {}, "starts with http://"),
        ("mail.example.org", FROM, {}, "starts with no scheme"),
        ("smtp://", FROM, {}, "names no host"),
        ("smtp://mail.example.org:99999", FROM, {}, "port"),
        ("smtp://mail.example.org/inbox", FROM, {}, "has a path"),
        ("smtp://u:hunter2@mail.example.org", FROM, {}, f"goes in {PASSWORD_ENV} only"),
        ("smtp://mail.example.org", None, {}, "needs --mail-from"),
        ("smtp://mail.example.org", "nobody", {}, "'nobody' is not a mail address"),
        ("smtp://mail.example.org", "n@example.org\r\nBcc: eve@example.org", {}, "not a mail"),
        ("smtp://u@mail.example.org", FROM, {}, f"must be in {PASSWORD_ENV}"),
        ("smtp://mail.example.org", FROM, {PASSWORD_ENV: "hunter2"}, "names no user"),
        ("smtp://mail.example.org", FROM, {CA_FILE_ENV: "/nonexistent/ca.pem"}, "ca.pem"),
    ],
)
def test_bad_mail_settings_are_refused_in_one_sentence(
    url: str, mail_from: str | None, env: dict[str, str], mentions: str
) -> None:
    with pytest.raises(InvalidInput) as caught:
        mail_settings(url, mail_from, environ=env)
    assert caught.value.code in {"bad-smtp", "bad-mail-from"}
    assert mentions in caught.value.message
    assert "hunter2" not in caught.value.message
    assert "\n" not in caught.value.message


@pytest.mark.parametrize(
    ("args", "env", "mentions"),
    [
        (["--smtp", "smtp://u:hunter2@mail.example.org", "--mail-from", "n@example.org"], {},
         "bad-smtp: --smtp holds a password"),
        (["--mail-from", "n@example.org"], {}, "bad-mail-from: --mail-from goes with --smtp"),
        (["--smtp", "smtp://u@mail.example.org", "--mail-from", "n@example.org"], {},
         f"bad-smtp: --smtp names the user u, so the SMTP password must be in {PASSWORD_ENV}"),
    ],
    ids=["password-in-url", "mail-from-alone", "user-without-password"],
)  # fmt: skip
def test_serve_refuses_bad_mail_settings_before_opening_the_database(
    tmp_path: Path, args: list[str], env: dict[str, str], mentions: str
) -> None:
    line = refused(run(tmp_path, "serve", "--port", "0", *args, env=env))
    assert line.startswith(mentions)
    assert "hunter2" not in line
    assert not (tmp_path / "tablelog.db").exists()


def test_serve_with_smtp_says_where_mail_goes_and_never_the_password(
    tmp_path: Path, relay: Mailbox
) -> None:
    url = f"smtp://tablelog@127.0.0.1:{relay.port}"
    options = ("--smtp", url, "--mail-from", FROM)
    with running_service(
        str(tmp_path / "t.db"), tmp_path, *options, env={PASSWORD_ENV: PASSWORD}
    ) as service:
        assert service.startswith("http://127.0.0.1:")
    [log] = tmp_path.glob("serve-*.log")
    printed = log.read_text(encoding="utf-8")
    assert f"notices by mail from {FROM} through {url}" in printed
    assert PASSWORD not in printed


def test_help_shows_the_mail_options(tmp_path: Path) -> None:
    result = run(tmp_path, "serve", "--help", env={"COLUMNS": "200"})
    no_crash(result)
    assert "--smtp" in result.stdout
    assert "--mail-from" in result.stdout
    assert PASSWORD_ENV in result.stdout
