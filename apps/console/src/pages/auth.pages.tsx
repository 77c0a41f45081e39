/** Signed-out pages: sign in, register, forgot and reset password, accept an invitation (the Authentication operations). */
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { api, call } from '../api/client';
import { startSession, takeEndReason, type Session } from '../api/session';
import { useAction } from '../components/use-load';
import { Alert, Field } from '../components/ui';
import { formText } from '../components/form-text';

export const PASSWORD_HINT = 'At least 8 characters with an uppercase letter, a lowercase letter and a digit.';

function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  useEffect(() => {
    document.title = `${title} · leadstream`;
  }, [title]);
  return (
    <main className="auth" id="main">
      <div className="auth-card">
        <div className="brand">
          <span aria-hidden="true">L</span> leadstream
        </div>
        <h1>{title}</h1>
        {children}
      </div>
    </main>
  );
}

function useAfterSignIn(): (session: Session) => void {
  const navigate = useNavigate();
  const location = useLocation();
  const from = (location.state as { from?: string } | null)?.from;
  return (session) => {
    startSession(session);
    void navigate(from && !from.startsWith('/sign-in') ? from : '/leads', { replace: true });
  };
}

const field = formText;

export function SignInPage() {
  const [notice] = useState(() => takeEndReason());
  const action = useAction();
  const signedIn = useAfterSignIn();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    void action.run(async () => {
      const session = await call(
        api.POST('/api/auth/login', { body: { email: field(form, 'email'), password: field(form, 'password') } }),
      );
      signedIn({ token: session.token, user: session.user, expiresAt: session.expires_at });
    });
  };
  return (
    <AuthCard title="Sign in">
      <Alert tone="info">{notice}</Alert>
      <Alert>{action.error}</Alert>
      <form onSubmit={submit}>
        <Field label="Email" name="email" type="email" autoComplete="username" required autoFocus />
        <Field label="Password" name="password" type="password" autoComplete="current-password" required />
        <button className="primary wide" type="submit" disabled={action.pending}>
          {action.pending ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <p className="links">
        <Link to="/forgot-password">Forgot your password?</Link>
        <Link to="/register">Create an organization</Link>
      </p>
    </AuthCard>
  );
}

export function RegisterPage() {
  const action = useAction();
  const signedIn = useAfterSignIn();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    void action.run(async () => {
      const body = {
        email: field(form, 'email'),
        password: field(form, 'password'),
        first_name: field(form, 'first_name'),
        last_name: field(form, 'last_name'),
        organization_name: field(form, 'organization_name'),
      };
      const registered = await call(api.POST('/api/auth/register', { body }));
      signedIn({ token: registered.token, user: registered.user, expiresAt: registered.expires_at ?? null });
    });
  };
  return (
    <AuthCard title="Create your organization">
      <p className="muted">You become its owner and can invite your team afterwards.</p>
      <Alert>{action.error}</Alert>
      <form onSubmit={submit}>
        <Field
          label="Organization name"
          name="organization_name"
          required
          minLength={2}
          maxLength={100}
          autoComplete="organization"
        />
        <div className="two">
          <Field label="First name" name="first_name" required minLength={2} maxLength={50} autoComplete="given-name" />
          <Field label="Last name" name="last_name" required minLength={2} maxLength={50} autoComplete="family-name" />
        </div>
        <Field label="Email" name="email" type="email" required autoComplete="email" />
        <Field
          label="Password"
          name="password"
          type="password"
          required
          minLength={8}
          autoComplete="new-password"
          hint={PASSWORD_HINT}
        />
        <button className="primary wide" type="submit" disabled={action.pending}>
          {action.pending ? 'Creating…' : 'Create organization'}
        </button>
      </form>
      <p className="links">
        <Link to="/sign-in">I already have an account</Link>
      </p>
    </AuthCard>
  );
}

export function ForgotPasswordPage() {
  const action = useAction();
  const [sent, setSent] = useState<string | null>(null);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    void action.run(async () => {
      const answer = await call(api.POST('/api/auth/forgot-password', { body: { email: field(form, 'email') } }));
      setSent(answer.message);
    });
  };
  return (
    <AuthCard title="Reset your password">
      <Alert>{action.error}</Alert>
      <Alert tone="success">{sent && `${sent} Check your mailbox for the link.`}</Alert>
      {!sent && (
        <form onSubmit={submit}>
          <Field label="Email" name="email" type="email" required autoComplete="email" autoFocus />
          <button className="primary wide" type="submit" disabled={action.pending}>
            Send the reset link
          </button>
        </form>
      )}
      <p className="links">
        <Link to="/sign-in">Back to sign in</Link>
      </p>
    </AuthCard>
  );
}

export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const action = useAction();
  const [done, setDone] = useState<string | null>(null);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    void action.run(async () => {
      const answer = await call(
        api.POST('/api/auth/reset-password', {
          body: { token: field(form, 'token'), new_password: field(form, 'new_password') },
        }),
      );
      setDone(answer.message);
    });
  };
  return (
    <AuthCard title="Choose a new password">
      <Alert>{action.error}</Alert>
      <Alert tone="success">{done}</Alert>
      {!done && (
        <form onSubmit={submit}>
          <Field
            label="Reset token"
            name="token"
            required
            defaultValue={params.get('token') ?? ''}
            hint="Filled in from the link of the email."
          />
          <Field
            label="New password"
            name="new_password"
            type="password"
            required
            minLength={8}
            autoComplete="new-password"
            hint={PASSWORD_HINT}
            autoFocus
          />
          <button className="primary wide" type="submit" disabled={action.pending}>
            Set the password
          </button>
        </form>
      )}
      <p className="links">
        <Link to="/sign-in">Sign in</Link>
      </p>
    </AuthCard>
  );
}

export function AcceptInvitePage() {
  const [params] = useSearchParams();
  const action = useAction();
  const signedIn = useAfterSignIn();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const optional = (name: string) => field(form, name).trim() || null;
    void action.run(async () => {
      const session = await call(
        api.POST('/api/auth/accept-invite', {
          body: {
            token: field(form, 'token'),
            password: field(form, 'password'),
            first_name: optional('first_name'),
            last_name: optional('last_name'),
          },
        }),
      );
      signedIn({ token: session.token, user: session.user, expiresAt: session.expires_at });
    });
  };
  return (
    <AuthCard title="Join your team">
      <Alert>{action.error}</Alert>
      <form onSubmit={submit}>
        <Field
          label="Invitation token"
          name="token"
          required
          defaultValue={params.get('token') ?? ''}
          hint="Filled in from the link of the invitation."
        />
        <div className="two">
          <Field
            label="First name (optional)"
            name="first_name"
            minLength={2}
            maxLength={50}
            autoComplete="given-name"
          />
          <Field
            label="Last name (optional)"
            name="last_name"
            minLength={2}
            maxLength={50}
            autoComplete="family-name"
          />
        </div>
        <Field
          label="Password"
          name="password"
          type="password"
          required
          minLength={8}
          autoComplete="new-password"
          hint={PASSWORD_HINT}
        />
        <button className="primary wide" type="submit" disabled={action.pending}>
          Join and sign in
        </button>
      </form>
    </AuthCard>
  );
}
