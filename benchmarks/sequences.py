"""firefight sequence benchmarks: exact odds over state and batch sampling.

Run with ``make bench`` or ``.venv/bin/python benchmarks/sequences.py`` (``--quick``: shorter
prefix-replay baselines). Two measurements, each against a baseline timed in the same run:

* **state merging vs prefix replay**: the hand k cards drawn from a 162-card deck of 5 card
  signatures make, exactly. ``hands`` (a drawing process, equal decks merged after each draw)
  against today's way, one procedure drawing k cards evaluated by ``exact()`` (prefix replay).
  Both are timed at the same small k (measured ratios); the replay at k = 10 (about 13 minutes
  here) is extrapolated from its measured growth per draw, labelled so, unless
  ``--full-replay`` runs it. The two answers are checked equal wherever both ran.
* **batch sampling vs numpy's raw rate**: ``Procedure.sample_batch``'s draw (one inverse-CDF
  draw from the cached exact odds of an EPT fire attack) against ``Generator.integers(0, 6,
  size=n)``, numpy's raw rate, both on n = 10 million. A chi-square test of the batch against
  the exact odds is printed with it.

Prints a table and writes ``benchmarks/results/sequences.json``; a missed target prints MISSED,
and the exit code is 0 all the same: benchmarks never fail the build.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
from scipy.stats import chisquare

import firefight
from firefight.chance import Deck, Process, exact
from firefight.chance.process import draw_step
from report import (
    environment,
    fmt_time,
    print_table,
    progress,
    report_missed,
    row,
    timed,
    write_results,
)

HERE = Path(__file__).resolve().parent
DEFAULT_OUTPUT = HERE / "results" / "sequences.json"

# Up Front's deck is 162 cards; five signatures, as a rule reading one field of each card.
DECK = {"fire": 40, "movement": 36, "cover": 34, "rally": 28, "terrain": 24}
DRAWS = 10
MERGING_TARGET = 100.0
BATCH_TARGET = 0.25
BATCH_N = 10_000_000
REFERENCE_ATTACK = {"strength": 6, "range": "adjacent", "protection": "medium"}


def replay_hand(deck: Deck, k: int):
    """Today's way: one procedure drawing k cards, evaluated exactly by prefix replay."""

    def draw_k(chance):
        left, hand = deck, Counter()
        for _ in range(k):
            card = chance.draw(left, "draw")
            left = left.without(card)
            hand[card] += 1
        return tuple((c, n) for c, n in sorted(hand.items()))

    return exact(draw_k)


def merged_hand(deck: Deck, k: int):
    """The state engine, cold: a fresh drawing process (no kernel cached yet)."""
    return Process(draw_step, name="drawing").after(deck, k).map(deck.drawn)


def bench_merging(args) -> dict[str, object]:
    deck = Deck.of(DECK)
    per_k = {}
    for k in args.replay_draws:
        progress(f"prefix replay, {k} draws from {deck.size} cards")
        replay_s, replayed = timed(lambda k=k: replay_hand(deck, k))
        merged_s, merged = timed(lambda k=k: merged_hand(deck, k), repeats=3)
        if dict(replayed) != dict(merged):
            msg = f"state merging and prefix replay disagree at k = {k}"
            raise AssertionError(msg)
        per_k[k] = {"replay_s": replay_s, "merged_s": merged_s}
    progress(f"state merging, {DRAWS} draws")
    merged_s, merged = timed(lambda: merged_hand(deck, DRAWS), repeats=3)
    low, high = args.replay_draws[-2], args.replay_draws[-1]
    growth = per_k[high]["replay_s"] / per_k[low]["replay_s"]
    if args.full_replay:
        progress(f"prefix replay, {DRAWS} draws (about 13 minutes)")
        replay_s, replayed = timed(lambda: replay_hand(deck, DRAWS))
        if dict(replayed) != dict(merged):
            msg = f"state merging and prefix replay disagree at k = {DRAWS}"
            raise AssertionError(msg)
        extrapolated = False
    else:
        replay_s = per_k[high]["replay_s"] * growth ** (DRAWS - high)
        extrapolated = True
    return {
        "deck": DECK,
        "draws": DRAWS,
        "hands": len(merged),
        "merged_s": merged_s,
        "replay_s": replay_s,
        "replay_extrapolated": extrapolated,
        "replay_growth_per_draw": growth,
        "per_k": per_k,
    }


