import { Type, type Static } from '@sinclair/typebox';
import { SafeNumber, Text } from '../../http/schemas.js';
import { IdParam } from '../../http/route-params.js';

export const PRODUCT_CODE_PATTERN = '^[A-Za-z0-9_.:-]{1,64}$';
export const ProductCode = Type.String({
  pattern: PRODUCT_CODE_PATTERN,
  description: 'Product code (`productCode` of 2.4): 1-64 of A-Z a-z 0-9 _ . : -',
});

/** An amount: a JSON number or a decimal string, at most the currency's decimals (ISO 4217). */
export const Amount = (description: string) =>
  Type.Union([SafeNumber({ minimum: 0 }), Type.String({ pattern: '^[0-9]{1,16}(\\.[0-9]{1,20})?$' })], { description });

const ChannelSkus = Type.Record(Type.String({ pattern: '^(1|2)$' }), Text({ minLength: 1, maxLength: 200 }), {
  additionalProperties: false,
  description: 'Store SKU per store channel (`channelSkuCode` of 2.4): key "1" iOS store, "2" Android store.',
});

export const ProductCreateBody = Type.Object(
  {
    productCode: ProductCode,
    name: Text({ minLength: 1, maxLength: 200 }),
    price: Amount('Price of one unit in `currency`, e.g. 6.99'),
    currency: Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code.' }),
    channelSkus: Type.Optional(ChannelSkus),
  },
  { additionalProperties: false },
);
export type ProductCreateBody = Static<typeof ProductCreateBody>;

export const ProductPatchBody = Type.Object(
  {
    name: Type.Optional(Text({ minLength: 1, maxLength: 200 })),
    price: Type.Optional(Amount('Price of one unit, in the product currency.')),
    channelSkus: Type.Optional(ChannelSkus),
    status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('disabled')])),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type ProductPatchBody = Static<typeof ProductPatchBody>;

export const Product = Type.Object(
  {
    appId: Type.Integer(),
    productCode: Type.String(),
    name: Type.String(),
    price: Type.Number({ description: 'Exact decimal built from integer minor units.' }),
    priceMinor: Type.Integer({ description: 'Price in minor units of the currency.' }),
    currency: Type.String(),
    channelSkus: ChannelSkus,
    status: Type.Union([Type.Literal('active'), Type.Literal('disabled')]),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'Product', title: 'Product' },
);
export type Product = Static<typeof Product>;

export const ProductParams = Type.Object({
  appId: IdParam(),
  productCode: ProductCode,
});
