/**
 * Runs a command with its output forwarded live and also captured, so a suite
 * can be watched as it runs and its counts parsed afterwards.
 *
 * @module
 */

/** What a finished command returned. */
export interface RunResult {
  /** The exit code (non-zero on failure or when killed by a signal). */
  code: number;
  /** stdout and stderr, interleaved in arrival order. */
  output: string;
}

/** Options of {@linkcode runTee}. */
export interface RunOptions {
  /** Working directory. */
  cwd?: string;
  /** Extra environment variables. */
  env?: Record<string, string>;
  /** When false, nothing is forwarded (the output is only captured). */
  forward?: boolean;
}

async function pump(
  stream: ReadableStream<Uint8Array>,
  sink: { write(p: Uint8Array): Promise<number> } | undefined,
  chunks: string[],
): Promise<void> {
  const decoder = new TextDecoder();
  for await (const chunk of stream) {
    chunks.push(decoder.decode(chunk, { stream: true }));
    if (sink) {
      // `write` may write only part of the chunk: loop until all is out.
      let written = 0;
      while (written < chunk.length) {
        written += await sink.write(chunk.subarray(written));
      }
    }
  }
  chunks.push(decoder.decode());
}

/**
 * Runs `cmd` with `args`, forwarding its stdout and stderr live to ours and
 * returning everything it printed. stdin is closed (CI has none).
 *
 * @param cmd The executable.
 * @param args Its arguments.
 * @param options Working directory, environment, forwarding.
 * @returns The exit code and the captured output.
 *
 * @example
 * ```ts
 * import { runTee } from "./run.ts";
 *
 * const result = await runTee(Deno.execPath(), ["eval", "console.log(6 * 7)"], {
 *   forward: false,
 * });
 * if (result.code !== 0 || result.output.trim() !== "42") throw new Error(result.output);
 * ```
 */
export async function runTee(
  cmd: string,
  args: string[],
  options: RunOptions = {},
): Promise<RunResult> {
  const child = new Deno.Command(cmd, {
    args,
    cwd: options.cwd,
    env: options.env,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const forward = options.forward ?? true;
  const chunks: string[] = [];
  const [status] = await Promise.all([
    child.status,
    pump(child.stdout, forward ? Deno.stdout : undefined, chunks),
    pump(child.stderr, forward ? Deno.stderr : undefined, chunks),
  ]);
  return { code: status.code, output: chunks.join("") };
}
