"""Tournaments of two-player matches for any game: single elimination, round robin and Swiss.
Pure: the service stores the matches (``store``) and feeds results from game-over events; nothing
here knows tables, clocks or MQTT.

- Round robin: every pair once, all rounds known at the start (the circle method).
- Single elimination: seeds in the given order; the top seeds get byes up to a power of two; the
  winners of matches 2k and 2k+1 meet next.
- Swiss: ceil(log2 n) rounds; each round pairs players of equal points (in seed order), never the
  same two twice where avoidable; an odd player out gets a bye (a win), at most once each.
A bye is a match of one player that is won at once. A win scores 1 point.

Ties in the standings are broken as each format's standard does (the order is ``TIE_BREAKS``):
Swiss by Buchholz (the points of every opponent met), then median Buchholz (without the best and
the worst of them), then head-to-head, then Sonneborn-Berger (the points of the opponents beaten);
round robin by head-to-head, then Sonneborn-Berger; single elimination by the round reached. A bye
has no opponent: it adds nothing to either sum. Then seed order.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Literal

Format = Literal["single_elimination", "round_robin", "swiss"]
FORMATS: tuple[Format, ...] = ("single_elimination", "round_robin", "swiss")


class TournamentError(ValueError):
    """A tournament that cannot be played as asked; one line."""


@dataclass(frozen=True)
class Match:
    number: int  # 1, 2, ... in the order matches were made
    round: int
    players: tuple[str, ...]  # two, or one for a bye
    winner: str | None = None

    @property
    def bye(self) -> bool:
        return len(self.players) == 1

    @property
    def done(self) -> bool:
        return self.winner is not None


@dataclass(frozen=True)
class Standing:
    player: str
    points: int
    wins: int
    losses: int
    out: bool  # knocked out (single elimination)
    buchholz: int = 0
    median_buchholz: int = 0
    sonneborn_berger: int = 0


TIE_BREAKS: dict[str, tuple[str, ...]] = {
    "swiss": ("buchholz", "median_buchholz", "head_to_head", "sonneborn_berger"),
    "round_robin": ("head_to_head", "sonneborn_berger"),
    "single_elimination": ("round_reached",),
}


def check(fmt: str, players: list[str]) -> None:
    if fmt not in FORMATS:
        raise TournamentError(f"format {fmt!r}: one of {', '.join(FORMATS)}")
    if len(players) < 2:
        raise TournamentError("a tournament needs at least two players")
    if len(set(players)) != len(players):
        raise TournamentError(f"players repeat: {', '.join(sorted({p for p in players if players.count(p) > 1}))}")


def _numbered(pairs: list[tuple[str, ...]], rnd: int, start: int) -> list[Match]:
    return [Match(start + i, rnd, pair, pair[0] if len(pair) == 1 else None) for i, pair in enumerate(pairs)]


def _round_robin(players: list[str]) -> list[Match]:
    ring: list[str | None] = [*players, None] if len(players) % 2 else list(players)
    n, matches = len(ring), list[Match]()
    for rnd in range(1, n):
        pairs = [(ring[i], ring[n - 1 - i]) for i in range(n // 2)]
        real: list[tuple[str, ...]] = [(a, b) for a, b in pairs if a is not None and b is not None]
        matches += _numbered(real, rnd, len(matches) + 1)
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return matches


def _elimination_first(players: list[str]) -> list[Match]:
    size = 1 << math.ceil(math.log2(len(players)))
    byes = size - len(players)
    pairs: list[tuple[str, ...]] = [(p,) for p in players[:byes]]
    rest = players[byes:]
    pairs += [(rest[i], rest[-1 - i]) for i in range(len(rest) // 2)]
    return _numbered(pairs, 1, 1)


def start(fmt: str, players: list[str]) -> list[Match]:
    """The first matches (for round robin: all of them)."""
    check(fmt, players)
    if fmt == "round_robin":
        return _round_robin(players)
    if fmt == "single_elimination":
        return _elimination_first(players)
    return _swiss_round(players, [], 1)


def swiss_rounds(players: list[str]) -> int:
    return max(1, math.ceil(math.log2(len(players))))


def _points(players: list[str], matches: list[Match]) -> dict[str, int]:
    points = dict.fromkeys(players, 0)
    for m in matches:
        if m.winner is not None:
            points[m.winner] += 1
    return points


def _swiss_round(players: list[str], matches: list[Match], rnd: int) -> list[Match]:
    points = _points(players, matches)
    met = {frozenset(m.players) for m in matches if not m.bye}
    had_bye = {m.players[0] for m in matches if m.bye}
    order = sorted(players, key=lambda p: (-points[p], players.index(p)))
    pairs: list[tuple[str, ...]] = []
    if len(order) % 2:
        bye = next((p for p in reversed(order) if p not in had_bye), order[-1])
        order.remove(bye)
        pairs.append((bye,))
    while order:
        first = order.pop(0)
        rival = next((p for p in order if frozenset((first, p)) not in met), order[0])
        order.remove(rival)
        pairs.append((first, rival))
    return _numbered(pairs, rnd, len(matches) + 1)


def advance(fmt: str, players: list[str], matches: list[Match]) -> list[Match]:
    """The next round's matches once every match so far is done ([] while one is not, or at the end)."""
    if not matches or not all(m.done for m in matches) or finished(fmt, players, matches):
        return []
    rnd = max(m.round for m in matches)
    if fmt == "swiss":
        return _swiss_round(players, matches, rnd + 1)
    if fmt == "single_elimination":
        winners = [m.winner for m in sorted((m for m in matches if m.round == rnd), key=lambda m: m.number)]
        pairs: list[tuple[str, ...]] = [(str(winners[i]), str(winners[i + 1])) for i in range(0, len(winners), 2)]
        return _numbered(pairs, rnd + 1, len(matches) + 1)
    return []


