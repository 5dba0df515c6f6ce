# demo_amounts.py: present on a virtual board (sim, qemu) only; tablectl.config then ships the demo
# jackpot amounts, which status() names until the technician sets the approved ones (BAC-17.13)
AMOUNTS = True
