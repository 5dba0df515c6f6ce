"""The tilt state: stored state that cannot be trusted stops the table until a technician clears it."""


class TiltController:
    """Stored state that cannot be trusted: show why, refuse every button, wait for the technician
    (service.ram_clear, which is allowed: a tilted table has no round in progress)."""

    game = "tilt"
    state = "tilt"

    def __init__(self, app, why):
        self.app = app
        self.why = why
        self.round_no = 0
        self.message = why
        app.board.display.text(0, "TILT: CALL TECH")
        app.board.display.text(1, why)

    def busy(self):
        return False

    def status(self):
        return {"game": "tilt", "state": "tilt", "round": 0, "why": self.why, "busy": False}

    def history(self, n=None):
        return []

    def handle(self, event):
        self.app.board.display.text(1, self.why)
        return False

    def tick(self, now):
        pass
