"""A short smoke run of the arena (the strength runs are benchmarks: bench/README.md)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

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


@pytest.mark.slow  # arena matches with LUNA, some 7 s
def test_json_report_and_luna_plays_in_the_arena(capsys: pytest.CaptureFixture[str]) -> None:
    main(["luna", "tito", "--games", "1", "--ruleset", "reino", "--seed", "2", "--quiet", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert report["matches"] == 1 and report["deals"] >= 1
    assert set(report) >= {"a_match_win_rate", "a_win_rate_95", "luna", "tito"}
    assert report["luna"]["decisions"] > 0


@pytest.mark.slow  # the same arena run twice, some 3 s
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


def _log_lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def _without_clock(report: dict[str, Any]) -> dict[str, Any]:
    """The report but its decision times, which differ from run to run."""
    clock = {"median_ms", "p99_ms", "cpu_median_ms", "cpu_p99_ms"}
    return {
        key: {k: v for k, v in value.items() if k not in clock} if isinstance(value, dict) else value
        for key, value in report.items()
    }


@pytest.mark.slow  # arena matches, some 3 s
def test_the_log_holds_one_line_per_match_and_rebuilds_the_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "run.jsonl"
    main(
        [
            "carmen",
            "simple",
            "--games",
            "5",
            "--ruleset",
            "classic",
            "--seed",
            "3",
            "--quiet",
            "--json",
            "--log",
            str(log),
        ]
    )
    played = json.loads(capsys.readouterr().out)
    lines = _log_lines(log)
    assert sorted(line["match"] for line in lines) == [0, 1, 2, 3, 4]
    assert {line["seed"] for line in lines} == {3}
    assert all(line["winner"] in (0, 1) and line["deals"] and len(line["cpu"][0]) > 0 for line in lines)
    assert main(["--report", str(log), "--json"]) == 0
    rebuilt = json.loads(capsys.readouterr().out)
    assert rebuilt == played


def test_reports_combine_match_ranges_and_seeds(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    common = ["tito", "simple", "--ruleset", "classic", "--quiet", "--json"]
    main([*common, "--games", "6", "--seed", "5"])
    whole = json.loads(capsys.readouterr().out)
    first, second, other_seed = tmp_path / "a.jsonl", tmp_path / "b.jsonl", tmp_path / "c.jsonl"
    main([*common, "--games", "4", "--seed", "5", "--log", str(first)])
    main([*common, "--games", "2", "--first", "4", "--seed", "5", "--workers", "2", "--log", str(second)])
    main([*common, "--games", "3", "--seed", "6", "--log", str(other_seed)])
    capsys.readouterr()
    main(["--report", str(first), str(second), str(first), "--json"])  # a file twice counts once
    assert _without_clock(json.loads(capsys.readouterr().out)) == _without_clock(whole)
    main(["--report", str(first), str(second), str(other_seed)])
    out = capsys.readouterr().out
    assert "tito vs simple: 9 matches, classic (target 100), seeds 5, 6" in out


def test_resume_plays_only_the_missing_matches(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    common = ["tito", "simple", "--ruleset", "classic", "--seed", "8", "--quiet", "--json"]
    main([*common, "--games", "5"])
    whole = json.loads(capsys.readouterr().out)
    log = tmp_path / "killed.jsonl"
    main([*common, "--games", "2", "--log", str(log)])
    with log.open("a") as cut:
        cut.write('{"bots": ["tito", "simple"], "match": 2')  # a line cut short by the kill
    capsys.readouterr()
    main([*common, "--games", "5", "--log", str(log), "--resume"])
    assert _without_clock(json.loads(capsys.readouterr().out)) == _without_clock(whole)
    lines = log.read_text().splitlines()
    assert lines[2].endswith('"match": 2')  # the cut line stays alone, and is skipped
    assert sorted(json.loads(line)["match"] for line in lines[:2] + lines[3:]) == [0, 1, 2, 3, 4]


def test_a_report_refuses_logs_of_different_pairings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tito, carmen = tmp_path / "tito.jsonl", tmp_path / "carmen.jsonl"
    main(["tito", "simple", "--games", "1", "--quiet", "--log", str(tito)])
    main(["carmen", "simple", "--games", "1", "--quiet", "--log", str(carmen)])
    capsys.readouterr()
    assert main(["--report", str(tito), str(carmen)]) == 2
    assert "report them apart" in capsys.readouterr().err


def test_bots_or_a_report_are_required() -> None:
    with pytest.raises(SystemExit):
        main(["--games", "2"])
