"""The service's Ed25519 key: where it lives, creating it once, signing and checking.

A checkpoint (checkpoints.py) is only worth keeping if the player can later show that the
service itself issued it: the service signs with a key of its own, kept beside the database
with 0600 permissions so that only its operator's account reads it. The signatures come from
the `cryptography` library; nothing here is hand-written cryptography.

Where the key lives: `--key-file` / TABLELOG_KEY_FILE when given (a service's `--key-file`
holds for every key it looks up: `EventStore.key_file`); else, for a SQLite file,
next to it (`tablelog.db` -> `tablelog.db.key`); else (a PostgreSQL server, an in-memory
database) `tablelog/service.key` in the user's configuration directory.
"""

from __future__ import annotations

import os
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from tablelog.errors import InvalidInput, NotFound, StorageError
from tablelog.storage import EventStore
from tablelog.storage.engine import file_of

KEY_FILE_ENV = "TABLELOG_KEY_FILE"
PUBLIC_KEY_BYTES = 32
SIGNATURE_BYTES = 64


def config_dir() -> Path:
    """The user's configuration directory for tablelog (XDG_CONFIG_HOME, else ~/.config)."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "tablelog"


def key_path(store: EventStore, given: str | None = None) -> Path:
    """Where the key of the service over `store` lives (see the module's docstring)."""
    chosen = given or store.key_file or os.environ.get(KEY_FILE_ENV)
    if chosen:
        return Path(chosen).expanduser()
    database = file_of(store.engine.url)
    if database is not None:
        return Path(f"{database}.key")
    return config_dir() / "service.key"


class ServiceKey:
    """The private key, loaded; signs the canonical bytes of checkpoints.py."""

    def __init__(self, private: Ed25519PrivateKey) -> None:
        self._private = private
        self.public = public_bytes(private.public_key())

    @property
    def public_hex(self) -> str:
        return self.public.hex()

    def sign(self, data: bytes) -> bytes:
        return self._private.sign(data)


def public_bytes(key: Ed25519PublicKey) -> bytes:
    return key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def load_key(path: Path, *, create: bool) -> ServiceKey:
    """The key at `path`; with `create`, a new one written there first if there is none
    (readable by its owner only). NotFound when there is none and `create` is off."""
    if create and not path.exists():
        _create(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise NotFound(
            f"there is no signing key at {path} yet; `tablelog checkpoint` or `tablelog serve` "
            "creates it",
            code="no-key",
        ) from None
    except OSError as exc:
        raise StorageError(f"cannot read the key {path}: {exc.strerror}", code="bad-key") from None
    try:
        private = serialization.load_pem_private_key(data, password=None)
    except (ValueError, TypeError):
        private = None
    if not isinstance(private, Ed25519PrivateKey):
        raise StorageError(f"{path} holds no Ed25519 private key", code="bad-key")
    return ServiceKey(private)


def _create(path: Path) -> None:
    pem = Ed25519PrivateKey.generate().private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    create_secret_file(path, pem, "the key")


def create_secret_file(path: Path, content: bytes, what: str) -> None:
    """`content` at `path`, created 0600 from the start (never world-readable for a moment);
    a file another process wrote first is kept, not overwritten. `what` names it in errors."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return
    except OSError as exc:
        raise StorageError(f"cannot create {what} {path}: {exc.strerror}", code="bad-key") from None
    with os.fdopen(fd, "wb") as handle:
        handle.write(content)


def parse_public_key(text: str) -> bytes:
    """A public key as `tablelog key show` prints it: 64 hex digits."""
    try:
        raw = bytes.fromhex(text.strip())
    except ValueError:
        raw = b""
    if len(raw) != PUBLIC_KEY_BYTES:
        raise InvalidInput(
            f"a public key is {2 * PUBLIC_KEY_BYTES} hex digits, as `tablelog key show` prints "
            f"it; got {text!r}",
            code="bad-key",
        )
    return raw


def signature_holds(public: bytes, signature: bytes, data: bytes) -> bool:
    try:
        Ed25519PublicKey.from_public_bytes(public).verify(signature, data)
    except (InvalidSignature, ValueError):
        return False
    return True
