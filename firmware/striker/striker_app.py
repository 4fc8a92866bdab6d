"""Striker: ESP32-C3 + MPU-6050. Samples at 1 kHz, sends strikes and heartbeats over ESP-NOW.

The hardware glue only: every decision about frames lives in lib/ (tested on the PC and under
MicroPython). This file is tested too, under real MicroPython with recording stand-ins for
``machine``/``esp32``/``espnow``/``network`` (firmware/test_runner/fakehw.py): the boot, sleep
and wake sequence, the watchdog and the error recovery.

Boot order matters: after a deep-sleep wake the MPU's motion latch is read before any register
is written, and the motion interrupt is re-armed (if it is not still armed) before every sleep.
Needs MicroPython >= 1.27 for the GPIO wake of the ESP32-C3 (``esp32.wake_on_gpio``); older
builds fall back to timed wake-ups that only read the latch.

The strike threshold is tuned from the host's bring-up page (firmware 1.2.0): its own base sends
``tune``; the striker applies it at once and stores it in ``settings.json`` (written to a temp
file, then renamed: a power cut leaves the old or the new file). Deep sleep reboots the board, so
the file is read at every boot; a missing, corrupt or out-of-range file gives config.THRESHOLD_G.
"""

import json
import os
import time

import config
import esp32
import espnow
import machine
import network
from frames import is_key, is_thr, key_bytes, mac_bytes, mac_hex
from machine import ADC, I2C, Pin
from mpu6050 import MPU6050
from radio import BROADCAST, StrikerRadio
from strike_detector import StrikeDetector
from striker_core import StrikerCore, battery_volts

BASE_FILE = "base_mac.txt"  # the paired base station's MAC (12 hex digits), written on pairing
KEY_FILE = "base_key.txt"  # "<pmk hex> <lmk hex>": ESP-NOW encryption with that base (firmware 1.3.0)
SETTINGS_FILE = "settings.json"  # {"thr": 3.0}: what the host tuned (firmware 1.2.0)
SETTINGS_TMP = "settings.tmp"
RECOVER_EVERY = 20  # failed sensor reads in a row before the I2C bus and the MPU are set up again
UNHEALTHY_AFTER = 200  # failed loop passes in a row after which the watchdog is no longer fed
RX_EVERY_MS = 20  # how often to look for a message from the base station (pairing)
BAT_EVERY_MS = 250
MAINTENANCE_WDT_MS = 3600000  # after Ctrl-C (mpremote): an hour at the REPL before the watchdog bites
SEQ_SKIP = 64  # after a reset other than a deep-sleep wake: frames sent since the last save may exist
SENSOR_RETRY_MS = 60000  # the watchdog reset us and the sensor is still gone: sleep, try again later


# --- state that survives deep sleep ---------------------------------------------------------

def load_seq():
    mem = machine.RTC().memory()
    return int.from_bytes(mem[:4], "big") if len(mem) >= 4 else 0


def save_seq(seq):
    machine.RTC().memory((seq % 4294967296).to_bytes(4, "big"))


def load_base():
    try:
        with open(BASE_FILE) as f:
            return mac_bytes(f.read().strip())
    except (OSError, ValueError):
        return None


def save_base(mac):
    if mac is None:
        try:
            os.remove(BASE_FILE)
        except OSError:
            pass
        return
    with open(BASE_FILE, "w") as f:
        f.write(mac_hex(mac))


def load_key():
    """(pmk hex, lmk hex) from KEY_FILE, or None (none stored, or not two 32-hex-digit keys)."""
    try:
        with open(KEY_FILE) as f:
            parts = f.read().split()
    except OSError:
        return None
    if len(parts) != 2 or not (is_key(parts[0]) and is_key(parts[1])):
        return None
    return parts[0], parts[1]


def save_key(key):
    if key is None:
        try:
            os.remove(KEY_FILE)
        except OSError:
            pass
        return
    with open(KEY_FILE, "w") as f:
        f.write(key[0] + " " + key[1])


def load_threshold():
    """The tuned strike threshold from flash, or config.THRESHOLD_G (missing, corrupt, out of range)."""
    try:
        with open(SETTINGS_FILE) as f:
            thr = json.loads(f.read()).get("thr")
    except (OSError, ValueError, AttributeError):
        return config.THRESHOLD_G
    return thr if is_thr(thr) else config.THRESHOLD_G


def save_threshold(thr):
    """Atomically: write the temp file, then rename it over the old one."""
    with open(SETTINGS_TMP, "w") as f:
        f.write(json.dumps({"thr": thr}))
    try:
        os.rename(SETTINGS_TMP, SETTINGS_FILE)
    except OSError:  # a file system whose rename does not replace: remove, then rename
        try:
            os.remove(SETTINGS_FILE)
        except OSError:
            pass
        os.rename(SETTINGS_TMP, SETTINGS_FILE)


