/**
 * The console's API client: the typed client of libs/client (openapi-fetch over the types
 * generated from the OpenAPI document) on the same origin, so no CORS. The session token is added
 * to every request, and `environment=sandbox` to the lead reads while the environment switch is on
 * the sandbox; a 401 TOKEN_EXPIRED / TOKEN_INVALID ends the session.
 */
import { apiErrorOf, createLeadstreamClient, type ApiError } from '@leadstream/client';
import { currentEnvironment, readsLeads } from './environment';
import { apiErrorText } from './error-text';
import { currentSession, endSession } from './session';

export type { ApiError };

export const api = createLeadstreamClient({ baseUrl: window.location.origin });

api.use({
  onRequest({ request }) {
    const session = currentSession();
    if (session && !request.headers.has('authorization'))
      request.headers.set('authorization', `Bearer ${session.token}`);
    // The environment switch: lead reads look at the sandbox (src/api/environment.ts).
    const url = new URL(request.url);
    if (currentEnvironment() === 'sandbox' && readsLeads(request.method, url.pathname)) {
      url.searchParams.set('environment', 'sandbox');
      return new Request(url, request);
    }
    return request;
  },
  async onResponse({ request, response }) {
    if (response.status === 401 && request.headers.has('authorization') && currentSession()) {
      const body: unknown = await response
        .clone()
        .json()
        .catch(() => null);
      const code = apiErrorOf(401, body).code;
      if (code === 'TOKEN_EXPIRED') endSession('Your session expired. Please sign in again.');
      else if (code === 'TOKEN_INVALID') endSession('Your session is no longer valid. Please sign in again.');
    }
    return response;
  },
});

/** An error to show: the API's, or a network failure. */
export class ConsoleError extends Error {
  constructor(
    readonly apiError: ApiError,
    /** The answer's body, for what the common error shape leaves out (a duplicate's `duplicate_of`). */
    readonly body?: unknown,
  ) {
    super(apiError.message);
  }
}

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The data of an answer, or a thrown ConsoleError with the API's code, message and details. */
export async function call<T>(request: Promise<Answer<T>>): Promise<T> {
  let answer: Answer<T>;
  try {
    answer = await request;
  } catch (cause) {
    throw new ConsoleError({
      status: 0,
      code: 'NETWORK',
      message: `The service did not answer (${String(cause)}).`,
      details: [],
    });
  }
  if (answer.error !== undefined || !answer.response.ok)
    throw new ConsoleError(apiErrorOf(answer.response.status, answer.error), answer.error);
  return answer.data as T;
}

export function errorText(error: unknown): string {
  if (error instanceof ConsoleError) return apiErrorText(error.apiError);
  return error instanceof Error ? error.message : String(error);
}

/** Fetches a file with the session token (an <a href> cannot send it) and saves it. */
export async function downloadFile(path: string, fileName: string): Promise<void> {
  const session = currentSession();
  const response = await fetch(path, { headers: session ? { authorization: `Bearer ${session.token}` } : {} });
  if (!response.ok) throw new ConsoleError(apiErrorOf(response.status, await response.json().catch(() => null)));
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
