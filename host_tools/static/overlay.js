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
  box.appendChild(h);
  for (const s of st.ships) {
    if (s.side !== side) continue;
    const row = el("div", "oship status-" + s.status);
    row.dataset.i = s.i;
    row.appendChild(el("span", "n", s.name));
    row.appendChild(hpBar(s));
    if (s.counters) row.appendChild(el("span", "cc", "\u25cf".repeat(s.counters)));
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
  w.textContent = w.hidden ? "" : st.sides[st.winner] + " wins";
  document.getElementById("o-hash").textContent = st.state_hash;
  drawOSide(st, 0);
  drawOSide(st, 1);
}

window.fleetLive = new FleetLive(drawOverlay);
