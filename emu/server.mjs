#!/usr/bin/env node
// The emulated Pico for fleetref's tests and benchmarks, driven by emu/pico.py.
//
//   node emu/server.mjs --uf2 IMAGE.uf2 --bootrom BOOTROM.js --board PROFILE.json [--fs FS.img]
//
// IMAGE.uf2: MicroPython, optionally with the board's littlefs filesystem in it (what
// `fleetref flash --uf2` writes). The board profile's input.driver and display.driver name the
// chip models to attach (emu/models.mjs, by the firmware's driver names: a diode key matrix
// "matrix" or the keypad base's TCA9555 "tca9555", a WS2812 decoder "ws2812" or the APA102
// chain "apa102"); a name with no model stops the server with one line on stderr.
//
// USB CDC serial: a TCP server on 127.0.0.1 (port in the "ready" line); one client at a time,
// output made before the first client connects is kept for it.
// Control: JSON lines on stdin ({"id": N, "cmd": ...}), replies {"id": N, ...} and events
// {"ev": ...} as JSON lines on stdout. Times are emulated seconds since the last reset.
import fs from 'fs';
import net from 'net';
import { createPico, readBootrom } from './pico.mjs';
import { INPUTS, DISPLAYS } from './models.mjs';

const args = {};
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i += 2) args[argv[i].replace(/^--/, '')] = argv[i + 1];

const out = (obj) => process.stdout.write(JSON.stringify(obj) + '\n');

const board = JSON.parse(fs.readFileSync(args.board, 'utf8'));
const inp = board.input ?? {};
const disp = board.display ?? {};
const own = (table, name) => (Object.hasOwn(table, name) ? table[name] : null);
const inputModel = own(INPUTS, inp.driver);
const displayModel = own(DISPLAYS, disp.driver);
if (!inputModel || !displayModel) {
  const [kind, name] = inputModel ? ['display', disp.driver] : ['input', inp.driver];
  process.stderr.write(`emulated Pico: no chip model for ${kind} driver ${JSON.stringify(name)} (emu/models.mjs)\n`);
  process.exit(2);
}
const bootrom = await readBootrom(args.bootrom);
const pico = createPico({ firmware: args.uf2, bootrom, fsImage: args.fs });
const now = () => pico.nanos / 1e9;

// ---- USB CDC as TCP ------------------------------------------------------------------
let client = null;
let backlog = [];
pico.onSerial = (bytes) => {
  const b = Buffer.from(bytes);
  if (client) client.write(b);
  else backlog.push(b);
};
const server = net.createServer((sock) => {
  if (client) client.destroy();
  client = sock;
  sock.setNoDelay(true);
  for (const b of backlog) sock.write(b);
  backlog = [];
  sock.on('data', (d) => pico.write(d));
  sock.on('close', () => { if (client === sock) client = null; });
  sock.on('error', () => {});
});

// ---- models from the board profile (emu/models.mjs) -------------------------------------
const setKey = inputModel(pico, inp);
displayModel(pico, disp, board, out);

// ---- power cuts ----------------------------------------------------------------------
let cutAfterOps = null; // flash operations still to run before the cut
let watchFlash = false;
const images = {};
const flashBytes = { erase: 0, program: 0 }; // bytes erased / programmed since boot of the process
const FS_START = 0xa0000, FS_SIZE = 352 * 4096; // the rp2 port's littlefs region
const cut = (why) => {
  pico.sim.stop(); // the CPU stops after the current instruction
  out({ ev: 'cut', why, t: now(), flashOps: pico.flashOps });
  setTimeout(() => pico.hardReset(), 0);
};
const hookFlash = () => {
  pico.onFlashOp = (kind, off, n) => {
    flashBytes[kind] += n;
    if (watchFlash) out({ ev: 'flash', kind, off, n, t: now() });
    if (cutAfterOps !== null && --cutAfterOps === 0) {
      cutAfterOps = null;
      cut(`after ${kind} of ${n} bytes at 0x${off.toString(16)}`);
    }
  };
};
hookFlash();
pico.onReset = () => {
  hookFlash(); // the flash-op hook lives on the chip: attach it to the new one
  out({ ev: 'reset', resets: pico.resets });
};

// ---- key presses in emulated time ------------------------------------------------------
// presses: [[key, hold_ms, gap_ms], ...] one after the other, starting now
const pressAll = (id, list) => {
  let t = 0;
  for (const [k, hold, gap] of list) {
    const down = t, up = t + hold;
    pico.after(down / 1000, () => { setKey(k, true); out({ ev: 'key', k, down: true, t: now() }); });
    pico.after(up / 1000, () => { setKey(k, false); out({ ev: 'key', k, down: false, t: now() }); });
    t = up + gap;
  }
  pico.after(t / 1000, () => out({ ev: 'presses-done', id, t: now() }));
};

const handle = (msg) => {
  const { id, cmd } = msg;
  const reply = (obj = {}) => out({ id, ok: true, ...obj });
  switch (cmd) {
    case 'start': pico.start(); return reply();
    case 'key': setKey(msg.k, !!msg.down); return reply({ t: now() });
    case 'presses': pressAll(id, msg.list); return reply({ t: now() });
    case 'sleep': pico.after(msg.ms / 1000, () => out({ ev: 'slept', id, t: now() })); return reply({ t: now() });
    case 'time': return reply({ t: now(), busy: pico.busyNanos / 1e9, resets: pico.resets, flashOps: pico.flashOps, flashBytes });
    case 'reset': cut('reset command'); return reply();
    case 'cut_after_ops': cutAfterOps = msg.n; return reply({ flashOps: pico.flashOps });
    case 'cut_after_ms': pico.after(msg.ms / 1000, () => cut(`at ${now().toFixed(6)} s`)); return reply({ t: now() });
    case 'watch_flash': watchFlash = !!msg.on; return reply();
    case 'save_flash': images[msg.name] = pico.mcu.flash.slice(); return reply();
    case 'restore_flash': {
      const img = images[msg.name];
      pico.sim.stop();
      setTimeout(() => { pico.mcu.flash.set(img, 0); pico.hardReset(); }, 0);
      return reply();
    }
    // the filesystem region as a file (a littlefs image), and a file written back over it
    // followed by a power cut and boot: faults injected into the board's own flash
    case 'dump_flash':
      fs.writeFileSync(msg.path, pico.mcu.flash.subarray(FS_START, FS_START + FS_SIZE));
      return reply();
    case 'load_flash': {
      const img = fs.readFileSync(msg.path);
      if (img.length !== FS_SIZE) throw new Error(`image is ${img.length} bytes, not ${FS_SIZE}`);
      pico.sim.stop();
      setTimeout(() => { pico.mcu.flash.set(img, FS_START); pico.hardReset(); }, 0);
      return reply();
    }
    case 'quit': reply(); process.exit(0);
    default: out({ id, ok: false, error: `unknown command ${cmd}` });
  }
};

let inbuf = '';
process.stdin.on('data', (d) => {
  inbuf += d.toString();
  let i;
  while ((i = inbuf.indexOf('\n')) >= 0) {
    const line = inbuf.slice(0, i);
    inbuf = inbuf.slice(i + 1);
    if (!line.trim()) continue;
    let msg;
    try { msg = JSON.parse(line); } catch (e) { out({ ok: false, error: 'bad json' }); continue; }
    try { handle(msg); } catch (e) { out({ id: msg.id, ok: false, error: String(e && e.stack || e) }); }
  }
});
process.stdin.on('end', () => process.exit(0));
server.listen(0, '127.0.0.1', () => out({ ev: 'ready', serial: server.address().port }));
