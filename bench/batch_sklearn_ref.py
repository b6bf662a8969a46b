"""Peer side of bench/batch_scale.ts: scikit-learn's HistGradientBoostingClassifier
scoring the same file end to end.

Fits HGB on <dir>/train.csv (not timed: the batch side's training is not timed
either), then times what a batch scorer does: read <dir>/score.csv, predict_proba,
write <dir>/sklearn_scored.csv with the id, the predicted class and the class
probabilities. Categorical columns are passed as their category codes with a categorical
mask (scikit-learn 1.2), numbers as they are; a `note` column (no feature) is dropped.
Prints one JSON object.

Usage: python3 bench/batch_sklearn_ref.py <dir>
"""
import json
import resource
import sys
import time

import pandas as pd
from sklearn.ensemble import HistGradientBoostingClassifier

CATEGORICAL = ["contract", "payment", "internet"]
TARGET = "churn"


def features(df, categories=None):
    """The feature columns, categories as their codes (NaN for unseen), as HGB 1.2 takes them."""
    x = df.drop(columns=[c for c in ("id", TARGET, "note") if c in df.columns])
    for c in CATEGORICAL:
        codes = pd.Categorical(x[c], categories=None if categories is None else categories[c]).codes
        x[c] = pd.Series(codes, index=x.index).where(codes >= 0).astype(float)
    return x


def main(folder):
    train = pd.read_csv(f"{folder}/train.csv")
    categories = {c: pd.Categorical(train[c]).categories for c in CATEGORICAL}
    x = features(train, categories)
    model = HistGradientBoostingClassifier(
        categorical_features=[c in CATEGORICAL for c in x.columns], random_state=0)
    t0 = time.perf_counter()
    model.fit(x, train[TARGET].astype(str))
    fit_s = time.perf_counter() - t0

    t0 = time.perf_counter()
    score = pd.read_csv(f"{folder}/score.csv")
    t_read = time.perf_counter() - t0
    p = model.predict_proba(features(score, categories))
    t_predict = time.perf_counter() - t0 - t_read
    out = pd.DataFrame({"id": score["id"]})
    out[f"prediction.{TARGET}"] = model.classes_[p.argmax(axis=1)]
    for k, c in enumerate(model.classes_):
        out[f"probability.{TARGET}.{c}"] = p[:, k]
    out.to_csv(f"{folder}/sklearn_scored.csv", index=False)
    score_s = time.perf_counter() - t0
    print(json.dumps({
        "rows": len(score),
        "fit_s": fit_s,
        "read_s": t_read,
        "predict_s": t_predict,
        "score_s": score_s,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024,
    }))


if __name__ == "__main__":
    main(sys.argv[1])
