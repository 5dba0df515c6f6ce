"""The article index, the code and the tests agree: every cited id is indexed, every article in scope
has a test, and the committed traceability matrix is the one `make trace` writes."""
import pytest

import traceability
from traceability import citations
from traceability.index import BadIndex, Index

HEADER = "| id | article | summary | amendments | scope |\n| --- | --- | --- | --- | --- |\n"
TOY = Index.parse(HEADER + "\n".join([
    "| SB-5.1 | Art. 5 | Small. | | in |",
    "| SB-5.2 | Art. 5 | Big. | | in |",
    "| SB-6.1 | Art. 6 | Small pays 1:1. | | in |",
    "| SB-6.2 | Art. 6 | Big pays 1:1. | | in |",
    "| SB-7 | Art. 7 | A triple loses small and big. | | in |",
    "| SB-8 | Art. 8 | Permission. | | out: licensing clause |",
    "| BJ-1 | Art. 1 | Equipment: (.1) a table; (.2) cards. | | in |",
    "| BJ-6.4 | Art. 6 | Hit, except (.1) on 21; (.2) after a double. | | in |",
]), "toy.md")


@pytest.fixture(scope="module")
def matrix():
    return traceability.build()


def test_every_cited_id_is_in_the_index(matrix):
    assert not matrix.errors, "ids the index does not have (fix the citation, or index the article):\n" + \
        "\n".join(matrix.errors)


def test_every_article_in_scope_has_a_test_and_none_out_of_scope_is_tested(matrix):
    problems = [p for p in matrix.problems() if p not in matrix.errors]
    assert not problems, "\n".join(problems)


def test_the_committed_matrix_is_current(matrix):
    path = traceability.ROOT / traceability.MATRIX
    assert path.exists() and path.read_text(encoding="utf-8") == matrix.render(), \
        "%s is out of date: run `%s`" % (traceability.MATRIX, traceability.REGENERATE)


def test_the_counts_add_up(matrix):
    c = matrix.counts()
    assert c["in scope"] + c["out of scope"] == c["articles"] == len(matrix.index.rows)
    assert c["in scope and tested"] == c["in scope"]


def cited(text, index=TOY):
    """[(rows, exact, articles, errors)] of each citation in one line."""
    return [citations.resolve_chain(index, links) for _, links in citations.chains(text)]


def test_ids_in_both_spellings_lists_and_ranges():
    assert cited("# SB-7") == [(["SB-7"], ["SB-7"], [], [])]
    assert cited("def test_x_SB_5_1_SB_7():") == [(["SB-5.1"], ["SB-5.1"], [], []), (["SB-7"], ["SB-7"], [], [])]
    assert cited("SB-5.1/6.1")[0][0] == ["SB-5.1", "SB-6.1"]
    assert cited("(SB-5.2, 6.2)")[0][0] == ["SB-5.2", "SB-6.2"]
    assert cited("SB-5.1-6.2 and")[0][0] == ["SB-5.1", "SB-5.2", "SB-6.1", "SB-6.2"]
    assert cited("SB-5.2–6.1.")[0][0] == ["SB-5.2", "SB-6.1"]
    assert cited("test_SB_5_1_to_SB_6_1_x")[0][0] == ["SB-5.1", "SB-5.2", "SB-6.1"]
    assert cited("SB-6.1, BJ-1.2/6.4")[0][0] == ["SB-6.1", "BJ-1", "BJ-6.4"]  # the game carries along
    # a bare number after ', ' is a count, not an article; after '/' it is an article
    assert cited("SB-7, 3 dice")[0][0] == ["SB-7"] and cited("SB-5/7")[0][2] == ["SB-5"]


def test_parts_groups_and_whole_articles():
    assert cited("BJ-1.2") == [(["BJ-1"], ["BJ-1"], [], [])]       # a part the summary labels (.2)
    assert cited("BJ-6.4.1")[0][:2] == (["BJ-6.4"], ["BJ-6.4"])
    assert cited("SB-6") == [([], [], ["SB-6"], [])]               # a whole article proves no row
    assert cited("SB-5.1-SB-6.2")[0][1] == ["SB-5.1"]              # a range names its first row only
    assert cited("SB-5..SB-6") == [([], [], ["SB-5", "SB-6"], [])]


def test_unknown_ids_and_bad_ranges_are_errors():
    assert cited("SB-9")[0][3] == ["SB-9 is not in the article index"]
    assert cited("BJ-1.3")[0][3] == ["BJ-1.3 is not in the article index"]  # BJ-1 labels (.1) and (.2) only
    assert cited("SB-6.2-5.1")[0][3] == ["SB-6.2 to SB-5.1 is not a range of the index"]
    assert cited("USB-2, ESP32, LEFT-1, A3_2") == []               # not ids


def test_a_test_is_the_test_function_around_the_citation():
    text = '\n'.join([
        '"""Module text (SB-7)."""',
        'def helper():',
        '    return 1  # SB-5.1',
        '@mark(ids=["SB-6.1"])',
        'def test_small_SB_5_1():',
        '    def inner():',
        '        pass  # SB-5.2',
        'class TestBig:',
        '    def test_big(self):',
        '        pass  # SB-6.2',
    ])
    found = [(c.line, c.rows, c.site, c.test) for c in citations.scan_text(TOY, "host_tests/rulebook/test_x.py", text)]
    assert found == [(1, ["SB-7"], "", None), (3, ["SB-5.1"], "helper", None),
                     (4, ["SB-6.1"], "test_small_SB_5_1", "test_small_SB_5_1"),
                     (5, ["SB-5.1"], "test_small_SB_5_1", "test_small_SB_5_1"),
                     (7, ["SB-5.2"], "test_small_SB_5_1.inner", "test_small_SB_5_1"),
                     (10, ["SB-6.2"], "TestBig.test_big", "TestBig.test_big")]
    code = [(c.layer, c.site, c.test) for c in citations.scan_text(TOY, "firmware/tablectl/games/x.py", text)]
    assert code[3] == ("firmware", "test_small_SB_5_1", None)   # a function named test* in code is code


