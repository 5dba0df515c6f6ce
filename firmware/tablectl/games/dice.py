"""Sic Bo (57/2004) and Fish-Prawn-Crab (59/2004) controller: shake, betting, bell, dice entry, lamps, confirm.

    idle --SHAKE--> shaking --(shake_ms elapsed)--> betting --BELL--> closed --3 dice, ENTER--> result
    result --CONFIRM--> idle (next round)            VOID_LONG from shaking/betting/closed/result -> idle

Manual shaker: three presses of the handle (SHAKE or HANDLE) open betting (SB-2.1, FPC-2.1).
A result shown can be corrected before CONFIRM: CLEAR, the three dice again, ENTER (journalled 'correct').
The shaking state is not saved: after a power cut mid-shake the round resumes from idle, shaker off.
"""
from tablectl.games.base import SERVICE, Controller
from tablectl.rules.dice import DiceTable

# FPC-1.1 faces 1..6 as whole words: three different ones fit 16 columns only with at most two of five
# letters, so the rooster is COCK ('ROOSTER PRAWN GOURD' is 19); a pair or a triple is counted ('2 PRAWN
# 1 CRAB', 'TRIPLE CRAB')
FACES = ("FISH", "PRAWN", "GOURD", "COIN", "CRAB", "COCK")


_last = [None, None]  # (options, DiceTable): a rebuilt controller with the same options reuses it


def table_for(game, pay_5_16, pay_6_15, odd_even):
    """The core's outcome table for these options (SB-6.6 pays, SB-7 option); the last one is kept,
    since it is the biggest object the firmware holds and a reboot or reconfigure rebuilds the controller."""
    key = (game, pay_5_16, pay_6_15, odd_even)
    if _last[0] != key:
        _last[0] = _last[1] = None  # free the old table before building the new one
        if game == "sicbo":
            _last[1] = DiceTable("sicbo", pay_5_16=pay_5_16, pay_6_15=pay_6_15, odd_even_lose_on_triple=odd_even)
        else:
            _last[1] = DiceTable("fish_prawn_crab")
        _last[0] = key
    return _last[1]


def forget():
    """Give back the kept table (another game's controller is built: tablectl.games.base.drop_dice_table)."""
    _last[0] = _last[1] = None


def faces_text(dice):
    """Fish-prawn-crab dice as words on 16 columns: 'FISH PRAWN CRAB', '2 PRAWN 1 CRAB', 'TRIPLE CRAB'."""
    a, b, c = sorted(dice)
    if a == c:
        return "TRIPLE " + FACES[a - 1]
    if a == b or b == c:
        pair, one = (a, c) if a == b else (c, a)
        return "2 %s 1 %s" % (FACES[pair - 1], FACES[one - 1])
    return " ".join(FACES[d - 1] for d in dice)


