"""A game night on the striker's real striker_app.py (stand-in hardware): how long it is awake per turn.

Runs under real MicroPython (node run.mjs ... duty_cycle.py ../striker .) and CPython, with the
shipped config.py. Each turn the player picks the striker up (the motion latch wakes it), moves it
in the hand, flicks once, puts it down; the striker deep-sleeps until the next turn. The awake
times measured here and the datasheet currents below give the hours of play on the BOM's cell
(hardware_docs/firmware.md "Power" shows the same sum). Prints one "TURN ..." line per turn,
"AWAKE_MS <mean>", "HOURS <h>" and "OK" when every flick was sent once and HOURS >= 8.

Also knocks: a striker lying on the table is shaken awake by other strikes on the table (a knock
above the MPU's 160 mg wake threshold), sends nothing and sleeps again; "KNOCK ..." lines give its
awake time, and "NIGHT ..." lines the hours for slower handling and more knocks (the firmware.md
table "A night of play").
"""

import math
import sys

import check_striker
import fakehw

PERIOD_MS = 60000  # a busy two-player game: each striker is picked up once a minute
# (hand-motion ms before the flick, hand still?) per turn: usual turns, a long aim, one held still
TURNS = ((4000, False), (3000, False), (5000, False), (12000, False), (5000, True), (4000, False))
# datasheet currents (firmware.md "Estimated battery life"): awake = ESP32-C3 receiving + MPU-6050 at 1 kHz
AWAKE_MA = 90.0
BOOT_MS = 700  # ROM + ESP-IDF + MicroPython start before main.py runs, counted at the awake current
ASLEEP_MA = 0.09  # C3 deep sleep 5 uA + MPU cycle 20 uA + divider 19 uA + regulator + charger module
USABLE_MAH = 120.0  # 250 mAh cell behind the Schottky diode: brown-out at a 3.6-3.7 V cell (firmware.md)
KNOCKS_G = (0.3, 1.0)  # a coin flicked nearby / a fist on the table, as felt by a striker lying there
# (handling s a turn, knocks a minute) for the night table: measured, a slow group, with knocks
NIGHTS = ((None, 0), (None, 2), (20.0, 0), (20.0, 2), (20.0, 6))
DEEPSLEEP_RESET = 4
C3_GPIO_WAKE = 7


def turn_accel(t0, handling_ms, still):
    """Gravity plus an 8 Hz, 0.12 g hand wobble (none if ``still``), then one flick."""
    t_hit = t0 + handling_ms
    hit = check_striker.hits([t_hit])

    def accel(t):
        x, y, z = hit(t)
        if not still and t0 <= t < t_hit:
            x += 0.12 * math.sin(2 * math.pi * 8 * (t - t0) / 1000)
        return x, y, z
    return accel


def hours(awake_ms_per_turn, knocks_per_period=0, knock_awake_ms=0, usable_mah=USABLE_MAH):
    """Hours on the cell: each period one turn awake (plus its boot) and some knocks (each a boot
    and its awake time); asleep the rest."""
    awake = awake_ms_per_turn + BOOT_MS + knocks_per_period * (knock_awake_ms + BOOT_MS)
    awake = min(awake, PERIOD_MS)
    avg_ma = (awake * AWAKE_MA + (PERIOD_MS - awake) * ASLEEP_MA) / PERIOD_MS
    return usable_mah / avg_ma


def knock(sim, app, t0, amp):
    """A striker asleep on the table is knocked at ``t0``: (how it ended, ms awake, strikes sent)."""
    sim.now_us = t0 * 1000
    sim.mpu.accel = check_striker.hits([t0], amp=amp)
    sim.mpu.move()
    sim.run_for(PERIOD_MS - 1000)
    end = sim.boot(app, DEEPSLEEP_RESET, C3_GPIO_WAKE)
    sent = [a for a in sim.sent("strike") if a[0] >= t0]
    return end, (sim.sleeps[-1]["t_ms"] - t0 if end == "sleep" else None), len(sent)


def main():
    import config

    shipped = {"IDLE_SLEEP_MS": config.IDLE_SLEEP_MS, "AWAKE_MIN_MS": config.AWAKE_MIN_MS}
    sim = fakehw.Sim()
    app = check_striker.fresh(sim, **shipped)
    ok = sim.boot(app) == "sleep"  # power-on, lying on the table: asleep after AWAKE_MIN_MS
    awake = []
    t0 = 0
    for handling_ms, still in TURNS:
        t0 += PERIOD_MS
        sim.now_us = t0 * 1000  # asleep until the pick-up
        sim.mpu.accel = turn_accel(t0, handling_ms, still)
        sim.mpu.move()
        sim.run_for(PERIOD_MS - 1000)  # a striker that never sleeps again ends the turn as "stop"
        end = sim.boot(app, DEEPSLEEP_RESET, C3_GPIO_WAKE)
        strikes = [a for a in sim.sent("strike") if a[0] >= t0]
        ms = sim.sleeps[-1]["t_ms"] - t0 if end == "sleep" else None
        print(f"TURN handling_ms={handling_ms} still={still} end={end} awake_ms={ms} strikes={len(strikes)}")
        ok = ok and end == "sleep" and len(strikes) == 1 and sim.sleeps[-1]["armed"]
        awake.append(ms or PERIOD_MS)
    mean = sum(awake) // len(awake)
    h = hours(mean)
    print(f"AWAKE_MS {mean}")
    print(f"HOURS {h:.1f}")
    knock_ms = 0
    for amp in KNOCKS_G:  # a knock wakes it, but is never a flick: nothing is sent
        t0 += PERIOD_MS
        end, ms, sent = knock(sim, app, t0, amp)
        print(f"KNOCK g={amp} end={end} awake_ms={ms} strikes={sent}")
        ok = ok and end == "sleep" and sent == 0 and sim.sleeps[-1]["armed"]
        knock_ms = max(knock_ms, ms or PERIOD_MS)
    for handling_s, knocks in NIGHTS:
        turn_ms = mean if handling_s is None else int(handling_s * 1000)
        print(f"NIGHT handling_s={turn_ms / 1000:.1f} knocks_per_min={knocks} "
              f"hours={hours(turn_ms, knocks, knock_ms):.1f} "
              f"hours_power_path={hours(turn_ms, knocks, knock_ms, 200.0):.1f}")
    if ok and h >= 8:
        print(f"OK duty cycle ({sys.implementation.name})")
        return 0
    print(f"FAIL duty cycle ({sys.implementation.name})")
    return 1


if __name__ == "__main__":
    code = main()
    if code:
        sys.exit(code)
