"""Striker: ESP32-C3 + MPU6050. Samples at 1 kHz, sends strikes and heartbeats over ESP-NOW.

Thin on purpose: every decision lives in lib/striker_core.py and lib/strike_detector.py, which
are tested on the PC and under MicroPython. Needs MicroPython >= 1.22 (espnow, f-strings).
"""

import time

import config
import esp32
import espnow
import machine
import network
from machine import ADC, I2C, Pin
from mpu6050 import MPU6050
from strike_detector import StrikeDetector
from striker_core import StrikerCore, battery_volts

SEQ_SLOT = machine.RTC()  # RTC memory survives deep sleep: the seq counter continues after wake


def load_seq():
    mem = SEQ_SLOT.memory()
    return int.from_bytes(mem[:4], "big") if len(mem) >= 4 else 0


def save_seq(seq):
    SEQ_SLOT.memory(seq.to_bytes(4, "big"))


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


def sleep_until_moved(mpu):
    """Deep sleep; the MPU-6050's motion interrupt on MPU_INT wakes the striker (a reset).

    The GPIO wake API differs between MicroPython ports/versions: try EXT1 (ESP32/S2/S3), then the
    Pin wake argument; if neither exists, wake on a timer and look at the MPU's latch (see boot()).
    """
    mpu.arm_motion_wake(config.WAKE_MOTION_MG)
    pin = Pin(config.MPU_INT, Pin.IN)
    try:
        esp32.wake_on_ext1((pin,), esp32.WAKEUP_ANY_HIGH)
        machine.deepsleep()
    except (AttributeError, TypeError, ValueError, OSError):
        pass
    try:
        pin.irq(trigger=Pin.WAKE_HIGH, wake=machine.DEEPSLEEP)
        machine.deepsleep()
    except (AttributeError, TypeError, ValueError, OSError):
        pass
    machine.deepsleep(config.WAKE_POLL_MS)


def boot(mpu):
    """After a timed wake with no motion latched, go straight back to sleep."""
    if machine.reset_cause() == machine.DEEPSLEEP_RESET and machine.wake_reason() == machine.TIMER_WAKE:
        if not mpu.motion_latched():
            machine.deepsleep(config.WAKE_POLL_MS)


def radio():
    sta = network.WLAN(network.STA_IF)
    sta.active(True)
    sta.config(channel=config.CHANNEL)
    e = espnow.ESPNow()
    e.active(True)
    try:
        e.add_peer(config.BASE_MAC)
    except OSError:
        pass  # already a peer
    return e


def main():
    i2c = I2C(0, sda=Pin(config.I2C_SDA), scl=Pin(config.I2C_SCL), freq=400000)
    mpu = MPU6050(i2c)
    boot(mpu)
    adc = ADC(Pin(config.BAT_ADC))
    adc.atten(ADC.ATTN_11DB)
    e = radio()
    detector = StrikeDetector(config.RATE_HZ, config.THRESHOLD_G, config.REFRACTORY_MS, config.PEAK_WINDOW_MS)
    core = StrikerCore(config.ID, detector, config.HB_INTERVAL_MS, config.IDLE_SLEEP_MS, seq=load_seq())
    clock = Uptime()
    period_us = 1000000 // config.RATE_HZ
    next_us = time.ticks_us()
    while True:
        now = clock.now()
        ax, ay, az = mpu.accel_g()
        payload = core.sample(ax, ay, az, now)
        if payload is not None:
            e.send(config.BASE_MAC, payload, False)  # no wait for ACK: a hit must not stall sampling
        hb = core.tick(now, battery_volts(adc.read_uv(), config.BAT_DIVIDER))
        if hb is not None:
            e.send(config.BASE_MAC, hb, False)
        if core.should_sleep(now):
            save_seq(core.seq)
            sleep_until_moved(mpu)
        next_us = time.ticks_add(next_us, period_us)
        wait = time.ticks_diff(next_us, time.ticks_us())
        if wait > 0:
            time.sleep_us(wait)
        else:
            next_us = time.ticks_us()  # fell behind (radio busy): resynchronise, never spin


main()
