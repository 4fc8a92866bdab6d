"""A venue match offer (``gametable/T/offer``, hardware_docs/multi_table.md "Tournaments") as the
``new_game`` that starts it: the venue-autostart and the host's one tap on the panel build it the
same way. The offer names the ``new_game`` id, so starting it twice (a retained offer seen again
after a reconnect, a host who taps twice) is answered as a duplicate and never starts a second game.
"""

from __future__ import annotations

from typing import Any

from controller.new_game_input import new_game_input
from controller.topics import OFFER

__all__ = ["OFFER", "OfferError", "new_game_for"]


class OfferError(ValueError):
    """An offer that is not a match this table can start; one line."""


def new_game_for(offer: Any, described: dict[str, Any], *, bots: bool = False) -> dict[str, Any]:
    """The ``new_game`` command of a match offer; ``described``: the offered game's ``describe()``;
    ``bots``: the players are the table's bots."""
    if not isinstance(offer, dict) or not isinstance(offer.get("offer"), str) or not isinstance(offer.get("game"), str):
        raise OfferError(f"not a venue match offer: {str(offer)[:80]}")
    players = offer.get("players")
    if not isinstance(players, list) or not all(isinstance(p, dict) and isinstance(p.get("seat"), int)
                                                and isinstance(p.get("name"), str) for p in players):
        raise OfferError("the offer's players must be a list of {seat, name}")
    seated = [{"seat": p["seat"], "name": p["name"], **({"bot": True} if bots else {})} for p in players]
    cmd = new_game_input(described, offer["game"], seated, mode=offer.get("mode"), seed=None)
    return {**cmd, "id": offer["offer"]}
