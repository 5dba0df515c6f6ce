"""The service's configure(): a validated configuration change, journalled by the Config object.

Refused while a round is in progress and in tilt; pool parameters of a live progressive wait for the
next hit (CSP-10.3); a change of game that would close a jackpot holding money needs confirm=<code>,
as a RAM clear does (tablectl.service.ramclear): the pool cannot come back. App.config_changed(applied)
rebuilds the controller when keys applied at once.
"""
from tablectl.meters import money
from tablectl.service.context import Report, may_change, running_app
from tablectl.valid import int_in


def configure(confirm=None, **kw):
    from tablectl.app import NO_LOG_REGION, TOO_LARGE
    from tablectl.config import GAMES, POOL_KEYS, limits, shown_all
    app = running_app()
    may_change(app, "configure")
    # a configuration too large for the flash is made smaller in its tilt: a shorter history, the pool changes
    # waiting undone (the round in progress is as it was: its seats and game stay)
    smaller = app.tilt and app.tilt.startswith(TOO_LARGE) and all(k == "history_len" or k in POOL_KEYS for k in kw)
    if app.tilt and not (app.tilt == NO_LOG_REGION and list(kw) == ["log_file_ok"]) and not smaller:
        raise ValueError("configure refused: the controller is in tilt (%s); %s" % (
            app.tilt, "history_len or pool keys only here" if app.tilt.startswith(TOO_LARGE) else "ram_clear() first"))
    pool = app.controller.pool
    game = kw.get("game", app.config["game"])
    if pool is not None and game in GAMES and game != app.config["game"] and pool.pool + pool.reserve:
        from tablectl.service.ramclear import clear_code, confirmed
        expected = clear_code(app, "game " + str(game))
        if not confirmed(confirm, expected):
            raise ValueError("configure refused: game %s closes the %s jackpot (pool %s, reserve %s, which the "
                             "journal keeps as pool_closed; they cannot come back). To confirm: "
                             "service.configure(game=%r, confirm='%s')"
                             % (game, app.config["game"], money(pool.pool), money(pool.reserve), game, expected))
    aside = None  # a table's own pool, set aside while the link's is played (it comes back when unlinked)
    if pool is not None and kw.get("link") and not app.config["link"] and pool.pool + pool.reserve:
        from tablectl.service.ramclear import clear_code, confirmed
        expected = clear_code(app, "link")
        if not confirmed(confirm, expected):
            raise ValueError("configure refused: linking sets this table's own pool %s (reserve %s) aside while "
                             "the link's is played; it comes back when unlinked. To confirm: "
                             "service.configure(link=..., confirm='%s')" % (money(pool.pool), money(pool.reserve),
                                                                             expected))
        aside = (pool.pool, pool.reserve)
    most = app.board.shaker.max_on_ms
    if "shake_ms" in kw:
        # config.validate knows no board: this board's shaker driver stops at its max on-time
        low, high = limits("shake_ms")
        value = kw["shake_ms"]
        if most < high and not int_in(value, low, most):
            raise ValueError("shake_ms: must be an integer %d..%d (this board's shaker max on-time), got %r"
                             % (low, most, value))
    applied, deferred = app.config.change(app.controller.round_no, **kw)
    if aside is not None and "link" in applied:
        app.journal.append("pool_aside", app.controller.round_no, aside[0], aside[1], "link")
    if applied or smaller:
        app.config_changed(applied)
    applied = shown_all(applied)  # a link's password is not shown back
    lines = ["%s = %r (now)" % (k, applied[k]) for k in sorted(applied)]
    lines += ["%s = %r (after the next hit)" % (k, deferred[k]) for k in sorted(deferred)]
    return Report("configure", lines or ["no change"], {"applied": applied, "deferred": deferred})


class Exported(dict):
    """config_export()'s answer: the keys that differ from the defaults, as configure(**exported) takes them
    back; it prints as the configure() line to keep."""

    def __repr__(self):
        return "configure(%s)" % ", ".join("%s=%r" % (k, self[k]) for k in sorted(self))

    __str__ = __repr__


def config_export():
    from tablectl.config import DEFAULTS
    app = running_app()
    if app.config_lost:
        raise ValueError("config_export refused: the configuration record cannot be read (tilt)")
    values = dict(app.config.values)
    values.update(app.config.pending)  # as it will stand: re-applied, a pool change waits for its hit again
    # the link's address holds its password, which is never shown (docs/link.md): configure(link=...) again
    return Exported((k, v) for k, v in values.items() if v != DEFAULTS[k] and k != "link")
