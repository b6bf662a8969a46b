/**
 * Every error status of docs/api.md#errors (and the 400/422/429 docs/contract.md#errors and
 * the transport add), through a real scripted server, mapped to its class
 * with status, code, request id, body and a message that says what to do.
 */
import {
  assert,
  assertEquals,
  assertInstanceOf,
  assertRejects,
  assertStringIncludes,
} from "@std/assert";
import { Client } from "../src/client.ts";
import {
  AuthenticationError,
  ConflictError,
  InvalidResponseError,
  MLPlatformError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ServerError,
  ValidationError,
} from "../src/http/errors.ts";
import { requestIdOf } from "../src/http/error_mapping.ts";
import { json, startScriptedServer } from "./_helpers/scripted_server.ts";

/** The request {@link failWith}'s last call sent. */
let lastSent: { method: string; path: string } = { method: "", path: "" };

/**
 * The error a call gets when the server answers `status` and `body` (twice:
 * a 401 is retried once after renewing the token); the request it sent is
 * in `lastSent`. The call defaults to a DELETE of an onboarding
 * configuration (checked).
 */
async function failWith(
  status: number,
  body: unknown,
  headers = {},
  call?: (client: Client) => Promise<unknown>,
) {
  await using server = startScriptedServer({
    steps: [
      { respond: () => json(body, status, headers) },
      { respond: () => json(body, status, headers) },
    ],
  });
  const client = new Client({
    baseUrl: server.url,
    clientId: "id",
    clientSecret: "s3cret",
    maxRetries: 0,
  });
  const error = await assertRejects(() =>
    call ? call(client) : client.onboardingConfigurations.delete("oc_1")
  );
  assertInstanceOf(error, MLPlatformError);
  lastSent = server.api[0];
  if (!call) {
    assertEquals(lastSent.method, "DELETE");
    assertEquals(
      lastSent.path,
      "/data-processing-onboarding-configurations/oc_1",
    );
  }
  return error;
}

Deno.test("401: AuthenticationError after one renewal", async () => {
  const error = await failWith(401, { message: "Unauthorized" });
  assertInstanceOf(error, AuthenticationError);
  assertEquals(error.status, 401);
  assertStringIncludes(error.message, "Unauthorized");
  assertStringIncludes(error.message, "MLP_CLIENT_ID");
});

Deno.test("403: PermissionDeniedError with error_code and request id", async () => {
  const error = await failWith(
    403,
    { message: "Forbidden", error_code: "FORBIDDEN" },
    { "x-request-id": "req-403" },
  );
  assertInstanceOf(error, PermissionDeniedError);
  assertEquals(error.errorCode, "FORBIDDEN");
  assertEquals(error.requestId, "req-403");
  assertStringIncludes(error.message, "req-403");
  assertStringIncludes(error.message, "administrator");
});

Deno.test("404: NotFoundError", async () => {
  const error = await failWith(
    404,
    { message: "No such configuration", error_code: "NOT_FOUND" },
    { "x-amzn-RequestId": "amzn-1" },
  );
  assertInstanceOf(error, NotFoundError);
  assertEquals(error.status, 404);
  assertEquals(error.requestId, "amzn-1");
  assertEquals(error.body, {
    message: "No such configuration",
    error_code: "NOT_FOUND",
  });
});

Deno.test("409 conflict body on a delete: ConflictError without dependants, a state hint (no name is taken by a delete)", async () => {
  const error = await failWith(409, {
    message: "The job is running",
    error_code: "CONFLICT",
  });
  assertInstanceOf(error, ConflictError);
  assertEquals(error.dependants, []);
  assertStringIncludes(error.message, "not in a state that allows this");
  assert(!error.message.includes("choose another name"), error.message);
});

Deno.test("409 conflict body on a create: ConflictError, the hint says the name is taken", async () => {
  const error = await failWith(
    409,
    { message: "Duplicate name", error_code: "CONFLICT" },
    {},
    (client) => client.workspaces.create({ name: "w" }),
  );
  assertInstanceOf(error, ConflictError);
  assertEquals(lastSent.method, "POST");
  assertStringIncludes(error.message, "choose another name");
});

