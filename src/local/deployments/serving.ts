/**
 * Serving deployed models: loading a model (`STARTING` -> `RUNNING`), the
 * per-deployment concurrency limit of `maximum_concurrency` with a bounded
 * queue (beyond it: 429 with `Retry-After`), and unloading.
 *
 * @example
 * ```ts
 * import { MemoryStore } from "../store/store.ts";
 * import { uncheckedRecord } from "../../../tests/_helpers/records.ts";
 * import { Serving } from "./serving.ts";
 * const serving = new Serving(new MemoryStore(), () => {});
 * const out = await serving.run("dm_1", 1, 0, () => 42);
 * if (out !== 42) throw new Error();
 * ```
 *
 * @module
 */
import { rateLimited } from "../errors.ts";
import { modelBlobs } from "../store/blobs.ts";
import { updateRecord } from "../store/records.ts";
import type { Store } from "../store/store.ts";
import type { EbmModel } from "../model/types.ts";
import { contributionTable } from "../model/explain.ts";
import { inputColumns } from "../model/encoder.ts";
import { messageOf } from "../error_message.ts";

interface Slot {
  active: number;
  waiting: (() => void)[];
}

/** Loaded models and their request slots. */
export class Serving {
  #store: Store;
  #log: (message: string, error?: unknown) => void;
  #models = new Map<string, EbmModel>();
  #slots = new Map<string, Slot>();
  #loading = new Set<Promise<void>>();
  #gate?: (id: string) => Promise<void>;

  /**
   * @param store Where models and deployed models live.
   * @param log Where unexpected load failures are reported.
   * @param gate Awaited before each deployed model starts loading (it stays
   * `STARTING` until then); default: none.
   *
   * @example
   * ```ts
   * import { MemoryStore } from "../store/store.ts";
   * import { uncheckedRecord } from "../../../tests/_helpers/records.ts";
   * import { Serving } from "./serving.ts";
   * new Serving(new MemoryStore(), console.error);
   * ```
   */
  constructor(
    store: Store,
    log: (message: string, error?: unknown) => void,
    gate?: (id: string) => Promise<void>,
  ) {
    this.#store = store;
    this.#log = log;
    this.#gate = gate;
  }

  /**
   * Loads the model of deployed model `id` on a later macrotask and marks it
   * `RUNNING` (or `FAILED` with a message). Loading is a real step: the
   * stored model is copied, checked and warmed up on one all-missing row.
   *
   * @example
   * ```ts
   * import { MemoryStore } from "../store/store.ts";
   * import { uncheckedRecord } from "../../../tests/_helpers/records.ts";
   * import { Serving } from "./serving.ts";
   * const store = new MemoryStore();
   * store.put(uncheckedRecord({ kind: "deployedModels", id: "dm", account: "a", body: { status: "STARTING", model: { id: "m" } } }));
   * await new Serving(store, () => {}).deploy("dm");
   * if (store.get("deployedModels", "dm")?.body.status !== "FAILED") throw new Error("no model: must fail");
   * ```
   */
  deploy(id: string): Promise<void> {
    const task = (async () => {
      await new Promise((resolve) => setTimeout(resolve, 0));
      await this.#gate?.(id).catch(() => {});
      const record = this.#store.get("deployedModels", id);
      if (!record) return;
      const modelId = record.body.model.id;
      try {
        const stored = modelBlobs.read(this.#store, modelId);
        if (!stored) {
          throw new Error(
            `The model ${modelId} has no trained parameters (was it deleted?); deploy a COMPLETED model.`,
          );
        }
        const model = structuredClone(stored);
        // Warm-up: one all-missing row exercises binning and scoring once.
        contributionTable(
          model,
          Object.fromEntries(
            inputColumns(model.encoder).map((name) => [name, [null]]),
          ),
        );
        this.#models.set(id, model);
        updateRecord(this.#store, "deployedModels", id, {
          status: "RUNNING",
          message: null,
        });
      } catch (error) {
        this.#log(`loading the model of deployed model ${id} failed`, error);
        updateRecord(this.#store, "deployedModels", id, {
          status: "FAILED",
          message: `Loading the model failed: ${messageOf(error)}`,
        });
      }
    })();
    this.#loading.add(task);
    return task.finally(() => this.#loading.delete(task));
  }

