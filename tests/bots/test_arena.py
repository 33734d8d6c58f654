"""A short smoke run of the arena (the strength runs are benchmarks: bench/README.md)."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from bots.arena import Setup, main, run, summary, wilson
from rules import RULESETS


def test_a_short_run_prints_the_report(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tito", "simple", "--games", "4", "--ruleset", "classic", "--seed", "1", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "tito vs simple: 4 matches, classic (target 100), seed 1" in out
    assert "tito match win rate" in out and "95% interval" in out
    assert "points/deal" in out and "gin" in out and "undercut" in out
    assert "median" in out and "p99" in out


def test_json_report_and_luna_plays_in_the_arena(capsys: pytest.CaptureFixture[str]) -> None:
    main(["luna", "tito", "--games", "1", "--ruleset", "reino", "--seed", "2", "--quiet", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert report["matches"] == 1 and report["deals"] >= 1
    assert set(report) >= {"a_match_win_rate", "a_win_rate_95", "luna", "tito"}
    assert report["luna"]["decisions"] > 0


def test_a_seed_replays_the_same_matches_whatever_the_workers() -> None:
    setup = Setup(("carmen", "simple"), replace(RULESETS["playgridia"], target=50), seed=9)
    alone = run(setup, 4, workers=1, progress=False)
    pooled = run(setup, 4, workers=2, progress=False)
    assert [match.deals for match in alone] == [match.deals for match in pooled]
    assert [match.winner for match in alone] == [match.winner for match in pooled]
    assert summary(setup, alone)["a_match_wins"] == summary(setup, pooled)["a_match_wins"]


def test_seats_alternate_between_matches() -> None:
    setup = Setup(("tito", "simple"), RULESETS["playgridia"], seed=4)
    results = run(setup, 6, workers=1, progress=False)
    assert [match.seat_of_a for match in results] == [0, 1, 0, 1, 0, 1]
    assert all(match.winner in (0, 1) for match in results)


def test_wilson_interval() -> None:
    low, high = wilson(70, 100)
    assert 0.60 < low < 0.70 < high < 0.79
    assert wilson(0, 0) == (0.0, 1.0)
