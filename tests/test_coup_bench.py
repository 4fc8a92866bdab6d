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


def test_bench_coup_bots_reports_win_rates_with_seats_rotated(monkeypatch):
    from benchmarks import bench_coup_bots

    monkeypatch.setattr(bench_coup_bots, "GAMES", 8)
    result = bench_coup_bots.run()
    for name in ("coup_bot_heuristic_vs_random_win_rate", "coup_bot_heuristic_vs_old_win_rate",
                 "coup_bot_heuristic_vs_3_old_win_rate"):
        assert 0.0 <= result[name] <= 1.0
    assert result["coup_bot_games"] == 24
    assert bench_coup_bots.play(5, ["heuristic", "old", "random"]) in ([1], [2], [3])
