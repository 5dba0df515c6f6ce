"""The tilt state: stored state that cannot be trusted stops the table until a technician clears it."""


class TiltController:
    """Stored state that cannot be trusted: show why, refuse every button, wait for the technician
    (service.ram_clear, which is allowed: a tilted table has no round in progress). `game` is the
    configured game, None when the configuration record itself is what cannot be trusted."""

    state = "tilt"

    def __init__(self, app, why, game=None):
        self.app = app
        self.game = game
        self.why = why
        self.round_no = 0
        self.message = why
        self.redraw()

    def redraw(self):
        self.app.board.display.text(0, "TILT: CALL TECH")
        self.app.board.display.text(1, self.why)

    def busy(self):
        return ""  # no round: ram_clear() must be allowed (a reason string like Controller.busy())

    def status(self):
        return {"game": self.game, "state": "tilt", "round": 0, "why": self.why, "busy": False}

    def history(self, n=None):
        return []

    def reason(self, event):
        return self.why  # every button is refused until the technician clears the tilt

    def handle(self, event):
        self.app.board.display.text(1, self.why)
        return False

    def tick(self, now):
        pass
