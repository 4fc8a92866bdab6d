"""The venue seat tickets phones brought to their seats (hardware_docs/multi_table.md "Players
known at every table"): the phone's claim hands its ticket over, and the host's next ``new_game``
carries it in that seat's entry, where the venue binds the seat to the profile. Held in memory only:
a ticket is good for one game, so it is spent by the ``new_game`` that carries it."""

from __future__ import annotations

from typing import Any

from web_panel.commands import venue_ticket


class VenueSeats:
    def __init__(self) -> None:
        self._tickets: dict[int, str] = {}

    def hold(self, seat: int, ticket: Any) -> None:
        """The claim's ticket (checked for shape: a bad one is a 400 before the seat is taken)."""
        self._tickets[seat] = venue_ticket(ticket)

    def drop(self, seat: int) -> None:
        self._tickets.pop(seat, None)

    def profiles(self) -> dict[int, str]:
        """Seat -> the profile id its ticket names (public: every lobby lists ids; never a key)."""
        return {seat: ticket.split(".")[1] for seat, ticket in sorted(self._tickets.items())}

    def into(self, cmd: dict[str, Any]) -> dict[str, Any]:
        """``cmd`` with each held ticket in its seat's entry (a bot's seat and a ticket the host
        sent itself stay as they are)."""
        if cmd.get("type") != "new_game":
            return cmd
        players = [p if p.get("bot") or "venue_ticket" in p or p.get("seat") not in self._tickets
                   else {**p, "venue_ticket": self._tickets[p["seat"]]} for p in cmd["players"]]
        return {**cmd, "players": players}

    def spend(self, cmd: dict[str, Any]) -> None:
        """After the table took ``cmd``: the tickets it carried are used."""
        for p in cmd.get("players") or []:
            if p.get("venue_ticket") == self._tickets.get(p.get("seat")):
                self._tickets.pop(p["seat"], None)
