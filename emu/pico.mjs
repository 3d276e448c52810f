// Minimal harness around the rp2040js emulator for running MicroPython (RPI_PICO build).
// Library: import { createPico } from './pico.mjs'
import fs from 'fs';
import { Simulator, USBCDC, ConsoleLogger, LogLevel, GPIOPinState } from 'rp2040js';
import { pathToFileURL } from 'url';

export const FLASH_START_ADDRESS = 0x10000000;
// RPI_PICO: 2 MiB flash, MICROPY_HW_FLASH_STORAGE_BYTES = 1408 KiB at the end => offset 0xA0000, 352 x 4 KiB blocks
export const MICROPYTHON_FS_FLASH_START = 0xa0000;
export const MICROPYTHON_FS_BLOCKSIZE = 4096;
export const MICROPYTHON_FS_BLOCKCOUNT = 352;

/**
 * The RP2040 B1 bootrom as 32-bit words, from ``path``: a JS module exporting ``bootromB1``
 * (rp2040js's demo/bootrom.ts compiled, as ../shared/pico-emu/bootrom.js) or a 16 KB binary.
 * The bootrom is Raspberry Pi's (BSD-3-Clause) and stays outside the repository.
 */
export async function readBootrom(path) {
  if (/\.(m?js|ts)$/.test(path)) {
    const mod = await import(pathToFileURL(path).href);
    if (!(mod.bootromB1 instanceof Uint32Array)) throw new Error(`${path} exports no bootromB1`);
    return mod.bootromB1;
  }
  const b = fs.readFileSync(path);
  return new Uint32Array(b.buffer, b.byteOffset, b.length >> 2);
}

export function loadUF2(filename, mcu) {
  const buf = fs.readFileSync(filename);
  let n = 0;
  for (let off = 0; off + 512 <= buf.length; off += 512) {
    const dv = new DataView(buf.buffer, buf.byteOffset + off, 512);
    if (dv.getUint32(0, true) !== 0x0a324655 || dv.getUint32(4, true) !== 0x9e5d5157) {
      throw new Error(`bad UF2 magic at block ${off / 512}`);
    }
    const flags = dv.getUint32(8, true);
    if (flags & 1) continue; // "not main flash"
    const addr = dv.getUint32(12, true);
    const size = dv.getUint32(16, true);
    mcu.flash.set(buf.subarray(off + 32, off + 32 + size), addr - FLASH_START_ADDRESS);
    n++;
  }
  return n;
}

export function loadBin(filename, mcu, flashOffset = 0) {
  mcu.flash.set(fs.readFileSync(filename), flashOffset);
}

export function loadFlashImage(filename, mcu, flashOffset = MICROPYTHON_FS_FLASH_START) {
  const img = fs.readFileSync(filename);
  if (img.length > MICROPYTHON_FS_BLOCKSIZE * MICROPYTHON_FS_BLOCKCOUNT) throw new Error('fs image too big');
  mcu.flash.set(img, flashOffset);
}

/**
 * Create an emulated Pico running MicroPython.
 * opts: { firmware: path (.uf2 or .bin), bootrom: Uint32Array (readBootrom), fsImage?: path, logLevel?, realtime?: bool|speed,
 *         padModel/flashWrite/pioTiming/uartFix/spiTiming/hardReset?: false to disable a fix }
 * pico: write(strOrBytes) -> USB CDC;  onSerial(bytes), onConnect(), onUart(n, byte), onReset() callbacks;
 *       gpio(n) (rp2040js GPIOPin of the *current* chip), onPin(n, cb(state, old)) (survives hard resets),
 *       drive(n, true|false|null), padLevel(n), at(tSec, fn), after(dtSec, fn), nanos, start(), stop(), hardReset(),
 *       eachChip(fn(mcu)) (survives hard resets: attach peripheral models there),
 *       onSpiByte(port, fn(byte) -> reply byte) (an SPI device; survives hard resets).
 * machine.reset() / watchdog reboot -> a fresh chip is built with the same flash contents (filesystem kept);
 * simulated time restarts at 0 and alarms from at()/after() are dropped.
 */
