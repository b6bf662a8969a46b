/**
 * The work of an onboarding job: encode the datasource for the configured
 * target with the modelling encoder and store the encoder (and the options
 * that made it), so training and views apply exactly the same encoding.
 * What depends on the data (an empty target column, a single class, a
 * non-NUMBER target under `prediction_type: "REGRESSION"`) fails the job with
 * the encoder's message, which names the column. The configuration's
 * `prediction_type` is passed through to the encoder: REGRESSION keeps the
 * target as numbers (`classes` is then empty).
 *
 * @module
 */
import {
  encodeDataset,
  type EncodedDataset,
  type Encoder,
  type OnboardingOptions,
  type SchemaField,
} from "../model/encoding.ts";
import { asDatasource } from "../model/datasource.ts";
import { inputColumns } from "../model/encoder.ts";
import type { Store } from "../store/store.ts";
import { datasourceBlobKey } from "./ingest.ts";
import { macrotask } from "./yield.ts";
import type { JobWork } from "./runner.ts";
import { type BlobKind, blobKind } from "../store/blobs.ts";

/** The datasets' encodings, by dataset id. */
export const datasetBlobs: BlobKind<StoredDataset> = blobKind<StoredDataset>(
  "dataset",
);

/** What is stored for a dataset. */
export interface StoredDataset {
  /** The datasource it encodes. */
  datasourceId: string;
  /** The schema fields of the datasource. */
  fields: SchemaField[];
  /** Encoder options (from the onboarding configuration). */
  options: OnboardingOptions;
  /** The fitted encoder. */
  encoder: Encoder;
}

/** Summary handed to the dataset record. */
export interface OnboardSummary {
  rows: number;
  droppedRows: number;
  features: string[];
  target: string;
  classes: string[];
}

/**
 * Re-encodes a stored dataset for training (deterministic: same options, same
 * rows, same encoder; checked).
 *
 * @example
 * ```ts
 * import { MemoryStore } from "../store/store.ts";
 * import { uncheckedRecord } from "../../../tests/_helpers/records.ts";
 * import { loadEncoded } from "./onboard.ts";
 * const status = (() => { try { loadEncoded(new MemoryStore(), "none"); } catch (e) { return e instanceof Error ? e.message : ""; } })();
 * if (!String(status).includes("none")) throw new Error();
 * ```
 */
export function loadEncoded(store: Store, datasetId: string) {
  const stored = datasetBlobs.read(store, datasetId);
  const blob = stored && store.getBlob(datasourceBlobKey(stored.datasourceId));
  const columns = blob === undefined ? undefined : asDatasource(blob);
  if (!stored || !columns) {
    throw new Error(
      `The data of dataset ${datasetId} is gone (its datasource was deleted?); onboard the datasource again.`,
    );
  }
  const data = encodeDataset(columns, stored.fields, stored.options);
  if (encoderKey(data.encoder) !== encoderKey(stored.encoder)) {
    throw new Error(
      `Dataset ${datasetId} no longer encodes as it did at onboarding (its datasource changed); onboard it again.`,
    );
  }
  return data;
}

/**
 * Each store's last onboarding: its dataset, the stored dataset and
 * datasource blobs it encoded, and the encoded rows, held weakly (the
 * collector may take them back). The dataset's training takes them
 * ({@link takeEncoded}) instead of encoding the datasource a second time:
 * on a 1,000,000-row table that second encoding was half a second of the
 * training job and 85 MB of new buffers while the first one's still sat
 * uncollected (BENCHMARKS.md section 7, "The large churn tables: memory and fit").
 */
const lastOnboarded = new WeakMap<Store, {
  datasetId: string;
  // All three weakly: a store that reads its blobs back as copies (SQLite)
  // must not keep a datasource's copy alive here.
  stored: WeakRef<StoredDataset>;
  source: WeakRef<object>;
  data: WeakRef<EncodedDataset>;
}>();

/**
 * The encoded rows of dataset `datasetId` for its training: those its
 * onboarding made when they are still there and the stored dataset and its
 * datasource are the very blobs it encoded (they are then handed over once:
 * the training may move their buffers to its worker), else
 * {@link loadEncoded}'s. The same rows either way: encoding is
 * deterministic.
 *
 * @example
 * ```ts
 * import { MemoryStore } from "../store/store.ts";
 * import { takeEncoded } from "./onboard.ts";
 * const status = (() => { try { takeEncoded(new MemoryStore(), "none"); } catch (e) { return e instanceof Error ? e.message : ""; } })();
 * if (!String(status).includes("none")) throw new Error();
 * ```
 */
