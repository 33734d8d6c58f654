"""The writers of accounts: the profile, a guest adopted by its account, vacation, login sessions, deleting the account, its data export, declaring a bot account."""

from tables.accounts.services.bot_account import declare_bot_account
from tables.accounts.services.data_export import (
    build_export,
    export_by_key,
    latest_export,
    link_key,
    request_export,
)
from tables.accounts.services.deletion import delete_account
from tables.accounts.services.profile import adopt_guest, update_profile
from tables.accounts.services.sessions import end_other_sessions, end_session, end_sessions, live_sessions
from tables.accounts.services.vacation import (
    declare_vacation,
    end_vacation,
    expire_vacation,
    set_automatic_vacation,
    sweep_vacations,
)

__all__ = [
    "adopt_guest",
    "build_export",
    "declare_bot_account",
    "declare_vacation",
    "delete_account",
    "end_other_sessions",
    "end_session",
    "end_sessions",
    "end_vacation",
    "expire_vacation",
    "export_by_key",
    "latest_export",
    "link_key",
    "live_sessions",
    "request_export",
    "set_automatic_vacation",
    "sweep_vacations",
    "update_profile",
]
