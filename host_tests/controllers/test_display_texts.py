"""Every text the dealer's 16x2 display is given fits 16 columns as written (the driver never cuts a word)
and is in docs/dealers.md's glossary: the texts come from the code (every upper-case string constant of
the controllers, checked word by word) and from play (a long walk of every game, every line the display
was given, checked whole against the glossary's lines), so a text added later is checked too."""
import ast
import functools
import pathlib
import random
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
from harness.tables import cleanup, keyed, new_app, restart
from tablectl.games import tilt
from tablectl.rules import GAMES, PROGRESSIVE

GLOSSARY = ROOT / "docs" / "dealers.md"
CHINESE = ROOT / "docs" / "dealers.zh-Hant.md"  # its own table of the progressive tables' lines
# the controllers, the linked one and the application (its notice of a step not saved)
CONTROLLERS = sorted((ROOT / "firmware" / "tablectl" / "games").glob("*.py")) + \
    [ROOT / "firmware" / "tablectl" / name for name in ("link.py", "app.py")]
# upper-case constants there that the display never shows, and where they go instead
NOT_SHOWN = {" (TLS)": "status()'s link", "NO LOG REGION": "a tilt's reason (the display: SEE SERVICE PORT)"}
COLS = 16
KEYS = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "CLEAR", "ENTER", "SHAKE", "BELL", "CONFIRM",
        "VOID", "VOID_LONG", "LOCK", "HIT", "HISTORY"]
ROLES = set(KEYS) | {"HANDLE"}
# what a dealer does next in each state: the walk takes one of these three times in four, else a random key
ROYAL = list("141131121111101")  # As Ks Qs Js Ts
LIKELY = {
    "idle": [["SHAKE"], ["SHAKE", "wait"], ["HISTORY"], ["HISTORY", "HISTORY"], ["key"]],
    "shaking": [["wait"]],
    "betting": [["BELL"], ["LOCK"], ["seat"], ["seat"], ["VOID_LONG"], ["HISTORY"], ["key"]],
    "closed": [["1", "2", "3", "ENTER"], ["6", "6", "6", "ENTER"], ["2", "2", "5", "ENTER"], ["2", "7", "ENTER"],
               ["CLEAR", "3", "ENTER"], ["CLEAR", "CLEAR"], ["1", "2", "3", "4"], ["cut"]],
    "result": [["CONFIRM"], ["VOID_LONG"], ["CLEAR", "1", "1", "2", "ENTER"], ["CLEAR", "CLEAR", "2", "ENTER"],
               ["CLEAR", "CONFIRM"], ["cut"]],
    "locked": [["HIT", "1", "ENTER", "3", "ENTER", "ENTER"], ["HIT", "4", "ENTER", "5", "ENTER"] + ROYAL + ["ENTER"],
               ["HIT", "2", "ENTER", "9"], ["HIT", "CLEAR"], ["HIT", "3", "ENTER", "2", "ENTER", "1", "4", "1", "ENTER"],
               ["CONFIRM"], ["VOID_LONG"], ["cut"]],
    "paying": [["CONFIRM"], ["cut"]],
}


def walk(game, steps, seed):
    """Play `game` for `steps` moves: (every text the display was given, before any driver cuts it, but
    HISTORY's pages; those pages; every result text the pages are made of)."""
    shown, pages, results = set(), set(), set()
    rng = random.Random(seed)
    app = new_app(game)

    def watch(app):
        display = app.board.display
        plain = display.text

        def text(row, s):
            (pages if row == 1 and display.lines[0].startswith("HISTORY ") else shown).add(s)
            plain(row, s)
        display.text = text
        app.controller.redraw()

    watch(app)
    try:
        for _ in range(steps):
            c = app.controller
            moves = LIKELY.get(c.state, [["CONFIRM"]])
            for key in (rng.choice(moves) if rng.randrange(4) else [rng.choice(KEYS)]):
                if key == "wait":
                    app.board.clock.advance(rng.choice((100, 3100, 9000)))
                    app.tick()
                elif key == "seat":
                    app.board.set_seat(rng.randrange(1, 8), rng.randrange(2) == 1)
                    app.board.clock.advance(50)
                    app.tick()
                elif key == "key":
                    keyed(app, app.controller.redraw)
                elif key == "cut":
                    app = restart(app)
                    watch(app)
                else:
                    app.controller.handle(key)
            app.board.clock.advance(rng.choice((10, 3100)))  # a notice times out now and then
            app.tick()
            c = app.controller
            for _, r in c.results:
                results.update(("VOID",) if r == "void" else c.result_items(r))
    finally:
        cleanup()
    return shown, pages, results


