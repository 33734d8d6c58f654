"""A guest who signs up or logs in keeps every table: the guest becomes the account's player."""

from __future__ import annotations

from typing import Any

from allauth.account.signals import user_logged_in, user_signed_up
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
