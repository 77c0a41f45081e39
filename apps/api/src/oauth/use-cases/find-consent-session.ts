/** The user signed in on the authorize page (the consent cookie's record), or null. */
import type { OAuthConsentRepository, UserRepository } from '@leadstream/dal';
import type { User } from '@leadstream/domain';

export interface FindConsentSessionDeps {
  consents: Pick<OAuthConsentRepository, 'find'>;
  users: Pick<UserRepository, 'findById'>;
  clock: () => Date;
}

export interface FindConsentSessionInput {
  /** The consent cookie, if the browser sent one. */
  cookie: string | undefined;
}

export interface ConsentSession {
  user: User;
  cookie: string;
  /** The CSRF token of the consent form. */
  csrfToken: string;
}

export async function findConsentSession(
  deps: FindConsentSessionDeps,
  input: FindConsentSessionInput,
): Promise<ConsentSession | null> {
  const { cookie } = input;
  if (!cookie || cookie.length > 100) return null;
  const session = await deps.consents.find(cookie, deps.clock());
  if (!session) return null;
  const user = await deps.users.findById(
    { organizationId: session.organization_id, environment: 'live' },
    session.user_id,
  );
  return user && user.status === 'active' ? { user, cookie, csrfToken: session.csrf_token } : null;
}
