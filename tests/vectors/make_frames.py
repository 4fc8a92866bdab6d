"""Regenerate tests/vectors/frames.json (run: python -m tests.vectors.make_frames).

The file is the shared truth for protocol 1: the Pi parser (gametable_core/frames.py) and the firmware
(firmware/lib, under CPython and real MicroPython) are both tested against it. Anchors that do
not come from our own code: the CRC check value 0x29B1 and the COBS examples of the reference
implementation. Regenerating must not change existing entries; review the diff.
"""

from __future__ import annotations

import json
from pathlib import Path

from gametable_core.frames import cobs_encode, crc16, encode, encode_raw

OUT = Path(__file__).with_name("frames.json")


def _framed_with_crc(payload: bytes, crc: bytes) -> bytes:
    return cobs_encode(payload + crc) + b"\x00"


def _crc_zero_seq() -> int:
    """A strike seq whose frame CRC contains a 0x00 byte (exercises COBS on the CRC)."""
    for seq in range(100000):
        p = f'{{"t":"strike","id":"s1","seq":{seq},"g":4.0,"ms":1000}}'.encode()
        if 0 in crc16(p).to_bytes(2, "big"):
            return seq
    raise AssertionError("no seq found")


def good() -> list[dict]:
    zseq = _crc_zero_seq()
    cases = [
        ("hello_base", {"t": "hello", "id": "base", "seq": 0, "fw": "1.0.0", "proto": 1},
         {"kind": "hello", "seq": 0, "fw": "1.0.0"}),
        ("strike_s3", {"t": "strike", "id": "s3", "seq": 17, "g": 6.5, "ms": 123456},
         {"kind": "strike", "id": "s3", "seq": 17, "g": 6.5, "ms": 123456}),
        ("hb_s3", {"t": "hb", "id": "s3", "seq": 18, "bat": 3.91},
         {"kind": "hb", "id": "s3", "seq": 18, "bat": 3.91}),
        ("strike_seq_max", {"t": "strike", "id": "s6", "seq": 2**32 - 1, "g": 12.25, "ms": 0},
         {"kind": "strike", "id": "s6", "seq": 2**32 - 1, "g": 12.25, "ms": 0}),
        ("hb_whole_volts", {"t": "hb", "id": "s12", "seq": 0, "bat": 4.0},
         {"kind": "hb", "id": "s12", "seq": 0, "bat": 4.0}),
        ("strike_crc_has_zero", {"t": "strike", "id": "s1", "seq": zseq, "g": 4.0, "ms": 1000},
         {"kind": "strike", "id": "s1", "seq": zseq, "g": 4.0, "ms": 1000}),
        ("hello_proto_2", {"t": "hello", "id": "base", "seq": 7, "fw": "2.1.0-beta", "proto": 2},
         {"kind": "hello", "seq": 7, "fw": "2.1.0-beta", "proto": 2}),
        # forward compatible: an unknown type decodes (the link ignores it but counts its seq)
        ("unknown_type", {"t": "led", "id": "base", "seq": 5, "x": [1, 2]}, None),
        # longer than one 254-byte COBS group
        ("long_unknown_type", {"t": "note", "id": "base", "seq": 9, "text": "x" * 300}, None),
        # firmware 1.1.0 additions (serial_protocol.md, "Frames added in firmware 1.1.0")
        ("sleep_s3", {"t": "sleep", "id": "s3", "seq": 19, "bat": 3.88, "why": "idle"},
         {"kind": "sleep", "id": "s3", "seq": 19, "bat": 3.88, "why": "idle"}),
        ("pair_req_waved", {"t": "pair_req", "id": "st-1a2b3c", "seq": 0, "g": 6.2, "fw": "1.2.0"},
         {"kind": "pair_req", "id": "st-1a2b3c", "seq": 0, "g": 6.2}),
        ("pair_seen", {"t": "pair_seen", "id": "base", "seq": 5, "sid": "st-1a2b3c", "mac": "3485181a2b3c", "g": 6.2},
         {"kind": "pair_seen", "seq": 5, "sid": "st-1a2b3c", "mac": "3485181a2b3c", "g": 6.2}),
        ("pairing_open", {"t": "pairing", "id": "base", "seq": 4, "s": 60}, {"kind": "pairing", "seq": 4, "s": 60}),
        ("peers_two", {"t": "peers", "id": "base", "seq": 2,
                       "peers": {"348518000001": "s1", "3485181a2b3c": "st-1a2b3c"}},
         {"kind": "peers", "seq": 2, "peers": {"3485181a2b3c": "st-1a2b3c", "348518000001": "s1"}}),
        ("peers_empty", {"t": "peers", "id": "base", "seq": 3, "peers": {}}, {"kind": "peers", "seq": 3, "peers": {}}),
        ("paired_radio", {"t": "paired", "id": "base", "seq": 6, "sid": "st-1a2b3c"},
         {"kind": "paired", "seq": 6, "sid": "st-1a2b3c"}),
        ("unpaired_radio", {"t": "unpaired", "id": "base", "seq": 7}, {"kind": "unpaired", "seq": 7}),
        # Pi → base commands: the Pi builds them with encode(); the base decodes them
        ("pair_open_pi", {"t": "pair_open", "id": "pi", "seq": 0, "s": 60}, None),
        ("peers_set_pi", {"t": "peers_set", "id": "pi", "seq": 1, "peers": {"3485181a2b3c": "st-1a2b3c"}}, None),
        # firmware 1.2.0 additions (serial_protocol.md, "Frames added in firmware 1.2.0"): the Pi's
        # tune and the base's radio copy of it, the striker's threshold in its heartbeat, RSSI
        ("hb_with_threshold", {"t": "hb", "id": "st-1a2b3c", "seq": 18, "bat": 3.91, "thr": 3.0},
         {"kind": "hb", "id": "st-1a2b3c", "seq": 18, "bat": 3.91, "thr": 3.0}),
        ("tune_pi", {"t": "tune", "id": "pi", "seq": 2, "sid": "st-1a2b3c", "thr": 3.0},
         {"kind": "tune", "sender": "pi", "seq": 2, "sid": "st-1a2b3c", "thr": 3.0}),
        ("tune_radio", {"t": "tune", "id": "base", "seq": 8, "sid": "st-1a2b3c", "thr": 3.25},
         {"kind": "tune", "sender": "base", "seq": 8, "sid": "st-1a2b3c", "thr": 3.25}),
        ("radio_base", {"t": "radio", "id": "base", "seq": 9, "rssi": {"s1": -71, "st-1a2b3c": -52}},
         {"kind": "radio", "seq": 9, "rssi": {"st-1a2b3c": -52, "s1": -71}}),
    ]
    out = []
    for name, payload, build in cases:
        out.append({"name": name, "payload": payload, "hex": encode(payload).hex(), "build": build})
    return out


