import { Type } from '@sinclair/typebox';
import { Text } from '../http/schemas.js';
import { IdParam } from '../http/route-params.js';
import { OrderLineInput } from '../orders/orders.schemas.js';
import { LangTag } from './web-pay-settings.js';

/** Wire formats of the web payment page's API (/pay/api/{clientId}/...) and of the launch link (docs/web-payment.md). */

export const ClientIdParams = Type.Object({ clientId: Text({ minLength: 1, maxLength: 64 }) });
export const TrxNoParams = Type.Object({
  clientId: ClientIdParams.properties.clientId,
  trxNo: IdParam(),
});

const RoleId = Text({ minLength: 1, maxLength: 128 });
const ServerId = Text({ minLength: 1, maxLength: 128 });

export const PayLinkBody = Type.Object(
  {
    game_role_id: RoleId,
    game_server_id: ServerId,
    game_ext: Type.Optional(Text({ maxLength: 1024, description: 'Echoed as attach.gameExt of the orders.' })),
    lang: Type.Optional(LangTag),
  },
  { additionalProperties: false },
);

export const PayLink = Type.Object({
  url: Type.String({ description: 'Open it in the web view; single-use.' }),
  expiresAt: Type.String({ format: 'date-time' }),
});

export const Role = Type.Object({
  roleId: Type.String(),
  serverId: Type.String(),
  name: Type.String(),
  avatar: Type.String({ description: 'An http(s) URL, or empty.' }),
  roleLv: Type.Union([Type.Number(), Type.Null()]),
  serverName: Type.Union([Type.String(), Type.Null()]),
});

export const PageProduct = Type.Object({
  productCode: Type.String(),
  name: Type.String(),
  price: Type.Number(),
  priceText: Type.String({ description: 'The price with the digits of its currency (ISO 4217), e.g. 9.90.' }),
  currency: Type.String(),
});

export const Context = Type.Object({
  app: Type.Object({ name: Type.String(), region: Type.String() }),
  entry: Type.String({ description: 'web_view | official' }),
  lang: Type.Union([Type.String(), Type.Null()]),
  csrf: Type.String({ description: 'Echo it in X-CSRF-Token on every POST.' }),
  loggedIn: Type.Boolean(),
  role: Type.Union([Role, Type.Null()]),
  blocked: Type.Union([Type.String(), Type.Null()]),
  servers: Type.Array(Type.Object({ serverId: Type.String(), name: Type.String() })),
  products: Type.Array(PageProduct),
  region: Type.Object({ locked: Type.Boolean(), value: Type.String() }),
  loginProviders: Type.Array(Type.String()),
  sandbox: Type.Boolean(),
  methods: Type.Array(
    Type.Object({
      provider: Type.String({ description: 'Send it as `provider` of the order.' }),
      method: Type.String({ description: 'card, paypal, alipay, wechat_pay or sandbox: what the page calls it.' }),
    }),
    { description: "The payment methods the app offers the payer's region (docs/web-payment.md)." },
  ),
});

export const RoleBody = Type.Object({ serverId: ServerId, roleId: RoleId }, { additionalProperties: false });
export const RolesQuery = Type.Object({ serverId: ServerId }, { additionalProperties: false });
export const LoginBody = Type.Object(
  { provider: Text({ minLength: 1, maxLength: 32 }), credential: Text({ minLength: 1, maxLength: 8192 }) },
  { additionalProperties: false },
);

const Lines = Type.Array(OrderLineInput, { minItems: 1, maxItems: 20, description: '2.4 rule 6: several products.' });

export const QuoteBody = Type.Object({ products: Lines }, { additionalProperties: false });
export const Quote = Type.Object({
  lines: Type.Array(
    Type.Object({
      productCode: Type.String(),
      name: Type.String(),
      quantity: Type.Integer(),
      unitPrice: Type.Number(),
      amount: Type.Number(),
      amountText: Type.String(),
    }),
  ),
  currency: Type.String(),
  totalAmount: Type.Number(),
  totalText: Type.String(),
});

export const PlaceBody = Type.Object(
  {
    products: Lines,
    region: Type.Optional(Type.String({ pattern: '^[A-Z]{2}$', description: 'The region picked (no region lock).' })),
    lang: Type.Optional(LangTag),
    provider: Type.Optional(
      Type.String({ pattern: '^[a-z]{2,20}$', description: 'The method picked: a `provider` of the context.' }),
    ),
    device: Type.Optional(
      Type.Union([Type.Literal('desktop'), Type.Literal('phone')], {
        description: 'Where the player pays (a provider may use a phone flow). Default desktop.',
      }),
    ),
    returnUrl: Type.Optional(
      Text({
        maxLength: 2048,
        description:
          "Where a provider-hosted payment page sends the browser back (trxNo added to its query): the page's origin or one of the app's return URLs. Default: the page.",
      }),
    ),
  },
  { additionalProperties: false },
);

/** The payment step the page takes (orders' PaymentStep, as the page needs it). */
export const PageStep = Type.Object({
  kind: Type.Union([Type.Literal('redirect'), Type.Literal('hosted'), Type.Literal('qr'), Type.Literal('none')], {
    description:
      "redirect: go to url (a provider-hosted page); hosted: the platform's own step (sandbox: outcomes); qr: show image (a code the payer scans, e.g. WeChat Pay Native) and follow the order; none: follow the order.",
  }),
  channel: Type.String(),
  url: Type.Optional(Type.String()),
  outcomes: Type.Optional(Type.Array(Type.String())),
  code: Type.Optional(Type.String({ description: 'qr: what the code says.' })),
  image: Type.Optional(Type.String({ description: 'qr: the code drawn, a PNG data URL.' })),
});

export const PageOrder = Type.Object({
  trxNo: Type.Integer(),
  status: Type.Integer({ description: '0 succeeded, 1 created, 2 awaiting payment, 3 failed, 4 cancelled (2.7).' }),
  statusName: Type.String(),
  products: Type.Array(Type.Object({ productCode: Type.String(), quantity: Type.Integer() })),
  currency: Type.String(),
  totalAmount: Type.Number(),
  totalText: Type.String({ description: 'totalAmount with the digits of its currency.' }),
  region: Type.Union([Type.String(), Type.Null()]),
});

export const SandboxStepBody = Type.Object(
  { outcome: Type.Union([Type.Literal('pay'), Type.Literal('fail'), Type.Literal('cancel')]) },
  { additionalProperties: false },
);
