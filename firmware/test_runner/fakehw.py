"""Recording stand-ins for ``machine``, ``esp32``, ``espnow``, ``network`` and ``time`` (MicroPython and CPython).

Why: the striker's boot/sleep/wake sequence is only right if the MPU-6050's registers are written in
the right order around deep sleep. ``Sim`` models the parts that outlive a deep sleep — the MPU's
register file and motion latch, RTC memory, the flash file system (the real one of the
interpreter) — and records every register write, every radio frame and every sleep. A test boots
the real ``striker_app.main()`` again and again: ``machine.deepsleep`` raises :class:`DeepSleep`,
``machine.reset`` :class:`Reset`, a starved watchdog :class:`WdtReset`, and the fake clock raises
:class:`StopSim` when the scenario's time is up. Time only moves when the code sleeps or talks
to a peripheral, so runs are deterministic and never wait.

Models a chip and a MicroPython version as MicroPython's ``ports/esp32`` (modesp32.c, modmachine.c)
has them: ``esp32.wake_on_gpio`` exists from 1.27 on **every** chip, but only the ESP32-C3 can end a
deep sleep with it (GPIO0-5; on the ESP32/S2/S3 ``machine.deepsleep()`` then raises "DEEPSLEEP with
gpio pins not supported on this chip"); ``esp32.wake_on_ext1`` exists only on the ESP32/S2/S3 and
takes RTC GPIOs only (RTC_PINS), raising ValueError("invalid pin") for any other.
"""

import sys

import frames


class DeepSleep(BaseException):
    pass


class Reset(BaseException):
    pass


class WdtReset(BaseException):
    pass


class StopSim(BaseException):
    pass


RTC_PINS = {  # GPIOs an EXT1 wake accepts, per chip (the datasheets' RTC GPIO tables)
    "esp32": (0, 2, 4, 12, 13, 14, 15, 25, 26, 27, 32, 33, 34, 35, 36, 37, 38, 39),
    "esp32s2": tuple(range(22)),
    "esp32s3": tuple(range(22)),
}


class _Mod:
    """A stand-in module: attributes set by the simulator."""


# MPU-6050 registers the model knows
PWR_MGMT_1 = 0x6B
PWR_MGMT_2 = 0x6C
ACCEL_CONFIG = 0x1C
MOT_THR = 0x1F
INT_PIN_CFG = 0x37
INT_ENABLE = 0x38
INT_STATUS = 0x3A
ACCEL_XOUT_H = 0x3B
WHO_AM_I = 0x75


class FakeMPU:
    """Register file, motion latch and data registers of an MPU-6050 (power-on values)."""

    def __init__(self, sim):
        self.sim = sim
        self.regs = {PWR_MGMT_1: 0x40, WHO_AM_I: 0x68}  # sleeps after power-on
        self.latch = False
        self.log = []  # ("w", reg, value) / ("r", reg)
        self.fail = 0  # the next n transactions raise OSError (a glitch)
        self.dead = False  # every transaction raises OSError (unplugged)
        self.accel = None  # function(t_ms) -> (x, y, z) in g; None: at rest, gravity on z

    def _check(self):
        self.sim.advance(30)  # an I2C transaction takes some 30 µs at 400 kHz
        if self.dead:
            raise OSError(19)
        if self.fail:
            self.fail -= 1
            raise OSError(116)

    def reg(self, r):
        return self.regs.get(r, 0)

    def armed(self):
        """Motion wake works: cycle mode on, not asleep, motion interrupt on, a threshold, a filter."""
        p1 = self.reg(PWR_MGMT_1)
        return (p1 & 0x20 and not p1 & 0x40 and self.reg(INT_ENABLE) & 0x40 and self.reg(MOT_THR) > 0
                and self.reg(ACCEL_CONFIG) & 0x07 in (1, 2, 3, 4))

    def low_power(self):
        return bool(self.reg(PWR_MGMT_1) & 0x20) and self.reg(PWR_MGMT_2) & 0x07 == 0x07

    def move(self):
        """The striker is picked up: the latch sets (and INT rises) only if the detector is armed."""
        if self.armed():
            self.latch = True

    def int_level(self):
        return 1 if self.latch and self.reg(INT_ENABLE) & 0x40 else 0

    def write(self, reg, value):
        self._check()
        self.log.append(("w", reg, value))
        if reg == PWR_MGMT_1 and value & 0x80:
            self.regs = {PWR_MGMT_1: 0x40, WHO_AM_I: 0x68}
            return
        self.regs[reg] = value
        if reg in (PWR_MGMT_1, ACCEL_CONFIG) and self.sim.strict_filter:
            self.latch = False  # leaving cycle mode or touching the filter loses the motion evidence

    def read(self, reg, n):
        self._check()
        self.log.append(("r", reg))
        if reg == INT_STATUS:
            v = 0x40 if self.latch else 0
            self.latch = False
            return bytes([v] + [0] * (n - 1))
        if reg == ACCEL_XOUT_H:
            t = self.sim.now_us // 1000
            x, y, z = self.accel(t) if self.accel else (0.0, 0.0, 1.0)
            lsb = (16384, 8192, 4096, 2048)[(self.reg(ACCEL_CONFIG) >> 3) & 3]
            out = bytearray()
            for g in (x, y, z):
                v = max(-32768, min(32767, int(round(g * lsb))))
                out.extend((v & 0xFFFF).to_bytes(2, "big"))
            return bytes(out[:n])
        return bytes([self.reg(reg + i) for i in range(n)])

    def writes_since(self, mark):
        return [e for e in self.log[mark:] if e[0] == "w"]