export function createPico(opts) {
  const pinListeners = Array.from({ length: 30 }, () => []);
  const chipHooks = [];
  const spiDevices = [[], []];
  const pico = {
    sim: null,
    mcu: null,
    cdc: null,
    connected: false,
    resets: 0,
    busyNanos: 0,
    onSerial: opts.onSerial ?? null,
    onConnect: null,
    onUart: null,
    onReset: null,
    ext: new Array(30).fill(null), // external drive per pin (pad model)
    write(data) {
      const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
      for (const b of bytes) this._rx.queue.push(b);
      if (this._rx.pending !== null) this._rx.complete();
    },
    gpio(n) {
      return this.mcu.gpio[n];
    },
    onPin(n, cb) {
      pinListeners[n].push(cb);
      return this.mcu.gpio[n].addListener(cb);
    },
    /** a device on SPI port n: fn(byteSent) may return the byte it sends back (default 0) */
    onSpiByte(n, fn) {
      spiDevices[n].push(fn);
    },
    _spiDevices: spiDevices,
    /** run fn(mcu) now and on every chip built by hardReset (to attach models to peripherals) */
    eachChip(fn) {
      chipHooks.push(fn);
      fn(this.mcu);
    },
    start() {
      this.mcu.core.PC = 0x10000000;
      this.sim.execute();
    },
    stop() {
      this.sim.stop();
    },
    /** run fn at absolute simulated time tSec (seconds since reset), exactly, via the simulation clock */
    at(tSec, fn) {
      const delta = Math.max(0, tSec * 1e9 - this.sim.clock.nanos);
      this.sim.clock.createAlarm(fn).schedule(delta);
    },
    /** run fn after dtSec simulated seconds */
    after(dtSec, fn) {
      this.sim.clock.createAlarm(fn).schedule(dtSec * 1e9);
    },
    /** simulated time in ns */
    get nanos() {
      return this.sim.clock.nanos;
    },
    hardReset() {
      const flash = this.mcu.flash.slice(0, 2 * 1024 * 1024);
      this.sim.stop();
      this.mcu.pio.forEach((p) => p.stop());
      this.resets++;
      boot((mcu) => mcu.flash.set(flash, 0));
      for (let n = 0; n < 30; n++) for (const cb of pinListeners[n]) this.mcu.gpio[n].addListener(cb);
      for (const fn of chipHooks) fn(this.mcu);
      if (this.onReset) this.onReset();
      this.start();
    },
  };

  const boot = (initFlash) => {
    const sim = new Simulator();
    const mcu = sim.rp2040;
    // rp2040js's own loop, counting the emulated time the core spends executing (not
    // waiting in WFI/WFE): pico.busyNanos, for the CPU share of the idle loop.
    sim.execute = function () {
      const { rp2040, clock } = this;
      this.executeTimer = null;
      this.stopped = false;
      const cycleNanos = 1e9 / 125e6;
      for (let i = 0; i < 1000000 && !this.stopped; i++) {
        if (rp2040.core.waiting) {
          const dt = clock.nanosToNextAlarm;
          clock.tick(dt);
          i += dt / cycleNanos;
        } else {
          const dt = rp2040.core.executeInstruction() * cycleNanos;
          clock.tick(dt);
          pico.busyNanos += dt;
        }
      }
      if (!this.stopped) this.executeTimer = setTimeout(() => this.execute(), 0);
    };
    mcu.loadBootrom(opts.bootrom);
    mcu.logger = new ConsoleLogger(opts.logLevel ?? LogLevel.Error);
    initFlash(mcu);
    const cdc = new USBCDC(mcu.usbCtrl);
    pico.sim = sim;
    pico.mcu = mcu;
    pico.cdc = cdc;
    pico.connected = false;
    // Host->device data path. The stock USBCDC answers every OUT buffer the device arms
    // immediately, with a zero-length packet when it has nothing to send; TinyUSB re-arms at once,
    // so the CPU never idles (sleeps run ~3x slower than real time) and its 512-byte FIFO can
    // overflow on big writes (mpremote cp). Here OUT transfers are held until there is data, and the queue is unbounded.
    const rx = (pico._rx = { queue: [], head: 0, pending: null });
    rx.complete = () => {
      const n = Math.min(rx.pending, rx.queue.length - rx.head);
      const buf = new Uint8Array(rx.queue.slice(rx.head, rx.head + n));
      rx.head += n;
      if (rx.head > 4096 && rx.head * 2 > rx.queue.length) {
        rx.queue.splice(0, rx.head);
        rx.head = 0;
      }
      rx.pending = null;
      mcu.usbCtrl.endpointReadDone(cdc.outEndpoint, buf);
    };
    mcu.usbCtrl.onEndpointRead = (endpoint, size) => {
      if (endpoint !== cdc.outEndpoint) return;
      rx.pending = size;
      if (rx.queue.length - rx.head > 0) rx.complete();
    };
    cdc.onDeviceConnected = () => {
      pico.connected = true;
      if (pico.onConnect) pico.onConnect();
    };
    cdc.onSerialData = (value) => {
      if (pico.onSerial) pico.onSerial(value);
    };
    // UART TX -> callback (GP0/GP1 = UART0 by default)
    mcu.uart[0].onByte = (b) => pico.onUart && pico.onUart(0, b);
    mcu.uart[1].onByte = (b) => pico.onUart && pico.onUart(1, b);
    if (opts.padModel !== false) installPadModel(pico);
    if (opts.flashWrite !== false) installFlashWriteHook(pico);
    if (opts.pioTiming !== false) installPioClockSync(pico);
    if (opts.uartFix !== false) installUartTxIrqFix(pico);
    if (opts.spiTiming !== false) installSpiTiming(pico);
    if (opts.realtime) installRealtimePacing(pico, opts.realtime === true ? 1 : +opts.realtime);
    if (opts.hardReset !== false) mcu.peripherals[0x40058].onWatchdogTrigger = () => setTimeout(() => pico.hardReset(), 0);
  };

  boot((mcu) => {
    if (opts.firmware.endsWith('.uf2')) loadUF2(opts.firmware, mcu);
    else loadBin(opts.firmware, mcu);
    if (opts.fsImage) loadFlashImage(opts.fsImage, mcu);
  });
  return pico;
}

