/**
 * Writes libs/client/src/api-types.ts from schemas/openapi.json with openapi-typescript
 * (`npm run openapi` runs it after writing the document). A test fails when they differ.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { apiTypesSource } from './api-types-source';

const target = fileURLToPath(new URL('../src/api-types.ts', import.meta.url));
writeFileSync(target, await apiTypesSource());
console.log(`wrote ${target}`);
