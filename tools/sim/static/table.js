// The table simulator page: draws what the sim board reports (lamp chain colours, display lines,
// jackpot digits, pins) and turns clicks into the board's inputs. It decides nothing about results:
// a spot is lit exactly when the firmware's lamp driver lit the lamp wired under it.
"use strict";

const KEYPAD = ["1", "2", "3", "CLEAR", "4", "5", "6", "ENTER", "7", "8", "9", "0"];
const MIN_HOLD_MS = 120; // longer than the firmware's 30 ms debounce, so a quick click still counts
const RELEASE_GAP_MS = 70;
const DICE = ["", "\u2680", "\u2681", "\u2682", "\u2683", "\u2684", "\u2685"];

// Where a spot sits: each layout is printed in bands of related bets; the band of a spot id is its
// bet family (the ids are docs/rulebook.md's). Titles cite the regulation's articles.
const BANDS = {
  sicbo: [
    ["main", "small / big, any triple, even / odd (SB-5.1, 5.2, 5.5, 5.7, 5.8)", /^(small|big|odd|even|any_triple)$/],
    ["double", "short: a double (SB-5.12)", /^double_\d$/],
    ["triple", "a chosen triple (SB-5.4)", /^triple_/],
    ["total", "totals 4 to 17 (SB-5.6)", /^total_/],
    ["combo", "long: two faces (SB-5.11)", /^combo_/],
    ["single", "single number 1:1 / 2:1 / 3:1 (SB-5.3)", /^single_/],
    ["double_single", "double and single (SB-5.9)", /^double_single_/],
    ["three", "three faces (SB-5.10)", /^three_/],
    ["four", "four faces (SB-5.13)", /^four_/],
  ],
  fish_prawn_crab: [
    ["main", "small / big, any triple, any triple colour (FPC-5.1, 5.2, 5.9, 5.7)", /^(small|big|any_triple|any_color3)$/],
    ["triple", "a chosen triple (FPC-5.8)", /^triple_/],
    ["single", "single picture (FPC-5.3)", /^single_/],
    ["color", "one, two, three dice of a colour (FPC-5.4..5.6)", /^color\d_/],
    ["total", "totals 4 to 17 (FPC-5.10)", /^total_/],
  ],
  fantan: [
    ["fan", "fan: one number (FT-6.2.1)", /^fan_/],
    ["kwok", "kwok: two numbers (FT-6.1)", /^kwok_/],
    ["nim", "nim: one wins, one ties (FT-6.2.2)", /^nim_/],
    ["nga", "nga: two win, one ties (FT-6.2.3)", /^nga_/],
    ["sam_hong", "sam hong: three numbers (FT-6.2.4)", /^sam_hong_/],
  ],
};

let picture = null;
let builtFor = "";
let lang = "zh-Hant"; // the table's language key (hello): which of the two languages comes first

function nums(id) { return id.split("_").filter((p) => /^\d+$/.test(p)).map(Number); }

function label(game, id) {
  const n = nums(id);
  if (game === "fish_prawn_crab") {
    const face = FACES.find((f) => f[0] === id.split("_").pop());
    const colour = /^color(\d)_(\w+)$/.exec(id);
    if (colour) return [both(colour[2], lang), both(colour[1] + " " + (colour[1] === "1" ? "die" : "dice"), lang)];
    if (face && /^single_/.test(id)) return [face[1], face[2] + " " + face[0]];
    if (face && /^triple_/.test(id)) return [face[1] + face[1] + face[1], face[2] + " " + face[0]];
  }
  if (game === "fantan") {
    if (/^fan_/.test(id)) return [String(n[0]), "fan"];
    if (/^kwok_/.test(id)) return [n.join("-"), "kwok"];
    if (/^nim_/.test(id)) return [n[0] + " (" + n[1] + ")", "nim"];
    if (/^nga_/.test(id)) return [n[0] + "-" + n[1] + " (" + n[2] + ")", "nga"];
    if (/^sam_hong_/.test(id)) return [n.join("-"), "sam hong"];
  }
  if (/^total_/.test(id)) return [String(n[0]), "total"];
  if (/^double_single_/.test(id)) return [DICE[n[0]] + DICE[n[0]] + DICE[n[1]], ""];
  if (/^double_/.test(id)) return [DICE[n[0]] + DICE[n[0]], ""];
  if (/^triple_/.test(id)) return [DICE[n[0]] + DICE[n[0]] + DICE[n[0]], ""];
  if (/^(combo|three|four)_/.test(id)) return [n.map((d) => DICE[d]).join(""), ""];
  if (/^single_/.test(id)) return [DICE[n[0]], "single"];
  return [id.replace(/_/g, " ").toUpperCase(), ""];
}

