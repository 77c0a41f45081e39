/** The TypeScript types of the API, as openapi-typescript writes them from schemas/openapi.json. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

const DOCUMENT = fileURLToPath(new URL('../../../schemas/openapi.json', import.meta.url));

export async function apiTypesSource(): Promise<string> {
  const document = JSON.parse(readFileSync(DOCUMENT, 'utf8')) as Parameters<typeof openapiTS>[0];
  const ast = await openapiTS(document, { alphabetize: true });
  return `/* eslint-disable */\n// Generated from schemas/openapi.json by libs/client/scripts/write-api-types.ts (npm run openapi). Do not edit.\n\n${astToString(ast)}`;
}
