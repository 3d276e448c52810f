// The chip models the emulated Pico attaches, picked by the driver name a board profile gives
// (input.driver, display.driver): the names of the firmware's driver registry
// (firmware/drivers/__init__.py, DRIVERS; tests/drivers/test_registry.py keeps the two equal).
//
// An input model is (pico, section) -> setKey(key, down); a display model is
// (pico, section, board, out) and reports each frame it decodes with out({ev, ...}). A model
// only answers when the firmware has muxed the profile's pins to the right peripheral (I2C on
// sda/scl, SPI on sck/mosi), so a driver that ignores the profile's pins fails here as on a
// real board.
import { installKeyMatrix } from './pico.mjs';
import { attachWS2812 } from './ws2812.mjs';
import { installTCA9555, attachAPA102 } from './keypad.mjs';

const FUNC_SPI = 1, FUNC_I2C = 3;
const hex = (arr) => Buffer.from(arr.flat()).toString('hex');
const muxed = (pico, pins, fn) => pins.every((p) => pico.gpio(p).functionSelect === fn);

export const INPUTS = {
  // a diode key matrix: rows driven, columns read
  matrix: (pico, inp) => {
    const m = installKeyMatrix(pico, inp.rows, inp.cols);
    return (k, down) => { const [r, c] = m.rc(k); m.set(r, c, down); };
  },
  // the keypad base's TCA9555: it only answers when the firmware drives I2C on the
  // profile's SDA/SCL pins
  tca9555: (pico, inp) => {
    const pad = installTCA9555(pico, { i2c: inp.i2c ?? 0, addr: inp.addr ?? 0x20 });
    pico.eachChip((mcu) => {
      const bus = mcu.i2c[inp.i2c ?? 0];
      const onConnect = bus.onConnect;
      bus.onConnect = (a, mode) => {
        if (!muxed(pico, [inp.sda, inp.scl], FUNC_I2C)) {
          pad.stats.naks++;
          bus.completeConnect(false);
          return;
        }
        onConnect(a, mode);
      };
    });
    return (k, down) => pad.set(k, down);
  },
};

export const DISPLAYS = {
  // a WS2812 chain on the data pin
  ws2812: (pico, disp, board, out) => {
    attachWS2812(pico, disp.pin, (px, t, info) => out({ ev: 'ws2812', t, start: info.start, n: px.length, extra: info.extraBits, hex: hex(px) }));
  },
  // the keypad base's APA102 chain on SPI, one LED per grid cell
  apa102: (pico, disp, board, out) => {
    const n = board.grid.w * board.grid.h;
    attachAPA102(pico, { spi: disp.spi ?? 0, cs: disp.cs, n }, (leds, t, info) => {
      if (!muxed(pico, [disp.sck, disp.mosi], FUNC_SPI)) return; // the bytes never reached the LEDs
      out({ ev: 'apa102', t, n: leds.length, bytes: info.bytes, hex: hex(leds) });
    });
  },
};

// Network chips: rp2040js has no model of the Pico W's CYW43439, so a board with a network
// section boots with no chip behind the Wi-Fi's pins; the driver finds none answering and the
// board referees with its network off (firmware/drivers/wlan.py). Nothing is attached.
export const NETWORKS = {
  wlan: () => null,
};
