"""What the API and the pages show of a tournament: settings, entry rules for the viewer,
players, rounds with their pairings, and standings. Only names, results and table links: a
match's cards stay at its table, which shows each viewer what the engine lets them see."""

from __future__ import annotations

import datetime as dt
from typing import Any

from tables.accounts.models import Player
from tables.tournaments import selectors
from tables.tournaments.engine.standings import Result, Standing, standings
from tables.tournaments.models import Entry, Pairing, Tournament

# The engine keeps match points doubled: Buchholz sums them (so twice the real figure) and
# Sonneborn-Berger multiplies two of them (four times).
BUCHHOLZ_SCALE, SONNEBORN_BERGER_SCALE = 2, 4


def tournament_summary(tournament: Tournament) -> dict[str, Any]:
    players = getattr(tournament, "players", None)
    if players is None:
        players = tournament.entries.filter(withdrawn_at__isnull=True).count()
    return {
        "id": tournament.pk,
        "token": tournament.invite_token,
        "name": tournament.name,
        "format": tournament.format,
        "status": tournament.status,
        "ruleset": tournament.ruleset_name,
        "turn_seconds": tournament.turn_seconds,
        "pace": tournament.pace,
        "rated": tournament.rated,
        "visibility": tournament.visibility,
        "players": players,
        "max_players": tournament.max_players,
        "starts_at": tournament.starts_at.isoformat() if tournament.starts_at else None,
        "round": tournament.round_number,
        "first_round_pending": _first_round_pending(tournament),
        "winner": tournament.winner.name if tournament.winner else None,
        "version": tournament.version,
    }


def _first_round_pending(tournament: Tournament) -> bool:
    """Started, and round 1 not opened yet: its task pairs it and opens its tables after the
    start's commit (services.results.advance), a moment later."""
    return tournament.status == Tournament.Status.RUNNING and tournament.round_number == 0


def tournament_detail(tournament: Tournament, viewer: Player | None, now: dt.datetime) -> dict[str, Any]:
    entries = {
        entry.pk: entry for entry in tournament.entries.select_related("player").order_by("seed", "joined_at")
    }
    pairings = selectors.all_pairings(tournament)
    checks = selectors.entry_rules(tournament, viewer, now)
    return {
        **tournament_summary(tournament),
        "settings": _settings(tournament),
        "creator": tournament.creator.name,
        "entry_rules": [{"rule": c.rule, "met": c.met, "reason": c.reason} for c in checks],
        "may_join": tournament.status == Tournament.Status.REGISTERING and all(c.met for c in checks),
        "entered": viewer is not None
        and any(e.player_id == viewer.pk and e.active for e in entries.values()),
        "entries": [_entry(entry) for entry in entries.values()],
        "rounds": _rounds(tournament, entries, pairings),
    }


def _settings(tournament: Tournament) -> dict[str, Any]:
    options = tournament.options()
    return {
        "target": options.get("target"),
        "hollywood": bool(options.get("hollywood", False)),
        "move_log": options.get("move_log"),
        "vacation_allowed": tournament.vacation_allowed,
        "swiss_rounds": tournament.swiss_rounds if tournament.is_swiss else None,
        "group_size": None if tournament.is_swiss else tournament.group_size,
        "advance_per_group": None if tournament.is_swiss else tournament.advance_per_group,
        "runners_up": None if tournament.is_swiss else tournament.runners_up,
        "home_and_away": None if tournament.is_swiss else tournament.home_and_away,
        "min_rating": tournament.min_rating,
        "max_rating": tournament.max_rating,
        "min_rated_matches": tournament.min_rated_matches,
        "max_timeout_percent": tournament.max_timeout_percent,
        "accounts_only": tournament.accounts_only,
    }


def _entry(entry: Entry) -> dict[str, Any]:
    return {
        "id": entry.pk,
        "player_id": entry.player_id,
        "name": entry.player.name,
        "robot": entry.player.is_bot,
        "seed": entry.seed,
        "rating": round(entry.rating),
        "withdrawn": not entry.active,
        "place": entry.place,
    }


def _rounds(
    tournament: Tournament, entries: dict[int, Entry], pairings: list[Pairing]
) -> list[dict[str, Any]]:
    by_round: dict[int, dict[int, list[Pairing]]] = {}
    for pairing in pairings:
        by_round.setdefault(pairing.round.number, {}).setdefault(pairing.group, []).append(pairing)
    seeds = {pk: entry.seed or 0 for pk, entry in entries.items()}
    rounds = []
    for number in sorted(by_round):
        groups = []
        for group, rows in sorted(by_round[number].items()):
            members = sorted({p.first_id for p in rows} | {p.second_id for p in rows if p.second_id})
            table = standings(members, _results(rows), seeds) if not tournament.is_swiss else []
            groups.append(
                {
                    "group": group,
                    "pairings": [_pairing(p, entries) for p in rows],
                    "standings": [_standing(s, entries, SONNEBORN_BERGER_SCALE) for s in table],
                }
            )
        rounds.append({"number": number, "groups": groups})
    if tournament.is_swiss and pairings:
        results = _results(pairings)
        byes: dict[int, int] = {}
        for p in pairings:
            if p.second_id is None:
                byes[p.first_id] = byes.get(p.first_id, 0) + 1
        table = standings(list(entries), results, seeds, byes, swiss=True)
        rounds.append(
            {
                "number": None,
                "groups": [
                    {
                        "group": 0,
                        "pairings": [],
                        "standings": [_standing(s, entries, BUCHHOLZ_SCALE) for s in table],
                    }
                ],
            }
        )
    return rounds


