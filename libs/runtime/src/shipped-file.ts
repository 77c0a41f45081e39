/**
 * Where a file that ships with the code is found: a worker thread's entry, the console's build.
 * Under tsx (npm run dev, the tests) a module runs from its .ts source and the file sits beside the
 * source; in the build (`npm run build`, tools/build.mjs) every module is bundled into
 * dist/leadstream.js, whose `import.meta.url` all of them share, and the build puts the file beside
 * it under its built name. One rule, so no call site guesses on its own.
 */

/** Whether the module at `moduleUrl` (its `import.meta.url`) runs from TypeScript source rather than from the build. */
export function runsFromSource(moduleUrl: string): boolean {
  return /\.[cm]?tsx?$/.test(new URL(moduleUrl).pathname);
}

/** The file `where.source` (relative to the source module) under tsx, `where.built` (relative to the bundle) in the build. */
export function shippedFile(moduleUrl: string, where: { source: string; built: string }): URL {
  return new URL(runsFromSource(moduleUrl) ? where.source : where.built, moduleUrl);
}
