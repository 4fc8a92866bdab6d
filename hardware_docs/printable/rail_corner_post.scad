// Rail corner post: holds the two rail-beam parts of one table corner, each behind a 1 mm slit
// just above the rail top (gametable_core/beam_optics.py SlitBeam, hardware_docs/beam_layout.md "Optics").
// Frame: origin at the inner corner of the rails on the rail top (z = 0 is the rail top), the
// beam A along +y over the west rail at x = -beam_out, the beam B along +x over the south rail at
// y = -beam_out (config: rail_w x = -16, rail_s y = -16). The post sits outside the corner and
// hangs down the rails' outer faces, so the part bodies can reach below the rail top while their
// lenses look along it; nothing stands on the rail top but the two slit hoods.
// Print 4: by default all four corners are rendered, each mirrored and with its own parts
// (`corner = "SW"` etc. renders one), PETG, black (opaque to 940 nm), 0.2 mm layers, on its back.
// All sizes in mm; `make stl` / `make renders`.

rail_width = 30;       // rail top width (gametable_core/table_geometry.py RAIL_WIDTH_MM)
beam_out = 16;         // beam axis outside the rail's inner face (the config's -16 / 441 / 641)
slit_bottom = 0.5;     // slit's lower edge above the rail top (SlitBeam.slit_bottom_mm)
slit_height = 1.0;     // SlitBeam.slit_height_mm: the whole band lies inside a 2 mm coin
slit_width = 4.0;      // across the beam
beam_z = slit_bottom + slit_height / 2;  // lens axis height above the rail top
front_wall = 1.6;      // between a lens and the rail's outer face; the slit runs through it
hood = 8;              // slit channel over the rail top: the receiver sees only its own emitter
hood_roof = 1.2;
wall = 2.0;
clr = 0.15;            // print clearance around a part body
clamp = 16;            // tabs down the rails' outer faces (one 3.5 mm screw each)
// The part bodies [across, along the beam, up] and their lens axis above the body's bottom:
// Vishay TSSP4038 "Mold" 6.0 x 5.6 x 6.95 (datasheet drawing: lens centre 3.5 up);
// Vishay TSAL6200 5 mm LED lying down: flange 5.8, body 8.6 long, axis at its centre.
tssp_body = [6.0, 5.6, 6.95];
tssp_lens_z = 3.5;
tsal_body = [5.8, 8.6, 5.8];
tsal_lens_z = 2.9;
// The TSSP4038's three leads (0.5 mm, 2.54 pitch) leave the package's bottom face, near its back
// (Vishay "Mold" drawing): a slot under the pocket lets them out downwards; the front of the bottom
// face still rests on the pocket floor. (The TSAL6200's leads leave its back: the open back.)
lead_pitch = 2.54;
lead_w = 0.5;
lead_span = 2 * lead_pitch + lead_w;       // across the three leads
lead_slot_w = lead_span + 2 * clr + 0.2;   // 0.2 for bent or skewed leads
lead_zone = 3.0;                           // the leads leave the bottom within this of the back face
// This corner's parts (beam_layout.md "Rail beams" gives each corner's): SW = two emitters.
part_a = "tsal";
part_b = "tsal";
corner = "all";        // "SW", "NW", "NE", "SE", or "all": the four, laid out to print at once

function body(p) = p == "tssp" ? tssp_body : tsal_body;
function lens_z(p) = p == "tssp" ? tssp_lens_z : tsal_lens_z;

// A part's housing and pocket in its own frame: beam along +y from the lens face at y = 0.
module housing(p) {
    b = body(p);
    translate([-b[0] / 2 - clr - wall, -b[1] - clr - wall, beam_z - lens_z(p) - clr - wall])
        cube([b[0] + 2 * (clr + wall), b[1] + clr + wall + front_wall, b[2] + 2 * (clr + wall)]);
    // the hood: a slit channel lying on the rail top
    translate([-slit_width / 2 - wall, front_wall, 0])
        cube([slit_width + 2 * wall, hood, slit_bottom + slit_height + hood_roof]);
}

module cut(p) {
    b = body(p);
    // pocket, open at the back for the leads
    translate([-b[0] / 2 - clr, -b[1] - clr - wall - 1, beam_z - lens_z(p) - clr])
        cube([b[0] + 2 * clr, b[1] + clr + wall + 1, b[2] + 2 * clr]);
    // the slit, on the beam axis, through the front wall and the hood
    translate([-slit_width / 2, -0.01, slit_bottom]) cube([slit_width, front_wall + hood + 0.02, slit_height]);
    // the receiver's leads: out of its bottom face, down through the housing's floor and open at the back
    if (p == "tssp")
        translate([-lead_slot_w / 2, -b[1] - clr - wall - 1, beam_z - lens_z(p) - clr - wall - 1])
            cube([lead_slot_w, lead_zone + clr + wall + 1, wall + 1 + clr + 0.01]);
}

// part A on the west rail's beam, part B on the south rail's beam (rotated to shine along +x)
module place_a() { translate([-beam_out, -rail_width - front_wall, 0]) children(); }
module place_b() { translate([-rail_width - front_wall, -beam_out, 0]) rotate([0, 0, -90]) children(); }

module post(part_a = part_a, part_b = part_b) {
    low = beam_z - max(tssp_lens_z, tsal_lens_z) - clr - wall;
    outer = rail_width + front_wall + max(tssp_body[1], tsal_body[1]) + clr + wall;
    difference() {
        union() {
            place_a() housing(part_a);
            place_b() housing(part_b);
            // the outside corner block joining the two housings, and the clamp tabs
            translate([-outer, -outer, low]) cube([outer - rail_width, outer - rail_width, -low + 3]);
            translate([-outer, -rail_width - front_wall, -clamp]) cube([outer - beam_out + 6, front_wall, clamp]);
            translate([-rail_width - front_wall, -outer, -clamp]) cube([front_wall, outer - beam_out + 6, clamp]);
        }
        place_a() cut(part_a);
        place_b() cut(part_b);
        translate([-rail_width + 6, -rail_width + 1, -clamp / 2]) rotate([90, 0, 0]) cylinder(d = 3.6, h = 5, $fn = 20);
        translate([-rail_width + 1, -rail_width + 6, -clamp / 2]) rotate([0, -90, 0]) cylinder(d = 3.6, h = 5, $fn = 20);
    }
}

// each corner's parts (beam_layout.md "Mounting notes"), in the SW post's frame mirrored to its corner
function parts_of(c) = c == "SW" ? ["tsal", "tsal"] : c == "NW" ? ["tssp", "tsal"] : c == "NE" ? ["tssp", "tssp"] : ["tsal", "tssp"];
function flips_of(c) = c == "SW" ? [1, 1] : c == "NW" ? [1, -1] : c == "NE" ? [-1, -1] : [-1, 1];
module corner_post(c) { f = flips_of(c); p = parts_of(c); scale([f[0], f[1], 1]) post(p[0], p[1]); }

if (corner == "all") for (i = [0 : 3]) translate([(i % 2) * 100, floor(i / 2) * 100, 0]) corner_post(["SW", "NW", "NE", "SE"][i]);
else corner_post(corner);