def bad() -> list[dict]:
    hb = b'{"t":"hb","id":"s3","seq":18,"bat":3.91}'
    flipped = bytearray(hb)
    flipped[-3] ^= 0x01  # "3.91" -> "3.81"-ish: the CRC no longer matches
    cases: list[tuple[str, bytes, str]] = [
        ("crc_flipped_payload_bit", _framed_with_crc(bytes(flipped), crc16(hb).to_bytes(2, "big")), "crc"),
        ("crc_little_endian", _framed_with_crc(hb, crc16(hb).to_bytes(2, "little")), "crc"),
        ("cobs_group_overruns_frame", bytes.fromhex("0511223300"), "cobs"),
        ("short_one_byte", bytes.fromhex("021100"), "short"),
        ("short_empty_group", bytes.fromhex("0100"), "short"),
        ("json_not_utf8", encode_raw(b'{"t":"hb","id":"s\xff","seq":1,"bat":3.9}'), "json"),
        ("json_truncated", encode_raw(b'{"t":"hb","id":"s3",'), "json"),
        ("json_array", encode_raw(b'[1,2,3]'), "json"),
        ("json_string", encode_raw(b'"hello"'), "json"),
        ("json_number", encode_raw(b'42'), "json"),
        ("json_nested_arrays", encode_raw(b"[" * 60 + b"]" * 60), "json"),
        ("field_missing_seq", encode_raw(b'{"t":"hb","id":"s3","bat":3.9}'), "field"),
        ("field_missing_t", encode_raw(b'{"id":"s3","seq":1}'), "field"),
        ("field_empty_t", encode_raw(b'{"t":"","id":"s3","seq":1}'), "field"),
        ("field_seq_negative", encode_raw(b'{"t":"hb","id":"s3","seq":-1,"bat":3.9}'), "field"),
        ("field_seq_2_32", encode_raw(b'{"t":"hb","id":"s3","seq":4294967296,"bat":3.9}'), "field"),
        ("field_seq_float", encode_raw(b'{"t":"hb","id":"s3","seq":1.5,"bat":3.9}'), "field"),
        ("field_seq_bool", encode_raw(b'{"t":"hb","id":"s3","seq":true,"bat":3.9}'), "field"),
        ("field_seq_string", encode_raw(b'{"t":"hb","id":"s3","seq":"1","bat":3.9}'), "field"),
        ("field_id_number", encode_raw(b'{"t":"hb","id":3,"seq":1,"bat":3.9}'), "field"),
        ("field_id_empty", encode_raw(b'{"t":"hb","id":"","seq":1,"bat":3.9}'), "field"),
        ("field_hb_bat_string", encode_raw(b'{"t":"hb","id":"s3","seq":1,"bat":"3.9"}'), "field"),
        ("field_hb_bat_missing", encode_raw(b'{"t":"hb","id":"s3","seq":1}'), "field"),
        ("field_hb_bat_infinite", encode_raw(b'{"t":"hb","id":"s3","seq":1,"bat":1e400}'), "field"),
        ("field_strike_g_nested", encode_raw(b'{"t":"strike","id":"s3","seq":1,"g":{"a":[1]},"ms":5}'), "field"),
        ("field_strike_g_null", encode_raw(b'{"t":"strike","id":"s3","seq":1,"g":null,"ms":5}'), "field"),
        ("field_strike_ms_negative", encode_raw(b'{"t":"strike","id":"s3","seq":1,"g":5.0,"ms":-5}'), "field"),
        ("field_strike_g_bool", encode_raw(b'{"t":"strike","id":"s3","seq":1,"g":true,"ms":5}'), "field"),
        ("field_hello_proto_string", encode_raw(b'{"t":"hello","id":"base","seq":0,"fw":"1.0.0","proto":"1"}'), "field"),
        ("oversize_600_bytes", bytes(range(1, 201)) * 3 + b"\x00", "oversize"),
    ]
    return [{"name": n, "hex": b.hex(), "error": kind} for n, b, kind in cases]


