"""The striker's real striker_app.py booted again and again on recording stand-in hardware.

Runs under real MicroPython (node run.mjs ... with firmware/striker and this folder on the path)
and under CPython (cwd = a scratch folder: the app writes base_mac.txt). Prints "OK <n> checks"
or one line per failure. See fakehw.py for what is modelled.
"""

import math
import sys

import fakehw
import frames
from tally import Tally

_tally = Tally()
BASE = b"\xaa\xbb\xcc\xdd\xee\x01"
C3_GPIO_WAKE = 7  # esp_sleep_get_wakeup_cause() for a GPIO wake: MicroPython has no constant for it
TIMER_WAKE = 4
DEEPSLEEP_RESET = 4


check = _tally.check


def fresh(sim, paired=True, **cfg):
    """Install the stand-ins and import the app anew (its ``from machine import ...`` binds them)."""
    sim.install()
    for name in ("striker_app", "mpu6050", "config"):
        if name in sys.modules:
            del sys.modules[name]
    import config

    config.IDLE_SLEEP_MS = 1000
    config.AWAKE_MIN_MS = 0  # the scenarios below time their own sleeps; the game-night one sets both
    for k in cfg:
        setattr(config, k, cfg[k])
    import striker_app

    striker_app.save_base(BASE if paired else None)
    striker_app.save_key(None)
    try:
        import os

        os.remove(striker_app.SETTINGS_FILE)  # every scenario starts untuned
    except OSError:
        pass
    return striker_app


def hits(at_ms, amp=8.0, vertical=False):
    """accel(t) with hits (a damped 300 Hz ring) starting at each time in ``at_ms``."""
    def accel(t):
        x, y, z = 0.0, 0.0, 1.0
        for start in at_ms:
            dt = t - start
            if 0 <= dt < 80:
                v = amp * math.exp(-dt / 6) * math.cos(2 * math.pi * 300 * dt / 1000)
                if vertical:
                    z += v
                else:
                    x += 0.8 * v
                    y += 0.6 * v
        return x, y, z
    return accel


def first_mpu_op_after(sim, mark):
    ops = sim.mpu.log[mark:]
    return ops[0] if ops else None


def scenario_wake_cycles_c3_127():
    """Sleep, wake on GPIO3 (wake_on_gpio), re-arm before every sleep, three times over."""
    sim = fakehw.Sim()
    app = fresh(sim)
    check(sim.boot(app) == "sleep", "power-on boot ends in deep sleep after the idle time")
    s = sim.sleeps[-1]
    check(s["gpio"] == (3,) and s["level"] is True and s["timer_ms"] is None,
          f"first sleep wakes on GPIO3 high only, no timer: {s!r}")
    check(s["armed"] and s["low_power"] and s["int"] == 0, f"MPU armed, in cycle mode, INT low at sleep: {s!r}")
    check(900 <= s["t_ms"] <= 1400, f"slept after about IDLE_SLEEP_MS: {s['t_ms']} ms")
    sleeps = sim.sent("sleep")
    check(len(sleeps) == 1 and sleeps[0][1] == BASE and sleeps[0][3] and sleeps[0][4],
          f"one acknowledged unicast sleep frame before sleeping: {sleeps!r}")
    check(sleeps and sleeps[0][2].get("why") == "idle" and sleeps[0][2]["bat"] == 3.9, "sleep frame says idle, 3.9 V")
    check(all(a[1] == BASE for a in sim.air), "a paired striker sends only to its base")

    # a glitch on INT (or a wake with nothing latched): back to sleep without writing a register
    mark = len(sim.mpu.log)
    check(sim.boot(app, DEEPSLEEP_RESET, C3_GPIO_WAKE) == "sleep", "a wake with no motion latched sleeps again")
    check(first_mpu_op_after(sim, mark) == ("r", fakehw.INT_STATUS), "the latch is the first thing read")
    check(sim.mpu.writes_since(mark) == [], f"still armed: no register written ({sim.mpu.writes_since(mark)!r})")
    check(sim.sleeps[-1]["gpio"] == (3,) and sim.sleeps[-1]["armed"], "and the wake pin is set again")

    seqs = [a[2]["seq"] for a in sim.sent()]
    for cycle in range(3):
        sim.mpu.move()
        check(sim.mpu.int_level() == 1, f"cycle {cycle}: moving the armed striker raises INT")
        mark = len(sim.mpu.log)
        t0 = sim.now_us // 1000
        sim.mpu.accel = hits([t0 + 300])
        check(sim.boot(app, DEEPSLEEP_RESET, C3_GPIO_WAKE) == "sleep", f"cycle {cycle}: awake, then asleep again")
        check(first_mpu_op_after(sim, mark) == ("r", fakehw.INT_STATUS), f"cycle {cycle}: latch read before any write")
        s = sim.sleeps[-1]
        check(s["armed"] and s["low_power"] and s["gpio"] == (3,) and s["int"] == 0,
              f"cycle {cycle}: re-armed before sleeping: {s!r}")
        strikes = [a for a in sim.sent("strike") if a[0] >= t0]
        check(len(strikes) == 1 and strikes[0][3] and strikes[0][2]["g"] > 5, f"cycle {cycle}: the hit was sent: {strikes!r}")
        seqs += [a[2]["seq"] for a in sim.sent() if a[0] >= t0]
    check(seqs == list(range(len(seqs))), "seq continues across deep sleeps (RTC memory), no gap, no repeat")
    check(len(sim.sleeps) == 5, f"5 sleeps, got {len(sim.sleeps)}")


