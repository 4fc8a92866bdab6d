"""Will a real coin trip the default table's beams? The optics, from datasheet lines.

Nothing here has run on real hardware (hardware_docs/hardware_status.md); these are the numbers
the parts in ``hardware_docs/printable/`` are built to, checked by ``tests/test_beam_optics.py``
and explained in ``hardware_docs/beam_layout.md`` ("Optics").

- **Rail beams** (:class:`SlitBeam`): emitter and receiver each behind a horizontal slit, so the
  beam is a band ``slit_height_mm`` tall just above the rail top. A receiver with margin ``m``
  (received power over its threshold) reads "blocked" only when less than ``1/m`` of the light
  arrives, i.e. a coin must cover nearly the *whole* band: the band must fit inside the 2 mm coin.
- **Goal points** (:class:`ReflectiveSpot`): a 38 kHz emitter and receiver *under* the surface,
  both aimed at one small aperture flush with it. The coin's foil underside (beam_layout.md,
  "The coin") mirrors the emitter into the receiver; nothing stands above the table.

Pure arithmetic: no I/O.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from gametable_core.table_geometry import COIN_RADIUS_MM, COIN_THICKNESS_MM

# Vishay TSSP96038-family datasheet: "transmission distance 8 m" with a TSAL6200 at IF = 50 mA, and
# minimum irradiance Ee min 0.7 mW/m2 typical, 1.2 maximum; the TSSP4038 is the same receiver class.
DIRECT_RANGE_MM = 8000.0
EE_MIN_TYP_MW_M2 = 0.7
EE_MIN_MAX_MW_M2 = 1.2
# Vishay TSSP4038SS1XB datasheet: "20 x less sensitive than the TSSP4038, for reflective applications".
SS1XB_DESENSITISED = 20.0
# Vishay TSAL4400 (3 mm, +-25 deg): Ie 36 mW/sr typical at IF = 100 mA, about linear in IF.
TSAL4400_MW_SR_PER_MA = 0.36
FOIL_D_MM = 30.0  # the foil under a coin covers its whole 30 mm face (beam_layout.md): the goal
# proof counts a coin's whole disc, so a smaller foil would leave dead coins no goal point sees
FOIL_REFLECTANCE = 0.85  # aluminium foil tape at 940 nm, worn (new: about 0.9)
MIN_MARGIN = 2.0  # power over threshold a beam needs to read "clear" through dust and ageing


def _band_fraction(band_mm: float, lens_d_mm: float, width_mm: float = math.inf) -> float:
    """Share of a round lens's area inside a centred slit ``band_mm`` high and ``width_mm`` wide:
    each row of the band passes its chord of the lens, cut to the slit's width (the 4 mm slit is
    narrower than the 5 mm lens's chords near its middle)."""
    r = lens_d_mm / 2
    h = min(band_mm / 2, r)
    steps = 2000  # midpoint rule over the band's height: exact to ~1e-7 here
    area = sum(min(2 * math.sqrt(max(r * r - y * y, 0.0)), width_mm)
               for y in (-h + (i + 0.5) * 2 * h / steps for i in range(steps))) * 2 * h / steps
    return area / (math.pi * r * r)


@dataclass(frozen=True)
class SlitBeam:
    """A rail beam: the light band runs ``slit_bottom_mm`` … ``+slit_height_mm`` above the rail top."""

    slit_bottom_mm: float = 0.5
    slit_height_mm: float = 1.0
    slit_width_mm: float = 4.0  # across the beam (rail_corner_post.scad slit_width)
    lens_d_mm: float = 5.0  # TSAL6200 lens; the TSSP4038's window is about as tall
    height_tolerance_mm: float = 0.25  # the printed post's slit height against the rail top

    def margin(self, length_mm: float) -> float:
        """Worst-case received power over the receiver's threshold with no coin: the inverse-square
        law from the datasheet range, both slits cutting the lens, the least sensitive receiver."""
        if not length_mm > 0:
            raise ValueError(f"beam length must be > 0 mm, got {length_mm!r}")
        through = _band_fraction(self.slit_height_mm, self.lens_d_mm, self.slit_width_mm) ** 2
        return (DIRECT_RANGE_MM / length_mm) ** 2 * through * EE_MIN_TYP_MW_M2 / EE_MIN_MAX_MW_M2

    def needed_cover(self, length_mm: float) -> float:
        """Share of the band a coin must cover for the receiver to read blocked."""
        m = self.margin(length_mm)
        if m < MIN_MARGIN:
            raise ValueError(f"a {length_mm:.0f} mm slit beam has only {m:.1f}x margin (needs {MIN_MARGIN:g}x)")
        return 1.0 - 1.0 / m

    def covered(self, coin_bottom_mm: float, shift_mm: float = 0.0) -> float:
        """Share of the band a flat coin whose underside is ``coin_bottom_mm`` above the rail top
        covers, with the band mounted ``shift_mm`` higher than designed."""
        lo = self.slit_bottom_mm + shift_mm
        hi = lo + self.slit_height_mm
        overlap = min(hi, coin_bottom_mm + COIN_THICKNESS_MM) - max(lo, coin_bottom_mm)
        return max(0.0, overlap) / self.slit_height_mm

    def surely_trips(self, coin_bottom_mm: float, length_mm: float) -> bool:
        """A flat coin crossing the rail with its underside this high trips the beam for every
        mounting height within the tolerance."""
        need = self.needed_cover(length_mm)
        tol = self.height_tolerance_mm
        return all(self.covered(coin_bottom_mm, s) >= need for s in (-tol, 0.0, tol))

    def block_s(self, speed_mm_s: float, length_mm: float, slit_width_mm: float = 4.0) -> float:
        """How long a flat coin sliding across the rail at this speed holds the beam blocked: while
        it covers enough of the band's width (the band is ``slit_width_mm`` wide across the rail)."""
        if not speed_mm_s > 0:
            raise ValueError(f"coin speed must be > 0 mm/s, got {speed_mm_s!r}")
        uncovered_ok = (1.0 - self.needed_cover(length_mm)) * slit_width_mm  # may stay uncovered
        return (2 * COIN_RADIUS_MM - slit_width_mm + 2 * uncovered_ok) / speed_mm_s

    def sure_skim_mm(self, length_mm: float, step_mm: float = 0.01) -> float:
        """Highest underside height above the rail top (from 0) at which a flat coin surely trips
        the beam; negative when even a coin sliding on the rail top might not."""
        z = 0.0
        if not self.surely_trips(0.0, length_mm):
            return -1.0
        while self.surely_trips(z + step_mm, length_mm):
            z += step_mm
        return z


