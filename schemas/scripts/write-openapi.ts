/**
 * Writes schemas/openapi.json from the operation table (`npm run openapi`). The committed file is
 * what reviewers and client generators read; a test fails when it differs from the built one.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument } from '../api/openapi';

const target = fileURLToPath(new URL('../openapi.json', import.meta.url));
writeFileSync(target, `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`);
console.log(`wrote ${target}`);
