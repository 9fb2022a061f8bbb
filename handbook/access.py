"""The judge passphrase: who may read and change the judge's data — the ledger, and study progress,
bookmarks and recent lookups — in a served app.

The handbook pages (rules, penalties, glossary, search, calculators) are open to everyone. The
ledger holds players' names and penalties; on a served app the study store is one file on the
server (the judge's: a player studying there would share and overwrite it). So when a :class:`Gate`
is active a browser session must give the judge passphrase before any screen shows either: the
route table says which screens need it (``Route.gate`` in :mod:`handbook.ui.routes`) and the app
enforces it where views are built (:func:`handbook.ui.screens.build_view`) and where the stores
hand out data (:class:`handbook.ui.stores.Stores`). Players study in the installed app (the PWA),
which keeps progress on their own phone.

When a gate is active (:func:`gate_for`):

* ``python -m handbook serve --passphrase TEXT`` or the environment variable
  :data:`ENV_PASSPHRASE` gives the passphrase — on any host, 127.0.0.1 included;
* bound to a host other than a loopback address with neither given, a passphrase is generated
  (:func:`generate`) and printed at start;
* on 127.0.0.1 / ``localhost`` with none given, and in the PWA (Python in the browser: the data
  never leaves the phone), there is no gate and nothing changes.

**Who is counted.** Wrong answers are counted per *peer address*: the address the server's own
transport saw when the session's websocket connected (the ASGI scope's ``client``, recorded by
:class:`PeerAddress` and kept by the session on the server; :func:`peer`). Never a page property
(``page.client_ip`` is one a client can overwrite over Flet's websocket) and never an
``X-Forwarded-For`` header, unless the server was told to trust the proxy that sends it
(``--trusted-proxy``, :func:`trusted_proxies`; default: none). IPv4-mapped IPv6 addresses count
as their IPv4 address.

**Per address.** After :data:`FREE_FAILURES` wrong answers from one address, each further
attempt from it must wait, starting at :data:`BASE_LOCKOUT_S` seconds and doubling up to
:data:`MAX_LOCKOUT_S`; a right answer clears that address's count. One address's failures never
hold another address.

**Whatever the address.** At most :data:`GLOBAL_FAILURES_PER_MINUTE` wrong answers are taken in
any :data:`GLOBAL_WINDOW_S` seconds over the whole server (an attacker with many addresses is
held to it too). While that many are on record, an attempt is still compared only from

* an address that gave the right passphrase before (the judge's phone, once unlocked), or
* an address with no wrong answer on record — for IPv6, none in its /64 network, since one
  device can take any address of its /64 —

and any other attempt gets ``BUSY`` (with the seconds until the oldest counted failure leaves
the window) without being compared. So a judge on another address is never locked out by an
attacker: their first attempt is compared, and one who has unlocked before always is. An
attacker gains at most one compared guess per address (IPv4) or /64 network (IPv6) it has never
used, beyond the cap. An already open session is never asked again (the gate is checked when the
passphrase is given, not on every screen).

**The unlock is bound to the browser.** Flet resumes a disconnected session for any client that
presents its session id from the same address with the same user agent (behind NAT, or a proxy
not named with ``--trusted-proxy``, that is anyone). So on the right answer the browser is given
an *unlock token* (:func:`new_unlock_token`, 256 random bits) in its own storage (Flet's
SharedPreferences: localStorage on the web, never the URL) and the server keeps only its
SHA-256 (:func:`token_digest`); a session resumed by a new connection is locked before its first
screen is sent and opened again only when that connection's browser storage holds the token
(:func:`token_matches`, constant-time; :mod:`handbook.ui.gate`). The lock comes back for good
when the session expires (kept ``SESSION_TIMEOUT_S`` after its browser went away,
:mod:`handbook.ui.app`): a new session starts locked whatever the browser holds.

Comparison is constant-time. No flet, no tinydb: the UI asks :meth:`Gate.check`.
"""

from __future__ import annotations

import collections
import contextvars
import enum
import hashlib
import hmac
import ipaddress
import os
import secrets
import threading
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping, MutableMapping
from dataclasses import dataclass
from typing import Any

ENV_PASSPHRASE = "HANDBOOK_PASSPHRASE"
FREE_FAILURES = 5
BASE_LOCKOUT_S = 30.0
MAX_LOCKOUT_S = 15 * 60.0
#: wrong answers taken over the whole server in any GLOBAL_WINDOW_S seconds (see the module doc)
GLOBAL_FAILURES_PER_MINUTE = 30
GLOBAL_WINDOW_S = 60.0
MIN_LENGTH = 8
MAX_LENGTH = 200
MAX_CLIENTS = 10_000  # failure counters (and known-good addresses) kept at most, oldest dropped first
#: letters and digits that cannot be mistaken for each other when read off a screen
ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"