@functools.lru_cache(None)
def played():
    """{game: walk(game, 250, k)} for every game (walked once for the tests that read it)."""
    return dict((game, walk(game, 250, k)) for k, game in enumerate(GAMES))


def glossary():
    """(lines, words) of docs/dealers.md's glossary: the `...` of its table rows' first cells."""
    lines = table_lines(GLOSSARY, "## Glossary of the display")
    return lines, set(w for line in lines for w in words(line))


def table_lines(path, heading):
    part = path.read_text().split(heading, 1)[1].split("\n## ", 1)[0]
    return [t for cell in re.findall(r"^\| (`[^|]+`) \|", part, re.M) for t in re.findall(r"`([^`]+)`", cell)]


def patterns():
    lines, known = glossary()
    return [pattern(line, known) for line in lines]


def words(text):
    """The words of a display text: letters only, split at spaces and signs ('=', ':', '/', ...)."""
    return [w for w in re.split(r"[^A-Z]+", text) if len(w) > 0]


def pattern(line, known):
    """A glossary line as a regular expression: # a number (or _, a digit not typed yet), $ an amount,
    * one word of the glossary, ~ anything (card names, digits as typed)."""
    word = "(%s)" % "|".join(sorted(known))
    special = {"#": r"(\d+|_)", "$": r"\d+\.\d\d", "*": word, "~": ".*"}
    return re.compile("".join(special.get(ch) or re.escape(ch) for ch in line) + "$")


def in_glossary(text, pats):
    return any(p.match(text) for p in pats)


def constants():
    """Every upper-case string constant of the controllers (display texts and their pieces), with where."""
    out = []
    for path in CONTROLLERS:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                s = node.value
                if re.search(r"[A-Z]{2}", s) and not re.search(r"[a-z]", s.replace("%d", "").replace("%s", "")):
                    out.append((s, "%s:%d" % (path.name, node.lineno)))
    return out


def test_every_display_constant_fits_and_its_words_are_in_the_glossary():
    lines, known = glossary()
    found = constants()
    assert len(found) > 60  # the controllers' texts were found (a broken scan would pass everything)
    assert set(NOT_SHOWN) <= set(s for s, _ in found)  # an exception for a text no longer there goes too
    for s, where in found:
        if s in ROLES or s in NOT_SHOWN or "_" in s and re.fullmatch(r"[A-Z_]+", s):
            continue  # a key's or an event's name (VOID_LONG), not a text
        plain = s.replace("%d", "#").replace("%s", "#")
        assert len(plain.replace("#", "0")) <= COLS, (where, s)
        missing = [w for w in words(plain) if w not in known]
        assert not missing, "%s: %r has words the glossary lacks: %s" % (where, s, missing)


def test_every_line_the_display_shows_in_play_fits_and_is_in_the_glossary():
    pats = patterns()
    shown, pages, results = set(), set(), set()
    for game in GAMES:
        for got, part in zip((shown, pages, results), played()[game]):
            got |= part
    assert len(shown) > 300 and len(pages) > 20 and len(results) > 12  # the walk reached the deep states
    for s in sorted(shown | pages):
        assert len(s) <= COLS, "%r is %d columns: the display would cut it" % (s, len(s))
    for s in sorted((shown | results) - {""}):  # a page is results side by side: each result is checked
        assert in_glossary(s, pats), "%r is not in docs/dealers.md's glossary" % s


def test_a_tilt_says_which_trouble_in_whole_words_on_16_columns():
    pats = patterns()
    whys = ["the flash holds no table log (neither erased nor written by this firmware)",
            "damaged flash after saved frame #12, and later frames exist: the state before it is lost",
            "the configuration may be in the damaged part of the log",
            "record 'config' holds an invalid configuration (seats: 9)",
            "FIRMWARE CHANGED: tablectl/app.mpy changed", "journal chain missing after entry #3",
            "saved round is for 'sicbo', this controller is 'fantan'", "halted",
            "SETUP TOO LARGE: record 'round' needs 5274 bytes at its largest, a frame of a flash block holds 3804; "
            "configure(history_len=23)"]
    got = [tilt.cause(w) for w in whys]
    assert got == ["FLASH DAMAGED", "FLASH DAMAGED", "SETUP DAMAGED", "SETUP DAMAGED", "FIRMWARE CHANGED",
                   "JOURNAL DAMAGED", "RECORD DAMAGED", tilt.UNKNOWN, "SETUP TOO LARGE"]
    for line in got + ["TILT: CALL TECH"]:
        assert len(line) <= COLS and in_glossary(line, pats), line