class Uptime:
    """Milliseconds since boot that never wrap (ticks_ms wraps; ticks_diff does not care)."""

    def __init__(self):
        self._last = time.ticks_ms()
        self.ms = 0

    def now(self):
        t = time.ticks_ms()
        self.ms += time.ticks_diff(t, self._last)
        self._last = t
        return self.ms


# --- sleep and wake ---------------------------------------------------------------------------

def wake_on_int():
    """Make a rising MPU INT end deep sleep; returns "ext1", "gpio" or None (no API: timed polls).

    ESP32/S2/S3 boards: EXT1 on an RTC GPIO (``esp32.wake_on_ext1`` exists only on those chips).
    ESP32-C3: ``esp32.wake_on_gpio`` (MicroPython >= 1.27), GPIO0-5 only. EXT1 is tried first:
    from 1.27 on ``wake_on_gpio`` exists on every chip, but only a C3 can leave deep sleep with it
    (the others refuse at ``machine.deepsleep()``). ``Pin.irq(wake=DEEPSLEEP)`` is not used: on the
    C3 it is accepted but never wakes.
    """
    pin = Pin(config.MPU_INT, Pin.IN)  # the MPU drives INT push-pull; the chip adds a pull-down
    ext1 = getattr(esp32, "wake_on_ext1", None)
    if ext1 is not None:
        try:
            ext1((pin,), esp32.WAKEUP_ANY_HIGH)
            return "ext1"
        except ValueError:
            pass  # not an RTC pin on this chip
    gpio = getattr(esp32, "wake_on_gpio", None)
    if gpio is not None:
        gpio((pin,), esp32.WAKEUP_ANY_HIGH)
        return "gpio"
    return None


def clear_wake():
    for name in ("wake_on_gpio", "wake_on_ext1"):
        f = getattr(esp32, name, None)
        if f is not None:
            try:
                f((), esp32.WAKEUP_ANY_HIGH)
            except ValueError:
                pass


def deep_sleep(mpu):
    """Re-arm the motion interrupt unless it is still armed, then sleep until INT rises.

    A striker that cannot re-arm (sensor gone) still sleeps, on the timer: waking every
    WAKE_POLL_MS costs far less than staying awake, and each wake tries again.
    """
    try:
        if not mpu.is_armed(config.WAKE_MOTION_MG):
            mpu.arm_motion_wake(config.WAKE_MOTION_MG)
    except OSError:
        machine.deepsleep(config.WAKE_POLL_MS)
    if wake_on_int() is not None:
        try:
            machine.deepsleep()
        except ValueError:  # "wake-up pin not supported": MPU_INT is not GPIO0-5 on a C3
            clear_wake()
    machine.deepsleep(config.WAKE_POLL_MS)


def boot(i2c):
    """Right after reset: stay awake, or (woken but not moved) go back to sleep at once.

    Reads the MPU's latch before writing any register. A power-on or watchdog reset always runs.
    """
    mpu = MPU6050(i2c)
    if machine.reset_cause() != machine.DEEPSLEEP_RESET:
        return mpu
    try:
        moved = mpu.motion_latched()
    except OSError:
        moved = True  # sensor unreadable: stay awake; the loop recovers it or the watchdog resets
    if not moved:
        deep_sleep(mpu)  # a timed poll (no GPIO wake on this build) or a glitch on INT
    return mpu


# --- the awake loop ---------------------------------------------------------------------------

def new_i2c():
    return I2C(0, sda=Pin(config.I2C_SDA), scl=Pin(config.I2C_SCL), freq=400000)


def add_peer(e, mac, key=None):
    """A peer entry for ``mac``; with ``key`` (pmk hex, lmk hex) everything to and from it is
    encrypted, and the radio drops what that base did not encrypt with the same keys."""
    try:
        e.del_peer(mac)  # a new key replaces the old entry
    except OSError:
        pass
    try:
        if key is None:
            e.add_peer(mac)
        else:
            e.set_pmk(key_bytes(key[0]))
            e.add_peer(mac, lmk=key_bytes(key[1]), encrypt=True)
    except OSError:
        pass  # ESP-NOW full or busy: the next boot tries again


def radio_up():
    sta = network.WLAN(network.STA_IF)
    sta.active(True)
    sta.config(channel=config.CHANNEL)
    e = espnow.ESPNow()
    e.active(True)
    add_peer(e, BROADCAST)
    return sta, e


def striker_id(sta):
    if config.ID:
        return config.ID
    return "st-" + mac_hex(sta.config("mac"))[6:]