class Sim:
    def __init__(self, chip="esp32c3", mp=(1, 27), mac=b"\x34\x85\x18\x1a\x2b\x3c", acks=True):
        self.chip = chip
        self.mp = mp
        self.mac = mac
        self.now_us = 0
        self.stop_at_us = None
        self.strict_filter = True
        self.mpu = FakeMPU(self)
        self.rtc_mem = b""
        self.reset_cause = 1  # PWRON_RESET
        self.wake_reason = 0
        self.wake_pins = ()
        self.wake_level = None
        self.ext1_pins = ()
        self.sleeps = []  # dicts: how each deep sleep was entered
        self.air = []  # (t_ms, mac, payload dict or None, sync, acked, (pmk, lmk) or None: in the clear)
        self.inbox = []  # (mac, msg) or (mac, msg, (pmk, lmk) it was encrypted with) for ESP-NOW receive
        self.rssi = {}  # mac → dBm of what arrives from it (ESPNow.peers_table)
        self.later = []  # (t_ms, mac, msg): moved to the inbox once the clock reaches t_ms
        self.acks = acks  # bool or function(mac, payload) -> bool: does the peer acknowledge
        self.wdt_timeout_ms = None
        self.wdt_fed_us = 0
        self.wdt_feeds = 0
        self.adc_uv = 1950000
        self.boots = 0
        self.recv_error = None  # an exception the next ESPNow.recv raises
        self.radio_dropped = 0  # frames the stand-in radio dropped for their encryption
        self.kbd_intr = []  # (t_ms, char) calls of micropython.kbd_intr
        self.usb_in = bytearray()  # bytes the Pi wrote to the base station
        self.usb_out = bytearray()  # bytes the base station wrote to the Pi
        self.modules = self._build()

    # --- time --------------------------------------------------------------------------------
    def advance(self, us):
        self.now_us += us
        if self.wdt_timeout_ms is not None and self.now_us - self.wdt_fed_us > self.wdt_timeout_ms * 1000:
            self.wdt_timeout_ms = None
            raise WdtReset()
        if self.stop_at_us is not None and self.now_us >= self.stop_at_us:
            self.stop_at_us = None
            raise StopSim()

    def run_for(self, ms):
        self.stop_at_us = self.now_us + ms * 1000

    # --- boots ---------------------------------------------------------------------------------
    def boot(self, app, cause=1, wake=0):
        """Run ``app.main()`` as a fresh boot; returns how it ended: "sleep", "reset", "wdt", "stop"."""
        self.boots += 1
        self.reset_cause = cause
        self.wake_reason = wake
        self.wake_pins = ()
        self.ext1_pins = ()
        self.wdt_timeout_ms = None
        self.inbox_pos = 0
        try:
            app.main()
        except DeepSleep:
            return "sleep"
        except Reset:
            return "reset"
        except WdtReset:
            return "wdt"
        except StopSim:
            return "stop"
        return "returned"

    def sent(self, t=None):
        return [a for a in self.air if a[2] is not None and (t is None or a[2]["t"] == t)]

    # --- the stand-in modules ---------------------------------------------------------------------
    def _build(self):
        sim = self

        # time
        tm = _Mod()
        tm.ticks_us = lambda: sim.now_us & 0x3FFFFFFF
        tm.ticks_ms = lambda: (sim.now_us // 1000) & 0x3FFFFFFF

        def ticks_diff(a, b):
            d = (a - b) & 0x3FFFFFFF
            return d - 0x40000000 if d >= 0x20000000 else d

        tm.ticks_diff = ticks_diff
        tm.ticks_add = lambda a, b: (a + b) & 0x3FFFFFFF
        tm.sleep_us = lambda us: sim.advance(max(0, us))
        tm.sleep_ms = lambda ms: sim.advance(max(0, ms) * 1000)
        tm.sleep = lambda s: sim.advance(int(s * 1000000))

        # machine
        m = _Mod()
        m.PWRON_RESET, m.HARD_RESET, m.WDT_RESET, m.DEEPSLEEP_RESET, m.SOFT_RESET = 1, 2, 3, 4, 5
        m.TIMER_WAKE, m.EXT0_WAKE, m.EXT1_WAKE, m.PIN_WAKE = 4, 2, 3, 2
        m.DEEPSLEEP, m.SLEEP = 4, 2
        m.reset_cause = lambda: sim.reset_cause
        m.wake_reason = lambda: sim.wake_reason

        def deepsleep(ms=None):
            if sim.wake_pins and sim.chip != "esp32c3":
                raise ValueError("DEEPSLEEP with gpio pins not supported on this chip")
            if sim.wake_pins:
                for p in sim.wake_pins:
                    if p > 5:
                        raise ValueError("wake-up pin not supported")
            sim.sleeps.append({"t_ms": sim.now_us // 1000, "timer_ms": ms, "gpio": sim.wake_pins,
                               "level": sim.wake_level, "ext1": sim.ext1_pins, "armed": bool(sim.mpu.armed()),
                               "low_power": sim.mpu.low_power(), "int": sim.mpu.int_level()})
            raise DeepSleep()

        m.deepsleep = deepsleep

        def reset():
            raise Reset()

        m.reset = reset

        class RTC:
            def memory(self, data=None):
                if data is None:
                    return sim.rtc_mem
                sim.rtc_mem = bytes(data)

        class WDT:
            def __init__(self, id=0, timeout=5000):
                sim.wdt_timeout_ms = timeout
                sim.wdt_fed_us = sim.now_us

            def feed(self):
                sim.wdt_fed_us = sim.now_us
                sim.wdt_feeds += 1

        class Pin:
            IN, OUT = 1, 3
            PULL_UP, PULL_DOWN = 1, 2

            def __init__(self, n, mode=None, pull=None):
                self.n = n

            def value(self):
                return sim.mpu.int_level()

        class I2C:
            def __init__(self, bus, sda=None, scl=None, freq=400000):
                pass

            def writeto_mem(self, addr, reg, data):
                for i in range(len(data)):
                    sim.mpu.write(reg + i, data[i])

            def readfrom_mem(self, addr, reg, n):
                return sim.mpu.read(reg, n)

            def readfrom_mem_into(self, addr, reg, buf):
                data = sim.mpu.read(reg, len(buf))
                for i in range(len(buf)):
                    buf[i] = data[i]

        class ADC:
            ATTN_11DB = 3

            def __init__(self, pin):
                pass

            def atten(self, a):
                pass

            def read_uv(self):
                return sim.adc_uv

        m.RTC, m.WDT, m.Pin, m.I2C, m.ADC = RTC, WDT, Pin, I2C, ADC

        # esp32
        e32 = _Mod()
        e32.WAKEUP_ALL_LOW, e32.WAKEUP_ANY_HIGH = False, True
        if sim.mp >= (1, 27):
            def wake_on_gpio(pins=None, level=False):
                if pins is not None:
                    sim.wake_pins = tuple(p.n for p in pins)
                sim.wake_level = level

            e32.wake_on_gpio = wake_on_gpio
        if sim.chip != "esp32c3":
            def wake_on_ext1(pins=None, level=False):
                if pins is not None:
                    for p in pins:
                        if p.n not in RTC_PINS[sim.chip]:
                            raise ValueError("invalid pin")
                    sim.ext1_pins = tuple(p.n for p in pins)
                sim.wake_level = level

            e32.wake_on_ext1 = wake_on_ext1

        # network
        net = _Mod()
        net.STA_IF = 0

        class WLAN:
            def __init__(self, i):
                pass

            def active(self, on=None):
                return True

            def config(self, *args, **kw):
                if args == ("mac",):
                    return sim.mac
                return None

        net.WLAN = WLAN

        # espnow
        en = _Mod()

        class ESPNow:
            """MicroPython's ``espnow.ESPNow`` with ESP-NOW's encryption as ESP-IDF does it: a peer
            added with a 16-byte ``lmk`` (``encrypt`` defaults to True then) is sent to and heard from
            encrypted with the PMK and that LMK (``set_pmk``; both ends must hold both). What the
            radio hands to ``recv`` (firmware.md "Encryption"): an encrypted frame only from a peer
            registered with the same keys; a frame in the clear only from a MAC that is not an
            encrypted peer. Everything else is dropped before the application sees it (counted in
            ``sim.radio_dropped``). At most 6 encrypted peers (``espnow.MAX_ENCRYPT_PEER_NUM``)."""

            def __init__(self):
                self.peers = {}  # mac → lmk bytes (encrypted) or None
                self.pmk = None
                self.peers_table = {}  # {mac: [rssi, time_ms]}, as MicroPython's espnow keeps it

            def active(self, on=None):
                return True

            def set_pmk(self, pmk):
                if len(pmk) != 16:
                    raise ValueError("pmk must be 16 bytes")
                self.pmk = bytes(pmk)

            def _lmk(self, lmk, encrypt):
                if lmk is not None and not isinstance(lmk, bool) and len(lmk) != 16:
                    raise ValueError("lmk must be 16 bytes")
                on = bool(lmk) if encrypt is None else encrypt
                if on and not lmk:
                    raise ValueError("encrypt needs an lmk")
                return bytes(lmk) if on else None

            def _count_encrypted(self, mac, lmk):
                n = sum(1 for m in self.peers if m != mac and self.peers[m] is not None)
                if lmk is not None and n >= 6:
                    raise OSError(-12394, "ESP_ERR_ESPNOW_FULL")

            def add_peer(self, mac, lmk=None, channel=None, ifidx=None, encrypt=None):
                mac = bytes(mac)
                if mac in self.peers:
                    raise OSError(-12395, "ESP_ERR_ESPNOW_EXIST")
                lmk = self._lmk(lmk, encrypt)
                self._count_encrypted(mac, lmk)
                self.peers[mac] = lmk

            def mod_peer(self, mac, lmk=None, channel=None, ifidx=None, encrypt=None):
                mac = bytes(mac)
                if mac not in self.peers:
                    raise OSError(-12393, "ESP_ERR_ESPNOW_NOT_FOUND")
                if lmk is None and encrypt is None:
                    return
                lmk = self._lmk(lmk if lmk is not None else self.peers[mac], encrypt)
                self._count_encrypted(mac, lmk)
                self.peers[mac] = lmk

            def key_for(self, mac):
                """(pmk, lmk) a frame to or from ``mac`` is encrypted with, or None (in the clear)."""
                lmk = self.peers.get(bytes(mac))
                return None if lmk is None else (self.pmk, lmk)

            def send(self, mac, msg, sync=True):
                sim.advance(2000 if sync else 300)  # an acknowledged unicast takes ~2 ms
                try:
                    payload = frames.check_payload(msg)
                except frames.FrameError:
                    payload = None
                if mac != b"\xff" * 6 and bytes(mac) not in self.peers:
                    raise OSError(-12393, "ESP_ERR_ESPNOW_NOT_FOUND")
                ack = sim.acks(mac, payload) if callable(sim.acks) else sim.acks
                if mac == b"\xff" * 6:
                    ack = True  # broadcast is never acknowledged; send() says True
                sim.air.append((sim.now_us // 1000, bytes(mac), payload, sync, ack, self.key_for(mac)))
                return ack if sync else True

            def any(self):
                return bool(sim.inbox)

            def del_peer(self, mac):
                if bytes(mac) not in self.peers:
                    raise OSError(-12393, "ESP_ERR_ESPNOW_NOT_FOUND")
                del self.peers[bytes(mac)]

            def recv(self, timeout_ms=None):
                now_ms = sim.now_us // 1000
                while sim.later and sim.later[0][0] <= now_ms:
                    sim.inbox.append(sim.later.pop(0)[1:])
                if sim.recv_error is not None:
                    exc, sim.recv_error = sim.recv_error, None
                    raise exc
                while sim.inbox:
                    item = sim.inbox.pop(0)
                    mac, msg = item[0], item[1]
                    sent_with = item[2] if len(item) > 2 else None  # (pmk, lmk) the sender encrypted with
                    if sent_with != self.key_for(mac):
                        sim.radio_dropped += 1  # wrong key, no key, or in the clear from an encrypted peer
                        continue
                    self.peers_table[bytes(mac)] = [sim.rssi.get(bytes(mac), -60), (sim.now_us // 1000) & 0x3FFFFFFF]
                    return mac, msg
                sim.advance((timeout_ms or 0) * 1000)
                return None, None

        en.ESPNow = ESPNow

        # micropython (kbd_intr) and select (the base station's USB input)
        mp = _Mod()

        def kbd_intr(ch):
            sim.kbd_intr.append((sim.now_us // 1000, ch))

        mp.kbd_intr = kbd_intr
        sel = _Mod()
        sel.POLLIN = 1

        class Poll:
            def register(self, obj, mask=1):
                pass

            def poll(self, timeout=-1):
                return [(None, 1)] if sim.usb_in else []

        sel.poll = Poll
        return {"time": tm, "machine": m, "esp32": e32, "network": net, "espnow": en, "micropython": mp,
                "select": sel}

    def usb(self):
        """(poller, input, output) for the base station's usb_io()."""
        sim = self

        class In:
            def read(self, n):
                data = bytes(sim.usb_in[:n])
                sim.usb_in = sim.usb_in[n:]
                return data

        class Out:
            def write(self, data):
                sim.usb_out.extend(data)
                return len(data)

        return self.modules["select"].poll(), In(), Out()

    def install(self):
        for name in self.modules:
            sys.modules[name] = self.modules[name]
