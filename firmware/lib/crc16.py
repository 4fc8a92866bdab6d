"""CRC-16/CCITT-FALSE for protocol 1 frames (poly 0x1021, init 0xFFFF, big-endian on the wire).

Runs on MicroPython and CPython alike; a 256-entry table keeps it fast enough on an ESP32.
"""


def _make_table():
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return table


_TABLE = _make_table()


def crc16(data, crc=0xFFFF):
    """CRC of ``data`` (bytes-like); ``b"123456789"`` gives 0x29B1."""
    table = _TABLE
    for b in data:
        crc = ((crc << 8) & 0xFFFF) ^ table[(crc >> 8) ^ b]
    return crc
