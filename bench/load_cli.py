"""The live load's command line (bench/load.py): its options, the accounts a run needs, and
their API tokens, made through Django before anything is measured."""

from __future__ import annotations

import argparse
import os


def parse(argv: list[str], description: str | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=description, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--base", default="http://127.0.0.1:8000", help="comma-separated server processes")
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--rate", type=float, default=125.0, help="moves per second, all tables together")
    parser.add_argument("--duration", type=float, default=600.0, help="seconds of load")
    parser.add_argument("--turn-seconds", type=int, default=600)
    parser.add_argument("--deadlines", type=int, default=0, help="tables for the clock phase (e.g. 200)")
    parser.add_argument("--time-bank", action="store_true", help="the clock phase's tables have a time bank")
    parser.add_argument(
        "--moves-via",
        choices=("http", "socket"),
        default="http",
        help="send moves as HTTP requests (POST .../moves) or as messages on the mover's table socket",
    )
    parser.add_argument(
        "--play",
        choices=("knock", "stock"),
        default="knock",
        help="knock: least-deadwood discards, knock when allowed, next deals and rematches (deals of "
        "varied length); stock: never knock, every deal runs out of stock in step on all tables",
    )
    parser.add_argument(
        "--over-time", type=float, default=0, help="also report latency per stretch of this many seconds"
    )
    parser.add_argument("--connections", type=int, default=20, help="HTTP requests in flight at most")
    parser.add_argument(
        "--four-seat-share",
        type=float,
        default=0.0,
        help="this share of --tables are tables of four (partnership gin), two boards each at a time",
    )
    return parser.parse_args(argv)


def accounts_needed(arguments: argparse.Namespace) -> int:
    tables: int = arguments.tables
    deadlines: int = arguments.deadlines
    four_seat = round(tables * float(arguments.four_seat_share))
    return max(2 * (tables - four_seat) + 4 * four_seat, 2 * deadlines)


def make_tokens(count: int, prefix: str) -> list[str]:
    """``count`` accounts with one API token each."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model

    try:
        from tables.accounts.identity import issue_api_token
    except ModuleNotFoundError:  # a checkout before tables/ was split into rooms (bench/live_compare.py)
        from tables.identity import issue_api_token  # type: ignore[import-not-found,no-redef]

    User = get_user_model()
    users = User.objects.bulk_create(
        [
            User(username=f"{prefix}{number}", email=f"{prefix}{number}@bench.invalid")
            for number in range(count)
        ]
    )
    tokens = [issue_api_token(user, "bench")[1] for user in users]
    from django.db import connections

    connections.close_all()
    return tokens
