/**
 * The transport's shortcuts keep its guarantees: a request body the compiled
 * check accepts is sent as given, and every other body still goes through
 * zod (defaults filled, unknown keys stripped, bad fields refused unsent);
 * an in-process (custom) fetch that never answers still times out, on the
 * shared timeout bucket, and the calls after it still succeed.
 */
import { assert, assertEquals, assertRejects } from "@std/assert";
import { Client } from "../src/client.ts";
import { TimeoutError, ValidationError } from "../src/http/errors.ts";
import { TimeoutSignals } from "../src/http/deadlines.ts";
import { listQuery } from "../src/resources/collection.ts";
import { ListQuerySchema } from "../src/schemas/common.ts";

const T = "2024-05-01T12:00:00.000000Z";
const ref = { id: "u_1", name: "me" };

/** A client whose in-process fetch hands every call but the token's to `handle`. */
function inProcess(handle: (request: Request) => Promise<Response>) {
  return new Client({
    baseUrl: "https://mlp.invalid",
    clientId: "id",
    clientSecret: "s",
    maxRetries: 0,
    fetch: (input) =>
      new URL((input as Request).url).pathname === "/oauth/token"
        ? Promise.resolve(Response.json({
          access_token: "t",
          token_type: "Bearer",
          expires_in: 3600,
        }))
        : handle(input as Request),
  });
}

/** A client that records each body sent and answers `answer(body)`. */
function recording(answer: (body: unknown) => unknown) {
  const sent: unknown[] = [];
  const client = inProcess(async (request) => {
    const body = JSON.parse(await request.text());
    sent.push(body);
    return Response.json(answer(body), { status: 201 });
  });
  return { client, sent };
}

Deno.test("request body: valid as given is sent as given; defaults are filled and unknown keys stripped by zod", async () => {
  const { client, sent } = recording((body) => ({
    id: "x_1",
    account: ref,
    created_at: T,
    created_by: ref,
    ...(body as object),
  }));
  await client.workspaces.create({ name: "w" });
  assertEquals(sent.at(-1), { name: "w" });
  // An unknown key is stripped (zod's object), so the check sends it to zod.
  await client.workspaces.create({ name: "w2", colour: "red" } as never);
  assertEquals(sent.at(-1), { name: "w2" });
  // Defaults are zod's to fill.
  await client.deploymentConfigurations.create({ name: "dc" });
  assertEquals(sent.at(-1), {
    name: "dc",
    deployment_type: "SERVERLESS",
    maximum_concurrency: 4,
    memory_size: 2048,
  });
});

Deno.test("request body: an invalid one is refused, naming the field, and nothing is sent", async () => {
  const { client, sent } = recording(() => ({}));
  const error = await assertRejects(
    () => client.workspaces.create({ name: 3 } as never),
    ValidationError,
  );
  assertEquals(error.issues.map((i) => i.path), ["name"]);
  const limits = await assertRejects(
    () =>
      client.deploymentConfigurations.create({
        name: "dc",
        maximum_concurrency: 0,
      }),
    ValidationError,
  );
  assertEquals(limits.issues.map((i) => i.path), ["maximum_concurrency"]);
  assertEquals(sent, []);
});

Deno.test("timeout: an in-process fetch that never answers times out, and the next call succeeds", async () => {
  let hang = true;
  const client = inProcess(() =>
    hang ? new Promise<Response>(() => {}) : Promise.resolve(Response.json({
      id: "w_1",
      name: "w",
      account: ref,
      created_at: T,
      created_by: ref,
    }))
  );
  const error = await assertRejects(
    () => client.workspaces.get("w_1", { timeout: 20 }),
    TimeoutError,
  );
  assert(error.message.startsWith("GET /workspaces/w_1 timed out after 20 ms"));
  hang = false;
  assertEquals((await client.workspaces.get("w_1", { timeout: 20 })).id, "w_1");
});