def finished(fmt: str, players: list[str], matches: list[Match]) -> bool:
    if not matches or not all(m.done for m in matches):
        return False
    if fmt == "round_robin":
        return True
    last = max(m.round for m in matches)
    if fmt == "swiss":
        return last >= swiss_rounds(players)
    return sum(1 for m in matches if m.round == last) == 1


def record(matches: list[Match], number: int, winner: str) -> list[Match]:
    """The matches with match ``number`` won by ``winner`` (a result or the venue host's award)."""
    match = next((m for m in matches if m.number == number), None)
    if match is None:
        raise TournamentError(f"no match {number}")
    if match.done:
        raise TournamentError(f"match {number} is decided already ({match.winner} won)")
    if winner not in match.players:
        raise TournamentError(f"{winner!r} does not play match {number} ({' v '.join(match.players)})")
    return [replace(m, winner=winner) if m.number == number else m for m in matches]


def correct(fmt: str, matches: list[Match], number: int, winner: str) -> list[Match]:
    """The matches with decided match ``number`` won by ``winner`` instead (the venue host
    correcting a wrong result). Only while no later pairing rests on it: in a round robin always
    (every pairing was made at the start), else while no match of a later round exists."""
    match = next((m for m in matches if m.number == number), None)
    if match is None:
        raise TournamentError(f"no match {number}")
    if not match.done:
        raise TournamentError(f"match {number} has no result to correct yet: award it")
    if match.bye:
        raise TournamentError(f"match {number} is a bye")
    if winner not in match.players:
        raise TournamentError(f"{winner!r} does not play match {number} ({' v '.join(match.players)})")
    if winner == match.winner:
        raise TournamentError(f"{winner} already won match {number}")
    later = [m.round for m in matches if m.round > match.round]
    if fmt != "round_robin" and later:
        raise TournamentError(f"round {min(later)} was paired from match {number}'s result: it can no longer be corrected")
    return [replace(m, winner=winner) if m.number == number else m for m in matches]


def standings(fmt: str, players: list[str], matches: list[Match]) -> list[Standing]:
    """Best first: points, then the format's tie-breaks (``TIE_BREAKS``), then seed order."""
    points = _points(players, matches)
    losses = dict.fromkeys(players, 0)
    reached = dict.fromkeys(players, 0)
    met: dict[str, list[str]] = {p: [] for p in players}
    beaten: dict[str, list[str]] = {p: [] for p in players}
    for m in matches:
        for p in m.players:
            reached[p] = max(reached[p], m.round)
            if m.winner is not None and p != m.winner:
                losses[p] += 1
        if not m.bye and m.winner is not None:
            a, b = m.players
            met[a].append(b)
            met[b].append(a)
            beaten[m.winner].append(b if m.winner == a else a)
    opponents = {p: sorted(points[o] for o in met[p]) for p in players}
    rows = {p: Standing(p, points[p], points[p], losses[p], fmt == "single_elimination" and losses[p] > 0,
                        buchholz=sum(opponents[p]), median_buchholz=sum(opponents[p][1:-1]),
                        sonneborn_berger=sum(points[o] for o in beaten[p])) for p in players}
    value: dict[str, dict[str, int]] = {
        "buchholz": {p: rows[p].buchholz for p in players},
        "median_buchholz": {p: rows[p].median_buchholz for p in players},
        "sonneborn_berger": {p: rows[p].sonneborn_berger for p in players},
        "round_reached": reached,
    }
    breaks = TIE_BREAKS[fmt]
    if "head_to_head" in breaks:  # the wins among the players still level on everything before it
        before = breaks[:breaks.index("head_to_head")]
        level: dict[tuple[int, ...], set[str]] = {}
        for p in players:
            level.setdefault((points[p], *(value[k][p] for k in before)), set()).add(p)
        group = {p: g for g in level.values() for p in g}
        value["head_to_head"] = {p: sum(1 for o in beaten[p] if o in group[p]) for p in players}
    seed = {p: i for i, p in enumerate(players)}
    order = sorted(players, key=lambda p: (-points[p], *(-value[k][p] for k in breaks), seed[p]))
    return [rows[p] for p in order]