  /**
   * The loaded model of deployed model `id`, if it is running.
   *
   * @example
   * ```ts
   * import { MemoryStore } from "../store/store.ts";
   * import { uncheckedRecord } from "../../../tests/_helpers/records.ts";
   * import { Serving } from "./serving.ts";
   * if (new Serving(new MemoryStore(), () => {}).model("dm") !== undefined) throw new Error();
   * ```
   */
  model(id: string): EbmModel | undefined {
    return this.#models.get(id);
  }

  /**
   * Runs `work` when one of the deployment's `concurrency` slots is free.
   * Up to `queueSize` calls wait; one more is refused with 429 and
   * `Retry-After: 1`.
   *
   * @example
   * ```ts
   * import { MemoryStore } from "../store/store.ts";
   * import { uncheckedRecord } from "../../../tests/_helpers/records.ts";
   * import { Serving } from "./serving.ts";
   * const s = new Serving(new MemoryStore(), () => {});
   * let release = () => {};
   * const busy = s.run("dm", 1, 0, () => new Promise<void>((r) => (release = r)));
   * const status = await s.run("dm", 1, 0, () => 1).catch((e) => e.status);
   * release();
   * await busy;
   * if (status !== 429) throw new Error();
   * ```
   */
  async run<T>(
    id: string,
    concurrency: number,
    queueSize: number,
    work: () => T | Promise<T>,
  ): Promise<T> {
    let slot = this.#slots.get(id);
    if (!slot) this.#slots.set(id, slot = { active: 0, waiting: [] });
    if (slot.active >= concurrency) {
      if (slot.waiting.length >= queueSize) {
        throw rateLimited(
          `The deployed model ${id} is serving its maximum_concurrency (${concurrency}) with ${slot.waiting.length} more waiting; retry after 1 s or raise maximum_concurrency.`,
          1,
        );
      }
      await new Promise<void>((resolve) => slot.waiting.push(resolve));
    }
    slot.active++;
    try {
      return await work();
    } finally {
      slot.active--;
      slot.waiting.shift()?.();
    }
  }

  /**
   * Runs `work` now, synchronously, when one of the deployment's
   * `concurrency` slots is free (as {@linkcode run} would have at once), or
   * returns undefined without running it when none is.
   *
   * @example
   * ```ts
   * import { MemoryStore } from "../store/store.ts";
   * import { Serving } from "./serving.ts";
   * const s = new Serving(new MemoryStore(), () => {});
   * if (s.runNow("dm", 1, () => 7) !== 7) throw new Error();
   * let release = () => {};
   * const busy = s.run("dm", 1, 0, () => new Promise<void>((r) => (release = r)));
   * if (s.runNow("dm", 1, () => 7) !== undefined) throw new Error("the slot is taken");
   * release();
   * await busy;
   * ```
   */
  runNow<T>(id: string, concurrency: number, work: () => T): T | undefined {
    let slot = this.#slots.get(id);
    if (!slot) this.#slots.set(id, slot = { active: 0, waiting: [] });
    if (slot.active >= concurrency) return undefined;
    slot.active++;
    try {
      return work();
    } finally {
      slot.active--;
      slot.waiting.shift()?.();
    }
  }

  /**
   * Forgets the loaded model of deployed model `id`.
   *
   * @example
   * ```ts
   * import { MemoryStore } from "../store/store.ts";
   * import { uncheckedRecord } from "../../../tests/_helpers/records.ts";
   * import { Serving } from "./serving.ts";
   * new Serving(new MemoryStore(), () => {}).undeploy("dm");
   * ```
   */
  undeploy(id: string): void {
    this.#models.delete(id);
    this.#slots.delete(id);
  }

  /**
   * Waits for loads in progress (used when the platform closes).
   *
   * @example
   * ```ts
   * import { MemoryStore } from "../store/store.ts";
   * import { uncheckedRecord } from "../../../tests/_helpers/records.ts";
   * import { Serving } from "./serving.ts";
   * await new Serving(new MemoryStore(), () => {}).idle();
   * ```
   */
  async idle(): Promise<void> {
    await Promise.all([...this.#loading]);
  }
}
