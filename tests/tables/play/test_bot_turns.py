"""The Celery task (tables/play/tasks.py): a bot plays its turn through the move writer, once per turn."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import pytest

import rules
from tables.accounts.models import Player
from tables.background import registry
from tables.background.scheduling import think_delay
from tables.play import engine, services
from tables.play.models import Move, Table
from tables.play.tasks import play_bot_turn


def _table_with_bot(level: str, ruleset: str = "classic") -> tuple[Table, Player]:
    human = Player.objects.create(display_name="Ana", guest_key=f"guest-{level}-{ruleset}")
    table = services.create_table(human, ruleset=ruleset)
    services.add_bot(table.pk, human, level)
    services.start_match(table.pk, human)
    return Table.objects.get(pk=table.pk), human


def _play_human_until_bot_turn(table: Table, human: Player) -> Table:
    human_seat = table.seat_of(human)
    while True:
        table = Table.objects.get(pk=table.pk)
        state = engine.load_deal(table.current_deal)
        if state.is_over or state.to_play != human_seat:
            return table
        services.apply_move(table.pk, human, rules.timeout_action(state), expected_version=table.version)


@pytest.mark.django_db
@pytest.mark.parametrize("level", ["tito", "carmen", "luna"])
def test_the_bot_plays_its_turn_once(level: str) -> None:
    table, human = _table_with_bot(level)
    table = _play_human_until_bot_turn(table, human)
    version, deal_id = table.version, table.current_deal_id
    played = play_bot_turn(deal_id, version, True)
    assert played not in ("stale", "not a bot's turn")
    assert Table.objects.get(pk=table.pk).version == version + 1
    assert play_bot_turn(deal_id, version, True) == "stale"  # the same turn again: nothing happens
    bot_moves = Move.objects.filter(deal_id=deal_id, source=Move.Source.BOT)
    assert bot_moves.count() == 1
    assert bot_moves.get().action == played


def _play_bot_until_human_turn(table: Table, human: Player) -> Table:
    while engine.load_deal(table.current_deal).to_play != table.seat_of(human):
        play_bot_turn(table.current_deal_id, table.version, True)
        table = Table.objects.get(pk=table.pk)
    return table


@pytest.mark.django_db
def test_after_the_humans_turn_the_bot_answers_through_the_scheduler(
    django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(play_bot_turn.app.conf, "task_always_eager", True)
    table, human = _table_with_bot("carmen", ruleset="playgridia")
    table = _play_bot_until_human_turn(table, human)
    bot_moves = Move.objects.filter(source=Move.Source.BOT).count()
    with django_capture_on_commit_callbacks(execute=True):
        table = _play_human_until_bot_turn(table, human)
    state = engine.load_deal(Table.objects.get(pk=table.pk).current_deal)
    assert state.is_over or state.to_play == table.seat_of(human)
    assert Move.objects.filter(source=Move.Source.BOT).count() >= bot_moves + 1


@pytest.mark.django_db
def test_the_task_does_nothing_on_the_humans_turn() -> None:
    table, human = _table_with_bot("tito", ruleset="playgridia")
    table = _play_bot_until_human_turn(table, human)
    assert play_bot_turn(table.current_deal_id, table.version, True) == "not a bot's turn"
    assert Table.objects.get(pk=table.pk).version == table.version


def test_the_pause_is_human_on_live_clocks_and_absent_on_slow_ones() -> None:
    rng = random.Random(1)
    for _ in range(20):
        assert 1.0 <= think_delay(SimpleNamespace(turn_seconds=45), rng) <= 2.0
    assert think_delay(SimpleNamespace(turn_seconds=86_400), rng) == 0.0


def test_the_pause_reads_only_what_a_table_has() -> None:
    """A table has no pause of its own: the clock alone decides (an attribute set on a row by
    hand, as no field ever would, changes nothing)."""
    assert not any(field.name == "bot_delay_seconds" for field in Table._meta.get_fields())
    table = Table(turn_seconds=45)
    table.bot_delay_seconds = 0  # type: ignore[attr-defined]
    assert 1.0 <= think_delay(table, random.Random(2)) <= 2.0


def test_the_task_keeps_its_name_from_before_it_moved() -> None:
    """Messages queued by an earlier release name bots.tasks.play_bot_turn: they still run."""
    assert play_bot_turn.name == registry.PLAY_BOT_TURN.name == "tables.play.tasks.play_bot_turn"
    assert play_bot_turn.app.tasks["bots.tasks.play_bot_turn"].run is play_bot_turn.run
