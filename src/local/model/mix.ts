/**
 * The mixture of the search's pairs model and its no-pairs model: one weight
 * `w` in [0, 1] of the pairs model in the link space (logit, every class's
 * softmax logit, or the regression value), chosen on the judged rows of the
 * search's two judged fits (see `BagTask.judged`), and the one additive
 * model it makes.
 *
 * @module
 */

import { type Fitted, pruneTerms } from "./finalize.ts";
import { metrics } from "./metrics.ts";
import { bagData, type Prepared } from "./prepared.ts";
import { cellsOf, scoreTerms } from "./predictor.ts";
import type { EbmModel, Term } from "./types.ts";

/**
 * Steps of a bag's weight for the pairs model: one of `0, 1/MIX_STEPS, ...,
 * 1`. The judged loss is convex in the weight (a log loss or squared error
 * of scores linear in it), so a grid this fine is within 0.025 of a bag's
 * minimum.
 */
export const MIX_STEPS = 20;

/** The weight chosen on the judged rows, and every bag's judged loss at it. */
export interface MixChoice {
  /** The pairs model's weight in [0, 1]. */
  weight: number;
  /** Every bag's judged loss (scaled as `heldOut`) of the mixture at `weight`. */
  heldOut: number[];
}

/**
 * The pairs model's weight for the judged fits `pairs` and `none` of the
 * same bags: every bag picks the weight (a multiple of 1 / {@link MIX_STEPS},
 * ties to the smaller) that minimises the loss of its judged rows, and the
 * weight is the mean of the bags' picks. Where interactions are real every
 * bag picks (nearly) 1; where the pairs fit noise the bags disagree and the
 * mean shrinks towards no pairs (the minimum of the pooled loss, one pick
 * for all the rows, kept pairs that lost on the test rows of small tables
 * without interactions; figures: BENCHMARKS.md, "Pairs mixed in"). Null
 * when the fits kept no bags or a bag no judged rows (the paired test alone
 * decides then, see `improves`).
 *
 * Each bag's judged rows are scored again from its terms (exactly as the
 * bag scored its `heldOut`), so its losses at weights 0 and 1 are the two
 * fits' own `heldOut`.
 */
export function mixWeight(pairs: Fitted, none: Fitted): MixChoice | null {
  const a = pairs.fit, b = none.fit;
  if (!a || !b || a.bags.length === 0 || a.bags.length !== b.bags.length) {
    return null;
  }
  const bags = a.bags.map((r, i) => {
    const q = b.bags[i];
    const judge = bagData(a.prep, r.bag).judge;
    const other = bagData(b.prep, q.bag).judge;
    if (!judge || !other || r.bag !== q.bag) return null;
    const n = judge.objective.yVa.length;
    const score = (
      prep: Prepared,
      terms: typeof r.terms,
      bins: typeof judge.bins,
    ) =>
      scoreTerms(
        terms,
        cellsOf(prep.features, terms, bins),
        prep.intercept,
        prep.K,
        new Float64Array(n * prep.K),
      );
    return {
      n,
      objective: judge.objective,
      withPairs: score(a.prep, r.terms, judge.bins),
      without: score(b.prep, q.terms, other.bins),
    };
  });
  if (bags.some((x) => x === null)) return null;
  if (bags.some((x) => x!.n === 0)) return null;
  const lossesAt = (w: number) =>
    bags.map((x) => {
      const { withPairs, without, objective } = x!;
      const mixed = new Float64Array(withPairs.length);
      for (let i = 0; i < mixed.length; i++) {
        mixed[i] = w * withPairs[i] + (1 - w) * without[i];
      }
      return objective.scaled(mixed);
    });
  const curve = Array.from(
    { length: MIX_STEPS + 1 },
    (_, s) => lossesAt(s / MIX_STEPS),
  );
  // Each bag's own best weight (ties to the smaller), then their mean.
  let sum = 0;
  for (let b = 0; b < bags.length; b++) {
    let at = 0;
    for (let s = 1; s <= MIX_STEPS; s++) {
      if (curve[s][b] < curve[at][b]) at = s;
    }
    if (!Number.isFinite(curve[at][b])) return null;
    sum += at;
  }
  const weight = sum / (bags.length * MIX_STEPS);
  return { weight, heldOut: lossesAt(weight) };
}

