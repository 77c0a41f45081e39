/**
 * The OpenAPI 3.1 document of leadstream, built from the operation table and the component
 * schemas, and a checker that tells whether an answer matches what the document promises. The
 * committed `schemas/openapi.json` is this document (`npm run openapi` writes it; a test fails when
 * they differ), and `/api/openapi.json` serves it.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { bodyProblems, type BodyProblem } from './body-problems';
import { componentSchemas } from './components';
import { ref, type JsonSchema } from './json-schema';
import { operations, type Operation } from './operations';

const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;

export const API_VERSION = '0.1.0';

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted: processing has not finished; follow status_url',
  204: 'No content',
  400: 'Invalid input: `details` names every invalid field',
  401: 'Missing or invalid authentication',
  403: 'Insufficient permissions (or a request from outside the key’s IP restrictions)',
  404: 'Not found',
  405: 'Method not allowed',
  409: 'Conflict (duplicate, or the resource is in use)',
  410: 'Gone: the export download expired',
  413: 'The request body is larger than the service accepts',
  415: 'The request body must be application/json',
  422: 'Rejected by a business rule',
  429: 'Rate limited: wait `Retry-After` seconds',
  500: 'Server error: back off and retry',
  503: 'Service unavailable: back off and retry',
};

/** The statuses every operation of a convention may answer besides its own. */
export function errorStatuses(operation: Operation): number[] {
  const statuses = new Set<number>(operation.errors ?? []);
  if (operation.auth !== 'none') for (const status of [401, 403]) statuses.add(status);
  statuses.add(429);
  if (operation.requestBody) for (const status of [400, 413, 415]) statuses.add(status);
  if (operation.query?.length) statuses.add(400);
  if (operation.planLimit) statuses.add(422);
  if (operation.path.includes(':')) statuses.add(404);
  for (const status of [500, 503]) statuses.add(status);
  return [...statuses].sort((a, b) => a - b);
}

function errorSchema(operation: Operation): JsonSchema {
  if (operation.convention === 'ingestion') return ref('IngestionError');
  if (operation.convention === 'oauth') return { anyOf: [ref('OAuthError'), ref('UserError')] };
  if (operation.convention === 'funnel') return ref('FunnelError');
  return ref('UserError');
}

/**
 * A request schema that says what the edge refuses in every request: text containing U+0000
 * (libs/http/src/nul-text.ts). Every string (without enum or const) gets `not: {pattern: NUL}`.
 */
export function withoutNul(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutNul);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema))
    out[key] = key === 'enum' || key === 'const' ? value : withoutNul(value);
  const types = Array.isArray(out['type']) ? (out['type'] as unknown[]) : [out['type']];
  if (types.includes('string') && !('enum' in out) && !('const' in out)) {
    const nul = { pattern: '\\u0000' };
    const text =
      'not' in out
        ? { ...out, type: 'string', allOf: [...((out['allOf'] as unknown[]) ?? []), { not: nul }] }
        : { ...out, type: 'string', not: nul };
    // Text or null: the rule on text stays on the text branch.
    return types.includes('null') ? { anyOf: [text, { type: 'null' }] } : text;
  }
  return out;
}

/** `/api/leads/:id` → `/api/leads/{id}`. */
export const openApiPath = (path: string): string => path.replace(/:([A-Za-z_]+)/g, '{$1}');

const HEADERS: Record<string, JsonSchema> = {
  'X-Request-ID': { description: 'The id of this request, in logs too', schema: { type: 'string' } },
  'X-RateLimit-Limit': {
    description: 'Requests allowed in the window (limited endpoints)',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Remaining': {
    description: 'Requests left in the window (limited endpoints)',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Reset': {
    description: 'When the window resets, unix seconds (limited endpoints)',
    schema: { type: 'integer' },
  },
  'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer' } },
};

function headersFor(status: number): Record<string, JsonSchema> {
  const names = [
    'X-Request-ID',
    'X-RateLimit-Limit',
    'X-RateLimit-Remaining',
    'X-RateLimit-Reset',
    ...(status === 429 ? ['Retry-After'] : []),
  ];
  return Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));
}