Deno.test("409 integrity body: ConflictError listing the dependants", async () => {
  const dependants = [
    {
      id: "job_1",
      name: "onboard",
      dependant_type: "DATA_PROCESSING_ONBOARDING_JOB",
    },
    { id: "x_2", dependant_type: "SOMETHING_NEW" },
  ];
  const error = await failWith(409, {
    message: "In use",
    error_code: "INTEGRITY_ERROR",
    dependants,
  });
  assertInstanceOf(error, ConflictError);
  assertEquals(error.dependants, dependants);
  assertStringIncludes(error.message, "DATA_PROCESSING_ONBOARDING_JOB job_1");
});

Deno.test("500: ServerError with error_reference", async () => {
  const error = await failWith(500, {
    message: "Internal error",
    error_reference: "ref-123",
  });
  assertInstanceOf(error, ServerError);
  assertEquals(error.errorReference, "ref-123");
  assertStringIncludes(error.message, "ref-123");
});

Deno.test("400 and 422: ValidationError with the field issues", async () => {
  for (const status of [400, 422]) {
    const error = await failWith(status, {
      message: "Invalid",
      error_code: "VALIDATION_ERROR",
      errors: [{ path: "name", message: "must not be empty" }],
    });
    assertInstanceOf(error, ValidationError);
    assertEquals(error.status, status);
    assertEquals(error.issues, [{
      path: "name",
      message: "must not be empty",
    }]);
    assertStringIncludes(error.message, "name: must not be empty");
  }
});

Deno.test("429: RateLimitError carries Retry-After", async () => {
  const error = await failWith(429, { message: "Too many" }, {
    "retry-after": "7",
  });
  assertInstanceOf(error, RateLimitError);
  assertEquals(error.retryAfter, 7000);
});

Deno.test("an error body that is not JSON still gives a useful error", async () => {
  const error = await failWith(502, "<html>Bad gateway</html>");
  assertInstanceOf(error, ServerError);
  assertEquals(error.status, 502);
});

Deno.test("a success body of the wrong shape is an InvalidResponseError", async () => {
  await using server = startScriptedServer({
    steps: [{ respond: () => new Response("<html>login</html>") }],
  });
  const client = new Client({
    baseUrl: server.url,
    clientId: "id",
    clientSecret: "s3cret",
  });
  const error = await assertRejects(
    () => client.workspaces.get("w"),
    InvalidResponseError,
  );
  assertStringIncludes(error.message, "base URL");
});

Deno.test("request id: the known header names, in order", () => {
  assertEquals(requestIdOf(new Headers({ "request-id": "a" })), "a");
  assertEquals(
    requestIdOf(new Headers({ "x-request-id": "b", "request-id": "a" })),
    "b",
  );
  assertEquals(requestIdOf(new Headers()), undefined);
});

Deno.test("a body refused client-side names the field and sends nothing", async () => {
  let sent = 0;
  const client = new Client({
    baseUrl: "https://mlp.invalid",
    clientId: "id",
    clientSecret: "s3cret",
    fetch: () => {
      sent++;
      return Promise.resolve(new Response(null, { status: 500 }));
    },
  });
  const error = await assertRejects(
    () =>
      client.dataSchemas.create({
        name: "s",
        fields: [{
          name: "x",
          data_type: { data_type: "STRING", format: null },
          designation: "FEATURE",
          semantic_type: "CONTINUOUS",
        }],
      }),
    ValidationError,
  );
  assertEquals(error.status, undefined);
  assertEquals(error.issues.map((i) => i.path), ["fields.0.semantic_type"]);
  await assertRejects(
    () => client.workspaces.list({ items_per_page: 1000 }),
    ValidationError,
  );
  assertEquals(sent, 0);
  assert(error.message.includes("nothing was sent"));
});
