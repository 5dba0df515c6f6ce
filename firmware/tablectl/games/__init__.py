"""One asyncio-driven state machine per controller: dice (sic bo, fish-prawn-crab), fan-tan, progressive jackpot."""


class Contract:
    """What the service and the App may ask of every controller, a tilted table's too: games.base.Controller
    and games.tilt.TiltController keep it (keeps_contract). Besides these: state, busy(), status(), history(n),
    reason(event), handle(event), tick(now), redraw()."""

    game = None     # the game it plays (None: a tilt whose configuration is what cannot be trusted)
    round_no = 0
    pool = None     # the progressive's Pool (tablectl.rules.pool; a linked table's LinkPool)
    figures = None  # a linked table's last pool message from the server (tablectl.link): None on any other

    def electric(self):
        """The table has an electric shaker (SB-2.1, FPC-2.1: only the dice games)."""
        return False

    def redraw_digits(self):
        """The jackpot digits were overwritten (service.display_test): draw them afresh."""


DEFAULTS = ("game", "round_no", "pool", "figures", "electric", "redraw_digits")  # Contract's own names


def keeps_contract(cls):
    """cls given Contract's defaults it does not define itself. Copied, not inherited: a progressive
    controller has properties, so MicroPython looks every attribute it stores up in each class of its
    chain first, and one class more cost a Caribbean Stud void's ENTER 49,000 instructions on the Pico's
    instruction set (tools/bench/qemu.py)."""
    for name in DEFAULTS:
        if not hasattr(cls, name):
            setattr(cls, name, getattr(Contract, name))
    return cls
