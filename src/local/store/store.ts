/**
 * Where the local platform keeps its state: resources (the wire bodies plus
 * server-only fields), large blobs (datasource rows, encoders, models) and a
 * few settings. {@linkcode MemoryStore} keeps everything in maps;
 * `sqlite_store.ts` adds write-through persistence on top of it.
 *
 * The interface is synchronous on purpose: handlers read and write in one
 * step, so no request can observe a half-made change.
 *
 * @example
 * ```ts
 * import { MemoryStore } from "./store.ts";
 * const store = new MemoryStore();
 * store.put({ kind: "workspaces", id: "ws_1", account: "acc_1", body: { id: "ws_1" }, internal: {} });
 * if (store.list("workspaces", "acc_1").length !== 1) throw new Error();
 * ```
 *
 * @module
 */

/** One stored resource. */
export interface StoredRecord {
  /** Route group of the resource (`storageConnectors`, `trainingJobs`, ...). */
  kind: string;
  /** Resource id. */
  id: string;
  /** Id of the owning account. */
  account: string;
  /** The resource as the API returns it. */
  body: Record<string, unknown>;
  /** Server-only fields (resolved paths, parameters, failure details). */
  internal: Record<string, unknown>;
  /** Insertion order, assigned by the store (lists come out in creation order). */
  seq?: number;
}

/** The storage every part of the local platform uses. */
export interface Store {
  /** One resource, or undefined. */
  get(kind: string, id: string): StoredRecord | undefined;
  /** Resources of one kind in one account, oldest first. */
  list(kind: string, account: string): StoredRecord[];
  /** Every resource of an account (any kind), oldest first. */
  inAccount(account: string): StoredRecord[];
  /** Every resource of one kind in every account (used at startup). */
  all(kind: string): StoredRecord[];
  /** Inserts or replaces a resource. */
  put(record: StoredRecord): void;
  /**
   * Inserts or replaces several resources as one step: all of them are
   * stored, or (when one cannot be) none is.
   */
  putMany(records: StoredRecord[]): void;
  /** Removes a resource. */
  remove(kind: string, id: string): void;
  /** A blob (any JSON value), or undefined. */
  getBlob(key: string): unknown;
  /** Stores a blob (any JSON value). */
  putBlob(key: string, value: unknown): void;
  /** Removes a blob. */
  deleteBlob(key: string): void;
  /** A setting, or undefined. */
  getMeta(key: string): unknown;
  /** Stores a setting (any JSON value). */
  setMeta(key: string, value: unknown): void;
  /** Releases files and handles. */
  close(): void;
}

/** Everything in memory; lost when the process ends. */
export class MemoryStore implements Store {
  #records = new Map<string, StoredRecord>();
  #blobs = new Map<string, unknown>();
  #meta = new Map<string, unknown>();
  #seq = 0;

  /**
   * One resource, or undefined.
   *
   * @example
   * ```ts
   * import { MemoryStore } from "./store.ts";
   * if (new MemoryStore().get("models", "m_1") !== undefined) throw new Error();
   * ```
   */
  get(kind: string, id: string): StoredRecord | undefined {
    return this.#records.get(`${kind}/${id}`);
  }

  /**
   * Resources of one kind in one account, oldest first.
   *
   * @example
   * ```ts
   * import { MemoryStore } from "./store.ts";
   * if (new MemoryStore().list("models", "acc").length !== 0) throw new Error();
   * ```
   */
  list(kind: string, account: string): StoredRecord[] {
    return this.all(kind).filter((r) => r.account === account);
  }

