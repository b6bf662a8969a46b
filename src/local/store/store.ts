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
 * import { newRecord } from "./records.ts";
 * const store = new MemoryStore();
 * const caller = { account: { id: "acc_1", name: "A" }, user: { id: "u", name: "U" } };
 * store.put(newRecord(store, caller, "workspaces", { name: "lab" }));
 * if (store.list("workspaces", "acc_1").length !== 1) throw new Error();
 * ```
 *
 * @module
 */
import type { z } from "zod";
import type { KindName, Routes } from "../../schemas/routes.ts";
import type { SchemaField } from "../model/encoding.ts";
import type { TrainingParams } from "../model/params.ts";

/** The wire body of each resource kind: its `get` route's response. */
export type Resources = {
  [K in KindName]: z.output<Routes[K]["get"]["response"]>;
};

/** Server-only fields of a record (never answered). */
export interface Internal {
  /** Datasources: the data schema's fields the columns were read by. */
  fields?: SchemaField[];
  /** Training configurations: the hyperparameters given, validated (training fills in the defaults and searches what was not given). */
  params?: Partial<TrainingParams>;
  /** Artifacts: why the artifact failed or was cancelled. */
  failure?: string | null;
  /**
   * Models: the schema's protected fields its training job was created
   * under (what it is trained under while it is still `PENDING`, before its
   * `group_metrics` say so).
   */
  protected?: string[];
}

/**
 * One stored resource of kind `K`, its body typed as the API answers it.
 * The store takes and gives records of this type only: writing a body that
 * is not its kind's resource does not compile. `StoredRecord` alone is a
 * record of some kind (its body one of the resources).
 */
export interface StoredRecord<K extends KindName = KindName> {
  /** Resource kind (`storageConnectors`, `trainingJobs`, ...). */
  kind: K;
  /** Resource id. */
  id: string;
  /** Id of the owning account. */
  account: string;
  /** The resource as the API returns it. */
  body: Resources[K];
  /** Server-only fields (resolved paths, parameters, failure details). */
  internal: Internal;
  /** Insertion order, assigned by the store (lists come out in creation order). */
  seq?: number;
}

/**
 * Records of the kinds `Ks`, one each, in order: what
 * {@linkcode Store.putMany} takes, so that each body is checked against its
 * own record's kind (not against the union of the kinds).
 */
export type RecordsOf<Ks extends readonly KindName[]> = {
  readonly [I in keyof Ks]: StoredRecord<Ks[I]>;
};

/**
 * Whether `record` is of `kind` (the store's one read-side check).
 *
 * @example
 * ```ts
 * import { isOfKind, MemoryStore } from "./store.ts";
 * import { newRecord } from "./records.ts";
 * const caller = { account: { id: "a", name: "A" }, user: { id: "u", name: "U" } };
 * const r = newRecord(new MemoryStore(), caller, "models", { name: "m" });
 * if (!isOfKind(r, "models") || isOfKind(r, "datasets")) throw new Error();
 * ```
 */
export function isOfKind<K extends KindName>(
  record: StoredRecord,
  kind: K,
): record is StoredRecord<K> {
  return record.kind === kind;
}

/** The storage every part of the local platform uses. */
export interface Store {
  /** One resource, or undefined. */
  get<K extends KindName>(kind: K, id: string): StoredRecord<K> | undefined;
  /** Resources of one kind in one account, oldest first. */
  list<K extends KindName>(kind: K, account: string): StoredRecord<K>[];
  /** Every resource of an account (any kind), oldest first. */
  inAccount(account: string): StoredRecord[];
  /** Every resource of one kind in every account (used at startup). */
  all<K extends KindName>(kind: K): StoredRecord<K>[];
  /** Inserts or replaces a resource; its body is its kind's resource. */
  put<K extends KindName>(record: StoredRecord<K>): void;
  /**
   * Inserts or replaces several resources as one step: all of them are
   * stored, or (when one cannot be) none is.
   */
  putMany<const Ks extends readonly KindName[]>(records: RecordsOf<Ks>): void;
  /** Removes a resource. */
  remove(kind: KindName, id: string): void;
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
  // The same records by kind and account (`kind/account` -> id -> record),
  // in the same order: a list page and every create's name check read one
  // account's resources of one kind, which must not cost a scan of the
  // whole store (with thousands of resources, creates grew linearly).
  #lists = new Map<string, Map<string, StoredRecord>>();
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
  get<K extends KindName>(kind: K, id: string): StoredRecord<K> | undefined {
    const record = this.#records.get(`${kind}/${id}`);
    return record && isOfKind(record, kind) ? record : undefined;
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
  list<K extends KindName>(kind: K, account: string): StoredRecord<K>[] {
    const list = this.#lists.get(`${kind}/${account}`);
    return list ? [...list.values()].filter((r) => isOfKind(r, kind)) : [];
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
  all<K extends KindName>(kind: K): StoredRecord<K>[] {
    return [...this.#records.values()].filter((r) => isOfKind(r, kind));
  }

  /**
   * Inserts or replaces a resource (a replacement keeps its place in lists).
   *
   * @example
   * ```ts
   * import { MemoryStore } from "./store.ts";
   * import { newRecord } from "./records.ts";
   * const s = new MemoryStore();
   * const caller = { account: { id: "a", name: "A" }, user: { id: "u", name: "U" } };
   * const model = newRecord(s, caller, "models", { name: "m" });
   * s.put(model);
   * if (s.get("models", model.id)?.seq !== 1) throw new Error();
   * ```
   */
  put<K extends KindName>(record: StoredRecord<K>): void {
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
   * import { newRecord } from "./records.ts";
   * const s = new MemoryStore();
   * const caller = { account: { id: "a", name: "A" }, user: { id: "u", name: "U" } };
   * s.putMany([
   *   newRecord(s, caller, "models", { name: "m" }),
   *   newRecord(s, caller, "workspaces", { name: "w" }),
   * ]);
   * if (s.inAccount("a").length !== 2) throw new Error();
   * ```
   */
  putMany<const Ks extends readonly KindName[]>(records: RecordsOf<Ks>): void {
    let next = this.#seq;
    const placed = records.map((record): StoredRecord => {
      const old = this.#records.get(`${record.kind}/${record.id}`);
      const seq = old?.seq ?? record.seq ?? ++next;
      next = Math.max(next, seq);
      return { ...record, seq };
    });
    this.persist(placed);
    this.#seq = next;
    for (const r of placed) {
      // Map order is insertion order; replacing in place keeps lists stable.
      const key = `${r.kind}/${r.id}`;
      const old = this.#records.get(key);
      if (old && old.account !== r.account) this.#unlist(old);
      this.#records.set(key, r);
      const at = `${r.kind}/${r.account}`;
      let list = this.#lists.get(at);
      if (!list) this.#lists.set(at, list = new Map());
      list.set(r.id, r);
    }
  }

  /**
   * Writes `records` (already placed) to durable storage before they become
   * visible; throwing refuses the whole write. Nothing to do in memory.
   *
   * @example
   * ```ts
   * import { MemoryStore, type StoredRecord } from "./store.ts";
   * import { newRecord } from "./records.ts";
   * class Refusing extends MemoryStore {
   *   protected override persist(_records: StoredRecord[]): void {
   *     throw new Error("disk full");
   *   }
   * }
   * const s = new Refusing();
   * const caller = { account: { id: "a", name: "A" }, user: { id: "u", name: "U" } };
   * const model = newRecord(s, caller, "models", { name: "m" });
   * const refused = (() => {
   *   try {
   *     s.put(model);
   *   } catch {
   *     return true;
   *   }
   * })();
   * if (!refused) throw new Error("not refused");
   * if (s.get("models", model.id) !== undefined) throw new Error("half-stored");
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
  remove(kind: KindName, id: string): void {
    const old = this.#records.get(`${kind}/${id}`);
    if (!old) return;
    this.#records.delete(`${kind}/${id}`);
    this.#unlist(old);
  }

  #unlist(record: StoredRecord): void {
    const at = `${record.kind}/${record.account}`;
    const list = this.#lists.get(at);
    list?.delete(record.id);
    if (list?.size === 0) this.#lists.delete(at);
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
