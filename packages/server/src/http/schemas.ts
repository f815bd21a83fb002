import { Type, type TSchema } from '@sinclair/typebox';

/** The envelope of 2.3: account, order and admin routes. */
export const PlatformEnvelopeError = Type.Object({
  code: Type.Integer({ description: 'Error code (docs/errors.md).' }),
  msg: Type.String({ description: 'Message.' }),
  detail: Type.String({ description: 'Developer message: what exactly was wrong.' }),
  data: Type.Union([Type.String(), Type.Object({}, { additionalProperties: true }), Type.Null()], { description: 'Extra information.' }),
}, { $id: 'PlatformError', title: 'PlatformError (2.3)' });

/** A 2.3 success envelope around `data`. */
export function platformSuccess<T extends TSchema>(data: T) {
  return Type.Object({
    code: Type.Literal(200),
    msg: Type.String(),
    detail: Type.String(),
    data,
  });
}

/** rpcStatus, as grpc-gateway answers it: reporting routes. */
export const RpcStatus = Type.Object({
  code: Type.Integer({ description: 'google.rpc.Code (3 INVALID_ARGUMENT, 16 UNAUTHENTICATED, ...).' }),
  message: Type.String(),
  details: Type.Array(Type.Object({
    '@type': Type.String(),
    reason: Type.String({ description: 'Our error reason, e.g. BAD_SIGNATURE.' }),
    domain: Type.String(),
    metadata: Type.Record(Type.String(), Type.String()),
  })),
}, { $id: 'RpcStatus', title: 'rpcStatus' });

/** int64: a JSON number, or a decimal string (exact past 2^53). */
export const Int64 = (opts: { description?: string } = {}) =>
  Type.Union([Type.Integer(), Type.String({ pattern: '^-?[0-9]{1,19}$' })], opts);

/** The shared error responses, to spread into a route's `response`. */
export const platformErrorResponses = {
  400: Type.Ref(PlatformEnvelopeError),
  401: Type.Ref(PlatformEnvelopeError),
  403: Type.Ref(PlatformEnvelopeError),
  404: Type.Ref(PlatformEnvelopeError),
  409: Type.Ref(PlatformEnvelopeError),
  413: Type.Ref(PlatformEnvelopeError),
  415: Type.Ref(PlatformEnvelopeError),
  429: Type.Ref(PlatformEnvelopeError),
  500: Type.Ref(PlatformEnvelopeError),
};

export const rpcErrorResponses = {
  default: Type.Ref(RpcStatus),
};
