"""A linear model of the opponent's deadwood from its public play, fitted by least squares.

``python -m bench.deadwood_model [--opponent BOT ...] [--deals N] [--seed S] [--test-deals N] [--test-seed S]``

Collects ``bench.inference``'s positions (CARMEN against each opponent, classic, from the fifth
discard on; several opponents pool their positions, so the fit assumes no one player's habits), fits the true deadwood of the opponent's whole hand against ``features`` of the
view (``bots.deadwood.features``: what it threw lately, how long it has played, what it took),
and prints the coefficients, to paste into ``bots.deadwood.COEFFICIENTS``, with the mean absolute
error on held-out deals of each opponent for the fit and for the coefficients in use, against a
constant guess and against LUNA's sampled hands. Standard library only; a benchmark, not a test.
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections.abc import Sequence

from bots.deadwood import COEFFICIENTS, features, predicted_deadwood
from bots.knowledge import Knowledge
from bots.playout import arranged
from bots.sampling import OpponentSampler

from .inference import Position, positions


def true_deadwood(position: Position) -> int:
    know = Knowledge.from_view(position.view)
    return arranged(know.opponent_known | position.true_hidden)[1]


def least_squares(rows: Sequence[Sequence[float]], targets: Sequence[float]) -> list[float]:
    """The coefficients minimising the squared error, by the normal equations (a small ridge
    keeps them solvable when a feature is constant)."""
    size = len(rows[0])
    matrix = [
        [sum(row[i] * row[j] for row in rows) + (1e-6 if i == j else 0.0) for j in range(size)]
        for i in range(size)
    ]
    vector = [sum(row[i] * target for row, target in zip(rows, targets, strict=True)) for i in range(size)]
    for column in range(size):  # Gauss-Jordan with partial pivoting
        pivot = max(range(column, size), key=lambda row: abs(matrix[row][column]))
        matrix[column], matrix[pivot] = matrix[pivot], matrix[column]
        vector[column], vector[pivot] = vector[pivot], vector[column]
        for row in range(size):
            if row != column:
                factor = matrix[row][column] / matrix[column][column]
                matrix[row] = [a - factor * b for a, b in zip(matrix[row], matrix[column], strict=True)]
                vector[row] -= factor * vector[column]
    return [vector[i] / matrix[i][i] for i in range(size)]


def sampler_error(found: Sequence[Position], samples: int = 16) -> float:
    """Mean absolute error of the mean deadwood of LUNA's sampled hands at each position."""
    errors = []
    for index, position in enumerate(found):
        know = Knowledge.from_view(position.view)
        sampler = OpponentSampler(position.view, know)
        rng = random.Random(f"deadwood-model:{index}")
        sampled = [arranged(know.opponent_known | sampler.hidden(rng))[1] for _ in range(samples)]
        errors.append(abs(statistics.fmean(sampled) - true_deadwood(position)))
    return statistics.fmean(errors)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.deadwood_model", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--opponent", nargs="+", default=["simple"])
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--seed", type=int, default=101)
    parser.add_argument("--test-deals", type=int, default=100)
    parser.add_argument("--test-seed", type=int, default=1)
    args = parser.parse_args(argv)
    train = [p for name in args.opponent for p in positions("classic", args.deals, args.seed, name)]
    train_truth = [true_deadwood(p) for p in train]
    coefficients = least_squares([features(p.view) for p in train], train_truth)
    residuals = [
        real - predicted_deadwood(p.view, coefficients) for p, real in zip(train, train_truth, strict=True)
    ]
    mean_target = statistics.fmean(train_truth)
    print(
        f"{len(train)} training positions ({args.deals} deals against each of {', '.join(args.opponent)}, seed {args.seed})"
    )
    print("COEFFICIENTS = (" + ", ".join(f"{weight:.4f}" for weight in coefficients) + ")")
    print(f"residual sd on the training positions {statistics.pstdev(residuals):.2f}")
    for name in args.opponent:
        test = positions("classic", args.test_deals, args.test_seed, name)
        truth = [true_deadwood(p) for p in test]

        def error(
            weights: Sequence[float], found: Sequence[Position] = test, real: Sequence[int] = truth
        ) -> str:
            misses = [
                predicted_deadwood(p.view, weights) - value for p, value in zip(found, real, strict=True)
            ]
            return f"{statistics.fmean(map(abs, misses)):.2f} (bias {statistics.fmean(misses):+.2f})"

        constant = statistics.fmean(abs(value - mean_target) for value in truth)
        print(
            f"held out against {name} ({len(test)} positions), mean absolute error: this fit {error(coefficients)}, "
            f"COEFFICIENTS {error(COEFFICIENTS)}, constant {constant:.2f}, LUNA's samples {sampler_error(test):.2f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
