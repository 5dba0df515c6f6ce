"""One simulated table: the link server, the firmware on a pty, the web page; started and stopped together.

    with Simulator('fantan', port=0) as sim:   # port 0: any free port
        sim.url, sim.pty
"""
import pathlib
import time

from sim import web
from sim.board_process import BUILD, ROOT, BoardError, BoardProcess
from sim.locks import folder_lock, link_lock, shown
from sim.hostlink_server import HostLinkServer

from tablectl.rules import GAMES, PROGRESSIVE  # the firmware's own list of games (it imports on CPython)

STATE_ROOT = ROOT / "build" / "simroot"


class PortBusy(BoardError):
    """The page's port is taken; the message says how to choose another."""


class Simulator:
    """`game` is what to run on a folder without records; a folder that has run keeps the game its
    configuration holds (a board boots what its flash says) and `notes` says so when that differs;
    None if that configuration is damaged (the board is in its tilt)."""

    def __init__(self, game, port=8000, state_dir=None, pty_link=None, build=BUILD, heap=None, board=BoardProcess,
                 mp_port=None):
        if game not in GAMES:
            raise ValueError("unknown game %r (games: %s)" % (game, ", ".join(GAMES)))
        self.game = self.requested = game
        self.port = port
        self.state_dir = pathlib.Path(state_dir) if state_dir else STATE_ROOT / game
        self.pty_link = pty_link
        self.build = build
        self.heap = heap
        self.mp_port = mp_port  # the unix port BoardProcess runs (sim.board_process.PORTS; None: its default)
        self.board_process = board  # BoardProcess (the unix port), or tools/sim/mcu.py's McuProcess
        self.notes = []  # lines the user must read: what was not done as asked, and why
        self.locks = []
        self.link = self.board = self.web = None

    def start(self, timeout=20):
        try:
            # first the folder, then the port, and only then the firmware: a refused simulator has
            # touched neither the folder nor the terminal link of the one that runs
            self.locks.append(folder_lock(self.state_dir).acquire())
            if self.pty_link:
                self.locks.append(link_lock(self.pty_link).acquire())
            self._describe(state=shown(self.state_dir))
            self.link = HostLinkServer(inputs_path=self.state_dir / "inputs.json")
            try:
                self.web = web.serve(self.link, self.port)
            except OSError as e:
                raise PortBusy("cannot serve the page on 127.0.0.1:%d: %s (another simulator? choose another "
                               "port: make sim SIM_PORT=8001, or python -m sim --port 8001)"
                               % (self.port, e.strerror or e)) from None
            self._describe(url=self.url)
            kw = {"heap": self.heap} if self.heap else {}
            if self.mp_port:
                kw["port"] = self.mp_port
            self.board = self.board_process(self.state_dir, link=self.link.address, build=self.build,
                                            pty_link=self.pty_link, **kw)
            if getattr(self.board, "note", None):
                self.notes.append(self.board.note)
            how, text = self.board.first_boot(self.requested)
            if how == "game":
                self.game = text
                if text != self.requested:
                    self.notes += self._other_game_notes(text)
            elif how == "tilt":
                self.game = None  # no game runs: the tilt controller only answers the service port
                self.notes.append("%s: its configuration record is damaged (%s): the board boots into its "
                                  "tilt; see service.status() on its terminal" % (shown(self.state_dir), text))
            self.board.start()
            self._describe(pty=shown(self.pty_link) if self.pty_link else self.board.pty)
            # a hello names the game, '' for a tilted table whose configuration is lost
            state = self._await(lambda s: s["connected"] and "game" in s["hello"], timeout, "the board's link")
            if self.game is not None and state["hello"]["game"] != self.game:
                raise BoardError("the board runs %s, its folder's configuration says %s"
                                 % (state["hello"]["game"], self.game))
            self.board.wait_ready(timeout)  # the REPL is up on the terminal (its banner read and dropped)
        except BaseException:
            self.stop()
            raise
        return self

    def _describe(self, **info):
        for lock in self.locks:
            lock.describe(**info)

    def _other_game_notes(self, game):
        folder = shown(self.state_dir)
        closing = ("; closing the %s jackpot asks for the confirmation code it names" % game
                   if game in PROGRESSIVE else "")
        return ["%s holds a %s table (its configuration record says so): running %s, "
                "not %s, so that nothing in it is lost" % (folder, game, game, self.requested),
                "to make it %s again: service.configure(game='%s') between rounds (journalled%s); to start "
                "a fresh %s table: stop, delete %s, start again"
                % (self.requested, self.requested, closing, self.requested, folder)]

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
        while self.locks:
            self.locks.pop().release()  # last: the firmware has stopped writing the folder

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