#: an unlock token: 32 random bytes as URL-safe base64 without padding (43 characters)
UNLOCK_TOKEN_CHARS = 43
_TOKEN_ALPHABET = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


class Verdict(enum.Enum):
    OK = "ok"
    WRONG = "wrong"
    #: this address gave too many wrong answers: it waits
    LOCKED = "locked"
    #: the whole server took GLOBAL_FAILURES_PER_MINUTE wrong answers: not compared, try later
    BUSY = "busy"


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


def new_unlock_token() -> str:
    """A fresh unlock token for a browser that gave the passphrase (see the module doc): 256
    random bits, :data:`UNLOCK_TOKEN_CHARS` URL-safe characters."""
    return secrets.token_urlsafe(32)


def is_unlock_token(value: object) -> bool:
    """Whether ``value`` is text shaped like :func:`new_unlock_token`'s (anything a browser's
    storage may hold is checked before it is used)."""
    return (isinstance(value, str) and len(value) == UNLOCK_TOKEN_CHARS
            and all(c in _TOKEN_ALPHABET for c in value))


def token_digest(token: str) -> bytes:
    """What the server keeps of an unlock token: its SHA-256 (32 bytes). ``ValueError`` naming
    the token when it is not one (:func:`is_unlock_token`)."""
    if not is_unlock_token(token):
        raise ValueError(f"token: must be {UNLOCK_TOKEN_CHARS} URL-safe characters as "
                         "new_unlock_token makes")
    return hashlib.sha256(token.encode("ascii")).digest()


def token_matches(token: object, digest: bytes | None) -> bool:
    """Whether ``token`` (what a browser's storage gave, anything) is the one whose
    :func:`token_digest` is ``digest``; False for no digest or no well-formed token.
    Constant-time in the token's content."""
    if digest is None or not is_unlock_token(token):
        return False
    return hmac.compare_digest(hashlib.sha256(str(token).encode("ascii")).digest(), digest)


def address_key(address: str | None) -> str:
    """The address failures are counted against: ``"::ffff:10.0.0.5"`` -> ``"10.0.0.5"``, IPv6
    in its compressed form; anything that is not an IP address (a test's name, a Unix socket)
    as given, ``""`` for none."""
    text = (address or "").strip()
    try:
        ip = ipaddress.ip_address(text.strip("[]"))
    except ValueError:
        return text
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return str(ip)


def _network(key: str) -> str:
    """What counts as one client for the fresh-address rule: an IPv6 address's /64, else the
    address itself."""
    try:
        ip = ipaddress.ip_address(key)
    except ValueError:
        return key
    if isinstance(ip, ipaddress.IPv6Address):
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return key


def _remember(table: MutableMapping[str, Any], key: str, value: Any) -> None:
    """``table[key] = value`` as the newest entry, dropping the oldest beyond :data:`MAX_CLIENTS`."""
    table.pop(key, None)
    table[key] = value
    while len(table) > MAX_CLIENTS:
        table.pop(next(iter(table)))


