"""The Coup benchmark module runs and reports its metrics (no timing assertions here)."""

from __future__ import annotations

from benchmarks import bench_coup


def test_bench_coup_reports_games_per_second(monkeypatch):
    monkeypatch.setattr(bench_coup, "GAMES", 5)
    result = bench_coup.run()
    assert set(result) == {"coup_random_games_per_s", "coup_inputs_per_s"}
    assert all(isinstance(v, float) and v > 0 for v in result.values())


def test_bench_game_is_a_complete_game():
    assert bench_coup.play_one(3, 6) > 6
