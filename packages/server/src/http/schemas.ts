import { Type, type IntegerOptions, type NumberOptions, type StringOptions, type TSchema } from '@sinclair/typebox';

/** The envelope of 2.3: account, order and admin routes. */
export const PlatformEnvelopeError = Type.Object(
  {
    code: Type.Integer({ description: 'Error code (docs/errors.md).' }),
    msg: Type.String({ description: 'Message.' }),
    detail: Type.String({ description: 'Developer message: what exactly was wrong.' }),
    data: Type.Union([Type.String(), Type.Object({}, { additionalProperties: true }), Type.Null()], {
      description: 'Extra information.',
    }),
  },
  { $id: 'PlatformError', title: 'PlatformError (2.3)' },
);

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
export const RpcStatus = Type.Object(
  {
    code: Type.Integer({ description: 'google.rpc.Code (3 INVALID_ARGUMENT, 16 UNAUTHENTICATED, ...).' }),
    message: Type.String(),
    details: Type.Array(
      Type.Object({
        '@type': Type.String(),
        reason: Type.String({ description: 'Our error reason, e.g. BAD_SIGNATURE.' }),
        domain: Type.String(),
        metadata: Type.Record(Type.String(), Type.String()),
      }),
    ),
  },
  { $id: 'RpcStatus', title: 'rpcStatus' },
);

/**
 * Text both databases store exactly as sent: any string without U+0000 (PostgreSQL text cannot hold it) and
 * without an unpaired UTF-16 surrogate (it has no UTF-8: better-sqlite3 would store U+FFFD, so two different
 * strings would become one). Emoji and other astral characters are surrogate pairs and pass. The pattern means
 * the same whether it is compiled with the `u` flag (Ajv: a pair is one code point, outside the first class) or
 * without (TypeBox's Value, the CLI: a pair matches the second alternative). docs/errors.md, "Text".
 */
export const TEXT_PATTERN = '^(?:[^\\u0000\\uD800-\\uDFFF]|[\\uD800-\\uDBFF][\\uDC00-\\uDFFF])*$';

/** A free-text string of a request (body, query or path): see TEXT_PATTERN. Strings with a pattern of their own that admits neither need nothing more. */
export const Text = (opts: Omit<StringOptions, 'pattern' | 'format'> = {}) =>
  Type.String({ ...opts, pattern: TEXT_PATTERN });

/**
 * The integers a request may carry as JSON numbers: those a double holds exactly, +-(2^53 - 1). Past that a
 * number is not the one the client wrote (9007199254740993 reads as ...992); plain integer literals that long are
 * read as their exact digits (json-body.ts), and only int64 fields take those.
 */
export const SafeInteger = (opts: IntegerOptions = {}) =>
  Type.Integer({ minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER, ...opts });

/** A JSON number of a request within the same bounds as SafeInteger (which also keeps out 1e309, read as Infinity). */
export const SafeNumber = (opts: NumberOptions = {}) =>
  Type.Number({ minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER, ...opts });

/** int64: a JSON number within the safe range, or a decimal string (exact past 2^53; its range is checked where it is used). */
export const Int64 = (opts: { description?: string } = {}) =>
  Type.Union([SafeInteger(), Type.String({ pattern: '^-?[0-9]{1,19}$' })], opts);

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
