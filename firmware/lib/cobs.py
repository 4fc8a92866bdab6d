"""COBS framing for protocol 1: removes every 0x00 so 0x00 can delimit frames.

Runs on MicroPython and CPython alike. Canonical form as the reference C encoder: zero-free
runs are cut into 254-byte groups coded 0xFF, with no empty group after a final 0xFF group.
"""


def encode(data):
    """Encode bytes-like ``data``; the result holds no zero byte."""
    out = bytearray()
    code_at = 0
    out.append(0)  # placeholder for the first group's code
    code = 1
    n = len(data)
    for i in range(n):
        b = data[i]
        if b:
            out.append(b)
            code += 1
        if not b or code == 0xFF:
            out[code_at] = code
            code = 1
            if not b or i < n - 1:
                code_at = len(out)
                out.append(0)
            else:
                code_at = -1
    if code_at >= 0:
        out[code_at] = code
    return bytes(out)


def decode(data):
    """Decode one frame body (no delimiter); raises ValueError naming what is wrong."""
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        if code == 0:
            raise ValueError(f"zero byte inside COBS data at offset {i}")
        end = i + code
        if end > n:
            raise ValueError(f"COBS group at offset {i} needs {code - 1} bytes, only {n - i - 1} left")
        for j in range(i + 1, end):
            if data[j] == 0:
                raise ValueError(f"zero byte inside COBS data at offset {j}")
        out.extend(data[i + 1:end])
        i = end
        if code != 0xFF and i < n:
            out.append(0)
    return bytes(out)