class DiceController(Controller):
    IDLE = "idle"

    def __init__(self, app):
        Controller.__init__(self, app)
        cfg = self.cfg
        self.game = cfg["game"]
        self.table = table_for(self.game, cfg["pay_5_16"], cfg["pay_6_15"], cfg["odd_even_lose_on_triple"])
        self.lamp_of = self.wire(self.table.spots)
        self.dice = ()            # the result entered this round
        self.handle_presses = 0   # manual shaker: presses so far (not saved)
        self.wins = b""
        self.fixing = False       # CLEAR on a shown result: the dice typed again replace it (not saved)

    def status(self):
        st = Controller.status(self)
        if self.game == "sicbo":  # SB-7 names only small and big as losing on a triple (docs/technicians.md)
            st["odd_even_on_triple"] = ("lose (the layout rule)" if self.cfg["odd_even_lose_on_triple"]
                                        else "win (SB-7 read literally: 0% house edge)")
        return st

    def electric(self):
        return self.cfg["shaker"] == "electric"

    # -- states ------------------------------------------------------------------------------
    def prompt(self):
        st = self.state
        if st == "idle":
            if self.electric():
                return "ROUND %d" % self.round_no, "PRESS SHAKE"
            return "ROUND %d" % self.round_no, "HANDLE %d/3" % self.handle_presses
        if st == "shaking":
            return "SHAKING", "ROUND %d" % self.round_no
        if st == "betting":
            return "PLACE BETS", "BELL TO CLOSE"
        typed = " ".join(self.entry + "_" * (3 - len(self.entry)))
        if st == "closed":
            return "NO MORE BETS", "DICE " + typed
        if self.fixing:
            return "WAS " + " ".join(str(d) for d in self.dice), "NEW DICE " + typed
        return self.result_text(self.dice), "CONFIRM = PAID"

    def result_text(self, dice):
        if self.game == "fish_prawn_crab":
            return faces_text(dice)
        a, b, c = dice
        total = a + b + c
        if a == b == c:
            return "%d %d %d TRIPLE" % (a, b, c)  # SB-7: small and big both lose
        return "%d %d %d=%d %s" % (a, b, c, total, "SMALL" if total <= 10 else "BIG")

    # -- events ------------------------------------------------------------------------------
    def reason(self, event):
        st = self.state
        if event in ("SHAKE", "HANDLE"):
            if st != "idle":
                return "ROUND IN PLAY"
            if self.app.key_on():
                return SERVICE  # no round starts while a technician may be changing the table
            if self.electric() and not self.board.shaker.cover_closed():
                return "COVER UNCLIPPED"  # SB-2.1: the cover is clipped to the base before the shake
            return ""
        if event == "BELL":
            return "" if st == "betting" else "NOT BETTING"  # SB-3.1
        if (len(event) == 1 and "0" <= event <= "9") or event == "ENTER":
            if st != "closed" and not self.fixing:
                return {"idle": "SHAKE FIRST", "shaking": "SHAKING", "betting": "BELL FIRST"}.get(st, "CONFIRM FIRST")
            if event == "ENTER":
                if len(self.entry) != 3:
                    return "ENTER 3 DICE"
                return "SAME DICE AS WAS" if self.fixing and self.typed() == self.dice else ""
            if event < "1" or event > "6":
                return "A DIE IS 1-6"  # SB-1.1
            return "3 DICE ENTERED" if len(self.entry) >= 3 else ""
        if event == "CONFIRM":
            if self.fixing:
                return "ENTER OR CLEAR"  # the correction first: the new dice, or CLEAR to keep the old
            return "" if st == "result" else "NO RESULT YET"
        if event == "VOID_LONG":
            return "NOTHING TO VOID" if st == "idle" else ""
        return Controller.reason(self, event)

    def on_shake(self):
        if not self.electric():
            self.handle_presses += 1  # SB-2.1: the handle pressed three times in succession
            if self.handle_presses < 3:
                return self.accepted()
            self.handle_presses = 0
            return self.open_betting()
        try:
            self.board.shaker.on(min(self.cfg["shake_ms"], self.board.shaker.max_on_ms))
        except ValueError as e:  # the driver is the last word on its pin
            return self.refuse(str(e).upper()[:16])
        self.state = "shaking"  # not saved: a cut here leaves the round at idle, the shaker off
        self.message = ""
        self.redraw()
        return True

    on_handle = on_shake

    def tick(self, now):
        Controller.tick(self, now)
        if self.state == "shaking" and not self.board.shaker.service(now):
            if self.board.shaker.interrupted:  # the cover came off: the dice were not shaken (SB-2.1)
                self.state = "idle"
                self.redraw()
                self.refuse("SHAKE STOPPED")
                return
            self.open_betting()

    on_bell = Controller.close_betting  # SB-3.1: the bell closes betting

    def on_digit(self, d):
        return self.type_digit(d)

    def typed(self):
        return (ord(self.entry[0]) - 48, ord(self.entry[1]) - 48, ord(self.entry[2]) - 48)

    def on_clear(self):
        # CLEAR on a shown result starts its correction; on an empty correction it keeps the result
        if self.state == "result" and not self.entry:
            self.fixing = not self.fixing
        self.entry = ""
        return self.accepted()

    def on_enter(self):
        dice = self.typed()
        wins = self.table.resolve(dice[0], dice[1], dice[2])  # SB-5..7 / FPC-5..7: the core decides
        old = self.dice
        self.dice = dice
        self.wins = wins
        code = dice[0] * 100 + dice[1] * 10 + dice[2]
        if self.fixing:  # the result replaced before anything was paid: the journal keeps what it was
            self.fixing = False
            self.set_state("result", "correct", code, old[0] * 100 + old[1] * 10 + old[2],
                           "dice %d%d%d was %d%d%d" % (dice + old))
        else:
            self.set_state("result", "result", code, len(wins) // 2)
        self.show_wins()
        return True

    def show_wins(self):
        lamps = self.board.lamps
        lamps.clear()
        wins = self.wins  # (spot, pays) pairs as bytes: every other byte is a spot index
        self.light(wins[k] for k in range(0, len(wins), 2))  # SB-3.2: the winning areas lit on the lamp board
        lamps.show()

    def on_confirm(self):
        self.remember(self.dice)
        self.lamps_off()  # SB-4: payouts done before the dome is covered again
        self.dice = ()
        self.wins = b""
        return self.finish_round("confirm", False)

    def on_void_long(self):
        # SB-3.3 / FPC-3.3: stacked or leaning dice void the round; another is played at once
        self.board.shaker.off()
        self.betting_lamp(False)
        self.lamps_off()
        self.dice = ()
        self.wins = b""
        self.handle_presses = 0
        self.fixing = False
        return self.finish_round("void", True)

    # -- persistence -------------------------------------------------------------------------
    def extra(self, rec):
        rec["dice"] = list(self.dice)

    def restore(self, rec):
        Controller.restore(self, rec)
        if self.state == "shaking":
            self.state = "idle"
        self.dice = tuple(rec.get("dice", ()))
        self.betting_lamp(self.state == "betting")
        if self.state == "result":
            self.wins = self.table.resolve(self.dice[0], self.dice[1], self.dice[2])
            self.show_wins()
        else:
            self.lamps_off()
        if self.state == "closed":  # the dice typed before the cut were not saved
            self.notice("POWER RESTORED", "RETYPE THE DICE")
