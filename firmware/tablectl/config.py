"""Table configuration: every key with its type and allowed range, validation, and pool changes held until the next hit.

Module API
    DEFAULTS          dict of every key and its default
    GAMES             the selectable games
    PROGRESSIVE       the progressive (jackpot) games
    POOL_KEYS         keys that are pool parameters (bet_cents, rate_bp, seed_cents, limit_cents,
                      six_of_a_kind_bp, fixed_<class>)
    validate(cfg)     -> a new dict: DEFAULTS overlaid with cfg, every key checked; ValueError naming
                      the key and the allowed range/choices. Never modifies cfg.
    pool_params(cfg)  -> the Pool keyword arguments of the selected progressive game (award kinds
                      from tablectl.rules.awards, amounts fixed_<class> from cfg); ValueError otherwise.
    keys_for(game)    -> the keys a table of that game reads, sorted; limits(key) -> (lo, hi) of an int key
    placeholders(cfg) -> the fixed amounts of its progressive game still at a demo amount (DEMO)

Config object (App.config): the effective values plus the pool changes waiting for the next hit.
    cfg = Config(store, journal)   # loads record 'config' (Tilt if it is corrupt or invalid)
    cfg['game'], cfg.get('seats'), cfg.values (a dict, treat as read-only), cfg.pending (dict),
    cfg.pool_params() (the pool of the effective values; pending ones are not in it),
    cfg.pool_params(after=True) (the pool once the pending changes apply)
    cfg.outbox: a linked table's outbox bytes at most (tablectl.bound.outbox), set when boot checks the configuration
    cfg.change(round_no, **kw) -> (applied, deferred): validates everything first (ValueError and
        nothing changes), then applies the keys that may change now, keeps pool-parameter changes of
        a live progressive in `pending`, saves record 'config' once and journals every change
        ('config' applied now, 'cfg_pending' deferred; text "key old->new"), in one frame of the log.
    cfg.apply_pending(round_no) -> dict applied: the controllers call this right after the record
        of a settled hit is saved (the awards are posted on the table, CSP-10.3, so they must not
        change under a running jackpot cycle); it journals 'cfg_applied' per key and saves. The
        caller first builds its new Pool (Pool.from_state(cfg.pool_params(after=True), pool.state(),
        overflow=True): a limit lowered below the pool moves the excess to the reserve), calls this
        only if that succeeded (else the change stays pending: config and pool never disagree), then
        saves the new pool, all inside the log.atomic() block that saves the settled hit: one frame,
        so a power cut leaves the hit unsettled and the change pending, or both done.
A pool parameter is deferred when the game stays the same progressive game (its pool is live);
switching game, or any change on a dice/fan-tan table, applies at once (no pool is running).

The fixed amounts are 0 until the technician sets the approved ones (BAC-17.13), except on a board with
demo amounts (a virtual board's demo_amounts module); cents below 2**30 everywhere.
"""
from tablectl.rules import DICE, GAMES, PROGRESSIVE, SEATS
from tablectl.rules import MAX_CENTS as MONEY_MAX
from tablectl.store import Tilt
from tablectl.valid import int_in

