// @ts-check
// app.js - the console shell: sign-in screen, nav bar and the hash router that picks a page.
import { render } from '/console/vendor/preact.module.js';
import { useEffect, useState } from '/console/vendor/hooks.module.js';
import { api, onUnauthorized, session } from '/console/api.js';
import { ErrorBox, html, useAction, usePermission } from '/console/ui.js';
import { Fields, SubmitForm, useForm } from '/console/kit/form.js';
import { PasswordSignIn, TopBar, announceSignIn, announceSignOut, useHashRoute } from '/console/kit/shell.js';
import { pageRoot } from '/console/kit/root.js';
import { SandboxBanner } from '/console/kit/sandbox-banner.js';
import { AppsPage } from '/console/pages/apps.js';
import { ReportsPage } from '/console/pages/reports.js';
import { UsersPage } from '/console/pages/users.js';
import { OrdersPage } from '/console/pages/orders.js';
import { EventsPage } from '/console/pages/events.js';
import { KeysPage } from '/console/pages/keys.js';
import { ConsumptionPage } from '/console/pages/consumption.js';
import { AdminActionsPage } from '/console/pages/adminactions.js';
import { OverviewPage } from '/console/pages/overview.js';
import { PeoplePage } from '/console/pages/people.js';
import { PasskeySignIn, PasskeysPanel } from '/console/kit/passkeys.js';

const NAV = [
  ['overview', 'Overview'],
  ['apps', 'Apps'],
  ['reports', 'Reports'],
  ['users', 'Users'],
  ['orders', 'Orders'],
  ['supplements', 'Supplements'],
  ['consumption', 'Consumption'],
  ['events', 'Delivery'],
  ['keys', 'Platform keys'],
  ['people', 'People'],
  ['admin-actions', 'Audit'],
  ['account', 'Your account'],
];

const PAGES = {
  overview: OverviewPage,
  apps: AppsPage,
  reports: ReportsPage,
  users: UsersPage,
  orders: OrdersPage,
  supplements: OrdersPage,
  consumption: ConsumptionPage,
  events: EventsPage,
  keys: KeysPage,
  people: PeoplePage,
  'admin-actions': AdminActionsPage,
  account: AccountPage,
};

/** The admin API without a session (the sign-ins, an invitation's page) and with it. */
const publicCall = (method, path, body) => api(method, path, { body, signingIn: true });
const sessionCall = (method, path, body) => api(method, path, { body });

/** The signed-in operator's own account: its passkeys (a session's only: a token has no person behind it here). */
function AccountPage() {
  return html`<section class="account">
    <h1>Your account</h1>
    <p class="muted">Signed in as ${session.moderator()}.</p>
    <${PasskeysPanel} call=${sessionCall} />
  </section>`;
}

/** Sign-in with an operator account: name, password and the authenticator's code (or a recovery code). */
function AccountSignIn({ onError }) {
  const signIn = async (body) => {
    session.signInAccount(await api('POST', '/session', { body, signingIn: true }));
    announceSignIn('console');
  };
  return html`<${PasswordSignIn}
    className="account-signin"
    nameLabel="Operator name"
    signIn=${signIn}
    onError=${onError}
  />`;
}

/** How operators may sign in (GET /session/methods): { oidc, firstRun }; both false until it answers. */
function useSignInMethods() {
  const [methods, setMethods] = useState({ oidc: false, firstRun: false });
  useEffect(() => {
    api('GET', '/session/methods', { signingIn: true }).then(
      (m) => setMethods({ oidc: m.oidc === true, firstRun: m.firstRun === true }),
      () => undefined,
    );
  }, []);
  return methods;
}

/** "Sign in with your company account" when the service has OpenID Connect configured. */
function OidcSignIn({ oidc }) {
  if (!oidc) return null;
  return html`<p class="oidc-signin">
    <a class="button" href="/admin/v1/session/oidc">Sign in with your company account</a>
  </p>`;
}

/** The sign-in screen's notice after a refused OpenID Connect sign-in (the reason is in the audit trail only). */
const OIDC_REFUSED = new URLSearchParams(location.search).get('oidc') === 'refused';
const OIDC_SIGNED_IN = new URLSearchParams(location.search).get('oidc') === 'signed-in';

/** The break-glass sign-in: the admin token (or an operator API token) and the name moderation decisions record. */
const TOKEN_FIELDS = [
  {
    key: 'token',
    label: 'Admin token',
    type: 'password',
    required: true,
    hint: "The service's ADMIN_TOKEN (data/admin-token), or an operator API token. Kept in this tab only (sessionStorage).",
  },
  { key: 'moderator', label: 'Your name (recorded on moderation decisions)', maxlength: '100' },
];

