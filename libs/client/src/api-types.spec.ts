import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { apiTypesSource } from '../scripts/api-types-source';

describe('the generated API types', () => {
  it('are what openapi-typescript writes from the committed schemas/openapi.json', async () => {
    const committed = readFileSync(new URL('./api-types.ts', import.meta.url), 'utf8');
    expect(
      committed === (await apiTypesSource()),
      'libs/client/src/api-types.ts is stale: run `npm run openapi` and commit it',
    ).toBe(true);
  });
});
