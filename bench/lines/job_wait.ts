/**
 * Line 4, job waiting: how many polls a job costs and how late `await job`
 * resolves after the job completes, for jobs of about 1 s, 10 s and 60 s.
 *
 * The jobs are served over loopback HTTP by a small `Deno.serve` server
 * that reports `RUNNING` until the job's completion time, then `COMPLETED`,
 * and counts the polls; the waiting side is the SDK's own {@linkcode Job}
 * with its default poll schedule (the one `ml.train()`, `ml.ingest()`, ...
 * use). The delay is the time from the completion instant to the `await`
 * resolving. Lengths are spread around each nominal length (x0.8 .. x1.2),
 * so completion falls at different points between polls; all jobs wait at
 * once (the whole line takes about as long as the longest job).
 *
 * The goal per job: delay at most 10% of its length plus 250 ms (reported
 * as the ratio delay / allowance, goal at most 1), and at most 40 polls for
 * a 60 s job.
 *
 * Run alone (prints the line's JSON): `deno run -A bench/lines/job_wait.ts`.
 *
 * @module
 */
import { Job } from "../../src/jobs/job.ts";
import type { Figure, LineResult } from "../lib/figures.ts";
import { median, medianNoise } from "../lib/stats.ts";

/** Options of {@linkcode jobWaitLine}. */
export interface JobWaitOptions {
  /** Nominal job lengths in seconds (default 1, 10, 60). */
  lengths?: number[];
  /** Factors applied to each nominal length (default 0.8 to 1.2). */
  spread?: number[];
}

interface Served {
  completeAt: number;
  polls: number;
}

/**
 * Measures line 4.
 */
export async function jobWaitLine(
  options: JobWaitOptions = {},
): Promise<LineResult> {
  const jobs = new Map<string, Served>();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (request) => {
      const id = new URL(request.url).pathname.split("/").pop()!;
      const job = jobs.get(id);
      if (!job) return new Response("not found", { status: 404 });
      job.polls++;
      const done = performance.now() >= job.completeAt;
      return Response.json({ id, status: done ? "COMPLETED" : "RUNNING" });
    },
  );
  const base = `http://127.0.0.1:${server.addr.port}/jobs/`;
  const lengths = options.lengths ?? [1, 10, 60];
  const spread = options.spread ?? [0.8, 0.9, 1.0, 1.1, 1.2];
  const runs = lengths.flatMap((nominal) =>
    spread.map(async (factor, k) => {
      const id = `job-${nominal}-${k}`;
      const lengthMs = nominal * 1000 * factor;
      const job = new Job({
        kind: "bench job",
        start: () => {
          jobs.set(id, { completeAt: performance.now() + lengthMs, polls: 0 });
          return Promise.resolve({ id, status: "STARTING" });
        },
        retrieve: async (jobId, { signal }) => {
          const res = await fetch(base + jobId, { signal });
          return await res.json();
        },
        resolve: (snapshot) => snapshot,
        progress: false,
      });
      await job;
      const served = jobs.get(id)!;
      const delay = performance.now() - served.completeAt;
      return { nominal, lengthMs, delay, polls: served.polls };
    })
  );
  const results = await Promise.all(runs);
  await server.shutdown();
  const figures: Figure[] = [];
  for (const nominal of lengths) {
    const mine = results.filter((r) => r.nominal === nominal);
    const allowed = mine.map((r) => 0.1 * r.lengthMs + 250);
    const ratio = mine.map((r, i) => r.delay / allowed[i]);
    const delays = mine.map((r) => r.delay);
    const polls = mine.map((r) => r.polls);
    const raw = { jobs: mine };
    figures.push({
      id: `jobs.${nominal}s.delay`,
      line: 4,
      label: `job wait, ~${nominal} s job: delay / (10% of length + 250 ms)`,
      value: median(ratio),
      unit: "x",
      noise: medianNoise(ratio),
      against: "the goal's allowance",
      goal: { max: 1 },
      detail: `delay median ${median(delays).toFixed(0)} ms, max ${
        Math.max(...delays).toFixed(0)
      } ms (worst ratio ${Math.max(...ratio).toFixed(2)}), ${mine.length} jobs`,
      raw,
    }, {
      id: `jobs.${nominal}s.polls`,
      line: 4,
      label: `job wait, ~${nominal} s job: polls`,
      value: median(polls),
      unit: "polls",
      noise: medianNoise(polls),
      against: "",
      goal: nominal >= 60 ? { max: 40 } : undefined,
      detail: `min ${Math.min(...polls)}, max ${Math.max(...polls)}`,
    });
  }
  return { figures };
}

if (import.meta.main) {
  console.log(JSON.stringify(await jobWaitLine()));
}