function spotElement(game, id, lamp) {
  const [main, sub] = label(game, id);
  let cls = /^(small|big|odd|even|any_triple|any_color3|fan_\d)$/.test(id) ? "spot big" : "spot";
  if (/[\u2680-\u2685]/.test(main)) cls += " dice";
  const e = el("div", { class: cls, "data-spot": id, "data-lamp": String(lamp), "data-lit": "0", title: id + " (lamp " + lamp + ")" });
  if (game === "fish_prawn_crab") { // the picture's colour on the dice, or the colour bet's own
    const last = id.split("_").pop(), face = FACES.find((f) => f[0] === last);
    const colour = face ? face[3] : (COLOUR_CSS[last] ? last : "");
    if (colour) {
      e.dataset.colour = colour;
      e.style.setProperty("--face", COLOUR_CSS[colour]);
    }
  }
  e.appendChild(document.createTextNode(main));
  if (sub) e.appendChild(el("small", {}, sub));
  e.appendChild(el("span", { class: "lampno techonly" }, String(lamp)));
  return e;
}

function buildLegend(hello) {
  // what each lamp colour means at this table, as the board says (its legend and the chain's colours)
  const legend = $("legend");
  legend.innerHTML = "";
  for (const [what, rgb] of hello.legend || []) {
    const item = el("span", { class: "legend-item", "data-rgb": rgb });
    item.appendChild(el("i", { class: "swatch", style: "background:#" + rgb }));
    item.appendChild(document.createTextNode(both(what, lang)));
    legend.appendChild(item);
  }
}

function inkFor(rgb) {
  // dark ink on a bright lamp, light ink on a dark one (relative luminance, as WCAG computes it)
  const lin = (i) => { const c = parseInt(rgb.substr(i, 2), 16) / 255; return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4); };
  const lum = 0.2126 * lin(0) + 0.7152 * lin(2) + 0.0722 * lin(4);
  return lum > 0.18 ? "#1b1300" : "#f4efe0";
}

function buildLayout(hello) {
  const root = $("layout");
  root.innerHTML = "";
  buildLegend(hello);
  const game = hello.game;
  const layout = hello.layout || [];
  if (hello.progressive) return buildSeats(root, hello);
  const bands = BANDS[game] || [["all", "spots", /./]];
  for (const [name, title, re] of bands) {
    const row = el("div", { class: "row" });
    layout.forEach((id, lamp) => { if (id && re.test(id)) row.appendChild(spotElement(game, id, lamp)); });
    if (!row.children.length) continue;
    const g = el("div", { class: "group", "data-band": name });
    // the article ids are the technician's: behind the switch
    const m = /^(.*?)( \(([A-Z]+-[\d.]+.*)\))?$/.exec(title);
    const h = el("h3", {}, m[1]);
    if (m[2]) h.appendChild(el("span", { class: "techonly articles" }, m[2]));
    g.appendChild(h);
    g.appendChild(row);
    root.appendChild(g);
  }
}

