"""hardware_docs/camera.md's lens maths and marker places hold for the default table (CAM-1)."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

from gametable_core import table_geometry as geo
from hardware_docs import scad_params

ROOT = Path(__file__).resolve().parents[1]
DOC = (ROOT / "hardware_docs" / "camera.md").read_text(encoding="utf-8")
PIXEL_MM = 1.4e-3  # IMX708
MODE = (1536, 864, 120.0)  # the only IMX708 mode at >= 100 fps: 2x2 binned centre crop of 3072 x 1728
CROP_MM = (3072 * PIXEL_MM, 1728 * PIXEL_MM)
MARKER_MM = 40.0
MARKERS = [tuple(map(float, m)) for m in re.findall(r'"\d" = \[([-\d.]+), ([-\d.]+)\]', DOC)]
ACROSS_MM = 543.0  # what camera.md sizes the view for


def test_cam_1_the_markers_lie_outside_the_rails_clear_of_their_shadow_and_the_corner_posts():
    assert len(MARKERS) == 4
    rw, half = geo.RAIL_WIDTH_MM, MARKER_MM / 2
    rails = (-rw, -rw, geo.WIDTH_MM + rw, geo.LENGTH_MM + rw)
    post = scad_params.read(ROOT / "hardware_docs" / "printable" / "rail_corner_post.scad")
    post_reach = rw + post["front_wall"] + max(post["tssp_body"][1], post["tsal_body"][1]) + post["clr"] + post["wall"]
    height = 617.0  # the Wide's lens above the surface
    for x, y in MARKERS:
        # the strip of floor a rail hides from the lens above the centre
        far = math.hypot(abs(x - geo.CENTRE[0]), abs(y - geo.CENTRE[1]))
        shadow = geo.RAIL_HEIGHT_MM * far / (height - geo.RAIL_HEIGHT_MM)
        gap_x = max(rails[0] - (x + half), (x - half) - rails[2])
        gap_y = max(rails[1] - (y + half), (y - half) - rails[3])
        assert max(gap_x, gap_y) > shadow + 2, (x, y)
        for cx, cy in ((0, 0), (geo.WIDTH_MM, 0), (0, geo.LENGTH_MM), (geo.WIDTH_MM, geo.LENGTH_MM)):
            assert max(abs(x - cx), abs(y - cy)) - half > post_reach, (x, y)  # not under a corner post


def test_cam_1_the_view_holds_the_markers_and_a_coin_is_at_least_16_px():
    along = max(y for _, y in MARKERS) - min(y for _, y in MARKERS) + MARKER_MM
    across = geo.WIDTH_MM + 2 * geo.RAIL_WIDTH_MM
    assert along <= ACROSS_MM * CROP_MM[0] / CROP_MM[1]  # the long side fits at the same height
    assert ACROSS_MM >= 1.1 * across  # slack for mounting
    coin_px = 2 * geo.COIN_RADIUS_MM * MODE[1] / ACROSS_MM
    assert MODE[2] >= 100 and coin_px >= 16
    assert f"**{coin_px:.0f} px**" in DOC


@pytest.mark.parametrize("module, focal_mm, height", [("Camera Module 3", 4.74, "1.06 m"),
                                                      ("Camera Module 3 Wide", 2.75, "0.62 m")])
def test_the_mount_height_is_the_lens_maths(module, focal_mm, height):
    h_m = ACROSS_MM * focal_mm / CROP_MM[1] / 1000
    assert f"{h_m:.2f} m" == height and f"**{height}**" in DOC, module


def test_mains_flicker_arithmetic():
    assert abs(120 - 2 * 50) == 20 and "**20 Hz**" in DOC
    assert "**100 fps on 50 Hz mains**" in DOC  # the frame rate locked to the 100 Hz flicker
