/**
 * Builds the npm package's JavaScript and declarations with the TypeScript
 * compiler (npm `typescript`), for machines where dnt cannot be loaded: ESM
 * `.js` + `.d.ts` under `<outDir>/esm/`, relative `.ts` imports rewritten to
 * `.js`, import-map and `npm:` specifiers rewritten to package names.
 *
 * @module
 */

import ts from "typescript";
import { type NpmTarget, rewriteSpecifier } from "./specifiers.ts";

/** Options of {@linkcode compileForNode}. */
export interface CompileOptions {
  /** Repository root (where deno.json is); paths are relative to it. */
  root: string;
  /** Entry modules relative to `root`, e.g. `["mod.ts"]`. */
  entryPoints: string[];
  /** Output folder for the ESM tree (e.g. `<root>/npm/esm`). */
  outDir: string;
  /** deno.json's `imports`. */
  imports: Record<string, string>;
  /** Folder holding `@types/*` packages (e.g. `<root>/npm/node_modules/@types`). */
  typeRoots: string[];
}

/** What the compiler produced. */
export interface CompileResult {
  /** The npm packages the built code imports, by name. */
  packages: Map<string, NpmTarget>;
  /** Files written. */
  files: string[];
}

/*
 * Compiler options of the build. `lib` is ESNext + DOM because the code uses
 * web-standard APIs (fetch, AbortSignal, streams) that Node 20 provides as
 * globals; there is deliberately no `Deno` declaration, so an unguarded use of
 * the Deno namespace fails the build instead of crashing in Node.
 */
const COMPILER_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  lib: ["lib.esnext.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
  types: ["node"],
  strict: true,
  declaration: true,
  allowImportingTsExtensions: true,
  rewriteRelativeImportExtensions: true,
  skipLibCheck: true,
  // compileForNode writes nothing unless the program and its emit are free
  // of errors (what noEmitOnError does, without its own extra pass over
  // the declarations before the emit makes them again).
  noEmitOnError: false,
  useDefineForClassFields: true,
  isolatedModules: true,
  newLine: ts.NewLineKind.LineFeed,
};

type Rewrite = (specifier: string) => string;

// TypeScript's own lib files (lib.dom.d.ts alone is 2 MB), parsed once per
// process: a second compile in the same process (the tests') reuses them.
const libFiles = new Map<string, ts.SourceFile>();

function cachingLibs(host: ts.CompilerHost): ts.CompilerHost {
  const libDir = host.getDefaultLibLocation?.();
  if (!libDir) return host;
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
    if (!fileName.startsWith(libDir)) {
      return read(fileName, languageVersion, onError, shouldCreate);
    }
    const key = `${JSON.stringify(languageVersion)}:${fileName}`;
    let file = libFiles.get(key);
    if (!file) {
      file = read(fileName, languageVersion, onError, shouldCreate);
      if (file) libFiles.set(key, file);
    }
    return file;
  };
  return host;
}

// Rewrites every module specifier the emitted JS or .d.ts can contain:
// import/export declarations, dynamic import() and import("x").T types.
function specifierTransformer(
  rewrite: Rewrite,
): ts.TransformerFactory<ts.SourceFile | ts.Bundle> {
  return (context) => {
    const f = context.factory;
    const literal = (node: ts.StringLiteral) => {
      const next = rewrite(node.text);
      return next === node.text ? node : f.createStringLiteral(next);
    };
    const visit = (node: ts.Node): ts.Node => {
      if (
        ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)
      ) {
        const spec = literal(node.moduleSpecifier);
        if (spec !== node.moduleSpecifier) {
          return f.updateImportDeclaration(
            node,
            node.modifiers,
            node.importClause,
            spec,
            node.attributes,
          );
        }
      } else if (
        ts.isExportDeclaration(node) && node.moduleSpecifier &&
        ts.isStringLiteral(node.moduleSpecifier)
      ) {
        const spec = literal(node.moduleSpecifier);
        if (spec !== node.moduleSpecifier) {
          return f.updateExportDeclaration(
            node,
            node.modifiers,
            node.isTypeOnly,
            node.exportClause,
            spec,
            node.attributes,
          );
        }
      } else if (
        ts.isCallExpression(node) &&
        node.expression.kind === ts.SyntaxKind.ImportKeyword &&
        node.arguments.length >= 1 && ts.isStringLiteral(node.arguments[0])
      ) {
        const spec = literal(node.arguments[0]);
        if (spec !== node.arguments[0]) {
          return f.updateCallExpression(node, node.expression, undefined, [
            spec,
            ...node.arguments.slice(1),
          ]);
        }
      } else if (
        ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) &&
        ts.isStringLiteral(node.argument.literal)
      ) {
        const spec = literal(node.argument.literal);
        if (spec !== node.argument.literal) {
          return f.updateImportTypeNode(
            node,
            f.updateLiteralTypeNode(node.argument, spec),
            node.attributes,
            node.qualifier,
            node.typeArguments,
            node.isTypeOf,
          );
        }
      }
      return ts.visitEachChild(node, visit, context);
    };
    return (file) => ts.visitNode(file, visit) as ts.SourceFile | ts.Bundle;
  };
}

