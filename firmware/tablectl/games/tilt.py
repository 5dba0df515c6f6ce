"""The tilt state: stored state that cannot be trusted stops the table until a technician clears it."""
from tablectl.games import keeps_contract

# what the display's second line says of a tilt's cause, by the first word found in its full text (the
# technician reads that in service.status(); the dealer only needs to say which kind of trouble it is)
CAUSES = (("SETUP TOO LARGE", "SETUP TOO LARGE"), ("FIRMWARE", "FIRMWARE CHANGED"), ("config", "SETUP DAMAGED"),
          ("journal", "JOURNAL DAMAGED"),
          ("flash", "FLASH DAMAGED"), ("log", "FLASH DAMAGED"), ("record", "RECORD DAMAGED"),
          ("round", "RECORD DAMAGED"))
UNKNOWN = "SEE SERVICE PORT"


def cause(why):
    """The 16-column line for a tilt's full reason."""
    for word, line in CAUSES:
        if word in why:
            return line
    return UNKNOWN


@keeps_contract
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
        self.message = self.line = cause(why)
        self.redraw()

    def redraw(self):
        self.app.board.display.text(0, "TILT: CALL TECH")
        self.app.board.display.text(1, self.line)

    def busy(self):
        return ""  # no round: ram_clear() must be allowed (a reason string like Controller.busy())

    def status(self):
        return {"game": self.game, "state": "tilt", "round": 0, "why": self.why, "busy": False, "shown": self.line}

    def history(self, n=None):
        return []

    def reason(self, event):
        return self.line  # every button is refused until the technician clears the tilt

    def handle(self, event):
        self.app.board.display.text(1, self.line)
        return False

    def tick(self, now):
        pass
