"""Board entry point: load the board's wiring, resume the saved state and run the selected controller."""
import board
from tablectl import app

app.run(board.make(), getattr(board, "ROOT", "/"))