function responseObject(status: number, content: JsonSchema | null | { mediaType: string }): JsonSchema {
  const description = STATUS_TEXT[status] ?? String(status);
  const headers = headersFor(status);
  if (content === null) return { description, headers };
  if ('mediaType' in content && typeof content.mediaType === 'string')
    return { description, headers, content: { [content.mediaType]: { schema: { type: 'string' } } } };
  return { description, headers, content: { 'application/json': { schema: content } } };
}

const CONVENTION_NAMES: Record<Operation['convention'], string> = {
  user: 'User',
  ingestion: 'Ingestion',
  funnel: 'Funnel',
  oauth: 'OAuth',
};

/** Error answers are shared components (`UserError401`, `IngestionError429`, ...). */
const errorResponseName = (operation: Operation, status: number): string =>
  `${CONVENTION_NAMES[operation.convention]}Error${status}`;

function operationObject(operation: Operation): JsonSchema {
  const responses: Record<string, JsonSchema> = {};
  for (const [status, content] of Object.entries(operation.responses))
    responses[status] = responseObject(Number(status), content);
  for (const status of errorStatuses(operation))
    responses[String(status)] ??= { $ref: `#/components/responses/${errorResponseName(operation, status)}` };
  const pathParameters = [...operation.path.matchAll(/:([A-Za-z_]+)/g)].map((match) => ({
    name: match[1],
    in: 'path',
    required: true,
    schema: operation.pathParams?.[match[1] ?? ''] ?? { type: 'string', minLength: 1 },
  }));
  const description = [
    operation.description,
    operation.permission && operation.permission !== 'authenticated'
      ? `Permission: \`${operation.permission}\`.`
      : undefined,
    operation.semanticChecks
      ? `Beyond this schema the service checks ${operation.semanticChecks}; a request that fails those checks is answered 400${operation.errors?.includes(422) ? ' (422 when a rule rejects the lead)' : ''}.`
      : undefined,
    operation.planLimit
      ? `A request that would take the organization past its plan's limit is answered 422 \`PLAN_LIMIT_REACHED\` and stores nothing. Limits: ${operation.planLimit}.`
      : undefined,
  ].filter(Boolean);
  const security = {
    session: [{ sessionToken: [] }],
    apiKey: [{ apiKey: [] }],
    sessionOrApiKey: [{ sessionToken: [] }, { apiKey: [] }],
    none: [],
  }[operation.auth];
  return {
    operationId: operation.operationId,
    tags: [operation.tag],
    summary: operation.summary,
    ...(description.length > 0 ? { description: description.join('\n\n') } : {}),
    ...(operation.semanticChecks ? { 'x-semantic-checks': operation.semanticChecks } : {}),
    ...(operation.planLimit ? { 'x-plan-limit': operation.planLimit } : {}),
    security,
    ...(pathParameters.length + (operation.query?.length ?? 0) > 0
      ? {
          parameters: [
            ...pathParameters,
            ...(operation.query ?? []).map((parameter) => ({
              required: false,
              ...parameter,
              schema: withoutNul(parameter.schema),
            })),
          ],
        }
      : {}),
    ...(operation.requestBody
      ? {
          requestBody: {
            required: true,
            content: {
              [operation.requestMediaType ??
              (operation.form ? 'application/x-www-form-urlencoded' : 'application/json')]: {
                schema: withoutNul(operation.requestBody),
              },
            },
          },
        }
      : {}),
    responses,
  };
}

