"""The service's checkpoints (commands/checkpoints.py) and its public key, over HTTP.

A client saves every checkpoint it is given: the web page and the CLI alike call
`GET /campaigns/{campaign}/checkpoints?since=SEQ` after a session ends (or whenever they
like) and `GET /campaigns/{campaign}/checkpoint` for one over the head as it stands now.
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
from litestar import Request, get
from litestar.params import FromPath, Parameter, QueryParameter

from tablelog.commands.checkpoints import (
    Checkpoint,
    checkpoint_at,
    checkpoint_now,
    hash_at,
    session_checkpoints,
)
from tablelog.commands.signing import ServiceKey
from tablelog.http.context import caller_for, store_of

AnyRequest = Request[Any, Any, Any]


class PublicKey(msgspec.Struct, frozen=True, kw_only=True):
    key: str  # 64 hex digits: the raw Ed25519 public key


def key_of(request: AnyRequest) -> ServiceKey:
    key = request.app.state.key
    assert isinstance(key, ServiceKey)
    return key


@get("/key", sync_to_thread=False, tags=["service"])
def public_key(request: AnyRequest) -> PublicKey:
    """The public key the service signs checkpoints with (no token needed)."""
    return PublicKey(key=key_of(request).public_hex)


@get("/campaigns/{campaign:str}/checkpoint", sync_to_thread=True, tags=["reads"])
def checkpoint(
    request: AnyRequest,
    campaign: FromPath[str],
    seq: Annotated[int | None, QueryParameter(ge=1, le=2**63 - 1, required=False)] = None,
) -> Checkpoint:
    """A checkpoint of the campaign's head (or, with `seq`, of its event at that seq), signed
    now (a read: nothing is appended): keep it, and `tablelog verify --checkpoint FILE`
    proves later that the log still extends it."""
    caller = caller_for(request, campaign)
    store = store_of(request.app.state)
    if seq is not None:
        return checkpoint_at(store, caller.campaign, key_of(request), seq)
    return checkpoint_now(store, caller.campaign, key_of(request))


@get("/campaigns/{campaign:str}/checkpoints", sync_to_thread=True, tags=["reads"])
def checkpoints(
    request: AnyRequest,
    campaign: FromPath[str],
    since: Annotated[int, QueryParameter(ge=0, le=2**63 - 1, required=False)] = 0,
) -> list[Checkpoint]:
    """The checkpoint of every session's end at or after seq `since`, oldest first: the
    same bytes each time they are asked for."""
    caller = caller_for(request, campaign)
    return session_checkpoints(
        store_of(request.app.state), caller.campaign, key_of(request), since=since
    )


class ChainHash(msgspec.Struct, frozen=True, kw_only=True):
    seq: int
    hash: str | None  # None: the log does not reach seq


@get("/campaigns/{campaign:str}/hashes/{seq:int}", sync_to_thread=True, tags=["reads"])
def chain_hash(
    request: AnyRequest,
    campaign: FromPath[str],
    seq: Annotated[int, Parameter(ge=1, le=2**63 - 1)],
) -> ChainHash:
    """The chain hash of the event at `seq` (public, as in every log line): what a client
    compares with a checkpoint it kept (`tablelog verify --checkpoint` through the service)."""
    caller = caller_for(request, campaign)
    return ChainHash(seq=seq, hash=hash_at(store_of(request.app.state), caller.campaign, seq))


PUBLIC = [public_key]
ROUTES = [checkpoint, checkpoints, chain_hash]
