"""tools/mutate.toml's equivalent survivors against the code and docs/mutation.md: each names a line its module
still holds (where `after` says, after that line), so that make mutate's excuse cannot outlive the code it
was written for, and each is a row of docs/mutation.md's table, and every row one of them."""
import pathlib
import tomllib

ROOT = pathlib.Path(__file__).resolve().parents[2]
HEAD = "| module | operator | line | why it is equivalent |\n| --- | --- | --- | --- |\n"


def equivalents():
    return tomllib.loads((ROOT / "tools" / "mutate.toml").read_text())["equivalent"]


def row(e):
    return "| %s | %s | `%s` | %s |" % (e["path"], e["operator"].split("/", 1)[1], e["line"], " ".join(e["why"].split()))


def test_each_equivalent_names_a_line_its_module_holds():
    stale = []
    for e in equivalents():
        lines = [text.strip() for text in (ROOT / e["path"]).read_text().splitlines()]
        at = [i for i, text in enumerate(lines) if text == e["line"] and e.get("after", lines[i - 1]) == lines[i - 1]]
        if not at:
            stale.append("%s: %s" % (e["path"], e["line"]))
    assert not stale, stale


def test_the_docs_table_of_equivalents_is_tools_mutate_toml_s():
    text = (ROOT / "docs" / "mutation.md").read_text()
    start = text.index(HEAD) + len(HEAD)
    table = text[start:text.index("\n\n", start)].splitlines()
    want = [row(e) for e in equivalents()]
    assert [r for r in want if r not in table] == [] and [r for r in table if r not in want] == []
