// The pit sign: the linked pool from the server's event stream, counting up to each new amount; the
// top awards waiting to be paid (JACKPOT PENDING); the last hits. It computes nothing of its own.
"use strict";
const params = new URLSearchParams(location.search);
const link = params.get("link");
// Chinese first unless ?lang=en (the sign's own setting; the English is always beside it); the words are
// words.js's, the simulator's pages' own
const LANG = params.get("lang") === "en" ? "en" : "zh-Hant";
if (LANG === "en") document.getElementById("titles").classList.add("en-first");
const amountEl = document.getElementById("amount");
let shown = null, target = null, timer = null;

function money(cents) {
  const s = String(Math.floor(cents / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return "$" + s + "." + String(cents % 100).padStart(2, "0");
}

function draw(cents) {
  shown = cents;
  amountEl.textContent = money(cents);
  amountEl.dataset.cents = String(cents);
}

function countTo(cents) {
  // up in steps, as the tables' digits do; a fall (a hit paid from the pool) is shown at once
  target = cents;
  if (shown === null || cents < shown) { draw(cents); return; }
  if (timer) return;
  timer = setInterval(() => {
    const step = Math.floor((target - shown) / 6);
    draw(step > 0 ? shown + step : target);
    if (shown === target) { clearInterval(timer); timer = null; }
  }, 40);
}

function show(view) {
  document.getElementById("title").textContent = view.game.replace(/_/g, " ") + " progressive";
  const tail = /^baccarat_(\w)$/.exec(view.game);
  document.getElementById("title-zh").textContent = (ZH[GAME_NAMES[view.game]] || "") +
    (tail ? " " + tail[1].toUpperCase() : "") + " 累積獎金";
  document.body.dataset.ver = String(view.ver);
  document.body.dataset.target = String(view.pool);
  countTo(view.pool);
  const p = document.getElementById("pending");
  p.textContent = view.pending.length
    ? "JACKPOT PENDING: " + view.pending.map(x => "table " + x.table + " seat " + x.seat + " " + money(x.cents)).join(", ")
    : "";
  document.getElementById("pending-zh").textContent = view.pending.length
    ? "頭獎待派:" + view.pending.map(x => "檯 " + x.table + " 座位 " + x.seat).join("、") : "";
  const rows = view.last_hits.map(h => {
    const when = new Date(h[0]).toLocaleTimeString();
    const en = "table " + h[1] + " seat " + h[2], zh = "檯 " + h[1] + " 座位 " + h[2];
    return "<tr><td>" + when + "</td><td>" + esc(LANG === "en" ? en + " · " + zh : zh + " · " + en) + "</td><td>" +
      esc(className(h[3], LANG)) + "</td><td class=\"cents\">" + money(h[4]) + "</td></tr>";
  });
  document.getElementById("hits").innerHTML = rows.join("");
}

function connect() {
  const es = new EventSource("/events" + (link ? "?link=" + encodeURIComponent(link) : ""));
  const conn = document.getElementById("conn");
  es.onopen = () => { conn.textContent = both("live", LANG); conn.className = "tag on"; };
  es.onmessage = (e) => show(JSON.parse(e.data));
  es.onerror = () => { conn.textContent = both("reconnecting…", LANG); conn.className = "tag off"; };
}
connect();
