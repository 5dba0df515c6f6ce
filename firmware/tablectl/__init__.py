"""tablectl: table-controller firmware for Macau table games (sic bo, fish-prawn-crab, fan-tan, progressive jackpot)."""
VERSION = "0.1.0"  # firmware/tablectl/manifest.py freezes with this version

try:
    from micropython import const  # every module takes const from here: one fallback for the host
except ImportError:  # CPython (the host tests and tools import the firmware too)
    def const(x):
        return x
