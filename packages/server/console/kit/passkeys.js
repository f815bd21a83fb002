// @ts-check
// kit/passkeys.js - passkeys and invitations, the same in the console and the studio portal (issue 42): the
// invitation page a new person (or one whose account is reset) completes, "Sign in with a passkey", and a person's
// own passkeys. Each page hands `call(method, path, body)`, its API client without a session (console: /admin/v1,
// portal: /portal/v1) or with it. WebAuthn goes through @simplewebauthn/browser, served by the service itself.
import { useEffect, useState } from '/console/vendor/hooks.module.js';
import { useAction } from '/console/kit/hooks.js';
import { ConfirmButton, ErrorBox, Field, Table, html, time } from '/console/kit/ui.js';
import { QrCode } from '/console/qr.js';

/** The library's bundle sets globalThis.SimpleWebAuthnBrowser when first imported. */
async function webauthn() {
  await import('/console/vendor/simplewebauthn-browser.js');
  return globalThis.SimpleWebAuthnBrowser;
}

/** A new passkey from the browser's authenticator, for the service's creation options. */
export const createPasskey = async (optionsJSON) => (await webauthn()).startRegistration({ optionsJSON });

/** A passkey's answer to the service's sign-in challenge. */
export const passkeyAnswer = async (optionsJSON) => (await webauthn()).startAuthentication({ optionsJSON });

/** "Sign in with a passkey": no name needed; `done(session)` stores the session the service answers. */
export function PasskeySignIn({ call, done, onError }) {
  const signIn = useAction(async () => {
    onError?.(undefined);
    try {
      const options = await call('POST', '/session/passkey-options');
      const response = await passkeyAnswer(options);
      done(await call('POST', '/session/passkey', { response }));
    } catch (err) {
      onError?.(err);
      throw err;
    }
  });
  return html`<p class="passkey-signin">
    <button type="button" class="passkey-signin-button" disabled=${signIn.busy} onClick=${signIn.run}>
      Sign in with a passkey
    </button>
    ${onError ? null : html`<${ErrorBox} error=${signIn.error} />`}
  </p>`;
}

/** The TOTP way: the secret (QR code and text) from the service, confirmed by a code. */
function TotpSetup({ call, token, name, code, setCode }) {
  const start = useAction(() => call('POST', '/invitation/totp', { token }));
  useEffect(() => {
    start.run();
  }, []);
  return html`<div class="totp-setup">
    <${ErrorBox} error=${start.error} />
    ${
      start.result
        ? html`<div class="qr-row">
            <${QrCode} text=${start.result.totpUri} label=${`Authenticator QR code for ${name}`} />
            <div>
              <p>Scan the code with an authenticator app, or enter this secret in it:</p>
              <code class="secret-value totp-secret">${start.result.totpSecret}</code>
            </div>
          </div>`
        : null
    }
    <${Field}
      label="Code from the app"
      name="inviteTotp"
      value=${code}
      onInput=${setCode}
      required
      inputmode="numeric"
      hint="The 6-digit code the app shows now: it proves the app has the secret."
    />
  </div>`;
}

/**
 * The page of an invitation or reset link (#/invitation/<token>): what it is for, a password of the person's own and
 * a second factor (a passkey, or an authenticator app), then the recovery codes, shown once. The link is good once.
 */
