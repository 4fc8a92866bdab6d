// Striker body: a pen-refill tip, then bays along the axis for a GY-521 (MPU-6050), a 502030 LiPo,
// the power switch and Schottky diode, and at the back an ESP32-C3 SuperMini with a TP4056 USB-C
// charger module stacked over it, both sockets flush with one opening in the flat back face
// (charge through the upper one, flash through the lower one: firmware.md "Wiring the battery
// safely"). The refill stub ends before the first bay; no bay crosses another
// (tests/test_printable_parts.py). The MPU sits nearest the tip and is glued rigidly (loose parts
// ring and look like extra hits). Two halves (half = "bottom" / "top"), print both flat, PETG.
// Frame: the tip at y = 0, the axis along +y. All sizes in mm; `make stl` / `make renders`.

outer_d = 26;
tip_d = 15.6;          // the rounded tip
taper_end = 60;        // the body reaches outer_d here
wall = 1.8;
clr = 0.5;             // around every board (glue or foam fills it)
gap = 2;               // between bays
// datasheet / measured sizes, [across (x), along (y), thick (z)], headers and pins removed
refill_d = 6.2;        // pen refill, cut to refill_len (the tip end, ink emptied)
refill_len = 36;
mpu = [16.0, 21.0, 3.5];       // GY-521
lipo = [20.0, 33.0, 5.5];      // 502030 cell with its protection board
sw = [3.6, 8.6, 3.5];          // SS12D00 slide switch lying on its side, lever out through +x
sw_lever = 4.0;
diode = [2.6, 4.3, 2.1];       // SS14 (SMA / DO-214AC)
board = [18.0, 22.5, 4.5];     // ESP32-C3 SuperMini, USB-C at its back edge
charger = [17.5, 28.0, 5.2];   // TP4056 + DW01 USB-C module, USB-C at its back edge
usbc = [8.94, 3.26];           // USB-C receptacle mouth (w, h)
usbc_board_z = 2.6;            // receptacle centre above the board's underside (1.0 PCB + 1.6)
usbc_charger_z = 3.2;          // on the 1.6 mm charger PCB
plug = [12.5, 6.6];            // a USB-C plug's overmould (w, h): the opening fits it
// bay positions along y, tip to back
mpu_y = refill_len + gap;
lipo_y = mpu_y + mpu[1] + clr + gap;
sw_y = lipo_y + lipo[1] + clr + gap;
back_y = sw_y + sw[1] + clr + gap;
back_len = charger[1] + clr;
length = back_y + back_len + wall;
// the back bay: the board on the floor, the charger 0.5 mm above it
board_z0 = -(board[2] + 0.5 + charger[2]) / 2;
charger_z0 = board_z0 + board[2] + 0.5;
half = "bottom";       // "bottom" or "top"

module shell() {
    hull() {
        sphere(d = tip_d, $fn = 48);
        translate([0, taper_end, 0]) rotate([-90, 0, 0]) cylinder(d = outer_d, h = length - taper_end, $fn = 64);
    }
}

module box(size, y, z0 = undef) {
    z = z0 == undef ? -size[2] / 2 : z0;
    translate([-size[0] / 2 - clr / 2, y, z - clr / 2]) cube([size[0] + clr, size[1] + clr, size[2] + clr]);
}

module cavities() {
    rotate([-90, 0, 0]) translate([0, 0, -5]) cylinder(d = refill_d, h = refill_len + 5, $fn = 24);
    box(mpu, mpu_y);
    box(lipo, lipo_y);
    // switch against the +x wall with its lever out through it; diode on the other side
    translate([outer_d / 2 - wall - sw[0] - clr, sw_y, -sw[2] / 2 - clr / 2]) cube([sw[0] + clr, sw[1] + clr, sw[2] + clr]);
    translate([outer_d / 2 - wall - 1, sw_y + sw[1] / 2 - 3, -1.5]) cube([wall + 2, 6, 3]);
    translate([-outer_d / 2 + wall + 1, sw_y, -diode[2] / 2 - clr / 2]) cube([diode[0] + clr, diode[1] + clr, diode[2] + clr]);
    // back bay: board and charger, both ending at the back wall
    box(board, back_y + back_len - board[1] - clr, board_z0);
    box(charger, back_y, charger_z0);
    // wires between the bays
    translate([-2, mpu_y, -1]) cube([4, back_y - mpu_y, 2]);
    // one opening for both sockets' plugs
    z_lo = board_z0 + usbc_board_z - plug[1] / 2;
    z_hi = charger_z0 + usbc_charger_z + plug[1] / 2;
    translate([-plug[0] / 2, length - wall - 0.01, z_lo]) cube([plug[0], wall + 0.02, z_hi - z_lo]);
}

module halfbody() {
    intersection() {
        difference() { shell(); cavities(); }
        if (half == "bottom") translate([-50, -50, -50]) cube([100, 300, 50]);
        else translate([-50, -50, 0]) cube([100, 300, 50]);
    }
}

halfbody();
