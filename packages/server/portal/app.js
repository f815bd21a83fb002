// app.js - the portal shell: sign-in, top bar and the hash router (#/apps, #/apps/<id>/<tab>, #/keys).
import { render } from '/console/vendor/preact.module.js';
import { useEffect, useState } from '/console/vendor/hooks.module.js';
import { api, onUnauthorized, session } from '/portal/api.js';
import { ErrorBox, Field, html, useApi, when } from '/portal/ui.js';
import { AppPage } from '/portal/app-page.js';

function route() {
  const raw = location.hash.replace(/^#/, '') || '/apps';
  const [path, qs = ''] = raw.split('?');
  return { path, segments: path.split('/').filter(Boolean), query: Object.fromEntries(new URLSearchParams(qs)) };
}

function SignIn({ message }) {
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState(undefined);
  const [busy, setBusy] = useState(false);
  const submit = async (e) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    const second = code.trim();
    const factor = /^\d{6}$/.test(second) ? { totp: second } : { recoveryCode: second };
    try {
      session.signIn(
        await api('POST', '/session', { body: { name: name.trim(), password, ...factor }, signingIn: true }),
      );
      window.dispatchEvent(new Event('portal-signed-in'));
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };
  return html`<main class="signin">
    <h1>Studio portal</h1>
    ${message ? html`<p class="notice">${message}</p>` : null}
    <${ErrorBox} error=${error} />
    <form class="portal-signin" onSubmit=${submit} autocomplete="off">
      <${Field} label="Developer name" name="name" value=${name} onInput=${setName} required maxlength="64" />
      <${Field} label="Password" name="password" type="password" value=${password} onInput=${setPassword} required />
      <${Field}
        label="Authenticator code"
        name="totp"
        value=${code}
        onInput=${setCode}
        required
        inputmode="numeric"
        hint="The 6-digit code of your authenticator app, or one of your recovery codes."
      />
      <button type="submit" disabled=${busy}>Sign in</button>
    </form>
  </main>`;
}

function AppsPage() {
  const { data, error, loading } = useApi('/apps', {}, []);
  return html`<section>
    <h1>Your apps</h1>
    <${ErrorBox} error=${error} />
    ${loading && !data ? html`<p class="muted">Loading…</p>` : null}
    ${
      data
        ? html`<table>
            <thead>
              <tr>
                <th>App</th>
                <th>Name</th>
                <th>Region</th>
                <th>Status</th>
                <th>Secret rotated</th>
              </tr>
            </thead>
            <tbody>
              ${data.apps.map(
                (a) =>
                  html`<tr>
                    <td><a href=${`#/apps/${a.appId}/overview`}>${a.appId}</a></td>
                    <td>${a.name}</td>
                    <td>${a.region}</td>
                    <td>${a.status}</td>
                    <td>${when(a.secretRotatedAt)}</td>
                  </tr>`,
              )}
            </tbody>
          </table>`
        : null
    }
  </section>`;
}

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
  const [r, setRoute] = useState(route());
  useEffect(() => {
    const on = () => setRoute(route());
    window.addEventListener('hashchange', on);
    // The hash may have changed between the first render and this effect (a link followed while the page loads).
    on();
    return () => window.removeEventListener('hashchange', on);
  }, []);
  const signOut = async () => {
    await api('DELETE', '/session').catch(() => undefined);
    session.signOut();
    window.dispatchEvent(new Event('portal-signed-out'));
  };
  const [first, id, tab] = r.segments;
  let page;
  if (first === 'apps' && id) page = html`<${AppPage} appId=${id} tab=${tab || 'overview'} query=${r.query} />`;
  else if (first === 'keys') page = html`<${KeysPage} />`;
  else page = html`<${AppsPage} />`;
  return html`<div>
    <header class="topbar">
      <span class="brand">Studio portal</span>
      <nav>
        <a href="#/apps" class=${first !== 'keys' ? 'active' : ''}>Apps</a>
        <a href="#/keys" class=${first === 'keys' ? 'active' : ''}>Platform keys</a>
      </nav>
      <span class="who">as ${session.name()}</span>
      <button class="signout" type="button" onClick=${signOut}>Sign out</button>
    </header>
    <main data-route=${r.path}>${page}</main>
  </div>`;
}

function Root() {
  const [signedIn, setSignedIn] = useState(session.signedIn());
  const [message, setMessage] = useState(undefined);
  useEffect(() => {
    const inn = () => {
      setMessage(undefined);
      setSignedIn(true);
    };
    const out = () => setSignedIn(false);
    window.addEventListener('portal-signed-in', inn);
    window.addEventListener('portal-signed-out', out);
    const off = onUnauthorized(() => {
      setMessage('Your portal session has ended: sign in again.');
      setSignedIn(false);
    });
    return () => {
      window.removeEventListener('portal-signed-in', inn);
      window.removeEventListener('portal-signed-out', out);
      off();
    };
  }, []);
  return signedIn ? html`<${Shell} />` : html`<${SignIn} message=${message} />`;
}

render(html`<${Root} />`, document.getElementById('root'));
