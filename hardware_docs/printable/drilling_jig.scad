// Goal drilling jig: a plate the size of the goal with a lip on two edges and 3.2 mm guide
// holes at the goal point beams' config positions (goal_points.scad, generated from the table
// config by hardware_docs/draw_drilling_jig.py). Drilling through the guides keeps every hole well
// inside the observer's 1.5 mm tolerance (controller/games/coinwar/sensing.py TOLERANCE_MM).
// Print flat, 100 % infill around the holes (or use brass 3.2 mm tube inserts). Check the printed
// outline against the goal (60 x 160 mm) before drilling: printers shrink a little.
include <goal_points.scad>

hole_d = 3.2;
plate_t = 5;
lip = 3;               // lip that hooks over the goal's south and west edges

module jig() {
    w = goal_x1 - goal_x0;
    l = goal_y1 - goal_y0;
    difference() {
        union() {
            cube([w, l, plate_t]);
            translate([-lip, -lip, -lip]) cube([w + lip, lip, plate_t + lip]);  // south lip
            translate([-lip, -lip, -lip]) cube([lip, l + lip, plate_t + lip]);  // west lip
        }
        for (p = goal_points)
            translate([p[0] - goal_x0, p[1] - goal_y0, -lip - 1]) cylinder(d = hole_d, h = plate_t + lip + 2, $fn = 32);
    }
}

jig();
