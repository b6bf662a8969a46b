/**
 * Endpoint 9's own 409 (docs/api.md#endpoints) on the local platform: deleting an onboarding
 * configuration that still has dependants is refused with the integrity
 * body listing them; once they are gone the delete is a 204.
 */
import { assertEquals, assertRejects } from "@std/assert";
import { ConflictError } from "../src/http/errors.ts";
import {
  ingestPenguins,
  onboardPenguins,
  raw,
  setup,
  tokenFor,
} from "./_helpers/local_setup.ts";

Deno.test("local integrity: DELETE of an onboarding configuration with dependants is a 409 listing them, then a 204", async () => {
  const { platform, client } = await setup();
  try {
    const { cpu, done } = await ingestPenguins(client);
    const { oc, job: finished } = await onboardPenguins(
      client,
      cpu.id,
      done.datasource.id,
    );
    assertEquals(finished.status, "COMPLETED");
    const token = await tokenFor(platform);
    const refused = await raw(
      platform,
      "DELETE",
      `/data-processing-onboarding-configurations/${oc.id}`,
      { token },
    );
    assertEquals(refused.status, 409);
    assertEquals(refused.body.error_code, "INTEGRITY_ERROR");
    const dependants = (refused.body.dependants as {
      id: string;
      dependant_type: string;
    }[]).map((d) => `${d.dependant_type} ${d.id}`).sort();
    assertEquals(dependants, [
      `DATASET ${finished.dataset.id}`,
      `DATA_PROCESSING_ONBOARDING_JOB ${finished.id}`,
    ]);
    // The typed error carries the same list; nothing was deleted.
    const error = await assertRejects(
      () => client.onboardingConfigurations.delete(oc.id),
      ConflictError,
    );
    assertEquals(error.dependants.length, 2);
    assertEquals((await client.onboardingConfigurations.get(oc.id)).id, oc.id);
    await client.datasets.delete(finished.dataset.id);
    await client.onboardingJobs.delete(finished.id);
    const deleted = await raw(
      platform,
      "DELETE",
      `/data-processing-onboarding-configurations/${oc.id}`,
      { token },
    );
    assertEquals(deleted.status, 204);
    const gone = await raw(
      platform,
      "GET",
      `/data-processing-onboarding-configurations/${oc.id}`,
      { token },
    );
    assertEquals(gone.status, 404);
  } finally {
    await platform.close();
  }
});
