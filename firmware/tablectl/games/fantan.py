"""Fan-Tan (58/2004) controller: open betting, bell, the dealer's count, the winning number and areas lit, confirm.

    idle --SHAKE (heap covered, FT-2)--> betting --BELL--> closed --count, ENTER--> result
    result --CONFIRM--> idle (next round)           VOID_LONG from betting/closed/result -> idle

The dealer types either the remainder (1..4) or the whole count of buttons; the core reduces a count
four at a time (FT-3.1, FT-3.2), so both give the same number. Broken buttons are left out of the
count (FT-5.3). The regulation has no void article: VOID_LONG is for an incident that stops the round
(e.g. the cover knocked over before the count), journalled like a dice void.
"""
from tablectl.games.base import Controller
from tablectl.hw.lamps import WIN, PUSH
from tablectl.rules import fantan


class FanTanController(Controller):
    IDLE = "idle"
    MAX_ENTRY = 4  # a heap of up to 9999 buttons

    def __init__(self, app):
        Controller.__init__(self, app)
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

    def on_shake(self):
        if self.state != "idle":
            return self.refuse("ROUND IN PLAY")
        return self.open_betting()  # FT-4: bets only after the heap is covered

    on_bell = Controller.close_betting  # FT-4: the bell stops betting

    def on_digit(self, d):
        if self.state != "closed":
            return self.refuse({"idle": "PRESS SHAKE", "betting": "BELL FIRST"}.get(self.state, "CONFIRM FIRST"))
        if not self.entry and d == "0":
            return self.refuse("COUNT FROM 1")
        return self.type_digit(d)

    def on_enter(self):
        if self.state != "closed":
            return self.refuse("NO COUNT YET")
        if not self.entry:
            return self.refuse("ENTER THE COUNT")
        count = int(self.entry)
        try:
            number = fantan.result_from_count(count)  # FT-3.1, FT-3.2
        except ValueError:
            return self.refuse("BAD COUNT")
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
        if self.state != "result":
            return self.refuse("NO RESULT YET")
        self.remember(self.number)
        self.lamps_off()
        self.number = 0
        return self.finish_round("confirm", False)

    def on_void_long(self):
        if self.state == "idle":
            return self.refuse("NOTHING TO VOID")
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
