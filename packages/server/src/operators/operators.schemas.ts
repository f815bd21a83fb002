import { Type } from '@sinclair/typebox';
import { SafeInteger, Text } from '../http/schemas.js';
import { IdParam } from '../http/route-params.js';
import { ROLES } from './permissions.js';
import { AuthenticationResponse } from '../identity/passkeys.schemas.js';
import { SandboxFlags } from '../identity/sandbox-flags.js';
import {
  AccountNameParams,
  NullableTime,
  SecondFactor,
  accountCreateBody,
  accountCreated,
  accountPatchBody,
  accountSchema,
} from '../identity/people.schemas.js';

const RoleSchema = Type.Union(
  ROLES.map((r) => Type.Literal(r)),
  { description: 'admin: everything; operator: apps, orders, delivery; moderator: reports, bans; support: reads.' },
);
export { SecondFactor };

export const Operator = accountSchema({ role: RoleSchema }, { $id: 'Operator', title: 'Operator account' });

export const OperatorCreateBody = accountCreateBody({ role: RoleSchema });

export const OperatorCreated = accountCreated('operator', Operator);

export const OperatorPatchBody = accountPatchBody({ role: Type.Optional(RoleSchema) });

export const OperatorNameParams = AccountNameParams;

export const LoginBody = Type.Object(
  {
    name: Text({ minLength: 1, maxLength: 100 }),
    password: Text({ minLength: 1, maxLength: 1024 }),
    totp: Type.Optional(Text({ minLength: 1, maxLength: 16, description: 'The 6-digit code of the authenticator.' })),
    recoveryCode: Type.Optional(Text({ minLength: 1, maxLength: 32, description: 'Instead of totp; good once.' })),
    passkey: Type.Optional(AuthenticationResponse),
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
  sandbox: SandboxFlags,
});

export const OperatorToken = Type.Object(
  {
    tokenId: Type.Integer(),
    operator: Type.String(),
    name: Type.String(),
    role: RoleSchema,
    createdAt: Type.String({ format: 'date-time' }),
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

export const TokenIdParams = Type.Object({ tokenId: IdParam() });
