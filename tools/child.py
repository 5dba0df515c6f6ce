"""A child process a tool starts and stops: the broker, the jackpot server, a table, the sim board, qemu."""
import signal
import subprocess


class Child:
    """Its `proc` is the subprocess.Popen (None before the start)."""
    proc = None

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def kill(self):
        """SIGKILL, the power cut of the tests: the process keeps nothing it had not written."""
        if self.alive():
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(5)

    def stop(self, wait=5):
        """SIGTERM, and SIGKILL (self.kill) if it has not ended within `wait` seconds."""
        if self.alive():
            self.proc.terminate()
            try:
                self.proc.wait(wait)
            except subprocess.TimeoutExpired:
                self.kill()
