"""Errors the services raise; the API maps each to its HTTP status.

An illegal move is the engine's `rules.IllegalMove` (400, with the engine's reason);
everything else a caller can get wrong is one of these.
"""

from __future__ import annotations

from typing import Any


class ServiceError(Exception):
    status = 400
    code = "bad_request"

    def __init__(self, message: str, *, field: str | None = None, extra: dict[str, Any] | None = None):
        super().__init__(message)
        self.message = message
        self.field = field
        self.extra = extra or {}


class BadRequest(ServiceError):
    """Input that is well-formed JSON but not acceptable (an unknown option, an empty name)."""


class NotAuthenticated(ServiceError):
    status = 401
    code = "not_authenticated"


class Forbidden(ServiceError):
    """Not your seat, not your turn, a spectator trying to play, not the owner."""

    status = 403
    code = "forbidden"


class MissingScope(Forbidden):
    """An API token whose scope does not allow the call (a read-only token's write)."""

    code = "missing_scope"


class ReauthenticationRequired(Forbidden):
    """A grave change (deleting the account) needs the password, or a login within minutes."""

    code = "reauthentication_required"


class BotAccountUnrated(Forbidden):
    """A bot account (docs/accounts.md) asking for a rated seat: bot accounts play unrated only."""

    code = "bot_account_unrated"


class RatedMoveByToken(Forbidden):
    """A move sent with an API token at a rated table: a person plays rated games on the site's
    pages, and a bot account never sits at a rated table."""

    code = "rated_move_by_token"


class NotFound(ServiceError):
    status = 404
    code = "not_found"


class Conflict(ServiceError):
    """The table is not in a state that allows this (seats full, match not started...)."""

    status = 409
    code = "conflict"


class StaleVersion(Conflict):
    """The client's expected version is not the table's current one."""

    code = "stale_version"


class TooLarge(ServiceError):
    """A value over its documented size (a chat message over 500 characters)."""

    status = 413
    code = "too_large"


class RateLimited(ServiceError):
    status = 429
    code = "rate_limited"
