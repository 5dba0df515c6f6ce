"""A RAM flash that refuses a program past its block, as a checked device does (a real one writes the next block):
the tests that nothing is programmed outside its block (a module of its own, as harness.logsteps)."""
from harness.ramblockdev import RamBlockDev


class Bounded(RamBlockDev):
    def writeblocks(self, block, buf, offset=None):
        if (offset or 0) + len(buf) > self.block_size:
            raise IndexError("programmed past block %d: offset %d + %d" % (block, offset, len(buf)))
        RamBlockDev.writeblocks(self, block, buf, offset)
