import { Type } from '@sinclair/typebox';
import { SafeInteger, Text } from '../http/schemas.js';
import { ROLES } from './permissions.js';

const RoleSchema = Type.Union(
  ROLES.map((r) => Type.Literal(r)),
  { description: 'admin: everything; operator: apps, orders, delivery; moderator: reports, bans; support: reads.' },
);
const Time = Type.String({ format: 'date-time' });
const NullableTime = Type.Union([Time, Type.Null()]);

export const Operator = Type.Object(
  {
    name: Type.String(),
    role: RoleSchema,
    disabled: Type.Boolean(),
    lockedUntil: Type.Union([Time, Type.Null()], { description: 'Set while too many failed sign-ins lock it.' }),
    lastLoginAt: NullableTime,
    recoveryCodesLeft: Type.Integer(),
    createdAt: Time,
  },
  { $id: 'Operator', title: 'Operator account' },
);

export const SecondFactor = Type.Object({
  totpSecret: Type.String({ description: 'Base32; shown once.' }),
  totpUri: Type.String({ description: 'otpauth:// URI for an authenticator app; shown once.' }),
  recoveryCodes: Type.Array(Type.String(), { description: 'Each good for one sign-in; shown once.' }),
});

export const OperatorCreateBody = Type.Object(
  {
    name: Text({ minLength: 2, maxLength: 64, description: 'Lower-case letters, digits, dot, dash, underscore.' }),
    role: RoleSchema,
    password: Type.Optional(Text({ minLength: 12, maxLength: 1024, description: 'Omitted: one is generated.' })),
  },
  { additionalProperties: false },
);

export const OperatorCreated = Type.Object({
  operator: Type.Ref(Operator),
  password: Type.String({ description: 'The initial password; shown once.' }),
  secondFactor: SecondFactor,
});

export const OperatorPatchBody = Type.Object(
  { role: Type.Optional(RoleSchema), disabled: Type.Optional(Type.Boolean()) },
  { additionalProperties: false, minProperties: 1 },
);

export const OperatorNameParams = Type.Object({ name: Text({ minLength: 1, maxLength: 64 }) });

export const PasswordResetBody = Type.Object(
  { password: Type.Optional(Text({ minLength: 12, maxLength: 1024 })) },
  { additionalProperties: false },
);

export const LoginBody = Type.Object(
  {
    name: Text({ minLength: 1, maxLength: 100 }),
    password: Text({ minLength: 1, maxLength: 1024 }),
    totp: Type.Optional(Text({ minLength: 1, maxLength: 16, description: 'The 6-digit code of the authenticator.' })),
    recoveryCode: Type.Optional(Text({ minLength: 1, maxLength: 32, description: 'Instead of totp; good once.' })),
  },
  { additionalProperties: false },
);

export const SessionView = Type.Object({
  name: Type.String(),
  role: RoleSchema,
  via: Type.Union([Type.Literal('session'), Type.Literal('token'), Type.Literal('break-glass')]),
  permissions: Type.Array(Type.String()),
  csrfToken: Type.Union([Type.String(), Type.Null()], {
    description: 'Console sessions: send it as X-CSRF-Token on every request that changes something.',
  }),
});

export const OperatorToken = Type.Object(
  {
    tokenId: Type.Integer(),
    operator: Type.String(),
    name: Type.String(),
    role: RoleSchema,
    createdAt: Time,
    expiresAt: NullableTime,
    lastUsedAt: NullableTime,
    revokedAt: NullableTime,
  },
  { $id: 'OperatorToken', title: 'Operator API token (never its value)' },
);

export const TokenCreateBody = Type.Object(
  {
    name: Text({ minLength: 1, maxLength: 100 }),
    role: Type.Optional(RoleSchema),
    expiresInDays: Type.Optional(SafeInteger({ minimum: 1, maximum: 366, description: 'Default 90.' })),
    operator: Type.Optional(Text({ minLength: 1, maxLength: 64, description: "Admins: another operator's token." })),
  },
  { additionalProperties: false },
);

export const TokenQuery = Type.Object(
  { operator: Type.Optional(Text({ minLength: 1, maxLength: 64 })) },
  { additionalProperties: false },
);

export const TokenIdParams = Type.Object({ tokenId: Type.String({ pattern: '^[0-9]{1,15}$' }) });
