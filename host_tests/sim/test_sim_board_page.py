"""The players' board over HTTP: /board served, the board's status carries the controller's own history
(fan-tan's numbers here, voids as voids), the hello the table's language; a correction on the board's
journal through the real firmware on the unix port."""
import json
import time
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

    def key(role, line, hold=0.15):
        """Press, then wait for the display's second line: one key seen before the next (a loaded machine
        may otherwise scan two presses in one poll, in the roles' order)."""
        dealer.press(sim, role, hold)
        dealer.wait_out(sim, lambda out: out["display"][1] == line, timeout=15)

    for keys, count in ((["2", "7"], "27"), (["1", "0"], "10")):  # 27 buttons leave 3, 10 leave 2 (FT-3.1)
        key("SHAKE", "BELL TO CLOSE")
        key("BELL", "COUNT: _")
        key(keys[0], "COUNT: " + keys[0])
        key(keys[1], "COUNT: " + count)
        key("ENTER", "CONFIRM = PAID")
        if count == "10":  # mistyped: corrected to what was left, 1, before CONFIRM
            for role, line in (("CLEAR", "NEW COUNT: _"), ("CLEAR", "NEW LEFT 1-4: _"), ("1", "NEW LEFT 1-4: 1"),
                               ("ENTER", "CONFIRM = PAID")):
                key(role, line)
        key("CONFIRM", "COVER THEN SHAKE")
    key("SHAKE", "BELL TO CLOSE")
    key("VOID", "COVER THEN SHAKE", hold=1.3)
    deadline = time.monotonic() + 15  # the status follows the controller every 250 ms
    while state_of(sim)["status"]["results"] != [[1, 3], [2, 1], [3, "void"]]:
        assert time.monotonic() < deadline, state_of(sim)["status"]
        time.sleep(0.05)