/** The whole OpenAPI 3.1 document. */
export function buildOpenApiDocument(): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const operation of operations) {
    const path = openApiPath(operation.path);
    const item = (paths[path] ??= {});
    if (operation.sandbox)
      item['servers'] = [
        { url: '/', description: 'Production (vk_live_ keys)' },
        { url: '/sandbox', description: 'Sandbox (vk_test_ keys)' },
      ];
    item[operation.method] = operationObject(operation);
  }
  const errorResponses: Record<string, JsonSchema> = {};
  for (const operation of operations) {
    for (const status of errorStatuses(operation)) {
      if (operation.responses[status] === undefined)
        errorResponses[errorResponseName(operation, status)] = responseObject(status, errorSchema(operation));
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'leadstream API',
      version: API_VERSION,
      description: [
        'Lead management for higher education: vendors submit prospective-student leads; leadstream validates, deduplicates, enriches and routes them.',
        '',
        '- **User API** (`/api/...`, session token from `/api/auth/login`): success bodies are `{data}` (lists `{data, meta}`), errors `{error:{code, message, details?}}`.',
        '- **Ingestion API** (`/api/leads/inbound`, `/api/v1/leads/...`, `/api/vendor-portal/...`, vendor API key): bodies `{success, ...}`, errors `{success:false, error, code, ...}`. The same paths under `/sandbox` take `vk_test_` keys.',
        '- **Funnel API** (`/api/vendor-funnel-links`, `/api/analytics/funnel/...`, session token or vendor API key): bodies `{success:true, data}`, errors `{success:false, error, details?, requestId?}` with `details` keyed by parameter.',
        '- Limited endpoints send `X-RateLimit-Limit`, `X-RateLimit-Remaining`, `X-RateLimit-Reset`, and `Retry-After` on 429.',
      ].join('\n'),
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    tags: [...new Set(operations.map((operation) => operation.tag))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        sessionToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description:
            'A session token from /api/auth/login or /api/auth/register (24 hours), or an OAuth access token.',
        },
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'A vendor API key: vk_live_… in production, vk_test_… under /sandbox.',
        },
      },
      schemas: componentSchemas,
      responses: Object.fromEntries(Object.entries(errorResponses).sort(([a], [b]) => a.localeCompare(b))),
      headers: HEADERS,
    },
  };
}

/** The operation a mounted route serves (`/sandbox` paths are the same operations). */
export function findOperation(method: string, routePath: string): Operation | undefined {
  const path = routePath.startsWith('/sandbox/') ? routePath.slice('/sandbox'.length) : routePath;
  return operations.find((operation) => operation.method === method.toLowerCase() && operation.path === path);
}

let validators: Map<string, ValidateFunction> | undefined;

function responseValidator(operation: Operation, status: number): ValidateFunction | undefined {
  if (!validators) validators = new Map();
  const key = `${operation.operationId} ${status}`;
  const cached = validators.get(key);
  if (cached) return cached;
  const content =
    operation.responses[status] ?? (errorStatuses(operation).includes(status) ? errorSchema(operation) : undefined);
  if (content === undefined || content === null || 'mediaType' in content) return undefined;
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  const validate = ajv.compile({ ...content, components: { schemas: componentSchemas } });
  validators.set(key, validate);
  return validate;
}

/**
 * What is wrong with an answer, measured against the document: an undocumented status, a body
 * where none is documented (or none where one is), or a body that does not match its schema.
 * Empty when the answer is what the document promises.
 */
export function responseProblems(operation: Operation, status: number, body: unknown): string[] {
  const documented =
    Object.keys(operation.responses).map(Number).includes(status) || errorStatuses(operation).includes(status);
  if (!documented)
    return [`status ${status} is not documented for ${operation.method.toUpperCase()} ${operation.path}`];
  const content = operation.responses[status];
  if (content === null)
    return body === undefined || body === null || body === '' ? [] : [`status ${status} is documented without a body`];
  if (content !== undefined && 'mediaType' in content) return [];
  const validate = responseValidator(operation, status);
  if (!validate || validate(body)) return [];
  return (validate.errors ?? []).map(
    (error) =>
      `${operation.method.toUpperCase()} ${operation.path} ${status}: ${error.instancePath || 'body'} ${error.message ?? ''}`,
  );
}

const requestValidators = new Map<string, ValidateFunction>();

/**
 * What is wrong with a request body, measured against the operation's request schema (the same
 * schema the document publishes): empty when the body is what the document asks for.
 */
export function requestProblems(operation: Operation, body: unknown): BodyProblem[] {
  if (!operation.requestBody || operation.form || operation.requestMediaType) return [];
  let validate = requestValidators.get(operation.operationId);
  if (!validate) {
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats(ajv);
    validate = ajv.compile({ ...operation.requestBody, components: { schemas: componentSchemas } });
    requestValidators.set(operation.operationId, validate);
  }
  return validate(body) ? [] : bodyProblems(validate.errors ?? []);
}
