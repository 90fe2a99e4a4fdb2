"""A push job: one Web Push message to one browser's push service, sent by a worker process
(issue 26), never by the event loop: the encryption (RFC 8291, ``aes128gcm``) and the VAPID
signature (RFC 8292) cost the CPU, the request may wait on a slow push service.

:class:`PushJob` holds what one send needs (the subscription's endpoint and keys, the payload
text, the VAPID key and subject); :func:`send_push` is what a worker runs, with ``pywebpush``
(``py-vapid`` signs). The server decides what to send and what an answer means
(:mod:`veillee.tables.notices`): 201 delivered, 404 or 410 the subscription is gone, a 5xx or
no answer (:data:`NO_ANSWER`) worth trying again.

:func:`vapid_keys` is the server's key pair: given by the settings (every process of a
deployment the same), else made on first start and kept in the data directory.
"""

from __future__ import annotations

import base64
import os
from dataclasses import dataclass
from pathlib import Path

NO_ANSWER = 0
"""The status :func:`send_push` gives when the push service did not answer (timeout, refused
connection, a broken answer)."""
NOT_MADE = -1
"""The status :func:`send_push` gives when it could not make the push at all (a VAPID subject
the signature refuses, a bad key): no use trying again."""
KEY_FILE = "vapid_private.pem"
"""The VAPID private key's file in the data directory (made on first start)."""


@dataclass(frozen=True)
class PushJob:
    """One push: to ``endpoint`` (the push service's URL for one browser) encrypted for its
    ``p256dh`` and ``auth`` keys (base64url), ``payload`` (text, at most some 3 KB), signed
    with ``vapid_pem`` (the server's private key, PEM) for ``subject`` (``mailto:`` or
    ``https:``); the push service keeps it ``ttl`` seconds for a browser that is away; the
    send gives up after ``timeout_s``."""

    endpoint: str
    p256dh: str
    auth: str
    payload: str
    vapid_pem: str
    subject: str
    ttl: int = 24 * 3600
    timeout_s: float = 10.0


def send_push(job: PushJob) -> int:
    """Send ``job`` (in a worker): the push service's status code (201 when it took the
    message), :data:`NO_ANSWER`, or :data:`NOT_MADE`."""
    import requests
    from py_vapid import Vapid, VapidException
    from pywebpush import WebPushException, webpush

    subscription = {"endpoint": job.endpoint, "keys": {"p256dh": job.p256dh, "auth": job.auth}}
    try:
        response = webpush(
            subscription,
            job.payload,
            vapid_private_key=Vapid.from_pem(job.vapid_pem.encode()),
            vapid_claims={"sub": job.subject},
            timeout=job.timeout_s,
            ttl=job.ttl,
        )
    except WebPushException as refused:
        return refused.response.status_code if refused.response is not None else NO_ANSWER
    except requests.RequestException:
        return NO_ANSWER
    except VapidException:
        return NOT_MADE
    return int(getattr(response, "status_code", NO_ANSWER))


@dataclass(frozen=True)
class VapidKeys:
    """The server's VAPID key pair: ``private_pem`` (PEM text, for the workers) and ``public``
    (the uncompressed P-256 point, base64url without padding: the page's
    ``applicationServerKey``)."""

    private_pem: str
    public: str


def vapid_keys(given: str | None, data_dir: Path) -> VapidKeys:
    """The key pair from ``given`` (``VEILLEE_VAPID_PRIVATE_KEY``: PEM text, or the raw 32-byte
    private number base64url as ``vapid --gen`` and most Web Push tools print it), else from
    the data directory's :data:`KEY_FILE`, made there on first start (readable by its owner
    only). Raises ValueError for a given key that is neither."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    if given:
        text = given.strip()
        if "BEGIN" in text:
            key = serialization.load_pem_private_key(text.encode(), password=None)
        else:
            raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
            key = ec.derive_private_key(int.from_bytes(raw, "big"), ec.SECP256R1())
    else:
        path = data_dir / KEY_FILE
        if not path.exists():
            data_dir.mkdir(parents=True, exist_ok=True)
            made = ec.generate_private_key(ec.SECP256R1()).private_bytes(
                serialization.Encoding.PEM,
                serialization.PrivateFormat.PKCS8,
                serialization.NoEncryption(),
            )
            # Two processes starting at once on one data directory: the first file stays.
            try:
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            except FileExistsError:
                pass
            else:
                with os.fdopen(fd, "wb") as out:
                    out.write(made)
        key = serialization.load_pem_private_key(path.read_bytes(), password=None)
    if not isinstance(key, ec.EllipticCurvePrivateKey) or key.curve.name != "secp256r1":
        raise ValueError("a VAPID key is a P-256 (prime256v1) private key")
    pem = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode()
    point = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return VapidKeys(pem, base64.urlsafe_b64encode(point).rstrip(b"=").decode())
