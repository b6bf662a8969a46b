/**
 * Defects an adversarial probe of the local platform's HTTP API found
 * (docs/contract.md): a data protection deleted while a model trained under
 * it was still training; one field protected by two protections of a new
 * schema, which the protections' own create refuses; page numbers written
 * as other numerals than decimal digits (`0x10`, `1e1`, ` 2`) read as pages;
 * and the results' page size documented as the lists' one.
 */
import { assert, assertEquals, assertMatch } from "@std/assert";
import { BatchResultsQuerySchema } from "../src/schemas/batch.ts";
import { ListQuerySchema } from "../src/schemas/common.ts";
import { DataSchemaCreateSchema } from "../src/schemas/data_schemas.ts";
import { openApiDocument } from "../src/local/http/openapi.ts";
import {
  ingestPenguins,
  onboardPenguins,
  PENGUIN_FIELDS,
  raw,
  setup,
  startPenguinTraining,
  tokenFor,
} from "./_helpers/local_setup.ts";

/** The dependants' `TYPE id` of a 409 integrity answer. */
function dependants(body: Record<string, unknown>): string[] {
  assertEquals(body.error_code, "INTEGRITY_ERROR", String(body.message));
  return (body.dependants as { id: string; dependant_type: string }[])
    .map((d) => `${d.dependant_type} ${d.id}`);
}

Deno.test("api probe: a protection (or one of its fields) a model is being trained under cannot be deleted while it trains: 409 listing the model", async () => {
  const { platform, client } = await setup();
  try {
    const token = await tokenFor(platform);
    const { schema, cpu, done } = await ingestPenguins(client);
    const both = await client.dataProtections.create(schema.id, {
      name: "both",
      fields: ["sex", "island"],
    });
    const { job: onboarded } = await onboardPenguins(
      client,
      cpu.id,
      done.datasource.id,
    );
    // Long enough that the deletes below come while it trains.
    const tj = await startPenguinTraining(client, onboarded.dataset.id, {
      max_rounds: 2000,
      estimators: 4,
    });
    const model = tj.model.id;
    assertEquals((await client.models.get(model)).status, "PENDING");
    const base = `/data-schemas/${schema.id}/data-protections`;
    const protection = await raw(platform, "DELETE", `${base}/${both.id}`, {
      token,
    });
    assertEquals(protection.status, 409, JSON.stringify(protection.body));
    assertEquals(dependants(protection.body), [`MODEL ${model}`]);
    const [sex] = both.protected_fields;
    const field = await raw(
      platform,
      "DELETE",
      `${base}/${both.id}/protected-fields/${sex.id}`,
      { token },
    );
    assertEquals(field.status, 409, JSON.stringify(field.body));
    assertEquals(dependants(field.body), [`MODEL ${model}`]);
    // A protection given after the training started is not what it trains
    // under: it goes.
    const later = await client.dataProtections.create(schema.id, {
      fields: ["body_mass_g"],
    });
    const gone = await raw(platform, "DELETE", `${base}/${later.id}`, {
      token,
    });
    assertEquals(gone.status, 204, JSON.stringify(gone.body));
    assertEquals((await client.models.get(model)).status, "PENDING");
    // A cancelled training made no model under them: they go.
    await client.trainingJobs.cancel(tj.id);
    assertEquals((await client.models.get(model)).status, "CANCELLED");
    const after = await raw(
      platform,
      "DELETE",
      `${base}/${both.id}/protected-fields/${sex.id}`,
      { token },
    );
    assertEquals(after.status, 204, JSON.stringify(after.body));
    assertEquals(
      (await client.dataProtections.get(schema.id, both.id)).protected_fields
        .map((f) => f.name),
      ["island"],
    );
  } finally {
    await platform.close();
  }
});

Deno.test("api probe: a new schema protecting one field twice is a 400 naming the second, and stores nothing", async () => {
  const { platform } = await setup();
  try {
    const token = await tokenFor(platform);
    const body = {
      name: "penguins",
      fields: PENGUIN_FIELDS,
      data_protections: [
        { name: "a", fields: ["sex"] },
        { name: "b", fields: ["island", " sex "] },
      ],
    };
    const res = await raw(platform, "POST", "/data-schemas", { token, body });
    assertEquals(res.status, 400, JSON.stringify(res.body));
    assertEquals(res.body.error_code, "VALIDATION_ERROR");
    assertEquals(res.body.errors?.map((e) => e.path), [
      "data_protections.1.fields.1",
    ]);
    assertMatch(res.body.errors![0].message, /already protected/);
    const list = await raw(platform, "GET", "/data-schemas", { token });
    assertEquals(list.body.data, []);
    // The client refuses it before sending, by the same schema.
    assertEquals(DataSchemaCreateSchema.safeParse(body).success, false);
    // One protection naming a field twice protects it once, as documented.
    const once = await raw(platform, "POST", "/data-schemas", {
      token,
      body: { ...body, data_protections: [{ fields: ["sex", "sex"] }] },
    });
    assertEquals(once.status, 201, JSON.stringify(once.body));
  } finally {
    await platform.close();
  }
});

Deno.test("api probe: page numbers and sizes are decimal digits; other numerals are a 400 naming the parameter", async () => {
  const { platform, client } = await setup();
  try {
    const token = await tokenFor(platform);
    for (let i = 0; i < 12; i++) {
      await client.workspaces.create({ name: `ws${i}` });
    }
    const page = async (query: string) =>
      await raw(platform, "GET", `/workspaces?${query}`, { token });
    for (
      const [query, name] of [
        ["page=0x2", "page"],
        ["page=1e1", "page"],
        ["page=%202", "page"],
        ["page=+2", "page"],
        ["page=2.0", "page"],
        ["page=0b10", "page"],
        ["items_per_page=0x5", "items_per_page"],
        ["items_per_page=5e0", "items_per_page"],
      ]
    ) {
      const res = await page(query);
      assertEquals(res.status, 400, `${query}: ${JSON.stringify(res.body)}`);
      assertEquals(res.body.errors?.map((e) => e.path), [name], query);
    }
    const second = await page("page=2&items_per_page=05");
    assertEquals(second.status, 200);
    assertEquals(second.body.pagination, {
      total_items: 12,
      items_per_page: 5,
      current_page: 2,
      total_pages: 3,
    });
    // Numbers (the client's) and the defaults are as before.
    assertEquals(ListQuerySchema.parse({ page: 3 }), {
      page: 3,
      items_per_page: 10,
    });
    assertEquals(ListQuerySchema.parse({}), { page: 1, items_per_page: 10 });
    assertEquals(BatchResultsQuerySchema.parse({ items_per_page: "10000" }), {
      page: 1,
      items_per_page: 10_000,
    });
    assertEquals(
      BatchResultsQuerySchema.safeParse({ page: "0x1" }).success,
      false,
    );
  } finally {
    await platform.close();
  }
});

Deno.test("api probe: the OpenAPI document gives each page size its own bounds (results: 1 to 10,000)", () => {
  const doc = openApiDocument("http://localhost") as {
    paths: Record<
      string,
      Record<string, { parameters?: { name: string; description?: string }[] }>
    >;
  };
  const describe = (path: string) =>
    doc.paths[path].get.parameters?.find((p) => p.name === "items_per_page")
      ?.description;
  assertEquals(describe("/workspaces"), "Items a page, 1 to 100");
  const results = describe("/views-batches/{id}/results");
  assert(results?.includes("10000"), results);
});
