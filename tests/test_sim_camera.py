"""`gametable sim --camera` (CAM-5): the facts come from the analysis of rendered frames, through the
table's own camera observer and fused with the beams' (CAM-3), never from the physics' truth; the
referee asks (CW-8) only where the camera could not see."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

pytest.importorskip("cv2")

from controller.daemon import Daemon  # noqa: E402
from controller.default_table import default_beams  # noqa: E402
from gametable.broker import free_port  # noqa: E402
from gametable.sim_platform import TruthPlatform  # noqa: E402
from gametable.sim_table import VirtualTable  # noqa: E402
from gametable_core.clock import FakeClock  # noqa: E402
from gametable_core.config import CameraConfig, parse  # noqa: E402
from sensors.virtual.camera.rig import CameraRig  # noqa: E402
from sensors.virtual.camera_feed import VirtualCamera  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
FACT_OF = {"dead": "dead", "flown": "flown", "contacts": "contacts"}  # question kind -> shot fact (CW-8)


def camera_table(tmp_path: Path, seed: int, seats=(1, 2, 3)):
    clock = FakeClock()
    camera = CameraConfig()
    config = replace(parse({"journal": {"path": str(tmp_path / "j.sqlite")}}), camera=camera)
    daemon = Daemon(config, clock)
    daemon.start(connect=False)
    platform = TruthPlatform(default_beams(), clock, camera=camera)
    feed = VirtualCamera(CameraRig.random(random.Random(seed)), clock,
                         {int(k): v for k, v in camera.markers.items()}, seat_colours=camera.seat_colours,
                         seat_marks=camera.seat_marks)
    vt = VirtualTable(daemon, clock, seed=seed, bots=seats, platform=platform, camera=feed)
    players = [{"seat": s, "name": f"Bot {s}"} for s in seats]
    assert daemon.submit({"id": f"g{seed}", "type": "new_game", "game": "coinwar", "mode": "ffa", "players": players,
                          "order": list(seats), "seed": seed})["ok"]
    return daemon, vt, platform.adapters[0].camera, feed


def watch_fusion(camera) -> list[tuple[object, object]]:
    """(the camera's own shot, the fused facts) of every strike the camera observer finished."""
    seen: list[tuple[object, object]] = []
    finish = camera.finish

    def spy(beams):
        fused = finish(beams)
        seen.append((camera.last_camera, fused))
        return fused

    camera.finish = spy
    return seen


def play_watching_questions(vt: VirtualTable) -> list[tuple[dict, dict]]:
    """Play the bots to the end; (the shot submitted, a question the engine asked after it)."""
    asked: list[tuple[dict, dict]] = []
    answer = vt.answer_questions

    def watch(truth, seats=None):
        shot = next(e["cmd"] for e in reversed(vt.log) if e["cmd"]["type"] == "shot")
        asked.extend((shot, q) for q in (vt.state() or {}).get("questions") or [])
        return answer(truth, seats)

    vt.answer_questions = watch  # type: ignore[method-assign]
    vt.play_bots(max_moves=400)
    return asked


@pytest.mark.parametrize("seed", [7])
def test_cam_5_a_whole_bot_game_takes_its_facts_from_the_frames_and_asks_only_what_they_did_not_show(tmp_path, seed):
    daemon, vt, camera, feed = camera_table(tmp_path, seed)
    fusion = watch_fusion(camera)
    asked = play_watching_questions(vt)
    state = daemon.public_state()
    assert state["phase"] == "over" and state["winner"]
    shots = [e["cmd"] for e in vt.log if e["cmd"]["type"] == "shot"]
    assert shots and feed.frames > 30 * len(shots)  # every strike was seen frame by frame
    # every shot is the observer's (it counts beam edges, CW-5.6), never the physics' truth
    assert all("beam_edges" in s for s in shots)
    assert camera.strikes == len(shots)
    # CW-8 through the camera: a question only about a fact the fused shot left unknown
    for shot, question in asked:
        if question["kind"] == "contacts" and shot.get("contacts_open"):  # known in part (CW-9): only open pairs
            open_pairs = [sorted(p) for p in shot["contacts_open"]]
            assert all(sorted([question["subject"], o]) in open_pairs for o in question["options"]), (shot, question)
            continue
        assert shot[FACT_OF[question["kind"]]] is None, (shot, question)
    # the table referees by itself: nearly every strike analysed, few questions (beams only: ~1 a strike)
    assert camera.tracked >= 0.9 * len(shots) and len(asked) <= 0.2 * len(shots)
    # CAM-3: what the frames showed reaches the shot (a beam-proven fact wins; a contradiction is asked)
    for cam, fused in fusion:
        if cam is None:
            continue  # that strike's frames could not be analysed: the beams' facts alone
        for fact in ("dead", "flown", "contacts"):
            mine = getattr(cam, fact)
            if mine is not None and not any(f"{fact}:" in line for line in camera.disagreements):
                assert sorted(map(str, getattr(fused, fact))) == sorted(map(str, mine)), fact
    daemon.stop()


def test_the_camera_observer_publishes_the_coins_at_rest_for_the_table_view(tmp_path):
    daemon, vt, camera, _feed = camera_table(tmp_path, 5)
    published: list[dict] = []
    daemon.publish_retained_sensor = lambda kind, payload: published.append({kind: payload})  # type: ignore[method-assign]
    vt.play_bots(max_moves=1)
    rest = [p["camera"] for p in published if "camera" in p]
    assert rest and rest[-1]["calibrated"] is True
    coins = rest[-1]["coins"]
    truth = vt.physics.positions()
    # a coin the camera places is where it rests, to a few millimetres (CAM-2)
    assert coins and all(abs(x - truth[c][0]) < 5 and abs(y - truth[c][1]) < 5 for c, (x, y) in coins.items()
                         if c in truth)
    daemon.stop()


@pytest.mark.slow
def test_gametable_sim_camera_headless_plays_a_bot_game_to_its_winner(tmp_path):
    cfg = tmp_path / "sim.toml"
    cfg.write_text(f'table_id = "camtest"\n[journal]\npath = "{tmp_path / "j.sqlite"}"\n'
                   f'[panel]\nhost = "127.0.0.1"\nport = {free_port()}\n')
    r = subprocess.run([sys.executable, "-m", "gametable.cli", "sim", "--config", str(cfg), "--headless", "--camera",
                        "--bots", "2", "--speed", "1000", "--seed", "3"],
                       capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert r.returncode == 0, r.stderr[-2000:]
    assert "virtual overhead camera" in r.stdout
    final = json.loads(r.stdout.strip().splitlines()[-1])
    assert final["phase"] == "over" and final["winner"]
