/**
 * The API reference page at `/docs`: plain HTML rendered on the server from
 * the OpenAPI document, so it works offline with no script or CDN.
 *
 * @example
 * ```ts
 * import { openApiDocument } from "./openapi.ts";
 * import { renderDocs } from "./docs.ts";
 * const html = renderDocs(openApiDocument());
 * if (!html.includes("/oauth/token")) throw new Error();
 * ```
 *
 * @module
 */
import { escapeHtml as escape } from "../../html.ts";
import type { Json, OpenApiDocument } from "./openapi.ts";

/** The JSON object under `key`, or undefined. */
function child(value: Json | undefined, key: string): Json | undefined {
  const found = value?.[key];
  return isObject(found) ? found : undefined;
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The name a `{ $ref }` points at, or undefined. */
function refName(schema: Json | undefined): string | undefined {
  const ref = schema?.$ref;
  return typeof ref === "string" ? ref.split("/").at(-1) : undefined;
}

/** Names the schema a `{ $ref }` (or a list page of one, or anything else) points at. */
function schemaName(schema: Json | undefined): string {
  const own = refName(schema) ?? schema?.title;
  if (typeof own === "string") return own;
  const items = refName(
    child(child(child(schema, "properties"), "data"), "items"),
  );
  if (items) return `list of ${items}`;
  return schema ? "object" : "";
}

/**
 * Renders the reference page: every operation with its method, path,
 * summary, parameters, request and success schemas, then every schema.
 */
export function renderDocs(doc: OpenApiDocument): string {
  const rows: string[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const params = (op.parameters ?? [])
        .map((p) =>
          `<code>${escape(p.name)}</code> (${p.in}${
            p.required ? ", required" : ""
          })`
        ).join(", ");
      const content = op.requestBody?.content;
      const body = content
        ? Object.entries(content).map(([type, c]) =>
          `${escape(schemaName(c.schema))} <small>${type}</small>`
        ).join("")
        : "";
      const [status, success] = Object.entries(op.responses)[0];
      const out = success.content
        ? schemaName(success.content["application/json"].schema)
        : "no body";
      const auth = op.security.length ? "bearer" : "public";
      rows.push(
        `<tr id="${
          escape(op.operationId)
        }"><td><b>${method.toUpperCase()}</b></td><td><code>${
          escape(path)
        }</code></td><td>${
          escape(op.summary)
        }</td><td>${params}</td><td>${body}</td><td>${status}: ${
          escape(out)
        }</td><td>${auth}</td></tr>`,
      );
    }
  }
  const schemas = Object.entries(doc.components.schemas).map(([name, schema]) =>
    `<details id="schema-${escape(name)}"><summary><code>${
      escape(name)
    }</code></summary><pre>${
      escape(JSON.stringify(schema, null, 2))
    }</pre></details>`
  ).join("\n");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${
    escape(doc.info.title)
  }</title>
<style>body{font:14px system-ui,sans-serif;margin:2rem;max-width:80rem}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3rem .5rem;text-align:left;vertical-align:top}pre{background:#f6f6f6;padding:.5rem}</style>
</head><body>
<h1>${escape(doc.info.title)}</h1>
<p>${escape(doc.info.description)} Version ${
    escape(doc.info.version)
  }. Machine-readable: <a href="/openapi.json">/openapi.json</a> (OpenAPI ${
    escape(doc.openapi)
  }).</p>
<p>Errors: 400 names each invalid field (<code>errors</code>), 401 without a valid token, 403 when the credentials may not see an account, 404 for unknown ids (also another account's resources), 409 for duplicates, wrong states and deletes blocked by <code>dependants</code>, 429 with <code>Retry-After</code>, 500 with an <code>error_reference</code>. Any call may answer 202 with a <code>Location</code> to poll.</p>
<h2>Operations</h2>
<table><thead><tr><th>Method</th><th>Path</th><th>Summary</th><th>Parameters</th><th>Request body</th><th>Success</th><th>Auth</th></tr></thead>
<tbody>
${rows.join("\n")}
</tbody></table>
<h2>Schemas</h2>
${schemas}
</body></html>`;
}