DEFAULTS = {
    "game": "sicbo",
    "shaker": "electric",  # SB-2.1: electric shaker, or the handle pressed three times ('manual')
    "shake_ms": 3000,
    "pay_5_16": 18,  # SB-6.6: 18..30
    "pay_6_15": 14,  # SB-6.6: 14..18
    "odd_even_lose_on_triple": False,  # SB-7 names only big/small; True is the common layout rule
    "seats": SEATS,
    "history_len": 20,
    "bet_cents": 2500,
    "rate_bp": 2000,
    "seed_cents": 25000000,
    "limit_cents": 200000000,
    # BAC-17.11 does not state the percentage for jackpot C six of a kind (Interpretation: 10%)
    "six_of_a_kind_bp": 1000,
    "fixed_flush": 125000,
    "fixed_full_house": 187500,
    "fixed_four_of_a_kind": 250000,
    "fixed_straight_flush": 2500000,
    "fixed_royal_flush": 25000000,
    "fixed_one_pair": 50000,
    "fixed_three_of_a_kind": 250000,
    "fixed_two_pairs": 100000,
    "fixed_paradise_straight": 2500000,
    # B and C placeholders in the order BAC-13.1.4.4 ranks the classes: two threes above four above three
    "fixed_three": 50000,
    "fixed_four": 250000,
    "fixed_two_threes": 500000,
    # BAC-17.9: jackpot B's five of a kind is a fixed amount the house posts, like every fixed class (never
    # 0 on a table of that game: validate); BAC-17.12 gives jackpot C's none, so C has a key of its own,
    # 0 unless the house chooses to pay one (the rulebook's c_five_of_a_kind_cents): a hit of a class that
    # pays nothing is refused at the keypad
    "fixed_five_of_a_kind": 1000000,
    "fixed_c_five_of_a_kind": 0,
    "fixed_six_of_a_kind": 10000000,
    # a hit whose award is this much or more takes its cards (as every award out of the pool does)
    "hit_cards_cents": 100000,
    # a top award (the whole pool) is confirmed by a second person: the service key turned ('key'), a
    # supervisor code typed on the keypad ('code', supervisor_code), or no one ('none')
    "supervisor": "key",
    "supervisor_code": 0,
    # the linked progressive (tablectl.link, docs/link.md): '' keeps the pool on this table alone; else
    # mqtt://TABLE:PASSWORD@HOST:PORT/LINK (mqtts:// for TLS): the broker, this table's account (its user
    # name is the table id) and the link it feeds
    "link": "",
    "link_down_ms": 3000,  # no heartbeat answered for this long: LINK DOWN, progressive bets refused
    # the language the players' and the dealer's pages show first (the other beside it where room allows);
    # the 16x2 display has no Chinese glyphs and stays English
    "language": "zh-Hant",
    # a board whose build leaves no raw flash region keeps the log in a file on LittleFS, which wears the
    # flash out in weeks: it tilts NO LOG REGION unless the technician accepts that here
    "log_file_ok": False,
}

# BAC-17.13: the fixed amounts a table pays are the ones the DICJ approved, which only the technician knows.
# Those above are demo amounts, shipped only by a virtual board (its module demo_amounts: the sim and
# qemu boards), and status() names them until they are changed; a real board ships 0, so a progressive
# game cannot be configured until the technician sets its amounts (validate).
DEMO = dict((k, v) for k, v in DEFAULTS.items() if k.startswith("fixed_") and v)
try:
    from demo_amounts import AMOUNTS as _DEMO_BOARD
except ImportError:
    _DEMO_BOARD = False
if not _DEMO_BOARD:
    for _k in DEMO:
        DEFAULTS[_k] = 0

# key -> ('int', lo, hi) | ('bool',) | ('choice', choices)
_SPEC = {
    "game": ("choice", GAMES),
    "shaker": ("choice", ("electric", "manual")),
    "shake_ms": ("int", 1000, 10000),
    "pay_5_16": ("int", 18, 30),
    "pay_6_15": ("int", 14, 18),
    "odd_even_lose_on_triple": ("bool",),
    "seats": ("int", 1, SEATS),
    "history_len": ("int", 1, 50),
    "bet_cents": ("int", 1, MONEY_MAX),
    "rate_bp": ("int", 1, 10000),
    "seed_cents": ("int", 0, MONEY_MAX),
    "limit_cents": ("int", 1, MONEY_MAX),
    "six_of_a_kind_bp": ("int", 0, 10000),
    "hit_cards_cents": ("int", 0, MONEY_MAX),
    "supervisor": ("choice", ("key", "code", "none")),
    "supervisor_code": ("int", 0, 999999),
    "link": ("link",),
    "link_down_ms": ("int", 1000, 60000),
    "language": ("choice", ("zh-Hant", "en")),
    "log_file_ok": ("bool",),
}
for _k in DEFAULTS:
    if _k.startswith("fixed_"):
        _SPEC[_k] = ("int", 0, MONEY_MAX)

