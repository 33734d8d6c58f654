"""The live load's figures (bench/load.py): latency percentiles, each move's stages, lost and
duplicated versions, and latency over the run."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bench.load import Load, Move, Table

STAGES = ("client", "request", "commit", "broadcast", "delivery")


def percentiles(values: list[float]) -> dict[str, float]:
    if not values:
        return {"p50": float("nan"), "p95": float("nan"), "p99": float("nan"), "max": float("nan")}
    ordered = sorted(values)

    def pick(q: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 3)

    return {"p50": pick(0.50), "p95": pick(0.95), "p99": pick(0.99), "max": round(ordered[-1], 3)}


def stages(move: Move) -> dict[str, float] | None:
    applied, published, pushed, delivered = move.applied, move.published, move.pushed, move.delivered
    if applied is None or published is None or pushed is None or delivered is None:
        return None
    return {
        "client": move.sent - move.intended,
        "request": applied - move.sent,
        "commit": published - applied,
        "broadcast": pushed - published,
        "delivery": delivered - pushed,
    }


def latency_ms(move: Move) -> float:
    """From the move's intended time to the opponent's socket receiving it (a delivered move)."""
    assert move.delivered is not None
    return (move.delivered - move.intended) * 1000


def gaps(tables: list[Table]) -> tuple[int, int]:
    """(lost, duplicated): versions a socket skipped outside a snapshot, events seen twice."""
    lost = duplicated = 0
    for table in tables:
        for seen in table.seen.values():
            last = None
            events = set()
            for kind, version in seen:
                if kind == "event":
                    duplicated += version in events
                    events.add(version)
                    if last is not None and version > last + 1:
                        lost += version - last - 1
                if last is None or version > last:
                    last = version
    return lost, duplicated


def report(
    load: Load, tables: list[Table], elapsed: float, moves: list[Move] | None = None
) -> dict[str, Any]:
    """The load's figures, or those of ``moves`` (at ``tables``) alone."""
    moves = load.moves if moves is None else moves
    delivered = [move for move in moves if move.delivered is not None]
    latency = [latency_ms(move) for move in delivered]
    by_stage: dict[str, list[float]] = {name: [] for name in STAGES}
    for move in delivered:
        split = stages(move)
        for name, value in (split or {}).items():
            by_stage[name].append(value * 1000)
    lost, duplicated = gaps(tables)
    return {
        "moves": len(moves),
        "moves_per_second": round(len(moves) / elapsed, 1),
        "undelivered": len(moves) - len(delivered),
        "skipped_slots": load.skipped,
        "errors": load.errors,
        "lost_versions": lost,
        "duplicated_events": duplicated,
        "latency_ms": percentiles(latency),
        "stages_ms": {name: percentiles(values) for name, values in by_stage.items()},
    }


def over_time(load: Load, bucket_seconds: float) -> list[dict[str, Any]]:
    """Latency per stretch of the run (by intended time): where a long run's tail came from."""
    delivered = [move for move in load.moves if move.delivered is not None]
    if not delivered:
        return []
    start = min(move.intended for move in delivered)
    buckets: dict[int, list[Move]] = {}
    for move in delivered:
        buckets.setdefault(int((move.intended - start) // bucket_seconds), []).append(move)
    rows = []
    for index, moves in sorted(buckets.items()):
        split = [parts for parts in map(stages, moves) if parts]
        rows.append(
            {
                "from_s": index * bucket_seconds,
                "moves": len(moves),
                **percentiles([latency_ms(move) for move in moves]),
                "stage_p99": {
                    name: percentiles([parts[name] * 1000 for parts in split])["p99"] for name in STAGES
                },
            }
        )
    return rows
