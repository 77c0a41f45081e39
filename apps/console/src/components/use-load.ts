import { useCallback, useEffect, useState } from 'react';
import { ConsoleError, errorText } from '../api/client';

export interface Loaded<T> {
  data: T | undefined;
  error: string | null;
  /** The API's error code (LEAD_PROCESSING, NOT_FOUND...). */
  errorCode: string | null;
  loading: boolean;
  reload: () => void;
}

/** Loads data when `key` changes (and on `reload`); a late answer for an older key is dropped. */
export function useLoad<T>(load: () => Promise<T>, key: string): Loaded<T> {
  const [state, setState] = useState<{ data: T | undefined; error: string | null; errorCode: string | null; loading: boolean }>({ data: undefined, error: null, errorCode: null, loading: true });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let live = true;
    setState((previous) => ({ ...previous, loading: true }));
    load().then(
      (data) => live && setState({ data, error: null, errorCode: null, loading: false }),
      (error: unknown) => live && setState((previous) => ({ data: previous.data, error: errorText(error), errorCode: error instanceof ConsoleError ? error.apiError.code : null, loading: false })),
    );
    return () => {
      live = false;
    };
    // `load` is a new function every render; `key` says what it loads.
  }, [key, round]);
  const reload = useCallback(() => setRound((value) => value + 1), []);
  return { ...state, reload };
}

/** Runs an action (a form submit, a button) with its pending state and error. */
export function useAction(): { pending: boolean; error: string | null; run: (action: () => Promise<void>) => Promise<boolean>; clear: () => void } {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = useCallback(async (action: () => Promise<void>) => {
    setPending(true);
    setError(null);
    try {
      await action();
      return true;
    } catch (caught) {
      setError(errorText(caught));
      return false;
    } finally {
      setPending(false);
    }
  }, []);
  return { pending, error, run, clear: () => setError(null) };
}