class Gate:
    """Checks the judge passphrase; limits wrong answers per peer address and over the whole
    server (see the module's docstring for the rules and why).

    ``clock`` returns seconds (monotonic); tests pass their own. Thread-safe.
    """

    def __init__(self, passphrase: str, *, clock: Callable[[], float] = time.monotonic) -> None:
        self._digest = _digest(check_passphrase(passphrase))
        self._clock = clock
        self._lock = threading.Lock()
        self._failures: dict[str, tuple[int, float]] = {}  # address -> (failures, locked until)
        self._failed_networks: dict[str, float] = {}        # address or IPv6 /64 -> last failure
        self._known_good: dict[str, float] = {}             # address -> last right answer
        self._recent: collections.deque[float] = collections.deque()  # times of recent failures

    def wait_s(self, client: str = "") -> float:
        """Seconds ``client`` must wait before its next attempt counts (0: it may try now)."""
        with self._lock:
            _, until = self._failures.get(address_key(client), (0, 0.0))
        return max(0.0, until - self._clock())

    def check(self, attempt: str, client: str = "") -> Answer:
        """Whether ``attempt`` is the passphrase, asked from peer address ``client``.

        ``LOCKED`` (not compared) while ``client`` waits out its own lockout; ``BUSY`` (not
        compared) while the server-wide cap is full and ``client`` is neither known good nor
        fresh; a wrong answer counts against ``client`` and the server-wide window."""
        now = self._clock()
        key = address_key(client)
        with self._lock:
            while self._recent and self._recent[0] <= now - GLOBAL_WINDOW_S:
                self._recent.popleft()
            failures, until = self._failures.get(key, (0, 0.0))
            if until > now:
                return Answer(Verdict.LOCKED, until - now)
            if len(self._recent) >= GLOBAL_FAILURES_PER_MINUTE and not self._may_pass_cap(key):
                return Answer(Verdict.BUSY, self._recent[0] + GLOBAL_WINDOW_S - now)
            given = attempt if isinstance(attempt, str) else ""
            if hmac.compare_digest(_digest(given), self._digest):
                self._failures.pop(key, None)
                _remember(self._known_good, key, now)
                return Answer(Verdict.OK)
            failures += 1
            wait = 0.0
            if failures >= FREE_FAILURES:
                wait = min(MAX_LOCKOUT_S, BASE_LOCKOUT_S * 2 ** (failures - FREE_FAILURES))
            _remember(self._failures, key, (failures, now + wait))
            _remember(self._failed_networks, _network(key), now)
            self._recent.append(now)
            return Answer(Verdict.LOCKED if wait else Verdict.WRONG, wait)

    def _may_pass_cap(self, key: str) -> bool:
        """Compared although the server-wide cap is full: a known-good or a fresh address."""
        if key in self._known_good:
            return True
        return key not in self._failures and _network(key) not in self._failed_networks


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


def trusted_proxies(values: Iterable[str] | str | None) -> tuple[str, ...]:
    """The proxies whose ``X-Forwarded-For`` the server believes: IP addresses or networks
    (``"127.0.0.1"``, ``"10.0.0.0/8"``), given as a list or one comma-separated text; ``()`` for
    none (the default: the peer address is the transport's). ``ValueError`` naming the field for
    anything else — ``"*"`` included: trusting every peer would let every client name its own
    address."""
    if values is None:
        return ()
    items = values.split(",") if isinstance(values, str) else list(values)
    out: list[str] = []
    for raw in items:
        item = str(raw).strip()
        if not item:
            continue
        try:
            net = ipaddress.ip_network(item, strict=False)
        except ValueError:
            raise ValueError(f"trusted proxy: {item!r} is not an IP address or network "
                             "(e.g. 127.0.0.1 or 10.0.0.0/8)") from None
        out.append(str(net.network_address) if net.num_addresses == 1 else str(net))
    return tuple(out)


# --- the peer address of a session (recorded where the websocket connects) ----------------------

_peer: contextvars.ContextVar[str] = contextvars.ContextVar("handbook_peer", default="")

Scope = MutableMapping[str, Any]
ASGIApp = Callable[[Scope, Callable[[], Awaitable[Any]], Callable[[Any], Awaitable[None]]], Awaitable[None]]


class PeerAddress:
    """ASGI middleware: while a websocket connection is served, :func:`peer` is the address its
    ASGI scope names as ``client`` — the transport's peer, or, only when the server runs with
    trusted proxies, the address such a proxy forwarded (uvicorn's proxy-headers middleware runs
    before this one and only then).

    Flet creates a session, runs ``main(page)`` and dispatches every event of that connection in
    tasks started from the connection's own task, so they all see this value; the app keeps it
    with the session when ``main`` starts (:class:`handbook.ui.context.AppContext` ``peer``), out
    of the client's reach."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Callable[[], Awaitable[Any]],
                       send: Callable[[Any], Awaitable[None]]) -> None:
        if scope.get("type") != "websocket":
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        token = _peer.set(address_key(client[0]) if client else "")
        try:
            await self.app(scope, receive, send)
        finally:
            _peer.reset(token)


def peer() -> str:
    """The peer address of the websocket connection being served (:class:`PeerAddress`), ``""``
    outside one (tests, the desktop app)."""
    return _peer.get()


# --- the process's gate (set once by the server at start) ---------------------------------

_gate: Gate | None = None


def configure(gate: Gate | None) -> None:
    """Make ``gate`` the gate of this process (``None``: no gate)."""
    global _gate
    _gate = gate


def current() -> Gate | None:
    """The gate of this process, or ``None`` when the ledger is open to every session."""
    return _gate
