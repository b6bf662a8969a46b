"""Reference side of the model benchmark (bench/model_bench.ts).

For one CSV file and its target: the split (classification: stratified
train_test_split(test_size=0.2, stratify=y, random_state=0); regression:
train_test_split(test_size=0.2, random_state=0)), written as row indices to
<split_dir>/<name>.split.json so the TypeScript side scores the SAME rows;
then scikit-learn's HistGradientBoosting (categorical columns one-hot encoded,
numbers passed through with their NaNs), LogisticRegression / Ridge (one-hot +
standardised median-imputed numbers; RidgeCV for regression) and XGBoost
(one-hot, numbers with NaNs; 300 trees for classification, 500 for regression,
depth 4, learning rate 0.05, subsample 0.8: the settings of the shared
datasets' README) are fitted and scored on the test rows.
With a groups file (one group per row, e.g. the source row of a resampled
table), the split is GroupShuffleSplit(test_size=0.2, random_state=0)
instead, so a group's rows (a customer's copies) all land on one side.
Fit time: the best of `repeats` fits (1 for large files).
`--seed=N` sets the split's random_state (default 0, the split above), so the
benchmark can repeat over several splits; the peers keep random_state=0.

Prints one JSON object on stdout: {"hgb": {...}, "linear": {...}, "xgboost": {...}}
with "score" (ROC AUC, macro one-vs-rest for 3+ classes; R² for regression),
"fit_seconds", for regression "rmse", for 3+ classes "log_loss", "accuracy"
and "class_auc" (one-vs-rest AUC per class, in sorted class order).

Usage: python3 bench/model_reference.py <csv> <target> <numeric,columns> <task> <split_json> [repeats] [groups_file] [--drop=a,b] [--seed=N]
(`--drop` columns are left out of the peers' features; the csv may be gzipped.)
"""
import json
import sys
import time

import numpy as np
import pandas as pd
from sklearn.compose import ColumnTransformer
from sklearn.ensemble import HistGradientBoostingClassifier, HistGradientBoostingRegressor
from sklearn.impute import SimpleImputer
from sklearn.linear_model import LogisticRegression, RidgeCV
from sklearn.metrics import accuracy_score, log_loss, mean_squared_error, r2_score, roc_auc_score
from sklearn.model_selection import GroupShuffleSplit, train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import LabelEncoder, OneHotEncoder, StandardScaler

try:
    import xgboost
except ImportError:  # reported as null
    xgboost = None


def timed_fit(model, x, y, repeats):
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        model.fit(x, y)
        best = min(best, time.perf_counter() - t0)
    return best


def main(csv, target, numeric, task, split_json, repeats, groups_file=None, drop=(), seed=0):
    df = pd.read_csv(csv, keep_default_na=False, na_values=[""])
    regression = task == "regression"
    x = df.drop(columns=[target, *drop])
    numeric = [c for c in numeric if c not in drop]
    categorical = [c for c in x.columns if c not in numeric]
    x[categorical] = x[categorical].astype(str).replace("nan", "missing")
    idx = np.arange(len(df))
    if regression:
        y = df[target].astype(float).to_numpy()
    else:
        y = LabelEncoder().fit_transform(df[target].astype(str).to_numpy())
    if groups_file:
        groups = np.loadtxt(groups_file, dtype=np.int64)
        splitter = GroupShuffleSplit(n_splits=1, test_size=0.2, random_state=seed)
        train_idx, test_idx = next(splitter.split(idx, y, groups))
    elif regression:
        train_idx, test_idx = train_test_split(idx, test_size=0.2, random_state=seed)
    else:
        train_idx, test_idx = train_test_split(idx, test_size=0.2, stratify=y, random_state=seed)
    with open(split_json, "w") as f:
        json.dump({"train": train_idx.tolist(), "test": test_idx.tolist()}, f)
    xtr, xte, ytr, yte = x.iloc[train_idx], x.iloc[test_idx], y[train_idx], y[test_idx]

    def onehot(sparse):
        return OneHotEncoder(handle_unknown="ignore", sparse_output=sparse)

    models = {
        "hgb": make_pipeline(
            ColumnTransformer([("cat", onehot(False), categorical), ("num", "passthrough", numeric)]),
            (HistGradientBoostingRegressor if regression else HistGradientBoostingClassifier)(random_state=0),
        ),
        "linear": make_pipeline(
            ColumnTransformer([
                ("cat", onehot(True), categorical),
                ("num", make_pipeline(SimpleImputer(strategy="median"), StandardScaler()), numeric),
            ]),
            RidgeCV() if regression else LogisticRegression(max_iter=2000),
        ),
    }
    if xgboost is not None:
        models["xgboost"] = make_pipeline(
            ColumnTransformer([("cat", onehot(False), categorical), ("num", "passthrough", numeric)]),
            # Exact splits (the default) on small tables; histograms beyond
            # 100,000 rows, where exact takes minutes.
            (xgboost.XGBRegressor if regression else xgboost.XGBClassifier)(
                n_estimators=500 if regression else 300, max_depth=4, learning_rate=0.05, subsample=0.8,
                random_state=0, n_jobs=2, tree_method="hist" if len(train_idx) > 100_000 else "exact"),
        )
    out = {"xgboost": None}
    for label, model in models.items():
        fit = timed_fit(model, xtr, ytr, repeats)
        if regression:
            pred = model.predict(xte)
            out[label] = {
                "score": r2_score(yte, pred),
                "rmse": mean_squared_error(yte, pred) ** 0.5,
                "fit_seconds": fit,
            }
            continue
        proba = model.predict_proba(xte)
        if proba.shape[1] == 2:
            score = roc_auc_score(yte, proba[:, 1])
        else:
            # Macro one-vs-rest over the classes present in the test rows (a
            # tiny table's test rows can miss a class).
            class_auc = [roc_auc_score(yte == k, proba[:, k]) if 0 < (yte == k).sum() < len(yte) else None
                         for k in range(proba.shape[1])]
            score = float(np.mean([a for a in class_auc if a is not None]))
            out[label] = {
                "score": score,
                "fit_seconds": fit,
                "log_loss": log_loss(yte, proba, labels=np.arange(proba.shape[1])),
                "accuracy": accuracy_score(yte, proba.argmax(axis=1)),
                "class_auc": class_auc,
            }
            continue
        out[label] = {"score": score, "fit_seconds": fit}
    return out


if __name__ == "__main__":
    flags = [a for a in sys.argv[1:] if a.startswith("--")]
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    drop = [c for f in flags if f.startswith("--drop=") for c in f[len("--drop="):].split(",") if c]
    csv, target, numeric, task, split_json = args[0:5]
    repeats = int(args[5]) if len(args) > 5 else 3
    groups_file = args[6] if len(args) > 6 else None
    seed = int(next((f[len("--seed="):] for f in flags if f.startswith("--seed=")), "0"))
    print(json.dumps(main(csv, target, [c for c in numeric.split(",") if c], task, split_json, repeats, groups_file, drop,
                          seed)))
