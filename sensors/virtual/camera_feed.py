"""The virtual table's live camera: the physics rendered frame by frame into the table's frame door.

Why: ``gametable sim --camera`` must take its facts from frames, through the same live observer
as a Pi (docs/camera.md, CAM-5), never from the physics' truth. This is the live counterpart of
``sensors/virtual/camera/record.py`` (which renders one strike into a recording; both draw the hand,
the pen and coins off the surface from ``scene.py``): around every flick it
renders the table at rest with the hand and pen coming in, every physics step due at the rig's
frame rate (motion blur, coins hopping a rail or riding a coin), and the coins at rest after it,
and hands each frame to ``door(t, image)`` -- the same door a real camera's frames use.
Frame times run on a timeline of their own, ``1 / fps`` apart and never behind the table's clock.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

from gametable_core.clock import Clock
from sensors.camera.recording import CoinInfo
from sensors.virtual.camera import scene
from sensors.virtual.camera.render import Renderer
from sensors.virtual.camera.rig import CameraRig
from sensors.virtual.physics import Point, StepHook, StrikeTruth, TablePhysics

Door = Callable[[float, Any], None]


class VirtualCamera:
    """Renders the virtual table for one rig into a frame door."""

    def __init__(self, rig: CameraRig, clock: Clock, markers: Mapping[int, Point] | None = None, *,
                 seat_colours: Mapping[int, str] | None = None, seat_marks: Mapping[int, int] | None = None) -> None:
        self.rig = rig
        self.seat_colours = dict(seat_colours or {})
        self.seat_marks = dict(seat_marks or {})
        self.clock = clock
        self.renderer = Renderer(rig, {}, markers=markers)
        self.period = 1.0 / rig.fps
        self.door: Door | None = None
        self._t = -math.inf
        self.frames = 0
        self._start: dict[str, Point] = {}
        self._coin: str | None = None
        self._aim: Point = (0.0, 1.0)
        self._next = 0.0

    def set_seats(self, seats: Mapping[str, int | None], positions: Mapping[str, Point]) -> None:
        """The coins on the table by their owners' seats: each drawn in its seat's colour (and
        sticker dots); a coin of no seat (football's) is not drawn."""
        self.renderer.coins = {c: CoinInfo(seat, self.seat_colours.get(seat, "#808080"), positions.get(c, (0.0, 0.0)),
                                           self.seat_marks.get(seat, 0))
                               for c, seat in seats.items() if seat is not None}

    def _emit(self, image: Any) -> None:
        self._t = max(self._t + self.period, self.clock.now())
        self.frames += 1
        if self.door is not None:
            self.door(self._t, image)

    def at_rest(self, positions: Mapping[str, Point]) -> None:
        """One frame of the table at rest (a coin placed, a game set up)."""
        self._emit(self.renderer.render(positions))

    def hand_in(self, positions: Mapping[str, Point], coin: str, vx: float, vy: float) -> None:
        """The striking hand and pen come in behind ``coin`` (the frames before the striker's strike)."""
        speed = math.hypot(vx, vy) or 1.0
        self._start, self._coin, self._aim = dict(positions), coin, (vx / speed, vy / speed)
        n_before = int(round(scene.STRIKE_T / self.period))
        for i in range(n_before):
            self._emit(self.renderer.render(positions, hand=self._hand(i * self.period - scene.STRIKE_T)))
        self._next = n_before * self.period - scene.STRIKE_T  # strike time of the next frame

    def _hand(self, t: float) -> Any:
        at = self._start.get(self._coin or "")
        return scene.hand_at(at, self._aim, t) if at is not None else None

    def flick(self, physics: TablePhysics, coin: str, vx: float, vy: float, *,
              on_step: StepHook | None = None) -> StrikeTruth:
        """The physics runs (``on_step`` too) and the coins come to rest: a frame every ``1 / fps``
        (after :meth:`hand_in`)."""
        if self._coin != coin:
            self.hand_in(physics.positions(), coin, vx, vy)
        history: scene.History = []

        def step(ts: float, positions: dict[str, Point]) -> None:
            heights = scene.heights_off_surface(physics, ts)
            history.append((ts, dict(positions), heights))
            while ts + 1e-9 >= self._next:
                tf = self._next
                self._emit(self.renderer.render(positions, flying=heights, previous=scene.positions_at(history, tf - self.rig.exposure_s),
                                                hand=self._hand(tf)))
                self._next += self.period
                del history[:-8]
            if on_step is not None:
                on_step(ts, positions)

        truth = physics.flick(coin, vx, vy, on_step=step)
        _t, last, heights = history[-1]
        for _ in range(max(2, int(round(scene.REST_TAIL_S / self.period)))):
            self._emit(self.renderer.render(last, flying={c: h for c, h in heights.items() if c in last},
                                            hand=self._hand(self._next)))
            self._next += self.period
        self._coin = None
        return truth