export function takeEncoded(store: Store, datasetId: string): EncodedDataset {
  const last = lastOnboarded.get(store);
  if (last?.datasetId === datasetId) {
    lastOnboarded.delete(store);
    const data = last.data.deref();
    const stored = datasetBlobs.read(store, datasetId);
    if (
      data && stored !== undefined && stored === last.stored.deref() &&
      store.getBlob(datasourceBlobKey(stored.datasourceId)) ===
        last.source.deref()
    ) return data;
  }
  return loadEncoded(store, datasetId);
}

/**
 * An encoder as comparable text (encoders stored before regression have no
 * `target.kind`). A date column's derived parts (model/dates.ts) are left
 * out: they follow from the column, which is compared, so a dataset
 * onboarded before they were derived trains with them.
 */
function encoderKey(e: Encoder): string {
  const { name, classes, strip } = e.target;
  const kind = e.target.kind ?? "categorical";
  const features = e.features.filter((f) =>
    !(f.kind === "categorical" && f.derived)
  );
  return JSON.stringify([features, name, kind, classes, strip]);
}

/**
 * Builds the onboarding work.
 *
 * @example
 * ```ts
 * import { MemoryStore } from "../store/store.ts";
 * import { uncheckedRecord } from "../../../tests/_helpers/records.ts";
 * import { JobRunner } from "./runner.ts";
 * import { onboardWork } from "./onboard.ts";
 * const store = new MemoryStore();
 * store.putBlob("datasource:src", { x: [1, 2], y: [null, null] });
 * store.put(uncheckedRecord({ kind: "onboardingJobs", id: "j", account: "a", body: {} }));
 * const fields = [
 *   { name: "x", data_type: { data_type: "NUMBER" }, designation: "FEATURE", semantic_type: "CONTINUOUS" },
 *   { name: "y", data_type: { data_type: "STRING" }, designation: "TARGET", semantic_type: "CATEGORICAL" },
 * ];
 * await new JobRunner(store, () => {}).start("onboardingJobs", "j", 60,
 *   onboardWork(store, { datasourceId: "src", datasetId: "d", fields, options: { targets: ["y"] } }, () => {}));
 * if (!String(store.get("onboardingJobs", "j")!.body.message).includes("'y'")) throw new Error();
 * ```
 */
export function onboardWork(
  store: Store,
  input: {
    datasourceId: string;
    datasetId: string;
    fields: SchemaField[];
    options: OnboardingOptions;
  },
  onDone: (summary: OnboardSummary) => void,
): JobWork {
  return async (job) => {
    job.report("loading", 0, 0.05);
    const blob = store.getBlob(datasourceBlobKey(input.datasourceId));
    const columns = blob === undefined ? undefined : asDatasource(blob);
    if (!columns) {
      throw new Error(
        `The rows of datasource ${input.datasourceId} are gone; ingest the data again.`,
      );
    }
    job.report("loading", 1, 0.2);
    await macrotask();
    if (job.signal.aborted) throw job.signal.reason;
    job.report("encoding", 0, 0.2);
    const data = encodeDataset(columns, input.fields, input.options);
    job.report("encoding", 1, 0.9);
    await macrotask();
    if (job.signal.aborted) throw job.signal.reason;
    job.report("storing", 0, 0.9);
    const stored: StoredDataset = {
      datasourceId: input.datasourceId,
      fields: input.fields,
      options: input.options,
      encoder: data.encoder,
    };
    datasetBlobs.write(store, input.datasetId, stored);
    if (typeof blob === "object" && blob !== null) {
      lastOnboarded.set(store, {
        datasetId: input.datasetId,
        stored: new WeakRef(stored),
        source: new WeakRef(blob),
        data: new WeakRef(data),
      });
    }
    onDone({
      rows: data.nRows,
      droppedRows: data.droppedRows,
      features: inputColumns(data.encoder),
      target: data.encoder.target.name,
      classes: data.encoder.target.classes,
    });
  };
}
