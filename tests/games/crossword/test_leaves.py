"""Rack-leave values: the features, the regression, the shipped table and how it was learned
(docs/rules/crossword.md#computer-players)."""

from __future__ import annotations

import random

import pytest

from parlour.games.crossword.leaves import FEATURES, LeaveModel, features, fit
from parlour.games.crossword.tiles import FULL_BAG
from parlour_tools.crossword.learn_leaves import learn, play_for_samples


def test_features_of_a_leave() -> None:
    named = {FEATURES[i]: x for i, x in features("UUSQ")}
    assert named == {
        "letter Q": 1.0,
        "letter S": 1.0,
        "letter U": 2.0,
        "duplicate U": 1.0,
        "2 vowels 2 consonants": 1.0,
    }  # a U is kept, so no "Q without U"
    assert {FEATURES[i] for i, _ in features("")} == {"0 vowels 0 consonants"}
    with pytest.raises(ValueError, match="at most 6 tiles"):
        features("AEINRST")


def test_fit_recovers_a_planted_model() -> None:
    # points = 30 + 8 per S - 6 per Q - 5 for a duplicate, on random leaves
    rng = random.Random(1)
    samples = []
    for _ in range(4000):
        leave = "".join(rng.sample(FULL_BAG, rng.randint(0, 6)))
        dupes = sum(leave.count(x) - 1 for x in set(leave))
        samples.append((leave, 30 + 8 * leave.count("S") - 6 * leave.count("Q") - 5 * dupes))
    weights, mean = fit(samples, ridge=0.01)
    model = LeaveModel(weights)
    assert mean == pytest.approx(sum(p for _, p in samples) / len(samples))
    assert model.value("ES") - model.value("ET") == pytest.approx(8, abs=0.05)
    assert model.value("EQ") - model.value("ET") == pytest.approx(-6, abs=0.05)
    assert model.value("EE") - model.value("ET") == pytest.approx(-5, abs=0.05)
    # centred: the values average to 0 over the samples
    assert sum(model.value(leave) for leave, _ in samples) / len(samples) == pytest.approx(
        0, abs=0.05
    )


def test_the_shipped_table_says_how_it_was_learned() -> None:
    model = LeaveModel.load()
    meta = model.meta
    assert meta["command"].startswith("python -m parlour_tools.crossword.learn_leaves")
    assert [r["round"] for r in meta["rounds"]] == list(range(1, len(meta["rounds"]) + 1))
    assert all(r["samples"] > 0 for r in meta["rounds"])
    # what self-play teaches: an S is worth keeping, a Q is not (less so with a U)
    assert model.value("S") > model.value("E") > model.value("Q")
    assert model.value("QU") > model.value("QI")
    assert LeaveModel.from_json(model.to_json()).weights == pytest.approx(list(model.weights))


def test_a_bad_table_is_refused() -> None:
    with pytest.raises(ValueError, match="not a leave table"):
        LeaveModel.from_json({"weights": {"letter A": 1.0}})
    with pytest.raises(ValueError, match="weights for"):
        LeaveModel([1.0, 2.0])


@pytest.mark.slow
def test_self_play_samples_and_a_small_learning_run() -> None:
    samples = play_for_samples(0, seed=3, weights=None)
    assert samples and all(len(leave) < 7 for leave, _ in samples)
    assert samples == play_for_samples(0, seed=3, weights=None)  # seeded
    model = learn(games=2, rounds=2, seed=3, log=False)
    assert [r["player"] for r in model.meta["rounds"]] == [
        "medium",
        "hard (previous round's table)",
    ]
    assert "--games 2 --rounds 2 --seed 3" in model.meta["command"]
