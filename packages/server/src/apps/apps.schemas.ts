import { Type, type Static } from '@sinclair/typebox';
import { Text } from '../http/schemas.js';

/** An absolute http(s) URL; the no-query / no-fragment rule of 4.7 is checked in apps.service.ts. */
const Url = (description: string) => Text({ minLength: 1, maxLength: 2048, description });

/** serverId -> URL. A key that is no server id is refused here too, not only by apps.service.ts (which the CLI goes through). */
export const CallbackUrls = Type.Record(Type.String({ pattern: '^[A-Za-z0-9_.:-]{1,64}$' }), Url('Callback URL'), {
  description:
    'serverId (1-64 of A-Z a-z 0-9 _ . : -) -> payment callback URL (4.7); the key `default` is the fallback.',
  maxProperties: 100,
  additionalProperties: false,
});

export const Region = Type.Union([Type.Literal('overseas'), Type.Literal('mainland')]);

const AppFields = {
  name: Text({ minLength: 1, maxLength: 100 }),
  region: Region,
  callbackUrls: CallbackUrls,
  roleQueryUrl: Type.Union([Url('Role query URL (4.8).'), Type.Null()]),
  roleListUrl: Type.Union([Url('Role list URL (4.9).'), Type.Null()]),
  preOrderCheckUrl: Type.Union([Url('Pre-order check URL (4.10).'), Type.Null()]),
  cancellationCallbackUrl: Type.Union([Url('Account cancellation callback URL (6).'), Type.Null()]),
  partnerUrl: Type.Union([Url('Partner URL that consumption notices (4.6) are forwarded to.'), Type.Null()]),
  allowedIps: Type.Array(Text({ minLength: 1, maxLength: 64 }), {
    maxItems: 200,
    description: 'Caller IPs/CIDRs (v4, v6) allowed to use the open id lookup (4.4).',
  }),
  unionIdEnabled: Type.Boolean({ description: 'Whether profile answers carry unionId (2.2).' }),
  trustTraceparent: Type.Boolean({
    description:
      "Tracing: continue the game's own traceparent on its signed requests (its forwarded addresses stay untrusted). Default false.",
  }),
};

/** The settable fields other than the name, optional in both create and patch. */
const OptionalAppFields = {
  region: Type.Optional(AppFields.region),
  callbackUrls: Type.Optional(AppFields.callbackUrls),
  roleQueryUrl: Type.Optional(AppFields.roleQueryUrl),
  roleListUrl: Type.Optional(AppFields.roleListUrl),
  preOrderCheckUrl: Type.Optional(AppFields.preOrderCheckUrl),
  cancellationCallbackUrl: Type.Optional(AppFields.cancellationCallbackUrl),
  partnerUrl: Type.Optional(AppFields.partnerUrl),
  allowedIps: Type.Optional(AppFields.allowedIps),
  unionIdEnabled: Type.Optional(AppFields.unionIdEnabled),
  trustTraceparent: Type.Optional(AppFields.trustTraceparent),
};

export const AppCreateBody = Type.Object(
  { name: AppFields.name, ...OptionalAppFields },
  { additionalProperties: false },
);
export type AppCreateBody = Static<typeof AppCreateBody>;

export const AppPatchBody = Type.Object(
  {
    name: Type.Optional(AppFields.name),
    status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('disabled')])),
    ...OptionalAppFields,
  },
  { additionalProperties: false, minProperties: 1 },
);
export type AppPatchBody = Static<typeof AppPatchBody>;

const AppProperties = {
  appId: Type.Integer(),
  clientId: Type.String(),
  name: Type.String(),
  region: Region,
  status: Type.Union([Type.Literal('active'), Type.Literal('disabled')]),
  callbackUrls: AppFields.callbackUrls,
  roleQueryUrl: AppFields.roleQueryUrl,
  roleListUrl: AppFields.roleListUrl,
  preOrderCheckUrl: AppFields.preOrderCheckUrl,
  cancellationCallbackUrl: AppFields.cancellationCallbackUrl,
  partnerUrl: AppFields.partnerUrl,
  allowedIps: AppFields.allowedIps,
  unionIdEnabled: AppFields.unionIdEnabled,
  trustTraceparent: AppFields.trustTraceparent,
  secretRotatedAt: Type.String({ format: 'date-time' }),
  previousSecretExpiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'Until when the secret before the last rotation is still accepted.',
  }),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
};

export const App = Type.Object(AppProperties, { $id: 'App', title: 'App' });
export type App = Static<typeof App>;

export const AppWithSecret = Type.Object(
  {
    ...AppProperties,
    secret: Type.String({ description: 'The md5 secret (5.1). Shown only here: store it now.' }),
  },
  { title: 'AppWithSecret' },
);
export type AppWithSecret = Static<typeof AppWithSecret>;

export const AppList = Type.Object({ apps: Type.Array(Type.Ref(App)) });