def scenario_old_micropython_timer_polls():
    """MicroPython < 1.27 on a C3 (no wake_on_gpio): timed polls that only read the latch."""
    sim = fakehw.Sim(mp=(1, 26))
    app = fresh(sim)
    check(sim.boot(app) == "sleep", "1.26: sleeps")
    s = sim.sleeps[-1]
    check(s["timer_ms"] == 2000 and s["gpio"] == () and s["armed"], f"1.26: timed poll every 2 s, MPU armed: {s!r}")
    for _ in range(3):
        mark = len(sim.mpu.log)
        check(sim.boot(app, DEEPSLEEP_RESET, TIMER_WAKE) == "sleep", "1.26: a poll without motion sleeps again")
        check(sim.mpu.log[mark:] == [("r", fakehw.INT_STATUS)] + [("r", r) for r in (0x6B, 0x6C, 0x38, 0x37, 0x1C, 0x1F)],
              f"1.26: a poll only reads (latch, then the armed check): {sim.mpu.log[mark:]!r}")
        check(sim.mpu.low_power(), "1.26: the MPU stays in cycle mode between polls")
    sim.mpu.move()
    sim.run_for(200)
    check(sim.boot(app, DEEPSLEEP_RESET, TIMER_WAKE) == "stop", "1.26: motion latched → stays awake")
    check(not sim.mpu.low_power(), "1.26: awake at full rate")


def scenario_int_on_a_pin_that_cannot_wake():
    sim = fakehw.Sim()
    app = fresh(sim, MPU_INT=6)
    check(sim.boot(app) == "sleep", "INT on GPIO6: still sleeps")
    s = sim.sleeps[-1]
    check(s["timer_ms"] == 2000 and s["gpio"] == (), f"GPIO6 cannot wake a C3: falls back to timed polls: {s!r}")


EXT1_WAKE = 3  # machine.EXT1_WAKE on the ESP32/S2/S3


