"""The jackpot server of a linked progressive: the pool of one or more links over MQTT (mosquitto), its ledger in SQLite or PostgreSQL, the pit sign.

    python -m jackpot serve --config link.json     the server (see docs/link.md for the protocol)
    python -m jackpot demo                         broker + server + sign + simulated tables (make link)

Modules: protocol (topics and payloads, shared by the server and the CPython tables), ledger (every
message under its idempotent id, the pools), ledgerdb (its engines: SQLite, PostgreSQL), postgres
(throwaway PostgreSQL primaries and standbys for tests and the bench), server (asyncio, aiomqtt), web (status page, /status,
the sign), broker (mosquitto's configuration, accounts, ACL, TLS), simtable (a table in CPython).
The award arithmetic is the firmware's rules core (firmware/tablectl/rules), imported as it is.
"""
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
# the rules core and the configuration's validation are the firmware's own modules (firmware/, on the
# .venv's path), which import on CPython: the server computes pools with the very code the tables run
