import { assert, assertEquals, assertStringIncludes } from "@std/assert";
import {
  type JupyterLike,
  notebookProgress,
  progressBundle,
} from "../src/notebook/mod.ts";

type Sent = {
  bundle: Record<string, string>;
  options: { raw?: boolean; update?: boolean; display_id?: string };
};

// A recording stand-in for Deno.jupyter, and a hand-driven clock: no real time is involved.
function fakeKernel() {
  const sent: Sent[] = [];
  const jupyter: JupyterLike = {
    display: (bundle, options) => {
      sent.push({
        bundle: bundle as Record<string, string>,
        options: options ?? {},
      });
      return Promise.resolve();
    },
  };
  let t = 0;
  return { sent, jupyter, now: () => t, advance: (ms: number) => (t += ms) };
}

Deno.test("progress displays once, then updates the same display in place, and ends green", async () => {
  const k = fakeKernel();
  const bar = notebookProgress("Training churn", {
    jupyter: k.jupyter,
    now: k.now,
    throttleMs: 200,
  })!;
  bar.update({ id: "tj_1", status: "STARTING", progress: 0 });
  k.advance(250);
  bar.update({
    id: "tj_1",
    status: "RUNNING",
    progress: 0.4,
    stage: "training",
    stage_progress: 0.5,
  });
  await bar.end({ id: "tj_1", status: "COMPLETED", progress: 1 });
  assertEquals(k.sent.length, 3);
  const id = k.sent[0].options.display_id!;
  assert(id.length > 0);
  assertEquals(
    k.sent.map((s) => [s.options.raw, s.options.update, s.options.display_id]),
    [
      [true, false, id],
      [true, true, id],
      [true, true, id],
    ],
  );
  assertStringIncludes(
    k.sent[1].bundle["text/plain"],
    "RUNNING 40% (training 50%)",
  );
  assertStringIncludes(k.sent[2].bundle["text/html"], "#15803d");
  assertStringIncludes(k.sent[2].bundle["text/plain"], "COMPLETED 100%");
});

Deno.test("updates inside the throttle interval are coalesced, but the final state always shows", async () => {
  const k = fakeKernel();
  const bar = notebookProgress("Ingest", {
    jupyter: k.jupyter,
    now: k.now,
    throttleMs: 200,
  })!;
  bar.update({ id: "j", status: "RUNNING", progress: 0.1 });
  for (let i = 2; i <= 9; i++) {
    k.advance(10);
    bar.update({ id: "j", status: "RUNNING", progress: i / 10 });
  }
  await bar.end({
    id: "j",
    status: "FAILED",
    message: `disk <full>`,
    progress: 0.9,
  });
  assertEquals(k.sent.length, 2, "throttled updates were displayed");
  const final = k.sent[1];
  assertEquals(final.options.update, true);
  assertStringIncludes(final.bundle["text/html"], "#b91c1c");
  assertStringIncludes(final.bundle["text/html"], "disk &lt;full&gt;");
  assertStringIncludes(final.bundle["text/plain"], "FAILED 90% - disk <full>");
  // After the end nothing more is sent.
  bar.update({ id: "j", status: "RUNNING" });
  await bar.end();
  assertEquals(k.sent.length, 2);
});

Deno.test("a pending update is shown when the interval ends", async () => {
  const k = fakeKernel();
  const bar = notebookProgress("Onboard", {
    jupyter: k.jupyter,
    now: k.now,
    throttleMs: 1,
  })!;
  bar.update({ id: "j", status: "RUNNING", progress: 0.1 });
  bar.update({ id: "j", status: "RUNNING", progress: 0.7 });
  // The trailing update is scheduled with a timer; wait for it rather than for a duration.
  for (let i = 0; i < 10_000 && k.sent.length < 2; i++) {
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  assertEquals(k.sent.length >= 2, true, "the trailing update never came");
  assertStringIncludes(k.sent[0].bundle["text/plain"], "10%");
  assertStringIncludes(k.sent[1].bundle["text/plain"], "70%");
  await bar.end();
  assertStringIncludes(k.sent[2].bundle["text/plain"], "RUNNING 100%");
});

Deno.test("end with an error renders FAILED with the message, masking credentials", async () => {
  const k = fakeKernel();
  const bar = notebookProgress("Deploy", { jupyter: k.jupyter, now: k.now })!;
  bar.update({ id: "d", status: "STARTING" });
  await bar.end(undefined, new Error("401 for Bearer abc.def.ghi"));
  const final = k.sent.at(-1)!;
  assertStringIncludes(final.bundle["text/plain"], "Deploy: FAILED");
  assert(!JSON.stringify(final).includes("abc.def.ghi"));
});

Deno.test("a deployment that reaches RUNNING ends green and full", () => {
  const bundle = progressBundle("Deploy", { id: "d", status: "RUNNING" }, {
    final: true,
  });
  const running = progressBundle("Train", {
    id: "t",
    status: "RUNNING",
    progress: 0.3,
  });
  assertStringIncludes(running["text/html"], "width:30%");
  assertStringIncludes(bundle["text/html"], "width:100%");
  assertStringIncludes(bundle["text/html"], "#15803d");
  const starting = progressBundle(`<script>`, {
    id: "d",
    status: "STARTING",
    progress: 2,
  });
  assert(!starting["text/html"].includes("<script>"));
  assertStringIncludes(starting["text/plain"], "100%"); // progress clamped to 0..1
});
