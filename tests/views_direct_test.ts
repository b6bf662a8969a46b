/**
 * A views call whose token was verified before is answered past the wrapped
 * handler (app.ts, `TokenService.known`): it must refuse exactly what the
 * full check refuses. A remembered token changed in any one character, an
 * expired one, a lower-case scheme and fault injection all take the full
 * check, and are answered as before.
 */
import { assertEquals, assertMatch } from "@std/assert";
import {
  deployPenguins,
  penguinQuery,
  raw,
  setup,
  tokenFor,
  untilRunning,
} from "./_helpers/local_setup.ts";

Deno.test("views direct: a remembered token is checked like a new one", async () => {
  let now = Date.now();
  const { platform, client } = await setup({
    clock: () => now,
    tokenTtlSeconds: 600,
  });
  try {
    const { dm } = await deployPenguins(client);
    await untilRunning(client, dm.id);
    const token = await tokenFor(platform);
    const path = `/deployed-models/${dm.id}/views`;
    const body = { query: penguinQuery(1) };
    const first = await raw(platform, "POST", path, { token, body });
    assertEquals(first.status, 200);
    const again = await raw(platform, "POST", path, { token, body });
    assertEquals(again.status, 200);
    assertEquals(again.body, first.body);
    // Every character of the remembered token changed in turn: refused.
    const alphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    for (let i = 0; i < token.length; i += 7) {
      const c = token[i];
      const other = c === "."
        ? "A"
        : alphabet[(alphabet.indexOf(c) + 1) % alphabet.length];
      const changed = token.slice(0, i) + other + token.slice(i + 1);
      const answer = await raw(platform, "POST", path, {
        token: changed,
        body,
      });
      assertEquals(answer.status, 401, `character ${i} changed`);
    }
    // The scheme's other spelling is read by the full check, and accepted.
    const lower = await raw(platform, "POST", path, {
      body,
      headers: { Authorization: `bearer ${token}` },
    });
    assertEquals(lower.status, 200);
    assertEquals(lower.body, first.body);
    // Expired (jose's rule: exp <= now), though remembered: refused.
    now += 600_000;
    const expired = await raw(platform, "POST", path, { token, body });
    assertEquals(expired.status, 401);
    assertMatch(String(expired.body.message), /expired/);
    assertMatch(String(expired.headers.get("X-Request-Id")), /^req_\w+$/);
  } finally {
    await platform.close();
  }
});
