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
    import gc
    from tablectl import app

    changed = app.check_firmware()  # the code against its manifest, before anything else takes the heap
    import board

    # collect when a quarter of what is free has been allocated, not only when the heap is full: a table
    # allocates a little at every key for hours, and early collections leave it less fragmented
    gc.threshold(gc.mem_free() // 4 + gc.mem_alloc())
    # a changed firmware boots into a tilt: FIRMWARE CHANGED; ROOT: where an older firmware's records are
    app.run(board.make(), changed, getattr(board, "ROOT", "/"))