function buildSeats(root, hello) {
  // seats from the dealer's left (CSP-10.4, F3-15.3) round the table's curve
  const ring = el("div", { class: "seatring" });
  ring.appendChild(el("div", { class: "dealer" }, both("DEALER", lang)));
  const n = hello.seats;
  (hello.layout || []).forEach((id, lamp) => {
    if (!/^seat_\d$/.test(id)) return;
    const s = nums(id)[0];
    if (s > n) return;
    const a = Math.PI * (0.15 + 0.7 * (s - 1) / Math.max(1, n - 1));
    const e = spotElement(hello.game, id, lamp);
    e.className = "spot seat";
    e.firstChild.textContent = "SEAT " + s;
    e.dataset.seat = String(s);
    e.dataset.win = "0";
    e.appendChild(el("small", { class: "win" }, ""));
    e.style.left = "calc(" + (50 + 42 * Math.cos(a)) + "% - 48px)";
    e.style.top = (40 + 260 * Math.sin(a)) + "px";
    ring.appendChild(e);
  });
  root.appendChild(ring);
}

function buildPanel(hello) {
  const roles = hello.roles || [];
  const keypad = $("keypad"), fkeys = $("fkeys");
  keypad.innerHTML = "";
  fkeys.innerHTML = "";
  for (const r of KEYPAD) if (roles.includes(r)) keypad.appendChild(keyButton(r, false, hello.game));
  for (const r of roles) if (!KEYPAD.includes(r)) fkeys.appendChild(keyButton(r, true, hello.game));
  const seats = $("seats");
  seats.innerHTML = "";
  for (const id in reported) if (id.startsWith("seat-")) delete reported[id];
  $("seats-box").style.display = hello.progressive ? "" : "none";
  $("jackpot-box").style.display = hello.progressive ? "" : "none";
  $("cover-box").style.display = hello.shaker ? "" : "none";
  for (let s = 1; s <= hello.seats; s++) {
    const box = el("input", { type: "checkbox", id: "seat-" + s, "data-seat": String(s) });
    box.addEventListener("change", () => post({ cmd: "seat", seat: s, on: box.checked }));
    const lab = el("label", {});
    lab.appendChild(box);
    lab.appendChild(document.createTextNode(" seat " + s));
    seats.appendChild(lab);
  }
}

function keyButton(role, fn, game) {
  const b = el("button", { class: fn ? "key fn" : "key", "data-role": role, type: "button" }, role);
  // fish-prawn-crab's keys 1..6 are its pictures (FPC-1.1); a function key says its name in Chinese too
  const face = game === "fish_prawn_crab" && /^[1-6]$/.test(role) ? FACES[Number(role) - 1] : null;
  if (face) {
    b.appendChild(el("span", { class: "face" }, " " + face[1]));
    b.appendChild(el("small", { style: "color:" + COLOUR_CSS[face[3]] }, face[2] + " " + face[0]));
  } else if (ZH[role]) b.appendChild(el("small", {}, ZH[role]));
  let downAt = 0, held = false;
  b.addEventListener("pointerdown", (ev) => {
    ev.preventDefault();
    held = true;
    downAt = Date.now();
    b.classList.add("down");
    post({ cmd: "press", role: role });
  });
  const release = () => {
    if (!held) return;
    held = false;
    const hold = Date.now() - downAt;
    // queued behind the press: a quick click is still held MIN_HOLD_MS, then the key stays up for
    // RELEASE_GAP_MS so the next press of any key is seen as a new one
    later(Math.max(0, MIN_HOLD_MS - hold));
    post({ cmd: "release", role: role }).then(() => b.classList.remove("down"));
    later(RELEASE_GAP_MS);
  };
  b.addEventListener("pointerup", release);
  b.addEventListener("pointerleave", release);
  return b;
}

// requests go out in order, one at a time, so a release never overtakes its press
let queue = Promise.resolve();
function post(req) {
  queue = queue.then(() => fetch("input", { method: "POST", headers: { "Content-Type": "application/json" },
                                            body: JSON.stringify(req) })
    .then((r) => r.ok ? null : r.json().then((j) => showError(j.error)))
    .catch((e) => showError(String(e))));
  return queue;
}

function later(ms) {
  queue = queue.then(() => new Promise((done) => setTimeout(done, ms)));
  return queue;
}

function showError(text) { $("errors").textContent = text || ""; }

