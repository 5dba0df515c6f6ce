"""The article index (docs/regulations/articles.md) read into rows, and what an article id cites.

    idx = Index.load()                 # or Index.parse(text, source)
    idx.rows['SB-7']                   # -> Article: id, article, summary, amendments, scope, reason
    idx.resolve('CSP-8')               # -> ('group', ['CSP-8.1', ..., 'CSP-8.10'])
    idx.resolve('BJ-1.3')              # -> ('part', ['BJ-1'])      a part the summary labels '(.3)'
    idx.resolve('SB-99')               # -> (None, [])              a citation error

An index row is one line of a Markdown table with exactly the columns of HEADER; a row whose first
cell is not an id, a repeated id, a wrong number of cells or a scope other than `in` / `out: <reason>`
raises BadIndex naming the line, so a slip in the index cannot silently drop an article.
"""
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
INDEX = ROOT / "docs" / "regulations" / "articles.md"
HEADER = ("id", "article", "summary", "amendments", "scope")
GAME_NAMES = {"BAC": "Baccarat (55/2004)", "BJ": "Blackjack (56/2004)", "SB": "Sic Bo (57/2004)",
              "FT": "Fan-Tan (58/2004)", "FPC": "Fish-Prawn-Crab (59/2004)", "RL": "Roulette (60/2004)",
              "CSP": "Caribbean Stud (61/2004)", "F3": "Fortune 3 (2025)"}
GAMES = tuple(GAME_NAMES)
# GAME-ART.PARA.ITEM...: numbers, and for baccarat's jackpot groups a capital A, B or C
ID = re.compile(r"(%s)-(\d+(?:\.(?:\d+|[ABC]))*)$" % "|".join(GAMES))
PART = re.compile(r"\(\.(\d+)\)")


class BadIndex(ValueError):
    pass


class Article:
    def __init__(self, id, article, summary, amendments, scope, reason, line):
        self.id, self.article, self.summary, self.amendments = id, article, summary, amendments
        self.scope, self.reason, self.line = scope, reason, line

    @property
    def game(self):
        return self.id.split("-", 1)[0]

    def parts(self):
        """The sub-ids the summary labels inline, '(.1) ... (.2) ...' -> ['X.1', 'X.2']."""
        return [self.id + "." + n for n in PART.findall(self.summary)]


def cells(line):
    """The cells of a Markdown table row (no escaped pipes are used in the index)."""
    inner = line.strip()
    if not (inner.startswith("|") and inner.endswith("|")):
        return None
    return [c.strip() for c in inner[1:-1].split("|")]


class Index:
    def __init__(self, rows, source):
        self.rows = rows          # id -> Article, in the index's order
        self.order = {aid: n for n, aid in enumerate(rows)}
        self.source = source
        self._parts = {}
        for art in rows.values():
            for part in art.parts():
                self._parts[part] = art.id

    @classmethod
    def load(cls, path=INDEX):
        path = pathlib.Path(path)
        try:
            source = path.resolve().relative_to(ROOT).as_posix()
        except ValueError:
            source = str(path)
        return cls.parse(path.read_text(encoding="utf-8"), source)

    @classmethod
    def parse(cls, text, source="articles.md"):
        rows = {}
        in_table = False
        for n, line in enumerate(text.splitlines(), 1):
            row = cells(line)
            if row is None:
                in_table = False
                continue
            if tuple(c.lower() for c in row) == HEADER:
                in_table = True
                continue
            if not in_table or set(line.replace("|", "").strip()) <= set("-: "):
                continue
            where = "%s:%d" % (source, n)
            if len(row) != len(HEADER):
                raise BadIndex("%s: %d cells, the index has %d (%s)" % (where, len(row), len(HEADER),
                                                                           " | ".join(HEADER)))
            aid, article, summary, amendments, scope = row
            if not ID.match(aid):
                raise BadIndex("%s: %r is not an article id (GAME-ART.PARA...)" % (where, aid))
            if aid in rows:
                raise BadIndex("%s: %s is listed twice (first at line %d)" % (where, aid, rows[aid].line))
            if not article or not summary:
                raise BadIndex("%s: %s needs its article and a summary" % (where, aid))
            if scope == "in":
                reason = ""
            elif scope.startswith("out:") and scope[4:].strip():
                scope, reason = "out", scope[4:].strip()
            else:
                raise BadIndex("%s: %s scope must be 'in' or 'out: <reason>', got %r" % (where, aid, scope))
            rows[aid] = Article(aid, article, summary, amendments, scope, reason, n)
        if not rows:
            raise BadIndex("%s: no article rows (a table with the columns %s)" % (source, " | ".join(HEADER)))
        return cls(rows, source)

    def resolve(self, aid):
        """(kind, row ids) an id cites: 'row' itself, a 'part' its row's summary labels, a 'group' of
        every row below an article or paragraph; (None, []) for an id the index does not have."""
        if aid in self.rows:
            return "row", [aid]
        if aid in self._parts:
            return "part", [self._parts[aid]]
        under = [r for r in self.rows if r.startswith(aid + ".")]
        if under:
            return "group", under
        return None, []

    def sorted(self, ids):
        """Distinct row ids in the index's order."""
        return sorted(set(ids), key=self.order.get)

    def article_order(self, article):
        """Sort key of an article id, by its first row."""
        return self.order[self.resolve(article)[1][0]]

    def span(self, first, last):
        """Every row from the first row `first` cites to the last row `last` cites, in index order
        ([] if either is unknown, they are of different games, or the range runs backwards)."""
        a, b = self.resolve(first)[1], self.resolve(last)[1]
        if not a or not b or first.split("-")[0] != last.split("-")[0]:
            return []
        lo, hi = self.order[a[0]], self.order[b[-1]]
        ids = list(self.rows)
        return ids[lo:hi + 1] if lo <= hi else []
