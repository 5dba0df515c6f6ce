"""One simulated table: the link server, the firmware on a pty, the web page; started and stopped together.

    with Simulator('fantan', port=0) as sim:   # port 0: any free port
        sim.url, sim.pty
"""
import pathlib
import time

from sim import web
from sim.board_process import BUILD, ROOT, BoardError, BoardProcess
from sim.link_server import LinkServer

GAMES = ("sicbo", "fish_prawn_crab", "fantan", "caribbean_stud", "fortune3",
         "baccarat_a", "baccarat_b", "baccarat_c")
STATE_ROOT = ROOT / "build" / "simroot"


class Simulator:
    def __init__(self, game, port=8000, state_dir=None, pty_link=None, build=BUILD, heap=None):
        if game not in GAMES:
            raise ValueError("unknown game %r (games: %s)" % (game, ", ".join(GAMES)))
        self.game = game
        self.port = port
        self.state_dir = pathlib.Path(state_dir) if state_dir else STATE_ROOT / game
        self.pty_link = pty_link
        self.build = build
        self.heap = heap
        self.link = self.board = self.web = None

    def start(self, timeout=20):
        try:
            self.link = LinkServer()
            kw = {"heap": self.heap} if self.heap else {}
            self.board = BoardProcess(self.state_dir, link=self.link.address, build=self.build,
                                      pty_link=self.pty_link, **kw)
            self.board.first_boot(self.game)
            self.board.start()
            self._await(lambda s: s["connected"] and s["hello"], timeout, "the board's link")
            self.board.wait_ready(timeout)  # the REPL is up on the terminal (its banner read and dropped)
            # a fresh state folder starts as the firmware's default game: select ours the technician's way
            self.link.send("game " + self.game)
            self._await(lambda s: s["hello"].get("game") == self.game or s["errors"], timeout, "the game")
            state = self.link.snapshot()[1]
            if state["hello"].get("game") != self.game:
                raise BoardError("the board refused game %s: %s" % (self.game, state["errors"][-1:]))
            try:
                self.web = web.serve(self.link, self.port)
            except OSError as e:
                raise BoardError("cannot serve the page on 127.0.0.1:%d: %s (another simulator? choose "
                                 "another port with --port)" % (self.port, e.strerror or e))
        except BaseException:
            self.stop()
            raise
        return self

    def _await(self, ok, timeout, what):
        deadline = time.monotonic() + timeout
        version, state = self.link.snapshot()
        while not ok(state):
            if not self.board.alive():
                raise BoardError("the firmware exited while waiting for %s:\n%s" % (what, self.board.log_tail()))
            if time.monotonic() > deadline:
                raise BoardError("no %s within %d s:\n%s" % (what, timeout, self.board.log_tail()))
            self.link.wait(version, 0.2)
            version, state = self.link.snapshot()
        return state

    @property
    def url(self):
        host, port = self.web.server_address[:2]
        return "http://%s:%d/" % (host, port)

    @property
    def pty(self):
        return self.board.pty

    def stop(self):
        if self.web is not None:
            web.stop(self.web)
            self.web = None
        if self.board is not None:
            self.board.stop()
        if self.link is not None:
            self.link.close()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
