"""The players' board over HTTP: /board served, the board's status carries the controller's own history
(fan-tan's numbers here, voids as voids), the hello the table's language; a correction on the board's
journal through the real firmware on the unix port."""
import json
import urllib.request


def state_of(sim):
    with urllib.request.urlopen(sim.url + "state", timeout=10) as r:
        return json.loads(r.read())


def test_board_page_and_the_history_it_reads_FT_5_1(start_sim, dealer):
    sim = start_sim("fantan")
    with urllib.request.urlopen(sim.url + "board", timeout=10) as r:
        page = r.read()
    assert b"board.js" in page and b"words.js" in page
    assert state_of(sim)["hello"]["language"] == "zh-Hant"  # the default: Chinese first
    for keys in (["2", "7"], ["1", "0"]):  # 27 buttons leave 3, 10 leave 2 (FT-3.1, FT-3.2)
        for role in ["SHAKE", "BELL"] + keys + ["ENTER"]:
            dealer.press(sim, role)
        dealer.wait_state(sim, "result")
        if keys == ["1", "0"]:  # mistyped: corrected to what was left, 1, before CONFIRM
            for role in ("CLEAR", "CLEAR", "1", "ENTER"):
                dealer.press(sim, role)
        dealer.press(sim, "CONFIRM")
        dealer.wait_state(sim, "idle")
    dealer.press(sim, "SHAKE")
    dealer.wait_state(sim, "betting")
    dealer.press(sim, "VOID", hold=1.3)
    dealer.wait_state(sim, "idle")
    assert state_of(sim)["status"]["results"] == [[1, 3], [2, 1], [3, "void"]]