@dataclass(frozen=True)
class ReflectiveSpot:
    """A goal point: emitter and receiver below the surface, aimed at ``tilt_deg`` from vertical
    from either side at one aperture flush with the surface, ``distance_mm`` away."""

    aperture_d_mm: float = 1.2
    tilt_deg: float = 24.0
    distance_mm: float = 11.0  # each part's lens to the aperture
    lens_d_mm: float = 3.0  # TSAL4400; the receiver's window is larger
    emitter_ma: float = 1.0  # average current (2 mA peak at the 50 % carrier duty)
    drilling_mm: float = 0.65  # the 1:1 jig, 2 sigma (hardware_docs/drilling_jig.svg)
    plug_slack_mm: float = 0.1  # the printed plug's 3.1 mm nose in the 3.2 mm hole
    bore_offset_mm: float = 0.1  # the aperture drilled through the plug's printed guide
    foil_inset_mm: float = 0.2  # the foil's edge inside the coin's: trimmed round the coin with a knife

    @property
    def tolerance_mm(self) -> float:
        """How far a coin's edge may stop short of the configured point and still surely trip it:
        the aperture's worst position error plus its radius (the foil must cover all of it), plus
        how far the foil's edge may lie inside the coin's (the foil covers the whole face, FOIL_D_MM)."""
        return (self.drilling_mm + self.plug_slack_mm + self.bore_offset_mm + self.aperture_d_mm / 2
                + self.foil_inset_mm)

    def sure_radius_mm(self, r: float = COIN_RADIUS_MM) -> float:
        """A coin centred within this of the configured point surely covers the whole aperture."""
        return r - self.tolerance_mm

    @property
    def half_cone_deg(self) -> float:
        """Half-angle of the rays through both a part's lens and the aperture."""
        return math.degrees(math.atan((self.lens_d_mm + self.aperture_d_mm) / 2 / self.distance_mm))

    def zone_height_mm(self) -> float:
        """Above this height over the surface the emitter's and the receiver's ray bundles no longer
        meet: a coin's underside (0 mm) is inside the zone, a hand above it is not."""
        inner = math.radians(self.tilt_deg - self.half_cone_deg)
        if inner <= 0:
            return math.inf  # the bundles overlap all the way up: it would see hands
        return self.aperture_d_mm / (2 * math.tan(inner))

    def margin(self, reflectance: float = FOIL_REFLECTANCE) -> float:
        """Worst-case received power over the TSSP4038SS1XB's threshold with the aperture covered
        by a mirror of this reflectance: a direct beam over the folded path, the aperture cropping
        the emitter's lens as the receiver sees it."""
        path_m = 2 * self.distance_mm / 1000
        crop = min(1.0, (2 * self.aperture_d_mm) ** 2 / self.lens_d_mm ** 2)
        irradiance = reflectance * TSAL4400_MW_SR_PER_MA * self.emitter_ma * crop / path_m ** 2  # mW/m2
        return irradiance / (EE_MIN_MAX_MW_M2 * SS1XB_DESENSITISED)

    def emitter_resistor_ohm(self, supply_v: float = 5.0, vf: float = 1.2, mosfet_v: float = 0.1) -> float:
        """Series resistor for ``emitter_ma`` average, i.e. twice that while the carrier is on."""
        return (supply_v - vf - mosfet_v) / (2 * self.emitter_ma / 1000)


RAIL_BEAM = SlitBeam()
GOAL_SPOT = ReflectiveSpot()
