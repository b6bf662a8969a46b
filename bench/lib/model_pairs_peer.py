"""Where the ceiling of an additive model with pairs lies, measured on a peer.

XGBoost (the benchmark's settings: depth 4, learning rate 0.05, subsample 0.8,
500 trees for regression, 300 for classification) fitted three ways on the
same splits as the model benchmark (bench/model_reference.py's rule,
`train_test_split(test_size=0.2, random_state=seed)`, stratified for
classification): every tree on one feature (`mains`, an additive model), every
tree on at most two features (`pairs`, XGBoost's `interaction_constraints`
listing every pair: the model class of ours), and unconstrained (`all`). Then
the `pairs` model with depth-2 trees (the shape of our pair steps: one cut,
then one cut on each side) at 256, 64, 32 and 16 histogram bins, our pair
grid's resolution being the question (`PAIR_BINS`, src/local/model/binning.ts).

Numeric columns only (the tables it is meant for, concrete, biomass and cells,
have no other). Prints each variant's mean test R² (regression) or ROC AUC
(binary) over the splits and the figure of every split.

Usage: /usr/bin/python3 bench/lib/model_pairs_peer.py <csv> <target> <regression|binary> [splits] [--drop=a,b]
Example: /usr/bin/python3 bench/lib/model_pairs_peer.py ../shared/datasets/concrete.csv compressive_strength regression 5
Figures: BENCHMARKS.md, "What the pairs lack (fifth session of 2026-11-27)".
"""

import itertools
import json
import sys

import numpy as np
import pandas as pd
import xgboost as xgb
from sklearn.metrics import r2_score, roc_auc_score
from sklearn.model_selection import train_test_split


def variants(p):
    """(label, XGBoost parameters) for a table of p numeric features."""
    mains = str([[j] for j in range(p)])
    pairs = str([list(c) for c in itertools.combinations(range(p), 2)])
    out = [
        ("mains", {"interaction_constraints": mains}),
        ("pairs", {"interaction_constraints": pairs}),
        ("all", {}),
    ]
    for bins in (256, 64, 32, 16):
        out.append((
            f"pairs depth 2, {bins} bins",
            {"interaction_constraints": pairs, "max_depth": 2, "n_estimators": 2000,
             "max_bin": bins, "tree_method": "hist"},
        ))
    return out


def main(csv, target, task, splits, drop):
    df = pd.read_csv(csv).drop(columns=list(drop))
    y = df.pop(target)
    x = df.select_dtypes("number")
    regression = task == "regression"
    if not regression:
        y = (y == sorted(y.unique())[1]).astype(int)
    scores = {}
    for seed in range(splits):
        idx = np.arange(len(y))
        tr, te = train_test_split(
            idx, test_size=0.2, random_state=seed, stratify=None if regression else y)
        for label, extra in variants(x.shape[1]):
            params = {"max_depth": 4, "learning_rate": 0.05, "subsample": 0.8, "n_jobs": 2,
                      "n_estimators": 500 if regression else 300, **extra}
            model = (xgb.XGBRegressor if regression else xgb.XGBClassifier)(**params)
            model.fit(x.values[tr], y.values[tr])
            if regression:
                s = r2_score(y.values[te], model.predict(x.values[te]))
            else:
                s = roc_auc_score(y.values[te], model.predict_proba(x.values[te])[:, 1])
            scores.setdefault(label, []).append(round(float(s), 4))
    for label, s in scores.items():
        print(json.dumps({"variant": label, "mean": round(float(np.mean(s)), 4), "splits": s}))


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    flags = [a for a in sys.argv[1:] if a.startswith("--")]
    drop = [c for f in flags if f.startswith("--drop=") for c in f[len("--drop="):].split(",") if c]
    main(args[0], args[1], args[2], int(args[3]) if len(args) > 3 else 5, drop)
