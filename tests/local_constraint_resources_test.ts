/**
 * Data protections (and their protected fields) and a training job's model
 * constraints and groups as sub-resources on the local platform
 * (docs/contract.md#model-constraints-and-protected-fields): each one's
 * create (a protection), list, get and delete; the 400s naming the field;
 * and the integrity 409s on both sides (what a model was trained under
 * cannot go while the model exists; a schema or a job cannot go before its
 * protections or constraints).
 */
import { assert, assertEquals, assertRejects } from "@std/assert";
import { ConflictError, ValidationError } from "../src/http/errors.ts";
import type { Client } from "../src/client.ts";
import {
  ended,
  ingestPenguins,
  onboardPenguins,
  setup,
  startPenguinTraining,
  until,
} from "./_helpers/local_setup.ts";

/** The dependants' `TYPE id` of a 409 integrity error. */
async function blockedBy(call: () => Promise<unknown>): Promise<string[]> {
  const e = await assertRejects(call, ConflictError);
  assertEquals(e.errorCode, "INTEGRITY_ERROR", e.message);
  return e.dependants.map((d) => `${d.dependant_type} ${d.id}`).sort();
}

/** Onboards the schema's datasource and trains a model with constraints. */
async function trainConstrained(
  client: Client,
  cpu: string,
  datasource: string,
) {
  const { job: onboarded } = await onboardPenguins(client, cpu, datasource);
  const tj = await startPenguinTraining(client, onboarded.dataset.id, {
    max_rounds: 20,
    estimators: 1,
  }, {
    model_constraints: [{ field: "island", constraint_type: "EXCLUDED" }],
    model_constraint_groups: [{
      name: "bill",
      fields: ["bill_length_mm", "bill_depth_mm"],
    }],
  });
  const trained = await until(() => client.trainingJobs.get(tj.id), ended);
  assertEquals(trained.status, "COMPLETED", trained.message ?? "");
  return trained;
}

Deno.test("data protections: create, list, get and delete, with their protected fields; 400s name the field; 409s", async () => {
  const { platform, client } = await setup();
  try {
    const { schema } = await ingestPenguins(client);
    const sex = await client.dataProtections.create(schema.id, {
      name: "sex",
      fields: ["sex"],
    });
    assert(sex.id.startsWith("dpr_"));
    assertEquals(sex.protected_fields.map((f) => f.name), ["sex"]);
    const two = await client.dataProtections.create(schema.id, {
      fields: ["island", "body_mass_g"],
    });
    assertEquals(
      (await client.dataProtections.list(schema.id)).data.map((p) => p.id),
      [sex.id, two.id],
    );
    assertEquals(
      (await client.dataProtections.get(schema.id, sex.id)).name,
      [
        "sex",
      ][0],
    );
    assertEquals(
      (await client.dataSchemas.get(schema.id)).data_protections.length,
      2,
    );
    // Its protected fields, under it.
    const parent = { id: schema.id, protection_id: two.id };
    const fields = await client.dataProtectedFields.list(parent);
    assertEquals(fields.data.map((f) => f.name), ["island", "body_mass_g"]);
    const island = fields.data[0];
    assertEquals(
      (await client.dataProtectedFields.get(parent, island.id)).name,
      "island",
    );
    // 400 naming the field: the target, a missing field.
    const bad = await assertRejects(
      () =>
        client.dataProtections.create(schema.id, {
          fields: ["species", "nope"],
        }),
      ValidationError,
    );
    assertEquals(bad.issues.map((i) => i.path), ["fields.0", "fields.1"]);
    // A field protected twice: 409 CONFLICT.
    const again = await assertRejects(
      () => client.dataProtections.create(schema.id, { fields: ["sex"] }),
      ConflictError,
    );
    assertEquals(again.errorCode, "CONFLICT");
    // The schema cannot go before its protections: 409 listing each with its fields.
    const listed = await blockedBy(() => client.dataSchemas.delete(schema.id));
    for (
      const d of [
        `DATA_PROTECTION ${sex.id}`,
        `DATA_PROTECTED_FIELD ${sex.protected_fields[0].id}`,
        `DATA_PROTECTION ${two.id}`,
        `DATA_PROTECTED_FIELD ${island.id}`,
      ]
    ) assert(listed.includes(d), `${d} in ${listed}`);
    // No model was trained under them: a field, then a protection, go.
    await client.dataProtectedFields.delete(parent, island.id);
    assertEquals(
      (await client.dataProtections.get(schema.id, two.id)).protected_fields
        .map((f) => f.name),
      ["body_mass_g"],
    );
    // A protection's last field cannot go alone.
    const last = (await client.dataProtectedFields.list(parent)).data[0];
    const lone = await assertRejects(
      () => client.dataProtectedFields.delete(parent, last.id),
      ConflictError,
    );
    assertEquals(lone.errorCode, "CONFLICT");
    await client.dataProtections.delete(schema.id, two.id);
    await assertRejects(
      () => client.dataProtections.get(schema.id, two.id),
      Error,
      "No data protection",
    );
    await assertRejects(
      () => client.dataProtectedFields.list(parent),
      Error,
      "No data protection",
    );
  } finally {
    await platform.close();
  }
});

