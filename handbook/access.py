"""The judge passphrase: who may read and change the ledger (and study data) of a served app.

The handbook pages (rules, penalties, glossary, search, calculators) are open to everyone. The
ledger holds players' names and penalties, so when the app is served beyond this machine a
browser session must give the judge passphrase before a ledger screen shows anything.

When a :class:`Gate` is active (:func:`gate_for`):

* ``python -m handbook serve --passphrase TEXT`` or the environment variable
  :data:`ENV_PASSPHRASE` gives the passphrase — on any host, 127.0.0.1 included;
* bound to a host other than a loopback address with neither given, a passphrase is generated
  (:func:`generate`) and printed at start;
* on 127.0.0.1 / ``localhost`` with none given, and in the PWA (Python in the browser: the data
  never leaves the phone), there is no gate and nothing changes.

Failed attempts are limited per client (the browser's IP address as Flet reports it): after
:data:`FREE_FAILURES` wrong answers, each further attempt must wait, starting at
:data:`BASE_LOCKOUT_S` seconds and doubling up to :data:`MAX_LOCKOUT_S`. A right answer clears the
client's count. Comparison is constant-time. No flet, no tinydb: the UI asks :meth:`Gate.check`.
"""

from __future__ import annotations

import enum
import hashlib
import hmac
import ipaddress
import os
import secrets
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

ENV_PASSPHRASE = "HANDBOOK_PASSPHRASE"
FREE_FAILURES = 5
BASE_LOCKOUT_S = 30.0
MAX_LOCKOUT_S = 15 * 60.0
MIN_LENGTH = 8
MAX_LENGTH = 200
MAX_CLIENTS = 10_000  # failure counters kept at most (oldest dropped first)
#: letters and digits that cannot be mistaken for each other when read off a screen
ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"


class Verdict(enum.Enum):
    OK = "ok"
    WRONG = "wrong"
    LOCKED = "locked"


@dataclass(frozen=True, slots=True)
class Answer:
    """What :meth:`Gate.check` decided; ``wait_s`` is how long the client must wait before its
    next attempt is considered (0 when it may try at once)."""

    verdict: Verdict
    wait_s: float = 0.0

    @property
    def ok(self) -> bool:
        return self.verdict is Verdict.OK


def _digest(text: str) -> bytes:
    return hashlib.sha256(text.strip().encode("utf-8", "surrogatepass")).digest()


def check_passphrase(text: str) -> str:
    """A passphrase as given: stripped, :data:`MIN_LENGTH` to :data:`MAX_LENGTH` characters.
    ``ValueError`` naming the passphrase and the rule otherwise."""
    if not isinstance(text, str):
        raise ValueError(f"passphrase: must be text, got {type(text).__name__}")
    value = text.strip()
    if not MIN_LENGTH <= len(value) <= MAX_LENGTH:
        raise ValueError(f"passphrase: must be {MIN_LENGTH} to {MAX_LENGTH} characters, "
                         f"got {len(value)}")
    return value


def generate(groups: int = 3, size: int = 4) -> str:
    """A new passphrase such as ``k7mp-x3qa-9hte`` (3 × 4 characters from :data:`ALPHABET`:
    about 59 bits, easy to type on a phone)."""
    return "-".join("".join(secrets.choice(ALPHABET) for _ in range(size)) for _ in range(groups))


class Gate:
    """Checks the judge passphrase and limits failed attempts per client.

    ``clock`` returns seconds (monotonic); tests pass their own.
    """

    def __init__(self, passphrase: str, *, clock: Callable[[], float] = time.monotonic) -> None:
        self._digest = _digest(check_passphrase(passphrase))
        self._clock = clock
        self._lock = threading.Lock()
        self._failures: dict[str, tuple[int, float]] = {}  # client -> (failures, locked until)

    def wait_s(self, client: str = "") -> float:
        """Seconds ``client`` must wait before its next attempt counts (0: it may try now)."""
        with self._lock:
            _, until = self._failures.get(client, (0, 0.0))
        return max(0.0, until - self._clock())

    def check(self, attempt: str, client: str = "") -> Answer:
        """Whether ``attempt`` is the passphrase. A locked-out client gets ``LOCKED`` without the
        attempt being compared; a wrong attempt counts against ``client``."""
        now = self._clock()
        with self._lock:
            failures, until = self._failures.get(client, (0, 0.0))
            if until > now:
                return Answer(Verdict.LOCKED, until - now)
            given = attempt if isinstance(attempt, str) else ""
            if hmac.compare_digest(_digest(given), self._digest):
                self._failures.pop(client, None)
                return Answer(Verdict.OK)
            failures += 1
            wait = 0.0
            if failures >= FREE_FAILURES:
                wait = min(MAX_LOCKOUT_S, BASE_LOCKOUT_S * 2 ** (failures - FREE_FAILURES))
            self._failures.pop(client, None)
            self._failures[client] = (failures, now + wait)
            while len(self._failures) > MAX_CLIENTS:
                self._failures.pop(next(iter(self._failures)))
            return Answer(Verdict.LOCKED if wait else Verdict.WRONG, wait)


def is_loopback(host: str) -> bool:
    """True for ``localhost`` and loopback addresses (``127.0.0.1``, ``::1``); False for
    ``0.0.0.0``, ``::`` and every other address or name."""
    h = (host or "").strip().strip("[]").lower()
    if h == "localhost":
        return True
    try:
        return ipaddress.ip_address(h).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True, slots=True)
class Setup:
    """The gate a server starts with: ``gate`` is ``None`` when none is needed; ``generated``
    holds a passphrase made up at start (to be printed), else ``None``."""

    gate: Gate | None
    generated: str | None = None


def gate_for(host: str, passphrase: str | None = None,
             environ: Mapping[str, str] | None = None) -> Setup:
    """The gate for a server bound to ``host``: the given ``passphrase``, else
    :data:`ENV_PASSPHRASE` from ``environ`` (default ``os.environ``), else a generated one when
    ``host`` is not a loopback address, else none. ``ValueError`` for a passphrase that is too
    short or too long."""
    env = os.environ if environ is None else environ
    given = passphrase if passphrase is not None else (env.get(ENV_PASSPHRASE) or None)
    if given is not None:
        return Setup(Gate(given))
    if is_loopback(host):
        return Setup(None)
    made = generate()
    return Setup(Gate(made), generated=made)


# --- the process's gate (set once by the server at start) ---------------------------------

_gate: Gate | None = None


def configure(gate: Gate | None) -> None:
    """Make ``gate`` the gate of this process (``None``: no gate)."""
    global _gate
    _gate = gate


def current() -> Gate | None:
    """The gate of this process, or ``None`` when the ledger is open to every session."""
    return _gate
