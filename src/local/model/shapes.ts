/**
 * A model's term shapes, its global explanation: every term's importance
 * and its score per bin (per cell of a pair), with the bags' spread. What
 * the explanation endpoint answers (views explain rows: explain.ts).
 *
 * @module
 */

import type { EbmModel } from "./types.ts";

/** One term of a {@link TermShapes}. */
export interface TermShape {
  name: string;
  features: string[];
  /** Mean |score| over the training rows (averaged over classes for 3+ classes). */
  importance: number;
  /** Bin labels per feature of the term (one list for a main term, two for a pair). */
  labels: string[][];
  /**
   * Scores per cell, each a list with one value per score column (the logit of
   * `classes[1]` for binary models, one per class otherwise). Pair cells are
   * row-major: first feature's bin times the second's bin count plus the second's.
   */
  scores: number[][];
  /**
   * With bagging (`estimators` > 1): per cell, the standard deviation of
   * the bags' scores (same layout as `scores`), the shape's uncertainty
   * band; absent for one bag.
   */
  spread?: number[][];
}

/**
 * The model's term shapes: intercept and, per term, importance and per-cell
 * scores (one value per score column in each cell), with the bagging spread.
 * The server turns this into the wire `GlobalExplanation` (scores per class).
 */
export interface TermShapes {
  classes: string[];
  intercept: number[];
  /** Terms, most important first. */
  terms: TermShape[];
}

/**
 * Each term's importance (mean absolute score over the training rows) and its
 * shape (bin labels with scores).
 *
 * @example
 * ```ts
 * import { encodeDataset } from "./encoding.ts";
 * import { train } from "./train.ts";
 * import { globalExplanation } from "./shapes.ts";
 *
 * const x = Array.from({ length: 100 }, (_, i) => i);
 * const z = x.map((i) => (i * 7) % 5);
 * const data = encodeDataset({ x, z, y: x.map((v) => (v < 50 ? "lo" : "hi")) }, [
 *   { name: "x", data_type: { data_type: "NUMBER" }, designation: "FEATURE", semantic_type: "CONTINUOUS" },
 *   { name: "z", data_type: { data_type: "NUMBER" }, designation: "FEATURE", semantic_type: "CONTINUOUS" },
 *   { name: "y", data_type: { data_type: "STRING" }, designation: "TARGET", semantic_type: "CATEGORICAL" },
 * ]);
 * const g = globalExplanation(train(data, { max_rounds: 30, max_interactions: 0 }));
 * if (!(g.terms[0].name === "x" && g.terms[0].labels[0][0] === "missing")) throw new Error("example failed");
 * ```
 */
export function globalExplanation(model: EbmModel): TermShapes {
  const K = model.scoreColumns;
  const terms = model.terms.map((t): TermShape => {
    const cells = t.counts.length;
    let total = 0, weighted = 0;
    const scores: number[][] = [];
    for (let q = 0; q < cells; q++) {
      const s = t.scores.slice(q * K, q * K + K);
      scores.push(s);
      const meanAbs = s.reduce((a, b) => a + Math.abs(b), 0) / K;
      weighted += t.counts[q] * meanAbs;
      total += t.counts[q];
    }
    const fs = t.features.map((j) => model.features[j]);
    const out: TermShape = {
      name: t.name,
      features: fs.map((f) => f.name),
      importance: total ? weighted / total : 0,
      labels: fs.length === 1 ? [fs[0].labels] : fs.map((f) => f.pairLabels),
      scores,
    };
    if (t.spread) {
      const spread = t.spread;
      out.spread = scores.map((_, q) => spread.slice(q * K, q * K + K));
    }
    return out;
  });
  terms.sort((a, b) => b.importance - a.importance);
  return {
    classes: [...model.classes],
    intercept: [...model.intercept],
    terms,
  };
}
