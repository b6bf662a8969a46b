/**
 * Fault injection of the local platform beyond 500/429/202: answers lost
 * after the work is committed (a 500 or a dropped connection) and slow calls,
 * all seeded.
 */
import { assert, assertEquals, assertMatch, assertRejects } from "@std/assert";
import { FaultInjector, parseFaults } from "../src/local/http/faults.ts";
import { raw, setup, tokenFor } from "./_helpers/local_setup.ts";

Deno.test("local faults: lost, slow and slow-ms parse; fractions over 1 in total are refused", () => {
  const f = parseFaults("lost=0.05,slow=0.02,slow-ms=250,seed=3");
  assertEquals(f, { answerLost: 0.05, slow: 0.02, slowMs: 250, seed: 3 });
  let message = "";
  try {
    parseFaults("500=0.6,lost=0.5");
  } catch (error) {
    message = (error as Error).message;
  }
  assertMatch(message, /add up to 1\.1/);
});

Deno.test("local faults: the draws of lost and slow are seeded and cover both kinds of lost answer", () => {
  const options = { answerLost: 0.3, slow: 0.2, error500: 0.1, seed: 11 };
  const a = new FaultInjector(options);
  const b = new FaultInjector(options);
  const draws = Array.from({ length: 400 }, () => a.next());
  assertEquals(draws, Array.from({ length: 400 }, () => b.next()));
  const seen = new Set<string>(draws);
  for (const kind of ["lost-500", "lost-drop", "slow", "500", "none"]) {
    assert(seen.has(kind), `no ${kind} in 400 draws`);
  }
});

Deno.test("local faults: an answer lost as a 500 after the create committed: the resource exists", async () => {
  // Half the answers are lost (the token call's too): retry it until one arrives.
  const { platform } = await setup({
    faults: { answerLost: 0.5, seed: 5 },
  });
  try {
    let token = "";
    for (let i = 0; i < 20 && !token; i++) {
      token = await tokenFor(platform).catch(() => "");
    }
    assert(token, "no token in 20 tries at 50% lost answers");
    const lost: string[] = [];
    const answered: string[] = [];
    for (let i = 0; i < 20; i++) {
      const name = `ws${i}`;
      const res = await platform.fetch(
        new Request(`${platform.baseUrl}/workspaces`, {
          method: "POST",
          headers: {
            Authorization: `Bearer ${token}`,
            "Content-Type": "application/json",
          },
          body: JSON.stringify({ name }),
        }),
      );
      const text = await res.text().catch(() => undefined);
      if (res.status === 201 && text !== undefined) answered.push(name);
      else {
        if (text !== undefined) {
          assertEquals(res.status, 500);
          assertEquals(JSON.parse(text).error_code, "INTERNAL_ERROR");
        }
        lost.push(name);
      }
    }
    assert(lost.length > 0 && answered.length > 0);
    // Every create committed, whether its answer arrived or not.
    const names = new Set<string>();
    for (let i = 0; i < 50 && names.size < 20; i++) {
      const list = await raw(
        platform,
        "GET",
        "/workspaces?items_per_page=100",
        {
          token,
        },
      ).catch(() => undefined);
      if (list?.status === 200) {
        for (const w of list.body.data as { name: string }[]) names.add(w.name);
      }
    }
    assertEquals([...names].sort(), [...lost, ...answered].sort());
  } finally {
    await platform.close();
  }
});

Deno.test("local faults: over HTTP a dropped answer is a connection error after the work is done", async () => {
  const { platform } = await setup({ faults: { answerLost: 1, seed: 2 } });
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    platform.app.fetch,
  );
  try {
    const draws = new FaultInjector({ answerLost: 1, seed: 2 });
    // Find the first call the seeded injector drops (not a lost 500).
    let calls = 0;
    while (draws.next() !== "lost-drop" && calls < 1000) calls++;
    const url = `http://127.0.0.1:${server.addr.port}/oauth/token`;
    const form = () =>
      new URLSearchParams({
        grant_type: "client_credentials",
        client_id: platform.credentials.clientId,
        client_secret: platform.credentials.clientSecret,
      });
    for (let i = 0; i < calls; i++) {
      const res = await fetch(url, { method: "POST", body: form() });
      assertEquals(res.status, 500);
      await res.body?.cancel();
    }
    await assertRejects(async () => {
      const res = await fetch(url, { method: "POST", body: form() });
      await res.text();
    });
  } finally {
    await server.shutdown();
    await platform.close();
  }
});

Deno.test("local faults: a slow call still answers correctly", async () => {
  const { platform } = await setup({ faults: { slow: 1, slowMs: 30 } });
  try {
    const token = await tokenFor(platform);
    const res = await raw(platform, "POST", "/workspaces", {
      token,
      body: { name: "w" },
    });
    assertEquals(res.status, 201);
  } finally {
    await platform.close();
  }
});
