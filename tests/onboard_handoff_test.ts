/**
 * The training job takes the rows its dataset's onboarding encoded
 * (`takeEncoded`, src/local/jobs/onboard.ts) instead of encoding the
 * datasource again, only while they are still those of the stored dataset
 * and datasource, and once: what it is handed is what a fresh encoding gives.
 */
import { assert, assertEquals, assertNotStrictEquals } from "@std/assert";
import { makeDatasource } from "../src/local/model/datasource.ts";
import type { EncodedDataset } from "../src/local/model/encoder.ts";
import { JobRunner } from "../src/local/jobs/runner.ts";
import { datasourceBlobKey } from "../src/local/jobs/ingest.ts";
import {
  loadEncoded,
  onboardWork,
  takeEncoded,
} from "../src/local/jobs/onboard.ts";
import { MemoryStore } from "../src/local/store/store.ts";
import { uncheckedRecord } from "./_helpers/records.ts";
import { field } from "./_helpers/generated.ts";

const fields = [field("x", "number"), field("y", "category", "TARGET")];

function datasource(n: number) {
  return makeDatasource(n, {
    x: {
      kind: "number",
      values: Float64Array.from({ length: n }, (_, i) => i),
    },
    y: {
      kind: "string",
      codes: Uint32Array.from({ length: n }, (_, i) => 1 + (i % 3 ? 1 : 0)),
      dictionary: ["a", "b"],
    },
  });
}

async function onboard(store: MemoryStore, id: string): Promise<void> {
  store.put(
    uncheckedRecord({ kind: "onboardingJobs", id, account: "a", body: {} }),
  );
  await new JobRunner(store, () => {}).start(
    "onboardingJobs",
    id,
    60,
    onboardWork(
      store,
      { datasourceId: "src", datasetId: id, fields, options: {} },
      () => {},
    ),
  );
}

/** Everything an encoded dataset holds, as comparable text. */
function text(d: EncodedDataset): string {
  return JSON.stringify(
    d,
    (_, v) => ArrayBuffer.isView(v) ? Array.from(v as Uint8Array) : v,
  );
}

Deno.test("a training takes its onboarding's encoded rows once, the same as encoding again", async () => {
  const store = new MemoryStore();
  store.putBlob(datasourceBlobKey("src"), datasource(300));
  await onboard(store, "d");
  const handed = takeEncoded(store, "d");
  const fresh = loadEncoded(store, "d");
  assertEquals(text(handed), text(fresh));
  // Taken once: the training may move its buffers away.
  const again = takeEncoded(store, "d");
  assertNotStrictEquals(again, handed);
  assertEquals(text(again), text(fresh));
});

Deno.test("a changed datasource or a later onboarding is encoded again", async () => {
  const store = new MemoryStore();
  store.putBlob(datasourceBlobKey("src"), datasource(300));
  await onboard(store, "d");
  // The datasource blob replaced under the same id: its rows, not the old ones.
  store.putBlob(datasourceBlobKey("src"), datasource(200));
  assertEquals(takeEncoded(store, "d").nRows, 200);
  // Another dataset onboarded since: the first one's training encodes.
  store.putBlob(datasourceBlobKey("src"), datasource(300));
  await onboard(store, "d");
  await onboard(store, "e");
  const d = takeEncoded(store, "d");
  assertEquals(text(d), text(loadEncoded(store, "d")));
  assert(takeEncoded(store, "e").nRows === 300);
});
