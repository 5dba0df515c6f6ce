"""A fresh dice or fan-tan table brought to a state of its first round, through handle() (both runtimes)."""
from harness.tables import drive


def to_betting(app):
    drive(app, "SHAKE")
    app.board.clock.advance(app.config["shake_ms"])
    app.tick()


def dice_to_state(app, state):
    """Bring a fresh dice App to `state` of round 1 (result: dice 4 5 6)."""
    if state == "idle":
        return
    if state == "shaking":
        drive(app, "SHAKE")
        return
    to_betting(app)
    if state == "betting":
        return
    drive(app, "BELL")
    if state == "closed":
        return
    drive(app, "4", "5", "6", "ENTER")


def fantan_to_state(app, state):
    if state == "idle":
        return
    drive(app, "SHAKE")
    if state == "betting":
        return
    drive(app, "BELL")
    if state == "closed":
        return
    drive(app, "2", "7", "ENTER")  # 27 buttons: 27 = 6 * 4 + 3 -> number 3
