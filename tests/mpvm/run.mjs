// Run a Python file inside real MicroPython (the WebAssembly port) under Node.
// usage: node run.mjs <firmware dir> <script.py> [data.json]
// firmware/referee is mounted at /lib/referee, firmware/rosters at /rosters, data at /data.json.
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";
import fs from "fs";
import path from "path";

const [fwDir, script, data] = process.argv.slice(2);
const mp = await loadMicroPython({
  heapsize: 192 * 1024,
  stdout: (l) => process.stdout.write(l + "\n"),
  stderr: (l) => process.stderr.write(l + "\n"),
});

function mount(src, dst) {
  try { mp.FS.mkdir(dst); } catch (e) { /* exists */ }
  for (const name of fs.readdirSync(src)) {
    const s = path.join(src, name);
    const d = dst + "/" + name;
    if (fs.statSync(s).isDirectory()) {
      if (name !== "__pycache__") mount(s, d);
    } else if (name.endsWith(".py") || name.endsWith(".mpy") || name.endsWith(".json")) {
      mp.FS.writeFile(d, fs.readFileSync(s));
    }
  }
}
try { mp.FS.mkdir("/lib"); } catch (e) {}
mount(path.join(fwDir, "referee"), "/lib/referee");
mount(path.join(fwDir, "rosters"), "/rosters");
if (data) mp.FS.writeFile("/data.json", fs.readFileSync(data));
// A script may define STEPS and step(i): each step then runs in its own runPython call, and
// finish() after them. (This port's garbage collector only frees objects between calls, so a
// long loop inside one call would never give memory back.)
try {
  mp.runPython(fs.readFileSync(script, "utf8"));
  const steps = mp.globals.get("STEPS");
  if (typeof steps === "number") {
    for (let i = 0; i < steps; i++) mp.runPython(`step(${i})`);
    mp.runPython("finish()");
  }
} catch (e) {
  process.stderr.write(String(e && e.message ? e.message : e) + "\n");
  process.exit(1);
}
