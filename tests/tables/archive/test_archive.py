"""The players' archive: who may see a match and its replay, the replay's positions are the
engine's, and a running match's hidden cards never leave the server."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

import rules
from tables.play import engine
from tables.play.models import Deal, Match, Move, Table
from tests.tables.helpers import (
    ApiClient,
    cards_in,
    choose_action,
    make_account_client,
    play_deal,
    play_match,
    secret_cards,
    started,
)

pytestmark = pytest.mark.django_db


def finished_match(alice, bob, **options) -> tuple[Match, dict[int, ApiClient]]:
    token, players = started(alice, bob, **options)
    play_match(token, players)
    return Match.objects.get(table__invite_token=token), players


def pages(match: Match, number: int = 1) -> list[str]:
    return [
        reverse("match_archive", args=[match.pk]),
        reverse("deal_replay", args=[match.pk, number]),
        f"/api/matches/{match.pk}",
        f"/api/matches/{match.pk}/deals/{number}/replay",
    ]


def statuses(client: Client, urls: list[str]) -> list[int]:
    return [client.get(url).status_code for url in urls]


@pytest.fixture
def carol(db):
    return make_account_client("carol@example.com")


@pytest.fixture
def staff(db):
    return make_account_client("staff@example.com", staff=True)


# -- who may see --------------------------------------------------------------------------


def test_the_players_see_their_finished_match_and_its_replay(alice, bob):
    match, _ = finished_match(alice, bob)
    for player in (alice, bob):
        assert statuses(player.client, pages(match)) == [200, 200, 200, 200]
    body = alice.client.get(reverse("match_archive", args=[match.pk])).content.decode()
    assert reverse("deal_replay", args=[match.pk, 1]) in body


def test_a_stranger_gets_a_404_at_a_private_table(alice, bob, carol):
    match, _ = finished_match(alice, bob)
    assert match.table.visibility == Table.Visibility.INVITE
    assert statuses(carol.client, pages(match)) == [404, 404, 404, 404]
    assert statuses(Client(), pages(match)) == [404, 404, 404, 404]  # nobody logged in


def test_anyone_sees_a_public_tables_finished_match(alice, bob, carol):
    match, _ = finished_match(alice, bob, visibility="public")
    assert statuses(carol.client, pages(match)) == [200, 200, 200, 200]
    assert statuses(Client(), pages(match)) == [200, 200, 200, 200]


def test_staff_see_any_match_even_a_running_one(alice, bob, staff):
    token, players = started(alice, bob, target=100)
    play_deal(token, players)  # deal 1 is over, the match goes on
    match = Match.objects.get(table__invite_token=token)
    assert match.status == Match.Status.PLAYING
    assert statuses(staff.client, pages(match)) == [200, 200, 200, 200]
    assert staff.client.get(reverse("replay", args=[match.deals.get(number=1).pk])).status_code == 200
    alice.ok("post", f"/tables/{token}/next-deal", {"expected_version": alice.state(token)["version"]})
    assert statuses(staff.client, pages(match, number=2)) == [200, 200, 200, 200]  # the deal in play
    assert staff.ok("get", f"/matches/{match.pk}/deals/2/replay")["showdown"] is None


def test_a_running_match_is_not_in_its_players_archive(alice, bob):
    token, players = started(alice, bob, target=100, visibility="public")
    play_deal(token, players)
    match = Match.objects.get(table__invite_token=token)
    assert match.deals.get(number=1).status == Deal.Status.OVER
    for client in (alice.client, bob.client, Client()):
        assert statuses(client, pages(match)) == [404, 404, 404, 404]


def test_a_deal_cut_short_by_a_resignation_is_listed_but_not_replayable(alice, bob):
    token, players = started(alice, bob, target=100)
    play_deal(token, players)
    state = alice.ok(
        "post", f"/tables/{token}/next-deal", {"expected_version": alice.state(token)["version"]}
    )
    alice.ok("post", f"/tables/{token}/resign", {"expected_version": state["version"]})
    match = Match.objects.get(table__invite_token=token)
    assert match.outcome == Match.Outcome.RESIGNED
    answer = bob.ok("get", f"/matches/{match.pk}")
    assert [(deal["status"], deal["replayable"]) for deal in answer["deals"]] == [
        ("over", True),
        ("abandoned", False),
    ]
    assert answer["outcome"] == "resigned"
    assert statuses(bob.client, pages(match, number=2)) == [200, 404, 200, 404]
    assert bob.client.get(reverse("match_archive", args=[match.pk])).status_code == 200


def test_an_unknown_match_or_deal_is_a_404(alice, bob):
    match, _ = finished_match(alice, bob)
    assert statuses(alice.client, pages(match, number=9)) == [200, 404, 200, 404]
    assert alice.client.get("/matches/999999/").status_code == 404
    assert alice.client.get("/api/matches/999999").status_code == 404


# -- the replay is the engine's -------------------------------------------------------------


def test_every_step_of_the_replay_is_the_engines_position(alice, bob):
    match, _ = finished_match(alice, bob)
    deal = match.deals.get(number=1)
    actions = list(deal.moves.order_by("seq").values_list("action", flat=True))
    replay = alice.ok("get", f"/matches/{match.pk}/deals/1/replay")
    assert len(replay["steps"]) == len(actions) + 1
    for number, step in enumerate(replay["steps"]):
        state = rules.replay(
            engine.ruleset_of(deal.ruleset), deal.dealer, deal.deck.split(), actions[:number]
        )
        assert step["version"] == state.version == number
        for seat in (0, 1):
            assert step["hands"][seat]["cards"] == [str(card) for card in state.hand(seat)]
            melding = rules.best_melding(state.hand(seat))
            assert step["hands"][seat]["deadwood"] == melding.points
        assert step["discard_pile"] == [str(card) for card in state.discard_pile]
        assert (step["stock_count"], step["phase"], step["to_play"]) == (
            state.stock_count,
            state.phase,
            state.to_play,
        )
        if number:
            move = step["move"]
            assert f"{move['kind']} {move['card']}".startswith(actions[number - 1].split()[0])
            assert move["seat"] == Move.objects.get(deal=deal, seq=number).seat
    final = engine.load_deal(deal)
    assert replay["showdown"]["result"] == final.result.to_dict()
    assert replay["showdown"]["knocker"] == final.knocker
    assert replay["deal"]["outcome"] == deal.outcome


# -- hidden information ---------------------------------------------------------------------


def test_no_hidden_card_of_a_running_deal_in_any_answer(alice, bob, carol):
    """Mid-deal 2 of a match: everything each person can ask of the archive (and the table page
    with its archive links) is scanned for the cards that person may not see. The target is far
    enough that the first deal never ends the match (a gin against 90 points of deadwood would
    end one to 100)."""
    token, players = started(alice, bob, target=500, visibility="public")
    play_deal(token, players)
    state = alice.ok(
        "post", f"/tables/{token}/next-deal", {"expected_version": alice.state(token)["version"]}
    )
    seat_of_alice = state["you"]["seat"]
    mover = players[state["deal"]["view"]["to_play"]]
    view = mover.state(token)["deal"]["view"]
    body = {"action": choose_action(view, 1), "expected_version": state["version"]}
    mover.ok("post", f"/tables/{token}/moves", body)
    match = Match.objects.get(table__invite_token=token)
    running = engine.load_deal(Table.objects.get(invite_token=token).current_deal)
    audience = [(alice, seat_of_alice), (bob, 1 - seat_of_alice), (carol, None), (ApiClient(), None)]
    urls = [*pages(match, 1), *pages(match, 2), "/me/archive/", "/api/me/archive", f"/t/{token}/"]
    for client, seat in audience:
        secret = secret_cards(running, seat)
        for url in urls:
            body = client.client.get(url).content.decode()
            leaked = cards_in(body) & secret
            assert not leaked, (url, seat, leaked)


def test_the_stock_of_a_finished_deal_stays_secret_in_its_replay(alice, bob, carol):
    match, _ = finished_match(alice, bob, visibility="public")
    deal = engine.load_deal(match.deals.get(number=1))
    stock = {str(card) for card in deal.deck[52 - deal.stock_count :]}
    for client in (alice, carol):
        for url in pages(match):
            assert not cards_in(client.client.get(url).content.decode()) & stock, url


# -- links and lists --------------------------------------------------------------------------


@pytest.mark.slow  # whole matches, 1 to 2 s
def test_the_table_page_links_to_its_finished_matches(alice, bob, carol):
    match, _ = finished_match(alice, bob)
    link = reverse("match_archive", args=[match.pk])
    token = match.table.invite_token
    assert link in alice.client.get(f"/t/{token}/").content.decode()
    assert link not in carol.client.get(f"/t/{token}/").content.decode()  # a private table's visitor


@pytest.mark.slow  # many matches, 1 to 2 s
def test_my_archive_lists_the_finished_matches_a_page_at_a_time(alice, bob):
    first, _ = finished_match(alice, bob)
    table = first.table
    rows = [
        Match(
            table=table,
            number=number,
            ruleset=first.ruleset,
            first_dealer=0,
            record=first.record,
            status=Match.Status.OVER,
            outcome=first.outcome,
            winner=first.winner,
            final_scores=first.final_scores,
            timeouts_in_row=[0, 0],
            ended_at=first.ended_at,
        )
        for number in range(2, 26)
    ]
    Match.objects.bulk_create(rows)
    page = alice.client.get("/me/archive/").content.decode()
    assert page.count('href="/matches/') == 20 and "?page=2" in page
    second = alice.client.get("/me/archive/?page=2").content.decode()
    assert second.count('href="/matches/') == 5
    answer = bob.ok("get", "/me/archive?page=2")
    assert (len(answer["matches"]), answer["page"], answer["pages"]) == (5, 2, 2)
    assert reverse("my_archive") in alice.client.get("/me/tables/").content.decode()


@pytest.mark.slow  # whole matches, some 3 s
def test_the_archive_pages_link_the_players_names_to_their_pages(alice, bob):
    match, _ = finished_match(alice, bob)
    owner, other = match.table.seat0, match.table.seat1
    page = alice.client.get(reverse("match_archive", args=[match.pk])).content.decode()
    for player in (owner, other):
        link = f'<a href="/players/{player.pk}/">{player.display_name}</a>'
        assert page.count(link) == 3  # the heading, the final score, the deals' column
    mine = alice.client.get("/me/archive/").content.decode()
    assert f'href="/players/{other.pk}/"' in mine
    replay = alice.client.get(reverse("deal_replay", args=[match.pk, 1])).content.decode()
    assert f'"player_url": "/players/{other.pk}/"' in replay  # replay.js links the seats' headings


@pytest.mark.slow  # whole matches, 1 to 3 s
def test_a_guests_name_in_the_archive_is_plain_text(alice):
    guest = ApiClient(name="Nadia")
    token = alice.ok("post", "/tables", {"visibility": "public"}, status=201)["table"]
    guest.ok("post", f"/tables/{token}/join", {"name": "Nadia"})
    alice.ok("post", f"/tables/{token}/start", {})
    play_match(token, {0: alice, 1: guest})
    match = Match.objects.get(table__invite_token=token)
    page = alice.client.get(reverse("match_archive", args=[match.pk])).content.decode()
    assert "Nadia" in page and page.count('href="/players/') == 3  # alice's name only


def test_a_match_resigned_before_any_deal_ended_says_so_on_its_page(alice, bob):
    token, _ = started(alice, bob, target=100)
    alice.ok("post", f"/tables/{token}/resign", {"expected_version": alice.state(token)["version"]})
    match = Match.objects.get(table__invite_token=token)
    page = bob.client.get(reverse("match_archive", args=[match.pk])).content.decode()
    assert "Ninguna mano terminó: la partida acabó por abandono." in page
    english = bob.client.get(reverse("match_archive", args=[match.pk]), headers={"Accept-Language": "en"})
    assert "No deal was finished: the match ended by resignation." in english.content.decode()
