"""The writers of accounts: the profile, a guest adopted by its account, vacation, login sessions."""

from tables.accounts.services.profile import adopt_guest, update_profile
from tables.accounts.services.sessions import end_other_sessions, end_session, end_sessions, live_sessions
from tables.accounts.services.vacation import declare_vacation, end_vacation, expire_vacation, sweep_vacations

__all__ = [
    "adopt_guest",
    "declare_vacation",
    "end_other_sessions",
    "end_session",
    "end_sessions",
    "end_vacation",
    "expire_vacation",
    "live_sessions",
    "sweep_vacations",
    "update_profile",
]
