/**
 * The architecture rules of README.md "Layout" are enforced by lint, not by prose: this test
 * proves the rules are live by linting probe files that break them.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..', '..');
let eslint: ESLint;

beforeAll(() => {
  // The Nx rule reads the cached project graph; make sure it exists.
  execFileSync('npx', ['nx', 'show', 'projects'], {
    cwd: root,
    stdio: 'ignore',
    env: { ...process.env, NX_DAEMON: 'false' },
  });
  eslint = new ESLint({ cwd: root });
}, 120_000);

async function ruleIds(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, path) });
  return (result?.messages ?? []).map((message) => message.ruleId ?? message.message);
}

describe('module boundaries', () => {
  it('forbids the domain from importing a port or an engine', async () => {
    const code = "import type { EventLog } from '@leadstream/ports';\nexport type Probe = EventLog;\n";
    expect(await ruleIds('libs/domain/src/errors.ts', code)).toContain('@nx/enforce-module-boundaries');
  });

  it('forbids an engine from importing another engine or an app', async () => {
    const code = "export { openKafkaLog } from '@leadstream/engine-kafka';\n";
    expect(await ruleIds('libs/engines/embedded-log/src/index.ts', code)).toContain('@nx/enforce-module-boundaries');
  });

  it('allows an engine to import its port', async () => {
    const code = "import type { EventLog } from '@leadstream/ports';\nexport type Probe = EventLog;\n";
    expect(await ruleIds('libs/engines/embedded-log/src/index.ts', code)).not.toContain(
      '@nx/enforce-module-boundaries',
    );
  });

  it('rejects floating promises, explicit any and ts-ignore', async () => {
    const code = [
      'async function work(): Promise<void> {}',
      'export function run(): void {',
      '  work();',
      '}',
      'export const loose: any = 1;',
      '// @ts-ignore',
      'export const n: number = 1;',
      '',
    ].join('\n');
    const rules = await ruleIds('libs/domain/src/errors.ts', code);
    expect(rules).toEqual(
      expect.arrayContaining([
        '@typescript-eslint/no-floating-promises',
        '@typescript-eslint/no-explicit-any',
        '@typescript-eslint/ban-ts-comment',
      ]),
    );
  });
});