def test_every_class_name_the_display_shows_is_a_line_of_the_glossary():
    # the hit entry names a class in full (label), the paying line and the history beside a seat (short)
    from tablectl.games.hitentry import label, short
    from tablectl.rules import PROGRESSIVE, awards
    lines = set(glossary()[0])
    names = set()
    for game in PROGRESSIVE:
        for cls in awards.table(game)[0][1:]:
            names |= {label(cls), short(cls)}
            # beside 'S7 '; a poker class (typed, so refused as 'HAND ...'; several hits a round, '+S7 ...') too
            assert len(short(cls)) <= (11 if game in ("caribbean_stud", "fortune3") else 13), cls
    assert len(names) > 20 and not names - lines, sorted(names - lines)


def test_the_locked_seats_read_one_by_one_runs_of_three_as_first_last():
    from tablectl.games.progressive import seats_text
    # every set of seats of a 7-seat table: the line fits, and it reads back as the seats it says
    for mask in range(1, 1 << 7):
        want = [s for s in range(1, 8) if mask & (1 << (s - 1))]
        text = seats_text(want)
        assert len("LOCKED " + text) <= 16, text
        back = []
        for part in text.split(" "):
            ends = [int(n) for n in part.split("-")]
            back.extend(range(ends[0], ends[-1] + 1))
            assert len(ends) == 1 or ends[1] - ends[0] >= 2  # a pair is two seats, never '3-4'
        assert back == want, (want, text)
    assert (seats_text([3, 5]), seats_text([1, 2, 3, 4, 5, 6, 7]), seats_text([1, 2, 4, 5, 7])) == ("3 5", "1-7", "1 2 4 5 7")


def test_the_chinese_guide_explains_every_line_a_progressive_table_shows_in_play():
    lines, known = glossary()
    chinese = table_lines(CHINESE, "### 累積獎金檯的顯示屏用語")
    assert len(chinese) > 80 and not set(chinese) - set(lines), sorted(set(chinese) - set(lines))  # no drift
    # each line shown, by the glossary line that says it most exactly (the fewest wildcards)
    by_exactness = sorted(lines, key=lambda line: sum(line.count(ch) for ch in "#$*~"))
    pats = [(line, pattern(line, known)) for line in by_exactness]
    missing = set()
    for game in PROGRESSIVE:
        shown, pages, results = played()[game]
        for text in (shown | results) - {""}:
            line = [g for g, p in pats if p.match(text)][0]
            if line not in chinese:
                missing.add((line, text))
    assert not missing, sorted(missing)


NOT_IN_CHINESE = {"S", "BAC", "CSP"}  # a seat's S3 and the article ids stay as they are


def test_every_line_the_display_shows_fits_the_graphic_display_in_english_and_in_chinese():
    """The SSD1306 option (tablectl.hw.oled): every line in English (16 columns of 8 pixels, a glyph for each
    character) and beneath it in Chinese within the panel's 128 pixels; every glossary word has its Chinese."""
    from building import oled_terms
    from building import oledfont
    from tablectl.hw.oled import Oled
    from harness.panel import Panel  # the driver's side (the bus itself: host_tests/hardware/test_hw_oled.py)
    glyphs = oledfont.load()
    assert len(glyphs.ASCII) == 95 * 16
    han = set(ch for _, zh in oled_terms.TERMS for ch in zh if ord(ch) > 126)
    assert set(glyphs.CHARS) == han and len(glyphs.HAN) == 32 * len(han)
    for n, ch in enumerate(glyphs.CHARS):  # a glyph, not the font's empty box or nothing
        assert sum(bin(b).count("1") for b in glyphs.HAN[32 * n:32 * n + 32]) > 8, ch
    lines, known = glossary()
    assert set(w for en, _ in oled_terms.TERMS for w in words(en)) == known - NOT_IN_CHINESE
    d = Oled(Panel(), glyphs)
    texts = set()
    for game in GAMES:
        for part in played()[game]:
            texts |= part
    chinese = 0
    for s in sorted(texts):
        assert all(32 <= ord(c) < 127 for c in s) and 8 * len(s) <= 128, s
        width = d.chinese(s.encode(), -1)
        assert width <= 128, "%r is %d pixels wide in Chinese" % (s, width)
        if set(w for w in words(s) if len(w) > 1) & (known - NOT_IN_CHINESE):  # not a card's rank (As, Kc)
            assert width > 0, "%r has no Chinese" % s
            chinese += 1
    assert chinese > 250  # the walk's lines were read, most of them with their Chinese
