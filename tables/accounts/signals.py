"""A guest who signs up or logs in keeps every table: the guest becomes the account's player.
A new password or a new second factor logs the account out everywhere else, sockets included."""

from __future__ import annotations

from typing import Any

from allauth.account.signals import (
    password_changed,
    password_reset,
    password_set,
    user_logged_in,
    user_signed_up,
)
from allauth.mfa.models import Authenticator
from allauth.mfa.signals import authenticator_added
from django.contrib.auth.models import User
from django.dispatch import receiver
from django.http import HttpRequest

from tables.accounts import identity
from tables.accounts import services as account_services


def _adopt(request: HttpRequest, user: User) -> None:
    guest = identity.guest_for_request(request)
    if guest is not None:
        identity.forget_guest(request, account_services.adopt_guest(guest, user))


@receiver(user_signed_up, dispatch_uid="tables.adopt_guest_on_signup")
def _adopt_on_signup(sender: Any, request: HttpRequest | None, user: User, **kwargs: Any) -> None:
    if request is not None:
        _adopt(request, user)


@receiver(user_logged_in, dispatch_uid="tables.adopt_guest_on_login")
def _adopt_on_login(sender: Any, request: HttpRequest | None, user: User, **kwargs: Any) -> None:
    if request is not None:
        _adopt(request, user)
        identity.remember_profile_language(request, identity.player_for_user(user))


def _current_key(request: HttpRequest | None, user: User) -> str | None:
    """The session of the request that made the change, kept if it is this account's."""
    if request is None or getattr(request, "user", None) is None or request.user.pk != user.pk:
        return None
    return request.session.session_key


@receiver(password_changed, dispatch_uid="tables.sessions_end_on_password_change")
@receiver(password_set, dispatch_uid="tables.sessions_end_on_password_set")
@receiver(password_reset, dispatch_uid="tables.sessions_end_on_password_reset")
def _end_others_on_password(sender: Any, request: HttpRequest | None, user: User, **kwargs: Any) -> None:
    account_services.end_other_sessions(user, _current_key(request, user))


@receiver(authenticator_added, dispatch_uid="tables.sessions_end_on_second_factor")
def _end_others_on_second_factor(
    sender: Any, request: HttpRequest | None, user: User, authenticator: Authenticator, **kwargs: Any
) -> None:
    if authenticator.type in (Authenticator.Type.TOTP, Authenticator.Type.WEBAUTHN):
        account_services.end_other_sessions(user, _current_key(request, user))
