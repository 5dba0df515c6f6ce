"""Where the qemu board's flash holds what: (byte offset, length) in the machine's PSRAM (mps2.Flash)."""
FS = (0, 1024 * 1024)  # LittleFS, mounted at / by _boot.py: main.py, the firmware manifest, boot.py
RECORDS = (1024 * 1024, 256 * 1024)  # the table's records and journal, a raw block device: board.flash
