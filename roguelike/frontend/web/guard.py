"""Who may talk to the game's web server, and how much.

Every page and socket but the client's own files needs a token, on loopback too (any user
of the machine can reach 127.0.0.1): the **play token** plays (and watches), the **watch
token** only watches, so a watch link handed round never lets anyone play. Both are in the
addresses the server prints, and the play address is what it opens in the browser. On the
loopback address (the default) only pages this machine serves as ``localhost`` or a
loopback address get in: the Host header is checked, so a page elsewhere cannot reach the
game through a name that resolves to 127.0.0.1 (DNS rebinding). A WebSocket must come from
a page of this server (its Origin is the server's own), and every client message is small
and comes at a human rate: past the limits the connection is closed.
"""

from __future__ import annotations

import hmac
import ipaddress
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

from roguelike.ground.fanout import BURST as BURST
from roguelike.ground.fanout import MAX_MESSAGE_BYTES as MAX_MESSAGE_BYTES
from roguelike.ground.fanout import MESSAGES_PER_SECOND as MESSAGES_PER_SECOND
from roguelike.ground.fanout import RateLimit as RateLimit

LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
PLAY, WATCH, OPEN = "play", "watch", "open"  # what a request asks for: playing, watching, the client's own files


def is_loopback(host: str) -> bool:
    """Whether a listening address is this machine only."""
    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def host_name(header: str) -> str:
    """The name in a Host header, without its port (and without an IPv6 address's brackets)."""
    return (urlsplit(f"//{header}").hostname or "").lower()


def same(given: str, token: str) -> bool:
    """Whether a given token is this one (in constant time; any text may be given)."""
    return hmac.compare_digest(given.encode("utf-8", "replace"), token.encode("utf-8"))


def new_token() -> str:
    """A token no one can guess."""
    return secrets.token_urlsafe(18)


@dataclass(frozen=True)
class Guard:
    """The server's rules for letting a request in: where it may come from, and the tokens to play and to watch."""

    loopback: bool
    play_token: str
    watch_token: str

    @classmethod
    def made(cls, loopback: bool, play_token: str | None = None) -> Guard:
        """The rules for an address, with the play token given (or made up) and a watch token made up."""
        return cls(loopback, play_token or new_token(), new_token())

    def refusal(self, headers: Mapping[str, str], query: Mapping[str, str], access: str = PLAY) -> str | None:
        """Why a request for ``access`` may not come in (None: it may); the client's own files are no secret."""
        if self.loopback and not is_loopback(host_name(headers.get("host", ""))):
            return "this game only answers on localhost"
        if access == OPEN or self.may_play(query):
            return None
        if access == WATCH and same(query.get("token", ""), self.watch_token):
            return None
        if access == PLAY and same(query.get("token", ""), self.watch_token):
            return "this is a watch link: it only watches (playing needs the player's address)"
        return "a token is needed: use the address the game printed"

    def may_play(self, query: Mapping[str, str]) -> bool:
        """Whether a request carries the play token."""
        return same(query.get("token", ""), self.play_token)

    def socket_refusal(self, headers: Mapping[str, str], query: Mapping[str, str], access: str = PLAY) -> str | None:
        """Why a WebSocket may not open: the request's rules, and an Origin of this very server."""
        refused = self.refusal(headers, query, access)
        if refused is not None:
            return refused
        origin, host = headers.get("origin", ""), headers.get("host", "")
        if not host or origin not in (f"http://{host}", f"https://{host}"):
            return "a game socket opens only from the game's own page"
        return None