def stream() -> dict:
    """Garbage, a truncated frame and valid frames in one byte stream: what the reader must recover."""
    hello = {"t": "hello", "id": "base", "seq": 0, "fw": "1.0.0", "proto": 1}
    s1 = {"t": "strike", "id": "s3", "seq": 17, "g": 6.5, "ms": 123456}
    h1 = {"t": "hb", "id": "s3", "seq": 18, "bat": 3.91}
    data = (
        b"\x00\x00"  # sync preamble: empty frames are skipped silently
        + encode(hello)
        + b"\xde\xad\xbe\xef\x00"  # line noise
        + encode(s1)[:10]  # a frame cut short by a reset ...
        + encode(h1)  # ... merges with the next one: one error, h1 is lost with it
        + encode(s1)
        + encode(h1)
    )
    expect = [{"payload": hello}, {"error": "cobs"}, {"error": "cobs"}, {"payload": s1}, {"payload": h1}]
    return {"hex": data.hex(), "expect": expect}


def bad_firmware() -> dict:
    """Frames only the firmware's check rejects: the Pi passes unknown types with their common
    fields checked, and checks tune/radio/thr itself (controller/pairing.py)."""
    tune = '{{"t":"tune","id":"pi","seq":3,"sid":"st-1a2b3c","thr":{}}}'
    cases = [
        ("tune_thr_above_16", tune.format("16.5")),
        ("tune_thr_below_1", tune.format("0.5")),
        ("tune_thr_3_decimals", tune.format("3.125")),
        ("tune_thr_string", tune.format('"3"')),
        ("tune_thr_bool", tune.format("true")),
        ("tune_no_sid", '{"t":"tune","id":"pi","seq":3,"thr":3.0}'),
        ("tune_sid_bad_chars", '{"t":"tune","id":"pi","seq":3,"sid":"st 1","thr":3.0}'),
        ("hb_thr_out_of_range", '{"t":"hb","id":"s3","seq":18,"bat":3.91,"thr":40}'),
        ("radio_rssi_positive", '{"t":"radio","id":"base","seq":9,"rssi":{"s1":5}}'),
        ("radio_rssi_not_a_map", '{"t":"radio","id":"base","seq":9,"rssi":[-50]}'),
        ("radio_rssi_float", '{"t":"radio","id":"base","seq":9,"rssi":{"s1":-50.5}}'),
    ]
    return {"about": "CRC and JSON fine, rejected by the firmware's check_payload (kind 'field'); the Pi's "
            "decoder passes these types with only their common fields checked (extra fields and unknown "
            "types are allowed) and checks them in controller/pairing.py.",
            "cases": [{"name": n, "hex": encode_raw(p.encode()).hex(), "error": "field"} for n, p in cases]}


def main() -> None:
    doc = {
        "about": "Protocol 1 test vectors (docs/architecture.md). hex = bytes on the wire incl. the 0x00 delimiter. "
        "Generated by tests/vectors/make_frames.py; shared by the Pi parser and the firmware tests.",
        "crc16": [{"ascii": "123456789", "crc": 0x29B1}, {"ascii": "", "crc": 0xFFFF}],
        "cobs": [
            {"data": "00", "encoded": "0101"},
            {"data": "0000", "encoded": "010101"},
            {"data": "001100", "encoded": "01021101"},
            {"data": "11220033", "encoded": "0311220233"},
            {"data": "11223344", "encoded": "0511223344"},
            {"data": "11000000", "encoded": "0211010101"},
            {"data": bytes(range(1, 255)).hex(), "encoded": "ff" + bytes(range(1, 255)).hex()},
            {"data": bytes(range(0, 255)).hex(), "encoded": "01ff" + bytes(range(1, 255)).hex()},
            {"data": bytes(range(1, 256)).hex(), "encoded": "ff" + bytes(range(1, 255)).hex() + "02ff"},
        ],
        "good": good(),
        "bad": bad(),
        "stream": stream(),
        "bad_firmware": bad_firmware(),
    }
    OUT.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
