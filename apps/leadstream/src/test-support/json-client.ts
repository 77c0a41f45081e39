/** A JSON call against a running server, as the black-box suites make them. */
export interface JsonResponse {
  status: number;
  body: Record<string, unknown>;
}

export type JsonCall = (method: string, path: string, body?: unknown, token?: string) => Promise<JsonResponse>;

/** Calls `base + path` with an optional JSON body and bearer token; an empty answer reads as {}. */
export function jsonClient(base: () => string): JsonCall {
  return async (method, path, body, token) => {
    const response = await fetch(`${base()}${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  };
}
