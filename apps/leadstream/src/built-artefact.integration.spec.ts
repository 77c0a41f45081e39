/**
 * The built artefact as production runs it: `npm run build` (tools/build.mjs) into a fresh
 * directory, then `node <dir>/leadstream.js start` with no tsx anywhere. It serves the console and
 * the API reference from the build, takes a lead through the pipeline thread (dist/pipeline-thread.js),
 * runs the enrichment tester's thread (dist/enrichment-tester.thread.js), and on SIGTERM exits 0
 * with its port closed. The other black-box suites run the CLI from source through tsx.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceEnv, type LogLine } from './test-support/cli-process';
import { engineSetups, type EngineSetup } from './test-support/engine-setups';
import { jsonClient } from './test-support/json-client';

const root = join(import.meta.dirname, '..', '..', '..');
const buildDir = mkdtempSync(join(tmpdir(), 'leadstream-build-'));
const dist = join(buildDir, 'dist');

beforeAll(() => {
  execFileSync(process.execPath, [join(root, 'tools', 'build.mjs'), '--outdir', dist], { cwd: root, stdio: 'pipe' });
  // The bundles import their packages from node_modules, as dist/ does beside the repository's.
  symlinkSync(join(root, 'node_modules'), join(buildDir, 'node_modules'), 'dir');
}, 300_000);

afterAll(() => rmSync(buildDir, { recursive: true, force: true }));

/** Whether something accepts TCP connections on the port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** `node <dist>/leadstream.js <args>` with its JSON log lines (test-support/cli-process.ts runs the source through tsx instead). */
class BuiltProcess {
  readonly lines: LogLine[] = [];
  errorOutput = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private readonly child: ChildProcess;

