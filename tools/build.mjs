#!/usr/bin/env node
/**
 * `npm run build`: the service as JavaScript in dist/, run with `node dist/leadstream.js <command>`.
 *
 *   dist/leadstream.js                 the CLI (apps/leadstream/src/main.ts) and every workspace lib, bundled
 *   dist/pipeline-thread.js            the pipeline worker thread of `leadstream start`
 *   dist/enrichment-tester.thread.js   a thread of the enrichment rule tester (POST /api/enrichment/test)
 *   dist/console/                      the web console's Vite build (served at /app)
 *   dist/package.json                  {"type":"module"}: the bundles are ES modules wherever dist is copied
 *
 * Packages from node_modules stay imports (native addons such as better-sqlite3 and chdb, packages
 * that read their own files such as swagger-ui-dist), so dist runs beside the production
 * node_modules. Code finds the thread entries and the console through shippedFile()
 * (libs/runtime/src/shipped-file.ts): beside the .ts source under tsx, beside the bundle here;
 * ENTRIES below and those call sites name the same files.
 *
 *   node tools/build.mjs [--outdir DIR] [--if-stale]
 *
 * --if-stale (`npm start`) does nothing when DIR/leadstream.js is newer than every source file.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Built name (without .js) -> source entry. */
const ENTRIES = {
  leadstream: 'apps/leadstream/src/main.ts',
  'pipeline-thread': 'apps/leadstream/src/pipeline-host/pipeline-thread.ts',
  'enrichment-tester.thread': 'apps/api/src/rules/enrichment-tester.thread.ts',
};

const CONSOLE_DIR = 'apps/console';
const SOURCE_DIRS = ['apps', 'libs', 'schemas'];
const SOURCE_FILES = ['package.json', 'package-lock.json', 'tsconfig.base.json', 'tools/build.mjs'];
const SKIP_DIRS = new Set(['node_modules', 'dist', '.nx', 'coverage']);

function parseArgs(argv) {
  const options = { outdir: join(root, 'dist'), ifStale: false };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--outdir') options.outdir = resolve(argv[++i] ?? '');
    else if (argv[i] === '--if-stale') options.ifStale = true;
    else throw new Error(`build: unknown argument ${argv[i]}`);
  }
  return options;
}

/** The newest modification time of the files under `paths` (directories walked, build outputs skipped). */
function newestMtime(paths) {
  let newest = 0;
  const visit = (path) => {
    const stats = statSync(path, { throwIfNoEntry: false });
    if (!stats) return;
    if (stats.isDirectory()) {
      for (const entry of readdirSync(path)) if (!SKIP_DIRS.has(entry)) visit(join(path, entry));
    } else if (stats.mtimeMs > newest) newest = stats.mtimeMs;
  };
  for (const path of paths) visit(join(root, path));
  return newest;
}

function mtime(path) {
  return statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? 0;
}

/** Workspace packages (@leadstream/*) and relative paths are bundled; every other package stays an import. */
const externalPackages = {
  name: 'external-packages',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.path.startsWith('@leadstream/') || args.path.startsWith('node:') || args.pluginData === 'resolving')
        return undefined;
      // A package that is JSON data (disposable-email-domains) is bundled: Node would want an import attribute.
      const resolved = await pluginBuild.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        importer: args.importer,
        pluginData: 'resolving',
      });
      if (resolved.errors.length === 0 && resolved.path.endsWith('.json')) return resolved;
      return { path: args.path, external: true };
    });
  },
};

function buildConsole() {
  const result = spawnSync('npm', ['run', '--silent', 'console:build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`build: npm run console:build failed (${result.status ?? result.signal})`);
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const bundle = join(options.outdir, 'leadstream.js');
  const consoleBuilt = join(root, CONSOLE_DIR, 'dist', 'index.html');
  if (options.ifStale) {
    const built = Math.min(mtime(bundle), mtime(join(options.outdir, 'console', 'index.html')));
    if (built > newestMtime([...SOURCE_DIRS, ...SOURCE_FILES])) return;
    process.stderr.write(`leadstream: building ${options.outdir} (missing or older than the sources)\n`);
  }
  // The console is rebuilt when its sources changed since its last build (`npm install` builds it too).
  if (
    mtime(consoleBuilt) <
    newestMtime([join(CONSOLE_DIR, 'src'), join(CONSOLE_DIR, 'index.html'), join(CONSOLE_DIR, 'vite.config.ts')])
  )
    buildConsole();

  mkdirSync(options.outdir, { recursive: true });
  await build({
    absWorkingDir: root,
    entryPoints: Object.entries(ENTRIES).map(([out, source]) => ({ in: source, out })),
    outdir: options.outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    legalComments: 'none',
    logLevel: 'warning',
    plugins: [externalPackages],
  });
  writeFileSync(join(options.outdir, 'package.json'), '{ "type": "module" }\n');
  rmSync(join(options.outdir, 'console'), { recursive: true, force: true });
  if (existsSync(consoleBuilt))
    cpSync(join(root, CONSOLE_DIR, 'dist'), join(options.outdir, 'console'), { recursive: true });
  else throw new Error(`build: ${consoleBuilt} is missing after the console build`);
}

try {
  await main();
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
