# The firmware as frozen into a MicroPython image: every board's freeze manifest (boards/*/manifest.py)
# includes this one, then adds its board.py and what its port does not freeze already. main.py is not
# frozen: a board runs it from its filesystem. The firmware's version is said here, once.
metadata(description="tablectl table-controller firmware", version="0.1.0")
package("tablectl")
module("service.py")