/**
 * rp2040js does not feed a pin's driven output or its pull-up/down back into GPIO_IN
 * (inputs read 0 unless JS calls setInputValue). This models the pad:
 *   output enabled -> input follows output;  else externally driven (pico.drive) -> that value;
 *   else pull-up -> 1, pull-down -> 0, else unchanged (floating).
 * pico.drive(pin, true|false) drives a pin from outside (e.g. a button to GND: drive(pin,false));
 * pico.drive(pin, null) releases it (pull resistor takes over again).
 */
function installPadModel(pico) {
  const { mcu } = pico;
  const ext = pico.ext;
  const level = new Array(30).fill(false);
  const update = (i) => {
    const pin = mcu.gpio[i];
    let v;
    if (pin.outputEnable) v = pin.outputValue;
    else if (ext[i] !== null) v = ext[i];
    else if (pin.pullupEnabled && !pin.pulldownEnabled) v = true;
    else if (pin.pulldownEnabled && !pin.pullupEnabled) v = false;
    else v = level[i]; // floating / bus keeper: keep
    if (v !== level[i]) {
      level[i] = v;
      pin.setInputValue(v);
    }
  };
  for (let i = 0; i < 30; i++) {
    mcu.gpio[i].addListener(() => update(i));
    if (ext[i] !== null) update(i);
  }
  pico.drive = (i, v) => {
    ext[i] = v;
    update(i);
  };
  pico.padLevel = (i) => level[i];
}