function SignIn({ message }) {
  const methods = useSignInMethods();
  const [accountError, setAccountError] = useState(undefined);
  const [form, set] = useForm({ token: '', moderator: '' });
  const tokenSignIn = useAction(async () => {
    session.signIn(form.token.trim(), form.moderator.trim());
    try {
      await api('GET', '/platform-keys'); // a cheap call that proves the token
      announceSignIn('console');
    } catch (err) {
      session.signOut();
      throw err;
    }
  });
  return html`<main class="signin">
    <h1>Operator console</h1>
    ${message ? html`<p class="notice" role="status">${message}</p>` : null}
    ${
      OIDC_REFUSED
        ? html`<p class="error oidc-refused" role="alert">
            The sign-in with your company account was refused: no enabled operator account matches it, or the identity
            provider's answer did not check. Ask an admin to look at the audit trail.
          </p>`
        : null
    }
    <${ErrorBox} error=${accountError ?? tokenSignIn.error} />
    <${OidcSignIn} oidc=${methods.oidc} />
    <${AccountSignIn} onError=${setAccountError} />
    <${PasskeySignIn}
      call=${publicCall}
      onError=${setAccountError}
      done=${(me) => {
        session.signInAccount(me);
        announceSignIn('console');
      }}
    />
    ${
      methods.firstRun
        ? html`<p class="muted first-time">
            First time on this service? Nobody has an operator account yet: open the fold below and paste the
            break-glass admin token (<code>data/admin-token</code>; <code>npm start</code> prints where it is). The
            console then offers to create your admin account.
          </p>`
        : null
    }
    <details class="break-glass">
      <summary>Break-glass admin token or an operator API token</summary>
      <${SubmitForm} className="token-signin" onSubmit=${tokenSignIn.run} autocomplete="off">
        <${Fields} fields=${TOKEN_FIELDS} form=${form} set=${set} />
        <button type="submit" disabled=${tokenSignIn.busy}>Sign in</button>
      <//>
    </details>
  </main>`;
}

/** Who a bearer token signs in as: the break-glass ADMIN_TOKEN or an operator API token (gpo_), and the name noted. */
function tokenWho(token, name) {
  const kind = token.startsWith('gpo_') ? 'an operator API token' : 'the break-glass token';
  return `with ${kind}${name ? ` (noted as ${name})` : ''}`;
}

function Shell() {
  const route = useHashRoute();
  // The console opens on the overview; a moderator (no overview.read) opens on the report queue.
  const section = route.segments[0] ?? (session.role() === 'moderator' ? 'reports' : 'overview');
  const Page = PAGES[section];
  // The people pages are for the roles that may read operators (admin, support); the API refuses the others anyway.
  const mayReadPeople = usePermission('operators.read') !== false;
  // "Your account" (passkeys) is an account session's; a token has no person behind it.
  const shown = (/** @type {string[]} */ [key]) =>
    (key !== 'people' || mayReadPeople) && (key !== 'account' || Boolean(session.csrf()));
  const links = NAV.filter(shown).map(([key, label]) => [`#/${key}`, label, key === section]);
  const signOut = async () => {
    // An account's session ends on the service too (the cookie is cleared there).
    if (!session.token()) await api('DELETE', '/session').catch(() => undefined);
    session.signOut();
    announceSignOut('console', 'You signed out.');
  };
  const who = session.token()
    ? tokenWho(session.token(), session.givenName())
    : `as ${session.moderator()} (${session.role()})`;
  return html`<div>
    <${SandboxBanner} loadSession=${() => api('GET', '/session')} />
    <${TopBar} brand="Operator console" links=${links} who=${who} onSignOut=${signOut} />
    <main data-route=${route.path}>
      ${Page ? html`<${Page} key=${route.path} route=${route} />` : html`<div class="error" role="alert">Not found: there is no page ${route.path}.</div>`}
    </main>
  </div>`;
}

const Console = pageRoot({
  name: 'console',
  title: 'Operator console',
  call: publicCall,
  session,
  onUnauthorized,
  ended: (err) =>
    `The service ${err.viaToken ? 'refused the admin token' : 'ended the session'} (${err.code}: ${err.msg}). Sign in again.`,
  Shell,
  SignIn,
  useOnStart: () =>
    useEffect(() => {
      // Back from the OpenID Connect sign-in with a session cookie this tab does not know yet: take it up.
      if (session.signedIn() || !OIDC_SIGNED_IN) return;
      api('GET', '/session', { signingIn: true }).then(
        (me) => {
          if (me.via !== 'session' || !me.csrfToken) return;
          session.signInAccount(me);
          history.replaceState(null, '', '/console#/');
          announceSignIn('console');
        },
        () => undefined,
      );
    }, []),
});

render(html`<${Console} />`, /** @type {HTMLElement} */ (document.getElementById('root')));
