"""What the flash log raises: the flash fails the table (LogError), or one write is refused (Refused)."""


class LogError(OSError):
    """The flash cannot take this write without losing live state (an OSError: the flash fails the table)."""


class Refused(LogError):
    """This write cannot be made (a frame or a checkpoint the ring cannot hold): nothing was changed."""
