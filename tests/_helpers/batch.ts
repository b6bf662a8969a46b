/**
 * Helpers of the batch views tests: a small generated churn-like table (an
 * id, two numbers, a category, the target), a bucket folder holding it, and
 * a local platform with a model trained on it and deployed, made once per
 * test file; and a views batch job's work run alone (`runBatchWork`).
 *
 * @module
 */
import { local, type LocalMLPlatform } from "../../local.ts";
import type { Deployment } from "../../src/builders/deployment.ts";
import {
  type BatchInput,
  type BatchOutcome,
  batchWork,
} from "../../src/local/jobs/batch.ts";
import { JobRunner } from "../../src/local/jobs/runner.ts";
import { MemoryStore } from "../../src/local/store/store.ts";
import { uncheckedRecord } from "./records.ts";

/** The table's columns, in file order. */
export const CHURN_COLUMNS = [
  "id",
  "tenure",
  "charges",
  "contract",
  "churn",
] as const;

/** One generated row: id, tenure, charges, contract, churn. */
export type ChurnRow = [string, number, number, string, string];

/**
 * `n` rows of a churn-like table, the same for the same `seed`: churn
 * follows a short tenure, high charges and a monthly contract, with noise.
 */
export function churnRows(n: number, seed = 1): ChurnRow[] {
  let state = seed >>> 0 || 1;
  const next = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  const contracts = ["month", "year", "two-year"];
  return Array.from({ length: n }, (_, i) => {
    const tenure = Math.floor(next() * 72);
    const charges = Math.round((20 + next() * 100) * 100) / 100;
    const contract = contracts[Math.floor(next() * 3)];
    const score = -tenure / 20 + charges / 40 +
      (contract === "month" ? 1 : -1) + (next() - 0.5) * 2;
    return [
      `c${String(i).padStart(6, "0")}`,
      tenure,
      charges,
      contract,
      score > 0.5 ? "Yes" : "No",
    ];
  });
}

/** The rows as CSV text with the header. */
export function churnCsv(rows: readonly (readonly unknown[])[]): string {
  return [CHURN_COLUMNS.join(","), ...rows.map((r) => r.join(","))].join("\n") +
    "\n";
}

/** A platform with a deployed churn model, and the bucket folder it reads. */
export interface BatchFixture {
  /** The SDK on an in-process local platform. */
  ml: LocalMLPlatform;
  /** The running deployment. */
  deployment: Deployment<string, string>;
  /** The folder of bucket `b`. */
  dir: string;
  /** Closes the platform and removes the folder. */
  close(): Promise<void>;
}

/**
 * Trains a small model (few rounds: accuracy is not the subject) on 400
 * generated rows and deploys it; with `dataDir`, the platform persists there.
 */
export async function batchFixture(
  options: {
    dataDir?: string;
    deploymentGate?: (deployedModelId: string) => Promise<void>;
  } = {},
): Promise<BatchFixture> {
  const dir = await Deno.makeTempDir({ prefix: "batch_test_" });
  await Deno.writeTextFile(`${dir}/train.csv`, churnCsv(churnRows(400, 7)));
  const ml = await local({
    buckets: { b: dir },
    progress: false,
    dataDir: options.dataDir,
    deploymentGate: options.deploymentGate,
  });
  const { deployment } = await ml.quickstart({
    bucket: "b",
    path: "train.csv",
    target: "churn",
    exclude: ["id"],
    training: { maxRounds: 20, estimators: 1 },
    progress: false,
  });
  return {
    ml,
    deployment,
    dir,
    close: async () => {
      await ml.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/**
 * Runs {@linkcode batchWork} once as a job of its own (a fresh store and
 * runner), reading `inputFile`: the job's record body when it ended, and
 * what the batch reported on completing (null otherwise).
 */
export async function runBatchWork(
  inputFile: string,
  input: Omit<BatchInput, "openInput" | "display">,
): Promise<{
  job: { status: string; message?: string };
  outcome: BatchOutcome | null;
}> {
  const { open } = await import("node:fs/promises");
  const store = new MemoryStore();
  store.put(
    uncheckedRecord({
      kind: "viewsBatchJobs",
      id: "j",
      account: "a",
      body: {},
    }),
  );
  let outcome: BatchOutcome | null = null;
  await new JobRunner(store, () => {}).start(
    "viewsBatchJobs",
    "j",
    60,
    batchWork({
      ...input,
      openInput: async (use) => {
        const handle = await open(inputFile);
        try {
          return await use(handle);
        } finally {
          await handle.close();
        }
      },
      display: inputFile.slice(inputFile.lastIndexOf("/") + 1),
    }, (o) => (outcome = o)),
  );
  const job = store.get("viewsBatchJobs", "j")!.body as {
    status: string;
    message?: string;
  };
  return { job, outcome };
}
