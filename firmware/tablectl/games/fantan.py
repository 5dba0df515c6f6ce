"""Fan-Tan (58/2004) controller: open betting, bell, the dealer's count, the winning number and areas lit, confirm.

    idle --SHAKE (heap covered, FT-2)--> betting --BELL--> closed --count, ENTER--> result
    result --CONFIRM--> idle (next round)           VOID_LONG from betting/closed/result -> idle

Two fields, never guessed from the digits: COUNT (the whole count of buttons, which the core reduces
four at a time, FT-3.1, FT-3.2) and LEFT (the buttons left at the end, 1..4); CLEAR on an empty field
switches between them. Broken buttons are left out of the count (FT-5.3). A number shown can be
corrected before CONFIRM: CLEAR on the result, the field again, ENTER (journalled 'correct'). The
regulation has no void article: VOID_LONG is for an incident that stops the round (e.g. the cover
knocked over before the count), journalled like a dice void.
"""
from tablectl.games.base import SERVICE, Controller, drop_dice_table
from tablectl.hw.lamps import WIN, PUSH
from tablectl.rules import fantan


class FanTanController(Controller):
    IDLE = "idle"
    # FT-2 gives no figure: the heap is what one metal cover scoops from the pile, a few dozen to about two
    # hundred buttons; 500 leaves room for a heavy hand and refuses a slip like 1234 (a digit too many)
    MAX_COUNT = 500
    LEGEND = (("win", WIN), ("tie: the stake back (FT-8)", PUSH))

    def __init__(self, app):
        Controller.__init__(self, app)
        drop_dice_table()
        self.game = "fantan"
        self.lamp_of = self.wire(fantan.SPOTS)
        self.number = 0
        self.field = "count"   # which field the digits go to: 'count' or 'left' (not saved)
        self.fixing = False    # CLEAR on a shown number: a new entry replaces it (not saved)

    def field_text(self):
        if self.field == "left":
            return "LEFT 1-4: " + (self.entry or "_")
        return "COUNT: " + (self.entry or "_")

    def prompt(self):
        st = self.state
        if st == "idle":
            return "ROUND %d" % self.round_no, "COVER THEN SHAKE"
        if st == "betting":
            return "PLACE BETS", "BELL TO CLOSE"
        if st == "closed":
            return "NO MORE BETS", self.field_text()
        if self.fixing:
            return "WAS NUMBER %d" % self.number, "NEW " + self.field_text()
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
            if st != "closed" and not self.fixing:
                return {"idle": "PRESS SHAKE", "betting": "BELL FIRST"}.get(st, "CONFIRM FIRST")
            if event == "ENTER":
                return self.entry_reason()
            if self.field == "left":  # FT-3.1, FT-3.2: what is left of the last four, 1 to 4
                return "LEFT IS 1 TO 4" if self.entry or not "1" <= event <= "4" else ""
            if not self.entry and event == "0":
                return "COUNT FROM 1"  # FT-3.1: a count of whole buttons, at least one
            return "COUNT 1 TO %d" % self.MAX_COUNT if int(self.entry + event) > self.MAX_COUNT else ""
        if event == "CONFIRM":
            if self.fixing:
                return "ENTER OR CLEAR"  # the correction first: the new entry, or CLEAR to keep the old
            return "" if st == "result" else "NO RESULT YET"
        if event == "VOID_LONG":
            return "NOTHING TO VOID" if st == "idle" else ""
        return Controller.reason(self, event)

    def on_shake(self):
        return self.open_betting()  # FT-4: bets only after the heap is covered

    on_bell = Controller.close_betting  # FT-4: the bell stops betting

    def entry_reason(self):
        if not self.entry:
            return "TYPE 1 TO 4" if self.field == "left" else "ENTER THE COUNT"
        if self.fixing and self.typed()[0] == self.number:
            return "NUMBER UNCHANGED"
        return ""

    def typed(self):
        """(number, count) of the entry: a count from 1 (reason) has a number (FT-3.1, FT-3.2)."""
        n = int(self.entry)
        return (n, 0) if self.field == "left" else (fantan.result_from_count(n), n)

    def on_digit(self, d):
        return self.type_digit(d)

    def on_clear(self):
        # CLEAR on an empty field: closed, the other field; a shown number, its correction in the
        # count field, then the left field, then back to the number as it was
        if not self.entry:
            if self.state == "closed" or self.fixing and self.field == "count":
                self.field = "left" if self.field == "count" else "count"
            elif self.state == "result":
                self.fixing = not self.fixing
                self.field = "count"
        self.entry = ""
        return self.accepted()

    def on_enter(self):
        number, count = self.typed()
        old = self.number
        self.number = number
        self.field = "count"
        if self.fixing:  # replaced before anything was paid: the journal keeps what it was
            self.fixing = False
            self.set_state("result", "correct", number, old, "number %d was %d" % (number, old))
        else:
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
        self.fixing = False
        self.field = "count"
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
