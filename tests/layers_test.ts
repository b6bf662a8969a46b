/**
 * Layers point one way (issue 10 item 3): nothing below the notebook layer
 * imports it; errors, jobs, resources and views answers still render as
 * rich cards, because every package entry loads the notebook's renderers
 * into the display registry (src/display.ts).
 */
import { assert, assertEquals, assertStringIncludes } from "@std/assert";
import { NotFoundError, ViewsResult } from "../mod.ts";
import { JUPYTER_DISPLAY } from "../src/display.ts";

const LOW = ["http", "jobs", "schemas", "resources", "builders"];

Deno.test("layers: no module under src/http, jobs, schemas, resources or builders mentions notebook/", async () => {
  const offenders: string[] = [];
  const walk = async (dir: URL, name: string): Promise<void> => {
    for await (const entry of Deno.readDir(dir)) {
      const path = `${name}/${entry.name}`;
      if (entry.isDirectory) {
        await walk(new URL(`${entry.name}/`, dir), path);
      } else if (entry.name.endsWith(".ts")) {
        const text = await Deno.readTextFile(new URL(entry.name, dir));
        if (text.includes("notebook/")) offenders.push(path);
      }
    }
  };
  for (const dir of LOW) {
    await walk(new URL(`../src/${dir}/`, import.meta.url), dir);
  }
  assertEquals(offenders, []);
});

Deno.test("layers: the root entry renders errors and views answers richly with no setup", () => {
  const error = new NotFoundError({
    status: 404,
    message: "No model m_9",
    errorCode: "NOT_FOUND",
  });
  const card = error[JUPYTER_DISPLAY]();
  assertStringIncludes(String(card["text/html"]), "NotFoundError");
  const result = new ViewsResult({
    columns: ["prediction.churn", "bias", "contribution.tenure"],
    index: [0],
    data: [["Yes", -1, 2]],
  });
  assertStringIncludes(
    String(result[JUPYTER_DISPLAY]()["text/html"]),
    "<table",
  );
  const chart = result.explanationChart(0);
  assert("application/vnd.vegalite.v5+json" in chart);
});
