"""The virtual table: pymunk physics, coin flight, virtual beams and base station (no real pins or serial)."""
