"""Web-push (VAPID) key pairs: made on demand, and kept beside the SQLite file in embedded mode.

``make run`` with no keys set gets a pair of its own on first start, so a newcomer's browser
receives push alerts with no configuration; later starts read the same pair back (a new pair
would orphan every subscription made with the old one). Production reads its keys from the
environment and never gets one invented (config/settings.py).
"""

from __future__ import annotations

import base64
import json
import os
import sys
import tempfile
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.core.exceptions import ImproperlyConfigured

KEYS_FILE = "vapid-keys.json"


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def generate_keys() -> tuple[str, str]:
    """(public, private): the public key as browsers take it (applicationServerKey, the
    uncompressed P-256 point) and the private key as its raw 32-byte scalar, both base64url."""
    key = ec.generate_private_key(ec.SECP256R1())
    public = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    private = key.private_numbers().private_value.to_bytes(32, "big")
    return b64url(public), b64url(private)


def embedded_keys(var_dir: Path) -> tuple[str, str]:
    """The key pair kept in ``var_dir`` (made there on first call). Two processes starting at
    once agree on one pair: the file appears whole, by a hard link that fails if it exists."""
    path = var_dir / KEYS_FILE
    if not path.exists():
        _write_new_pair(path)
    try:
        stored = json.loads(path.read_text(encoding="utf-8"))
        return str(stored["public_key"]), str(stored["private_key"])
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise ImproperlyConfigured(
            f"{path} is not a web-push key pair ({error}); delete it to make a new one "
            "(browsers then subscribe again), or set VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY."
        ) from error


def _write_new_pair(path: Path) -> None:
    public, private = generate_keys()
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=".vapid-")  # mode 0600
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as file:
            json.dump({"public_key": public, "private_key": private}, file)
        os.link(temporary, path)
    except FileExistsError:
        return  # another process made the pair first: theirs is the one
    finally:
        os.unlink(temporary)
    sys.stderr.write(f"Web push: made a key pair for this site in {path}\n")
