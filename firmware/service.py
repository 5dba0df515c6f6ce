"""Technician service at the REPL: `import service; service.status()` (see tablectl/service.py for every call)."""
from tablectl.service import *  # noqa: F401,F403
