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
    st.sides[s] + " " + Math.floor(ck.left[s] / 60) + ":" + String(ck.left[s] % 60)
      .padStart(2, "0") + (ck.expired[s] ? " OUT OF TIME" : ck.running === s ? " (running)" :
      "")).join(", ");
}