# the keys a record's bound depends on beyond a few digits (tablectl.bound): a change of any other leaves
# the records within the bound they were accepted with (an int's ten digits, a bool, a choice)
_SHAPE = ("game", "seats", "history_len", "link")

POOL_KEYS = tuple(sorted(k for k in DEFAULTS if k.startswith("fixed_"))) + (
    "bet_cents", "rate_bp", "seed_cents", "limit_cents", "six_of_a_kind_bp")


def _check(key, value):
    spec = _SPEC[key]
    if spec[0] == "choice":
        if value not in spec[1]:
            raise ValueError("%s: %r is not one of %s" % (key, value, ", ".join(spec[1])))
    elif spec[0] == "bool":
        if value is not True and value is not False:
            raise ValueError("%s: must be True or False, got %r" % (key, value))
    elif spec[0] == "link":
        if value != "":
            from tablectl.linkaddr import link_parts  # a linked table loads it anyway; others never do
            link_parts(value)
    else:
        if not int_in(value, spec[1], spec[2]):
            raise ValueError("%s: must be an integer %d..%d, got %r" % (key, spec[1], spec[2], value))


def validate(cfg, posted=True):
    """DEFAULTS overlaid with dict `cfg`, every key checked; ValueError naming the key otherwise.
    posted=False skips the rule that every fixed award of the selected game has its amount: a record
    saved by an older firmware (whose default was 0) must still load, and a change is then refused
    until the technician posts the amount (service.status says so)."""
    if not isinstance(cfg, dict):
        raise ValueError("configuration must be a dict, got %s" % type(cfg).__name__)
    out = dict(DEFAULTS)
    for key in cfg:
        if key not in _SPEC:
            game = cfg.get("game")
            game = game if game in GAMES else DEFAULTS["game"]
            raise ValueError("unknown configuration key %r (%s's keys: %s; config(all=True) shows every game's)"
                             % (key, game, ", ".join(keys_for(game))))
        _check(key, cfg[key])
        out[key] = cfg[key]
    if out["seed_cents"] > out["limit_cents"]:
        raise ValueError("seed_cents: %d is above limit_cents %d" % (out["seed_cents"], out["limit_cents"]))
    if out["game"] == "fish_prawn_crab":
        # FPC-6.10 fixes totals 5/16 at 18:1 and 6/15 at 14:1 (no range as SB-6.6 has); no odd/even bet
        if out["pay_5_16"] != 18 or out["pay_6_15"] != 14:
            raise ValueError("pay_5_16/pay_6_15: fish_prawn_crab pays 18 and 14 (FPC-6.10), got %d and %d"
                             % (out["pay_5_16"], out["pay_6_15"]))
        if out["odd_even_lose_on_triple"]:
            raise ValueError("odd_even_lose_on_triple: fish_prawn_crab has no odd/even bets (FPC-5)")
    if out["supervisor"] == "code" and out["supervisor_code"] < 1000:
        raise ValueError("supervisor_code: 'code' needs a code of 4 to 6 digits (1000..999999), got %d"
                         % out["supervisor_code"])
    if out["link"] and out["game"] not in PROGRESSIVE:
        raise ValueError("link: only a progressive game joins a link, not %s" % out["game"])
    if posted and out["game"] in PROGRESSIVE:
        from tablectl.rules import awards  # only progressive tables need the award tables in RAM
        table = awards.table(out["game"])[1]
        for cls in sorted(table):
            # CSP-10.2.3-10.2.5, F3-16.3, BAC-17.8/17.9/17.12: a fixed award is an amount the casino posts;
            # 0 would leave a hand the regulation pays with no award
            if table[cls][0] == "fixed" and not out["fixed_" + cls]:
                raise ValueError("fixed_%s: %s pays %s a fixed amount the casino posts: 1..%d, got 0"
                                 % (cls, out["game"], cls, MONEY_MAX))
    return out


