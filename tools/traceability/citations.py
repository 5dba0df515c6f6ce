"""Article ids cited in the repository: where each citation is, which index rows it names, and in
which layer and function (or test) it sits.

    for c in scan(index):
        c.path, c.line, c.text      where it is, and the citation as written
        c.rows, c.exact, c.articles the rows it cites, those it names one by one, the whole articles it names
        c.errors                    what in it is not in the index
        c.layer, c.site, c.test     its layer (LAYERS), function and, in a test module, test

A citation is an id in a comment, a docstring, a string or a test name, in either spelling:
`BAC-9.3.2` or `BAC_9_3_2`. A chain keeps the game of the id before: `SB-5.4/6.4`, `BJ-16.6, 17.3`,
`BAC_13_2_2_and_13_2_3` list ids; `SB-6.1-6.13`, `FT-7.1.1–7.2`, `BAC-17.6..17.12` and
`SB_6_1_to_6_13` are ranges over the index's rows. After ', ' or ' and ' only a dotted number
(`17.3`) continues a chain, since a bare one is more often a count than an article.
"""
import ast
import pathlib
import re
import subprocess

from .index import GAMES, ROOT, BadIndex

GAME = "(?:%s)" % "|".join(GAMES)
NUM = r"\d+(?:[._](?:\d+|[ABC](?![A-Za-z])))*"
HEAD = re.compile(r"(?<![A-Za-z0-9])(%s)[-_](%s)" % (GAME, NUM))
CONT = re.compile(r"(/|, | and |_and_|_to_| to |–|-|\.\.)(?:(%s)[-_])?(%s)" % (GAME, NUM))
RANGE_SEPS = ("-", "–", "..", "_to_", " to ")

# (layer key, title, path prefixes); the first match wins, so the narrower prefixes come first
LAYERS = (
    ("rulebook", "rulebook", ("tools/rulebook/",)),
    ("core", "rules core", ("firmware/tablectl/rules/",)),
    ("firmware", "firmware controller", ("firmware/", "boards/")),
    ("tools", "other tools", ("tools/",)),
    ("mp", "tests on MicroPython", ()),  # a test module with a '# mp-heap:' line, wherever it is (layer_of)
    ("tests", "tests on CPython", ("host_tests/",)),
    ("docs", "documents", ("docs/", "README.md")),
)
TEST_LAYERS = ("tests", "mp")
SCANNED = (".py", ".js", ".html", ".md")
SKIP_DIRS = {".git", ".venv", "build", "node_modules", "__pycache__", ".pytest_cache"}
# not scanned: the generated matrix, and this package and its test, whose examples are not citations
NOT_SCANNED = ("docs/regulations/traceability.md", "tools/traceability/", "host_tests/docs/test_traceability.py")


class Citation:
    def __init__(self, path, line, text, cited, layer, site, test):
        self.path, self.line, self.text = path, line, text
        self.rows, self.exact, self.articles, self.errors = cited
        self.layer, self.site, self.test = layer, site, test


# the line by which a test module runs on the unix port too (host_tests/README.md)
MP_HEAP = re.compile(r"^# mp-heap:", re.M)


def layer_of(rel, text=""):
    for key, _, prefixes in LAYERS:
        if any(rel == p or rel.startswith(p) for p in prefixes):
            return "mp" if key == "tests" and MP_HEAP.search(text) else key
    return None


def dotted(num):
    return num.replace("_", ".")


def chains(line):
    """(text, [(separator, game, number)]) of each citation chain in a line; the first separator is ''."""
    pos = 0
    while True:
        m = HEAD.search(line, pos)
        if not m:
            return
        game, links, end = m.group(1), [("", m.group(1), dotted(m.group(2)))], m.end()
        while True:
            c = CONT.match(line, end)
            if not c:
                break
            sep, prefix, num = c.group(1), c.group(2), dotted(c.group(3))
            if sep in (", ", " and ") and not prefix and "." not in num:
                break
            game = prefix or game
            links.append((sep, game, num))
            end = c.end()
        yield line[m.start():end], links
        pos = end


def article_of(aid):
    """'SB-6.6' -> 'SB-6'."""
    return aid.split(".", 1)[0]


