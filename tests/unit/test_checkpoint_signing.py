"""The checkpoint's signed bytes and signature: the README's test vector, and what breaks it."""

from __future__ import annotations

import stat
from pathlib import Path

import msgspec
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from tablelog.commands.checkpoints import read_checkpoints, sign, signed_bytes
from tablelog.commands.signing import ServiceKey, load_key
from tablelog.errors import InvalidInput, NotFound, StorageError

# README, "Checkpoints players keep": the private key is the bytes 0x00..0x1f.
KEY = ServiceKey(Ed25519PrivateKey.from_private_bytes(bytes(range(32))))
HASH = bytes.fromhex("11" * 32)
TIME = 1_700_000_000_000_000
SIGNED = (
    "7461626c656c6f672d636865636b706f696e742d763100"  # "tablelog-checkpoint-v1" and a zero
    "00000009"  # the name's length
    "6261722d6669676874"  # "bar-fight"
    "0000000000000039"  # seq 57
    + "11" * 32  # the chain hash
    + "00060a24181e4000"  # the time
)
PUBLIC = "03a107bff3ce10be1d70dd18e74bc09967e4d6309ba50d5f1ddc8664125531b8"
SIGNATURE = (
    "a5e1988ffea122604825aeef4a65a3ee84f00d2aa5e7efd030cd0b8def7d79d7"
    "c751187bba79efabe853ba95e98748e76fdccc41ad3a7151e16f10b0a060e902"
)


def test_the_readme_vector() -> None:
    assert signed_bytes("bar-fight", 57, HASH, TIME).hex() == SIGNED
    checkpoint = sign(KEY, "bar-fight", 57, HASH, TIME)
    assert (checkpoint.key, checkpoint.signature) == (PUBLIC, SIGNATURE)
    assert checkpoint.holds()


@pytest.mark.parametrize(
    "change",
    [
        {"campaign": "bar-fighT"},
        {"seq": 58},
        {"hash": "12" + "11" * 31},
        {"time": TIME + 1},
        {"key": KEY.public_hex[:-2] + "00"},
    ],
)
def test_any_changed_field_breaks_the_signature(change: dict[str, object]) -> None:
    checkpoint = msgspec.structs.replace(sign(KEY, "bar-fight", 57, HASH, TIME), **change)
    assert not checkpoint.holds()


def test_the_key_is_created_once_owner_only(tmp_path: Path) -> None:
    path = tmp_path / "keys" / "service.key"
    with pytest.raises(NotFound, match="no signing key"):
        load_key(path, create=False)
    first = load_key(path, create=True)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert load_key(path, create=True).public == first.public  # never overwritten
    path.write_text("not a key", encoding="utf-8")
    with pytest.raises(StorageError, match="no Ed25519 private key"):
        load_key(path, create=False)


@pytest.mark.parametrize(
    "line",
    [
        b"{}",
        b"not json",
        b'{"campaign":"x","seq":0,"hash":"","time":0,"key":"","signature":""}',
        b'{"campaign":"x","seq":1,"hash":"zz","time":0,"key":"","signature":""}',
    ],
)
def test_a_line_that_is_not_a_checkpoint_is_named(line: bytes) -> None:
    good = msgspec.json.encode(sign(KEY, "bar-fight", 57, HASH, TIME))
    with pytest.raises(InvalidInput, match=r"line 2 of kept\.jsonl"):
        read_checkpoints(good + b"\n" + line + b"\n", "kept.jsonl")