def _fixed_keys(game):
    """{class id: the key of its fixed amount} for the progressive `game`."""
    from tablectl.rules import awards  # only progressive tables need the award tables in RAM

    keys = {}
    table = awards.table(game)[1]
    for cls in table:
        # the whole-pool awards of baccarat have no fixed part (BAC-17.6, BAC-17.10); the poker
        # royal is max(fixed, pool) (CSP-10.2.1, F3-16.3.1)
        if table[cls][0] != "pool" or game in ("caribbean_stud", "fortune3"):
            keys[cls] = "fixed_c_" + cls if table[cls][0] == "none" else "fixed_" + cls
    return keys


def pool_params(cfg):
    """Pool keyword arguments (tablectl.rules.awards.config_for) for the progressive game selected in
    validated `cfg`: the fixed amounts posted on the table (CSP-10.3) and C's six-of-a-kind percentage."""
    from tablectl.rules import awards

    game = cfg["game"]
    if game not in PROGRESSIVE:
        raise ValueError("game %s has no progressive pool" % game)
    keys = _fixed_keys(game)
    fixed = dict((cls, cfg[keys[cls]]) for cls in keys)
    pct = {"six_of_a_kind": cfg["six_of_a_kind_bp"]} if game == "baccarat_c" else None
    return awards.config_for(game, cfg["seed_cents"], cfg["rate_bp"], cfg["limit_cents"], fixed, pct)


def keys_for(game):
    """The keys a table of `game` reads, sorted (service.config() shows these): a key named below only
    for the games given, a fixed amount for the classes of its game, any other key for every game."""
    only = (("shaker", DICE), ("shake_ms", DICE), ("pay_5_16", ("sicbo",)), ("pay_6_15", ("sicbo",)),
            ("odd_even_lose_on_triple", ("sicbo",)), ("seats", PROGRESSIVE), ("bet_cents", PROGRESSIVE),
            ("rate_bp", PROGRESSIVE), ("seed_cents", PROGRESSIVE), ("limit_cents", PROGRESSIVE),
            ("six_of_a_kind_bp", ("baccarat_c",)), ("link", PROGRESSIVE), ("link_down_ms", PROGRESSIVE),
            ("hit_cards_cents", PROGRESSIVE), ("supervisor", PROGRESSIVE), ("supervisor_code", PROGRESSIVE))
    fixed = _fixed_keys(game).values() if game in PROGRESSIVE else ()
    out = []
    for key in DEFAULTS:
        games = [g for k, g in only if k == key]
        if key in fixed or (not key.startswith("fixed_") and (not games or game in games[0])):
            out.append(key)
    return sorted(out)


def placeholders(cfg):
    """The fixed-amount keys of validated `cfg`'s progressive game still at a demo amount (DEMO), sorted:
    BAC-17.13 wants the amounts the DICJ approved, so service.status() names these until they are set."""
    if cfg["game"] not in PROGRESSIVE:
        return []
    return sorted(k for k in _fixed_keys(cfg["game"]).values() if k in DEMO and cfg[k] == DEMO[k])


def limits(key):
    """(lowest, highest) of an integer key."""
    spec = _SPEC[key]
    if spec[0] != "int":
        raise ValueError("%s is not an integer key" % key)
    return spec[1], spec[2]


def shown(key, value):
    """A value as a journal, a report or an answer shows it: a link's password never (`***`), the rest
    of the link as it is (the table, the broker, the link id); a supervisor's code never either."""
    if key == "supervisor_code":
        return "***" if value else value
    if key != "link" or not value:
        return value
    head, at, where = value.rpartition("@")
    scheme, sep, account = head.partition("://")
    return "%s://%s:***@%s" % (scheme, account.partition(":")[0], where) if at and sep else "***"


def shown_all(values):
    out = dict(values)
    if "link" in out:
        out["link"] = shown("link", out["link"])
    return out


