"""A service call lets go of the module it loaded (on MicroPython, where a module's code sits in the heap):
a linked table's 256 KB in the simulator has no 27 KB to keep every call's module between calls."""
# mp-heap: 400K
import gc
import json
import sys

from harness.tables import cleanup, drive, new_app
from harness.progressive import seats
from tablectl import service
from tablectl.service import context

LINK = "mqtt://t07:S3cretPassw0rd@127.0.0.1:1883/pit1"
PARTS = ("reports", "settings", "ramclear", "shifts")
MICROPYTHON = sys.implementation.name == "micropython"


def answer(c, body):
    c.on_message(b"tablectl/pit1/table/t07/answer", json.dumps(body).encode())


def linked_after(rounds):
    """A linked Caribbean Stud table (no network: the server's answers handed to it) after `rounds` rounds of
    seven seats on the link, as the docs' walkthrough plays them."""
    app = new_app("caribbean_stud", link=LINK)
    c = app.controller
    c.task = "this test"  # stands for the connection task
    answer(c, {"beat": 1, "pool": 25000000, "ver": 1})
    seats(app, 1, 2, 3, 4, 5, 6, 7)
    ver = 2
    for _ in range(rounds):
        assert drive(app, "LOCK") == [True], c.message
        answer(c, {"seq": c.out[-1][0], "pool": 25000000 + 3500 * ver, "ver": ver})
        ver += 1
        assert drive(app, "CONFIRM") == [True] and c.state == "betting", (c.state, c.message)
    context.use(app)
    return app


def loaded():
    return [p for p in PARTS if "tablectl.service." + p in sys.modules]


def test_each_report_on_a_linked_table_leaves_no_module_behind_and_the_heap_as_it_was():
    app = linked_after(30)
    try:
        before = loaded()
        # a first pass interns the reports' names for good (the unix port's qstr pools, allocated KBs at a time
        # as their count crosses a line): what a call may not keep is measured over the second
        for _ in range(2):
            gc.collect()
            kept = gc.mem_alloc() if MICROPYTHON else 0
            for call in (lambda: service.journal(35), service.status, service.meters, service.config,
                         lambda: service.history(20), lambda: service.journal(10, from_seq=1)):
                report = call()
                shown = []  # a line at a time, as the boards' REPL shows a report
                report.emit(lambda s: shown.append("S3cretPassw0rd" in s))
                assert report.lines and not any(shown), report.title
                del report, shown
            assert service.journal(35).title.startswith("journal (last 35 of ")
        gc.collect()
        if MICROPYTHON:
            assert loaded() == before == [], loaded()
            # the reports module alone holds ~10 KB of code on the 64-bit port; what is left is the allocator's
            assert gc.mem_alloc() - kept < 2048, gc.mem_alloc() - kept
    finally:
        context.use(None)
        cleanup()


def test_a_refused_call_lets_go_too_and_a_module_someone_else_loaded_stays_loaded():
    app = linked_after(1)
    try:
        try:
            service.configure(rate_bp=1500)  # the service key is off: refused inside settings
            raise AssertionError("configure with the key off was not refused")
        except ValueError as e:
            assert "service key is off" in str(e), e
        if MICROPYTHON:
            assert "tablectl.service.settings" not in sys.modules
        from tablectl.service import reports  # held here: the call must not take it away
        assert service.history(5).lines
        assert sys.modules["tablectl.service.reports"] is reports and service.reports is reports
    finally:
        sys.modules.pop("tablectl.service.reports", None)
        context.use(None)
        cleanup()
