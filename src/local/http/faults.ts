/**
 * Fault injection for the local platform, off by default: a seeded fraction
 * of calls answered 500, 429 with `Retry-After`, or 202 + `Location`; calls
 * whose answer is lost after the work is done and committed (the client gets
 * a 500 or a dropped connection, as when a real service fails between its
 * commit and its answer); slow calls; and added latency. Seeded so that a
 * failing run can be repeated exactly.
 *
 * @example
 * ```ts
 * import { parseFaults } from "./faults.ts";
 * const f = parseFaults("500=0.1,429=0.05,202=0.2,latency=20,seed=7");
 * if (f.error500 !== 0.1 || f.latencyMs !== 20 || f.seed !== 7) throw new Error();
 * ```
 *
 * @module
 */
import { createRng } from "../model/rng.ts";

/** What to inject. Fractions are probabilities per call, 0 to 1. */
export interface FaultOptions {
  /** Fraction of calls answered 500 (before the handler runs: no side effect). */
  error500?: number;
  /** Fraction of calls answered 429 with `Retry-After`. */
  rateLimit429?: number;
  /** Fraction of calls answered 202 + `Location` (the result is fetched there). */
  accepted202?: number;
  /**
   * Fraction of calls whose answer is lost: the handler runs and commits,
   * then the client gets a 500 or a dropped connection (half each, seeded).
   */
  answerLost?: number;
  /** Fraction of calls that are slow: they wait `slowMs` before being handled. */
  slow?: number;
  /** How long a slow call waits, in milliseconds (default 1000). */
  slowMs?: number;
  /** Latency added to every call, in milliseconds. */
  latencyMs?: number;
  /** `Retry-After` of injected 429s, in seconds (default 1). */
  retryAfterSeconds?: number;
  /** Seed of the random choices (default 0). */
  seed?: number;
}

/** The fault chosen for one call. */
export type Fault =
  | "none"
  | "500"
  | "429"
  | "202"
  | "lost-500"
  | "lost-drop"
  | "slow";

/**
 * Parses the CLI form `500=0.1,429=0.05,202=0.2,lost=0.05,slow=0.01,slow-ms=2000,latency=50,retry-after=1,seed=42`.
 *
 * @throws {Error} Naming the part that is not understood.
 *
 * @example
 * ```ts
 * import { parseFaults } from "./faults.ts";
 * if (parseFaults("").error500 !== undefined) throw new Error();
 * ```
 */
export function parseFaults(text: string): FaultOptions {
  const out: FaultOptions = {};
  const keys: Record<string, keyof FaultOptions> = {
    "500": "error500",
    "429": "rateLimit429",
    "202": "accepted202",
    lost: "answerLost",
    slow: "slow",
    "slow-ms": "slowMs",
    latency: "latencyMs",
    "retry-after": "retryAfterSeconds",
    seed: "seed",
  };
  for (const part of text.split(",").map((p) => p.trim()).filter(Boolean)) {
    const [key, value] = part.split("=");
    const name = keys[key?.trim()];
    const n = Number(value);
    if (!name || value === undefined || !Number.isFinite(n) || n < 0) {
      throw new Error(
        `Cannot read the fault "${part}": use key=value with keys ${
          Object.keys(keys).join(", ")
        } and non-negative numbers, e.g. "500=0.1,429=0.05,seed=1".`,
      );
    }
    if (
      ["error500", "rateLimit429", "accepted202", "answerLost", "slow"]
        .includes(name) && n > 1
    ) {
      throw new Error(`The fault fraction "${part}" must be between 0 and 1.`);
    }
    out[name] = n;
  }
  const total = (out.error500 ?? 0) + (out.rateLimit429 ?? 0) +
    (out.accepted202 ?? 0) + (out.answerLost ?? 0) + (out.slow ?? 0);
  if (total > 1) {
    throw new Error(
      `The fault fractions of "${text}" add up to ${total}; one call gets at most one fault, so they must add up to 1 or less.`,
    );
  }
  return out;
}

/**
 * Draws one fault per call from a seeded generator.
 *
 * @example
 * ```ts
 * import { FaultInjector } from "./faults.ts";
 * const a = new FaultInjector({ error500: 0.5, seed: 3 });
 * const b = new FaultInjector({ error500: 0.5, seed: 3 });
 * const draws = () => Array.from({ length: 20 }, () => a.next()).join();
 * if (draws() !== Array.from({ length: 20 }, () => b.next()).join()) throw new Error("not seeded");
 * ```
 */
export class FaultInjector {
  /** The options in force. */
  readonly options: Readonly<FaultOptions>;
  #rng: () => number;

  /**
   * Creates the injector.
   *
   * @example
   * ```ts
   * import { FaultInjector } from "./faults.ts";
   * if (new FaultInjector({}).active) throw new Error("should be off");
   * ```
   */
  constructor(options: FaultOptions = {}) {
    this.options = options;
    this.#rng = createRng(options.seed ?? 0);
  }

  /**
   * Whether any fault or latency is configured.
   *
   * @example
   * ```ts
   * import { FaultInjector } from "./faults.ts";
   * if (!new FaultInjector({ latencyMs: 5 }).active) throw new Error();
   * ```
   */
  get active(): boolean {
    const o = this.options;
    return !!(o.error500 || o.rateLimit429 || o.accepted202 || o.latencyMs ||
      o.answerLost || o.slow);
  }

  /**
   * The fault for the next call (one draw of the generator per call).
   *
   * @example
   * ```ts
   * import { FaultInjector } from "./faults.ts";
   * if (new FaultInjector({ error500: 1 }).next() !== "500") throw new Error();
   * const lost = new FaultInjector({ answerLost: 1, seed: 1 });
   * const kinds = new Set(Array.from({ length: 50 }, () => lost.next()));
   * if (!kinds.has("lost-500") || !kinds.has("lost-drop") || kinds.size !== 2) throw new Error();
   * ```
   */
  next(): Fault {
    const o = this.options;
    const x = this.#rng();
    let edge = o.error500 ?? 0;
    if (x < edge) return "500";
    edge += o.rateLimit429 ?? 0;
    if (x < edge) return "429";
    edge += o.accepted202 ?? 0;
    if (x < edge) return "202";
    const lost = o.answerLost ?? 0;
    // One draw splits a lost answer in two halves: a 500 or a dropped connection.
    if (x < edge + lost / 2) return "lost-500";
    edge += lost;
    if (x < edge) return "lost-drop";
    edge += o.slow ?? 0;
    if (x < edge) return "slow";
    return "none";
  }
}
