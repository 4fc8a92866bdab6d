// Goal sensor plug: one reflective 38 kHz point beam *under* the playing surface (CW-4.1; nothing
// stands above the table). A TSAL4400 emitter and a TSSP4038SS1XB receiver look from either side,
// tilt degrees from vertical, at one aperture flush with the surface; a coin's foil underside
// mirrors the emitter into the receiver (gametable_core/beam_optics.py ReflectiveSpot, beam_layout.md
// "Optics"). The nose fits the 3.2 mm hole drilled with the jig, from below, through a 12 mm
// counterbore that leaves board_left of the board; the tilt plane runs along the table's y (the
// rows are 21.7 mm apart, the columns 15: tests/test_printable_parts.py checks the 12 fit).
// Print 12, black PETG (opaque to 940 nm), nose up, 0.1 mm layers for the nose; then drill the
// aperture through with a 1.2 mm bit. Frame: origin at the aperture's centre on the surface, z up.

hole_d = 3.2;          // the drilled goal hole (drilling_jig.svg)
nose_d = 3.1;          // 0.1 mm slack in the hole (ReflectiveSpot.plug_slack_mm)
board = 6;             // playing-surface board thickness
board_left = 1.0;      // board left above the counterbore (drill press depth stop)
counterbore_d = 12;    // Forstner bit, from below, centred on the 3.2 mm hole (columns are 15 apart)
neck_d = 11.6;
aperture_d = 1.2;      // ReflectiveSpot.aperture_d_mm: the coin must cover all of it
lip = 0.4;             // the aperture's length at the top of the nose
tilt = 24;             // ReflectiveSpot.tilt_deg, emitter at +tilt, receiver at -tilt
distance = 11;         // ReflectiveSpot.distance_mm: each lens face to the aperture
wall = 1.2;
clr = 0.15;
// Vishay TSAL4400: 3 mm lens, flange 3.8, body 5.3 long. TSSP4038SS1XB "Mold" (datasheet
// 6.0 W x 6.95 H x 5.6 D) turned on its side: 6.95 across (x), 6.0 in the tilt plane, 5.6 deep.
tsal_d = 3.0;
tsal_flange = 3.8;
tsal_len = 5.3;
rx_body = [6.95, 6.0, 5.6];
// The receiver's three leads (0.5 mm, 2.54 pitch) leave the package's bottom -- here its -x side,
// the package lying on its side -- near its back: a slot there lets them out through the cup's wall.
lead_pitch = 2.54;
lead_w = 0.5;
lead_span = 2 * lead_pitch + lead_w;       // across the three leads (along the tilt plane)
lead_slot_w = lead_span + 2 * clr + 0.2;   // 0.2 for bent or skewed leads
lead_zone = 3.0;                           // the leads leave the bottom within this of the back face
// the cup under the board, from the parts' extents (the same sums as the geometry test): the
// emitter's side (+y) and the receiver's side (-y) differ, so neighbouring rows nest.
cup_tx = (distance + tsal_len) * sin(tilt) + tsal_flange / 2 * cos(tilt) + wall;
cup_rx = (distance + rx_body[2]) * sin(tilt) + rx_body[1] / 2 * cos(tilt) + wall;
cup_x = rx_body[0] + 2 * (clr + wall);
cup_depth = (distance + rx_body[2]) * cos(tilt) + rx_body[1] / 2 * sin(tilt) + wall;
section = false;       // true: cut in half along the tilt plane (the picture in the docs)

// a part's frame: its axis from the aperture down at angle a (in the y-z plane), lens face at distance
module along(a) { rotate([a, 0, 0]) translate([0, 0, -distance]) children(); }

module plug() {
    difference() {
        union() {
            translate([0, 0, -board_left]) cylinder(d = nose_d, h = board_left, $fn = 40);
            translate([0, 0, -board]) cylinder(d = neck_d, h = board - board_left, $fn = 60);
            translate([-cup_x / 2, -cup_rx, -cup_depth]) cube([cup_x, cup_rx + cup_tx, cup_depth - board + 0.01]);
        }
        // the aperture, then a cone of light from each lens to it
        translate([0, 0, -lip - 0.01]) cylinder(d = aperture_d, h = lip + 0.02, $fn = 24);
        for (a = [tilt, -tilt]) rotate([a, 0, 0])
            translate([0, 0, -distance - 0.01]) cylinder(d1 = tsal_d + 0.4, d2 = aperture_d, h = distance - lip, $fn = 32);
        // the emitter pocket (+tilt) and the receiver pocket (-tilt), open at the back for the leads
        along(tilt) translate([0, 0, -tsal_len - 5]) cylinder(d = tsal_flange + 2 * clr, h = tsal_len + 5, $fn = 32);
        along(-tilt) translate([-rx_body[0] / 2 - clr, -rx_body[1] / 2 - clr, -rx_body[2] - 5])
            cube([rx_body[0] + 2 * clr, rx_body[1] + 2 * clr, rx_body[2] + 5]);
        // its leads: out of the package's bottom (-x), through the cup's wall, open at the back
        along(-tilt) translate([-rx_body[0] / 2 - clr - wall - 1, -lead_slot_w / 2, -rx_body[2] - 5])
            cube([wall + 1 + clr + 0.01, lead_slot_w, lead_zone + 5]);
    }
}

if (section) intersection() { plug(); translate([-100, -50, -50]) cube(100); }
else plug();