def resolve_chain(index, links):
    """(rows, exact, articles, errors) of one chain: every row it cites, those it names as a row or a
    part of one (not through a range or a group), the whole articles it names, its errors. An id of a
    whole article (`CSP-8`, `FT-6..FT-9`) names the article, not its rows: it is too coarse to say that
    a test proves any one of them. An id of a part of an article (`F3-16.1`, `BAC-9.3`) cites every row
    under it."""
    rows, exact, articles, errors = [], [], [], []
    previous = None
    for sep, game, num in links:
        aid = "%s-%s" % (game, num)
        kind, found = index.resolve(aid)
        if kind is None:
            errors.append("%s is not in the article index" % aid)
        elif sep in RANGE_SEPS and previous:
            span = index.span(previous, aid)
            if not span:
                errors.append("%s to %s is not a range of the index" % (previous, aid))
            elif "." in previous or "." in num:
                rows.extend(span)
            else:
                articles.extend(article_of(r) for r in span)
        elif kind == "group" and "." not in num:
            articles.append(aid)
        else:
            rows.extend(found)
            if kind != "group":
                exact.extend(found)
        previous = aid if kind else None
    return index.sorted(rows), index.sorted(exact), sorted(set(articles), key=index.article_order), errors


def python_sites(source):
    """[(first line, last line, qualified name, test name or None)] of every def and class, outermost
    first; a test is the outermost function named test* (or a class Test*'s method test*)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    sites = []

    def visit(node, names, test):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                qual = names + [child.name]
                own = test
                if own is None and child.name.startswith("test") and not isinstance(child, ast.ClassDef):
                    own = ".".join(qual)
                first = min([child.lineno] + [d.lineno for d in child.decorator_list])
                sites.append((first, child.end_lineno, ".".join(qual), own))
                visit(child, qual, own)
            else:
                visit(child, names, test)

    visit(tree, [], None)
    return sites


def site_at(sites, line):
    """(qualified name, test) of the innermost def/class holding a line; ('', None) at module level."""
    best = ("", None)
    for first, last, qual, test in sites:
        if first <= line <= last:
            best = (qual, test)  # sites are outermost first, so the last match is the innermost
    return best


def tracked(root=ROOT):
    """The files git tracks under `root` (relative posix paths, sorted): what is committed or added, never
    a stray file of the working tree (an untracked copy citing an article would change the matrix)."""
    try:
        proc = subprocess.run(["git", "-C", str(root), "ls-files", "-z", "--full-name", "."],
                              capture_output=True, text=True, check=False)
    except OSError as e:
        raise BadIndex("cannot run git to list the tracked files: %s" % e)
    if proc.returncode:
        raise BadIndex("git ls-files in %s: %s" % (root, proc.stderr.strip().splitlines()[-1:] or proc.returncode))
    top = subprocess.run(["git", "-C", str(root), "rev-parse", "--show-prefix"], capture_output=True,
                         text=True, check=True).stdout.strip()  # root's own place in the repository
    return sorted(rel[len(top):] for rel in proc.stdout.split("\0") if rel and rel.startswith(top))


def text_files(root=ROOT, suffixes=SCANNED):
    """(relative posix path, path) of the tracked files with those suffixes (a file git still tracks but
    the working tree lacks aside), in path order, without the venv, build output and caches."""
    for rel in tracked(root):
        parts = rel.split("/")
        path = pathlib.Path(root, *parts)
        if SKIP_DIRS.intersection(parts[:-1]) or not path.is_file():
            continue
        if path.suffix in suffixes or parts[-1] in suffixes:
            yield rel, path


def repository_files(root=ROOT):
    for rel, path in text_files(root):
        if layer_of(rel) and not rel.startswith(NOT_SCANNED):
            yield rel, path


def scan_text(index, rel, text):
    layer = layer_of(rel, text)
    sites = python_sites(text) if rel.endswith(".py") else []
    is_test_file = layer in TEST_LAYERS and pathlib.PurePosixPath(rel).name.startswith("test_")
    for n, line in enumerate(text.splitlines(), 1):
        for chain_text, links in chains(line):
            qual, test = site_at(sites, n)
            yield Citation(rel, n, chain_text, resolve_chain(index, links), layer, qual,
                           test if is_test_file else None)


def scan(index, root=ROOT):
    """Every citation in the repository's code, tests and documents, in path and line order."""
    for rel, path in repository_files(root):
        yield from scan_text(index, rel, path.read_text(encoding="utf-8", errors="replace"))