const reported = {};
function follow(id, value) {
  const box = $(id);
  if (!box || value === undefined || reported[id] === value) return;
  reported[id] = value;
  box.checked = !!value;
}

function render(state) {
  picture = state;
  window.simState = state; // for the browser test and curious developers
  const hello = state.hello || {}, out = state.out || {}, st = state.status || {};
  $("conn").textContent = both(state.connected ? "board connected" : "board not connected", lang);
  $("conn").className = "tag " + (state.connected ? "on" : "off");
  $("game").textContent = hello.game || "";
  const key = JSON.stringify(hello);
  if (hello.language && hello.language !== lang) { lang = hello.language; builtFor = ""; }
  if (key !== builtFor) translate(lang);
  if (hello.game && key !== builtFor) {
    builtFor = key;
    buildLayout(hello);
    buildPanel(hello);
  }
  showTilt(st);
  const hex = out.lamps || "";
  document.querySelectorAll("#layout [data-lamp]").forEach((e) => {
    const i = Number(e.dataset.lamp);
    const rgb = hex.substr(i * 6, 6) || "000000";
    e.dataset.rgb = rgb;
    e.dataset.lit = rgb === "000000" ? "0" : "1";
    e.style.background = rgb === "000000" ? "" : "#" + rgb;
    e.style.color = rgb === "000000" ? "" : inkFor(rgb);
    e.style.setProperty("--glow", "#" + rgb);
  });
  // the seats with a hit this round (the board's status), marked with their class
  const hits = st.hits || [];
  document.querySelectorAll("#layout [data-seat]").forEach((e) => {
    const hit = hits.find((h) => h[0] === Number(e.dataset.seat));
    e.dataset.win = hit ? "1" : "0";
    e.querySelector(".win").textContent = hit ? className(hit[1], lang, "WIN ") : "";
  });
  // the keys the controller would refuse now are greyed, the reason on hover (they still press)
  const refused = st.refused || {};
  document.querySelectorAll("button[data-role]").forEach((b) => {
    const why = refused[b.dataset.role] || "";
    b.classList.toggle("refused", !!why);
    b.title = why;
  });
  $("guide").textContent = guide(st);
  const lines = out.display || ["", ""];
  $("lcd0").textContent = lines[0] || "";
  $("lcd1").textContent = lines[1] || "";
  if (out.oled) drawOled(out.oled);
  $("jackpot").textContent = out.jackpot || "";
  for (const pin of ["betting_lamp", "shaker", "bell"]) $("out-" + pin).classList.toggle("lit", !!out[pin]);
  // a switch follows the board only when the board's reading changes, so a report still on its way
  // does not undo a click the board has not seen yet
  follow("cover", out.cover);
  follow("service-key", out.service_key);
  (out.seats || []).forEach((v, i) => follow("seat-" + (i + 1), v));
  const keys = Object.keys(st).sort();
  $("status").textContent = keys.map((k) => k + ": " + JSON.stringify(st[k])).join("\n");
  document.body.dataset.state = st.state || "";
  document.body.dataset.version = String((Number(document.body.dataset.version) || 0) + 1);
}

// the graphic display's RAM (hex, as the board's virtual SSD1306 holds it: a page of 8 pixel rows a byte per
// column, the top pixel bit 0) drawn pixel for pixel; the character display's box then stands aside
function drawOled(hex) {
  const canvas = $("oled");
  const w = canvas.width, h = canvas.height;
  const img = canvas.getContext("2d").createImageData(w, h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const byte = parseInt(hex.substr(2 * ((y >> 3) * w + x), 2), 16);
      const on = (byte >> (y & 7)) & 1;
      const i = 4 * (y * w + x);
      img.data[i] = on ? 0x7f : 0; img.data[i + 1] = on ? 0xd8 : 0; img.data[i + 2] = on ? 0xff : 0;
      img.data[i + 3] = 255;
    }
  }
  canvas.getContext("2d").putImageData(img, 0, 0);
  canvas.hidden = false;
  $("lcd").hidden = true;
  canvas.dataset.frames = String((Number(canvas.dataset.frames) || 0) + 1);
}

