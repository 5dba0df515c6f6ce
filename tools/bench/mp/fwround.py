"""The bench session's table and rounds, run on MicroPython: by tools/bench/firmware.py on the 64-bit unix
port and by tools/bench/wasm32.py on the 32-bit webassembly port, so both ports play the same rounds.

    app = open_table(game, root)      # every module the table loads imported first, then the App booted
                                      # (its log on board.sim_flash(root), or on the flash= given)
    play(app, r, timed=None)          # round r: None, or what went wrong
Sic bo / fish-prawn-crab and fan-tan: a void every 7th round; the progressives: seats sensed, lock, a
hit every 10th round, a void every 7th. `timed(event)`, if given, handles the events whose latency is
measured (the dealer's key that sets the lamps).
"""
GAMES = ("sicbo", "fish_prawn_crab", "fantan", "caribbean_stud", "fortune3", "baccarat_a")  # one of each controller
ROUNDS = 200  # a long session: the heap must hold steady over it


def imports(game):
    """Import every module a table of `game` loads: what is in the heap after it is the code."""
    import board
    import tablectl.app, tablectl.config, tablectl.meters, tablectl.journal, tablectl.games.base
    import tablectl.hw.buttons, tablectl.hw.watchdog
    if game in ("sicbo", "fish_prawn_crab"):
        import tablectl.games.dice
    elif game == "fantan":
        import tablectl.games.fantan
    else:
        import tablectl.games.progressive


def open_table(game, root, flash=None):
    import board
    from tablectl.app import App
    from tablectl.config import Config
    from tablectl.storage import Log
    from tablectl.store import Store
    flash = flash or board.sim_flash(root)
    if game != "sicbo":
        Config(Store(Log(flash))).change(0, game=game)
    return App(board.make(virtual_clock=True, flash=flash), root)


def play(app, r, timed=None):
    b, c = app.board, app.controller
    timed = timed or c.handle
    game = app.config["game"]

    def h(*evs):
        for e in evs:
            c.handle(e)

    if game in ("sicbo", "fish_prawn_crab", "fantan"):
        if game == "fantan":
            h("SHAKE", "BELL", str(r % 9 + 1))
        else:
            h("SHAKE")
            b.clock.advance(app.config["shake_ms"])
            app.tick()
            h("BELL", str(r % 6 + 1), str(r // 6 % 6 + 1))
            h(str((r * 5) % 6 + 1))
        timed("ENTER")
        if r % 7 == 6:
            h("VOID_LONG")
        else:
            timed("CONFIRM")
    else:
        for s in range(1, len(b.seats) + 1):
            b.set_seat(s, (r + s) % 3 != 0)
        app.tick()
        timed("LOCK")
        if r % 7 == 6:
            h("VOID_LONG", "ENTER")  # the void's first kind (CSP-11.1, F3-17.1.1, BAC-10)
        elif r % 10 == 9:
            if game[:9] == "baccarat_":  # the coup: 4s 4h 4c 4d, two naturals, every locked seat's
                h("HIT", *"041042043044")
            else:  # a flush and its cards: 2s 4s 6s 8s Ts (Fortune 3: the last two the community's)
                h("HIT", str(c.status()["locked"][0]), "ENTER", "1", "ENTER", *"021041061081101")
            h("ENTER", "CONFIRM")
            while c.state == "paying":
                h("CONFIRM")
        else:
            timed("CONFIRM")
    if c.state not in ("idle", "betting"):
        return "round %d ended in state %s: %s" % (r, c.state, c.message)
    p = getattr(c, "pool", None)
    if p is not None and p.pool + p.reserve + p.paid != p.seeded + p.contributed:
        return "round %d: pool out of balance" % r
    return None
