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
 * (JSON operator setup), `--help` (the help, on stdout). `MLP_CLIENT_ID` /
 * `MLP_CLIENT_SECRET` set the default account's credentials; otherwise
 * random ones are written to a private file whose path is printed (secrets
 * never go to the console). SIGINT and SIGTERM stop it (requests in flight
 * get up to a second; running jobs end `FAILED`).
 *
 * @module
 */
import {
  HelpRequested,
  type Listen,
  startLocalServer,
} from "./http/cli_args.ts";
import { messageOf } from "./error_message.ts";

export { type CliOptions, parseCli } from "./http/cli_args.ts";

/**
 * `Deno.serve` as a {@linkcode Listen}. Its `close()` ends the open
 * connections too, as node:http's does: `shutdown()` waited for every
 * request in flight, so one client holding a request open (a body sent
 * halfway) kept SIGINT and SIGTERM from ever stopping the server.
 * (startLocalServer's stop first lets requests in flight finish, briefly.)
 * And Deno.serve stops listening when accepting a connection fails (no
 * file descriptor left): the rejection of `finished` ended the process.
 * It listens again on the same port once it can.
 */
const denoListen: Listen = (handler, { port, host }) => {
  const closing = new AbortController();
  const serve = (at: number) =>
    Deno.serve(
      { port: at, hostname: host, signal: closing.signal, onListen: () => {} },
      handler,
    );
  let server = serve(port);
  const bound = server.addr.port;
  const relisten = (failed: Deno.HttpServer) =>
    failed.finished.catch(async (error) => {
      if (closing.signal.aborted) return;
      console.error(
        `warning: the server stopped accepting connections (${
          messageOf(error)
        }); it listens again on port ${bound} as soon as it can.`,
      );
      while (!closing.signal.aborted) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        try {
          server = serve(bound);
          relisten(server);
          return;
        } catch {
          // Still out of file descriptors (or the port was taken): retry.
        }
      }
    });
  relisten(server);
  return Promise.resolve({
    port: bound,
    close: async () => {
      closing.abort();
      await server.finished.catch(() => {});
    },
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
    if (error instanceof HelpRequested) {
      console.log(error.message);
      Deno.exit(0);
    }
    console.error(`error: ${messageOf(error)}`);
    Deno.exit(1);
  });
}
