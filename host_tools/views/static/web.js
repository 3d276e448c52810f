/* fleetref spectator page: draws the state and the event log kept by FleetLive. */
"use strict";

function drawSide(st, side) {
  const box = document.getElementById("side-" + side);
  box.replaceChildren();
  const h = el("h2", "side-name", st.sides[side]);
  if (st.initiative === side) h.appendChild(el("span", "tag init", "initiative"));
  if (st.moves_first === side) h.appendChild(el("span", "tag first", "moves first"));
  box.appendChild(h);
  const tab = el("table", "ships");
  for (const s of st.ships) {
    if (s.side !== side) continue;
    const tr = el("tr", "ship status-" + s.status + (s.launched ? "" : " aboard"));
    tr.dataset.i = s.i;
    tr.dataset.status = s.status;
    tr.appendChild(el("td", "name", s.name));
    /* class and counters only where the ruleset uses them (referee/texts.py shows) */
    if (!st.shows || st.shows["class"]) tr.appendChild(el("td", "cls", "class " + s["class"]));
    const td = el("td", "hp");
    td.appendChild(hpBar(s));
    td.appendChild(el("span", "hp-num", s.damage + "/" + (s.hp[0] + s.hp[1])));
    tr.appendChild(td);
    if (!st.shows || st.shows.counters)
      tr.appendChild(el("td", "cc", s.counters ? "\u25cf".repeat(s.counters) : ""));
    const notes = [s.state || s.status];    /* in words, as every view (referee/texts.py) */
    if (!s.launched && !s.state) notes.push("aboard");
    if (s.full_power) notes.push("full power");
    if (st.active === s.i) notes.push("firing");
    tr.appendChild(el("td", "state", notes.join(", ")));
    tab.appendChild(tr);
  }
  box.appendChild(tab);
}

function drawChart(st) {
  const box = document.getElementById("chart");
  box.replaceChildren();
  if (!st.chart || !st.chart[0] || !st.chart[0].length) {
    box.textContent = "(this ruleset has no fleet command chart)";
    return;
  }
  const tab = el("table", "chart");
  const head = el("tr");
  head.appendChild(el("th", "", ""));
  for (const opt of st.chart[0]) head.appendChild(el("th", "", opt[0]));
  tab.appendChild(head);
  for (let side = 0; side < 2; side++) {
    const tr = el("tr");
    tr.appendChild(el("th", "", st.sides[side]));
    for (const opt of st.chart[side]) {
      tr.appendChild(el("td", opt[1] === null ? "free" : "held",
                        opt[1] === null ? "\u2013" : st.ships[opt[1]].name));
    }
    tab.appendChild(tr);
  }
  box.appendChild(tab);
}

function draw(live) {
  const st = live.state;
  const link = document.getElementById("link");
  const connected = live.online && st && st.link && st.link.connected;
  link.textContent = !live.online ? "page offline: reconnecting..." :
                     (st && st.link ? st.link.note : "");
  link.className = connected ? "ok" : "down";
  if (!st || st.seq === null || st.seq === undefined || !st.ships) return;
  document.getElementById("scenario").textContent = st.scenario + " (" + st.ruleset + ")";
  /* a decided game stays at the round it was decided in: the next was never played */
  const over = st.winner !== null && st.winner !== undefined;
  const dec = over ? st.decided : null;
  document.getElementById("round").textContent = dec ? dec.round : st.round;
  document.getElementById("phase").textContent = over ? "game over" : st.phase;
  document.getElementById("initiative").textContent = over ? "-" :
      sideName(st, st.initiative);
  document.getElementById("moves-first").textContent = over ? "-" :
      sideName(st, st.moves_first);
  document.getElementById("rolls").textContent = st.rolls[0] ?
      st.sides[0] + " " + st.rolls[0] + ", " + st.sides[1] + " " + st.rolls[1] +
      " (" + st.roll_source + " dice)" : "none yet";
  const w = document.getElementById("winner");
  w.hidden = st.winner === null || st.winner === undefined;
  w.textContent = w.hidden ? "" : "Winner: " + st.sides[st.winner] +
      (dec ? " \u2014 " + dec.text : "");
  drawSide(st, 0);
  drawSide(st, 1);
  drawChart(st);
  const hist = document.getElementById("history");
  hist.replaceChildren();
  for (const r of (st.initiative_history || [])) {
    hist.appendChild(el("li", "", "round " + r[0] + ": " + st.sides[0] + " " + r[1] + ", " +
                        st.sides[1] + " " + r[2]));
  }
  document.getElementById("seq").textContent = st.seq;
  document.getElementById("state-hash").textContent = st.state_hash;
  const agree = document.getElementById("agree");
  if (st.board_hash === undefined) agree.textContent = "";
  else if (st.hash_match) { agree.textContent = "board agrees"; agree.className = "ok"; }
  else { agree.textContent = "board hash " + st.board_hash + " differs!"; agree.className = "down"; }
  drawClocks(live);                         // time banks (docs/clock.md)
  const dv = st.dice || {};                 // committed board dice (docs/dice.md)
  document.getElementById("dice").textContent = dv.commit ? " · dice commit " +
    dv.commit.slice(0, 16) + "… (epoch " + dv.epoch + ")" + (dv.bad && dv.bad.length ?
    ", " + dv.bad.length + (dv.bad.length === 1 ? " DICE MISMATCH" : " DICE MISMATCHES") : dv.verified !== null ? ", " + dv.verified +
    (dv.verified === 1 ? " roll verified" : " rolls verified") : "") +
    (dv.unchecked ? ", " + dv.unchecked + " CANNOT BE CHECKED" : "") :
    "";
  const log = document.getElementById("log");
  log.replaceChildren();
  const undone = new Set(live.events.filter(e => e.undone != null).map(e => e.undone));
  for (let k = live.events.length - 1; k >= 0 && k >= live.events.length - 200; k--) {
    const r = live.events[k];
    const li = el("li", undone.has(r.seq) ? "ev undone" : "ev");  /* taken back: struck */
    li.value = r.seq;
    li.dataset.seq = r.seq;
    if (r.round !== null) li.appendChild(el("span", "where", "R" + r.round + " " + r.phase));
    li.appendChild(el("span", "text", r.text));
    log.appendChild(li);
  }
}

/* the time banks (docs/clock.md) under the header, counting down between updates: amber
   under 5 minutes, red under 1 and once run out, each with its words; "clocks paused" */
function drawClocks(live) {
  const st = live.state;
  const box = document.getElementById("clocks-box");
  const sides = st && st.ships ? clockSides(st, live.received) : null;
  box.hidden = !sides;
  if (!sides) return;
  for (const s of [0, 1]) drawClock(document.getElementById("clock-" + s), st, sides[s], s);
  document.getElementById("clock-paused").hidden = !st.clock.paused;
}

window.fleetLive = new FleetLive(draw);
setInterval(() => drawClocks(window.fleetLive), 1000);
