// The status page: /status drawn as tables, once a second. Every figure is the ledger's. Its words in
// Traditional Chinese beside the English, Chinese first unless ?lang=en (the sign's setting).
"use strict";
const LANG = new URLSearchParams(location.search).get("lang") === "en" ? "en" : "zh-Hant";
Object.assign(ZH, {  // words.js's list, with the status page's own
  "jackpot server": "累積獎金伺服器", "loading…": "載入中…", "server unreachable": "伺服器無法連接",
  "broker connected": "訊息伺服器已連接", "broker NOT connected": "訊息伺服器未連接", "messages": "訊息",
  "duplicates absorbed": "重複已略過", "refused": "已拒絕", "TWO SESSIONS use table id": "兩個連線使用同一檯號",
  "link": "連線", "sign": "彩池顯示牌", "reserve": "儲備", "contributed": "供款", "paid": "已派",
  "seeded": "起始金額", "balance": "結餘核對", "pending": "待派頭獎", "table": "檯", "bets": "投注",
  "hits": "中獎", "awarded": "派彩", "duplicates": "重複", "last message": "最後訊息", "off": "差額",
  "seat": "座位", "s ago": "秒前", "never": "從未",
});
const say = (en) => both(en, LANG);
function money(c) { return (c < 0 ? "-" : "") + Math.floor(Math.abs(c) / 100) + "." + String(Math.abs(c) % 100).padStart(2, "0"); }
function ago(t) { return t ? Math.max(0, (Date.now() / 1000 - t)).toFixed(1) + " " + say("s ago") : say("never"); }
function heads(names) { return "<tr>" + names.map(n => "<th>" + esc(say(n)) + "</th>").join("") + "</tr>"; }

function draw(st) {
  const s = st.server;
  document.getElementById("server").textContent = say(s.connected ? "broker connected" : "broker NOT connected") +
    ", " + say("messages") + " " + s.messages + ", " + say("duplicates absorbed") + " " + s.duplicates + ", " +
    say("refused") + " " + s.refused +
    Object.keys(s.sessions || {}).map(t => "; " + say("TWO SESSIONS use table id") + " " + t).join("");
  let html = "";
  for (const [id, l] of Object.entries(st.links)) {
    html += "<h2>" + esc(say("link")) + " " + esc(id) + " <span class=\"dim\">" + esc(gameName(l.game, LANG)) + "</span> <a class=\"dim\" href=\"/sign?link=" +
      encodeURIComponent(id) + (LANG === "en" ? "&lang=en" : "") + "\">" + esc(say("sign")) + "</a></h2>";
    const off = l.balance_off ? money(l.balance_off) : "0";
    html += "<table class=\"meters\">" + heads(["pool", "reserve", "contributed", "paid", "seeded", "balance", "pending"]) +
      "<tr><td>" + money(l.pool) + "</td><td>" + money(l.reserve) + "</td><td>" +
      money(l.contributed) + "</td><td>" + money(l.paid) + "</td><td>" + money(l.seeded) + "</td><td" +
      (l.balance_off ? " class=\"bad\"" : "") + " data-off=\"" + (l.balance_off || 0) + "\">" + esc(off + " " + say("off")) + "</td><td>" +
      (l.pending.length ? esc(l.pending.map(p => p.table + " " + say("seat") + " " + p.seat).join(", ")) : "-") + "</td></tr></table>";
    html += "<table class=\"meters\">" + heads(["table", "bets", "contributed", "hits", "awarded", "messages", "duplicates",
      "refused", "last message"]);
    for (const [t, m] of Object.entries(l.tables)) {
      html += "<tr><td>" + esc(t) + "</td><td>" + m.bets + "</td><td>" + money(m.contributed) + "</td><td>" + m.hits +
        "</td><td>" + money(m.awarded) + "</td><td>" + m.messages + "</td><td>" + m.duplicates + "</td><td>" + m.refused +
        "</td><td>" + esc(ago(m.last_at)) + "</td></tr>";
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
    conn.textContent = say("live"); conn.className = "tag on";
  } catch (e) {
    conn.textContent = say("server unreachable"); conn.className = "tag off";
  }
  setTimeout(poll, 1000);
}
translate(LANG);
poll();
