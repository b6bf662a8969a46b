/**
 * Fault injection for the local platform, off by default: a seeded fraction
 * of calls answered 500, 429 with `Retry-After`, or 202 + `Location`, and
 * added latency. Seeded so that a failing run can be repeated exactly.
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
import { createRng } from "./model/rng.ts";

/** What to inject. Fractions are probabilities per call, 0 to 1. */
export interface FaultOptions {
  /** Fraction of calls answered 500 (before the handler runs: no side effect). */
  error500?: number;
  /** Fraction of calls answered 429 with `Retry-After`. */
  rateLimit429?: number;
  /** Fraction of calls answered 202 + `Location` (the result is fetched there). */
  accepted202?: number;
  /** Latency added to every call, in milliseconds. */
  latencyMs?: number;
  /** `Retry-After` of injected 429s, in seconds (default 1). */
  retryAfterSeconds?: number;
  /** Seed of the random choices (default 0). */
  seed?: number;
}

/** The fault chosen for one call. */
export type Fault = "none" | "500" | "429" | "202";

/**
 * Parses the CLI form `500=0.1,429=0.05,202=0.2,latency=50,retry-after=1,seed=42`.
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
    if (["error500", "rateLimit429", "accepted202"].includes(name) && n > 1) {
      throw new Error(`The fault fraction "${part}" must be between 0 and 1.`);
    }
    out[name] = n;
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
    return !!(o.error500 || o.rateLimit429 || o.accepted202 || o.latencyMs);
  }

  /**
   * The fault for the next call (one draw of the generator per call).
   *
   * @example
   * ```ts
   * import { FaultInjector } from "./faults.ts";
   * if (new FaultInjector({ error500: 1 }).next() !== "500") throw new Error();
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
    return "none";
  }
}
