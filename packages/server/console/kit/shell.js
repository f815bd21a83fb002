// @ts-check
// kit/shell.js - the shell the console and the studio portal share: the hash route, the signed-in state (sign-in and
// sign-out told as window events, a 401 from the API ending the session), the password sign-in form and the top bar.
// Each page gives its own API client, session store, names and links.
import { useEffect, useRef, useState } from '/console/vendor/hooks.module.js';
import { ErrorBox, Field, currentRoute, html } from '/console/kit/ui.js';

/** The current hash route ({ path, segments, query }), following hash changes; `home` when the hash is empty. */
export function useHashRoute(home = '/') {
  const [route, setRoute] = useState(currentRoute(home));
  useEffect(() => {
    const onHash = () => setRoute(currentRoute(home));
    window.addEventListener('hashchange', onHash);
    // The hash may have changed between the first render and this effect (a link followed while the page loads).
    onHash();
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  return route;
}

/** Tells the page's root that someone signed in (`name`: the page's event prefix, 'console' or 'portal'). */
export const announceSignIn = (name) => window.dispatchEvent(new Event(`${name}-signed-in`));

/** Tells the page's root that the session ended, with the sign-in screen's message. */
export const announceSignOut = (name, message) =>
  window.dispatchEvent(new CustomEvent(`${name}-signed-out`, { detail: message }));

/**
 * Whether this tab is signed in, and the sign-in screen's message: follows the page's sign-in and sign-out events,
 * and the API client's 401 during a session (`ended(error)` is the message then).
 */
export function useSignedIn({ name, initial, onUnauthorized, ended }) {
  const [signedIn, setSignedIn] = useState(initial);
  const [message, setMessage] = useState('');
  const wasSignedIn = useRef(signedIn);
  wasSignedIn.current = signedIn;
  useEffect(() => {
    // On the sign-in screen a 401 is the sign-in form's own error; during a session it ends the session.
    const off = onUnauthorized((err) => {
      if (!wasSignedIn.current) return;
      setMessage(ended(err));
      setSignedIn(false);
    });
    const onIn = () => {
      setMessage('');
      setSignedIn(true);
    };
    const onOut = (e) => {
      setMessage(e.detail ?? '');
      setSignedIn(false);
    };
    window.addEventListener(`${name}-signed-in`, onIn);
    window.addEventListener(`${name}-signed-out`, onOut);
    return () => {
      off();
      window.removeEventListener(`${name}-signed-in`, onIn);
      window.removeEventListener(`${name}-signed-out`, onOut);
    };
  }, []);
  return { signedIn, message };
}

/**
 * The name, password and second-factor form (a 6-digit authenticator code, or else a recovery code).
 * `signIn(body)` posts it and stores the session; its refusal goes to `onError` (or the form's own error box).
 */
export function PasswordSignIn({ className, nameLabel, signIn, onError }) {
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(undefined);
  const report = onError ?? setError;
  const submit = async (e) => {
    e.preventDefault();
    setBusy(true);
    report(undefined);
    const second = code.trim();
    const factor = /^\d{6}$/.test(second) ? { totp: second } : { recoveryCode: second };
    try {
      await signIn({ name: name.trim(), password, ...factor });
    } catch (err) {
      report(err);
      setBusy(false);
    }
  };
  return html`${onError ? null : html`<${ErrorBox} error=${error} />`}
    <form class=${className} onSubmit=${submit} autocomplete="off">
      <${Field} label=${nameLabel} name="name" value=${name} onInput=${setName} required maxlength="64" />
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
    </form>`;
}

/**
 * The top bar: the page's name, its sections ([href, label, active]), who is signed in (`who`: the whole phrase,
 * "as alice (admin)") and the sign-out button. Below 600 px the sections fold behind a menu button (console.css),
 * closed again when a section is picked.
 */
export function TopBar({ brand, links, who, onSignOut }) {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const close = () => setOpen(false);
    window.addEventListener('hashchange', close);
    return () => window.removeEventListener('hashchange', close);
  }, []);
  return html`<header class=${`topbar${open ? ' open' : ''}`}>
    <span class="brand">${brand}</span>
    <button
      type="button"
      class="menu-button"
      aria-expanded=${String(open)}
      aria-controls="topbar-nav"
      onClick=${() => setOpen(!open)}
    >
      Menu
    </button>
    <nav id="topbar-nav">
      ${links.map(([to, label, active]) => html`<a href=${to} class=${active ? 'active' : ''}>${label}</a>`)}
    </nav>
    <span class="who"
      ><span class="who-text" title=${who}>${who}</span>
      <button type="button" class="signout" onClick=${onSignOut}>Sign out</button></span
    >
  </header>`;
}
