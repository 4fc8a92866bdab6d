"""Hostile ``cmd`` payloads without hypothesis: what the soak throws at a running daemon."""

from __future__ import annotations

import json
import random


def random_junk(rnd: random.Random) -> bytes:
    """A hostile ``cmd`` payload: raw bytes, deep nesting, wrong seats, unknown types, huge strings."""
    kind = rnd.randrange(6)
    if kind == 0:
        return bytes(rnd.randrange(256) for _ in range(rnd.randrange(1, 64)))
    if kind == 1:
        return b"[" * rnd.randrange(20, 5000)
    cid = f"junk{rnd.randrange(10**9)}"
    if kind == 2:
        kind_ = rnd.choice(["strike", "shot", "placed", "end_turn", "answer", "move"])
        return json.dumps({"type": kind_, "seat": rnd.choice([0, 7, "1", None, [1]]), "id": cid}).encode()
    if kind == 3:
        return json.dumps({"type": "".join(rnd.choice("xyz_") for _ in range(8)), "id": cid}).encode()
    if kind == 4:
        return json.dumps({"type": "shot", "seat": 1, "coin": "c1" * rnd.randrange(9000, 20000), "id": cid}).encode()
    return json.dumps({"type": "answer", "question": {"k": [1, {"k": None}]}, "value": "x" * 50, "id": cid}).encode()
