/* fleetref live connection: the page's copy of the game, kept up to date from /api/stream
   (Server-Sent Events) and caught up through /api/events?since=N after any reconnect. */
"use strict";

function FleetLive(onChange) {
  this.gid = null;
  this.lastSeq = 0;
  this.state = null;
  this.events = [];          /* event records, oldest first */
  this.online = false;
  this.onChange = onChange;
  this.connect();
}

FleetLive.prototype.merge = function (gid, recs) {
  if (gid !== this.gid) {      /* another game: start the log again */
    this.gid = gid;
    this.events = [];
    this.lastSeq = 0;
  }
  for (const r of recs) {
    if (r.seq <= this.lastSeq) {        /* an undo that replaced what we held, or a repeat */
      this.events = this.events.filter(e => e.seq < r.seq);
    }
    this.events.push(r);
    this.lastSeq = r.seq;
  }
  if (this.events.length > 2000) this.events = this.events.slice(-2000);
};

FleetLive.prototype.catchUp = async function () {
  try {
    const since = this.lastSeq;
    const res = await fetch("/api/events?since=" + since, {cache: "no-store"});
    const body = await res.json();
    if (body.gid !== this.gid) {
      const all = await (await fetch("/api/events?since=0", {cache: "no-store"})).json();
      this.merge(all.gid, all.events);
    } else {
      this.merge(body.gid, body.events.filter(e => e.seq > this.lastSeq));
    }
    this.state = await (await fetch("/api/state", {cache: "no-store"})).json();
    this.received = Date.now();           /* the clocks count down from here (clockSides) */
    this.onChange(this);
  } catch (e) { /* the server is away: the stream's retry brings us back */ }
};

FleetLive.prototype.connect = function () {
  const es = new EventSource("/api/stream?since=" + this.lastSeq);
  this.es = es;
  es.addEventListener("open", () => { this.online = true; this.catchUp(); });
  es.addEventListener("error", () => { this.online = false; this.onChange(this); });
  es.addEventListener("update", (msg) => {
    const d = JSON.parse(msg.data);
    this.online = true;
    const gap = d.gid === this.gid && d.events.length && d.events[0].seq > this.lastSeq + 1;
    this.merge(d.gid, d.events);
    this.state = d.state;
    this.received = Date.now();
    this.onChange(this);
    if (gap) this.catchUp();
  });
};

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}

/* hit point bar of ship s: damage red, pending amber, remaining X bright, Y dim */
function hpBar(s) {
  const bar = el("span", "bar");
  const x = s.hp[0], total = s.hp[0] + s.hp[1];
  for (let k = 0; k < total; k++) {
    let c = "hp-y";
    if (k < s.damage) c = "hp-dmg";
    else if (k < s.damage + s.pending) c = "hp-pend";
    else if (k < x) c = "hp-x";
    bar.appendChild(el("span", "seg " + c));
  }
  bar.title = "damage " + s.damage + " of " + total + (s.pending ? ", pending " + s.pending : "");
  return bar;
}

function sideName(st, i) {
  return (i === null || i === undefined) ? "undecided" : st.sides[i];
}

/* the time banks of snapshot st (docs/clock.md) as text, "" for a game without them */
function clockText(st) {
  const ck = st.clock;
  if (!ck) return "";
  return [0, 1].map((s) =>
    st.sides[s] + " " + mmss(ck.left[s]) + (ck.expired[s] ? " OUT OF TIME" :
      ck.running === s ? " (running)" : "")).join(", ") + (ck.paused ? " (paused)" : "");
}

function mmss(sec) {
  return Math.floor(sec / 60) + ":" + String(sec % 60).padStart(2, "0");
}

/* the time banks of snapshot st as they are now: per side {sec, level, note, runs}, or null
   for a game without them. The running side's seconds count down from the snapshot's `live`
   (the seconds left when the host sent it; `received`: Date.now() then). level: "warn"
   under warn_s seconds (5 minutes), "last" under last_s (1 minute), "out" once it ran out. */
function clockSides(st, received) {
  const ck = st && st.clock;
  if (!ck) return null;
  const base = ck.live || ck.left;
  const warn = ck.warn_s || 300, last = ck.last_s || 60;
  const gone = received ? Math.floor((Date.now() - received) / 1000) : 0;
  return [0, 1].map((s) => {
    const runs = ck.running === s && !ck.paused && !ck.expired[s];
    const sec = Math.max(0, base[s] - (runs ? gone : 0));
    let level = "", note = "";
    if (ck.expired[s]) { level = "out"; note = "out of time"; }
    else if (sec < last) { level = "last"; note = "last minute"; }
    else if (sec < warn) { level = "warn"; note = "under " + Math.round(warn / 60) + " minutes"; }
    return {sec: sec, level: level, note: note, runs: runs};
  });
}

/* a clock's element e for side s: "<side> m:ss <note>", classes clock, its level, running,
   paused */
function drawClock(e, st, c, s) {
  e.className = "clock" + (c.level ? " " + c.level : "") + (c.runs ? " running" : "") +
      (st.clock.paused ? " paused" : "");
  e.dataset.level = c.level || "ok";
  e.replaceChildren(el("span", "who", st.sides[s]), el("b", "time", mmss(c.sec)));
  if (c.note) e.appendChild(el("span", "note", c.note));
}
