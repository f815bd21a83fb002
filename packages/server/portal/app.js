// @ts-check
// app.js - the portal shell: sign-in, top bar and the hash router (#/apps, #/apps/<id>/<tab>, #/keys).
import { render } from '/console/vendor/preact.module.js';
import { api, onUnauthorized, session } from '/portal/api.js';
import { ErrorBox, ListPage, html, useApi, time } from '/portal/ui.js';
import { PasswordSignIn, TopBar, announceSignIn, announceSignOut, useHashRoute } from '/console/kit/shell.js';
import { pageRoot } from '/console/kit/root.js';
import { SandboxBanner } from '/console/kit/sandbox-banner.js';
import { AppPage } from '/portal/app-page.js';
import { PasskeySignIn, PasskeysPanel } from '/console/kit/passkeys.js';

/** The portal API without a session (the sign-ins, an invitation's page) and with it. */
const publicCall = (method, path, body) => api(method, path, { body, signingIn: true });
const sessionCall = (method, path, body) => api(method, path, { body });

function SignIn({ message }) {
  const signIn = async (body) => {
    session.signIn(await api('POST', '/session', { body, signingIn: true }));
    announceSignIn('portal');
  };
  return html`<main class="signin">
    <h1>Studio portal</h1>
    ${message ? html`<p class="notice">${message}</p>` : null}
    <${PasswordSignIn} className="portal-signin" nameLabel="Developer name" signIn=${signIn} />
    <${PasskeySignIn}
      call=${publicCall}
      done=${(me) => {
        session.signIn(me);
        announceSignIn('portal');
      }}
    />
  </main>`;
}

/** The studio's apps, declared for the kit's ListPage. */
/** @type {import('/console/kit/list.js').ListSpec<'/portal/v1/apps', 'apps'>} */
const APP_LIST = {
  title: 'Your apps',
  path: '/apps',
  rows: 'apps',
  rowKey: (a) => a.appId,
  rowLink: (a) => `#/apps/${a.appId}/overview`,
  what: 'apps',
  empty: 'No apps yet.',
  columns: [
    { label: 'App', key: 'appId' },
    { label: 'Name', key: 'name' },
    { label: 'Region', key: 'region' },
    { label: 'Status', key: 'status' },
    { label: 'Secret rotated', render: (a) => time(a.secretRotatedAt) },
  ],
};

function KeysPage() {
  /** @type {import('page-types').ReadOf<'/portal/v1/platform-keys'>} */
  const { data, error } = useApi('/platform-keys', {}, []);
  return html`<section>
    <h1>Platform public keys</h1>
    <p class="muted">
      The platform signs its calls and notifications to your game with these keys (5.3): check the Key-Id header against
      them.
    </p>
    <${ErrorBox} error=${error} />
    ${(data?.keys ?? []).map(
      (k) =>
        html`<div class="panel">
          <h3>${k.kid} <span class=${`key-${k.status}`}>${k.status}</span></h3>
          <pre class="pem">${k.publicKeyPem}</pre>
        </div>`,
    )}
  </section>`;
}

function Shell() {
  const r = useHashRoute('/apps');
  const signOut = async () => {
    await api('DELETE', '/session').catch(() => undefined);
    session.signOut();
    announceSignOut('portal');
  };
  const [first, id, tab] = r.segments;
  let page;
  if (first === 'apps' && id) page = html`<${AppPage} appId=${id} tab=${tab || 'overview'} query=${r.query} />`;
  else if (first === 'keys') page = html`<${KeysPage} />`;
  else if (first === 'account')
    page = html`<section class="account">
      <h1>Your account</h1>
      <${PasskeysPanel} call=${sessionCall} />
    </section>`;
  else page = html`<${ListPage} spec=${APP_LIST} />`;
  const links = [
    ['#/apps', 'Apps', first !== 'keys' && first !== 'account'],
    ['#/keys', 'Platform keys', first === 'keys'],
    ['#/account', 'Your account', first === 'account'],
  ];
  return html`<div>
    <${SandboxBanner} loadSession=${() => api('GET', '/session')} />
    <${TopBar} brand="Studio portal" links=${links} who=${`as ${session.name()}`} onSignOut=${signOut} />
    <main data-route=${r.path}>${page}</main>
  </div>`;
}

const Root = pageRoot({
  name: 'portal',
  title: 'Studio portal',
  call: publicCall,
  session,
  onUnauthorized,
  ended: () => 'Your portal session has ended: sign in again.',
  Shell,
  SignIn,
});

render(html`<${Root} />`, /** @type {HTMLElement} */ (document.getElementById('root')));
