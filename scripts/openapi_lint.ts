/**
 * `deno run -A scripts/openapi_lint.ts`: lints the OpenAPI document the local
 * platform serves at `/openapi.json` with two tools other ecosystems use,
 * fetched from npm by `npx` (nothing beyond the npm registry):
 *
 * - Redocly CLI, its recommended rules: **no warning** passes;
 * - Spectral, the `spectral:oas` ruleset: **no error** passes (warnings are
 *   printed);
 * - openapi-typescript must generate TypeScript types from it, and those
 *   types must type-check (`deno check`).
 *
 * The document is fetched from an in-process platform (the bytes a client
 * gets) and written to a temporary folder with the Spectral ruleset. Prints
 * each tool's report and a summary line; exits non-zero when either fails.
 *
 * @module
 */
import { createLocalPlatform } from "../src/local/local_platform.ts";

/** Pinned so a new rule upstream does not turn CI red overnight. */
export const REDOCLY = "@redocly/cli@2.77.0";
/** Pinned Spectral CLI. */
export const SPECTRAL = "@stoplight/spectral-cli@6.16.3";

/** Pinned openapi-typescript. */
export const OPENAPI_TYPESCRIPT = "openapi-typescript@7.13.0";

/** Totals of a Redocly `--format=json` report. */
export interface RedoclyTotals {
  /** Errors. */
  errors: number;
  /** Warnings. */
  warnings: number;
}

/**
 * The totals of Redocly's JSON report (`lint --format=json`), which may follow
 * other output on stdout.
 *
 * @example
 * ```ts
 * import { redoclyTotals } from "./openapi_lint.ts";
 * const t = redoclyTotals('note\n{"totals":{"errors":0,"warnings":2,"ignored":0},"problems":[]}');
 * if (t.errors !== 0 || t.warnings !== 2) throw new Error();
 * ```
 */
export function redoclyTotals(stdout: string): RedoclyTotals {
  const start = stdout.indexOf("{");
  if (start < 0) throw new Error(`Redocly printed no JSON report:\n${stdout}`);
  const report = JSON.parse(stdout.slice(start)) as {
    totals: RedoclyTotals;
    problems?: { ruleId: string; message: string; severity: string }[];
  };
  return report.totals;
}

/** The served document, as a client gets it. */
async function servedDocument(): Promise<string> {
  const platform = await createLocalPlatform({ logger: () => {} });
  try {
    const res = await platform.fetch(
      new Request(new URL("/openapi.json", platform.baseUrl)),
    );
    if (res.status !== 200) {
      throw new Error(`GET /openapi.json answered ${res.status}`);
    }
    return JSON.stringify(await res.json(), null, 2);
  } finally {
    await platform.close();
  }
}

async function npx(
  args: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = await new Deno.Command("npx", {
    args: ["-y", ...args],
    stdout: "piped",
    stderr: "piped",
    env: { NO_UPDATE_NOTIFIER: "1", REDOCLY_TELEMETRY: "off" },
  }).output();
  const text = new TextDecoder();
  return {
    code: out.code,
    stdout: text.decode(out.stdout),
    stderr: text.decode(out.stderr),
  };
}

/** Tool output without npm's and Node's notices (boxed banners, npm warn). */
function quiet(text: string): string {
  return text.split("\n").filter((line) => !/^npm warn |[╔║╚]/.test(line)).join(
    "\n",
  ).replace(/\n{3,}/g, "\n\n").trim();
}

async function main(): Promise<number> {
  const dir = await Deno.makeTempDir({ prefix: "openapi-lint-" });
  try {
    const file = `${dir}/openapi.json`;
    await Deno.writeTextFile(file, await servedDocument());
    const ruleset = `${dir}/.spectral.yaml`;
    await Deno.writeTextFile(ruleset, 'extends: ["spectral:oas"]\n');

    // Stylish output for people, then the JSON report for the count.
    console.log(`::: ${REDOCLY} lint (recommended rules)`);
    const shown = await npx([REDOCLY, "lint", file]);
    console.log(quiet(shown.stdout + shown.stderr));
    const redocly = await npx([REDOCLY, "lint", file, "--format=json"]);
    const totals = redoclyTotals(redocly.stdout);

    console.log(`\n::: ${SPECTRAL} lint -r spectral:oas`);
    const spectral = await npx([
      SPECTRAL,
      "lint",
      "-r",
      ruleset,
      "--fail-severity=error",
      file,
    ]);
    console.log(
      (spectral.stdout + spectral.stderr).replace(
        /^npm warn .*\n/gm,
        "",
      ).trim(),
    );

    console.log(`\n::: ${OPENAPI_TYPESCRIPT} (then deno check of the types)`);
    const types = `${dir}/api.ts`;
    const generated = await npx([OPENAPI_TYPESCRIPT, file, "-o", types]);
    console.log(quiet(generated.stdout + generated.stderr));
    const checked = generated.code === 0
      ? await new Deno.Command(Deno.execPath(), {
        args: ["check", "--no-config", types],
        stdout: "inherit",
        stderr: "inherit",
      }).output()
      : { code: 1 };

    const redoclyOk = totals.errors === 0 && totals.warnings === 0;
    const spectralOk = spectral.code === 0;
    const typesOk = generated.code === 0 && checked.code === 0;
    console.log(
      `\nredocly: ${totals.errors} errors, ${totals.warnings} warnings (${
        redoclyOk ? "ok" : "FAILED: none allowed"
      }); spectral:oas: ${
        spectralOk ? "no errors (ok)" : `FAILED (exit ${spectral.code})`
      }; openapi-typescript: ${
        typesOk ? "types generated and checked (ok)" : "FAILED"
      }`,
    );
    return redoclyOk && spectralOk && typesOk ? 0 : 1;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main) {
  Deno.exit(await main());
}