/**
 * Type-checks the entry points' module graph against Node's types and emits
 * ESM JavaScript and declarations.
 *
 * @param options Root, entry points, output folder, import map, type roots.
 * @returns The npm packages used and the files written.
 * @throws {Error} On type errors (printed with context) or on specifiers Node
 * cannot resolve.
 *
 * @example
 * ```ts
 * import { compileForNode } from "./tsc_build.ts";
 *
 * const root = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${root}/util.ts`, "export const twice = (n: number): number => 2 * n;\n");
 * await Deno.writeTextFile(`${root}/mod.ts`, 'export { twice } from "./util.ts";\n');
 * const { files } = compileForNode({
 *   root, entryPoints: ["mod.ts"], outDir: `${root}/out`, imports: {}, typeRoots: [],
 * });
 * const js = await Deno.readTextFile(`${root}/out/mod.js`);
 * if (!js.includes('"./util.js"') || files.length !== 4) throw new Error(js);
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export function compileForNode(
  options: CompileOptions,
): CompileResult {
  const packages = new Map<string, NpmTarget>();
  const problems = new Set<string>();
  const rewrite: Rewrite = (specifier) => {
    try {
      const { specifier: out, npm } = rewriteSpecifier(
        specifier,
        options.imports,
      );
      if (npm) packages.set(npm.name, npm);
      // Declarations keep `.ts` in relative paths; Node-facing tooling
      // resolves `./x.js` to `./x.d.ts`, so rewrite them the same way.
      return /^\.\.?\//.test(out) ? out.replace(/\.(m?)tsx?$/, ".$1js") : out;
    } catch (error) {
      problems.add((error as Error).message);
      return specifier;
    }
  };
  const compilerOptions: ts.CompilerOptions = {
    ...COMPILER_OPTIONS,
    rootDir: options.root,
    outDir: options.outDir,
    typeRoots: options.typeRoots,
    ...(options.typeRoots.length === 0 ? { types: [] } : {}),
  };
  const host = cachingLibs(ts.createCompilerHost(compilerOptions));
  const rootNames = options.entryPoints.map((p) => `${options.root}/${p}`);
  const program = ts.createProgram({
    rootNames,
    options: compilerOptions,
    host,
  });
  const fail = (diagnostics: readonly ts.Diagnostic[]) => {
    console.error(ts.formatDiagnosticsWithColorAndContext(diagnostics, host));
    return new Error(
      `TypeScript found ${diagnostics.length} error(s) compiling for Node (see above). ` +
        "These are type errors under Node's types and no Deno namespace: guard Deno APIs behind " +
        "feature detection (globalThis.Deno) and fix the reported lines.",
    );
  };
  // getPreEmitDiagnostics without its declaration pass: the emit below
  // makes the declarations and reports their errors.
  const diagnostics = [
    ...program.getConfigFileParsingDiagnostics(),
    ...program.getOptionsDiagnostics(),
    ...program.getSyntacticDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...program.getSemanticDiagnostics(),
  ];
  if (diagnostics.length > 0) throw fail(diagnostics);
  const outputs: [string, string][] = [];
  const transformer = specifierTransformer(rewrite);
  const result = program.emit(
    undefined,
    (fileName, text) => outputs.push([fileName, text]),
    undefined,
    false,
    {
      before: [transformer as ts.TransformerFactory<ts.SourceFile>],
      afterDeclarations: [transformer],
    },
  );
  if (result.diagnostics.length > 0) throw fail(result.diagnostics);
  if (result.emitSkipped) {
    throw new Error("TypeScript skipped the emit; see the diagnostics above.");
  }
  if (problems.size > 0) {
    throw new Error([...problems].join("\n"));
  }
  const files: string[] = [];
  for (const [fileName, text] of outputs) {
    ts.sys.writeFile(fileName, text);
    files.push(fileName);
  }
  return { packages, files };
}
