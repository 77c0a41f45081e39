/**
 * The signed-in user's own account: who they are, and a new password (POST /api/auth/change-password).
 * A change ends every other session of the user; this tab goes on with the session the answer
 * carries. A refusal is shown in the form's words (./account-text.ts), naming fields by their labels.
 */
import { useState, type FormEvent } from 'react';
import { api, call, ConsoleError } from '../api/client';
import { currentSession, startSession } from '../api/session';
import { formText } from '../components/form-text';
import { useAction } from '../components/use-load';
import { Alert, Field, PageHeader } from '../components/ui';
import { accountErrorText } from './account-text';
import { PASSWORD_HINT } from './auth.pages';

export function AccountPage() {
  const session = currentSession();
  const action = useAction();
  const [done, setDone] = useState<string | null>(null);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    void action.run(async () => {
      setDone(null);
      const answer = await call(
        api.POST('/api/auth/change-password', {
          body: { current_password: formText(form, 'current_password'), new_password: formText(form, 'new_password') },
        }),
      ).catch((error: unknown) => {
        throw error instanceof ConsoleError ? new Error(accountErrorText(error.apiError)) : error;
      });
      const signedIn = currentSession();
      if (signedIn) startSession({ ...signedIn, token: answer.token, expiresAt: answer.expires_at });
      formElement.reset();
      setDone(answer.message);
    });
  };
  return (
    <section>
      <PageHeader title="Your account" />
      {session && (
        <p className="muted">
          Signed in as <bdi>{`${session.user.first_name} ${session.user.last_name}`}</bdi> (
          <bdi>{session.user.email}</bdi>), {session.user.role}.
        </p>
      )}
      <form className="card" aria-label="Change your password" onSubmit={submit}>
        <fieldset>
          <legend>Change your password</legend>
          <Alert>{action.error}</Alert>
          <Alert tone="success">{done}</Alert>
          <div className="grid">
            <Field
              label="Current password"
              name="current_password"
              type="password"
              required
              autoComplete="current-password"
            />
            <Field
              label="New password"
              name="new_password"
              type="password"
              required
              minLength={8}
              autoComplete="new-password"
              hint={PASSWORD_HINT}
            />
          </div>
          <p className="muted">Changing it signs you out everywhere else.</p>
        </fieldset>
        <button type="submit" className="primary" disabled={action.pending}>
          Change password
        </button>
      </form>
    </section>
  );
}
