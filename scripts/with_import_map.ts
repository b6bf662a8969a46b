/**
 * Runs a `deno` subcommand (check, bench, ...) with the same import map choice
 * as the tests: deno.json as is when JSR answers, otherwise the offline map
 * that sends `@std/assert` to tests/_std_assert/. Exits with its exit code.
 *
 * ```sh
 * deno run -A scripts/with_import_map.ts check
 * deno run -A scripts/with_import_map.ts bench -A bench/
 * ```
 *
 * @module
 */

import { offlineImportMap, probeJsr } from "./lib/import_map.ts";

/**
 * Writes the offline import map for the repository at `root` to a temp file
 * when JSR is unreachable (or `TEST_OFFLINE=1`), and says which map is used.
 *
 * @param root The repository root (where deno.json is).
 * @param log Where to say which map was chosen.
 * @returns The temp file's path, or `undefined` when deno.json is used as is.
 *
 * @example
 * ```ts
 * import { prepareImportMap } from "./with_import_map.ts";
 *
 * const previous = Deno.env.get("TEST_OFFLINE");
 * Deno.env.set("TEST_OFFLINE", "1"); // skip the network probe
 * try {
 *   const path = await prepareImportMap(new URL("../", import.meta.url), () => {});
 *   const map = JSON.parse(await Deno.readTextFile(path!));
 *   if (!map.imports["@std/assert"].endsWith("/tests/_std_assert/mod.ts")) throw new Error();
 *   await Deno.remove(path!);
 * } finally {
 *   if (previous === undefined) Deno.env.delete("TEST_OFFLINE");
 *   else Deno.env.set("TEST_OFFLINE", previous);
 * }
 * ```
 */
export async function prepareImportMap(
  root: URL,
  log: (line: string) => void = console.error,
): Promise<string | undefined> {
  const forced = Deno.env.get("TEST_OFFLINE") === "1";
  if (!forced && await probeJsr(3000)) {
    log("import map: deno.json as is (JSR reachable)");
    return undefined;
  }
  const configUrl = new URL("deno.json", root);
  const config = JSON.parse(await Deno.readTextFile(configUrl));
  const map = offlineImportMap(
    config,
    configUrl,
    new URL("tests/_std_assert/mod.ts", root),
  );
  const path = await Deno.makeTempFile({
    prefix: "mlplatform_import_map_",
    suffix: ".json",
  });
  await Deno.writeTextFile(path, JSON.stringify(map, null, 2));
  log(
    `import map: offline fallback ${path} (${
      forced ? "TEST_OFFLINE=1" : "JSR unreachable"
    }): @std/assert -> tests/_std_assert/mod.ts, other imports from deno.json`,
  );
  return path;
}

async function main(): Promise<number> {
  const [subcommand, ...rest] = Deno.args;
  if (!subcommand) {
    console.error(
      "Usage: deno run -A scripts/with_import_map.ts <deno subcommand> [args...], e.g. check",
    );
    return 2;
  }
  const root = new URL("../", import.meta.url);
  const importMap = await prepareImportMap(root);
  try {
    const { code } = await new Deno.Command(Deno.execPath(), {
      args: [
        subcommand,
        ...(importMap ? [`--import-map=${importMap}`] : []),
        ...rest,
      ],
      cwd: root.pathname,
      stdin: "null",
    }).spawn().status;
    return code;
  } finally {
    if (importMap) await Deno.remove(importMap).catch(() => {});
  }
}

if (import.meta.main) {
  Deno.exit(await main());
}
