// Rail beam post (#2): holds a TSAL6200 emitter or a TSSP4038 receiver at a table corner, the beam
// running along the top of a rail, 16 mm outside its inner face (controller/data/default-table.toml).
// Print 8 (4 emitters, 4 receivers), PETG or PLA, 0.2 mm layers, no supports (lens hole horizontal:
// bridge it or print on its side). All sizes in mm; change the parameters, then `make stl`.

rail_height = 20;      // rail top above the playing surface
rail_width = 30;       // rail top width the post clamps over
beam_above_rail = 3;   // beam axis above the rail top (2-4 mm: low enough for a hopping coin)
beam_out = 16;         // beam axis outside the rail's inner face (config: -16 / 441 / 641)
part = "tssp";         // "tssp" (TSSP4038 receiver, 5 x 6.95 mm body) or "tsal" (5 mm IR LED)
aperture = 1.5;        // slit height in front of the receiver (narrows the beam, blocks stray light)
wall = 2.4;
clamp_depth = 25;

body_w = part == "tssp" ? 6.2 : 5.3;
body_h = part == "tssp" ? 7.4 : 5.3;

module post() {
    difference() {
        union() {
            // saddle over the rail top
            translate([-wall, -wall, 0]) cube([rail_width + 2 * wall, clamp_depth, wall]);
            translate([-wall, -wall, -12]) cube([wall, clamp_depth, 12 + wall]);
            translate([rail_width, -wall, -12]) cube([wall, clamp_depth, 12 + wall]);
            // the sensor block, centred on the beam axis
            translate([beam_out - body_w / 2 - wall, -wall, 0])
                cube([body_w + 2 * wall, 10, beam_above_rail + body_h / 2 + wall]);
        }
        // sensor pocket, open towards the other corner (+y)
        translate([beam_out - body_w / 2, -wall + 1.2, beam_above_rail - body_h / 2])
            cube([body_w, 20, body_h]);
        // slit aperture in the front wall
        translate([beam_out - 1.5, -wall - 1, beam_above_rail - aperture / 2]) cube([3, wall + 2.5, aperture]);
        // wire exit
        translate([beam_out - 1.5, 4, -1]) cube([3, 4, beam_above_rail + 1]);
    }
}

post();
