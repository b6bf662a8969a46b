"""Small public tables for bench/model_small.ts, written as CSV.

scikit-learn's bundled data sets (they load offline) and its
make_classification, with every feature named x1..xN and the target `y`
(0/1 for classification, the value for regression).

Usage: python3 bench/model_small_data.py <kind> <seed> <out.csv>
  kind: breast_cancer (569 x 30), diabetes (442 x 10, regression),
        digits (1,797 x 64, y = digit >= 5), make_classification
        (1,500 x 30: n_informative=8, n_redundant=4, flip_y=0.1,
        class_sep=0.6, random_state=seed)
"""
import sys

import numpy as np
from sklearn import datasets


def load(kind, seed):
    if kind == "breast_cancer":
        d = datasets.load_breast_cancer()
        return d.data, d.target
    if kind == "diabetes":
        d = datasets.load_diabetes()
        return d.data, d.target
    if kind == "digits":
        d = datasets.load_digits()
        return d.data, (d.target >= 5).astype(int)
    if kind == "make_classification":
        return datasets.make_classification(
            n_samples=1500, n_features=30, n_informative=8, n_redundant=4,
            flip_y=0.1, class_sep=0.6, random_state=seed)
    raise SystemExit(f"unknown kind {kind!r}: breast_cancer, diabetes, digits or make_classification")


def main(kind, seed, out):
    x, y = load(kind, seed)
    names = [f"x{j + 1}" for j in range(x.shape[1])]
    with open(out, "w") as f:
        f.write(",".join(names + ["y"]) + "\n")
        for row, target in zip(x, y):
            f.write(",".join(repr(float(v)) for v in row) + "," + repr(target.item()) + "\n")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), sys.argv[3])
