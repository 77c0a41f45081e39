/**
 * The leadstream API client: openapi-fetch over the types generated from schemas/openapi.json,
 * so every path, parameter, body and answer is typed from the same document the service serves.
 * Beside each answer it gives the rate-limit headers and the request id, and it reads an error in
 * either convention (docs/api-conventions.md) as one `{status, code, message, details}`.
 *
 *   const api = createLeadstreamClient({ baseUrl: 'http://localhost:3000', token });
 *   const { data, error, response } = await api.GET('/api/leads', { params: { query: { status: 'new' } } });
 *   if (error) throw apiErrorOf(response.status, error);
 *   console.log(data.meta.total, rateLimitOf(response)?.remaining);
 *
 * Vendors use their API key the same way: `createLeadstreamClient({ baseUrl, apiKey })`.
 */
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { components, paths } from './api-types';

export type { components, paths, operations } from './api-types';

export type Schemas = components['schemas'];

export interface LeadstreamClientOptions {
  baseUrl: string;
  /** A session token (POST /api/auth/login) or an OAuth access token: the user API. */
  token?: string;
  /** A vendor API key (vk_live_…, or vk_test_… with a `/sandbox` baseUrl): the ingestion API. */
  apiKey?: string;
  fetch?: typeof globalThis.fetch;
}

/** The rate-limit headers of an answer (docs/api-conventions.md "Rate limits"); absent on endpoints without a limit. */
export interface RateLimit {
  limit: number;
  remaining: number;
  /** When the window resets (unix seconds). */
  reset: number;
  /** On 429: seconds to wait. */
  retryAfter?: number;
}

/** An error answer of either convention, read the same way. */
export interface ApiError {
  status: number;
  code: string;
  message: string;
  details: Array<{ field: string; message: string }>;
  retryAfter?: number;
}

export function rateLimitOf(response: Response): RateLimit | undefined {
  const limit = response.headers.get('x-ratelimit-limit');
  if (limit === null) return undefined;
  const retryAfter = response.headers.get('retry-after');
  return {
    limit: Number(limit),
    remaining: Number(response.headers.get('x-ratelimit-remaining') ?? 0),
    reset: Number(response.headers.get('x-ratelimit-reset') ?? 0),
    ...(retryAfter !== null ? { retryAfter: Number(retryAfter) } : {}),
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function detailsOf(value: unknown): ApiError['details'] {
  return Array.isArray(value)
    ? value.filter(isObject).map((detail) => ({ field: String(detail['field']), message: String(detail['message']) }))
    : [];
}

/**
 * The error of an answer in the user convention (`{error: {code, message, details}}`), the
 * ingestion and funnel convention (`{success: false, error, code?, details?}`) or OAuth's
 * (`{error, error_description}`).
 */
export function apiErrorOf(status: number, body: unknown): ApiError {
  if (isObject(body) && isObject(body['error'])) {
    const error = body['error'];
    const retryAfter = typeof error['retry_after'] === 'number' ? error['retry_after'] : undefined;
    return {
      status,
      code: String(error['code']),
      message: String(error['message']),
      details: detailsOf(error['details']),
      ...(retryAfter !== undefined ? { retryAfter } : {}),
    };
  }
  if (isObject(body) && typeof body['error'] === 'string') {
    const code = typeof body['code'] === 'string' ? body['code'] : String(body['error']);
    const message = typeof body['error_description'] === 'string' ? body['error_description'] : body['error'];
    const retryAfter = typeof body['retry_after'] === 'number' ? body['retry_after'] : undefined;
    return {
      status,
      code,
      message,
      details: detailsOf(body['details']),
      ...(retryAfter !== undefined ? { retryAfter } : {}),
    };
  }
  return {
    status,
    code: `HTTP_${status}`,
    message: typeof body === 'string' && body ? body : `HTTP ${status}`,
    details: [],
  };
}

type LeadstreamFetchClient = Client<paths>;

/** The openapi-fetch client with leadstream's credentials; `lastRateLimit` follows every answer. */
export interface LeadstreamClient extends LeadstreamFetchClient {
  /** The rate-limit headers of the most recent answer, when it had them. */
  readonly lastRateLimit: RateLimit | undefined;
}

export function createLeadstreamClient(options: LeadstreamClientOptions): LeadstreamClient {
  const client = createClient<paths>({ baseUrl: options.baseUrl, ...(options.fetch ? { fetch: options.fetch } : {}) });
  const credential = options.token ?? options.apiKey;
  let lastRateLimit: RateLimit | undefined;
  const middleware: Middleware = {
    onRequest({ request }) {
      if (credential && !request.headers.has('authorization'))
        request.headers.set('authorization', `Bearer ${credential}`);
      return request;
    },
    onResponse({ response }) {
      lastRateLimit = rateLimitOf(response);
      return response;
    },
  };
  client.use(middleware);
  return Object.defineProperty(client, 'lastRateLimit', {
    get: () => lastRateLimit,
    enumerable: true,
  }) as LeadstreamClient;
}