export function InvitationPage({ token, call, title, signInHref }) {
  const about = useAction(() => call('POST', '/invitation', { token }));
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const [way, setWay] = useState('passkey');
  const [keyName, setKeyName] = useState('passkey');
  const [code, setCode] = useState('');
  useEffect(() => {
    about.run();
  }, []);
  const accept = useAction(async () => {
    if (password !== again) throw new Error('The two passwords differ.');
    const body = { token, password };
    if (way === 'passkey') {
      const options = await call('POST', '/invitation/passkey-options', { token });
      body.passkey = { name: keyName.trim() || 'passkey', response: await createPasskey(options) };
    } else body.totp = code.trim();
    return call('POST', '/invitation/accept', body);
  });
  const submit = (e) => {
    e.preventDefault();
    accept.run();
  };
  if (accept.result)
    return html`<main class="invitation accepted">
      <h1>${title}: you are set up, ${accept.result.name}</h1>
      <div class="secret" role="status">
        <p>
          <strong>Your recovery codes, shown only this once.</strong> Each signs you in once if you lose your passkey or
          phone: store them safely now.
        </p>
        <ul class="recovery-codes">
          ${accept.result.recoveryCodes.map((c) => html`<li><code>${c}</code></li>`)}
        </ul>
      </div>
      <p><a class="button signin-link" href=${signInHref}>Sign in</a></p>
    </main>`;
  if (about.error)
    return html`<main class="invitation refused">
      <h1>${title}</h1>
      <${ErrorBox} error=${about.error} />
      <p>Ask the person who invited you for a new link.</p>
    </main>`;
  if (!about.result) return html`<main class="invitation"><p class="muted">Opening the link…</p></main>`;
  const { name, kind, expiresAt } = about.result;
  return html`<main class="invitation">
    <h1>${title}: ${kind === 'reset' ? 'new sign-in for' : 'welcome'} ${name}</h1>
    <p class="muted">
      Choose your password and a second factor. Nobody else sees them. This link works once, until ${time(expiresAt)}.
    </p>
    <${ErrorBox} error=${accept.error} />
    <form class="stacked invitation-accept" onSubmit=${submit} autocomplete="off">
      <${Field}
        label="Password"
        name="invitePassword"
        type="password"
        value=${password}
        onInput=${setPassword}
        required
        minlength="12"
        maxlength="1024"
        autocomplete="new-password"
        hint="At least 12 characters."
      />
      <${Field}
        label="Password again"
        name="invitePasswordAgain"
        type="password"
        value=${again}
        onInput=${setAgain}
        required
        autocomplete="new-password"
      />
      <${Field}
        label="Second factor"
        name="inviteWay"
        as="select"
        options=${['passkey', 'authenticator app']}
        value=${way}
        onInput=${setWay}
        hint="A passkey also signs you in alone (this device's lock, or a security key)."
      />
      ${
        way === 'passkey'
          ? html`<${Field}
              label="Passkey name"
              name="inviteKeyName"
              value=${keyName}
              onInput=${setKeyName}
              maxlength="64"
            />`
          : html`<${TotpSetup} call=${call} token=${token} name=${name} code=${code} setCode=${setCode} />`
      }
      <button type="submit" disabled=${accept.busy}>Set up my account</button>
    </form>
  </main>`;
}

/** A signed-in person's own passkeys: the list, a new one (named), removal. */
export function PasskeysPanel({ call }) {
  const [rows, setRows] = useState(undefined);
  const [name, setName] = useState('');
  const load = useAction(async () => setRows((await call('GET', '/passkeys')).passkeys));
  useEffect(() => {
    load.run();
  }, []);
  const add = useAction(async () => {
    const options = await call('POST', '/passkeys/options');
    const response = await createPasskey(options);
    const added = await call('POST', '/passkeys', { name: name.trim() || 'passkey', response });
    setName('');
    await load.run();
    return added;
  });
  const remove = useAction(async (id) => {
    await call('DELETE', `/passkeys/${id}`);
    await load.run();
  });
  const submit = (e) => {
    e.preventDefault();
    add.run();
  };
  return html`<section class="passkeys">
    <h2>Passkeys</h2>
    <p class="muted">Each signs you in alone, or after your password instead of a code. Your recovery codes stay.</p>
    ${[load, add, remove].map((a) => html`<${ErrorBox} error=${a.error} />`)}
    ${
      rows
        ? html`<${Table}
            className="passkey-list"
            rowKey=${(k) => k.passkeyId}
            rows=${rows}
            empty="No passkeys yet."
            columns=${[
              { label: 'Name', key: 'name' },
              { label: 'Added', render: (k) => time(k.createdAt) },
              { label: 'Last used', render: (k) => time(k.lastUsedAt) },
              {
                label: '',
                render: (k) =>
                  html`<${ConfirmButton}
                    label="Remove"
                    question=${`Remove the passkey ${k.name}? It no longer signs you in.`}
                    confirmLabel="Yes, remove it"
                    onConfirm=${() => remove.run(k.passkeyId)}
                  />`,
              },
            ]}
          />`
        : null
    }
    <form class="inline-fields passkey-add" onSubmit=${submit}>
      <${Field} label="New passkey's name" name="passkeyName" value=${name} onInput=${setName} maxlength="64" />
      <div class="field">
        <label> </label>
        <button type="submit" disabled=${add.busy}>Add a passkey</button>
      </div>
    </form>
  </section>`;
}
