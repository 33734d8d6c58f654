"""A guest who signs up or logs in keeps every table: the guest becomes the account's player."""

from __future__ import annotations

from allauth.account.signals import user_logged_in, user_signed_up
from django.dispatch import receiver

from .identity import adopt_guest, player_for_user, remember_profile_language


@receiver(user_signed_up, dispatch_uid="tables.adopt_guest_on_signup")
def _adopt_on_signup(sender, request, user, **kwargs) -> None:
    if request is not None:
        adopt_guest(request, user)


@receiver(user_logged_in, dispatch_uid="tables.adopt_guest_on_login")
def _adopt_on_login(sender, request, user, **kwargs) -> None:
    if request is not None:
        adopt_guest(request, user)
        remember_profile_language(request, player_for_user(user))