Deno.test("protections and constraints a model was trained under: 409 listing the model; the job and schema cannot go before them", async () => {
  const { platform, client } = await setup();
  try {
    const { schema, cpu, done } = await ingestPenguins(client);
    const sex = await client.dataProtections.create(schema.id, {
      name: "sex",
      fields: ["sex"],
    });
    const job = await trainConstrained(client, cpu.id, done.datasource.id);
    const model = await client.models.get(job.model.id);
    assertEquals(model.group_metrics?.map((g) => g.field), ["sex"]);
    // The job's constraints and groups, read under it.
    const constraints = await client.modelConstraints.list(job.id);
    assertEquals(
      constraints.data.map((c) => `${c.field}:${c.constraint_type}`),
      ["island:EXCLUDED"],
    );
    const [excluded] = constraints.data;
    assertEquals(
      (await client.modelConstraints.get(job.id, excluded.id)).field,
      "island",
    );
    const [bill] = (await client.modelConstraintGroups.list(job.id)).data;
    assertEquals(
      (await client.modelConstraintGroups.get(job.id, bill.id)).fields,
      ["bill_length_mm", "bill_depth_mm"],
    );
    await assertRejects(
      () => client.modelConstraints.get(job.id, "mcn_none"),
      Error,
      "No model constraint",
    );
    // What the model was trained under cannot go while it exists.
    const modelDep = `MODEL ${model.id}`;
    assertEquals(
      await blockedBy(() => client.dataProtections.delete(schema.id, sex.id)),
      [modelDep],
    );
    assertEquals(
      await blockedBy(() =>
        client.dataProtectedFields.delete(
          { id: schema.id, protection_id: sex.id },
          sex.protected_fields[0].id,
        )
      ),
      [modelDep],
    );
    assertEquals(
      await blockedBy(() =>
        client.modelConstraints.delete(job.id, excluded.id)
      ),
      [modelDep],
    );
    assertEquals(
      await blockedBy(() =>
        client.modelConstraintGroups.delete(job.id, bill.id)
      ),
      [modelDep],
    );
    // The job cannot go before its constraints and groups.
    assertEquals(
      await blockedBy(() => client.trainingJobs.delete(job.id)),
      [
        `MODEL_CONSTRAINT ${excluded.id}`,
        `MODEL_CONSTRAINT_GROUP ${bill.id}`,
      ].sort(),
    );
    const schemaDeps = await blockedBy(() =>
      client.dataSchemas.delete(schema.id)
    );
    assert(schemaDeps.includes(`DATA_PROTECTION ${sex.id}`), `${schemaDeps}`);
    // Once the model is gone: constraints, groups, the job, the protection.
    await client.models.delete(model.id);
    await client.modelConstraints.delete(job.id, excluded.id);
    assertEquals((await client.modelConstraints.list(job.id)).data, []);
    await client.modelConstraintGroups.delete(job.id, bill.id);
    await client.trainingJobs.delete(job.id);
    await client.dataProtections.delete(schema.id, sex.id);
    const rest = await blockedBy(() => client.dataSchemas.delete(schema.id));
    assert(
      rest.every((d) => !d.startsWith("DATA_PROTECT")),
      `${rest}`,
    );
  } finally {
    await platform.close();
  }
});
