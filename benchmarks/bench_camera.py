"""Camera observer figures (docs/camera.md, docs/performance.md): questions per strike on the beams-only
path and with the camera, wrong facts, and the analysis' CPU time, over random believable strikes
rendered through the virtual camera.

Every strike is flicked once on the pymunk table; the same steps drive the virtual beams (the beams
observer of a real table: ``flight_proof="none"``) and the virtual camera's frames. The Coin War
referee then gets (a) the beams' shot and (b) the beams' shot fused with the camera's (CAM-3), and
every question it asks is answered from the physics' truth and counted, whatever its kind. Team
games are a third of the strikes (teammate contacts are move strikes, CW-5.2).
Run: ``python -m benchmarks.bench_camera [STRIKES]``.
"""

from __future__ import annotations

import random
import time
from typing import Any

from controller.default_table import default_beams
from controller.games import coinwar as cw
from controller.games.coinwar.camera_facts import camera_shot
from controller.games.coinwar.camera_fusion import fuse
from controller.games.coinwar.sensing import Observer
from controller.games.coinwar.virtual_table import answer_from_truth
from gametable_core.clock import FakeClock
from sensors.camera.calibration import Recalibrator
from sensors.camera.recording import CoinInfo
from sensors.camera.tracking import StrikeTracker
from sensors.virtual.camera.record import record_strike
from sensors.virtual.camera.rig import CameraRig
from sensors.virtual.physics import StrikeTruth
from sensors.virtual.random_shots import random_flick, random_played_table, random_table
from sensors.virtual.virtual_beams import VirtualBeams

STRIKES = 2000
PLAYED_SHARE = 0.5  # tables laid out as played (random_played_table), the rest uniform
RIGS = 8  # mounts reused across strikes (the static table is drawn once per rig)
# colours a real group would use; a group may bring two of one colour (then sticker dots tell them apart)
PALETTE = ["#d03030", "#3050d0", "#30a040", "#e0c020", "#202020", "#f0f0f0", "#e07020", "#8040b0"]
FACTS = ("dead", "flown", "contacts")


def seat_coins(rng: random.Random, ids: list[str]) -> dict[str, CoinInfo]:
    """Seat colours for one game: distinct, except that one game in five has two seats in one colour."""
    colours = rng.sample(PALETTE, len(ids))
    if len(ids) >= 2 and rng.random() < 0.2:
        colours[-1] = colours[0]
    out = {}
    for i, c in enumerate(ids):
        mark = sum(1 for prev in colours[:i] if prev == colours[i])
        out[c] = CoinInfo(int(c[1:]), colours[i], (0.0, 0.0), mark)
    return out


def questions(shot: dict[str, Any], truth: StrikeTruth, n: int, teams: bool) -> int:
    """How many phone questions the Coin War referee asks for ``shot``, each answered from the truth."""
    seat = shot["seat"]
    players = [{"seat": s, "name": f"P{s}", **({"team": "AB"[s % 2]} if teams else {})} for s in range(1, n + 1)]
    order = [(seat - 1 + i) % n + 1 for i in range(n)]
    state = cw.new({}, 1, players=players, mode="teams" if teams else "ffa", order=order)
    state = cw.apply(state, {"type": "strike", "seat": seat})
    state = cw.apply(state, {k: v for k, v in shot.items()
                             if k in ("type", "seat", "coin", *FACTS, "beam_edges", "contacts_open")})
    asked = 0
    while state.get("questions"):
        q = state["questions"][0]
        value = answer_from_truth(q, truth, state)
        state = cw.apply(state, {"type": "answer", "question": q["id"], "value": value, "seat": seat})
        asked += 1
    return asked


def wrong(shot: dict[str, Any], truth: StrikeTruth) -> bool:
    """An accepted fact that contradicts the physics' truth."""
    want = truth.shot(shot["seat"])
    for fact in FACTS:
        got = shot.get(fact)
        if got is None:
            continue
        if fact == "contacts":  # pairs left open (CW-9 contacts_open) are asked, not stated
            unsure = {tuple(sorted(p)) for p in shot.get("contacts_open") or []}
            if ({tuple(sorted(p)) for p in got} ^ {tuple(sorted(p)) for p in want[fact]}) - unsure:
                return True
        elif sorted(got) != sorted(want[fact]):
            return True
    return False


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))] if ordered else 0.0


