"""Technician service at the REPL: `import service; service.status()` (tablectl/service/__init__.py lists every call)."""
from tablectl.service import *  # noqa: F401,F403
