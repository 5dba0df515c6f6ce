"""Fan-Tan (58/2004) controller: open betting, bell, the dealer's count, the winning number and areas lit, confirm.

    idle --SHAKE (heap covered, FT-2)--> betting --BELL--> closed --count, ENTER--> result
    result --CONFIRM--> idle (next round)           VOID_LONG from betting/closed/result -> idle

The dealer types either the remainder (1..4) or the whole count of buttons; the core reduces a count
four at a time (FT-3.1, FT-3.2), so both give the same number. Broken buttons are left out of the
count (FT-5.3). The regulation has no void article: VOID_LONG is for an incident that stops the round
(e.g. the cover knocked over before the count), journalled like a dice void.
"""
from tablectl.games.base import SERVICE, Controller, drop_dice_table
from tablectl.hw.lamps import WIN, PUSH
from tablectl.rules import fantan


class FanTanController(Controller):
    IDLE = "idle"
    MAX_ENTRY = 4  # a heap of up to 9999 buttons
    LEGEND = (("win", WIN), ("tie: the stake back (FT-8)", PUSH))

    def __init__(self, app):
        Controller.__init__(self, app)
        drop_dice_table()
        self.game = "fantan"
        self.lamp_of = self.wire(fantan.SPOTS)
        self.number = 0

    def prompt(self):
        st = self.state
        if st == "idle":
            return "ROUND %d" % self.round_no, "COVER THEN SHAKE"
        if st == "betting":
            return "PLACE BETS", "BELL TO CLOSE"
        if st == "closed":
            return "NO MORE BETS", "COUNT " + (self.entry or "_")
        return "NUMBER %d" % self.number, "CONFIRM = PAID"

    def reason(self, event):
        st = self.state
        if event == "SHAKE":
            if st == "idle" and self.app.key_on():
                return SERVICE  # no round starts while a technician may be changing the table
            return "" if st == "idle" else "ROUND IN PLAY"  # FT-4: bets only after the heap is covered
        if event == "BELL":
            return "" if st == "betting" else "NOT BETTING"  # FT-4: the bell stops betting
        if (len(event) == 1 and "0" <= event <= "9") or event == "ENTER":
            if st != "closed":
                return {"idle": "PRESS SHAKE", "betting": "BELL FIRST"}.get(st, "CONFIRM FIRST")
            if event == "ENTER":
                return "" if self.entry else "ENTER THE COUNT"
            if not self.entry and event == "0":
                return "COUNT FROM 1"  # FT-3.1: a count of whole buttons, at least one
            return "%d DIGITS MAX" % self.MAX_ENTRY if len(self.entry) >= self.MAX_ENTRY else ""
        if event == "CONFIRM":
            return "" if st == "result" else "NO RESULT YET"
        if event == "VOID_LONG":
            return "NOTHING TO VOID" if st == "idle" else ""
        return Controller.reason(self, event)

    def on_shake(self):
        return self.open_betting()  # FT-4: bets only after the heap is covered

    on_bell = Controller.close_betting  # FT-4: the bell stops betting

    def on_digit(self, d):
        return self.type_digit(d)

    def on_enter(self):
        count = int(self.entry)
        number = fantan.result_from_count(count)  # FT-3.1, FT-3.2: a count from 1 (reason) has a number
        self.number = number
        self.set_state("result", "result", number, count)
        self.show_number()
        return True

    def show_number(self):
        wins, pushes = fantan.resolve(self.number)
        lamps = self.board.lamps
        lamps.clear()
        self.light(wins, WIN)     # FT-5.2: the winning number lit on the layout
        self.light(pushes, PUSH)  # FT-8: ties (nim, nga) shown where the lamps have colour
        lamps.show()

    def on_confirm(self):
        self.remember(self.number)
        self.lamps_off()
        self.number = 0
        return self.finish_round("confirm", False)

    def on_void_long(self):
        self.betting_lamp(False)
        self.lamps_off()
        self.number = 0
        return self.finish_round("void", True)

    def extra(self, rec):
        rec["number"] = self.number

    def restore(self, rec):
        Controller.restore(self, rec)
        self.number = rec.get("number", 0)
        self.betting_lamp(self.state == "betting")
        if self.state == "result":
            self.show_number()
        else:
            self.lamps_off()
        if self.state == "closed":  # the count typed before the cut was not saved
            self.notice("POWER RESTORED", "RETYPE THE COUNT")
