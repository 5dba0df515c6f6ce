"""Board entry point: load the board's wiring, resume the saved state and run the selected controller."""
import os


def deploying():
    # `make deploy ROMFS=1` is rewriting the ROMFS image the firmware runs from: nothing may start from it
    try:
        os.stat("deploying")
        return True
    except OSError:
        return False


if deploying():
    print("tablectl: not started, a ROMFS deploy is in progress (it removes the file 'deploying')")
else:
    import board
    from tablectl import app

    app.run(board.make())
