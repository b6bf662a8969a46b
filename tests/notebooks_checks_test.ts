/**
 * The checks scripts/notebooks.ts applies to executed notebooks: each must
 * catch the failure it names (an error output, a progress bar left
 * half-way, a missing chart or card, an implausible figure, a leaked
 * secret), and pass a notebook that shows everything. Also: every source
 * notebook is saved without outputs.
 *
 * @module
 */
import { assert, assertEquals } from "@std/assert";
import {
  checkNotebook,
  NOTEBOOKS,
  type NotebookSpec,
  parseSummary,
} from "../scripts/notebooks.ts";

const SPEC: NotebookSpec = {
  name: "demo",
  mimes: ["text/html", "application/vnd.vegalite.v5+json"],
  cards: ["Model "],
  progress: 1,
  figures: [{ label: "AUC", pattern: /AUC (\d\.\d+)/, min: 0.8, max: 1 }],
};

function notebook(outputs: unknown[], executed = true) {
  return {
    cells: [
      { cell_type: "markdown", source: ["# demo"] },
      {
        cell_type: "code",
        execution_count: executed ? 1 : null,
        outputs,
      },
    ],
  };
}

const GOOD = [
  {
    output_type: "display_data",
    data: {
      "text/html": "<div>bar</div>",
      "text/plain": "training job: COMPLETED 100%",
    },
  },
  {
    output_type: "execute_result",
    data: { "text/html": "<div>card</div>", "text/plain": "Model churn (m_1)" },
  },
  {
    output_type: "execute_result",
    data: {
      "application/vnd.vegalite.v5+json": { $schema: "x" },
      "text/plain": "Term importance",
    },
  },
  { output_type: "stream", name: "stdout", text: "AUC 0.85\n" },
];

function failures(nb: unknown, secrets: string[] = []): string[] {
  return checkNotebook(nb, SPEC, secrets).filter((r) => !r.ok).map((r) =>
    r.name
  );
}

Deno.test("a notebook showing everything passes every check", () => {
  const results = checkNotebook(notebook(GOOD), SPEC, ["s3cr3t"]);
  assertEquals(results.filter((r) => !r.ok), []);
  assertEquals(results.length, 11);
});

Deno.test("an error output fails", () => {
  const nb = notebook([...GOOD, {
    output_type: "error",
    ename: "TypeError",
    evalue: "x is undefined",
    traceback: [],
  }]);
  assertEquals(failures(nb), ["no error outputs"]);
});

Deno.test("a CSV split by hand fails", () => {
  const nb = notebook(GOOD);
  (nb.cells[1] as Record<string, unknown>).source = [
    'const cells = line.split(",");\n',
  ];
  assertEquals(failures(nb), ["no CSV split by hand"]);
});

Deno.test("a cell that did not run fails", () => {
  assertEquals(failures(notebook(GOOD, false)), ["every code cell ran"]);
});

Deno.test("a progress bar left half-way fails", () => {
  const half = structuredClone(GOOD);
  half[0].data!["text/plain"] = "training job: RUNNING 40% (training 10%)";
  assertEquals(failures(notebook(half)), [
    "progress displays: at least 1, all in their final state",
  ]);
});

Deno.test("a cancelled job's display counts only where the notebook cancels one", () => {
  const cancelled = structuredClone(GOOD);
  cancelled[0].data!["text/plain"] = "training job: CANCELLED 12% - Cancelled";
  assertEquals(failures(notebook(cancelled)), [
    "cancelled jobs' displays: 0, ending CANCELLED",
  ]);
  const results = checkNotebook(notebook(cancelled), { ...SPEC, cancelled: 1 });
  assertEquals(results.filter((r) => !r.ok), []);
});

Deno.test("a missing chart, card or figure fails", () => {
  assertEquals(failures(notebook([GOOD[0], GOOD[1], GOOD[3]])), [
    "application/vnd.vegalite.v5+json outputs present",
  ]);
  // A card shown only as text is not a card.
  const plain = structuredClone(GOOD);
  delete (plain[1].data as Record<string, unknown>)["text/html"];
  assertEquals(failures(notebook(plain)), ['rich display "Model" shown']);
  const low = structuredClone(GOOD);
  low[3].text = "AUC 0.55\n";
  assertEquals(failures(notebook(low)), ["AUC printed and plausible"]);
});

Deno.test("a secret anywhere in the notebook fails", () => {
  const leaked = structuredClone(GOOD);
  leaked[3].text += "client_secret=s3cr3t\n";
  assertEquals(failures(notebook(leaked), ["s3cr3t"]), [
    "no secret in the executed notebook",
  ]);
});

Deno.test("parseSummary reads the last summary line", () => {
  assertEquals(parseSummary("1 passed, 0 failed\nok\n45 passed, 2 failed\n"), {
    passed: 45,
    failed: 2,
    skipped: 0,
  });
  assertEquals(parseSummary("nothing here"), undefined);
});

Deno.test("every notebook is saved without outputs, with the Deno kernel", async () => {
  for (const spec of NOTEBOOKS) {
    const url = new URL(`../notebooks/${spec.name}.ipynb`, import.meta.url);
    const nb = JSON.parse(await Deno.readTextFile(url));
    assertEquals(nb.metadata.kernelspec.name, "deno", spec.name);
    for (const cell of nb.cells) {
      if (cell.cell_type !== "code") continue;
      assertEquals(cell.outputs, [], `${spec.name} has saved outputs`);
      assertEquals(cell.execution_count, null, spec.name);
      assert(
        !cell.source.join("").includes("MLP_CLIENT_SECRET="),
        `${spec.name} types a credential into a cell`,
      );
    }
  }
});

// `deno fmt --check` misreports .ipynb files it has not seen before as
// unformatted even when `deno fmt` leaves them byte for byte the same (Deno
// 2.9.6), so the notebooks are excluded from it and checked here instead:
// formatting a copy must not change a byte.
Deno.test("every notebook is deno fmt clean", async () => {
  const dir = await Deno.makeTempDir({ prefix: "nbfmt-" });
  try {
    const saved = new Map<string, string>();
    for (const spec of NOTEBOOKS) {
      const url = new URL(`../notebooks/${spec.name}.ipynb`, import.meta.url);
      saved.set(spec.name, await Deno.readTextFile(url));
      await Deno.writeTextFile(
        `${dir}/${spec.name}.ipynb`,
        saved.get(spec.name)!,
      );
    }
    // One deno fmt over all the copies.
    const fmt = await new Deno.Command(Deno.execPath(), {
      args: ["fmt", "--quiet", dir],
      stdout: "null",
      stderr: "piped",
    }).output();
    assert(fmt.success, new TextDecoder().decode(fmt.stderr));
    for (const [name, text] of saved) {
      assertEquals(
        await Deno.readTextFile(`${dir}/${name}.ipynb`),
        text,
        `${name}.ipynb is not formatted: run deno fmt notebooks/`,
      );
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
