// The players' results board: the last 20 results the controller keeps (its own history list, as the
// board's status reports it), drawn for the players in Chinese and English. It computes only what a
// player reads off the dice (total, big/small, odd/even, a triple): the results are the controller's.
"use strict";

const DIE = ["", "\u2680", "\u2681", "\u2682", "\u2683", "\u2684", "\u2685"];
const SHOWN = 20;

function money(cents) { return (cents / 100).toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ","); }

function table(heads, lang) {
  const t = el("table");
  const tr = el("tr");
  for (const h of heads) tr.appendChild(el("th", {}, both(h, lang)));
  t.appendChild(tr);
  return t;
}

function sicboRows(results, lang) {
  const t = table(["round", "sic bo", "total", "big / small", "odd / even"], lang);
  for (const [round, r] of results) {
    const tr = el("tr", { "data-round": String(round) });
    tr.appendChild(el("td", {}, String(round)));
    if (r === "void") {
      tr.appendChild(el("td", { class: "void", colspan: "4" }, both("void", lang)));
    } else {
      const total = r[0] + r[1] + r[2], triple = r[0] === r[1] && r[1] === r[2];
      tr.dataset.total = String(total);
      tr.appendChild(el("td", { class: "dice" }, r.map((d) => DIE[d]).join("")));
      tr.appendChild(el("td", {}, String(total)));
      // SB-7: a triple is neither big nor small
      const size = triple ? "triple" : total <= 10 ? "small" : "big";
      tr.dataset.size = size;
      tr.appendChild(el("td", {}, "")).appendChild(el("span", { class: size }, both(size, lang)));
      const parity = total % 2 ? "odd" : "even";
      tr.dataset.parity = parity;
      tr.appendChild(el("td", {}, both(parity, lang)));
    }
    t.appendChild(tr);
  }
  return t;
}

function fishRows(results, lang) {
  const t = table(["round", "fish-prawn-crab"], lang);
  for (const [round, r] of results) {
    const tr = el("tr", { "data-round": String(round) });
    tr.appendChild(el("td", {}, String(round)));
    const td = tr.appendChild(el("td", {}));
    if (r === "void") td.appendChild(el("span", { class: "void" }, both("void", lang)));
    else for (const d of r) {
      const [name, pic, zh, colour] = FACES[d - 1];
      const f = el("span", { class: "face", "data-face": name, style: "border-color:" + COLOUR_CSS[colour] }, pic);
      f.appendChild(el("small", {}, lang === "en" ? name + " " + zh : zh + " " + name));
      td.appendChild(f);
    }
    t.appendChild(tr);
  }
  return t;
}

function fantanRow(results, lang) {
  const box = el("div", { class: "numbers" });
  for (const [round, r] of results) {
    box.appendChild(r === "void" ? el("div", { class: "num void", "data-round": String(round), title: "void" }, "\u2715")
      : el("div", { class: "num n" + r, "data-round": String(round) }, String(r)));
  }
  return box;
}

function hitRows(results, lang) {
  const t = table(["round", "last hits"], lang);
  for (const [round, r] of results) {
    if (r === "void" || !r.length) continue; // rounds without a hit: only the hits are the players' news
    const tr = el("tr", { "data-round": String(round) });
    tr.appendChild(el("td", {}, String(round)));
    tr.appendChild(el("td", {}, r.map(([seat, cls, cents]) =>
      both("SEAT", lang) + " " + seat + ": " + className(cls, lang) + " " + money(cents)).join(" \u00b7 ")));
    t.appendChild(tr);
  }
  return t.children.length > 1 ? t : el("p", { class: "empty" }, both("no hit", lang));
}

function render(state) {
  window.boardState = state;
  const hello = state.hello || {}, st = state.status || {}, lang = hello.language || "zh-Hant";
  translate(lang);
  $("game-name").textContent = gameName(hello.game, lang);
  const results = (st.results || []).slice(-SHOWN).reverse(); // newest first
  const board = $("board");
  board.innerHTML = "";
  $("pool").hidden = !hello.progressive;
  if (hello.progressive) $("pool").textContent = both("pool", lang) + " " + money(st.pool_cents || 0);
  if (!results.length) board.appendChild(el("p", { class: "empty" }, both("no results yet", lang)));
  else if (hello.game === "sicbo") board.appendChild(sicboRows(results, lang));
  else if (hello.game === "fish_prawn_crab") board.appendChild(fishRows(results, lang));
  else if (hello.game === "fantan") board.appendChild(fantanRow(results, lang));
  else if (hello.progressive) board.appendChild(hitRows(results, lang));
  document.body.dataset.version = String((Number(document.body.dataset.version) || 0) + 1);
}

const events = new EventSource("events");
events.onmessage = (ev) => render(JSON.parse(ev.data));
