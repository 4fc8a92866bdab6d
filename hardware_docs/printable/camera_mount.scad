// Camera mount plate: holds a Raspberry Pi Camera Module 3 (or 3 Wide) looking straight down at
// the table from a buyable overhead arm (hardware_docs/camera.md): a 1/4-20 screw (the thread of
// every camera arm, boom and tripod) or two M5 T-nuts in a 2020 aluminium profile.
// Camera Module 3 mechanical drawing: board 25 x 24 mm, four M2 holes on a 21 x 12.5 mm rectangle,
// the lens 12.5 mm from either side edge and 9.5 mm above the lower holes' line. Print flat, PETG,
// matt black (a shiny plate reflects the lamp into the lens). All sizes in mm; `make stl`.

board = [25, 24];
hole_dx = 21;          // M2 hole spacing across
hole_dy = 12.5;        // and up
hole_edge = 2;         // the lower holes' line above the board's lower edge
lens_up = 9.5;         // lens centre above the lower holes' line
lens_window = 14;      // square window for the lens and its focus ring
m2 = 2.4;              // M2 clearance (use 4 M2 x 8 screws and nuts, or M2.5 self-tappers)
plate_t = 4;
arm_len = 40;          // from the camera to the screw, so the arm stays out of the picture
quarter_inch = 6.6;    // 1/4-20 clearance
m5 = 5.4;
profile_pitch = 20;    // the two T-nut holes along a 2020 profile

module plate() {
    difference() {
        union() {
            translate([-board[0] / 2 - 3, -3, 0]) cube([board[0] + 6, board[1] + 6, plate_t]);
            translate([-8, board[1] + 3, 0]) cube([16, arm_len, plate_t]);
        }
        // the lens window and the four M2 holes
        translate([-lens_window / 2, hole_edge + lens_up - lens_window / 2, -1]) cube([lens_window, lens_window, plate_t + 2]);
        for (x = [-hole_dx / 2, hole_dx / 2], y = [hole_edge, hole_edge + hole_dy])
            translate([x, y, -1]) cylinder(d = m2, h = plate_t + 2, $fn = 20);
        // 1/4-20 at the arm's end, M5 pair for a 2020 profile
        translate([0, board[1] + 3 + arm_len - 8, -1]) cylinder(d = quarter_inch, h = plate_t + 2, $fn = 32);
        for (dy = [0, profile_pitch]) translate([0, board[1] + 3 + arm_len - 8 - profile_pitch - 2 + dy - profile_pitch / 2, -1])
            cylinder(d = m5, h = plate_t + 2, $fn = 24);
    }
}

plate();
