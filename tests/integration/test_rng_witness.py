"""A player's client reveals a pledged value only once the service has signed the close of
the pledges (commands/rng_witness.py): given the log line the service shows at that seq and
its checkpoint over it, each way a lying service could answer is doubted, in one sentence."""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable

import msgspec
import pytest

from tablelog.commands.checkpoints import Checkpoint, checkpoint_at
from tablelog.commands.reads import log_items
from tablelog.commands.rng_witness import doubt
from tablelog.commands.signing import load_key
from tablelog.commands.table import execute
from tablelog.rules import rng
from tablelog.rules.rng_commands import Pledge
from tablelog.rulesets.beer_run.rules import commands as br
from tablelog.storage import open_store
from tests.integration.test_committed_rng import pub_at_the_roll


@pytest.fixture(scope="module")
def closed(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Checkpoint, str, int]:
    """The pub's pledges closed: the line at their close as a player sees it, the service's
    checkpoint over it, the request and the seq."""
    where = tmp_path_factory.mktemp("witness")
    store = open_store(str(where / "pub.db"), create=True)
    pub_at_the_roll(store)
    request = execute(store, "pub", br.Roll(conflict="c1"))[0].event().request
    for player in ("ann", "cat"):
        commitment = rng.pledge("pub", request, player, secrets.token_bytes(32))
        written = execute(
            store, "pub", Pledge(request=request, player=player, commitment=commitment)
        )
    seq = written[-1].seq
    line = next(
        i.line for i in log_items(store, "pub", since=seq - 1, viewer="ann") if i.seq == seq
    )
    key = load_key(where / "service.key", create=True)
    checkpoint = checkpoint_at(store, "pub", key, seq)
    store.close()
    return line, checkpoint, request, seq


def ask(
    closed: tuple[str, Checkpoint, str, int], *, player: str = "ann", **changes: object
) -> str | None:
    line, checkpoint, request, seq = closed
    given: dict[str, object] = {
        "line": line,
        "checkpoint": checkpoint,
        "request": request,
        "closed_seq": seq,
        **changes,
    }
    return doubt(
        str(given["line"]),
        given["checkpoint"],  # type: ignore[arg-type]
        campaign="pub",
        request=str(given["request"]),
        player=player,
        closed_seq=int(given["closed_seq"]),  # type: ignore[call-overload]
    )


def edited(line: str, change: Callable[[dict[str, object]], None]) -> str:
    data = json.loads(line)
    change(data)
    return json.dumps(data, separators=(",", ":"))


def test_the_signed_close_of_the_pledges_is_believed(
    closed: tuple[str, Checkpoint, str, int],
) -> None:
    assert ask(closed) is None
    assert ask(closed, player="cat") is None


def test_a_seat_outside_the_pledged_or_another_request_is_doubted(
    closed: tuple[str, Checkpoint, str, int],
) -> None:
    assert "does not close request" in str(ask(closed, player="bob"))
    assert "does not close request" in str(ask(closed, request="0123456789abcdef"))


def test_a_line_changed_after_it_was_hashed_is_doubted(
    closed: tuple[str, Checkpoint, str, int],
) -> None:
    def more_pledged(data: dict[str, object]) -> None:
        payload = data["payload"]
        assert isinstance(payload, dict)
        payload["pledged"] = [*payload["pledged"], "bob"]

    assert "does not hash" in str(ask(closed, line=edited(closed[0], more_pledged), player="bob"))
    assert "not an intact event" in str(ask(closed, line="{not json"))


def test_another_event_or_a_checkpoint_of_another_seq_is_doubted(
    closed: tuple[str, Checkpoint, str, int],
) -> None:
    _, checkpoint, _, seq = closed
    assert "does not close the pledges" in str(ask(closed, closed_seq=seq - 1))
    elsewhere = msgspec.structs.replace(checkpoint, seq=seq + 1)
    assert "not over the event" in str(ask(closed, checkpoint=elsewhere))


def test_a_forged_signature_is_doubted(closed: tuple[str, Checkpoint, str, int]) -> None:
    _, checkpoint, _, _ = closed
    forged = msgspec.structs.replace(checkpoint, signature="00" * 64)
    assert "not validly signed" in str(ask(closed, checkpoint=forged))
