import { assertEquals, assertStringIncludes } from "@std/assert";
import {
  JSR_PROBE_URL,
  offlineImportMap,
  probeJsr,
} from "../scripts/lib/import_map.ts";
import { parseArgs } from "../scripts/test.ts";

Deno.test("offlineImportMap copies every import and redirects @std/assert", () => {
  const config = {
    imports: {
      zod: "npm:zod@^4.1.0",
      "@std/assert": "jsr:@std/assert@^1",
      "@deno/dnt": "jsr:@deno/dnt@^0.42",
      "~/": "./src/",
    },
    scopes: { "./vendor/": { zod: "npm:zod@3" } },
  };
  const map = offlineImportMap(
    config,
    new URL("file:///repo/deno.json"),
    new URL("file:///repo/tests/_std_assert/mod.ts"),
  );
  assertEquals(map.imports, {
    zod: "npm:zod@^4.1.0",
    "@std/assert": "file:///repo/tests/_std_assert/mod.ts",
    "@std/assert/": "file:///repo/tests/_std_assert/",
    "@deno/dnt": "jsr:@deno/dnt@^0.42",
    "~/": "file:///repo/src/",
  });
  assertEquals(map.scopes, { "file:///repo/vendor/": { zod: "npm:zod@3" } });
});

Deno.test("the repository's deno.json yields a map that keeps its imports", async () => {
  const configUrl = new URL("../deno.json", import.meta.url);
  const config = JSON.parse(await Deno.readTextFile(configUrl));
  const map = offlineImportMap(
    config,
    configUrl,
    new URL("./_std_assert/mod.ts", import.meta.url),
  );
  for (const key of Object.keys(config.imports)) {
    assertEquals(key in map.imports, true, `missing ${key}`);
  }
  assertStringIncludes(map.imports["@std/assert"], "/tests/_std_assert/mod.ts");
});

Deno.test("probeJsr: reachable only on a 2xx answer", async () => {
  let asked = "";
  const ok = (input: RequestInfo | URL) => {
    asked = String(input);
    return Promise.resolve(new Response("{}", { status: 200 }));
  };
  assertEquals(await probeJsr(1000, ok as typeof fetch), true);
  assertEquals(asked, JSR_PROBE_URL);
  const notFound = () => Promise.resolve(new Response("", { status: 503 }));
  assertEquals(await probeJsr(1000, notFound as typeof fetch), false);
  const down = () => Promise.reject(new TypeError("dns error"));
  assertEquals(await probeJsr(1000, down as typeof fetch), false);
});

Deno.test("probeJsr gives up when JSR does not answer in time", async () => {
  // A fetch that only ends when its signal aborts, as a hung connection would.
  const hang = (_: unknown, init?: RequestInit) =>
    new Promise<Response>((_, reject) => {
      init?.signal?.addEventListener(
        "abort",
        () => reject(init.signal?.reason),
      );
    });
  assertEquals(await probeJsr(20, hang as typeof fetch), false);
});

Deno.test("parseArgs: runner flags vs pass-through arguments", () => {
  const a = parseArgs([
    "--only=deno",
    "--skip",
    "node,notebooks",
    "--list",
    "x/",
  ]);
  assertEquals(a.only, new Set(["deno"]));
  assertEquals(a.skip, new Set(["node", "notebooks"]));
  assertEquals(a.list, true);
  assertEquals(a.passThrough, ["x/"]);
  assertEquals(parseArgs([], " node , ").skip, new Set(["node"]));
});
