"""The fake Pico's machine module (only what mpremote asks of it): reset() ends the process, and
fakepico.py's harness boots a new one on the same terminal, as a board resets."""
import os

asked = False


def unique_id():
    return (os.getenv("FAKEPICO_UID") or "e66038b7137a4d2a").encode()


def reset():
    global asked
    asked = True
