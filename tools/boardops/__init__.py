"""What is run against a table's board over mpremote: deploy (and the Pico's partition), journalcheck, release and
verify, meters; the mpremote macros a technician installs (mpremote/config.py)."""
