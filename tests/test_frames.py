"""Protocol 1 frames on the Pi side (gametable_core/frames.py) against the shared vectors and properties."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gametable_core.frames import (
    MAX_FRAME,
    FrameDecoder,
    FrameError,
    cobs_decode,
    cobs_encode,
    crc16,
    decode_frame,
    encode,
    encode_raw,
)

VECTORS = json.loads((Path(__file__).parent / "vectors" / "frames.json").read_text())


def test_crc16_check_value_is_ccitt_false():
    assert crc16(b"123456789") == 0x29B1
    for c in VECTORS["crc16"]:
        assert crc16(c["ascii"].encode()) == c["crc"]


@pytest.mark.parametrize("case", VECTORS["cobs"], ids=lambda c: c["data"][:12] or "empty")
def test_cobs_reference_examples(case):
    data = bytes.fromhex(case["data"])
    assert cobs_encode(data).hex() == case["encoded"]
    assert cobs_decode(bytes.fromhex(case["encoded"])) == data


@pytest.mark.parametrize("case", VECTORS["good"], ids=lambda c: c["name"])
def test_good_vector_encodes_to_exact_bytes_and_decodes_back(case):
    wire = bytes.fromhex(case["hex"])
    assert encode(case["payload"]) == wire
    assert FrameDecoder().feed(wire) == [case["payload"]]


@pytest.mark.parametrize("case", VECTORS["bad"], ids=lambda c: c["name"])
def test_bad_vector_gives_its_specific_error_kind(case):
    out = FrameDecoder().feed(bytes.fromhex(case["hex"]))
    assert len(out) == 1 and isinstance(out[0], FrameError)
    assert out[0].kind == case["error"]
    assert "\n" not in out[0].message and out[0].message


def test_crc_error_names_both_values():
    err = decode_frame(bytes.fromhex(next(b for b in VECTORS["bad"] if b["name"] == "crc_little_endian")["hex"])[:-1])
    assert isinstance(err, FrameError)
    assert "0xD9D7" in err.message and "0xD7D9" in err.message


def test_stream_vector_recovers_frames_after_garbage_and_truncation():
    out = FrameDecoder().feed(bytes.fromhex(VECTORS["stream"]["hex"]))
    got = [{"error": x.kind} if isinstance(x, FrameError) else {"payload": x} for x in out]
    assert got == VECTORS["stream"]["expect"]


def test_stream_vector_byte_by_byte_gives_the_same_result():
    dec = FrameDecoder()
    out = []
    for b in bytes.fromhex(VECTORS["stream"]["hex"]):
        out += dec.feed(bytes([b]))
    got = [{"error": x.kind} if isinstance(x, FrameError) else {"payload": x} for x in out]
    assert got == VECTORS["stream"]["expect"]


def test_truncated_frame_waits_for_the_rest():
    wire = encode({"t": "hb", "id": "s1", "seq": 3, "bat": 3.9})
    dec = FrameDecoder()
    assert dec.feed(wire[:7]) == []
    assert dec.pending == 7
    assert dec.feed(wire[7:]) == [{"t": "hb", "id": "s1", "seq": 3, "bat": 3.9}]


def test_oversized_run_is_dropped_until_next_delimiter_then_resyncs():
    good = {"t": "hb", "id": "s1", "seq": 3, "bat": 3.9}
    dec = FrameDecoder()
    out = dec.feed(b"\x07" * 300)
    assert out == []
    out = dec.feed(b"\x07" * 300)  # now over MAX_FRAME without a delimiter
    assert [e.kind for e in out] == ["oversize"]
    assert dec.feed(b"\x07" * 5000) == []  # still dropping, reported once
    assert dec.pending == 0
    assert dec.feed(b"\x00" + encode(good)) == [good]


@pytest.mark.parametrize(
    "raw, kind",
    [
        (b'{"t":"hb","id":"s1","seq":1,"bat":NaN}', "json"),
        (b'{"t":"hb","id":"s1","seq":1,"bat":Infinity}', "json"),
        (b"\xc3\x28", "json"),
        (b"[" * 200 + b"]" * 200, "json"),
        (b'{"t":["hb"],"id":"s1","seq":1}', "field"),
        (b'{"t":"hb","id":{"x":1},"seq":1,"bat":3.9}', "field"),
        (b'{"t":"strike","id":"s1","seq":1,"g":5,"ms":1.5}', "field"),
        (b'{"t":"hb","id":"' + b"x" * 40 + b'","seq":1,"bat":3.9}', "field"),
        (b"null", "json"),
    ],
)
def test_hostile_json_is_rejected_with_a_specific_kind(raw, kind):
    out = FrameDecoder().feed(encode_raw(raw))
    assert [e.kind for e in out] == [kind]


def test_unknown_type_is_passed_for_forward_compatibility():
    p = {"t": "future", "id": "base", "seq": 1, "whatever": {"nested": [1, 2]}}
    assert FrameDecoder().feed(encode(p)) == [p]


# --- properties ---------------------------------------------------------------------------------

json_scalars = st.none() | st.booleans() | st.integers(-(2**40), 2**40) | st.text(max_size=20)
extra_fields = st.dictionaries(
    st.text(min_size=1, max_size=8).filter(lambda k: k not in ("t", "id", "seq")),
    st.recursive(json_scalars, lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=5), c, max_size=3),
                 max_leaves=6),
    max_size=4,
)
payloads = st.builds(
    lambda t, sid, seq, extra: {"t": t, "id": sid, "seq": seq, **extra},
    st.sampled_from(["x-new", "ping", "status"]),
    st.text(min_size=1, max_size=32),
    st.integers(0, 2**32 - 1),
    extra_fields,
) | st.builds(
    lambda sid, seq, g, ms: {"t": "strike", "id": sid, "seq": seq, "g": g, "ms": ms},
    st.text(min_size=1, max_size=32),
    st.integers(0, 2**32 - 1),
    st.floats(0, 1000, allow_nan=False),
    st.integers(0, 2**63 - 1),
) | st.builds(
    lambda sid, seq, bat: {"t": "hb", "id": sid, "seq": seq, "bat": bat},
    st.text(min_size=1, max_size=32),
    st.integers(0, 2**32 - 1),
    st.floats(0, 10, allow_nan=False),
)


@settings(max_examples=150, deadline=None)
@given(payloads)
def test_property_encode_decode_roundtrip(payload):
    wire = encode(payload)
    if len(wire) - 1 > MAX_FRAME:
        assert [e.kind for e in FrameDecoder().feed(wire)] == ["oversize"]
    else:
        assert wire.count(0) == 1 and wire.endswith(b"\x00")
        assert FrameDecoder().feed(wire) == [payload]


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=3000))
def test_property_cobs_roundtrip_any_bytes(data):
    enc = cobs_encode(data)
    assert 0 not in enc
    assert cobs_decode(enc) == data


@settings(max_examples=300, deadline=None)
@given(st.lists(st.binary(max_size=700), max_size=8))
def test_property_random_bytes_never_crash_and_only_yield_dicts_or_errors(chunks):
    dec = FrameDecoder()
    for chunk in chunks:
        for item in dec.feed(chunk):
            assert isinstance(item, dict | FrameError)
            if isinstance(item, FrameError):
                assert item.kind in ("cobs", "short", "crc", "json", "field", "oversize")
        assert dec.pending <= MAX_FRAME


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.tuples(st.binary(max_size=80), payloads), min_size=1, max_size=6),
    st.binary(max_size=80),
    st.lists(st.integers(1, 50), min_size=1, max_size=10),
)
def test_property_valid_frames_in_garbage_are_all_recovered(pieces, tail, cuts):
    """Garbage, then a delimiter, then a frame: every frame survives any garbage and any chunking."""
    stream = b""
    expected = []
    for garbage, payload in pieces:
        wire = encode(payload)
        if len(wire) - 1 > MAX_FRAME:
            continue
        stream += garbage + b"\x00" + wire
        expected.append(payload)
    stream += tail
    dec = FrameDecoder()
    got, i, k = [], 0, 0
    while i < len(stream):
        n = cuts[k % len(cuts)]
        k += 1
        got += [x for x in dec.feed(stream[i : i + n]) if isinstance(x, dict)]
        i += n
    # garbage can decode to a frame by chance only with a matching CRC and valid JSON; then it is
    # extra, never a replacement: every real frame is there, in order
    it = iter(got)
    assert all(any(g == p for g in it) for p in expected)
