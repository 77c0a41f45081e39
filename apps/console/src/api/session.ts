/**
 * The signed-in session: the token of POST /api/auth/login (or register, accept-invite) and the
 * user it names, kept in sessionStorage so a reload keeps the user signed in and closing the tab
 * signs out. An answer 401 TOKEN_EXPIRED or TOKEN_INVALID to a request made with the token ends
 * the session, and the app goes back to the sign-in page.
 */
import type { Schemas } from '@leadstream/client';

export type SessionUser = Schemas['UserSummary'];

export interface Session {
  token: string;
  user: SessionUser;
  expiresAt: string | null;
}

const KEY = 'leadstream.session';
const ENDED_KEY = 'leadstream.session-ended';
type Listener = (session: Session | null) => void;
const listeners = new Set<Listener>();

function read(): Session | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    return raw ? (JSON.parse(raw) as Session) : null;
  } catch {
    return null;
  }
}

let current: Session | null = read();

export function currentSession(): Session | null {
  return current;
}

export function startSession(session: Session): void {
  current = session;
  sessionStorage.setItem(KEY, JSON.stringify(session));
  sessionStorage.removeItem(ENDED_KEY);
  for (const listener of listeners) listener(current);
}

/** Ends the session; `reason` is shown on the sign-in page (an expired token, for instance). */
export function endSession(reason?: string): void {
  current = null;
  sessionStorage.removeItem(KEY);
  if (reason) sessionStorage.setItem(ENDED_KEY, reason);
  for (const listener of listeners) listener(null);
}

/** Why the last session ended, once. */
export function takeEndReason(): string | null {
  const reason = sessionStorage.getItem(ENDED_KEY);
  sessionStorage.removeItem(ENDED_KEY);
  return reason;
}

export function onSessionChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
