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
  const [state, setState] = useState<{
    data: T | undefined;
    error: string | null;
    errorCode: string | null;
    loading: boolean;
  }>({ data: undefined, error: null, errorCode: null, loading: true });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let live = true;
    setState((previous) => ({ ...previous, loading: true }));
    load().then(
      (data) => live && setState({ data, error: null, errorCode: null, loading: false }),
      (error: unknown) =>
        live &&
        setState((previous) => ({
          data: previous.data,
          error: errorText(error),
          errorCode: error instanceof ConsoleError ? error.apiError.code : null,
          loading: false,
        })),
    );
    return () => {
      live = false;
    };
    // `load` is a new function every render; `key` says what it loads.
  }, [key, round]);
  const reload = useCallback(() => setRound((value) => value + 1), []);
  return { ...state, reload };
}

export interface Action {
  pending: boolean;
  error: string | null;
  /** Runs `action`; false when it failed (its error is then in `error`). */
  run: (action: () => Promise<void>) => Promise<boolean>;
  clear: () => void;
}

/** Runs an action (a form submit, a button) with its pending state and error. */
export function useAction(): Action {
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

/**
 * An action asked first (a delete, a revoke, a rotation): `confirmed(question, work)` shows
 * `question` in window.confirm and runs `work` as `action` only on OK.
 */
export function useConfirmedAction(action: Action): (question: string, work: () => Promise<void>) => void {
  const { run } = action;
  return useCallback(
    (question: string, work: () => Promise<void>) => {
      if (!window.confirm(question)) return;
      void run(work);
    },
    [run],
  );
}
