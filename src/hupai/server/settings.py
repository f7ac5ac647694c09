"""Server settings: where the database lives, how long players may think, and the limits that keep
one hostile client from hurting everyone else (docs/security.md, "Accounts and HTTP")."""

from __future__ import annotations

import ipaddress
import os
import re
from dataclasses import dataclass, replace
from pathlib import Path
from urllib.parse import urlsplit

from platformdirs import user_data_dir

DATABASE_ENV = "HUPAI_DATABASE_URL"
SECURE_COOKIES_ENV = "HUPAI_SECURE_COOKIES"  # "1": Secure cookies even on plain HTTP requests
ALLOWED_ORIGINS_ENV = "HUPAI_ALLOWED_ORIGINS"  # comma-separated origins besides the server's own
TRUSTED_PROXY_ENV = "HUPAI_TRUSTED_PROXY"  # the proxies' addresses (or "1": this machine's) whose
# X-Forwarded-Proto/-For/-Host are believed
ALLOWED_HOSTS_ENV = "HUPAI_ALLOWED_HOSTS"  # comma-separated names this server answers to (Host header)
REDIS_ENV = "HUPAI_REDIS_URL"  # many server processes share tables through this Redis (docs/deploy.md)
PUBLIC_URL_ENV = "HUPAI_PUBLIC_URL"  # the address friends open: invitation links and QR codes use it
ICE_SERVERS_ENV = "HUPAI_ICE_SERVERS"  # comma-separated stun:/turn: URLs for voice beyond one network
LISTEN_HOST_ENV = "HUPAI_LISTEN_HOST"  # set by `hupai serve` for its worker processes
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
PUBLIC_URL_PATTERN = re.compile(
    r"https?://(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?"
)


