/* fleetref organiser's dashboard: one card per table from /api/tables, polled every second;
   el(), sideName() and clockText() are the spectator page's (common.js). The warnings are
   the server's sentences (host_tools/tournament/tables.py): disagreeing hashes, silence, a publisher
   offline and since when, malformed messages ignored with the count and the last reason. */
"use strict";

function strengthText(c, side) {
  const s = c.strength[side];          /* [hp left, hp total, ships left, ships] */
  return c.sides[side] + " " + s[0] + "/" + s[1] + " hp, " + s[2] + "/" + s[3] + " ships";
}

function agoText(c) {
  if (c.idle_s === null || c.idle_s === undefined) return "no activity yet";
  return "last activity " + Math.round(c.idle_s) + " s ago";
}

function drawCard(c) {
  const card = el("article", "card");
  card.id = "table-" + c.table;
  card.dataset.table = c.table;
  card.dataset.hash = c.state_hash || "";
  card.dataset.seq = c.seq === null ? "" : c.seq;
  if (c.warnings.length) card.classList.add("warn");
  if (c.winner !== null && c.winner !== undefined) card.classList.add("done");
  card.dataset.malformed = c.malformed || 0;
  card.appendChild(el("h2", "", c.table));
  if (!c.strength) {
    card.appendChild(el("div", "row", "waiting for this table's state"));
    for (const w of c.warnings) card.appendChild(el("div", "row warning", w));
    return card;
  }
  card.appendChild(el("div", "scn", c.scenario + " (" + c.ruleset + ")"));
  card.appendChild(el("div", "row", "round " + c.round + " · " + c.phase + " phase · " +
                      "initiative: " + sideName(c, c.initiative)));
  for (const side of [0, 1]) card.appendChild(el("div", "row strength", strengthText(c, side)));
  const ck = clockText(c);
  if (ck) card.appendChild(el("div", "row clock", "clocks " + ck));
  if (c.winner !== null && c.winner !== undefined) {
    card.appendChild(el("div", "row winner", "Winner: " + c.sides[c.winner]));
  }
  for (const w of c.warnings) card.appendChild(el("div", "row warning", w));
  card.appendChild(el("div", "meta", agoText(c) + " · seq " + c.seq + " · hash ")).
    appendChild(el("code", "hash", c.state_hash));
  const ol = el("ol", "recent");
  for (const t of c.recent.slice(-3)) ol.appendChild(el("li", "", t));
  card.appendChild(ol);
  return card;
}

function drawResults(cards) {
  const body = document.querySelector("#results tbody");
  body.replaceChildren();
  for (const c of cards) {
    if (!c.strength) continue;
    const tr = el("tr");
    tr.dataset.table = c.table;
    for (const v of [c.table, c.scenario, c.sides.join(" v "),
                     c.winner === null ? "" : c.sides[c.winner], c.round,
                     c.strength[0][0] + " / " + c.strength[1][0], c.seq, c.state_hash]) {
      tr.appendChild(el("td", "", v));
    }
    body.appendChild(tr);
  }
}

function drawAll(v) {
  document.getElementById("event").textContent = v.event;
  document.getElementById("count").textContent = v.tables.length;
  const box = document.getElementById("cards");
  box.replaceChildren(...v.tables.map(drawCard));
  const done = v.tables.filter(c => c.winner !== null && c.winner !== undefined).length;
  document.getElementById("finished").textContent = done;
  document.getElementById("in-play").textContent = v.tables.filter(c => c.strength).length - done;
  document.getElementById("warned").textContent = v.tables.filter(c => c.warnings.length).length;
  const link = document.getElementById("link");
  link.textContent = v.broker.connected ? "broker " + v.broker.broker :
                     "broker link lost: reconnecting";
  link.className = v.broker.connected ? "ok" : "down";
  drawResults(v.tables);
}

async function poll() {
  try {
    const res = await fetch("/api/tables", {cache: "no-store"});
    drawAll(await res.json());
  } catch (e) {
    const link = document.getElementById("link");
    link.textContent = "dashboard offline: retrying...";
    link.className = "down";
  }
  setTimeout(poll, 1000);
}

poll();
