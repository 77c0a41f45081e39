/**
 * The HTML of the authorize page (docs/decisions.md "OAuth 2.0"): sign-in, consent and error. Plain
 * server-rendered pages with inline CSS and no scripts or external assets, so the
 * Content-Security-Policy can forbid everything else. Every value from a request or the store goes
 * through `escape`.
 */
import { OAUTH_SCOPE_DESCRIPTIONS, type OAuthScope } from '@leadstream/domain';

export function escape(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** The authorization request travels through the forms as hidden fields. */
export type HiddenFields = Record<string, string>;

function hidden(fields: HiddenFields): string {
  return Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${escape(name)}" value="${escape(value)}">`)
    .join('\n        ');
}

/**
 * The console's look (apps/console/src/styles.css: palette, 15px system font, the sign-in card,
 * fields, buttons, alerts), inlined because the CSP allows no stylesheet from elsewhere.
 */
const STYLE = `
  :root { color-scheme: light dark; --bg: #f4f6f9; --card: #fff; --text: #1b2330; --muted: #5b6678; --line: #dde2ea;
    --accent: #2453c7; --accent-text: #fff; --danger: #b42318; --danger-bg: #fdecea; --focus: #ffb020; }
  @media (prefers-color-scheme: dark) {
    :root { --bg: #0f141b; --card: #18202b; --text: #e8edf4; --muted: #a3afc0; --line: #2c3746;
      --accent: #6d95ff; --accent-text: #0b1220; --danger: #ff8a80; --danger-bg: #3a1d1b; }
  }
  * { box-sizing: border-box; }
  body { margin: 0; min-height: 100vh; display: flex; align-items: center; justify-content: center; padding: 1.5rem;
    background: var(--bg); color: var(--text); font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
  main { width: 100%; max-width: 30rem; background: var(--card); border: 1px solid var(--line); border-radius: 12px;
    padding: 2rem; box-shadow: 0 8px 24px rgb(0 0 0 / 8%); }
  .brand { display: flex; align-items: center; gap: .5rem; font-weight: 700; letter-spacing: .02em; color: var(--muted); margin-bottom: 1rem; }
  .brand span { display: inline-grid; place-items: center; width: 1.75rem; height: 1.75rem; border-radius: 6px; background: var(--accent); color: var(--accent-text); }
  h1 { font-size: 1.4rem; line-height: 1.3; margin: 0 0 .75rem; }
  h2 { font-size: 1.05rem; margin: 1.5rem 0 .5rem; }
  p { margin: .5rem 0; }
  code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .85em; }
  .muted { color: var(--muted); }
  .account { margin: 1rem 0; padding: .5rem 1rem; border: 1px solid var(--line); border-radius: 8px; }
  .account dt { color: var(--muted); float: left; clear: left; width: 7rem; }
  .account dd { margin: 0 0 .15rem 7rem; overflow-wrap: anywhere; }
  ul.scopes { list-style: none; margin: 0; padding: 0; border: 1px solid var(--line); border-radius: 8px; }
  ul.scopes li { padding: .5rem 1rem; border-top: 1px solid var(--line); }
  ul.scopes li:first-child { border-top: 0; }
  ul.scopes code { display: block; color: var(--muted); }
  label { display: block; font-weight: 600; font-size: .9rem; margin: .75rem 0 .25rem; }
  input[type=email], input[type=password] { width: 100%; min-width: 0; padding: .45rem .6rem; font: inherit; color: inherit;
    background: var(--card); border: 1px solid var(--muted); border-radius: 6px; }
  .actions { display: flex; gap: .5rem; justify-content: flex-end; margin-top: 1.25rem; }
  button { font: inherit; padding: .45rem .9rem; border-radius: 6px; cursor: pointer; border: 1px solid var(--muted); background: transparent; color: var(--text); }
  button:hover { border-color: var(--accent); }
  button.primary { background: var(--accent); border-color: var(--accent); color: var(--accent-text); font-weight: 600; }
  .wide { width: 100%; }
  :focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
  .alert { margin: .75rem 0; padding: .6rem 1rem; border-radius: 6px; background: var(--danger-bg); color: var(--danger); }
  .note { margin-top: 1.25rem; font-size: .9rem; color: var(--muted); }
`;

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="referrer" content="no-referrer">
  <title>${escape(title)} · LeadStream</title>
  <style>${STYLE}</style>
</head>
<body>
  <main>
    <div class="brand" aria-hidden="true"><span>L</span> leadstream</div>
    ${body}
  </main>
</body>
</html>
`;
}

export function signInPage(input: {
  clientName: string;
  fields: HiddenFields;
  email?: string;
  error?: string;
}): string {
  return layout(
    `Sign in to continue to ${input.clientName}`,
    `<h1>Sign in to continue to ${escape(input.clientName)}</h1>
    <p class="muted">${escape(input.clientName)} is asking for access to your LeadStream account. Sign in to review the request.</p>
    ${input.error ? `<p class="alert" role="alert">${escape(input.error)}</p>` : ''}
    <form method="post" action="/oauth/authorize/login">
        ${hidden(input.fields)}
        <label for="email">Email</label>
        <input id="email" name="email" type="email" autocomplete="username" required value="${escape(input.email ?? '')}"${input.email ? '' : ' autofocus'}>
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required${input.email ? ' autofocus' : ''}>
        <div class="actions"><button type="submit" class="primary wide">Sign in</button></div>
    </form>`,
  );
}

export function consentPage(input: {
  clientName: string;
  redirectHost: string;
  email: string;
  organizationName: string;
  role: string;
  scopes: OAuthScope[];
  fields: HiddenFields;
  csrfToken: string;
}): string {
  const scopes = input.scopes
    .map((scope) => `<li>${escape(OAUTH_SCOPE_DESCRIPTIONS[scope])}<code>${escape(scope)}</code></li>`)
    .join('\n      ');
  return layout(
    `Authorize ${input.clientName}`,
    `<h1>${escape(input.clientName)} wants to access your LeadStream account</h1>
    <dl class="account">
      <dt>Signed in as</dt><dd>${escape(input.email)}</dd>
      <dt>Organization</dt><dd>${escape(input.organizationName)}</dd>
      <dt>Role</dt><dd>${escape(input.role)}</dd>
    </dl>
    <h2 id="scopes-heading">This will allow ${escape(input.clientName)} to:</h2>
    <ul class="scopes" aria-labelledby="scopes-heading">
      ${scopes}
    </ul>
    <form method="post" action="/oauth/authorize/decision">
        ${hidden(input.fields)}
        <input type="hidden" name="csrf_token" value="${escape(input.csrfToken)}">
        <div class="actions">
          <button type="submit" name="decision" value="deny" class="secondary">Deny</button>
          <button type="submit" name="decision" value="approve" class="primary">Approve</button>
        </div>
    </form>
    <p class="note">Approving sends you back to <strong>${escape(input.redirectHost)}</strong>. Only approve applications you trust; access ends when the application is deleted from your organization.</p>`,
  );
}

export function errorPage(input: { title: string; message: string }): string {
  return layout(
    input.title,
    `<h1>${escape(input.title)}</h1>
    <p class="alert" role="alert">${escape(input.message)}</p>
    <p class="muted">The application that sent you here may be misconfigured. You can close this page; nothing was shared.</p>`,
  );
}