/**
 * The one additive model `w * pairs + (1 - w) * none` of two models of the
 * same data and bins (the search's pairs and no-pairs candidates): every
 * main term's table and the intercepts mixed cell by cell, the pair tables
 * scaled by `w`, the spreads mixed alike (an upper bound of the mixture's
 * spread over the bags). Centring, class centring and purity are linear, so
 * they hold for the mixture; pruning (`prune_threshold`, `sparse_model`)
 * applies again. The metrics are the mixture's own on the dataset's split
 * (`prep.overall`), so what it reports is what it serves, and record `w` as
 * `pairsWeight`.
 *
 * @example
 * ```ts
 * import { encodeDataset } from "./encoding.ts";
 * import { mixModels } from "./mix.ts";
 * import { prepare } from "./prepared.ts";
 * import { resolveParams } from "./params.ts";
 * import { train } from "./train.ts";
 *
 * const x = Array.from({ length: 200 }, (_, i) => i % 20), z = x.map((v, i) => (v * i) % 7);
 * const data = encodeDataset({ x, z, y: x.map((v, i) => v * z[i]) }, [
 *   { name: "x", data_type: { data_type: "NUMBER" }, designation: "FEATURE", semantic_type: "CONTINUOUS" },
 *   { name: "z", data_type: { data_type: "NUMBER" }, designation: "FEATURE", semantic_type: "CONTINUOUS" },
 *   { name: "y", data_type: { data_type: "NUMBER" }, designation: "TARGET", semantic_type: "CONTINUOUS" },
 * ]);
 * const given = { max_rounds: 30, bins: 16, estimators: 1 };
 * const pairs = train(data, { ...given, max_interactions: 1 }, { search: false });
 * const none = train(data, { ...given, max_interactions: 0 }, { search: false });
 * const steps = prepare(data, resolveParams(given).params, false, 0, false);
 * let r = steps.next();
 * while (!r.done) r = steps.next();
 * const mixed = mixModels(pairs, none, 0.25, r.value);
 * const pair = mixed.terms.find((t) => t.features.length === 2)!;
 * const own = pairs.terms.find((t) => t.features.length === 2)!;
 * if (!(mixed.metrics.pairsWeight === 0.25 && Math.abs(pair.scores[3] - 0.25 * own.scores[3]) < 1e-12)) throw new Error("example failed");
 * const b = mixed.intercept[0], want = 0.25 * pairs.intercept[0] + 0.75 * none.intercept[0];
 * if (Math.abs(b - want) > 1e-9) throw new Error("example failed");
 * ```
 */
export function mixModels(
  pairs: EbmModel,
  none: EbmModel,
  w: number,
  prep: Prepared,
): EbmModel {
  const key = (t: Term) => t.features.join(",");
  const theirs = new Map(none.terms.map((t) => [key(t), t]));
  const mixTerm = (own: Term | null, other: Term | null): Term => {
    const t = (own ?? other)!;
    const at = (x: number[] | undefined, q: number) => x?.[q] ?? 0;
    const mix = (x: number[] | undefined, y: number[] | undefined) =>
      t.scores.map((_, q) => w * at(x, q) + (1 - w) * at(y, q));
    const term: Term = {
      name: t.name,
      features: t.features,
      scores: mix(own?.scores, other?.scores),
      counts: t.counts,
    };
    if (own?.spread || other?.spread) {
      term.spread = mix(own?.spread, other?.spread);
    }
    return term;
  };
  const mine = new Set(pairs.terms.map(key));
  const terms = [
    ...pairs.terms.map((t) => mixTerm(t, theirs.get(key(t)) ?? null)),
    ...none.terms.filter((t) => !mine.has(key(t))).map((t) => mixTerm(null, t)),
  ];
  const p = pairs.params;
  const K = pairs.scoreColumns;
  const { metrics: m, ...rest } = pairs;
  const mixed = {
    ...rest,
    intercept: pairs.intercept.map((b, k) =>
      w * b + (1 - w) * none.intercept[k]
    ),
    terms: pruneTerms(terms, p, K),
  };
  const { overall } = prep;
  return {
    ...mixed,
    metrics: {
      ...m,
      ...metrics(mixed, overall.trBins, overall.vaBins, overall.objective, {
        mainRounds: Math.max(m.mainRounds, none.metrics.mainRounds),
        pairRounds: m.pairRounds,
        stopReason: m.stopReason,
        estimators: m.estimators ?? 1,
      }),
      pairsWeight: w,
    },
  };
}
