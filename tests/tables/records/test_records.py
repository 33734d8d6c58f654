"""The records kept at match end (tables.records) against a recount from scratch: after random
sequences of match ends (played to the end, resigned, forfeit on time; rated and unrated; at
public and invite-only tables; against a robot), each player's totals, each pair's head-to-head
and each player's list agree with the matches, and handling an end twice counts it once."""

from __future__ import annotations

import random

import pytest
from django.contrib.auth import get_user_model

from tables.accounts import identity
from tables.accounts.models import Player
from tables.core.errors import Conflict
from tables.play import engine, selectors, services
from tables.play.models import Deal, Match, Table
from tables.ratings import selectors as player_stats
from tables.records import selectors as records
from tables.records.models import PairRecord, PlayerMatch, PlayerRecord
from tables.records.services import rebuild, record_match
from tables.social import selectors as social
from tests.tables.plain_play import plain_action
from tests.tables.rating_helpers import expire

from . import brute_force

pytestmark = pytest.mark.django_db
ENDINGS = ("resign_at_once", "resign_after_a_deal", "forfeit", "played")


def _accounts(count: int) -> list[Player]:
    users = [get_user_model().objects.create_user(f"p{n}", f"p{n}@example.com") for n in range(count)]
    return [identity.player_for_user(user) for user in users]


def _move(table: Table) -> bool:
    """One move by whoever is to play (a plain strategy), or the next deal; False once over."""
    table = selectors.get_table(table.pk)
    deal = table.current_deal
    if deal.match.status == Match.Status.OVER:
        return False
    if deal.status != Deal.Status.PLAYING:
        services.next_deal(table.pk, table.seat0, table.version)
        return True
    state = engine.load_deal(deal)
    services.apply_move(table.pk, table.seats[state.to_play], plain_action(state), table.version)
    return True


def _play_a_deal(table: Table) -> None:
    deal_id = selectors.get_table(table.pk).current_deal_id
    while _move(table) and selectors.get_table(table.pk).current_deal_id == deal_id:
        if Deal.objects.get(pk=deal_id).status != Deal.Status.PLAYING:
            return


def _playing(table: Table) -> bool:
    return Match.objects.filter(table=table, status=Match.Status.PLAYING).exists()


def _end_a_match(rng: random.Random, players: list[Player]) -> Table:
    ending = rng.choice(ENDINGS)
    owner, other = rng.sample(players, 2)
    robot = ending in ("resign_at_once", "forfeit") and rng.random() < 0.3
    rated = not robot and rng.random() < 0.5
    visibility = rng.choice(list(Table.Visibility))
    table = services.create_table(owner, rated=rated, visibility=visibility, forfeit_after=1, target=50)
    if robot:
        services.add_bot(table.pk, owner, "tito")
    else:
        services.join_table(table.pk, other)
    services.start_match(table.pk, owner)
    if ending == "resign_after_a_deal":
        _play_a_deal(table)  # that deal may have reached the target: the match is then over
    if ending == "resign_at_once" or (ending == "resign_after_a_deal" and _playing(table)):
        services.resign(table.pk, rng.choice([owner] if robot else [owner, other]))
    elif ending == "forfeit":
        expire(table.invite_token)
        services.sweep_overdue()
    else:
        while _move(table):
            pass
    assert Match.objects.get(table=table).status == Match.Status.OVER, ending
    return table


def _assert_records_agree(players: list[Player]) -> None:
    for player in players:
        fresh = Player.objects.get(pk=player.pk)
        assert player_stats.statistics(fresh) == brute_force.statistics(fresh), player
        for viewer in (None, fresh, *players):
            keys = list(records.finished_match_keys(fresh, viewer, False))
            assert keys == brute_force.listed(fresh, viewer), (player, viewer)
            assert player_stats.statistics(fresh, viewer).listed == len(keys)
        for other in players:
            if other.pk != player.pk:
                record = social.head_to_head(fresh, other)
                assert (record.won, record.lost, record.matches, record.last_on) == brute_force.head_to_head(
                    fresh, other
                )


@pytest.mark.slow  # a dozen matches, some played to the end, 5 to 15 s
@pytest.mark.parametrize("seed", [5, 53])
def test_the_records_agree_with_a_recount_after_random_match_ends(seed):
    rng = random.Random(seed)
    players = _accounts(4)
    tables = [_end_a_match(rng, players) for _ in range(10)]
    _assert_records_agree(players)
    # An end handled twice: a second resignation is refused, a second count adds nothing.
    before = _snapshot()
    for table in tables:
        table = Table.objects.select_related("current_deal__match").get(pk=table.pk)
        with pytest.raises(Conflict):
            services.resign(table.pk, table.seat0)
        assert record_match(table, table.current_deal.match, table.current_deal) is False
    assert _snapshot() == before
    rebuild()  # the data migration's backfill counts the same
    assert _snapshot() == before
    _assert_records_agree(players)


def _snapshot() -> tuple[list, list, list]:
    return (
        list(PlayerRecord.objects.order_by("pk").values()),
        list(
            PairRecord.objects.order_by("low", "high").values(
                "low", "high", "matches", "low_wins", "high_wins", "invite_matches", "last_on"
            )
        ),
        list(
            PlayerMatch.objects.order_by("player", "match").values(
                "player", "match", "ended_at", "public", "opponent"
            )
        ),
    )
