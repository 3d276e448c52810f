"""The spectator page's one file, as constant bytes: frozen into the Pico W's image, its bytes
stay in flash and cost no RAM (on the unix port, which compiles from source, they are on the
heap). The CSS and the script are inline, so a phone loads the page in one request.

The script polls ``/api/state`` every ``POLL_MS`` (2 s) and draws what the host's spectator
page draws from the same fields (host_tools/views/static/web.js): the scenario, the round,
the phase, the initiative, the last rolls, the winner and each side's ships with their hit
points. Its element ids are the host page's (``round``, ``phase``, ``seq``, ``state-hash``,
``side-0``...; ship rows ``tr.ship`` with ``data-status``), so the same checks read both.
"""

INDEX = b"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>fleetref</title>
<style>
body{font:15px sans-serif;margin:8px;background:#111;color:#eee}
h1{font-size:18px;margin:4px 0}h2{font-size:16px;margin:8px 0 4px}
#status span{margin-right:10px}#winner{color:#fc3;font-weight:bold}
table{border-collapse:collapse;width:100%}td{padding:2px 4px}
.status-destroyed td,.status-gone td{color:#777;text-decoration:line-through}
.bar{display:inline-block;height:10px;background:#444;width:80px;margin-right:4px}
.bar i{display:block;height:10px;background:#3c6}
#foot{color:#888;font-size:12px;margin-top:8px}.down{color:#f66}
</style></head><body>
<h1 id="scenario">waiting for the board...</h1>
<div id="status"><span>round <b id="round">-</b></span><span>phase <b id="phase">-</b></span>
<span>initiative <b id="initiative">-</b></span><span>last rolls <b id="rolls">-</b></span></div>
<div id="winner" hidden></div>
<section id="side-0"></section><section id="side-1"></section>
<div id="foot"><span id="link">connecting...</span> seq <b id="seq">-</b>
state hash <code id="state-hash">-</code></div>
<script>
"use strict";
var POLL_MS=2000;
function $(i){return document.getElementById(i)}
function el(t,c,x){var e=document.createElement(t);if(c)e.className=c;
if(x!==undefined&&x!==null)e.textContent=String(x);return e}
function side(st,i){return i===null||i===undefined?"undecided":st.sides[i]}
function drawSide(st,s){var box=$("side-"+s);box.replaceChildren();
var h=el("h2","",st.sides[s]);if(st.initiative===s)h.appendChild(el("span",""," (initiative)"));
box.appendChild(h);var tab=el("table");
st.ships.forEach(function(p){if(p.side!==s)return;
var tr=el("tr","ship status-"+p.status);tr.dataset.status=p.status;tr.dataset.i=p.i;
tr.appendChild(el("td","name",p.name));var total=p.hp[0]+p.hp[1],td=el("td","hp"),
bar=el("span","bar"),fill=el("i");fill.style.width=(total?100*(total-p.damage)/total:0)+"%";
bar.appendChild(fill);td.appendChild(bar);td.appendChild(el("span","hp-num",p.damage+"/"+total));
tr.appendChild(td);tr.appendChild(el("td","state",p.status));tab.appendChild(tr)});
box.appendChild(tab)}
function draw(st){if(st.seq===null||!st.ships)return;
$("scenario").textContent=st.scenario+" ("+st.ruleset+")";
var over=st.winner!==null&&st.winner!==undefined;
$("round").textContent=st.round;$("phase").textContent=over?"game over":st.phase;
$("initiative").textContent=over?"-":side(st,st.initiative);
$("rolls").textContent=st.rolls[0]?st.sides[0]+" "+st.rolls[0]+", "+st.sides[1]+" "+
st.rolls[1]+" ("+st.roll_source+" dice)":"none yet";
$("winner").hidden=!over;$("winner").textContent=over?"Winner: "+st.sides[st.winner]:"";
drawSide(st,0);drawSide(st,1);$("seq").textContent=st.seq;
$("state-hash").textContent=st.state_hash}
function poll(){fetch("/api/state",{cache:"no-store"}).then(function(r){return r.json()})
.then(function(st){$("link").textContent="live";$("link").className="";draw(st)})
.catch(function(){$("link").textContent="board away: retrying...";$("link").className="down"})
.finally(function(){setTimeout(poll,POLL_MS)})}
poll();
</script></body></html>
"""