def scenario_esp32_s2_s3_boards_sleep_on_ext1_not_on_timed_polls():
    """ESP32/S2/S3 with MicroPython 1.27: wake_on_gpio exists there too but cannot end a deep sleep;
    the striker must use EXT1 on an RTC GPIO (firmware.md "Which pin may carry INT")."""
    for chip, pin in (("esp32s3", 3), ("esp32s2", 3), ("esp32", 4)):
        sim = fakehw.Sim(chip=chip)
        app = fresh(sim, MPU_INT=pin)
        check(sim.boot(app) == "sleep", f"{chip}: sleeps")
        s = sim.sleeps[-1]
        check(s["ext1"] == (pin,) and s["level"] is True and s["timer_ms"] is None and s["gpio"] == (),
              f"{chip}: deep sleep ends on EXT1 (GPIO{pin} high), no timed polls: {s!r}")
        sim.mpu.move()
        sim.run_for(200)
        check(sim.boot(app, DEEPSLEEP_RESET, EXT1_WAKE) == "stop" and sim.mpu.reg(0x6B) == 0x01,
              f"{chip}: picked up, the EXT1 wake runs the striker")
    sim = fakehw.Sim(chip="esp32")
    app = fresh(sim, MPU_INT=3)  # GPIO3 is no RTC GPIO on the classic ESP32
    check(sim.boot(app) == "sleep" and sim.sleeps[-1]["timer_ms"] == 2000 and sim.sleeps[-1]["ext1"] == (),
          f"esp32, INT on GPIO3 (no RTC pin): timed polls, as documented: {sim.sleeps[-1]!r}")


def scenario_a_low_battery_says_so_in_its_sleep_frame():
    """Below config.LOW_BATTERY_V (3.8 V: the Schottky power path browns out at a 3.6-3.7 V cell)."""
    for uv, why in ((1950000, "idle"), (1850000, "low_battery")):
        sim = fakehw.Sim()
        sim.adc_uv = uv
        app = fresh(sim)
        sim.boot(app)
        got = [a[2]["why"] for a in sim.sent("sleep")]
        check(got == [why], f"battery {uv * 2 / 1e6:.2f} V: sleep frame why={got!r}, expected {why!r}")


def scenario_model_catches_the_old_order():
    """The model is strict enough to have caught the old bug: writing first loses the latch."""
    sim = fakehw.Sim()
    app = fresh(sim)
    sim.boot(app)
    sim.mpu.move()
    import mpu6050

    m = mpu6050.MPU6050(sim.modules["machine"].I2C(0))
    m.start()
    check(not m.motion_latched(), "model: configuring the MPU before reading the latch loses the wake-up")


