/* fleetref overlay: a compact strip for a streaming program's browser source.
   Query parameters: w, h (pixels, default 960 x 120), scale (default 1). */
"use strict";

(function () {
  const q = new URLSearchParams(location.search);
  const num = (k, d, lo, hi) => {
    const v = parseFloat(q.get(k));
    return isFinite(v) ? Math.min(hi, Math.max(lo, v)) : d;
  };
  const strip = document.getElementById("strip");
  strip.style.width = num("w", 960, 200, 4000) + "px";
  strip.style.height = num("h", 120, 40, 2000) + "px";
  strip.style.fontSize = (14 * num("scale", 1, 0.25, 8)) + "px";
})();

function drawOSide(st, side) {
  const box = document.getElementById("o-side-" + side);
  box.replaceChildren();
  const h = el("div", "oname", st.sides[side] + (st.initiative === side ? " \u2605" : ""));
  if (st.clock) {                       /* its time bank (docs/clock.md): drawOClocks */
    const c = el("span", "clock");
    c.id = "o-clock-" + side;
    h.appendChild(c);
  }
  box.appendChild(h);
  for (const s of st.ships) {
    if (s.side !== side) continue;
    const row = el("div", "oship status-" + s.status);
    row.dataset.i = s.i;
    row.appendChild(el("span", "n", s.name));
    row.appendChild(hpBar(s));
    if (s.counters && (!st.shows || st.shows.counters))
      row.appendChild(el("span", "cc", "\u25cf".repeat(s.counters)));
    box.appendChild(row);
  }
}

function drawOverlay(live) {
  const st = live.state;
  if (!st || st.seq === null || st.seq === undefined || !st.ships) return;
  document.getElementById("o-round").textContent = st.round;
  document.getElementById("o-phase").textContent = st.phase;
  document.getElementById("o-init").textContent =
      (st.rolls[0] ? "rolls " + st.rolls[0] + ":" + st.rolls[1] + " \u00b7 " : "") +
      "initiative " + sideName(st, st.initiative);
  const w = document.getElementById("o-winner");
  w.hidden = st.winner === null || st.winner === undefined;
  /* the verb agrees with the side's name, decided by the host (referee/texts.py) */
  w.textContent = w.hidden ? "" : st.sides[st.winner] +
      (st.side_plural && st.side_plural[st.winner] ? " win" : " wins");
  document.getElementById("o-hash").textContent = st.state_hash;
  drawOSide(st, 0);
  drawOSide(st, 1);
  drawOClocks(live);
}

/* each side's clock beside its name, counting down between updates (amber under 5 minutes,
   red under 1 and once run out, with the words), and "clocks paused" in the middle */
function drawOClocks(live) {
  const st = live.state;
  const sides = st && st.ships ? clockSides(st, live.received) : null;
  document.getElementById("o-paused").hidden = !(sides && st.clock.paused);
  if (!sides) return;
  for (const s of [0, 1]) {
    const e = document.getElementById("o-clock-" + s);
    if (e) drawClock(e, st, sides[s], s);
  }
}

window.fleetLive = new FleetLive(drawOverlay);
setInterval(() => drawOClocks(window.fleetLive), 1000);
