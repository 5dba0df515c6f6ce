// The bench session (../mp/fwround.py) on the 32-bit webassembly port of MicroPython, with the firmware's
// .mpy files: node session.mjs BUILD_DIR FWROUND_MPY GAME ROUNDS -> one line
// "SESSION32 <game> base <b> code <b> setup <b> peak <b> end <b> ms <ms>" (heap in use, bytes), or "SESSION32-FAIL ...".
// This port's gc.collect() only asks for a collection, which runs when control is back in JavaScript, so
// every round is one call from here and the heap is read after it: heap in use between rounds.
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";
import fs from "fs";
import path from "path";

const [build, fwround, game, rounds] = [process.argv[2], process.argv[3], process.argv[4], +process.argv[5]];
const mp = await loadMicroPython({ heapsize: 64 * 1024, stdout: (l) => console.log(l), stderr: (l) => console.error(l) });

function copyMpy(src, dst) {
  mp.FS.mkdirTree(dst);
  for (const e of fs.readdirSync(src, { withFileTypes: true })) {
    const s = path.join(src, e.name), d = dst + "/" + e.name;
    if (e.isDirectory()) copyMpy(s, d);
    else if (e.name.endsWith(".mpy")) mp.FS.writeFile(d, fs.readFileSync(s));
  }
}
copyMpy(build, "/lib");
mp.FS.mkdirTree("/bench");
mp.FS.writeFile("/bench/fwround.mpy", fs.readFileSync(fwround));
mp.FS.mkdirTree("/state");
const t0 = Date.now();
mp.runPython("import sys\nsys.path[:] = ['/bench', '.frozen', '/lib']");
const gc = mp.pyimport("gc");
const heap = () => { mp.runPython("import gc\ngc.collect()"); return gc.mem_alloc(); };
heap();
const base = heap();
const fw = mp.pyimport("fwround");
fw.imports(game);
const code = heap();
const app = fw.open_table(game, "/state/" + game);
const setup = heap();
let peak = setup, end = setup;
for (let r = 0; r < rounds; r++) {
  const failed = fw.play(app, r);
  if (failed) { console.log("SESSION32-FAIL", failed); process.exit(1); }
  end = heap();
  if (end > peak) peak = end;
}
console.log("SESSION32", game, "base", base, "code", code, "setup", setup, "peak", peak, "end", end, "ms", Date.now() - t0);