def scenario_i2c_errors_and_watchdog():
    """I2C glitches are survived; a dead sensor stops the watchdog feeding → reset, never the REPL."""
    sim = fakehw.Sim()
    app = fresh(sim, IDLE_SLEEP_MS=60000)
    sim.run_for(400)

    def glitch(t):
        if t == 100:
            sim.mpu.fail = 30  # 30 failed transactions: one recovery (new I2C + start) on the way
        return 0.0, 0.0, 1.0

    sim.mpu.accel = glitch
    check(sim.boot(app) == "stop", "I2C glitch: the loop keeps running")
    hbs = sim.sent("hb")
    check(len(hbs) == 1, f"heartbeat sent at start: {len(hbs)}")
    check(sim.mpu.reg(0x6B) == 0x01 and sim.mpu.reg(0x1C) == 0x18, "sensor set up again after the glitch")
    before = max(a[2]["seq"] for a in sim.sent())
    sim.run_for(300)
    check(sim.boot(app, 3) == "stop", "after a watchdog reset the striker runs")
    after = [a[2]["seq"] for a in sim.sent()][-1]
    check(before < after <= before + 64 + 2, f"after a reset the seq jumps ahead, never back ({before} → {after})")
    t_dead = sim.now_us // 1000
    sim.mpu.dead = True
    sim.run_for(20000)
    check(sim.boot(app, 2) == "wdt", "a dead sensor: the watchdog resets the board")
    check(sim.now_us // 1000 - t_dead <= 5000 + 400, f"within WDT_MS plus the unhealthy time ({sim.now_us // 1000 - t_dead} ms)")
    check(sim.boot(app, 3) == "sleep" and sim.sleeps[-1]["timer_ms"] == 60000,
          "still dead after the watchdog reset: sleeps a minute instead of a reset loop that drains the battery")
    sim.mpu.dead = False
    check(sim.boot(app, 4, TIMER_WAKE) == "sleep" and sim.sleeps[-1]["armed"] and sim.sleeps[-1]["gpio"] == (3,),
          "sensor back after a minute: armed, sleeping until moved")
    sim.mpu.move()
    sim.run_for(300)
    check(sim.boot(app, 4, C3_GPIO_WAKE) == "stop" and sim.mpu.reg(0x6B) == 0x01, "moved: the striker runs again")


def scenario_radio_errors_are_survived():
    sim = fakehw.Sim()
    calls = {"n": 0}

    def flaky(mac, payload):
        calls["n"] += 1
        if calls["n"] % 2:
            raise OSError(-12391, "ESP_ERR_ESPNOW_NO_MEM")
        return True

    sim.acks = flaky
    app = fresh(sim, IDLE_SLEEP_MS=60000)
    sim.mpu.accel = hits([200, 500])
    sim.run_for(1200)
    check(sim.boot(app) == "stop", "ESP-NOW errors: the loop keeps running")
    check(len(sim.sent("strike")) == 2, f"both strikes got through on a retry: {sim.sent('strike')!r}")

    sim2 = fakehw.Sim()

    def broken(mac, payload):
        raise RuntimeError("a bug")

    sim2.acks = broken
    app = fresh(sim2)
    check(sim2.boot(app) == "reset", "an unexpected exception resets the board instead of stopping at the REPL")


def scenario_unicast_retries_and_pairing():
    """Acknowledged unicast with retries; unpaired strikers only ask to pair when waved."""
    sim = fakehw.Sim()
    tries = {}

    def lossy(mac, payload):
        if payload and payload["t"] == "strike":
            tries[payload["seq"]] = tries.get(payload["seq"], 0) + 1
            return tries[payload["seq"]] >= 3  # the first two copies are lost
        return True

    sim.acks = lossy
    app = fresh(sim, IDLE_SLEEP_MS=60000)
    sim.mpu.accel = hits([200])
    sim.run_for(600)
    sim.boot(app)
    strikes = sim.sent("strike")
    check(len(strikes) == 3 and len(set(a[2]["seq"] for a in strikes)) == 1 and all(a[3] for a in strikes),
          f"a lost strike is sent again, same seq, waiting for the ack each time: {strikes!r}")

    sim = fakehw.Sim()
    app = fresh(sim, paired=False, IDLE_SLEEP_MS=60000)
    sim.mpu.accel = hits([300])
    sim.run_for(500)
    sim.boot(app)
    check(sim.sent("hb") == [] and sim.sent("strike") == [], "unpaired: no heartbeats, no strikes on the air")
    reqs = sim.sent("pair_req")
    check(len(reqs) == 1 and reqs[0][1] == b"\xff" * 6 and reqs[0][2]["id"] == "st-1a2b3c" and reqs[0][2]["g"] > 5,
          f"waving an unpaired striker broadcasts one pair_req with its MAC-derived id and g: {reqs!r}")
    sim.inbox.append((b"\x11" * 6, frames.paired_payload(1, "someone-else")))
    sim.inbox.append((BASE, frames.paired_payload(2, "st-1a2b3c")))
    sim.run_for(300)
    sim.boot(app)
    import striker_app

    check(striker_app.load_base() == BASE, "paired: the base's MAC is stored (not the one naming another striker)")
    sim.run_for(600)
    sim.boot(app)
    check(sim.sent("hb") and all(a[1] == BASE for a in sim.sent("hb")), "after pairing: heartbeats unicast to the base")
    sim.inbox.append((b"\x22" * 6, frames.unpaired_payload(3)))
    sim.inbox.append((BASE, frames.unpaired_payload(4)))
    sim.run_for(100)
    sim.boot(app)
    check(striker_app.load_base() is None, "unpaired by its own base: forgets it")

    # a paired striker whose base stopped answering also asks to pair again when waved
    sim = fakehw.Sim(acks=False)
    app = fresh(sim, IDLE_SLEEP_MS=60000)
    sim.mpu.accel = hits([200, 400, 600, 800])
    sim.run_for(1000)
    sim.boot(app)
    check(len(sim.sent("pair_req")) == 1, f"after 3 unacknowledged strikes, the 4th wave asks to pair: {len(sim.sent('pair_req'))}")


def scenario_set_down_is_not_a_strike():
    """On the device: a vertical set-down spike sends nothing."""
    sim = fakehw.Sim()
    app = fresh(sim, IDLE_SLEEP_MS=60000)
    sim.mpu.accel = hits([200], amp=6.0, vertical=True)
    sim.run_for(500)
    sim.boot(app)
    check(sim.sent("strike") == [], "a set-down spike along gravity is not a strike")


PMK = "00112233445566778899aabbccddeeff"
LMK = "ffeeddccbbaa99887766554433221100"


def scenario_encrypted_after_pairing_and_a_spoofed_base_is_ignored():
    """Firmware 1.3.0 (firmware.md "Encryption"): the keys come with "paired" while the host pairs it;
    from then on the striker sends encrypted, and the radio hands it only what its base encrypted with
    the same keys: a neighbour using the base's MAC cannot tune it, re-key it or unpair it."""
    sim = fakehw.Sim()
    app = fresh(sim, paired=False, IDLE_SLEEP_MS=60000)
    app.save_key(None)
    sim.mpu.accel = hits([300])
    sim.run_for(500)
    sim.boot(app)
    check(len(sim.sent("pair_req")) == 1 and sim.sent("pair_req")[0][5] is None, "unpaired: pair_req in the clear")
    sim.inbox.append((BASE, frames.paired_payload(2, "st-1a2b3c", pmk=PMK, lmk=LMK)))
    sim.run_for(600)
    t0 = sim.now_us // 1000
    sim.boot(app)
    key = (frames.key_bytes(PMK), frames.key_bytes(LMK))
    check(app.load_key() == (PMK, LMK) and app.load_base() == BASE, f"keys stored with the base: {app.load_key()!r}")
    hbs = [a for a in sim.sent("hb") if a[0] >= t0]
    check(hbs and all(a[5] == key for a in hbs), f"after pairing everything to the base is encrypted: {hbs[:2]!r}")
    other = (frames.key_bytes("22" * 16), frames.key_bytes("33" * 16))
    sim.inbox.append((BASE, frames.tune_payload(3, "st-1a2b3c", 9.0)))  # the base's MAC, in the clear
    sim.inbox.append((BASE, frames.tune_payload(4, "st-1a2b3c", 9.5), other))  # another table's keys
    sim.inbox.append((BASE, frames.paired_payload(5, "st-1a2b3c", pmk="22" * 16, lmk="33" * 16)))  # re-key it
    sim.inbox.append((BASE, frames.unpaired_payload(6)))  # unpair it
    sim.run_for(600)
    t0 = sim.now_us // 1000
    sim.boot(app)
    check(set(_thr_of_hbs(sim, t0)) == {2.5} and app.load_key() == (PMK, LMK) and app.load_base() == BASE,
          f"a spoofed base changes nothing: thr {_thr_of_hbs(sim, t0)!r}, key {app.load_key()!r}")
    check(sim.radio_dropped == 4, f"the radio dropped all four: {sim.radio_dropped}")
    sim.inbox.append((BASE, frames.tune_payload(7, "st-1a2b3c", 9.0), key))
    sim.run_for(300)
    t0 = sim.now_us // 1000
    sim.boot(app)
    check(9.0 in _thr_of_hbs(sim, t0), f"its own base, rightly keyed, tunes it: {_thr_of_hbs(sim, t0)!r}")


def _thr_of_hbs(sim, since_ms=0):
    return [a[2].get("thr") for a in sim.sent("hb") if a[0] >= since_ms]


def scenario_tuning_applies_persists_and_survives_deep_sleep():
    """Firmware 1.2.0: only its own base may tune it; applied at once, stored on flash, read at every boot."""
    sim = fakehw.Sim()
    app = fresh(sim, IDLE_SLEEP_MS=1500)
    sim.run_for(300)
    check(sim.boot(app) == "stop", "tuning: runs")
    check(_thr_of_hbs(sim) == [2.5], f"the heartbeat reports the default threshold: {_thr_of_hbs(sim)!r}")
    sim.inbox.append((b"\x11" * 6, frames.tune_payload(1, "st-1a2b3c", 12.0)))  # a neighbour's base
    sim.inbox.append((BASE, frames.tune_payload(2, "st-other", 12.0)))  # our base, another striker's id
    sim.inbox.append((BASE, b'{"t":"tune","id":"base","seq":3,"sid":"st-1a2b3c","thr":20.0}'))  # out of range
    sim.inbox.append((BASE, b'{"t":"tune","id":"base","seq":4,"sid":"st-1a2b3c","thr":3.333}'))  # 3 decimals
    sim.inbox.append((BASE, b'{"t":"tune","id":"base","seq":5,"sid":"st-1a2b3c"}'))  # no thr
    sim.run_for(300)
    t0 = sim.now_us // 1000
    sim.boot(app)
    check(set(_thr_of_hbs(sim, t0)) == {2.5}, f"bad or foreign tunes change nothing: {_thr_of_hbs(sim, t0)!r}")
    check(app.load_threshold() == 2.5, "and nothing was stored")

    sim.inbox.append((BASE, frames.tune_payload(6, "st-1a2b3c", 12.0)))
    t0 = sim.now_us // 1000
    sim.mpu.accel = hits([t0 + 200])  # an 8 g hit: above the old 2.5 g, below the new 12 g
    sim.run_for(400)
    sim.boot(app)
    hbs = [a for a in sim.sent("hb") if a[0] >= t0 and a[2].get("thr") == 12.0]
    check(hbs and hbs[0][0] - t0 <= 30,
          f"its own base's tune is applied at once and reported by the next heartbeat: {hbs[:2]!r}")
    check([a for a in sim.sent("strike") if a[0] >= t0] == [], "an 8 g hit under the new 12 g threshold is no strike")
    check(app.load_threshold() == 12.0, "the threshold is stored on flash")
    import os

    check(app.SETTINGS_TMP not in os.listdir(), "the temp file was renamed over settings.json")

    sim.run_for(3000)
    check(sim.boot(app) == "sleep", "tuned striker goes to deep sleep when idle")
    sim.mpu.move()
    t0 = sim.now_us // 1000
    sim.mpu.accel = hits([t0 + 200, t0 + 600], amp=14.0)
    sim.run_for(900)
    check(sim.boot(app, DEEPSLEEP_RESET, C3_GPIO_WAKE) == "stop", "woken by motion")
    check(set(_thr_of_hbs(sim, t0)) == {12.0}, f"after the deep-sleep reboot it still uses 12 g: {_thr_of_hbs(sim, t0)!r}")
    check(len([a for a in sim.sent("strike") if a[0] >= t0]) == 2, "and a 14 g hit still strikes")

    for text in ('{"thr": 99}', "{corrupt", "[1, 2]"):
        with open(app.SETTINGS_FILE, "w") as f:
            f.write(text)
        sim.run_for(300)
        t0 = sim.now_us // 1000
        sim.boot(app, 2)
        check(set(_thr_of_hbs(sim, t0)) == {2.5}, f"settings.json {text!r} falls back to THRESHOLD_G: {_thr_of_hbs(sim, t0)!r}")


def main():
    return _tally.run((
        scenario_tuning_applies_persists_and_survives_deep_sleep, scenario_wake_cycles_c3_127,
        scenario_old_micropython_timer_polls, scenario_int_on_a_pin_that_cannot_wake,
        scenario_esp32_s2_s3_boards_sleep_on_ext1_not_on_timed_polls,
        scenario_a_low_battery_says_so_in_its_sleep_frame, scenario_model_catches_the_old_order,
        scenario_encrypted_after_pairing_and_a_spoofed_base_is_ignored, scenario_i2c_errors_and_watchdog,
        scenario_radio_errors_are_survived, scenario_unicast_retries_and_pairing, scenario_set_down_is_not_a_strike,
    ))


if __name__ == "__main__":
    code = main()
    if code:
        sys.exit(code)
