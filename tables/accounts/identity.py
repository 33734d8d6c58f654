"""Who is calling: an account, a guest bound to this browser, or a program with an API token.

A guest is a Player row with a random ``guest_key``; the browser keeps that key in a signed
cookie (so it survives the session for months) and the session remembers the player id.
Signing up, or logging in, from a guest's browser turns the guest into the account's player
(tables.accounts.services.profile.adopt_guest), keeping every seat, move and chat message.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.utils import timezone, translation

from tables.accounts.models import ApiToken, Player
from tables.core.errors import BadRequest
from tables.core.reads import CompiledRead
from tables.core.text_input import clean_text

GUEST_COOKIE = "ginmesa_guest"
GUEST_COOKIE_SALT = "tables.guest"
GUEST_COOKIE_MAX_AGE = 365 * 24 * 3600
SESSION_PLAYER_KEY = "ginmesa_guest_player"
TOKEN_PREFIX = "gm_"
NAME_MAX_LENGTH = 40

_CACHE_ATTR = "_ginmesa_player"
_NEW_GUEST_ATTR = "_ginmesa_new_guest"
_PROFILE_LANGUAGE_ATTR = "_ginmesa_profile_language"


def clean_display_name(name: object, field: str = "name") -> str:
    """A name on one line: no control characters (tab and newline included) or invalid Unicode,
    its runs of spaces made one. ``field``: the input's name, for a refusal."""
    if not isinstance(name, str) or not name.strip():
        raise BadRequest("Type a name to sit at the table.", field=field)
    name = " ".join(clean_text(name, field, one_line=True).split())
    if len(name) > NAME_MAX_LENGTH:
        raise BadRequest(f"A name has at most {NAME_MAX_LENGTH} characters.", field=field)
    return name


def player_for_user(user: User) -> Player:
    try:  # get(), not first(): a one-to-one lookup needs no ORDER BY
        return Player.objects.get(user=user)
    except Player.DoesNotExist:
        default_name = (user.get_username() or "").split("@")[0] or "player"
        return Player.objects.create(
            user=user, display_name=default_name[:NAME_MAX_LENGTH], language=current_language()
        )


def current_language() -> str:
    """The language this request is answered in (browser or switch), as a new profile's default."""
    language = (translation.get_language() or "").split("-")[0]
    return language if language in Player.Language.values else Player.Language.SPANISH


def remember_profile_language(request: HttpRequest, player: Player) -> None:
    """At log-in on a browser that never chose a language, answer in the profile's language."""
    if settings.LANGUAGE_COOKIE_NAME not in request.COOKIES:
        setattr(request, _PROFILE_LANGUAGE_ATTR, player.language)


def guest_for_request(request: HttpRequest) -> Player | None:
    """The guest this browser is, from the session or else the signed cookie."""
    session = getattr(request, "session", None)
    player_id = session.get(SESSION_PLAYER_KEY) if session is not None else None
    if player_id is not None:
        guest = Player.objects.filter(pk=player_id, user__isnull=True, is_bot=False).first()
        if guest is not None:
            return guest
    key = request.get_signed_cookie(
        GUEST_COOKIE, default=None, salt=GUEST_COOKIE_SALT, max_age=GUEST_COOKIE_MAX_AGE
    )
    if not key:
        return None
    guest = Player.objects.filter(guest_key=key, user__isnull=True).first()
    if guest is not None and session is not None:
        session[SESSION_PLAYER_KEY] = guest.pk
    return guest


def player_for_request(request: HttpRequest) -> Player | None:
    """The caller's player (created on first use for an account), or None for a new visitor."""
    if hasattr(request, _CACHE_ATTR):
        cached: Player | None = getattr(request, _CACHE_ATTR)
        return cached
    user = getattr(request, "user", None)
    player = (
        player_for_user(user) if user is not None and user.is_authenticated else guest_for_request(request)
    )
    setattr(request, _CACHE_ATTR, player)
    return player


def become_guest(request: HttpRequest, name: object) -> Player:
    """A new guest for this browser; GuestCookieMiddleware writes its cookie on the response."""
    guest = Player.objects.create(
        display_name=clean_display_name(name),
        guest_key=secrets.token_urlsafe(32),
        language=current_language(),
    )
    request.session[SESSION_PLAYER_KEY] = guest.pk
    setattr(request, _CACHE_ATTR, guest)
    setattr(request, _NEW_GUEST_ATTR, guest)
    return guest


