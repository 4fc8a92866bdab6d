"""The panel's narration as it was before each game's sentences moved into the game
(``controller/games/<game>/words.py``). Kept, frozen, only as the oracle of
``tests/test_game_words.py``: the games' words must say exactly what the panel said.
"""

from __future__ import annotations

from typing import Any

from tests.helpers.coup_words_oracle import coup_line

QUESTIONS = {"dead": "which coins ended in the goal", "flown": "which coins flew",
             "contacts": "which coins were touched"}
CAUSES = {"goal": "into the goal", "execution": "off by execution (CW-6.4)"}


def _names(players: list[dict[str, Any]], inp: dict[str, Any]) -> dict[int, str]:
    names: dict[int, str] = {}
    for source in (inp.get("players") if isinstance(inp.get("players"), list) else [], players):
        for p in source or []:
            if isinstance(p, dict) and isinstance(p.get("seat"), int):
                names.setdefault(p["seat"], str(p.get("name") or f"Seat {p['seat']}"))
    return names


def _coins(players: list[dict[str, Any]]) -> dict[str, int]:
    return {p["coin"]: p["seat"] for p in players if isinstance(p, dict) and p.get("coin")}


def narrate(effects: list[Any], players: list[dict[str, Any]], inp: dict[str, Any] | None = None,  # noqa: C901 (frozen oracle: kept as it was)
            titles: dict[str, str] | None = None) -> list[str]:
    """One short sentence per effect, in order; ``titles`` names modes ("ffa" -> "Free-for-all")."""
    inp = inp if isinstance(inp, dict) else {}
    names = _names(players, inp)
    coin_owner = _coins(players)

    def who(seat: Any) -> str:
        if isinstance(seat, int) and not isinstance(seat, bool):
            return names.get(seat, f"Seat {seat}")
        return str(seat)

    def coin_name(coin: Any) -> str:
        owner = coin_owner.get(coin)
        return f"{who(owner)}'s coin" if owner is not None else f"coin {coin}"

    lines: list[str] = []
    shooter: Any = None
    for eff in effects if isinstance(effects, list) else []:
        if not isinstance(eff, dict):
            continue
        kind = eff.get("kind")
        seat = eff.get("seat")
        rule = f" ({eff['rule']})" if isinstance(eff.get("rule"), str) and kind in ("foul", "attack") else ""
        if kind == "new_game":
            mode = eff.get("mode") or inp.get("game") or ""
            lines.append(f"New game: {(titles or {}).get(mode, mode)}".strip())
        elif kind == "turn":
            lines.append(f"{who(seat)}'s {'extra ' if eff.get('extra') else ''}turn")
        elif kind == "strike":
            lines.append(f"{who(seat)} strikes")
        elif kind == "shot":
            shooter = seat
            if not eff.get("dead") and not eff.get("flown"):  # one's own coin is "their coin"
                own = coin_owner.get(eff.get("coin")) == seat
                lines.append(f"{who(seat)} flicked {'their coin' if own else coin_name(eff.get('coin'))}")
        elif kind in TK or (kind == "out" and eff.get("identity")):  # Three Kingdoms in words
            lines.append(_tk(eff, who))
        elif kind == "out" and eff.get("cause") is None:
            lines.append(f"{who(seat)} is out of the game")
        elif kind == "out":
            how = CAUSES.get(eff.get("cause"), f"out ({eff.get('cause')})")
            if eff.get("cause") == "goal" and shooter is not None and shooter != seat:
                lines.append(f"{who(shooter)} knocked {who(seat)}'s coin {how}")
            elif eff.get("cause") == "goal" and shooter == seat:
                lines.append(f"{who(seat)} knocked their own coin {how}")
            else:
                lines.append(f"{who(seat)} is out: {how}")
        elif kind == "attack":
            lines.append(f"{who(seat)} hit an enemy coin{rule}")
        elif kind == "foul":
            flown = ", ".join(coin_name(c) for c in eff.get("flown") or [])
            line = f"Foul by {who(seat)}: {flown} flew{rule}"
            if eff.get("extra_turn") is not None:
                line += f"; {who(eff['extra_turn'])} gets an extra turn"
            lines.append(line)
        elif kind == "end_turn":
            lines.append(f"{who(seat)} ended the turn")
        elif kind == "withdraw":  # CW-5.6
            lines.append(f"{who(seat)} withdrew a strike the table did not see")
        elif kind == "placed":
            lines.append(f"{coin_name(eff.get('coin'))} is back on the table")
        elif kind == "question":
            lines.append(f"{who(seat)} must answer: {QUESTIONS.get(eff.get('about'), eff.get('about'))}?")
        elif kind == "game_over":
            lines.append(_winner_line(eff.get("winner"), who))
        elif kind == "aborted":
            lines.append("The game was aborted")
        elif isinstance(kind, str):
            lines.append(coup_line(eff, who) or _generic(eff, who))
    if not lines and inp.get("type") == "undo":
        lines.append("Undo: the last input was taken back")
    return lines


