"""The table simulator: the real firmware (.mpy, sim board) on the MicroPython unix port, its REPL on a pty, its table in the browser."""