Deno.test("timeout slots: a race settles like its work, and rejects with the timeout once the bucket aborts", async () => {
  const timeouts = new TimeoutSignals();
  const a = timeouts.take(20);
  assertEquals(await a.race(Promise.resolve(1)), 1);
  await assertRejects(
    () => a.race(Promise.reject(new Error("no"))),
    Error,
    "no",
  );
  const b = timeouts.take(20);
  const late = b.race(new Promise(() => {}));
  const reason = await late.catch((e) => e);
  assertEquals((reason as DOMException).name, "TimeoutError");
  // After the abort a race rejects at once.
  await assertRejects(() => b.race(Promise.resolve(2)));
  a.release();
  b.release();
});

Deno.test("timeout slots: a group whose attempts all finished in time is not aborted at its deadline, and the next group's late attempt is", async () => {
  const timeouts = new TimeoutSignals();
  const early = timeouts.take(10);
  early.release();
  await new Promise((r) => setTimeout(r, 30)); // past the group's deadline
  assertEquals(early.signal.aborted, false);
  const late = timeouts.take(10); // a new group: the old one is past its deadline
  assert(late.signal !== early.signal);
  const reason = await late.race(new Promise(() => {})).catch((e) => e);
  late.release();
  assertEquals((reason as DOMException).name, "TimeoutError");
  assertEquals(early.signal.aborted, false);
});

Deno.test("timeout slots keep a script alive only while an attempt waits (and never with keepAlive false)", async () => {
  // Each script takes a 60 s timeout slot; it must exit at once, not in 60 s.
  const scripts = {
    released:
      "const t = new TimeoutSignals(); t.take(60_000).release(); console.log('done');",
    unreleased:
      "const t = new TimeoutSignals({ keepAlive: false }); t.take(60_000); console.log('done');",
  };
  const module = new URL("../src/http/deadlines.ts", import.meta.url).href;
  for (const [name, code] of Object.entries(scripts)) {
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "eval",
        `import { TimeoutSignals } from "${module}"; ${code}`,
      ],
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    // A script the timer held would be killed long before its 60 s.
    const kill = setTimeout(() => child.kill(), 30_000);
    const out = await child.output();
    clearTimeout(kill);
    assertEquals(
      [name, out.code, new TextDecoder().decode(out.stdout).trim()],
      [name, 0, "done"],
      new TextDecoder().decode(out.stderr),
    );
  }
  // With keepAlive (the default) a waiting attempt is kept alive until its
  // timeout fires.
  const held = new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      `import { TimeoutSignals } from "${module}"; const s = new TimeoutSignals().take(50); await s.race(new Promise(() => {})).catch((e) => console.log(e.name));`,
    ],
    stdout: "piped",
  });
  const out = await held.output();
  assertEquals(new TextDecoder().decode(out.stdout).trim(), "TimeoutError");
});

Deno.test("list parameters: the shortcut for a page without parameters gives zod's output, and a fresh object each time", () => {
  const inputs: unknown[] = [
    {},
    { page: undefined },
    { items_per_page: undefined },
    { page: 2 },
    { items_per_page: "20" },
    { page: 0 },
    { items_per_page: 101 },
    Object.create({ page: 3 }),
  ];
  for (const input of inputs) {
    const zod = ListQuerySchema.safeParse(input);
    let ours: unknown;
    try {
      ours = listQuery(input as never, "GET /workspaces");
    } catch (error) {
      ours = error;
    }
    if (zod.success) assertEquals(ours, zod.data, JSON.stringify(input));
    else assert(ours instanceof ValidationError, JSON.stringify(input));
  }
  // A key that is no list parameter is refused naming it (zod would drop
  // it: list({ signal }) never aborted).
  for (
    const input of [{ extra: "x" }, { items_per_page: undefined, extra: "x" }]
  ) {
    let refused: unknown;
    try {
      listQuery(input as never, "GET /workspaces");
    } catch (error) {
      refused = error;
    }
    assert(refused instanceof ValidationError, JSON.stringify(input));
    assertEquals(refused.issues.map((i) => i.path), ["extra"]);
  }
  const a = listQuery({}, "GET /workspaces");
  a.page = 5;
  assertEquals(listQuery({}, "GET /workspaces"), {
    page: 1,
    items_per_page: 10,
  });
});
