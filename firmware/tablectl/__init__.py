"""tablectl: table-controller firmware for Macau table games (sic bo, fish-prawn-crab, fan-tan, progressive jackpot)."""
VERSION = "0.1.0"
