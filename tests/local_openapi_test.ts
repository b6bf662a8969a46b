/**
 * The local platform's OpenAPI document: OpenAPI 3.1 structure, every $ref
 * resolves, every path of docs/api.md#endpoints is covered, and /docs renders
 * every operation server-side.
 */
import { assert, assertEquals, assertStringIncludes } from "@std/assert";
import { routes } from "../src/schemas/mod.ts";
import { raw, setup } from "./_helpers/local_setup.ts";

const SPEC_ENDPOINTS = [
  ["post", "/oauth/token"],
  ["get", "/accounts"],
  ["get", "/accounts/{id}"],
  ["post", "/data-schemas"],
  ["post", "/data-processing-ingestion-configurations"],
  ["post", "/data-processing-ingestion-jobs"],
  ["post", "/data-processing-onboarding-configurations"],
  ["post", "/data-processing-onboarding-jobs"],
  ["delete", "/data-processing-onboarding-configurations/{id}"],
  ["post", "/training-jobs"],
  ["post", "/deployment-configurations"],
  ["post", "/deployed-models"],
  ["post", "/deployed-models/{id}/views"],
];

Deno.test("local openapi: a valid OpenAPI 3.1 document covering docs/api.md#endpoints and the route table", async () => {
  const { platform } = await setup();
  try {
    const { status, body: doc } = await raw(platform, "GET", "/openapi.json");
    assertEquals(status, 200);
    assertEquals(doc.openapi, "3.1.0");
    const info = doc.info as { title: string; version: string };
    assert(info.title && info.version === "1.0.0");
    const paths = doc.paths as Record<
      string,
      Record<string, Record<string, unknown>>
    >;
    for (const [method, path] of SPEC_ENDPOINTS) {
      assert(paths[path]?.[method], `${method} ${path} missing`);
    }
    const table = Object.values(routes).flatMap((ops) => Object.values(ops));
    for (const r of table) {
      assert(paths[r.path]?.[r.method.toLowerCase()], `${r.method} ${r.path}`);
    }
    const ids = new Set<string>();
    const methods = new Set([
      "get",
      "put",
      "post",
      "delete",
      "options",
      "head",
      "patch",
      "trace",
    ]);
    for (const [path, item] of Object.entries(paths)) {
      assert(path.startsWith("/"));
      for (const [method, op] of Object.entries(item)) {
        assert(methods.has(method), method);
        assert(
          typeof op.operationId === "string" && !ids.has(op.operationId),
          String(op.operationId),
        );
        ids.add(op.operationId as string);
        const responses = op.responses as Record<
          string,
          { description?: string }
        >;
        for (const [code, res] of Object.entries(responses)) {
          assert(/^[1-5]\d\d$/.test(code), code);
          assert(
            typeof res.description === "string",
            `${method} ${path} ${code} needs a description`,
          );
        }
        // Every path parameter of the template is declared.
        const declared = ((op.parameters ?? []) as {
          name: string;
          in: string;
          required?: boolean;
        }[])
          .filter((p) => p.in === "path");
        for (const [, name] of path.matchAll(/\{(\w+)\}/g)) {
          assert(
            declared.some((p) => p.name === name && p.required === true),
            `${path}: ${name}`,
          );
        }
      }
    }
    // Every $ref resolves inside the document.
    const text = JSON.stringify(doc);
    const refs = [...text.matchAll(/"\$ref":"([^"]+)"/g)].map((m) => m[1]);
    assert(refs.length > 20);
    for (const ref of refs) {
      assert(ref.startsWith("#/components/schemas/"), ref);
      const name = ref.slice("#/components/schemas/".length);
      assert(
        (doc.components as { schemas: Record<string, unknown> }).schemas[name],
        `dangling ${ref}`,
      );
    }
    const security = (doc.components as {
      securitySchemes: Record<
        string,
        { type: string; flows: { clientCredentials: { tokenUrl: string } } }
      >;
    }).securitySchemes;
    assertEquals(security.oauth2.type, "oauth2");
    assertEquals(
      new URL(security.oauth2.flows.clientCredentials.tokenUrl).pathname,
      "/oauth/token",
    );
    assertEquals(paths["/oauth/token"].post.security, []);
    // The token call takes a form (the specification's) or JSON, and lists
    // the 415 it answers for anything else, as every operation with a body.
    const token = paths["/oauth/token"].post as {
      requestBody: { content: Record<string, unknown> };
      responses: Record<string, unknown>;
    };
    assertEquals(Object.keys(token.requestBody.content).sort(), [
      "application/json",
      "application/x-www-form-urlencoded",
    ]);
    for (const status of ["400", "401", "413", "415", "429", "500"]) {
      assert(status in token.responses, `POST /oauth/token lists no ${status}`);
    }
    assertEquals(paths["/accounts"].get.security, [{ oauth2: [] }]);

    // Every operation is described and tagged with a declared tag; the
    // document has a licence.
    const declared = new Set(
      (doc.tags as { name: string; description: string }[]).map((t) => t.name),
    );
    for (const [path, item] of Object.entries(paths)) {
      for (const [method, op] of Object.entries(item)) {
        assert(
          typeof op.description === "string" &&
            (op.description as string).length > 20,
          `${method} ${path}: no description`,
        );
        for (const tag of op.tags as string[]) {
          assert(declared.has(tag), `${method} ${path}: tag ${tag} undeclared`);
        }
      }
    }
    assertEquals(
      (doc.info as { license: { name: string } }).license.name,
      "MIT",
    );

    // Request bodies are written inline with no field that has a default
    // among the required ones, so generated request types make it optional.
    const withDefaultRequired: string[] = [];
    const walk = (schema: unknown, where: string): void => {
      if (!schema || typeof schema !== "object") return;
      const s = schema as Record<string, unknown>;
      assert(!("$ref" in s), `${where}: request schemas are inline`);
      const props = (s.properties ?? {}) as Record<
        string,
        { default?: unknown }
      >;
      for (const name of (s.required ?? []) as string[]) {
        if (props[name] && "default" in props[name]) {
          withDefaultRequired.push(`${where}.${name}`);
        }
      }
      for (const [k, v] of Object.entries(s)) {
        if (k !== "default" && k !== "examples") walk(v, `${where}/${k}`);
      }
    };
    for (const [path, item] of Object.entries(paths)) {
      for (const [method, op] of Object.entries(item)) {
        const body = op.requestBody as
          | { content: Record<string, { schema: unknown }> }
          | undefined;
        for (const media of Object.values(body?.content ?? {})) {
          walk(media.schema, `${method} ${path}`);
        }
      }
    }
    assertEquals(withDefaultRequired, []);

    const docs = await platform.fetch(new Request(`${platform.baseUrl}/docs`));
    assertEquals(docs.status, 200);
    const html = await docs.text();
    for (const [, path] of SPEC_ENDPOINTS) {
      assertStringIncludes(html, `<code>${path}</code>`);
    }
  } finally {
    await platform.close();
  }
});