// what the dealer types next in a hit or a void (the board's status: hit_step, community, void_kinds), in
// the table's two languages, its first on top
function guide(st) {
  const [en, zh] = guideWords(st);
  if (!en) return "";
  return lang === "en" ? en + "\n" + zh : zh + "\n" + en;
}

function guideWords(st) {
  const card = "each card: the rank 02-14 (11 J, 12 Q, 13 K, 14 A) then the suit 1-4 (\u2660 \u2665 \u2663 \u2666)";
  const zhCard = "每張牌：點數 02-14（11 J、12 Q、13 K、14 A），然後花色 1-4（\u2660 \u2665 \u2663 \u2666）";
  if (st.voiding) {
    const kinds = (st.void_kinds || []).map((k, i) => (i + 1) + " " + k).join(", ");
    return ["Void: press the kind's digit (" + kinds + "), then ENTER; CLEAR keeps the round.",
      "作廢：按種類的數字（" + kinds + "），然後按 ENTER；CLEAR 保留該局。"];
  }
  switch (st.hit_step) {
    case "seat": return ["Hit: the seat number, then ENTER.", "中獎：輸入座位號碼，然後按 ENTER。"];
    case "class": return ["Hit: the class number, or ENTER alone and the cards say which.",
      "中獎：輸入牌型號碼，或直接按 ENTER，由牌判定牌型。"];
    case "cards":
      if (st.game === "fortune3") {
        return st.community ? ["Hit: the player's three cards (the community cards " + st.community +
          " are the round's), then ENTER; " + card + ".", "中獎：輸入玩家的三張牌（本局公共牌 " + st.community +
          " 自動加上），然後按 ENTER；" + zhCard + "。"] : ["Hit: the player's three cards, then the two " +
          "community cards, then ENTER; " + card + ".", "中獎：輸入玩家的三張牌，再輸入兩張公共牌，然後按 ENTER；" + zhCard + "。"];
      }
      return ["Hit: the player's five cards, then ENTER; " + card + ".", "中獎：輸入玩家的五張牌，然後按 ENTER；" + zhCard + "。"];
    case "coup": return ["Coup: its cards in the order dealt (player, banker, player, banker, then the " +
      "third cards), then ENTER; " + card + ". Every locked seat wins what it makes.",
      "整局牌：按發牌次序輸入（閒、莊、閒、莊，然後補牌），然後按 ENTER；" + zhCard + "。每個鎖定的座位都贏得該牌型。"];
    case "super": return ["Top award: the supervisor turns the service key (or types the code), then ENTER.",
      "最高彩金：主管轉維修鑰匙（或輸入密碼），然後按 ENTER。"];
  }
  return ["", ""];
}

function showTilt(st) {
  // a tilted table: its own game and what to tell the technician (its full reason), not an empty felt
  const tilted = st.state === "tilt";
  $("tilt").hidden = !tilted;
  if (!tilted) return;
  $("tilt-game").textContent = st.game ? gameName(st.game, lang) + " (" + st.game + ")"
    : both("game unknown: its configuration record is damaged", lang);
  $("tilt-shown").textContent = "TILT: CALL TECH / " + (st.shown || "");
  $("tilt-why").textContent = st.why || "";
}

const techBox = $("technician");
techBox.checked = localStorage.getItem("technician") === "1";
document.body.classList.toggle("tech", techBox.checked);
techBox.addEventListener("change", () => {
  document.body.classList.toggle("tech", techBox.checked);
  localStorage.setItem("technician", techBox.checked ? "1" : "0");
});

$("cover").addEventListener("change", (ev) => post({ cmd: "cover", on: ev.target.checked }));
$("service-key").addEventListener("change", (ev) => post({ cmd: "key", on: ev.target.checked }));

const events = new EventSource("events");
events.onmessage = (ev) => render(JSON.parse(ev.data));
events.onerror = () => { $("conn").textContent = both("simulator not reachable", lang); $("conn").className = "tag off"; };