export { GPIOPinState };

/**
 * rp2040js does not emulate QSPI flash erase/program commands, so flash writes from
 * MicroPython (littlefs via rp2.Flash) are silently lost. Hook the bootrom entry points
 * flash_range_erase ('RE') and flash_range_program ('RP') and perform them on mcu.flash.
 * Each operation is atomic here (a real chip can also be cut half-way through one).
 * pico.flashOps counts them; pico.onFlashOp(kind, flashOffset, bytes), if set, sees each one.
 */
function installFlashWriteHook(pico) {
  const { mcu } = pico;
  const core = mcu.core;
  const rom = new DataView(mcu.bootrom.buffer);
  const lookup = (c1, c2) => {
    const code = c1.charCodeAt(0) | (c2.charCodeAt(0) << 8);
    let p = rom.getUint16(0x14, true);
    for (;;) {
      const c = rom.getUint16(p, true);
      if (c === 0) throw new Error('rom func not found ' + c1 + c2);
      if (c === code) return rom.getUint16(p + 2, true) & ~1;
      p += 4;
    }
  };
  const ERASE = lookup('R', 'E');
  const PROGRAM = lookup('R', 'P');
  const flash = mcu.flash;
  pico.flashOps = { erase: 0, program: 0 };
  const orig = core.executeInstruction.bind(core);
  core.executeInstruction = () => {
    const pc = core.PC;
    if (pc === ERASE || pc === PROGRAM) {
      const r = core.registers;
      if (pc === ERASE) {
        // void flash_range_erase(uint32_t addr, size_t count, uint32_t block_size, uint8_t block_cmd)
        flash.fill(0xff, r[0], r[0] + r[1]);
        pico.flashOps.erase++;
      } else {
        // void flash_range_program(uint32_t addr, const uint8_t *data, size_t count)
        const addr = r[0], data = r[1], count = r[2];
        for (let i = 0; i < count; i++) flash[addr + i] &= mcu.readUint8(data + i);
        pico.flashOps.program++;
      }
      core.PC = core.LR & ~1;
      // observers (e.g. a power-cut test that stops the chip right after the Nth write)
      if (pico.onFlashOp) pico.onFlashOp(pc === ERASE ? 'erase' : 'program', r[0], r[pc === ERASE ? 1 : 2]);
      return 100;
    }
    return orig();
  };
}

/** Save the MicroPython filesystem region of flash to a file (e.g. after mpremote cp). */
export function saveFlashImage(pico, filename) {
  fs.writeFileSync(
    filename,
    pico.mcu.flash.subarray(MICROPYTHON_FS_FLASH_START, MICROPYTHON_FS_FLASH_START + MICROPYTHON_FS_BLOCKSIZE * MICROPYTHON_FS_BLOCKCOUNT),
  );
}

/**
 * Stock rp2040js runs PIO in its own setTimeout loop, one instruction per step, unrelated to
 * simulated time, ignoring clock dividers and [delay] cycles, so PIO pin edges carry
 * meaningless timestamps. This drives every state machine from the simulation clock instead:
 * one instruction every (1 + delay) * clkdiv system cycles (125 MHz). A state machine that has
 * been stalled (FIFO empty, WAIT) for more than 64 cycles is polled only every
 * opts.idlePollNs (default 1 us) to keep the cost down; that adds up to 1 us of latency when it restarts.
 */