def run(strikes: int = STRIKES, seed: int = 23) -> dict[str, float]:
    rng = random.Random(seed)
    beams = default_beams()
    rigs = [CameraRig.random(random.Random(seed * 1000 + i)) for i in range(RIGS)]
    calibrations: dict[int, Any] = {}
    q_beams = q_camera = wrong_camera = wrong_beams = 0
    unknown = dict.fromkeys(FACTS, 0)
    cpu_ms: list[float] = []
    frame_ms: list[float] = []
    for i in range(strikes):
        teams = rng.random() < 1 / 3
        n = rng.choice([4, 6]) if teams else rng.randint(2, 6)
        # half the tables as games leave them: coins against rails, in corners, against each other
        table = (random_played_table if rng.random() < PLAYED_SHARE else random_table)(rng, n)
        coins = seat_coins(rng, table.coins())
        coin, vx, vy = random_flick(rng, table.positions())
        clock = FakeClock()
        facts: list[Any] = []
        vb = VirtualBeams(beams)
        vb.reset(table.positions())
        observer = Observer(beams, clock, facts.append, initially_blocked=vb.state)  # a real table: flight_proof none
        vb.on_edge = observer.on_edge
        observer.strike(int(coin[1:]), coin, coins_on_table=table.coins())

        def step(t: float, positions: dict, clock: FakeClock = clock, vb: VirtualBeams = vb, dt: float = table.dt) -> None:
            if t > 0:
                clock.advance(dt)
            vb.update(clock.now(), positions)

        r = i % RIGS
        rec, frames, truth = record_strike(table, coin, vx, vy, rigs[r], coins, also=step)
        clock.advance(observer.settle_s + 0.01)
        beam_facts = facts[-1]
        beam_shot = beam_facts.shot()
        if r not in calibrations:  # calibration happens between strikes, not in a strike's budget
            calibrations[r] = Recalibrator(rec.markers).update(frames[0])
        t0 = time.process_time()
        tracker = StrikeTracker(calibrations[r], rec.coins, coin, strike_t=rec.strike_t)
        for (_f, t), image in zip(rec.frames, frames, strict=True):
            f0 = time.process_time()  # CPU time: other processes on a shared machine do not count
            tracker.feed(t, image)
            if rec.strike_t <= t <= rec.strike_t + truth.duration_s:
                frame_ms.append((time.process_time() - f0) * 1000)
        cam = camera_shot(tracker.result(), seat=int(coin[1:]), coin=coin)
        cpu_ms.append((time.process_time() - t0) * 1000)
        fused, _disagreements = fuse(beam_shot, cam.shot(open_pairs=True), cam.confidence, strike=i,
                                     someone_flew=beam_facts.rail_crossings > 0)
        for fact in FACTS:
            unknown[fact] += fused[fact] is None
        q_beams += questions(beam_shot, truth, n, teams)
        q_camera += questions(fused, truth, n, teams)
        wrong_camera += wrong(fused, truth)
        wrong_beams += wrong(beam_shot, truth)
    out = {
        "questions_per_strike_beams": q_beams / strikes,
        "questions_per_strike_camera": q_camera / strikes,
        "wrong_facts_per_strike_camera_pct": 100.0 * wrong_camera / strikes,
        "wrong_facts_per_strike_beams_pct": 100.0 * wrong_beams / strikes,
        "camera_cpu_ms_per_strike": sum(cpu_ms) / len(cpu_ms),
        "camera_cpu_ms_per_strike_p95": _percentile(cpu_ms, 0.95),
        "camera_frame_ms_p95": _percentile(frame_ms, 0.95),
        "camera_strikes": float(strikes),
    }
    out.update({f"camera_unknown_{k}_pct": 100.0 * v / strikes for k, v in unknown.items()})
    return out


if __name__ == "__main__":
    import sys

    for name, value in run(int(sys.argv[1]) if len(sys.argv) > 1 else STRIKES).items():
        print(f"{name}: {value:.3f}")
