/**
 * The one test-only escape from the local store's typed writes.
 *
 * `Store.put` and `Store.putMany` take a record whose body is its kind's
 * resource, so a handler that stores a wrong body does not compile. Tests
 * and examples sometimes store a record that is partial on purpose (a job
 * that only needs to exist for the runner to update it) or invalid on
 * purpose (a body the store must refuse); they build it here, where the
 * body's check is skipped by one cast, in plain sight.
 *
 * @module
 */
import type { KindName } from "../../src/schemas/routes.ts";
import type {
  Internal,
  Resources,
  StoredRecord,
} from "../../src/local/store/store.ts";

/**
 * A record of `kind` whose body is NOT checked against that kind's resource
 * (test fixtures only; handlers build records with `newRecord`).
 *
 * @example
 * ```ts
 * import { MemoryStore } from "../../src/local/store/store.ts";
 * import { uncheckedRecord } from "./records.ts";
 * const store = new MemoryStore();
 * store.put(uncheckedRecord({ kind: "trainingJobs", id: "t", account: "a", body: { status: "STARTING" } }));
 * if (store.get("trainingJobs", "t")?.body.status !== "STARTING") throw new Error();
 * ```
 */
export function uncheckedRecord<K extends KindName>(record: {
  kind: K;
  id: string;
  account: string;
  body: Record<string, unknown>;
  internal?: Internal;
}): StoredRecord<K> {
  const { body, internal = {}, ...rest } = record;
  return { ...rest, body: body as Resources[K], internal };
}
