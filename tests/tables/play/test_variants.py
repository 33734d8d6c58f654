"""The variants of the classic rules at a table: the Oklahoma preset and Hollywood scoring.

Whole matches through the HTTP API (a spectator scanning for hidden cards), the stored match
record replayed from the deals' move logs, the payload's three games, and the refusals."""

from __future__ import annotations

import dataclasses

import pytest
from django.urls import reverse

import rules
from rules import RULESETS
from tables.play import engine, payloads
from tables.play.models import Match, Move, Table
from tables.play.state_schema import MatchStateOut
from tests.tables.helpers import ApiClient, open_table, play_match, started


def replayed_record(match: Match) -> rules.Match:
    """The match as the engine rebuilds it from each deal's deck and move log alone."""
    record = rules.Match.new(engine.ruleset_of(match.ruleset), match.first_dealer)
    for deal in match.deals.order_by("number"):
        actions = list(Move.objects.filter(deal=deal).order_by("seq").values_list("action", flat=True))
        record = record.record(engine.replay_row(deal, actions))
    return record


def play_through(alice: ApiClient, bob: ApiClient, **options) -> tuple[dict, Match]:
    spectator = ApiClient(name="spectator")
    token, players = started(alice, bob, **options)
    final = play_match(token, players, [spectator])
    assert final["status"] == "match_over" and final["match"]["outcome"] == "completed"
    match = Match.objects.get(table__invite_token=token, number=1)
    assert replayed_record(match).to_dict() == match.record  # the move logs replay the score sheet
    assert spectator.state(token)["match"] == final["match"]
    return final, match


@pytest.mark.slow  # whole Hollywood matches, 3 to 13 s each
@pytest.mark.django_db
@pytest.mark.parametrize(
    ("ruleset", "target"),
    [("classic", None), ("playgridia", 100), ("oklahoma", None)],
    ids=["classic", "playgridia-100", "oklahoma"],
)
def test_a_hollywood_match_runs_clean_and_replays(alice, bob, ruleset, target):
    final, match = play_through(alice, bob, ruleset=ruleset, target=target, hollywood=True)
    state = final["match"]
    record = engine.load_match(match)
    assert record.ruleset.hollywood and match.ruleset["hollywood"] is True
    games = state["games"]
    assert [game["number"] for game in games] == [1, 2, 3] and all(game["closed"] for game in games)
    assert [game["totals"] for game in games] == [row for row in state["score_sheet"][-1]["games"]]
    assert state["winner"] == record.winner and state["final_scores"] == engine.final_scores(record)
    for seat in (0, 1):  # the match's score is the sum of its three games'
        for key in ("deal_points", "game_bonus", "deal_bonus", "total"):
            assert state["final_scores"][seat][key] == sum(game["final_scores"][seat][key] for game in games)
    assert MatchStateOut.model_validate(state).model_dump() == state
    exported = alice.ok("get", f"/tables/{final['table']}/matches/1/export")["match"]
    assert exported == match.record and exported["deals"][-1]["games"] == [game["totals"] for game in games]
    if ruleset == "oklahoma":
        assert_oklahoma_deals(match)


@pytest.mark.slow  # a whole match, some 4 s
@pytest.mark.django_db
def test_an_oklahoma_match_runs_clean_and_replays(alice, bob):
    final, match = play_through(alice, bob, ruleset="oklahoma")
    assert final["options"]["ruleset"] == RULESETS["oklahoma"].to_dict()
    assert final["match"]["games"] is None
    assert_oklahoma_deals(match)


def assert_oklahoma_deals(match: Match) -> None:
    """Each deal's knock limit and multiplier come from its upcard, as the stored views say."""
    for deal in match.deals.all():
        upcard = rules.Card.parse(deal.deck.split()[20])
        state = engine.load_deal(deal)
        assert state.knock_limit == (0 if upcard.rank == 1 else upcard.points)
        assert state.multiplier == (2 if upcard.suit == "S" else 1)


# -- creating: API and form -----------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("options", "field", "message"),
    [
        ({"ruleset": "playgridia", "hollywood": True}, "hollywood", "a single deal cannot have it"),
        ({"ruleset": "playgridia", "custom": {"hollywood": True}}, "custom", "needs a target"),
        ({"ruleset": "classic", "custom": {"hollywood": "yes"}}, "custom", "hollywood must be true or false"),
        ({"ruleset": "classic", "hollywood": True, "custom": {"target": None}}, "hollywood", "single deal"),
        ({"ruleset": "oklahoma", "hollywood": "maybe"}, None, ""),
    ],
)
def test_bad_combinations_are_refused_400_and_open_nothing(alice, options, field, message):
    response = alice.post("/tables", options)
    assert response.status_code in (400, 422), response.content
    body = response.json()
    if field is not None:
        assert response.status_code == 400 and body["field"] == field and message in body["detail"]
    assert not Table.objects.exists()