TK = {"draw", "damage", "elixir", "stays_hidden", "revealed", "damage_pending", "fire_out", "burning",
      "discard_due", "discard", "combo", "burning_camps"}
TK_ID = {"lord": "the Lord", "loyalist": "a Loyalist", "rebel": "a Rebel", "traitor": "the Traitor"}
TK_CAUSE = {"execution": " (executed)", "burning_camps": " to the fire"}


def _tk(eff: dict[str, Any], who: Any) -> str:  # noqa: C901 (one sentence per effect, as players say it)
    kind, name, card = eff["kind"], who(eff.get("seat")), eff.get("card") or {}
    pts = f" ({card['points']})" if isinstance(card, dict) and card.get("points") is not None else ""
    cause = TK_CAUSE.get(str(eff.get("cause")), "")
    if kind == "out":
        return f"{name} is out{cause}: {TK_ID.get(eff['identity'], eff['identity'])}"
    if kind == "draw":
        return f"{name} draws {eff.get('count')} card{'' if eff.get('count') == 1 else 's'}"
    if kind == "damage":
        return f"{name} loses 1 health{cause}: {eff.get('health')} left"
    if kind == "elixir":
        return f"{name} drinks an Elixir{pts}: back to {eff.get('health')} health"
    if kind == "stays_hidden":
        return f"{name} stays hidden"
    if kind == "revealed":
        return f"{name} is revealed: {TK_ID.get(eff.get('identity'), eff.get('identity'))}"
    if kind == "damage_pending":
        return f"{name} is about to lose health: Elixir or not?"
    if kind == "fire_out":
        return f"The fire in {name}'s camp goes out{pts}"
    if kind == "burning":
        return f"{name}'s camp burns{pts}"
    if kind == "discard_due":
        return f"{name} holds too many cards: discards {eff.get('count')}"
    if kind == "discard":
        return f"{name} discards {len(eff.get('cards') or [])} card(s)"
    if kind == "combo":
        return f"{name} plays Combo{pts}: {eff.get('strikes_allowed')} strikes this turn"
    return f"{name} sets {who(eff.get('target'))}'s camp on fire (Burning Camps{pts})"


def _winner_line(winner: Any, who: Any) -> str:
    if isinstance(winner, dict) and "draw" in winner:
        return "Game over: a draw between " + ", ".join(who(s) for s in winner["draw"])
    if isinstance(winner, list) and winner:
        return "Game over: " + " and ".join(who(s) for s in winner) + (" win" if len(winner) > 1 else " wins")
    return "Game over"


def _generic(eff: dict[str, Any], who: Any) -> str:
    """Any other effect: ``Ann: steal (target Bo)`` — readable enough for a game we do not know."""
    kind = str(eff["kind"]).replace("_", " ")
    subject = who(eff["seat"]) + ": " if "seat" in eff else ""
    details = []
    for key, value in eff.items():
        if key in ("kind", "seat", "rule"):
            continue
        if key in ("target", "by", "claimant") and isinstance(value, int):
            value = who(value)
        details.append(f"{key.replace('_', ' ')} {value}")
    return f"{subject}{kind}" + (f" ({', '.join(details)})" if details else "")
