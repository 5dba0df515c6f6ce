"""The project's Pico build's start-up, frozen in place of the rp2 port's: LittleFS over the storage area but
its log region (flashparts.mount: an un-partitioned board's whole filesystem is kept, never formatted)."""
import flashparts

flashparts.mount()
del flashparts
