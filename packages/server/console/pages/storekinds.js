// @ts-check
// pages/storekinds.js - what the App stores panel (pages/stores.js) knows of each store: its form's fields (declared
// for the kit's Fields), the PUT body made from them (docs/stores.md#per-app-store-settings) and the rows showing the
// settings the API answered. The secret (.p8 key, service account JSON) is never in a form's initial values: empty keeps the stored one, "remove" sends null.
import { html, show } from '/console/ui.js';

const orNull = (s) => (s.trim() ? s.trim() : null);
/** PEM text as pasted (not trimmed: the stored override comes back unchanged on enable/disable); blank: null. */
const pemOrNull = (s) => (s.trim() ? s : null);
/** A digits-only Apple ID as a number; anything else goes to the API as typed, which says what is wrong with it. */
const appleIdOf = (s) => (s.trim() === '' ? null : /^\d{1,15}$/.test(s.trim()) ? Number(s.trim()) : s.trim());

/** The form of a store: enabled, its `texts` as stored (empty when none), and the secret (never filled in) with "remove". */
const storeForm = (s, texts) => ({
  enabled: s?.enabled ?? true,
  ...Object.fromEntries(texts.map((key) => [key, s?.[key] ?? ''])),
  secret: '',
  removeSecret: false,
});

/** The body's part of those: enabled, and the secret: empty keeps the stored one (left out), "remove" sends null. */
function storeBody(f, secretKey) {
  const body = { enabled: f.enabled };
  if (f.removeSecret) body[secretKey] = null;
  else if (f.secret.trim()) body[secretKey] = f.secret;
  return body;
}

export const APPLE = {
  store: 'apple',
  title: 'App Store (channel 1)',
  secretLabel: 'API key (.p8)',
  secretSet: (s) => s.apiKeySet,
  form: (s) => ({
    ...storeForm(s, ['bundleId', 'rootCertificatesPem', 'apiIssuerId', 'apiKeyId']),
    appAppleId: s?.appAppleId == null ? '' : String(s.appAppleId),
    environment: s?.environment ?? 'Production',
  }),
  body: (f) => ({
    bundleId: f.bundleId.trim(),
    appAppleId: appleIdOf(f.appAppleId),
    environment: f.environment,
    rootCertificatesPem: pemOrNull(f.rootCertificatesPem),
    apiIssuerId: orNull(f.apiIssuerId),
    apiKeyId: orNull(f.apiKeyId),
    ...storeBody(f, 'apiPrivateKey'),
  }),
  rows: (s) => [
    ['Bundle ID', s.bundleId],
    ['App Apple ID', show(s.appAppleId)],
    ['Environment', s.environment],
    [
      'Root certificates',
      s.rootCertificatesPem
        ? html`<details>
            <summary>override (PEM)</summary>
            <pre>${s.rootCertificatesPem}</pre>
          </details>`
        : 'Apple Root CA - G3 (shipped with the platform)',
    ],
    ['API issuer ID', show(s.apiIssuerId)],
    ['API key ID', show(s.apiKeyId)],
    ['API key (.p8)', s.apiKeySet ? 'stored (never shown)' : 'none'],
  ],
  fields: [
    { key: 'bundleId', name: 'appleBundleId', label: 'Bundle ID', required: true },
    {
      key: 'appAppleId',
      name: 'appleAppAppleId',
      label: 'App Apple ID (required in Production)',
      inputmode: 'numeric',
    },
    {
      key: 'environment',
      name: 'appleEnvironment',
      label: 'Environment',
      as: 'select',
      options: ['Production', 'Sandbox'],
    },
    {
      key: 'rootCertificatesPem',
      name: 'appleRootCertificatesPem',
      label: 'Root certificates (PEM override)',
      as: 'textarea',
      rows: '4',
      spellcheck: 'false',
      hint: 'Empty: Apple Root CA - G3, shipped with the platform. Only for tests or a proxy of the store.',
    },
    { key: 'apiIssuerId', name: 'appleApiIssuerId', label: 'API issuer ID' },
    { key: 'apiKeyId', name: 'appleApiKeyId', label: 'API key ID' },
  ],
};

export const GOOGLE = {
  store: 'google',
  title: 'Google Play (channel 2)',
  secretLabel: 'Service account key (JSON)',
  secretSet: (s) => s.serviceAccountSet,
  form: (s) => storeForm(s, ['packageName', 'pushAudience', 'pushServiceAccountEmail']),
  body: (f) => ({
    packageName: f.packageName.trim(),
    pushAudience: orNull(f.pushAudience),
    pushServiceAccountEmail: orNull(f.pushServiceAccountEmail),
    ...storeBody(f, 'serviceAccountJson'),
  }),
  rows: (s) => [
    ['Package name', s.packageName],
    ['Service account', s.serviceAccountSet ? `stored (never shown): ${s.serviceAccountEmail ?? ''}` : 'none'],
    ['Push audience', show(s.pushAudience)],
    ['Push service account', show(s.pushServiceAccountEmail)],
  ],
  fields: [
    { key: 'packageName', name: 'googlePackageName', label: 'Package name', required: true },
    {
      key: 'pushAudience',
      name: 'googlePushAudience',
      label: "Push audience (the subscription's OIDC audience)",
      hint: "As set on the push subscription (Pub/Sub's default: the Google Play notification URL above). Needed, with the email, to take notifications.",
    },
    { key: 'pushServiceAccountEmail', name: 'googlePushServiceAccountEmail', label: 'Push service account email' },
  ],
};
