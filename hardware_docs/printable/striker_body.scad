// Striker body: a pen-refill holder with a bay for an ESP32-C3 SuperMini, a GY-521 (MPU-6050) and
// a 502030 LiPo, and a slot for the power switch. The MPU sits close to the tip and must be glued
// rigidly (loose parts ring and look like extra hits). Two halves; print both flat, PETG.
// All sizes in mm; change the parameters for other boards, then `make stl`.

refill_d = 6.2;        // pen refill
length = 140;
outer_d = 26;
board = [18, 23, 5];   // ESP32-C3 SuperMini with headers removed
mpu = [16, 21, 3.5];   // GY-521
lipo = [20, 31, 5.5];  // 502030
switch_slot = [8.5, 4, 4];
wall = 1.8;
half = "bottom";       // "bottom" or "top"

module shell() {
    hull() {
        translate([0, 0, 0]) sphere(d = outer_d * 0.6, $fn = 48);
        translate([0, length - outer_d / 2, 0]) sphere(d = outer_d, $fn = 48);
    }
}

module cavities() {
    // refill channel along the axis, out through the tip
    rotate([-90, 0, 0]) translate([0, 0, -5]) cylinder(d = refill_d, h = 60, $fn = 24);
    // MPU close to the tip, then the board, then the battery
    translate([-mpu[0] / 2, 22, -mpu[2] / 2]) cube(mpu);
    translate([-board[0] / 2, 48, -board[2] / 2]) cube(board);
    translate([-lipo[0] / 2, 76, -lipo[2] / 2]) cube(lipo);
    // USB-C opening at the back and the switch slot
    translate([-5, length - 8, -2]) cube([10, 20, 4]);
    translate([outer_d / 2 - switch_slot[0] + 1, 100, -switch_slot[2] / 2]) cube(switch_slot);
}

module halfbody() {
    intersection() {
        difference() { shell(); cavities(); }
        if (half == "bottom") translate([-50, -50, -50]) cube([100, 250, 50]);
        else translate([-50, -50, 0]) cube([100, 250, 50]);
    }
}

halfbody();
