import { Type, type Static } from '@sinclair/typebox';
import { Text } from '../http/schemas.js';
import { IdParam } from '../http/route-params.js';

export const StoreParams = Type.Object({
  appId: IdParam(),
  store: Type.Union([Type.Literal('apple'), Type.Literal('google')]),
});

const Pem = (description: string) => Text({ minLength: 1, maxLength: 32_768, description });

/** PUT .../store-settings/apple: the whole App Store settings of an app; a secret omitted keeps the stored one. */
export const AppleSettingsBody = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean({ description: 'Whether the store is used for this app (default true).' })),
    bundleId: Text({
      minLength: 3,
      maxLength: 155,
      description: 'Bundle identifier (reverse-DNS, App Store Connect).',
    }),
    appAppleId: Type.Optional(
      Type.Union([
        Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: "The app's Apple ID (numeric)." }),
        Type.Null(),
      ]),
    ),
    environment: Type.Union([Type.Literal('Production'), Type.Literal('Sandbox')]),
    rootCertificatesPem: Type.Optional(
      Type.Union([
        Pem('Trusted root certificates (PEM); null: Apple Root CA - G3 shipped with the platform.'),
        Type.Null(),
      ]),
    ),
    apiIssuerId: Type.Optional(
      Type.Union([
        Text({ minLength: 1, maxLength: 64, description: 'App Store Server API issuer id (UUID).' }),
        Type.Null(),
      ]),
    ),
    apiKeyId: Type.Optional(
      Type.Union([Text({ minLength: 1, maxLength: 32, description: 'App Store Server API key id.' }), Type.Null()]),
    ),
    apiPrivateKey: Type.Optional(
      Type.Union([
        Pem('The .p8 key (PKCS#8 PEM, EC P-256). Omitted: the stored key is kept; null: removed. Never answered.'),
        Type.Null(),
      ]),
    ),
  },
  { additionalProperties: false },
);
export type AppleSettingsBody = Static<typeof AppleSettingsBody>;

/** PUT .../store-settings/google: the whole Google Play settings of an app; a secret omitted keeps the stored one. */
export const GoogleSettingsBody = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean({ description: 'Whether the store is used for this app (default true).' })),
    packageName: Text({ minLength: 3, maxLength: 255, description: 'Package name (reverse-DNS, Play Console).' }),
    serviceAccountJson: Type.Optional(
      Type.Union([
        Text({
          minLength: 2,
          maxLength: 32_768,
          description:
            'The service account key file (JSON text). Omitted: the stored one is kept; null: removed. Never answered.',
        }),
        Type.Null(),
      ]),
    ),
    pushAudience: Type.Optional(
      Type.Union([
        Text({ minLength: 1, maxLength: 2048, description: "Audience of the push subscription's OIDC token." }),
        Type.Null(),
      ]),
    ),
    pushServiceAccountEmail: Type.Optional(
      Type.Union([
        Text({ minLength: 3, maxLength: 320, description: 'Service account the push subscription authenticates as.' }),
        Type.Null(),
      ]),
    ),
  },
  { additionalProperties: false },
);
export type GoogleSettingsBody = Static<typeof GoogleSettingsBody>;

const Times = {
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
};

export const AppleSettingsView = Type.Object({
  enabled: Type.Boolean(),
  bundleId: Type.String(),
  appAppleId: Type.Union([Type.Integer(), Type.Null()]),
  environment: Type.Union([Type.Literal('Production'), Type.Literal('Sandbox')]),
  rootCertificatesPem: Type.Union([Type.String(), Type.Null()], {
    description: 'Public certificates, not secret; null: Apple Root CA - G3.',
  }),
  apiIssuerId: Type.Union([Type.String(), Type.Null()]),
  apiKeyId: Type.Union([Type.String(), Type.Null()]),
  apiKeySet: Type.Boolean({ description: 'Whether a .p8 key is stored (the key itself is never answered).' }),
  ...Times,
});
export type AppleSettingsView = Static<typeof AppleSettingsView>;

export const GoogleSettingsView = Type.Object({
  enabled: Type.Boolean(),
  packageName: Type.String(),
  serviceAccountEmail: Type.Union([Type.String(), Type.Null()], {
    description: 'client_email of the stored service account key (the key itself is never answered).',
  }),
  serviceAccountSet: Type.Boolean(),
  pushAudience: Type.Union([Type.String(), Type.Null()]),
  pushServiceAccountEmail: Type.Union([Type.String(), Type.Null()]),
  ...Times,
});
export type GoogleSettingsView = Static<typeof GoogleSettingsView>;

export const StoreSettingsView = Type.Object({
  appId: Type.Integer(),
  apple: Type.Union([AppleSettingsView, Type.Null()]),
  google: Type.Union([GoogleSettingsView, Type.Null()]),
  notificationUrls: Type.Object(
    {
      apple: Type.String({
        description: 'App Store Server Notifications V2 URL (App Store Connect > App Information).',
      }),
      google: Type.String({ description: 'Push endpoint of the Real-time developer notifications subscription.' }),
    },
    { description: 'What a studio pastes into App Store Connect and the Play Console.' },
  ),
});
export type StoreSettingsView = Static<typeof StoreSettingsView>;