def test_the_matrix_flags_untested_and_wrongly_scoped_rows():
    def scan(path, text):
        return list(citations.scan_text(TOY, path, text))
    cits = scan("tools/rulebook/sicbo.py", "X = 1  # SB-5.1, SB-5.2, SB-6.1, SB-6.2, SB-7, SB-8, BJ-1, BJ-6.4") + \
        scan("host_tests/rulebook/test_s.py", "def test_a_SB_5_1_to_6_2():\n    pass\ndef test_b_SB_8():\n    pass") + \
        scan("host_tests/storage/test_m.py", "# mp-heap: 32K\ndef test_c():\n    pass  # BJ-1.1, SB-99")
    m = traceability.Matrix.build(TOY, cits)
    assert m.errors == ["host_tests/storage/test_m.py:3: BJ-1.1, SB-99: SB-99 is not in the article index"]
    problems = m.problems()[1:]
    assert [p.split(": ")[1].split(" ")[0] for p in problems] == ["SB-7", "SB-8", "BJ-6.4"]
    assert "no test cites it" in problems[0] and "marked out of scope" in problems[1]
    assert m.counts() == {"articles": 8, "in scope": 7, "in scope and tested": 5, "out of scope": 1}
    text = m.render()
    assert "| SB-8 | out: licensing clause |" in text
    assert "`rulebook/test_s.py::test_a_SB_5_1_to_6_2`" in text and "`storage/test_m.py::test_c`" in text
    assert cits[-1].layer == "mp" and cits[0].layer == "rulebook"


@pytest.mark.parametrize("path, text, layer", [
    ("host_tests/storage/test_log.py", "# mp-heap: 64K\n", "mp"),       # runs on MicroPython because it says so
    ("host_tests/rules/test_core_ids.py", "\"\"\"Ids.\"\"\"\n# mp-heap: 8K\n", "mp"),
    ("host_tests/mp/test_old.py", "import os\n", "tests"),              # not because of its folder
    ("host_tests/storage/test_x.py", "x = 1  # mp-heap: 64K\n", "tests"),  # the line, not a comment in one
    ("firmware/tablectl/log.py", "# mp-heap: 64K\n", "firmware"),        # only a test module has a heap line
], ids=["storage", "after-docstring", "mp-folder-without-line", "not-a-line", "firmware"])
def test_a_test_module_is_on_micropython_by_its_heap_line_not_by_its_folder(path, text, layer):
    assert citations.layer_of(path, text) == layer


@pytest.mark.parametrize("row, words", [
    ("| SB-1 | Art. 1 | x | | in | extra |", "6 cells"),
    ("| SB-1 | Art. 1 | x | |", "4 cells"),
    ("| SB 1 | Art. 1 | x | | in |", "not an article id"),
    ("| SB-1 | Art. 1 | x | | maybe |", "scope must be"),
    ("| SB-1 | Art. 1 | x | | out: |", "scope must be"),
    ("| SB-1 | Art. 1 |  | | in |", "summary"),
    ("| SB-7 | Art. 7 | again | | in |", "listed twice"),
])
def test_a_slip_in_the_index_is_refused_with_its_line(row, words):
    with pytest.raises(BadIndex, match=words):
        Index.parse(HEADER + "| SB-7 | Art. 7 | x | | in |\n" + row, "toy.md")
    with pytest.raises(BadIndex, match="no article rows"):
        Index.parse("# nothing here\n", "toy.md")


def test_make_trace_reads_tracked_files_only_an_untracked_stray_changes_nothing(tmp_path):
    """A stray copy in the working tree (untracked) citing an article is not a site; once added to git it is."""
    import subprocess
    (tmp_path / "docs" / "regulations").mkdir(parents=True)
    (tmp_path / "docs" / "regulations" / "articles.md").write_text(
        traceability.INDEX.read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "host_tests").mkdir()
    (tmp_path / "host_tests" / "test_kept.py").write_text("def test_kept_SB_7():\n    pass\n")
    stray = tmp_path / "host_tests" / "test_stray.py"
    stray.write_text("def test_stray_SB_5_1():\n    pass\n")

    def git(*args):
        subprocess.run(["git", "-C", str(tmp_path)] + list(args), check=True, capture_output=True)

    git("init", "-q")
    git("add", "docs", "host_tests/test_kept.py")
    matrix = traceability.build(tmp_path)
    assert matrix.tests_of("SB-7") == {"test_kept.py::test_kept_SB_7"}
    assert matrix.tests_of("SB-5.1") == set()  # the stray is not read
    git("add", "host_tests/test_stray.py")
    assert traceability.build(tmp_path).tests_of("SB-5.1") == {"test_stray.py::test_stray_SB_5_1"}
    stray.unlink()  # tracked, gone from the working tree: nothing to read, no error
    assert traceability.build(tmp_path).tests_of("SB-5.1") == set()


def test_a_folder_that_is_no_git_repository_is_refused_in_one_line(tmp_path):
    (tmp_path / "docs" / "regulations").mkdir(parents=True)
    (tmp_path / "docs" / "regulations" / "articles.md").write_text(HEADER + "| SB-7 | Art. 7 | x | | in |\n")
    with pytest.raises(BadIndex, match="git ls-files"):
        list(citations.text_files(tmp_path))
