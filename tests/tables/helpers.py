"""Driving tables through the HTTP API as real clients do, and the hidden-information scan."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterable
from typing import Any

from allauth.account.models import EmailAddress
from allauth.mfa.totp.internal.auth import format_hotp_value, hotp_value
from django.contrib.auth import get_user_model
from django.test import Client

import rules
from tables.play import engine
from tables.play.models import Deal, Move, Table

CARD_PATTERN = re.compile(r"(?<![A-Za-z0-9_-])([A2-9TJQK][SHDC])(?![A-Za-z0-9_-])")


class ApiClient:
    """A browser (session cookies) or a program (bearer token) talking JSON to /api/."""

    def __init__(self, client: Client | None = None, token: str | None = None, name: str = ""):
        self.client = client or Client()
        self.headers = {"Authorization": f"Bearer {token}"} if token else {}
        self.name = name
        self.received: list[str] = []  # every response body, for the hidden-information scan

    def request(self, method: str, path: str, body: Any = None, raw: str | None = None):
        data = raw if raw is not None else (json.dumps(body) if body is not None else None)
        if method == "get":
            data = None
        call = getattr(self.client, method)
        kwargs = {"content_type": "application/json", "headers": self.headers}
        response = call(f"/api{path}", data, **kwargs) if data is not None else call(f"/api{path}", **kwargs)
        self.received.append(response.content.decode())
        return response

    def get(self, path: str):
        return self.request("get", path)

    def post(self, path: str, body: Any = None, raw: str | None = None):
        return self.request("post", path, body if body is not None or raw is not None else {}, raw)

    def ok(self, method: str, path: str, body: Any = None, status: int = 200) -> dict[str, Any]:
        response = self.request(method, path, body)
        assert response.status_code == status, (response.status_code, response.content[:500])
        return response.json()

    def state(self, token: str) -> dict[str, Any]:
        return self.ok("get", f"/tables/{token}")


def make_account_client(email: str, *, staff: bool = False) -> ApiClient:
    user = get_user_model().objects.create_user(
        username=email.split("@")[0], email=email, password="a long enough password 1", is_staff=staff
    )
    EmailAddress.objects.create(user=user, email=email, verified=True, primary=True)
    client = Client()
    client.force_login(user)
    api = ApiClient(client, name=email)
    api.user = user
    return api


def pages_in(client: Client, language: str, paths: Iterable[str]) -> dict[str, str]:
    """Each page in ``language`` (its cookie and header, as a browser sends them), each answering
    200: their HTML by path."""
    client.cookies["django_language"] = language
    pages = {}
    for path in paths:
        response = client.get(path, HTTP_ACCEPT_LANGUAGE=language)
        assert response.status_code == 200, (language, path, response.status_code)
        pages[path] = response.content.decode()
    return pages


def open_table(owner: ApiClient, **options: Any) -> dict[str, Any]:
    return owner.ok("post", "/tables", options, status=201)


def account_pair(round_: int) -> tuple[ApiClient, ApiClient]:
    """Two new accounts, alice and bob, for one round of a test that makes several."""
    return make_account_client(f"alice{round_}@example.com"), make_account_client(f"bob{round_}@example.com")


def seated_table(owner: ApiClient, guest: ApiClient, **options: Any) -> str:
    token = open_table(owner, **options)["table"]
    guest.ok("post", f"/tables/{token}/join", {"name": guest.name or "Guest"})
    return token


def choose_action(view: dict[str, Any], turn: int) -> str:
    """A plain but complete strategy: pass the upcard, sometimes take the discard, knock when allowed."""
    legal = view["legal_actions"]
    if "big_gin" in legal:
        return "big_gin"
    knocks = [action for action in legal if action.startswith("knock")]
    if knocks:
        return knocks[0]
    if view["phase"] == "offer":
        return "take_upcard" if turn % 4 == 3 and "take_upcard" in legal else "pass"
    if view["phase"] == "draw":
        return "take_discard" if turn % 3 == 0 and "take_discard" in legal else "draw_stock"
    choice = rules.best_discard(view["hand"], exclude=view["just_taken"])
    return f"discard {choice.card}"


def start_and_pass_the_turn(owner: ApiClient, token: str) -> dict[str, Any]:
    """The owner starts the match and plays until it is the other player's move: their state."""
    state = owner.ok("post", f"/tables/{token}/start", {})
    seat = state["you"]["seat"]
    while state["deal"]["view"]["to_play"] == seat:
        action = choose_action(state["deal"]["view"], 0)
        body = {
            "action": action,
            "expected_version": state["version"],
            "client_move_id": f"m{state['version']}",
        }
        state = owner.ok("post", f"/tables/{token}/moves", body)["state"]
    return state


