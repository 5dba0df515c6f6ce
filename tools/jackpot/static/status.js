// The status page: /status drawn as tables, once a second. Every figure is the ledger's.
"use strict";
function money(c) { return (c < 0 ? "-" : "") + Math.floor(Math.abs(c) / 100) + "." + String(Math.abs(c) % 100).padStart(2, "0"); }
function esc(s) { return String(s).replace(/[&<>"]/g, ch => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;"}[ch])); }
function ago(t) { return t ? Math.max(0, (Date.now() / 1000 - t)).toFixed(1) + " s ago" : "never"; }

function draw(st) {
  const s = st.server;
  document.getElementById("server").textContent = (s.connected ? "broker connected" : "broker NOT connected") +
    ", messages " + s.messages + ", duplicates absorbed " + s.duplicates + ", refused " + s.refused +
    Object.keys(s.sessions || {}).map(t => "; TWO SESSIONS use table id " + t).join("");
  let html = "";
  for (const [id, l] of Object.entries(st.links)) {
    html += "<h2>link " + esc(id) + " <span class=\"dim\">" + esc(l.game) + "</span> <a class=\"dim\" href=\"/sign?link=" +
      encodeURIComponent(id) + "\">sign</a></h2>";
    html += "<table class=\"meters\"><tr><th>pool</th><th>reserve</th><th>contributed</th><th>paid</th><th>seeded</th>" +
      "<th>balance</th><th>pending</th></tr><tr><td>" + money(l.pool) + "</td><td>" + money(l.reserve) + "</td><td>" +
      money(l.contributed) + "</td><td>" + money(l.paid) + "</td><td>" + money(l.seeded) + "</td><td" +
      (l.balance_off ? " class=\"bad\">" + money(l.balance_off) + " off" : ">0 off") + "</td><td>" +
      (l.pending.length ? esc(l.pending.map(p => p.table + " seat " + p.seat).join(", ")) : "-") + "</td></tr></table>";
    html += "<table class=\"meters\"><tr><th>table</th><th>bets</th><th>contributed</th><th>hits</th><th>awarded</th>" +
      "<th>messages</th><th>duplicates</th><th>refused</th><th>last message</th></tr>";
    for (const [t, m] of Object.entries(l.tables)) {
      html += "<tr><td>" + esc(t) + "</td><td>" + m.bets + "</td><td>" + money(m.contributed) + "</td><td>" + m.hits +
        "</td><td>" + money(m.awarded) + "</td><td>" + m.messages + "</td><td>" + m.duplicates + "</td><td>" + m.refused +
        "</td><td>" + ago(m.last_at) + "</td></tr>";
    }
    html += "</table>";
  }
  document.getElementById("links").innerHTML = html;
}

async function poll() {
  const conn = document.getElementById("conn");
  try {
    const r = await fetch("/status");
    draw(await r.json());
    conn.textContent = "live"; conn.className = "tag on";
  } catch (e) {
    conn.textContent = "server unreachable"; conn.className = "tag off";
  }
  setTimeout(poll, 1000);
}
poll();
