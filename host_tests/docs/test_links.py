"""The documents are self-contained: every relative link in README.md and docs/ resolves (file and
heading), every docs/ path the code names exists, and nothing points outside the repository."""
import pathlib
import re

from traceability.citations import text_files

ROOT = pathlib.Path(__file__).resolve().parents[2]
TEXT = (".py", ".md", ".js", ".html", ".css", ".csv", ".txt", ".mk", ".h", ".c", ".json", ".mjs", "Makefile")
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.M | re.S)
CODE_SPAN = re.compile(r"`[^`\n]*`")
# paths of the team's working folder beside the repository, which a clone does not have (its name held
# apart so that this file names no path into it)
TEAM_FOLDER = "shared"
OUTSIDE = re.compile(r"\.\./%s|/work/%s|spec/(?:articles|games)\.md|DESIGN\.md" % (TEAM_FOLDER, TEAM_FOLDER))
DOCS_PATH = re.compile(r"(?<![\w/.-])docs/[\w./-]*[\w/]")


def documents():
    return [ROOT / "README.md"] + sorted((ROOT / "docs").rglob("*.md"))


def repository_files():
    """The repository's text files (not the venv, build output or this module, whose examples are bad)."""
    return [path for _, path in text_files(ROOT, TEXT) if path != pathlib.Path(__file__)]


def slug(heading):
    """The anchor a Markdown renderer gives a heading: lower case, punctuation dropped, spaces to '-'."""
    text = CODE_SPAN.sub(lambda m: m.group(0)[1:-1], heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path):
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    return {slug(m.group(1)) for m in re.finditer(r"^#{1,6}\s+(.*)$", text, re.M)}


def links(path):
    """(line number, target) of every Markdown link outside code."""
    text = path.read_text(encoding="utf-8")
    text = FENCE.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    text = CODE_SPAN.sub("``", text)
    for m in LINK.finditer(text):
        yield text.count("\n", 0, m.start()) + 1, m.group(1)


def broken(path, target):
    """Why a link from `path` does not resolve, or None."""
    if re.match(r"[a-z][a-z0-9+.-]*:", target):
        return None  # a web address
    file_part, _, fragment = target.partition("#")
    dest = (path.parent / file_part).resolve() if file_part else path
    if ROOT not in dest.parents and dest != ROOT:
        return "points outside the repository"
    if not dest.exists():
        return "no such file"
    if fragment and dest.suffix == ".md" and fragment not in anchors(dest):
        return "no heading #%s in %s" % (fragment, dest.relative_to(ROOT))
    return None


def test_every_relative_link_in_the_documents_resolves():
    bad = []
    for doc in documents():
        for line, target in links(doc):
            why = broken(doc, target)
            if why:
                bad.append("%s:%d: %s: %s" % (doc.relative_to(ROOT), line, target, why))
    assert not bad, "\n".join(bad)


def test_the_readme_is_short_and_links_every_guide():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 150
    linked = {(ROOT / t.partition("#")[0]).resolve() for _, t in links(ROOT / "README.md")}
    guides = {p.resolve() for p in (ROOT / "docs").glob("*.md")}
    assert not guides - linked, "guides the README does not link: %s" % sorted(
        str(p.relative_to(ROOT)) for p in guides - linked)


def test_every_docs_path_the_repository_names_exists():
    bad = []
    for path in repository_files():
        for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            for m in DOCS_PATH.finditer(line):
                if not (ROOT / m.group(0).rstrip(".")).exists():
                    bad.append("%s:%d: %s" % (path.relative_to(ROOT), n, m.group(0)))
    assert not bad, "\n".join(bad)


def test_nothing_points_into_the_team_folder_beside_the_repository():
    bad = ["%s:%d: %s" % (path.relative_to(ROOT), n, line.strip())
           for path in repository_files()
           for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1)
           if OUTSIDE.search(line)]
    assert not bad, "\n".join(bad)


def test_the_link_checker_catches_what_it_must():
    # the checks above are only as good as these helpers: each failure kind is seen on a real file
    readme = ROOT / "README.md"
    assert broken(readme, "docs/no-such-guide.md") == "no such file"
    assert broken(readme, "../outside.md") == "points outside the repository"
    assert broken(readme, "docs/technicians.md#no-such-heading").startswith("no heading")
    assert broken(readme, "docs/technicians.md#flashing-a-board") is None
    assert broken(readme, "https://example.org/x") is None
    assert slug("A board with a 64 KB heap: the code in `ROMFS`") == "a-board-with-a-64-kb-heap-the-code-in-romfs"
    assert OUTSIDE.search("see ../%s/notes.md" % TEAM_FOLDER) and not OUTSIDE.search("docs/regulations/articles.md")
