"""The build: the firmware as .mpy files (build_mpy), the qemu board's image (qemu_image), the 32-bit unix port
(romfs_port), and what they generate or fetch (gen_dicetab, oledfont with oled_terms, mplib)."""