def _results(rows: list[Pairing]) -> list[Result]:
    return [result for result in map(selectors.result_of, rows) if result is not None]


def _pairing(pairing: Pairing, entries: dict[int, Entry]) -> dict[str, Any]:
    table = pairing.table
    return {
        "id": pairing.pk,
        "first": entries[pairing.first_id].player.name,
        "second": entries[pairing.second_id].player.name if pairing.second_id else None,
        "first_entry": pairing.first_id,
        "second_entry": pairing.second_id,
        "finished": pairing.finished_at is not None,
        "winner_entry": pairing.winner_id,
        "first_points": pairing.first_points,
        "second_points": pairing.second_points,
        "forfeited": pairing.forfeited,
        "table": table.invite_token if table is not None else None,
    }


def _standing(standing: Standing, entries: dict[int, Entry], scale: int) -> dict[str, Any]:
    return {
        "entry": standing.player,
        "name": entries[standing.player].player.name,
        "played": standing.played,
        "match_points": float(standing.match_points),
        "difference": standing.difference,
        "head_to_head": standing.head_to_head / 2,
        "tiebreak": standing.tiebreak / scale,
        "withdrawn": not entries[standing.player].active,
    }


def crosstable(detail: dict[str, Any]) -> list[dict[str, Any]]:
    """Each active round's grid: per group, its players in standings order (or seed order in a
    Swiss) and, for each pair, the result from the row player's side with its table's link."""
    if detail["format"] == Tournament.Format.SWISS:
        return swiss_crosstable(detail)
    grids = []
    for round_ in detail["rounds"]:
        for group in round_["groups"]:
            order = [row["entry"] for row in group["standings"]] or _players_of(group["pairings"])
            names = {e["id"]: e["name"] for e in detail["entries"]}
            cells = {(p["first_entry"], p["second_entry"]): p for p in group["pairings"] if p["second_entry"]}
            rows = [{"name": names[me], "cells": [_cell(cells, me, them) for them in order]} for me in order]
            grids.append(
                {
                    "round": round_["number"],
                    "group": group["group"],
                    "names": [names[e] for e in order],
                    "rows": rows,
                }
            )
    return grids


def _players_of(pairings: list[dict[str, Any]]) -> list[int]:
    seen: list[int] = []
    for pairing in pairings:
        for entry in (pairing["first_entry"], pairing["second_entry"]):
            if entry is not None and entry not in seen:
                seen.append(entry)
    return seen


def _cell(cells: dict[tuple[int, int], dict[str, Any]], me: int, them: int) -> dict[str, Any] | None:
    """The match between ``me`` and ``them`` seen from ``me`` (home and away: the first found)."""
    pairing = cells.get((me, them)) or cells.get((them, me))
    if me == them or pairing is None:
        return None
    mine, theirs = (
        (pairing["first_points"], pairing["second_points"])
        if pairing["first_entry"] == me
        else (pairing["second_points"], pairing["first_points"])
    )
    if not pairing["finished"]:
        mark = "…"
    elif pairing["winner_entry"] is None:
        mark = "½"
    else:
        mark = "1" if pairing["winner_entry"] == me else "0"
    return {
        "mark": mark,
        "score": f"{mine}–{theirs}" if pairing["finished"] else "",
        "table": pairing["table"],
    }


def swiss_crosstable(detail: dict[str, Any]) -> list[dict[str, Any]]:
    """One grid: the players in standings order, a column per round with the opponent met and
    the result from the row player's side (a bye: "+")."""
    played = [r for r in detail["rounds"] if r["number"] is not None]
    final = [r for r in detail["rounds"] if r["number"] is None]
    if not final:
        return []
    order = [row["entry"] for row in final[0]["groups"][0]["standings"]]
    names = {e["id"]: e["name"] for e in detail["entries"]}
    rows = []
    for me in order:
        cells = []
        for round_ in played:
            pairing = next(
                (
                    p
                    for g in round_["groups"]
                    for p in g["pairings"]
                    if me in (p["first_entry"], p["second_entry"])
                ),
                None,
            )
            if pairing is None or pairing["second_entry"] is None:
                cells.append(
                    {"mark": "+" if pairing else "", "score": "", "table": None} if pairing else None
                )
                continue
            them = pairing["second_entry"] if pairing["first_entry"] == me else pairing["first_entry"]
            cell = _cell({(pairing["first_entry"], pairing["second_entry"]): pairing}, me, them)
            cells.append(cell and {**cell, "score": f"{names[them]} {cell['score']}"})
        rows.append({"name": names[me], "cells": cells})
    return [{"round": None, "group": 0, "names": [str(r["number"]) for r in played], "rows": rows}]
