// app.js - the portal shell: sign-in, top bar and the hash router (#/apps, #/apps/<id>/<tab>, #/keys).
import { render } from '/console/vendor/preact.module.js';
import { api, onUnauthorized, session } from '/portal/api.js';
import { ErrorBox, ListPage, html, useApi, when } from '/portal/ui.js';
import {
  PasswordSignIn,
  TopBar,
  announceSignIn,
  announceSignOut,
  useHashRoute,
  useSignedIn,
} from '/console/kit/shell.js';
import { SandboxBanner } from '/console/kit/sandbox-banner.js';
import { AppPage } from '/portal/app-page.js';

function SignIn({ message }) {
  const signIn = async (body) => {
    session.signIn(await api('POST', '/session', { body, signingIn: true }));
    announceSignIn('portal');
  };
  return html`<main class="signin">
    <h1>Studio portal</h1>
    ${message ? html`<p class="notice">${message}</p>` : null}
    <${PasswordSignIn} className="portal-signin" nameLabel="Developer name" signIn=${signIn} />
  </main>`;
}

/** The studio's apps, declared for the kit's ListPage. */
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
    { label: 'Secret rotated', render: (a) => when(a.secretRotatedAt) },
  ],
};

function KeysPage() {
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
  else page = html`<${ListPage} spec=${APP_LIST} />`;
  const links = [
    ['#/apps', 'Apps', first !== 'keys'],
    ['#/keys', 'Platform keys', first === 'keys'],
  ];
  return html`<div>
    <${SandboxBanner} loadSession=${() => api('GET', '/session')} />
    <${TopBar} brand="Studio portal" links=${links} who=${session.name()} onSignOut=${signOut} />
    <main data-route=${r.path}>${page}</main>
  </div>`;
}

function Root() {
  const { signedIn, message } = useSignedIn({
    name: 'portal',
    initial: session.signedIn(),
    onUnauthorized,
    ended: () => 'Your portal session has ended: sign in again.',
  });
  return signedIn ? html`<${Shell} />` : html`<${SignIn} message=${message} />`;
}

render(html`<${Root} />`, document.getElementById('root'));
