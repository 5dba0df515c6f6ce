# What a board's stock MicroPython has frozen and the firmware imports: asyncio. The firmware itself is
# not frozen: it comes from the ROMFS image.
include("$(MPY_DIR)/extmod/asyncio")