  /**
   * Every resource of an account, oldest first.
   *
   * @example
   * ```ts
   * import { MemoryStore } from "./store.ts";
   * if (new MemoryStore().inAccount("acc").length !== 0) throw new Error();
   * ```
   */
  inAccount(account: string): StoredRecord[] {
    return [...this.#records.values()].filter((r) => r.account === account);
  }

  /**
   * Every resource of one kind, oldest first.
   *
   * @example
   * ```ts
   * import { MemoryStore } from "./store.ts";
   * if (new MemoryStore().all("models").length !== 0) throw new Error();
   * ```
   */
  all(kind: string): StoredRecord[] {
    return [...this.#records.values()].filter((r) => r.kind === kind);
  }

  /**
   * Inserts or replaces a resource (a replacement keeps its place in lists).
   *
   * @example
   * ```ts
   * import { MemoryStore } from "./store.ts";
   * const s = new MemoryStore();
   * s.put({ kind: "models", id: "m", account: "a", body: {}, internal: {} });
   * if (s.get("models", "m")?.seq !== 1) throw new Error();
   * ```
   */
  put(record: StoredRecord): void {
    this.putMany([record]);
  }

  /**
   * Inserts or replaces several resources as one step: each gets its place
   * in lists first, then {@linkcode MemoryStore.persist} writes them (a
   * subclass may refuse there, by throwing), and only then do they become
   * visible. A refused write leaves no trace.
   *
   * @example
   * ```ts
   * import { MemoryStore } from "./store.ts";
   * const s = new MemoryStore();
   * s.putMany([
   *   { kind: "models", id: "m", account: "a", body: {}, internal: {} },
   *   { kind: "trainingJobs", id: "j", account: "a", body: {}, internal: {} },
   * ]);
   * if (s.inAccount("a").length !== 2) throw new Error();
   * ```
   */
  putMany(records: StoredRecord[]): void {
    let next = this.#seq;
    const placed = records.map((record) => {
      const old = this.#records.get(`${record.kind}/${record.id}`);
      const seq = old?.seq ?? record.seq ?? ++next;
      next = Math.max(next, seq);
      return { ...record, seq };
    });
    this.persist(placed);
    this.#seq = next;
    for (const r of placed) {
      // Map order is insertion order; replacing in place keeps lists stable.
      this.#records.set(`${r.kind}/${r.id}`, r);
    }
  }

  /**
   * Writes `records` (already placed) to durable storage before they become
   * visible; throwing refuses the whole write. Nothing to do in memory.
   *
   * @example
   * ```ts
   * import { MemoryStore, type StoredRecord } from "./store.ts";
   * class Refusing extends MemoryStore {
   *   protected override persist(_records: StoredRecord[]): void {
   *     throw new Error("disk full");
   *   }
   * }
   * const s = new Refusing();
   * const refused = (() => {
   *   try {
   *     s.put({ kind: "models", id: "m", account: "a", body: {}, internal: {} });
   *   } catch {
   *     return true;
   *   }
   * })();
   * if (!refused) throw new Error("not refused");
   * if (s.get("models", "m") !== undefined) throw new Error("half-stored");
   * ```
   */
  protected persist(_records: StoredRecord[]): void {}

  /**
   * Removes a resource.
   *
   * @example
   * ```ts
   * import { MemoryStore } from "./store.ts";
   * new MemoryStore().remove("models", "none");
   * ```
   */
  remove(kind: string, id: string): void {
    this.#records.delete(`${kind}/${id}`);
  }

  /**
   * A blob, or undefined.
   *
   * @example
   * ```ts
   * import { MemoryStore } from "./store.ts";
   * const s = new MemoryStore();
   * s.putBlob("k", [1]);
   * if ((s.getBlob("k") as number[])[0] !== 1) throw new Error();
   * ```
   */
  getBlob(key: string): unknown {
    return this.#blobs.get(key);
  }

  /**
   * Stores a blob.
   *
   * @example
   * ```ts
   * import { MemoryStore } from "./store.ts";
   * new MemoryStore().putBlob("k", { a: 1 });
   * ```
   */
  putBlob(key: string, value: unknown): void {
    this.#blobs.set(key, value);
  }

  /**
   * Removes a blob.
   *
   * @example
   * ```ts
   * import { MemoryStore } from "./store.ts";
   * new MemoryStore().deleteBlob("k");
   * ```
   */
  deleteBlob(key: string): void {
    this.#blobs.delete(key);
  }

  /**
   * A setting, or undefined.
   *
   * @example
   * ```ts
   * import { MemoryStore } from "./store.ts";
   * if (new MemoryStore().getMeta("x") !== undefined) throw new Error();
   * ```
   */
  getMeta(key: string): unknown {
    return this.#meta.get(key);
  }

  /**
   * Stores a setting.
   *
   * @example
   * ```ts
   * import { MemoryStore } from "./store.ts";
   * const s = new MemoryStore();
   * s.setMeta("x", 1);
   * if (s.getMeta("x") !== 1) throw new Error();
   * ```
   */
  setMeta(key: string, value: unknown): void {
    this.#meta.set(key, value);
  }

  /**
   * Nothing to release in memory.
   *
   * @example
   * ```ts
   * import { MemoryStore } from "./store.ts";
   * new MemoryStore().close();
   * ```
   */
  close(): void {}
}
