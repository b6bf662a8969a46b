/**
 * The poll schedule of a platform's jobs: `local()` polls its in-process
 * platform from 10 ms (its small jobs end in milliseconds; the service's
 * 240 ms first wait made each step of a small workflow wait that long), a
 * platform's `poll` reaches every job it starts or attaches to, and a call's
 * own `poll` wins over it.
 */
import { assert, assertEquals } from "@std/assert";
import { local, LOCAL_POLL } from "../local.ts";
import type { PollOptions } from "../mod.ts";

/** A schedule whose waits are recorded and not slept (each yields a tick). */
function recorded(initialDelay: number): PollOptions & { waits: number[] } {
  const waits: number[] = [];
  return {
    initialDelay,
    maxDelay: initialDelay,
    waits,
    sleep: (ms) => {
      waits.push(ms);
      return new Promise((r) => setTimeout(r, 0));
    },
  };
}

async function withTable<R>(
  run: (dir: string) => Promise<R>,
): Promise<R> {
  const dir = await Deno.makeTempDir({ prefix: "local_poll_" });
  try {
    const rows = Array.from(
      { length: 60 },
      (_, i) => `${i},${i % 7},${"ab"[+(i % 3 === 0)]}`,
    );
    await Deno.writeTextFile(`${dir}/t.csv`, ["x,z,y", ...rows].join("\n"));
    return await run(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("local poll: local() polls its in-process jobs on LOCAL_POLL unless told otherwise", async () => {
  const ml = await local({ progress: false });
  try {
    assertEquals(ml.poll, LOCAL_POLL);
    assert(LOCAL_POLL.initialDelay! <= 10, "a short first wait");
    assert(LOCAL_POLL.maxDelay! <= 100, "at most 100 ms between polls");
  } finally {
    await ml.close();
  }
  const given = recorded(7);
  const mine = await local({ progress: false, poll: given });
  try {
    assertEquals(mine.poll, given);
  } finally {
    await mine.close();
  }
});

Deno.test("local poll: the platform's schedule reaches one-call steps, builders' jobs and a deployment's batch; a call's own poll wins", async () => {
  await withTable(async (dir) => {
    const platformPoll = recorded(3);
    const ml = await local({
      buckets: { b: dir },
      progress: false,
      poll: platformPoll,
    });
    try {
      // One-call steps (quickstart's, each a job waited for).
      const { model, deployment } = await ml.quickstart({
        bucket: "b",
        path: "t.csv",
        target: "y",
        training: { estimators: 1, maxRounds: 5 },
      });
      assert(platformPoll.waits.length > 0, "quickstart's jobs polled");
      assert(
        platformPoll.waits.every((ms) => ms === 3),
        `${platformPoll.waits}`,
      );
      // A builder's job takes the platform's schedule (its definition is
      // built without a request).
      const dataset = (await ml.datasets.list()).data[0];
      const definition = ml.trainingJob({
        dataset: dataset.id,
        configuration: "tc_1",
        compute: "cc_1",
        modelName: "m",
      }).toDefinition();
      assertEquals(definition.poll, platformPoll);
      // A deployment's batch job (built apart from the platform's builders).
      platformPoll.waits.length = 0;
      const batch = await deployment.batch({
        bucket: "b",
        path: "t.csv",
        output: "scored.csv",
      });
      assertEquals(batch.rowsIn, 60);
      assert(platformPoll.waits.length > 0, "the batch job polled");
      // A call's own schedule wins over the platform's.
      platformPoll.waits.length = 0;
      const own = recorded(5);
      await ml.train(dataset, { estimators: 1, maxRounds: 5, poll: own });
      assert(own.waits.length > 0, "the call's schedule polled");
      assertEquals(platformPoll.waits.length, 0, `${platformPoll.waits}`);
      assert(model.id);
    } finally {
      await ml.close();
    }
  });
});
