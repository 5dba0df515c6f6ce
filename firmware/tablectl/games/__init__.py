"""One asyncio-driven state machine per controller: dice (sic bo, fish-prawn-crab), fan-tan, progressive jackpot."""
