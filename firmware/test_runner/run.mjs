// Run a Python script under real MicroPython (WebAssembly port) with firmware/lib importable.
// Usage: node run.mjs <lib_dir> <vectors_dir> <script.py> [extra_dir ...]
// Copies lib/*.py and *.mpy (and each extra_dir's, e.g. firmware/striker and this folder's stand-in
// hardware; lib_dir may be firmware/mpy, the precompiled modules) to /lib and vectors/*.json to /vectors in MicroPython's in-memory filesystem,
// sets VECTORS_DIR = "/vectors", runs the script as __main__; exit code 0 only if the script
// printed a line starting with "OK" and raised nothing.
import fs from "node:fs";
import path from "node:path";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript/micropython.mjs";

const [libDir, vectorsDir, script, ...extraDirs] = process.argv.slice(2);
if (!libDir || !vectorsDir || !script) {
  console.error("usage: node run.mjs <lib_dir> <vectors_dir> <script.py>");
  process.exit(2);
}
let out = "";
const mp = await loadMicroPython({
  heapsize: 8 * 1024 * 1024,
  stdout: (line) => { out += line + "\n"; process.stdout.write(line + "\n"); },
  stderr: (line) => process.stderr.write(line + "\n"),
});
function copyDir(src, dst, ...exts) {
  try { mp.FS.mkdir(dst); } catch (e) { /* exists */ }
  for (const name of fs.readdirSync(src)) {
    if (exts.some((ext) => name.endsWith(ext))) mp.FS.writeFile(dst + "/" + name, fs.readFileSync(path.join(src, name)));
  }
}
copyDir(libDir, "/lib", ".py", ".mpy");
for (const dir of extraDirs) copyDir(dir, "/lib", ".py", ".mpy");
copyDir(vectorsDir, "/vectors", ".json");
// sub-folders too (tests/vectors/recorded: traces recorded on real strikers) as /vectors/<name>
for (const ent of fs.readdirSync(vectorsDir, { withFileTypes: true })) {
  if (ent.isDirectory() && !ent.name.startsWith("_")) copyDir(path.join(vectorsDir, ent.name), "/vectors/" + ent.name, ".json");
}
const code = fs.readFileSync(script, "utf8");
try {
  mp.runPython("import sys\nif '/lib' not in sys.path:\n    sys.path.append('/lib')\nVECTORS_DIR = '/vectors'\n__name__ = '__main__'\n");
  mp.runPython(code);
} catch (e) {
  if (e && e.name === "PythonError") {
    if (e.type !== "SystemExit") console.error(String(e.message).trim());
    process.exit(1);
  }
  throw e;
}
process.exit(/^OK/m.test(out) ? 0 : 1);
