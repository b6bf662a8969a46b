import {
  assert,
  assertEquals,
  assertInstanceOf,
  assertRejects,
  assertStringIncludes,
} from "@std/assert";
import {
  ChunkError,
  FrameError,
  scoreInChunks,
  type SplitTable,
  type ViewsQuery,
} from "../src/frames/mod.ts";

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function query(n: number): ViewsQuery {
  return {
    id: Array.from({ length: n }, (_, i) => i),
    name: Array.from({ length: n }, (_, i) => `r${i}`),
  };
}

// A fake deployment: answers each row with its id and name, after a random delay.
function echo(chunk: ViewsQuery): SplitTable {
  return {
    columns: ["prediction.id", "echo.name"],
    index: chunk.id.map((_, i) => i),
    data: chunk.id.map((id, i) => [id, chunk.name[i]]),
  };
}

Deno.test("rows come back in query order under concurrency with random delays, bound never exceeded", async () => {
  let inFlight = 0;
  let peak = 0;
  let calls = 0;
  const progress: number[] = [];
  const table = await scoreInChunks(query(1037), {
    chunkSize: 50,
    concurrency: 4,
    onProgress: (p) => progress.push(p.rowsDone),
    score: async (chunk) => {
      calls++;
      inFlight++;
      peak = Math.max(peak, inFlight);
      await delay(Math.random() * 8);
      inFlight--;
      return echo(chunk);
    },
  });
  assertEquals(calls, 21);
  assert(peak <= 4, `peak concurrency ${peak} exceeded 4`);
  assertEquals(peak, 4); // with 21 chunks and slow answers, the pool does fill up
  assertEquals(table.columns, ["prediction.id", "echo.name"]);
  assertEquals(table.data.length, 1037);
  assertEquals(table.data.map((r) => r[0]), query(1037).id);
  assertEquals(table.data[1036], [1036, "r1036"]);
  assertEquals(table.index, query(1037).id);
  assertEquals(progress.at(-1), 1037);
  assertEquals(progress.length, 21);
});

Deno.test("default concurrency is 1", async () => {
  let inFlight = 0;
  let peak = 0;
  await scoreInChunks(query(30), {
    chunkSize: 7,
    score: async (chunk) => {
      peak = Math.max(peak, ++inFlight);
      await delay(1);
      inFlight--;
      return echo(chunk);
    },
  });
  assertEquals(peak, 1);
});

Deno.test("a chunk that fails with a retryable error is retried, then succeeds", async () => {
  const attempts = new Map<number, number>();
  const table = await scoreInChunks(query(10), {
    chunkSize: 3,
    concurrency: 2,
    retryDelay: () => 0,
    score: (chunk, { chunk: c, attempt }) => {
      attempts.set(c, attempt);
      if (c === 2 && attempt < 3) {
        return Promise.reject(
          Object.assign(new Error("busy"), { status: 429 }),
        );
      }
      return Promise.resolve(echo(chunk));
    },
  });
  assertEquals(attempts.get(2), 3);
  assertEquals(attempts.get(0), 1);
  assertEquals(table.data.map((r) => r[0]), query(10).id);
});

Deno.test("retries are bounded and the final error names the rows", async () => {
  let calls = 0;
  const error = await assertRejects(
    () =>
      scoreInChunks(query(10), {
        chunkSize: 5,
        retries: 2,
        retryDelay: () => 0,
        score: (chunk, { chunk: c }) => {
          if (c === 1) {
            calls++;
            return Promise.reject(
              Object.assign(new Error("503 Service Unavailable"), {
                status: 503,
              }),
            );
          }
          return Promise.resolve(echo(chunk));
        },
      }),
    ChunkError,
  );
  assertEquals(calls, 3);
  assertEquals(error.attempts, 3);
  assertStringIncludes(error.message, "rows 5-9");
  assertStringIncludes(error.message, "503 Service Unavailable");
});

Deno.test("a non-retryable error is not retried and stops the other chunks", async () => {
  let calls = 0;
  const seen: AbortSignal[] = [];
  const error = await assertRejects(
    () =>
      scoreInChunks(query(100), {
        chunkSize: 10,
        concurrency: 2,
        isRetryable: () => false,
        score: async (chunk, { chunk: c, signal }) => {
          calls++;
          seen.push(signal);
          if (c === 0) throw new Error("400 bad feature");
          await delay(5);
          return echo(chunk);
        },
      }),
    ChunkError,
  );
  assertEquals(error.attempts, 1);
  assertInstanceOf(error.cause, Error);
  assert(calls < 10, `${calls} chunks were sent after a fatal error`);
  assert(
    seen.every((s) => s.aborted),
    "in-flight requests were not told to stop",
  );
});

Deno.test("aborting rejects with the signal's reason and stops sending", async () => {
  const controller = new AbortController();
  let calls = 0;
  const reason = new Error("user stopped");
  const promise = scoreInChunks(query(100), {
    chunkSize: 10,
    concurrency: 2,
    signal: controller.signal,
    // Never settles on its own: only the abort can end the call.
    score: (_chunk, { signal }) => {
      calls++;
      if (calls === 2) queueMicrotask(() => controller.abort(reason));
      return new Promise<SplitTable>((_, reject) =>
        signal.addEventListener("abort", () => reject(signal.reason))
      );
    },
  });
  const error = await promise.then(() => undefined, (e) => e);
  assertEquals(error, reason);
  assertEquals(calls, 2);
});

Deno.test("an already aborted signal rejects before any request", async () => {
  let calls = 0;
  await assertRejects(
    () =>
      scoreInChunks(query(5), {
        signal: AbortSignal.abort(new Error("too late")),
        score: (chunk) => {
          calls++;
          return Promise.resolve(echo(chunk));
        },
      }),
    Error,
    "too late",
  );
  assertEquals(calls, 0);
});

Deno.test("answers that cannot be aligned are refused", async () => {
  await assertRejects(
    () =>
      scoreInChunks(query(4), {
        chunkSize: 2,
        score: (chunk) =>
          Promise.resolve({ ...echo(chunk), data: echo(chunk).data.slice(1) }),
      }),
    FrameError,
    "came back with 1 rows instead of 2",
  );
  await assertRejects(
    () =>
      scoreInChunks(query(4), {
        chunkSize: 2,
        score: (chunk, { chunk: c }) =>
          Promise.resolve({
            ...echo(chunk),
            columns: c ? ["x", "y"] : ["a", "b"],
          }),
      }),
    FrameError,
    "all chunks must come from the same deployment",
  );
});

Deno.test("bad queries and options are refused before any request", async () => {
  const score = () => Promise.reject(new Error("must not be called"));
  await assertRejects(
    () => scoreInChunks({ a: [1, 2], b: [1] }, { score }),
    FrameError,
    '"b" has 1 values',
  );
  await assertRejects(
    () => scoreInChunks({}, { score }),
    FrameError,
    "no columns",
  );
  await assertRejects(
    () => scoreInChunks(query(3), { score, chunkSize: 0 }),
    RangeError,
    "chunkSize",
  );
  await assertRejects(
    () => scoreInChunks(query(3), { score, concurrency: 1.5 }),
    RangeError,
    "concurrency",
  );
  await assertRejects(
    () => scoreInChunks(query(3), { score, retries: -1 }),
    RangeError,
    "retries",
  );
  assertEquals(await scoreInChunks(query(0), { score }), {
    columns: [],
    index: [],
    data: [],
  });
});
