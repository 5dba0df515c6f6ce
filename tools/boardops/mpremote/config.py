"""mpremote command macros for servicing a table controller: `mpremote connect PORT status`.

Install: copy this file to mpremote's configuration folder (mpremote reads config.py from there):

    mkdir -p ~/.config/mpremote && cp tools/boardops/mpremote/config.py ~/.config/mpremote/config.py
    (macOS: ~/Library/Application Support/mpremote/; Windows: %APPDATA%\\mpremote\\)

Then, with the board on PORT (a real board's /dev/ttyACM0, or the simulator's build/sim-GAME.pty):

    mpremote connect PORT status          controller state, round, pending configuration
    mpremote connect PORT meters          pool meters with the balance check, table meters, last hits
    mpremote connect PORT history         the last 20 results
    mpremote connect PORT journal         the last 20 journal entries
    mpremote connect PORT config          every configuration key ('*' where not the default)
    mpremote connect PORT selftest        CRC-32 of every firmware file against fwmanifest.json, and no stale code
    mpremote connect PORT lamptest        each lamp alone, then all (refused during a round)
    mpremote connect PORT displaytest     every display segment, then the previous contents
    mpremote connect PORT shakertest      the shaker for the configured time (refused during a round)

Macros chain with `+` like any mpremote command: `mpremote connect PORT status + meters`.
Another count: `mpremote connect PORT resume exec "import service; print(service.journal(100))"`
(mpremote runs a macro's arguments before the macro itself, so before its `resume`: an argument
would soft-reset the board; hence no arguments here).
Every macro starts with `resume`: it talks to the REPL task that runs beside the controller
(aiorepl on a board, simrepl on the simulator) instead of soft-resetting the board, which would
stop the controller. configure() and ram_clear() are left to the REPL on purpose (a person should
type those): `mpremote connect PORT resume exec "import service; print(service.configure(rate_bp=1500))"`.
A refused call prints one line, `REFUSED: <reason>`, and mpremote still exits 0; a script that needs
the failure as an exception (and a non-zero exit) calls tablectl.service instead of service.
"""


def _call(expr):
    return ["resume", "exec", "import service\nprint(service.%s)" % expr]


commands = {
    "status": {"command": _call("status()"), "help": "controller state, round, pending configuration"},
    "meters": {"command": _call("meters()"), "help": "pool and table meters, balance check, last hits"},
    "history": {"command": _call("history(20)"), "help": "the last 20 results"},
    "journal": {"command": _call("journal(20)"), "help": "the last 20 journal entries"},
    "config": {"command": _call("config()"), "help": "the configuration ('*' = not the default)"},
    "selftest": {"command": _call("selftest()"), "help": "firmware files against fwmanifest.json (CRC-32), no unlisted or shadowing code"},
    "lamptest": {"command": _call("lamp_test()"), "help": "every lamp alone, then all together"},
    "displaytest": {"command": _call("display_test()"), "help": "every display segment on"},
    "shakertest": {"command": _call("shaker_test()"), "help": "run the shaker for the configured time"},
}