function installPioClockSync(pico, { idlePollNs = 1000 } = {}) {
  const { sim, mcu } = pico;
  const clock = sim.clock;
  const SYS_NS = 1e9 / 125e6;
  for (const pio of mcu.pio) {
    const alarm = clock.createAlarm(() => tick());
    let scheduled = false;
    const periodNs = (sm) => ((sm.clockDivInt || 65536) + sm.clockDivFrac / 256) * SYS_NS;
    const ensure = () => {
      const now = clock.nanos;
      let next = Infinity;
      for (const sm of pio.machines) {
        if (!sm.enabled) continue;
        if (sm._nextNs === undefined || sm._nextNs < now) sm._nextNs = now;
        next = Math.min(next, sm._nextNs);
      }
      if (next === Infinity) {
        if (scheduled) alarm.cancel();
        scheduled = false;
        return;
      }
      alarm.schedule(Math.max(0, next - now));
      scheduled = true;
    };
    const tick = () => {
      scheduled = false;
      const now = clock.nanos;
      let changed = false;
      for (const sm of pio.machines) {
        if (!sm.enabled) continue;
        // step (possibly several times if the alarm fired late) until caught up
        let guard = 0;
        while (sm._nextNs <= now && guard++ < 64) {
          const c0 = sm.cycles;
          sm.step();
          changed = true;
          const used = Math.max(1, sm.cycles - c0);
          if (sm.waiting) sm._stall = (sm._stall ?? 0) + 1;
          else sm._stall = 0;
          const p = periodNs(sm);
          sm._nextNs += sm._stall > 64 ? Math.max(p, idlePollNs) : used * p;
        }
        if (sm._nextNs <= now) sm._nextNs = now + periodNs(sm);
      }
      if (changed) pio.checkChangedPins();
      ensure();
    };
    pio.run = () => ensure();
    const origWrite = pio.writeUint32.bind(pio);
    pio.writeUint32 = (offset, value) => {
      origWrite(offset, value);
      if (offset === 0x000 /* CTRL */) ensure();
      // a FIFO write may un-stall a machine: poll soon
      if (offset >= 0x010 && offset < 0x020) {
        for (const sm of pio.machines) if (sm._stall > 64) { sm._stall = 0; sm._nextNs = clock.nanos; }
        ensure();
      }
    };
  }
}

/**
 * rp2040js re-asserts the UART TX interrupt on every interrupt check (even right after the
 * firmware clears it via UARTICR). MicroPython >= 1.2x services the TX interrupt and clears it
 * when idle, so UART(...) construction hangs in an endless IRQ storm. Model the PL011 more
 * closely: TXINTR is raised when a byte is written to DR (the emulated FIFO drains instantly) and stays
 * cleared after a write to ICR.
 */
function installUartTxIrqFix(pico) {
  const TXINTR = 1 << 5;
  for (const uart of pico.mcu.uart) {
    uart.checkInterrupts = function () {
      this.rp2040.setInterrupt(this.irq, !!(this.interruptStatus & this.interruptMask));
    };
    const origWrite = uart.writeUint32.bind(uart);
    uart.writeUint32 = (offset, value) => {
      origWrite(offset, value);
      if (offset === 0x0 /* UARTDR */) {
        uart.interruptStatus |= TXINTR;
        uart.checkInterrupts();
      }
    };
  }
}

/**
 * By default simulated time jumps ahead whenever the CPU idles (WFE/WFI), so sleeps cost no wall
 * time; but then device-side timeouts that wait for the host (e.g. mpremote mount's
 * 'timeout waiting for remote') also expire almost at once in wall time. With pacing, simulated time never runs
 * ahead of wall-clock time x speed (it still lags when the CPU is busy: the emulator is slower than a real chip).
 */