def remember_new_guest(request: HttpRequest, response: HttpResponse) -> None:
    language = getattr(request, _PROFILE_LANGUAGE_ATTR, None)
    if language:
        response.set_cookie(settings.LANGUAGE_COOKIE_NAME, language, samesite="Lax")
    guest = getattr(request, _NEW_GUEST_ATTR, None)
    if guest is not None and guest.guest_key:
        response.set_signed_cookie(
            GUEST_COOKIE,
            guest.guest_key,
            salt=GUEST_COOKIE_SALT,
            max_age=GUEST_COOKIE_MAX_AGE,
            httponly=True,
            samesite="Lax",
            secure=request.is_secure(),
        )


def forget_guest(request: HttpRequest, account: Player) -> None:
    """After adoption (tables.accounts.services.profile): this browser is the account now, not the guest."""
    if hasattr(request, "session"):
        request.session.pop(SESSION_PLAYER_KEY, None)
    setattr(request, _CACHE_ATTR, account)


def _hash_token(raw: str) -> str:
    return hashlib.sha256(raw.encode()).hexdigest()


def issue_api_token(
    user: User, name: str = "", scope: str = ApiToken.Scope.PLAY, expires_at: dt.datetime | None = None
) -> tuple[ApiToken, str]:
    """A new token of ``scope`` ("read" or "play"), valid until ``expires_at`` (None: until
    revoked); the raw value is returned once and never stored."""
    name = clean_text(name, "name", one_line=True)
    if scope not in ApiToken.Scope.values:
        raise BadRequest(f"scope must be one of {', '.join(ApiToken.Scope.values)}.", field="scope")
    if expires_at is not None:
        expires_at = _in_utc(expires_at)
    if expires_at is not None and expires_at <= timezone.now():
        raise BadRequest(translation.gettext("A token's expiry must be in the future."), field="expires_at")
    raw = TOKEN_PREFIX + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(
        user=user,
        name=name[:60],
        prefix=raw[:10],
        token_hash=_hash_token(raw),
        scope=scope,
        expires_at=expires_at,
    )
    return token, raw


def _in_utc(moment: dt.datetime) -> dt.datetime:
    """A token's expiry in UTC (a time without a zone is UTC), refused past what the database keeps."""
    try:
        return (timezone.make_aware(moment, dt.UTC) if timezone.is_naive(moment) else moment).astimezone(
            dt.UTC
        )
    except (OverflowError, ValueError):
        raise BadRequest("expires_at: out of range.", field="expires_at") from None


LAST_USED_PRECISION_SECONDS = 300  # "last used" to within minutes: not one write per request


def _live_tokens_with_players(token_hash: str) -> QuerySet[ApiToken]:
    rows = ApiToken.objects.select_related("user", "user__player")  # the caller in one query
    return rows.filter(token_hash=token_hash, revoked_at__isnull=True, user__is_active=True)


_LIVE_TOKEN = CompiledRead(_live_tokens_with_players)  # every program's every request


@dataclass(frozen=True)
class TokenCheck:
    """What a presented token is worth: its account's player and scope, or why it is refused."""

    player: Player | None
    scope: str = ""
    refusal: str = "That API token is unknown or revoked."

    @property
    def plays(self) -> bool:
        return self.player is not None and self.scope == ApiToken.Scope.PLAY


def check_api_token(raw: str) -> TokenCheck:
    try:
        token = _LIVE_TOKEN.get(_hash_token(raw))
    except ApiToken.DoesNotExist:
        return TokenCheck(None)
    now = timezone.now()
    if token.expired(now):
        return TokenCheck(None, refusal="That API token has expired: create a new one.")
    if token.last_used_at is None or (now - token.last_used_at).total_seconds() > LAST_USED_PRECISION_SECONDS:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
    try:
        player = token.user.player
    except Player.DoesNotExist:  # an account that has not played yet
        player = player_for_user(token.user)
    return TokenCheck(player, token.scope, "")


def player_for_api_token(raw: str) -> Player | None:
    return check_api_token(raw).player


# The refusal of a read-only token's write (the API's 403, the socket's error frame).
READ_ONLY_REFUSAL = (
    'This API token is read-only: playing, chatting and changing anything need a token with the "play" '
    "scope (create one on your profile)."
)


def live_api_tokens(user: User) -> list[ApiToken]:
    return list(ApiToken.objects.filter(user=user, revoked_at__isnull=True).order_by("id"))


def revoke_api_token(user: User, token_id: int) -> bool:
    return bool(
        ApiToken.objects.filter(pk=token_id, user=user, revoked_at__isnull=True).update(
            revoked_at=timezone.now()
        )
    )
