"""The ESP-NOW keys of one table, derived from the table's secret (MicroPython and CPython).

Why derived: the Pi makes one 16-byte secret per table at the first pairing and sends only that to
the base station (``peers_set``'s ``key``): a key per striker would not fit a 512-byte frame for six
strikers. The base derives the PMK and each striker's own LMK with HMAC-SHA256 (one-way: a striker's
LMK, which it is handed in the clear at pairing, tells nothing of the secret or of the other
strikers' keys). hardware_docs/firmware.md, "Encryption".
"""

import hashlib

from frames import key_bytes, mac_bytes


def hmac_sha256(key, msg):
    """RFC 2104 HMAC with SHA-256 (MicroPython has ``hashlib.sha256`` but no ``hmac``); key <= 64 bytes."""
    k = bytes(key) + bytes(64 - len(key))
    inner = hashlib.sha256(bytes(b ^ 0x36 for b in k) + bytes(msg)).digest()
    return hashlib.sha256(bytes(b ^ 0x5C for b in k) + inner).digest()


def _hex(data):
    return "".join(f"{b:02x}" for b in data)


def table_pmk(secret):
    """The table's PMK (32 hex digits) from its secret (32 hex digits)."""
    return _hex(hmac_sha256(key_bytes(secret), b"gametable pmk")[:16])


def striker_lmk(secret, mac):
    """The LMK of the striker with MAC ``mac`` (12 hex digits) at this table (32 hex digits)."""
    return _hex(hmac_sha256(key_bytes(secret), b"gametable lmk " + mac_bytes(mac))[:16])
