/**
 * Which leads the console shows: the live ones, or the sandbox (leads sent with vk_test_ keys to
 * /sandbox, kept 24 hours). The choice is the top bar's environment switch; it lasts as long as
 * the tab, like the session. In the sandbox the lead reads (GET /api/leads, /api/leads/:id and its
 * activity) carry `environment=sandbox` (added by the client, src/api/client.ts), and leads are
 * read-only: the user API changes live leads only. Other screens are the same in both.
 */
export type Environment = 'live' | 'sandbox';

const KEY = 'leadstream.environment';
type Listener = (environment: Environment) => void;
const listeners = new Set<Listener>();

/** The tab's sessionStorage (absent where this module is imported by node tests: permissions.ts uses it). */
const storage = (
  globalThis as {
    sessionStorage?: {
      getItem(key: string): string | null;
      setItem(key: string, value: string): void;
      removeItem(key: string): void;
    };
  }
).sessionStorage;

function read(): Environment {
  try {
    return storage?.getItem(KEY) === 'sandbox' ? 'sandbox' : 'live';
  } catch {
    return 'live';
  }
}

let current: Environment = read();

export function currentEnvironment(): Environment {
  return current;
}

export function setEnvironment(environment: Environment): void {
  if (environment === current) return;
  current = environment;
  if (environment === 'sandbox') storage?.setItem(KEY, environment);
  else storage?.removeItem(KEY);
  for (const listener of listeners) listener(environment);
}

export function onEnvironmentChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The reads of leads that take `environment`: the list, one lead and its activity. */
const LEAD_READS = /^\/api\/leads(?:\/(?!export$|bulk-)[^/]+(?:\/activity)?)?$/;

export function readsLeads(method: string, pathname: string): boolean {
  return method === 'GET' && LEAD_READS.test(pathname);
}
