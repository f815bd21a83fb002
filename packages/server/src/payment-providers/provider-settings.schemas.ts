import { Type, type Static } from '@sinclair/typebox';
import { Text } from '../http/schemas.js';
import { IdParam } from '../http/route-params.js';
import { PAYER_REGIONS } from './provider.js';

/** Wire formats of the per-app provider settings (admin API, CLI). */

export const ProviderParams = Type.Object({
  appId: IdParam(),
  provider: Type.String({ pattern: '^[a-z]{2,20}$', description: 'stripe, paypal, alipay or wechatpay.' }),
});

const Region = Type.Union(
  PAYER_REGIONS.map((r) => Type.Literal(r)),
  { description: 'mainland: the mainland page (login); overseas: the overseas page (typed role id).' },
);

/** A field name of a provider's settings (its schema says which). */
const FieldName = Type.String({ pattern: '^[A-Za-z][A-Za-z0-9_]{0,63}$' });

/** PUT .../payment-providers/{provider}: the provider's settings of an app; a secret omitted keeps the stored one. */
export const ProviderSettingsBody = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean({ description: 'Whether the page offers the method (default true).' })),
    regions: Type.Optional(
      Type.Array(Region, {
        minItems: 1,
        maxItems: PAYER_REGIONS.length,
        uniqueItems: true,
        description:
          "The payer regions it is offered in. Default: the provider's (cards, PayPal overseas; Alipay, WeChat Pay mainland).",
      }),
    ),
    config: Type.Optional(
      Type.Record(FieldName, Text({ maxLength: 8192 }), {
        additionalProperties: false,
        description: "The provider's public fields (GET lists them); shown back.",
      }),
    ),
    secrets: Type.Optional(
      Type.Record(FieldName, Type.Union([Text({ minLength: 1, maxLength: 16_384 }), Type.Null()]), {
        additionalProperties: false,
        description:
          "The provider's secret fields (GET lists them): sealed at rest, never answered. Omitted: the stored value is kept; null: removed.",
      }),
    ),
  },
  { additionalProperties: false },
);
export type ProviderSettingsBody = Static<typeof ProviderSettingsBody>;

const Times = {
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
};

export const ProviderSettingsView = Type.Object(
  {
    provider: Type.String(),
    enabled: Type.Boolean(),
    regions: Type.Array(Type.String()),
    config: Type.Record(Type.String(), Type.String()),
    secretsSet: Type.Array(Type.String(), {
      description: 'The secret fields stored (their values are never answered).',
    }),
    ...Times,
  },
  { $id: 'ProviderSettings', title: 'Payment provider settings of an app' },
);
export type ProviderSettingsView = Static<typeof ProviderSettingsView>;

const Field = Type.Object({ name: Type.String(), description: Type.String(), required: Type.Boolean() });

/** One provider as an app's settings page shows it: what it is, what to fill in, where its webhook goes. */
export const ProviderEntry = Type.Object({
  provider: Type.String(),
  method: Type.String({ description: 'card, paypal, alipay, wechat_pay' }),
  channel: Type.Integer({ description: 'The 2.7 channel number of its orders.' }),
  defaultRegions: Type.Array(Type.String()),
  webhookUrl: Type.String({ description: "Paste it into the provider's dashboard (docs/web-payment.md)." }),
  fields: Type.Object({ config: Type.Array(Field), secrets: Type.Array(Field) }),
  settings: Type.Union([Type.Ref(ProviderSettingsView), Type.Null()]),
});

export const ProvidersView = Type.Object({ appId: Type.Integer(), providers: Type.Array(ProviderEntry) });
export type ProvidersView = Static<typeof ProvidersView>;