def bench_batch(args) -> dict[str, object]:
    fire = firefight.ruleset("ept").procedure("fire")
    attack = fire.parse(REFERENCE_ATTACK)
    odds = fire.odds(attack)
    sampler = fire.sampler(attack)  # the cached exact odds, as a running program keeps them
    rng = np.random.Generator(np.random.PCG64(args.seed))
    progress(f"batch sampling vs raw integers, {BATCH_N:,} draws x {args.batch_repeats}")
    raw, batch = [], []
    for _ in range(args.batch_repeats):  # interleaved, so that load on the machine hits both
        start = time.perf_counter()
        rng.integers(0, 6, size=BATCH_N)
        raw.append(time.perf_counter() - start)
        start = time.perf_counter()
        sampler.indices(BATCH_N, rng)
        batch.append(time.perf_counter() - start)
    counts = fire.sample_batch(attack, BATCH_N, args.seed).counts()
    observed = [counts[o] for o in odds]
    expected = [float(p) * BATCH_N for p in odds.values()]
    chi = chisquare(observed, expected)
    raw_s, batch_s = statistics.median(raw), statistics.median(batch)
    return {
        "attack": REFERENCE_ATTACK,
        "n": BATCH_N,
        "denominator": sampler.denominator,
        "raw_s": raw_s,
        "batch_s": batch_s,
        "raw_rate": BATCH_N / raw_s,
        "batch_rate": BATCH_N / batch_s,
        "chi_square": float(chi.statistic),
        "chi_square_p": float(chi.pvalue),
    }


def table_rows(merging, batch) -> list[dict[str, object]]:
    rows = []
    for k, times in merging["per_k"].items():
        rows.append(
            row(
                f"hand of {k} draws, state merging vs prefix replay (measured)",
                fmt_time(times["merged_s"]),
                baseline=f"{fmt_time(times['replay_s'])} exact() replay",
                ratio=times["replay_s"] / times["merged_s"],
            )
        )
    ratio = merging["replay_s"] / merging["merged_s"]
    label = "extrapolated" if merging["replay_extrapolated"] else "measured"
    rows.append(
        row(
            f"hand of {DRAWS} draws, 5 signatures, 162 cards, state merging vs prefix replay",
            fmt_time(merging["merged_s"]),
            baseline=f"{fmt_time(merging['replay_s'])} exact() replay ({label})",
            ratio=ratio,
            target=f">= {MERGING_TARGET:g}x",
            met=ratio >= MERGING_TARGET,
        )
    )
    share = batch["batch_rate"] / batch["raw_rate"]
    rows.append(
        row(
            f"sample_batch rate, EPT fire reference attack, n = {BATCH_N:,}",
            f"{batch['batch_rate'] / 1e6:,.0f} M/s",
            baseline=f"{batch['raw_rate'] / 1e6:,.0f} M/s Generator.integers(0, 6)",
            ratio=share,
            target=f">= {BATCH_TARGET:.0%} of raw",
            met=share >= BATCH_TARGET,
        )
    )
    return rows


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="prefix replay up to 6 draws only")
    parser.add_argument(
        "--full-replay",
        action="store_true",
        help=f"run the prefix replay at {DRAWS} draws too (about 13 minutes) instead of "
        "extrapolating it",
    )
    parser.add_argument("--seed", type=int, default=20240601, help="seed of every random draw")
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT, help="JSON results file")
    args = parser.parse_args(argv)
    args.replay_draws = (4, 5, 6) if args.quick else (5, 6, 7)
    args.batch_repeats = 5 if args.quick else 9
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    started = time.perf_counter()
    print(f"firefight sequence benchmarks ({'quick' if args.quick else 'full'} run)")
    merging = bench_merging(args)
    batch = bench_batch(args)
    rows = table_rows(merging, batch)
    elapsed = time.perf_counter() - started
    print()
    print_table(rows)
    print()
    if merging["replay_extrapolated"]:
        low, high = args.replay_draws[-2], args.replay_draws[-1]
        print(
            f"EXTRAPOLATED: the {DRAWS}-draw prefix replay is the {high}-draw time x "
            f"{merging['replay_growth_per_draw']:.2f}^{DRAWS - high} (its growth from {low} to "
            f"{high} draws); --full-replay measures it."
        )
    print(
        f"Batch vs exact odds: chi-square {batch['chi_square']:.2f}, p = "
        f"{batch['chi_square_p']:.3f} on {BATCH_N:,} draws (denominator {batch['denominator']})."
    )
    missed = report_missed(rows)
    print(f"Benchmark run took {elapsed:.1f} s.")
    results = {
        "generated": datetime.now(UTC).isoformat(timespec="seconds"),
        "mode": "quick" if args.quick else "full",
        "seed": args.seed,
        "environment": environment(numpy=np.__version__),
        "state_merging": merging,
        "batch_sampling": batch,
        "table": rows,
        "missed": missed,
        "elapsed_s": elapsed,
    }
    write_results(args.output, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
