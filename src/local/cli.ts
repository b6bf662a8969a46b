/**
 * `deno task local`: serves the local platform over HTTP with `Deno.serve`.
 * The flags, the start-up and the banner are cli_args.ts's, shared with the
 * npm package's `mlp-local` bin (node_cli.ts), which serves with `node:http`.
 *
 * ```sh
 * deno task local --port 8787 --bucket demo=datasets --data-dir .mlp
 * ```
 *
 * Flags: `--port` (default 8787), `--host` (default 127.0.0.1), `--bucket
 * name=folder` (repeatable), `--faults 500=0.1,429=0.05,202=0.1,latency=50,seed=1`,
 * `--token-ttl` seconds, `--data-dir` (persist in SQLite there), `--config`
 * (JSON operator setup). `MLP_CLIENT_ID` / `MLP_CLIENT_SECRET` set the
 * default account's credentials; otherwise random ones are written to a
 * private file whose path is printed (secrets never go to the console).
 *
 * @module
 */
import { type Listen, startLocalServer } from "./http/cli_args.ts";
import { messageOf } from "./error_message.ts";

export { type CliOptions, parseCli } from "./http/cli_args.ts";

/** `Deno.serve` as a {@linkcode Listen}. */
const denoListen: Listen = (handler, { port, host }) => {
  const server = Deno.serve(
    { port, hostname: host, onListen: () => {} },
    handler,
  );
  return Promise.resolve({
    port: server.addr.port,
    close: () => server.shutdown(),
  });
};

/** Serves the platform until the process is stopped. */
async function main(): Promise<void> {
  const server = await startLocalServer(Deno.args, {
    MLP_CLIENT_ID: Deno.env.get("MLP_CLIENT_ID"),
    MLP_CLIENT_SECRET: Deno.env.get("MLP_CLIENT_SECRET"),
  }, denoListen);
  const stop = async () => {
    await server.stop();
    Deno.exit(0);
  };
  Deno.addSignalListener("SIGINT", stop);
  if (Deno.build.os !== "windows") Deno.addSignalListener("SIGTERM", stop);
}

if (import.meta.main) {
  main().catch((error) => {
    console.error(`error: ${messageOf(error)}`);
    Deno.exit(1);
  });
}