function installRealtimePacing(pico, speed = 1) {
  const { sim } = pico;
  const { rp2040, clock } = sim;
  const cycleNanos = 1e9 / 125e6;
  const wall0 = performance.now();
  const sim0 = clock.nanos;
  sim.execute = function () {
    this.executeTimer = null;
    this.stopped = false;
    const limit = sim0 + (performance.now() - wall0) * 1e6 * speed;
    let ahead = false;
    for (let i = 0; i < 1000000 && !this.stopped; i++) {
      if (clock.nanos >= limit) {
        ahead = true;
        break;
      }
      if (rp2040.core.waiting) {
        const dt = Math.min(clock.nanosToNextAlarm, limit - clock.nanos);
        clock.tick(dt);
        i += dt / cycleNanos;
      } else {
        const cycles = rp2040.core.executeInstruction();
        clock.tick(cycles * cycleNanos);
      }
    }
    if (!this.stopped) this.executeTimer = setTimeout(() => this.execute(), ahead ? 1 : 0);
  };
}

/**
 * A diode key matrix wired to GPIO, as on boards that scan rows (driven) and read columns
 * (inputs with pull-downs): while row pin R is driven high and key (r, c) is held, column pin C
 * reads high; otherwise the column is left to its pull resistor. (Diodes from rows to columns:
 * a row driven low or left as an input does not pull a column.)
 * With activeLow: rows are driven low to select and columns read low (pull-ups), the other
 * common wiring.
 *   const m = installKeyMatrix(pico, [2, 3, 4, 5], [6, 7, 8, 9]);
 *   m.set(r, c, true|false);  m.isDown(r, c);  m.clear()
 * Survives pico.hardReset() (listeners are registered with pico.onPin; key state is kept, like a
 * finger that stays on a key through a power cut).
 */
export function installKeyMatrix(pico, rows, cols, { activeLow = false } = {}) {
  const down = rows.map(() => cols.map(() => false));
  const selected = (r) => {
    const pin = pico.gpio(rows[r]);
    return pin.outputEnable && pin.outputValue === !activeLow;
  };
  const refresh = (c) => {
    let on = false;
    for (let r = 0; r < rows.length; r++) if (down[r][c] && selected(r)) on = true;
    const cur = pico.ext[cols[c]];
    const want = on ? !activeLow : null; // null: the pull resistor decides
    if (cur !== want) pico.drive(cols[c], want);
  };
  const refreshAll = () => cols.forEach((_, c) => refresh(c));
  for (const rp of rows) pico.onPin(rp, refreshAll);
  const m = {
    rows,
    cols,
    set(r, c, isDown) {
      if (!(r >= 0 && r < rows.length && c >= 0 && c < cols.length)) throw new Error(`no key ${r},${c}`);
      down[r][c] = !!isDown;
      refresh(c);
    },
    isDown: (r, c) => down[r][c],
    clear() {
      for (const row of down) row.fill(false);
      refreshAll();
    },
    /** key index (row-major, as firmware key maps count) -> [r, c] */
    rc: (k) => [Math.floor(k / cols.length), k % cols.length],
  };
  pico.matrix = m;
  return m;
}

/**
 * rp2040js's SPI finishes every byte the instant it enters the TX FIFO. MicroPython sends SPI
 * writes of 32 bytes or more by DMA (one channel feeding TX, one draining RX); with instant
 * bytes the TX channel, whose request never drops, outruns the RX one, the 8-entry RX FIFO
 * overflows and the RX channel waits forever: spi.write() hangs. Here a byte takes its real time
 * on the wire (data bits / SCK frequency), so the FIFOs and DMA requests behave as on the chip.
 * Devices registered with pico.onSpiByte(port, fn) see each byte and may answer one.
 */
function installSpiTiming(pico) {
  const { mcu, sim } = pico;
  mcu.spi.forEach((port, n) => {
    let pending = null;
    const alarm = sim.clock.createAlarm(() => {
      const v = pending;
      pending = null;
      let reply = 0;
      for (const dev of pico._spiDevices[n]) {
        const r = dev(v);
        if (r !== undefined && r !== null) reply = r;
      }
      port.completeTransmit(reply);
    });
    port.onTransmit = (v) => {
      pending = v;
      const hz = port.clockFrequency || 1e6;
      alarm.schedule((port.dataBits * 1e9) / hz);
    };
  });
}
