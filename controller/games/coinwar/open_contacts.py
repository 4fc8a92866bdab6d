"""Contacts known in part (CW-8, CW-9 ``contacts_open``; docs/rules/coinwar.md "Decisions").

An observer may know most pairs of a strike and not a few: a camera sees the struck coin hit one
coin and miss three, and cannot tell whether two coins lying together across the table touched.
Such a ``shot`` gives ``contacts`` (the pairs known to have touched) and ``contacts_open`` (the
pairs it could not decide); every other pair is known not to have touched. The referee then asks
only about the open pairs, and only when one of them changes the outcome: a contact question is
about one coin, shows only that coin's open partners, and is asked when touching one of them would
change what the strike does (each open pair is one unknown bit, tried both ways with the other
unknown facts, as CW-8 tries every unknown fact).

Pure: no I/O, no clock. Used by ``referee.py`` (which also checks the input); modes need no change
(their ``contact_questions`` say which coins each question is about).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from controller.games.coinwar.modes import Mode, State

Pair = list[str]
MAX_OPEN_BITS = 6  # more open pairs than this are tried one per coin asked about (``tried_bits``)


def is_partial(pending: dict[str, Any]) -> bool:
    """Whether the pending shot's contacts are known in part (``contacts_open``)."""
    return bool(pending.get("contacts_open"))


def open_bits(mode: Mode, state: State, pending: dict[str, Any]) -> list[tuple[dict[str, Any], str]]:
    """(question, partner) for every open pair one of the mode's unanswered contact questions is
    about: the unknown bits of the contacts fact."""
    answers = pending.get("contact_answers") or {}
    open_pairs = [tuple(p) for p in pending.get("contacts_open") or []]
    bits = []
    for q in mode.contact_questions(state, pending):
        if q["subject"] in answers:
            continue
        for partner in q["options"]:
            if tuple(sorted((q["subject"], partner))) in open_pairs:
                bits.append((q, partner))
    return bits


def restricted(question: dict[str, Any], bits: list[tuple[dict[str, Any], str]]) -> dict[str, Any]:
    """The question showing only its coin's open partners."""
    partners = [p for q, p in bits if q["subject"] == question["subject"]]
    return {**question, "options": partners, "witness": partners[0] if partners else None}


def first_open_question(mode: Mode, state: State, pending: dict[str, Any], fixed: list[Pair],
                        flowns: list[Any], outcome: Callable[[dict[str, Any]], Any]) -> dict[str, Any] | None:
    """The first contact question one of whose open pairs changes the outcome for some value of
    the other unknown bits and of ``flown``; None when none does."""
    every = open_bits(mode, state, pending)
    bits = tried_bits(every)
    for i, (q, partner) in enumerate(bits):
        rest = bits[:i] + bits[i + 1:]
        for chosen in _subsets_of(rest):
            base = fixed + [[r["subject"], p] for r, p in chosen]
            for flown in flowns:
                without = outcome({**pending, "flown": flown, "contacts": base})
                with_it = outcome({**pending, "flown": flown, "contacts": base + [[q["subject"], partner]]})
                if without != with_it:
                    return restricted(q, every)
    return None


def candidates(mode: Mode, state: State, pending: dict[str, Any], fixed: list[Pair]) -> list[list[Pair]]:
    """Every contact list the open bits allow (CW-8 tries each against the other unknown facts)."""
    bits = tried_bits(open_bits(mode, state, pending))
    return [fixed + [[q["subject"], p] for q, p in chosen] for chosen in _subsets_of(bits)]


def tried_bits(bits: list[tuple[dict[str, Any], str]]) -> list[tuple[dict[str, Any], str]]:
    """The bits tried each way: all of them, or -- more than ``MAX_OPEN_BITS`` -- one per coin
    asked about, as when contacts are unknown altogether: the question's witness (the partner
    the mode names as the one whose touch has the effect) when that pair is open, else its first
    open partner. The known contacts stand either way (CW-9)."""
    if len(bits) <= MAX_OPEN_BITS:
        return bits
    one_each: dict[str, tuple[dict[str, Any], str]] = {}
    for q, partner in bits:
        if q["subject"] not in one_each or partner == q.get("witness"):
            one_each[q["subject"]] = (q, partner)
    return list(one_each.values())


def _subsets_of(items: list[Any]) -> list[list[Any]]:
    out: list[list[Any]] = [[]]
    for item in items:
        out += [s + [item] for s in out]
    return out