@pytest.mark.django_db
def test_the_api_opens_oklahoma_and_hollywood_tables(alice):
    oklahoma = open_table(alice, ruleset="oklahoma")
    assert oklahoma["options"]["ruleset"]["oklahoma"] is True
    assert oklahoma["options"]["ruleset"]["hollywood"] is False
    both = open_table(alice, ruleset="oklahoma", hollywood=True)
    expected = dataclasses.replace(RULESETS["oklahoma"], hollywood=True)
    assert both["options"]["ruleset"] == expected.to_dict()
    single = open_table(alice, ruleset="playgridia", target=100, hollywood=True)
    assert single["options"]["ruleset"]["target"] == 100 and single["options"]["ruleset"]["hollywood"]


@pytest.mark.django_db
def test_the_new_table_form_offers_oklahoma_and_hollywood(client):
    page = client.get(reverse("new_table"), headers={"accept-language": "en"}).content.decode()
    assert '<option value="oklahoma">oklahoma</option>' in page
    assert 'name="hollywood"' in page and "Hollywood scoring: three games at once" in page
    spanish = client.get(reverse("new_table"), headers={"accept-language": "es"}).content.decode()
    assert "Puntuación Hollywood: tres partidas a la vez" in spanish
    assert "la primera carta abierta fija con cuántos puntos se cierra" in spanish
    client.post(reverse("new_table"), {"name": "Ana", "ruleset": "oklahoma", "turn_seconds": "86400"})
    assert Table.objects.get().ruleset == RULESETS["oklahoma"].to_dict()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("ruleset", "to_100"), [("playgridia", False), ("playgridia", True), ("classic", False)]
)
def test_the_form_stores_hollywood_in_the_tables_rule_set(client, ruleset, to_100):
    form = {"name": "Ana", "ruleset": ruleset, "hollywood": "on", "turn_seconds": "86400"}
    if to_100:
        form["to_100"] = "on"
    response = client.post(reverse("new_table"), form)
    table = Table.objects.get()
    assert response.status_code == 302 and response["Location"].endswith(table.invite_token + "/")
    # playgridia's one deal cannot be played three times over: the form plays its games to 100
    assert table.ruleset == dataclasses.replace(RULESETS[ruleset], target=100, hollywood=True).to_dict()
    page = client.get(response["Location"], headers={"accept-language": "es"}).content.decode()
    assert 'id="hollywood-pill"' in page


@pytest.mark.django_db
def test_a_hollywood_payload_before_any_deal_shows_three_open_games(alice, bob):
    token, _ = started(alice, bob, ruleset="classic", hollywood=True)
    state = alice.state(token)["match"]
    assert [(game["totals"], game["closed"], game["final_scores"]) for game in state["games"]] == [
        ([0, 0], False, None)
    ] * 3
    match = Match.objects.get(table__invite_token=token)
    assert payloads.match_state(match)["games"] == state["games"]


@pytest.mark.django_db
def test_the_lobby_and_my_tables_mark_hollywood_tables_with_their_target(alice, bob):
    hollywood = open_table(alice, ruleset="classic", hollywood=True, visibility="public")["table"]
    plain = open_table(alice, ruleset="playgridia", target=150, visibility="public")["table"]
    lobby = {row["table"]: row for row in bob.ok("get", "/lobby")["tables"]}
    mine = {row["table"]: row for row in alice.ok("get", "/me/tables")["tables"]}
    for rows in (lobby, mine):
        assert (rows[hollywood]["hollywood"], rows[hollywood]["target"]) == (True, 100)
        assert (rows[plain]["hollywood"], rows[plain]["target"]) == (False, 150)
    for client, url in ((bob.client, "/lobby/"), (alice.client, "/me/tables/")):
        page = client.get(url, headers={"accept-language": "en"}).content.decode()
        assert _row_of(page, hollywood).count('<span class="tag">Hollywood</span>') == 1
        assert "to 100" in _row_of(page, hollywood)
        assert "Hollywood" not in _row_of(page, plain) and "to 150" in _row_of(page, plain)
        spanish = client.get(url, headers={"accept-language": "es"}).content.decode()
        assert "a 100" in _row_of(spanish, hollywood)


def _row_of(page: str, token: str) -> str:
    """The <li> of the page's list that links to the table."""
    link = page.index(f'href="/t/{token}/"')
    return page[page.rindex("<li", 0, link) : page.index("</li>", link)]