def play_deal(token: str, players: dict[int, ApiClient], watchers: list[ApiClient] = ()) -> dict[str, Any]:
    """Play the current deal to its end through the API. Whenever the turn passes, the next
    mover fetches the table (that is what it plays from), watchers do every other time, and
    everything each client received is scanned for hidden cards."""
    turn = changes = 0
    state = mine = players[0].state(token)
    while state["status"] == "playing":
        seat = state["deal"]["view"]["to_play"]
        mover = players[seat]
        if mine["you"]["seat"] != seat:
            mine = mover.state(token)
        action = choose_action(mine["deal"]["view"], turn)
        body = {
            "action": action,
            "expected_version": mine["version"],
            "client_move_id": f"m{mine['version']}",
        }
        result = mover.ok("post", f"/tables/{token}/moves", body)
        assert result["applied"] is True
        turn += 1
        state = mine = result["state"]
        if state["deal"]["view"]["to_play"] not in (seat, None):
            changes += 1
            mine = players[1 - seat].state(token)
            for watcher in watchers if changes % 2 else ():
                watcher.state(token)
            assert_no_hidden_cards(token, players, watchers)
    for client in [players[1 - seat], *watchers]:
        client.state(token)  # the showdown, as everyone sees it
    assert_no_hidden_cards(token, players, watchers)
    return state


def play_match(token: str, players: dict[int, ApiClient], watchers: list[ApiClient] = ()) -> dict[str, Any]:
    state = players[0].state(token)
    while True:
        state = play_deal(token, players, watchers)
        if state["status"] == "match_over":
            return state
        state = players[state["version"] % 2].ok(
            "post", f"/tables/{token}/next-deal", {"expected_version": state["version"]}
        )


def secret_cards(deal: rules.Deal, seat: int | None) -> set[str]:
    """The cards ``seat`` (None: a spectator) must not see: the stock and the other hidden hand(s)."""
    if deal.is_over:
        return {str(card) for card in deal.deck[52 - deal.stock_count :]}  # the stock stays secret
    view = deal.view(seat)
    hidden = {str(card) for card in deal.deck[52 - deal.stock_count :]}
    for other in (0, 1):
        if other != seat:
            public = {str(card) for card in view.known_cards[other]}
            hidden |= {str(card) for card in deal.hand(other)} - public
    return hidden


def cards_in(text: str) -> set[str]:
    return set(CARD_PATTERN.findall(text))


def assert_no_hidden_cards(token: str, players: dict[int, ApiClient], watchers=()) -> None:
    """Each body received since the last scan is checked against the deal as it is now
    (the scan runs after every move, so "now" is when the body was sent)."""
    table = Table.objects.select_related("current_deal").get(invite_token=token)
    deal = engine.load_deal(table.current_deal) if table.current_deal else None
    audience = [(seat, client) for seat, client in players.items()] + [(None, w) for w in watchers]
    for seat, client in audience:
        bodies, client.received = client.received, []
        if deal is None:
            continue
        secret = secret_cards(deal, seat)
        for body in bodies:
            leaked = cards_in(body) & secret
            assert not leaked, f"seat {seat} received hidden cards {leaked}"


def assert_deals_replay(deals: list[Deal]) -> None:
    for deal in deals:
        actions = list(Move.objects.filter(deal=deal).order_by("seq").values_list("action", flat=True))
        replayed = engine.replay_row(deal, actions)
        assert replayed.to_dict() == deal.snapshot, f"deal {deal.pk} does not replay to its stored state"
        assert (replayed.version, replayed.phase, replayed.to_play) == (
            deal.version,
            deal.phase,
            deal.to_play,
        )
        assert [str(card) for card in replayed.deck] == deal.deck.split()


def started(owner: ApiClient, other: ApiClient, **options: Any) -> tuple[str, dict[int, ApiClient]]:
    """A table with both seated and the match started: (token, clients by seat)."""
    token = seated_table(owner, other, **options)
    state = owner.ok("post", f"/tables/{token}/start", {})
    seat = state["you"]["seat"]
    return token, {seat: owner, 1 - seat: other}


def snapshot(token: str) -> tuple:
    """Everything a refused request must leave unchanged."""
    table = Table.objects.get(invite_token=token)
    deals = list(
        Deal.objects.filter(match__table=table).order_by("pk").values_list("pk", "snapshot", "status")
    )
    moves = Move.objects.filter(deal__match__table=table).count()
    matches = list(table.matches.order_by("pk").values_list("pk", "record", "status", "timeouts_in_row"))
    seats = (table.seat0_id, table.seat1_id, table.current_deal_id, table.rematch_offered_by)
    return table.version, seats, deals, moves, matches, table.chat.count()


def to_play(token: str, players: dict[int, ApiClient]) -> tuple[ApiClient, ApiClient, dict[str, Any]]:
    """(the client whose turn it is, the other one, the mover's state)."""
    state = players[0].state(token)
    seat = state["deal"]["view"]["to_play"]
    return players[seat], players[1 - seat], players[seat].state(token)


TOTP_STEP = 30  # seconds (allauth's MFA_TOTP_PERIOD)


def totp_code(secret: str, margin: float = 10) -> str:
    """The authenticator app's code, taken at least ``margin`` seconds before its step ends:
    allauth accepts no neighbouring step, and on a loaded machine a code typed near the end of
    its step reached the server in the next one ("wrong code")."""
    left = TOTP_STEP - time.time() % TOTP_STEP
    if left < margin:
        time.sleep(left + 0.05)
    return format_hotp_value(hotp_value(secret, int(time.time()) // TOTP_STEP))