def default_database_url() -> str:
    """An SQLite file in the user's data directory (created when missing)."""
    folder = Path(user_data_dir("hupai", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'hupai.sqlite3'}"


@dataclass(frozen=True, kw_only=True)
class Settings:
    database_url: str
    time_bank_seconds: float = 30.0  # each player's extra time for a whole match
    # Unset, bots think as long as their room's pace has it (server.table.think) and 托管 seats wait
    # 0.8 s; set (tests, benchmarks), every automatic seat waits this long.
    bot_delay_seconds: float | None = None
    # The pause between hands is each room's own setting; tests may override it for every room.
    next_hand_seconds: float | None = None
    claim_seconds: float | None = None  # the pause after every discard: the room's unless set (tests)
    # Fair deals: the longest a deal waits for the connected players' contributions once its pause is
    # over (the first hand's from the start; later hands' commitments come during the pause).
    deal_wait_seconds: float = 2.0
    max_message_bytes: int = 8192  # a voice offer (protocol.MAX_SDP) fits
    max_body_bytes: int = 65536  # an HTTP request body over this is refused (413) before it is read
    messages_per_second: float = 20.0  # a client sending faster than this is told to slow down
    sync_interval_seconds: float = 2.0  # at most one `sync` per connection in this time
    max_sockets_per_user: int = 8  # table sockets one player may hold open at once (4429 beyond)
    connects_per_minute: int = 30  # table sockets one player may open a minute (4429 beyond)
    max_sockets_per_address: int = 64  # table sockets from one network address at once (4429 beyond)
    session_days: int = 30
    secure_cookies: bool = False  # Secure cookies always (they are Secure on HTTPS requests anyway)
    # Cross-site requests: origins allowed besides the server's own (e.g. "https://mahjong.example"),
    # and whether a proxy in front of the server is trusted to say the scheme, client and host.
    allowed_origins: tuple[str, ...] = ()
    # The addresses (IPs or networks, e.g. "10.0.0.0/8") of the proxies in front whose X-Forwarded-*
    # headers are believed; none: those headers are ignored, whoever sends them.
    trusted_proxy: tuple[str, ...] = ()
    # The host names this server answers to (the Host header, without its port); none: any. `hupai
    # serve` fills it in: the --public-url's name and this machine's loopback names, or on loopback
    # only those (a page elsewhere cannot reach it through a name of its own: DNS rebinding).
    allowed_hosts: tuple[str, ...] = ()
    # Logging in and registering: attempts per client address and per name in a minute, and how
    # many argon2 hashes (64 MiB each) run at once.
    login_attempts_per_address: int = 10
    login_attempts_per_name: int = 5
    hash_workers: int = 2
    # Searching bots (大师) think in this many processes; a turn waits for a search this long at most.
    search_workers: int = 1
    search_seconds: float = 3.0
    # 复盘 (issue 50): reviews under way at once in a process, and the worlds each decision is weighed in.
    reviews_at_once: int = 2
    review_worlds: int = 48
    # Guests and rooms.
    guests_per_address_per_hour: int = 60
    rooms_per_address_per_hour: int = 60
    room_lookups_per_address_per_minute: int = 120  # a number that is no room counts five times
    waiting_rooms_per_user: int = 3
    # Clubs (亲友圈, issue 49): how many one player owns, members in one, and joins tried per
    # address in an hour (a wrong link counts five times, as a wrong room does).
    clubs_per_owner: int = 5
    members_per_club: int = 200
    rules_per_club: int = 20  # 玩法 saved in one club
    waiting_tables_per_club: int = 10  # a club's tables waiting for players at once
    club_joins_per_address_per_hour: int = 60
    # A club's live lobby reads the club again this often even unchanged (what its changes missed).
    club_lobby_refresh_seconds: float = 20.0
    idle_room_hours: float = 2.0  # a waiting room nobody touched for this long is closed
    stale_guest_days: float = 7.0  # a guest unseen this long, who never played, is deleted
    cleanup_seconds: float = 600.0  # how often the server looks for both
    # Many processes (docs/deploy.md): Redis relays between them; a table's lease runs out this long
    # after its owner was last heard of, and another process then takes the table over.
    redis_url: str | None = None
    lease_seconds: float = 5.0
    # Invitations (issue 32): the address friends open, when the server is behind a proxy or a name;
    # and the address the server listens on (on loopback only, with no public address, friends on
    # other devices cannot reach it, and the invitation says so).
    public_url: str | None = None
    listen_host: str = "127.0.0.1"
    # Voice (WebRTC): STUN/TURN servers the browsers use to find each other across networks; none,
    # voice connects players on one network (a LAN, or one machine).
    ice_servers: tuple[str, ...] = ()
    # The page's files (index.html, js/, style.css, icons): the package's unless set (a test of a new
    # release replacing an installed app's shell).
    web_dir: str | None = None

    def __post_init__(self) -> None:
        if self.public_url is not None and not PUBLIC_URL_PATTERN.fullmatch(self.public_url):
            raise ValueError(
                f"the public URL must be http(s)://host[:port], nothing after it: {self.public_url!r}"
            )

    @property
    def reachable_by_friends(self) -> bool:
        """Whether an invitation can reach another device: a public address, or a non-loopback one."""
        return self.public_url is not None or self.listen_host not in LOOPBACK_HOSTS

    @classmethod
    def from_env(cls, **overrides: object) -> Settings:
        """Settings from ``HUPAI_DATABASE_URL``, ``HUPAI_SECURE_COOKIES``, ``HUPAI_ALLOWED_ORIGINS``,
        ``HUPAI_TRUSTED_PROXY``, ``HUPAI_REDIS_URL``, ``HUPAI_PUBLIC_URL``, ``HUPAI_ICE_SERVERS``
        and, for every limit of :data:`LIMITS`, ``HUPAI_`` and its name in capitals
        (``HUPAI_GUESTS_PER_ADDRESS_PER_HOUR=20``); then ``overrides``. A value that is not a positive
        number is refused with the variable's name."""
        settings = cls(
            database_url=os.environ.get(DATABASE_ENV) or default_database_url(),
            secure_cookies=_flag(os.environ.get(SECURE_COOKIES_ENV, "")),
            allowed_origins=_origins(os.environ.get(ALLOWED_ORIGINS_ENV, "")),
            trusted_proxy=trusted_proxies(os.environ.get(TRUSTED_PROXY_ENV, "")),
            allowed_hosts=host_names(os.environ.get(ALLOWED_HOSTS_ENV, "")),
            redis_url=os.environ.get(REDIS_ENV) or None,
            public_url=public_url(os.environ.get(PUBLIC_URL_ENV, "")),
            listen_host=os.environ.get(LISTEN_HOST_ENV) or "127.0.0.1",
            ice_servers=ice_servers(os.environ.get(ICE_SERVERS_ENV, "")),
        )
        return replace(settings, **{**_limits_from_env(), **overrides})  # type: ignore[arg-type]


# The limits and quotas a host may set from the environment, as HUPAI_<NAME> (docs/security.md).
LIMITS = (
    "max_message_bytes",
    "max_body_bytes",
    "messages_per_second",
    "sync_interval_seconds",
    "max_sockets_per_user",
    "connects_per_minute",
    "max_sockets_per_address",
    "session_days",
    "login_attempts_per_address",
    "login_attempts_per_name",
    "hash_workers",
    "search_workers",
    "search_seconds",
    "reviews_at_once",
    "review_worlds",
    "guests_per_address_per_hour",
    "rooms_per_address_per_hour",
    "room_lookups_per_address_per_minute",
    "waiting_rooms_per_user",
    "clubs_per_owner",
    "members_per_club",
    "rules_per_club",
    "waiting_tables_per_club",
    "club_joins_per_address_per_hour",
    "club_lobby_refresh_seconds",
    "idle_room_hours",
    "stale_guest_days",
    "cleanup_seconds",
    "time_bank_seconds",
    "lease_seconds",
)


def limit_env(name: str) -> str:
    return f"HUPAI_{name.upper()}"


def _limits_from_env() -> dict[str, int | float]:
    found: dict[str, int | float] = {}
    for name in LIMITS:
        text = os.environ.get(limit_env(name), "").strip()
        if not text:
            continue
        whole = isinstance(getattr(Settings, name), int)
        try:
            value: int | float = int(text) if whole else float(text)
        except ValueError:
            kind = "a whole number" if whole else "a number"
            raise ValueError(f"{limit_env(name)}={text!r}: must be {kind}") from None
        if not value > 0:  # also refuses nan
            raise ValueError(f"{limit_env(name)}={text!r}: must be more than 0")
        found[name] = value
    return found


def public_url(value: str) -> str | None:
    """A public address as given (``HUPAI_PUBLIC_URL``, ``--public-url``), without a trailing slash."""
    return value.strip().rstrip("/") or None


def _flag(value: str) -> bool:
    return value.strip().lower() in ("1", "true", "yes")


LOOPBACK_PROXIES = ("127.0.0.1", "::1")  # HUPAI_TRUSTED_PROXY=1: a proxy on this machine


def trusted_proxies(value: str) -> tuple[str, ...]:
    """``HUPAI_TRUSTED_PROXY``: addresses or networks, comma-separated; ``1`` (or ``true``) for a proxy
    on this machine; empty or ``0``: none. Anything else is refused by name."""
    text = value.strip()
    if _flag(text):
        return LOOPBACK_PROXIES
    if text.lower() in ("", "0", "false", "no", "off"):
        return ()
    entries = tuple(part.strip() for part in text.split(",") if part.strip())
    for entry in entries:
        try:
            ipaddress.ip_network(entry, strict=False)
        except ValueError:
            raise ValueError(f"{TRUSTED_PROXY_ENV}: {entry!r} is not an address or a network") from None
    return entries


def host_names(value: str) -> tuple[str, ...]:
    """``HUPAI_ALLOWED_HOSTS``: host names or addresses, comma-separated, without ports."""
    names = tuple(part.strip().lower().strip("[]") for part in value.split(",") if part.strip())
    for name in names:
        if not re.fullmatch(r"[a-z0-9.:-]{1,253}", name):
            raise ValueError(f"{ALLOWED_HOSTS_ENV}: {name!r} is not a host name")
    return names


def default_allowed_hosts(listen_host: str, public_url: str | None) -> tuple[str, ...]:
    """The names a server answers to when none are given: its public name and this machine's, or on
    loopback only this machine's; listening on every interface with no public name, any."""
    local = ("localhost", "127.0.0.1", "::1")
    if public_url is not None:
        public = (urlsplit(public_url).hostname or "").lower()
        return (public, *local)
    return local if listen_host in LOOPBACK_HOSTS else ()


def ice_servers(value: str) -> tuple[str, ...]:
    """``stun:`` and ``turn:`` URLs (``HUPAI_ICE_SERVERS``); anything else is refused by name."""
    urls = tuple(part.strip() for part in value.split(",") if part.strip())
    for url in urls:
        if not re.fullmatch(r"(stun|stuns|turn|turns):[^\s,\"<>]{1,200}", url):
            raise ValueError(f"{ICE_SERVERS_ENV}: {url!r} is not a stun: or turn: URL")
    return urls


def _origins(value: str) -> tuple[str, ...]:
    """``scheme://host[:port]`` entries, lower-cased and without a trailing slash."""
    return tuple(part.strip().rstrip("/").lower() for part in value.split(",") if part.strip())