def run(mpu, wdt):
    sta, e = radio_up()
    link = StrikerRadio(striker_id(sta), load_base(), key=load_key())
    if link.base is not None:
        add_peer(e, link.base, link.key)
    detector = StrikeDetector(config.RATE_HZ, load_threshold(), config.REFRACTORY_MS, config.PEAK_WINDOW_MS,
                              vertical_max=config.VERTICAL_MAX)
    seq = load_seq()
    if seq and machine.reset_cause() != machine.DEEPSLEEP_RESET:
        seq += SEQ_SKIP  # never reuse a seq the Pi may have seen: its duplicate check would drop the frame
    # getattr: a config.py kept from firmware 1.2.0 lacks the sleep-between-turns settings
    core = StrikerCore(link.my_id, detector, config.HB_INTERVAL_MS, config.IDLE_SLEEP_MS, seq=seq,
                       awake_min_ms=getattr(config, "AWAKE_MIN_MS", 0), motion_g=getattr(config, "MOTION_G", None))
    low_v = getattr(config, "LOW_BATTERY_V", 0.0)
    adc = ADC(Pin(config.BAT_ADC))
    adc.atten(ADC.ATTN_11DB)
    bat = battery_volts(adc.read_uv(), config.BAT_DIVIDER)
    clock = Uptime()
    send = e.send
    bad_reads = 0
    bad_loops = 0
    next_rx = next_bat = 0
    period_us = 1000000 // config.RATE_HZ
    next_us = time.ticks_us()
    while True:
        now = clock.now()
        try:
            try:
                ax, ay, az = mpu.accel_g()
                bad_reads = 0
            except OSError:
                bad_reads += 1
                if bad_reads % RECOVER_EVERY == 0:
                    mpu = MPU6050(new_i2c())
                    mpu.start()  # raises OSError again while the sensor is gone
                raise
            payload = core.sample(ax, ay, az, now)
            if payload is not None:
                if link.paired:
                    link.reliable(payload, now)
                if not link.paired or link.lost:
                    link.broadcast(send, core.pair_req())
            link.pump(send, now)
            if now >= next_bat:
                next_bat = now + BAT_EVERY_MS
                bat = battery_volts(adc.read_uv(), config.BAT_DIVIDER)
            hb = core.tick(now, bat)
            if hb is not None:
                link.best_effort(send, hb)
                save_seq(core.seq)  # RTC memory: a watchdog reset continues from here
            if now >= next_rx:
                next_rx = now + RX_EVERY_MS
                while e.any():
                    mac, msg = e.recv(0)
                    if mac is None:
                        break
                    change = link.receive(mac, msg)
                    if change == "paired":
                        add_peer(e, link.base, link.key)
                        save_base(link.base)
                        save_key(link.key)
                    elif change == "unpaired":
                        try:
                            e.del_peer(mac)
                        except OSError:
                            pass
                        save_base(None)
                        save_key(None)
                    elif change == "tune" and core.set_threshold(link.tune_thr):
                        save_threshold(link.tune_thr)  # only when it changed: flash wears
            if core.should_sleep(now):
                if link.paired:
                    link.reliable(core.going_to_sleep(bat, "low_battery" if bat < low_v else "idle"), now)
                    link.flush(send, now)
                save_seq(core.seq)
                wdt.feed()
                deep_sleep(mpu)
            bad_loops = 0
        except OSError:
            bad_loops += 1  # I2C or radio trouble: skip this sample, keep the loop alive
        if bad_loops < UNHEALTHY_AFTER:
            wdt.feed()  # only a loop that gets samples keeps the board alive
        next_us = time.ticks_add(next_us, period_us)
        wait = time.ticks_diff(next_us, time.ticks_us())
        if wait > 0:
            time.sleep_us(wait)
        else:
            next_us = time.ticks_us()  # fell behind (radio busy): resynchronise, never spin


def main():
    """Never drops to the REPL on an error: an unexpected exception resets the board."""
    try:
        i2c = new_i2c()
        mpu = boot(i2c)
        wdt = machine.WDT(timeout=config.WDT_MS)
        try:
            mpu.start()
        except OSError:
            if machine.reset_cause() == machine.WDT_RESET:
                machine.deepsleep(SENSOR_RETRY_MS)  # still gone after a watchdog reset: no reset loop
            # otherwise the loop retries; the watchdog resets if the sensor never comes back
        run(mpu, wdt)
    except KeyboardInterrupt:
        machine.WDT(timeout=MAINTENANCE_WDT_MS)  # mpremote's Ctrl-C: time to copy files
        raise
    except Exception:  # noqa: BLE001 - anything else: start again rather than sit at the REPL
        time.sleep_ms(100)
        machine.reset()