  constructor(args: string[], env: Record<string, string>) {
    this.child = spawn(process.execPath, [join(dist, 'leadstream.js'), ...args], {
      cwd: buildDir,
      env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', CHECK_RESPONSES: 'on', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let buffer = '';
    this.child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      buffer += chunk;
      let newline: number;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const raw = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        if (raw.startsWith('{')) this.lines.push(JSON.parse(raw) as LogLine);
      }
    });
    this.child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (this.errorOutput += chunk));
    this.exited = once(this.child, 'exit').then(([code, signal]) => ({
      code: code as number | null,
      signal: signal as NodeJS.Signals | null,
    }));
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  kill(signal: NodeJS.Signals): void {
    this.child.kill(signal);
  }

  /** The first log line with this message; rejects when the process exits or the time is up first. */
  async waitFor(message: string, timeoutMs = 120_000): Promise<LogLine> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const line = this.lines.find((entry) => entry.msg === message);
      if (line) return line;
      if (!this.running) throw new Error(`leadstream exited before logging "${message}": ${this.errorOutput}`);
      if (Date.now() > deadline) throw new Error(`no "${message}" log line in ${timeoutMs} ms: ${this.errorOutput}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

describe('the build', () => {
  it('writes the CLI, the thread entries and the console, with the workspace libs bundled and no tsx', () => {
    for (const file of ['leadstream.js', 'pipeline-thread.js', 'enrichment-tester.thread.js', 'console/index.html'])
      expect(existsSync(join(dist, file)), file).toBe(true);
    expect(JSON.parse(readFileSync(join(dist, 'package.json'), 'utf8'))).toEqual({ type: 'module' });
    for (const file of ['leadstream.js', 'pipeline-thread.js', 'enrichment-tester.thread.js']) {
      const code = readFileSync(join(dist, file), 'utf8');
      // Workspace libs are bundled in; only packages from node_modules stay imports, and tsx is none of them.
      expect(/(from|import\()\s*["'](tsx|@leadstream\/)[^"']*["']/.exec(code)?.[0], file).toBeUndefined();
    }
  });
});

describe('node dist/leadstream.js migrate', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'leadstream-built-migrate-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  // docker-compose.yml runs it once before the other roles and waits for its exit 0.
  it('applies the analytics migrations once and exits 0, and applies none the second time', async () => {
    const first = new BuiltProcess(['migrate'], serviceEnv({ DATA_DIR: dataDir }));
    expect(await first.exited, first.errorOutput).toEqual({ code: 0, signal: null });
    const applied = first.lines.find((line) => line.msg === 'analytics migrations applied')?.['applied'];
    expect(applied).toEqual(expect.arrayContaining([1, 2, 3]));
    expect(first.lines.at(-1)?.msg).toBe('shutdown complete');

    const second = new BuiltProcess(['migrate'], serviceEnv({ DATA_DIR: dataDir }));
    expect(await second.exited, second.errorOutput).toEqual({ code: 0, signal: null });
    expect(second.lines.some((line) => line.msg === 'analytics migrations applied')).toBe(false);
  }, 120_000);
});

describe.each(engineSetups('leadstream-built'))('node dist/leadstream.js start on the %s', (_label, make) => {
  let setup: EngineSetup;
  let server: BuiltProcess;
  let base = '';
  let port = 0;
  const call = jsonClient(() => base);

  beforeAll(async () => {
    setup = make();
    server = new BuiltProcess(['start'], serviceEnv({ DECISION_TIMEOUT_MS: '15000', ...setup.env }));
    const line = await server.waitFor('api listening');
    await server.waitFor('ready');
    base = String(line['url']);
    port = Number(new URL(base).port);
  }, 180_000);

  afterAll(async () => {
    if (server.running) {
      server.kill('SIGKILL');
      await server.exited;
    }
    await setup.cleanup();
  });

  it('serves the console and the API reference from the build', async () => {
    const page = await fetch(`${base}/app/`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<div id="root">');
    const script = /src="(\/app\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toMatch(/^\/app\/assets\//);
    expect((await fetch(`${base}${script}`)).status).toBe(200);
    const docs = await fetch(`${base}/docs/assets/swagger-ui-bundle.js`);
    expect(docs.status).toBe(200);
    expect((await docs.text()).length).toBeGreaterThan(100_000);
  });

  it('accepts a lead over HTTP and reads it back', async () => {
    const registered = await call('POST', '/api/auth/register', {
      email: 'registrar@built.edu',
      password: 'Passw0rd!',
      first_name: 'Rita',
      last_name: 'Registrar',
      organization_name: 'Built College',
    });
    expect(registered.status).toBe(201);
    const owner = String(registered.body['token']);
    const vendor = await call('POST', '/api/vendors', { name: 'Fair Forms', type: 'inquiry' }, owner);
    expect(vendor.status).toBe(201);
    const key = await call(
      'POST',
      '/api/api-keys',
      { name: 'forms', vendor_id: (vendor.body['data'] as { id: string }).id, permissions: ['write'] },
      owner,
    );
    expect(key.status).toBe(201);

    const ingested = await fetch(`${base}/api/v1/leads/ingest`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${(key.body['data'] as { key: string }).key}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        email: 'ada@built.edu',
        first_name: 'Ada',
        last_name: 'Lovelace',
        program_interest: 'Computer Science',
        form_started_at: new Date(Date.now() - 30_000).toISOString(),
      }),
    });
    const answer = (await ingested.json()) as { success?: boolean; lead_id?: string };
    expect(ingested.status, JSON.stringify(answer)).toBe(201);
    expect(answer).toMatchObject({ success: true, lead_id: expect.stringMatching(/^lead_/) as unknown });

    const lead = await call('GET', `/api/leads/${answer.lead_id}`, undefined, owner);
    expect(lead.status).toBe(200);
    expect(lead.body['data']).toMatchObject({
      id: answer.lead_id,
      email: 'ada@built.edu',
      first_name: 'Ada',
      program_interest: 'Computer Science',
      status: 'active',
    });

    // The enrichment tester runs the organization's rules in a thread of its own, loaded from the build.
    const tested = await call(
      'POST',
      '/api/enrichment/test',
      { lead_data: { email: 'grace@built.edu', first_name: 'Grace' } },
      owner,
    );
    expect(tested.status, JSON.stringify(tested.body)).toBe(200);
    expect(tested.body).toMatchObject({ results: [], rejection_reason: null });
  });

  it('exits 0 on SIGTERM and leaves nothing listening', async () => {
    expect(await listening(port)).toBe(true);
    server.kill('SIGTERM');
    expect(await server.exited, server.errorOutput).toEqual({ code: 0, signal: null });
    expect(server.lines.some((line) => line.msg === 'shutdown complete')).toBe(true);
    expect(await listening(port)).toBe(false);
  });
});

describe('npm start', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'leadstream-npm-start-'));
  let group: number | undefined;
  afterAll(() => {
    // Whatever a failed run left of npm's process group (the service an old `npm start` orphaned).
    try {
      if (group) process.kill(-group, 'SIGKILL');
    } catch {
      // the group is gone: nothing left over
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  // A supervisor signals the process it started: npm. The service must be what stops, not an orphan.
  it("builds if needed, runs node dist/leadstream.js in npm's place, and stops with nothing listening on SIGTERM to npm", async () => {
    const npm = spawn('npm', ['start'], {
      cwd: root,
      env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', ...serviceEnv({ DATA_DIR: dataDir }) },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    group = npm.pid;
    const exited = once(npm, 'exit');
    let output = '';
    npm.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    npm.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const deadline = Date.now() + 180_000;
    let url: string | undefined;
    while (!url && Date.now() < deadline && npm.exitCode === null) {
      url = /"url":"(http:\/\/127\.0\.0\.1:\d+)","msg":"api listening"/.exec(output)?.[1];
      if (!url || !output.includes('"msg":"ready"')) url = undefined;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(url, output).toBeDefined();
    const port = Number(new URL(String(url)).port);
    expect(await (await fetch(`${url}/healthz`)).json()).toEqual({ status: 'ok' });

    npm.kill('SIGTERM');
    const [code] = (await exited) as [number | null, NodeJS.Signals | null];
    expect(code, output).toBe(0);
    expect(output).toContain('"msg":"shutdown complete"');
    expect(await listening(port)).toBe(false);
  }, 240_000);
});
