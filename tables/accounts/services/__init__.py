"""The writers of accounts: the profile, a guest adopted by its account, and vacation."""

from tables.accounts.services.profile import adopt_guest, update_profile
from tables.accounts.services.vacation import declare_vacation, end_vacation, expire_vacation, sweep_vacations

__all__ = [
    "adopt_guest",
    "declare_vacation",
    "end_vacation",
    "expire_vacation",
    "sweep_vacations",
    "update_profile",
]