class Config:
    """The effective configuration and the pool changes waiting for the next hit (see module docstring)."""

    RECORD = "config"

    def __init__(self, store=None, journal=None, initial=None):
        self.store = store
        self.journal = journal
        self.outbox = 0  # a linked table's outbox bytes at most (tablectl.link): set when the configuration is checked
        rec = store.peek(self.RECORD) if store is not None else None
        # a new table (no configuration, an empty journal): its first change is the factory set-up, not a
        # reconfiguration (after a RAM clear that reset the configuration the journal says what went before)
        self.factory = rec is None and journal is not None and journal.seq == 0
        if rec is None:
            self.values = validate(initial or {})
            self.pending = {}
        else:
            try:
                v = rec["v"]
                if v.get("game") == "baccarat_c" and "fixed_c_five_of_a_kind" not in v:
                    # saved before C's five of a kind had its own key: it was paid from B's, keep paying it
                    v = dict(v, fixed_c_five_of_a_kind=v.get("fixed_five_of_a_kind", 0))
                self.values = validate(v, False)
                self.pending = dict(rec.get("p", {}))
                validate(_overlay(self.values, self.pending), False)
                for key in self.pending:
                    if key not in POOL_KEYS:
                        raise ValueError("%s: not a pool parameter" % key)
            except (KeyError, TypeError, ValueError) as e:
                raise Tilt("record 'config' holds an invalid configuration (%s)" % e)
            # the same configuration, read as this firmware reads it: one copy in the heap, not two
            store.adopt(self.RECORD, {"v": self.values, "p": self.pending})

    def __getitem__(self, key):
        return self.values[key]

    def __contains__(self, key):
        return key in self.values

    def get(self, key, default=None):
        return self.values.get(key, default)

    def attention(self):
        """'' or why the configuration, once the pending changes apply, breaks a rule a record saved by
        an older firmware could load past (a fixed award with no posted amount): what to configure."""
        try:
            validate(_overlay(self.values, self.pending))
        except ValueError as e:
            return str(e)
        return ""

    def _bound(self, values, pending):
        """'' or why this flash cannot hold the records of `values` at their largest (tablectl.bound)."""
        if self.store is None:
            return ""
        before, after = _overlay(self.values, self.pending), _overlay(values, pending)
        for key in _SHAPE:
            if before[key] != after[key] or self.store.peek(self.RECORD) is None:
                break
        else:  # the records' shape is as accepted: the module (and the holes it leaves in the heap) not loaded
            for key in pending:  # unless a pool change more waits for a hit: its settlement's frame grows
                if key not in self.pending:
                    break
            else:
                return ""
        return self._check(values, pending)

    def _check(self, values, pending, hint=False):
        import sys
        from tablectl import bound
        geometry = self.store.geometry()
        why = bound.check(values, pending, *geometry)
        # the way out: the longest history that fits, else the pool changes waiting undone (at boot; at a change,
        # for the outbox's and the checkpoint's room, which no single key of the change names)
        if why and (hint or "outbox" in why or "checkpoint" in why):
            v = dict(values)
            way = "configure the pool changes waiting back to their values (service.config() shows them)"
            if not pending:  # a progressive on a ring too small for its checkpoint: no history fits
                way = "no history_len fits this flash log: ram_clear(code, keep_config=False)"
            for n in range(values["history_len"] - 1, 0, -1):
                v["history_len"] = n
                if not bound.check(v, pending, *geometry):
                    way = "configure(history_len=%d)" % n
                    break
            else:
                if not hint:  # the tilt takes history_len and the pool keys; a change may take seats
                    way = "no history_len nor fewer seats fits this flash log"
                    v["history_len"] = values["history_len"]
                    for n in range(values["seats"] - 1, 0, -1):
                        v["seats"] = n
                        if not bound.check(v, pending, *geometry):
                            way = "configure(seats=%d)" % n
                            break
            why += "; " + way
        if not why:
            self.outbox = bound.outbox(values, pending, geometry[0])
        sys.modules.pop("tablectl.bound", None)  # needed only while a configuration is accepted
        import tablectl
        if "bound" in tablectl.__dict__:
            delattr(tablectl, "bound")
        return why

    def oversize(self):
        """'' or, in one line with the way out, why this flash cannot hold the saved configuration's records or a
        step's frame at their largest (one an older firmware accepted): the table must not start a round that
        could not finish (App tilts, and configure() may make it smaller there). Sets `outbox`, a linked
        table's cap (tablectl.bound.outbox)."""
        if self.store is None or self.store.peek(self.RECORD) is None:
            return ""
        return self._check(self.values, self.pending, True)

    def _save(self, values, pending, whole=True):
        if self.store is not None:  # whole: after damage to the log, a later copy stands alone
            self.store.save(self.RECORD, {"v": values, "p": pending}, full=whole)

    def _atomic(self):
        """The save and its journal entries in one frame of the flash log (nothing to join without one)."""
        return self.store.atomic() if self.store is not None else _Nothing()

    def _log(self, event, round_no, key, old, new):
        if self.journal is not None:  # credentials are write-only: the journal says they changed
            was, now = shown(key, old), shown(key, new)
            if self.factory:  # a new table's first configuration: no earlier value was ever in force
                self.journal.append("factory_setup", round_no, text="%s %r" % (key, now))
            elif was == now:
                self.journal.append(event, round_no, text="%s password changed" % key)
            else:
                self.journal.append(event, round_no, text="%s %r->%r" % (key, was, now))

    def pool_params(self, after=False):
        return pool_params(_overlay(self.values, self.pending) if after else self.values)

    def change(self, round_no=0, **kw):
        """Apply/defer the changes in kw; returns (applied, deferred) dicts. ValueError changes nothing."""
        if not kw:
            raise ValueError("nothing to change; %s's keys: %s" % (self.values["game"],
                                                                   ", ".join(keys_for(self.values["game"]))))
        validate(_overlay(_overlay(self.values, self.pending), kw))  # the state after the next hit
        game = kw.get("game", self.values["game"])
        live = game in PROGRESSIVE and game == self.values["game"]
        if live:
            values = validate(_overlay(self.values, dict((k, kw[k]) for k in kw if k not in POOL_KEYS)), False)
            pending = _overlay(self.pending, dict((k, kw[k]) for k in kw if k in POOL_KEYS))
        else:  # no pool is running: everything, earlier pending changes too, applies now
            values = validate(_overlay(_overlay(self.values, self.pending), kw))
            pending = {}
        for key in list(pending):
            if pending[key] == values[key]:
                del pending[key]
        # the set-up only while nothing at all is in the journal (a table that booted has its defaults in force)
        self.factory = self.factory and self.journal is not None and self.journal.seq == 0
        old_values, old_pending = self.values, self.pending
        if values == old_values and pending == old_pending:
            return {}, {}
        why = self._bound(values, pending)  # every record at its largest fits the flash, or nothing is written
        if why:
            raise ValueError(why)
        applied = {}
        deferred = {}
        with self._atomic():  # the change and its journal entries are written together or not at all
            self._save(values, pending)
            for key in sorted(values):
                if values[key] != old_values[key]:
                    applied[key] = values[key]
                    self._log("config", round_no, key, old_values[key], values[key])
            for key in sorted(pending):
                if old_pending.get(key) != pending[key]:
                    deferred[key] = pending[key]
                    self._log("cfg_pending", round_no, key, values[key], pending[key])
            for key in sorted(old_pending):
                if key not in pending and key not in applied:
                    self._log("cfg_pending", round_no, key, old_pending[key], values[key])
        self.values, self.pending = values, pending
        self.factory = False
        return applied, deferred

    def apply_pending(self, round_no=0):
        """After a hit has been settled: make the pending pool changes effective; returns them."""
        if not self.pending:
            return {}
        applied = dict(self.pending)
        old = self.values
        values = validate(_overlay(self.values, applied), False)  # the whole change was checked at change()
        with self._atomic():
            # the changed keys alone: this rides in the frame of a settled hit (tablectl.bound.steps), where the
            # whole record (1.1 KB at its largest) beside seven seats' awards would not fit a 4 KB block's frame
            self._save(values, {}, False)
            for key in sorted(applied):
                self._log("cfg_applied", round_no, key, old[key], applied[key])
        self.values, self.pending = values, {}
        return applied


class _Nothing:
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False


def _overlay(base, extra):
    out = dict(base)
    out.update(extra)
    return out
