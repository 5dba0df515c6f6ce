// The pages' words in Traditional Chinese beside the English: the table's `language` key (the board's
// hello) says which comes first. Shared by the table page, the players' board and the jackpot server's pages
// (its status page and pit sign: ?lang=en), with their DOM helpers.
"use strict";

function $(id) { return document.getElementById(id); }

// text for innerHTML (a page that builds its rows as markup: the jackpot server's)
function esc(s) { return String(s).replace(/[&<>"]/g, ch => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;"}[ch])); }

function el(tag, attrs, text) {
  const e = document.createElement(tag);
  for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  return e;
}


const ZH = {
  "table simulator": "賭檯模擬器", "result display": "結果顯示", "jackpot digits": "累積獎金顯示",
  "outputs": "輸出", "betting open": "開放下注", "shaker": "搖骰器", "bell": "鐘",
  "dealer's panel": "荷官按鈕", "shaker cover clipped": "骰盅已扣", "service key on": "維修鑰匙開",
  "seat bet sensors": "座位投注感應", "controller": "控制器", "technician": "技術員",
  "board connected": "已連接", "board not connected": "未連接", "players' board": "路紙",
  "simulator not reachable": "模擬器無法連接", "live": "連線中", "connecting…": "連接中…", "reconnecting…": "重新連接中…",
  "win": "贏", "tie: the stake back (FT-8)": "和:退回本金 (FT-8)", "bet placed": "已下注", "seat won": "座位中獎",
  "SHAKE": "搖骰", "BELL": "鐘", "CONFIRM": "確認", "VOID": "作廢", "LOCK": "鎖定", "HIT": "中獎",
  "HISTORY": "記錄", "CLEAR": "清除", "ENTER": "輸入", "DEALER": "荷官", "SEAT": "座位",
  "small": "小", "big": "大", "big / small": "大小", "odd / even": "單雙", "odd": "單", "even": "雙", "triple": "圍骰", "any triple": "全圍",
  "total": "點數", "void": "作廢", "round": "局", "pool": "彩池", "last hits": "最近中獎",
  "no hit": "無中獎", "no results yet": "暫無結果", "number": "號碼",
  "sic bo": "骰寶", "fish-prawn-crab": "魚蝦蟹", "fan-tan": "番攤", "caribbean stud": "聯獎撲克",
  "fortune 3": "富貴三寶", "baccarat": "百家樂",
  "TILT: call the technician": "停機:請通知技術員", "this table": "本檯", "tell the technician": "請告訴技術員",
  "the display shows": "顯示", "game unknown: its configuration record is damaged": "遊戲不明:設定記錄損壞",
  "single": "單骰", "1 die": "一粒", "2 dice": "兩粒", "3 dice": "三粒",
  "red": "紅", "green": "綠", "blue": "藍",
};

// fish-prawn-crab's pictures (FPC-1.1): face 1..6, with its colour on the dice
const FACES = [
  ["fish", "\u{1F41F}", "魚", "red"], ["prawn", "\u{1F990}", "蝦", "green"], ["gourd", "\u{1F350}", "葫蘆", "blue"],
  ["coin", "\u{1FA99}", "金錢", "blue"], ["crab", "\u{1F980}", "蟹", "green"], ["rooster", "\u{1F413}", "雞", "red"],
];
const COLOUR_CSS = { red: "#d8322a", green: "#23a046", blue: "#2f63d0" };

// the jackpot's hand classes by the regulations' own names (黃袍麒 royal flush, 夫盧 full house: CSP-8,
// F3-7.2; baccarat's schemes A, B and C: BAC-13.1.4.4)
const CLASS_ZH = {
  flush: "同花", full_house: "夫盧", four_of_a_kind: "四條", straight_flush: "同花順", royal_flush: "黃袍麒",
  one_pair: "單對子", three_of_a_kind: "三條", two_pairs: "雙對子", paradise_straight: "天堂順", royal: "黃袍麒",
  three: "三張同點", four: "四張同點", two_threes: "雙三張同點", five_of_a_kind: "五張同點", six_of_a_kind: "六張同點",
  six_same_colour: "六張同色同點",
};

// a class id in both languages, the table's first: "黃袍麒 · royal flush"; `prefix` goes before the English
function className(cls, lang, prefix) {
  const en = (prefix || "") + cls.replace(/_/g, " "), zh = CLASS_ZH[cls];
  if (!zh) return en;
  return lang === "en" ? en + " · " + zh : zh + " · " + en;
}

function both(en, lang) {
  const zh = ZH[en];
  if (!zh) return en;
  return lang === "en" ? en + " · " + zh : zh + " · " + en;
}

function translate(lang) {
  document.documentElement.lang = lang === "en" ? "en" : "zh-Hant";
  document.querySelectorAll("[data-t]").forEach((e) => { e.textContent = both(e.dataset.t, lang); });
}

const GAME_NAMES = { sicbo: "sic bo", fish_prawn_crab: "fish-prawn-crab", fantan: "fan-tan",
  caribbean_stud: "caribbean stud", fortune3: "fortune 3", baccarat_a: "baccarat", baccarat_b: "baccarat",
  baccarat_c: "baccarat" };

function gameName(game, lang) {
  const name = GAME_NAMES[game];
  if (!name) return game || "";
  const tail = /^baccarat_(\w)$/.exec(game);
  return both(name, lang) + (tail ? " " + tail[1].toUpperCase() : "");
}
