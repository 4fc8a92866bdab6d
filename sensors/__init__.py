"""Hardware platforms: GPIO beams, the striker serial link, and the virtual table (pymunk)."""
