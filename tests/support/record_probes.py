"""What a locked session asks of the judge's records (issue 44), for the gate's tests over the
websocket and the attacker benchmark: the routes and the texts that must never reach it."""

from __future__ import annotations

#: the record form with crafted queries (a real row, an unknown ruleset, rows that are no row, NUL
#: and bidi controls, huge values), a player's page (Revoke, Restore), the day's incidents, and End
#: of hanchan filling from a table's records
LOCKED_ROUTES = (
    "/record?ruleset=azrm&row=38&q=noten",
    "/record?ruleset=no-such-ruleset&row=1",
    "/record?ruleset=azrm&row=99999999999999999999999&points=-5&strike=maybe",
    "/record?ruleset=azrm&row=-1",
    "/record?ruleset=az%00rm&row=3%00&q=%E2%80%AEmaS%20terceS%00&strike=yes",
    "/record?ruleset=azrm&row=9\x00&q=\u202e\u2066x\x00",
    "/record?ruleset=azrm&row=" + "9" * 5000 + "&points=" + "9" * 5000 + "&q=" + "A" * 200_000,
    "/ledger/Secret%20Sam",
    "/ledger/Revoked%20Rita",
    "/incidents?table=7",
    "/tools/final?ruleset=azrm&table=7&hanchan=1&e=22000&s=45000&w=16000&n=37000",
)
#: the texts of the ledger's records the probes write: a locked session must receive none of them
RECORD_TEXTS = ("Secret Sam", "Revoked Rita", "Noten Riichi", "wrong player", "noten at table")
