/**
 * A script run by `deno run --no-prompt` with no permission flag, as a user
 * who forgot them runs it, with the project's deno.json for its imports:
 * what it printed (stdout, trimmed) and stderr, for a message.
 */
export async function runUnprivileged(
  source: string,
): Promise<{ stdout: string; stderr: string }> {
  const file = await Deno.makeTempFile({ suffix: ".ts" });
  try {
    await Deno.writeTextFile(file, source);
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--no-prompt",
        `--config=${new URL("../../deno.json", import.meta.url).pathname}`,
        file,
      ],
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    }).output();
    const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes).trim();
    return { stdout: text(out.stdout), stderr: text(out.stderr) };
  } finally {
    await Deno.remove(file);
  }
}

/** The `file:` URL of a project module, for a script's import. */
export const projectModule = (path: string): string =>
  JSON.stringify(new URL(`../../${path}`, import.meta.url).href);
