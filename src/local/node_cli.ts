/**
 * `mlp-local`, the npm package's bin: serves the local platform over HTTP
 * from Node with the flags of `deno task local` (see cli_args.ts).
 *
 * ```sh
 * MLP_CLIENT_ID=demo MLP_CLIENT_SECRET=change-me npx mlp-local --port 8787 --bucket demo=./datasets
 * ```
 *
 * Running this module starts the server; it exports nothing. The npm build
 * gives the compiled file a `#!/usr/bin/env node` line.
 *
 * @module
 */
import process from "node:process";
import { HelpRequested, startLocalServer } from "./http/cli_args.ts";
import { serveNode } from "./http/node_serve.ts";
import { messageOf } from "./error_message.ts";

try {
  const server = await startLocalServer(
    process.argv.slice(2),
    {
      MLP_CLIENT_ID: process.env.MLP_CLIENT_ID,
      MLP_CLIENT_SECRET: process.env.MLP_CLIENT_SECRET,
    },
    serveNode,
    { program: "mlp-local" },
  );
  const stop = () => {
    server.stop().then(() => process.exit(0), (error) => {
      console.error(`error: ${messageOf(error)}`);
      process.exit(1);
    });
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
} catch (error) {
  if (error instanceof HelpRequested) {
    console.log(error.message);
    process.exit(0);
  }
  console.error(`error: ${messageOf(error)}`);
  process.exit(1);
}
