import { Type, type TProperties, type TSchema } from '@sinclair/typebox';
import { Text } from '../http/schemas.js';

/** The wire shapes every account has, whatever its grants (operators/operators.schemas.ts, portal/portal.schemas.ts). */

const Time = Type.String({ format: 'date-time' });
export const NullableTime = Type.Union([Time, Type.Null()]);

/** A person's account as the admin API shows it: `grants` (a role, or app ids) after the name, then the rest. */
export const accountSchema = <G extends TProperties>(grants: G, options: { $id: string; title: string }) =>
  Type.Object(
    {
      name: Type.String(),
      ...grants,
      disabled: Type.Boolean(),
      lockedUntil: Type.Union([Time, Type.Null()], { description: 'Set while too many failed sign-ins lock it.' }),
      lastLoginAt: NullableTime,
      recoveryCodesLeft: Type.Integer(),
      createdAt: Time,
    },
    options,
  );

export const SecondFactor = Type.Object({
  totpSecret: Type.String({ description: 'Base32; shown once.' }),
  totpUri: Type.String({ description: 'otpauth:// URI for an authenticator app; shown once.' }),
  recoveryCodes: Type.Array(Type.String(), { description: 'Each good for one sign-in; shown once.' }),
});

/** A new account's body: its name, its `grants`, and an optional initial password. */
export const accountCreateBody = <G extends TProperties>(grants: G) =>
  Type.Object(
    {
      name: Text({ minLength: 2, maxLength: 64, description: 'Lower-case letters, digits, dot, dash, underscore.' }),
      ...grants,
      password: Type.Optional(Text({ minLength: 12, maxLength: 1024, description: 'Omitted: one is generated.' })),
    },
    { additionalProperties: false },
  );

export const AccountNameParams = Type.Object({ name: Text({ minLength: 1, maxLength: 64 }) });

export const PasswordResetBody = Type.Object(
  { password: Type.Optional(Text({ minLength: 12, maxLength: 1024 })) },
  { additionalProperties: false },
);

/** The answer to a new account: the account under `key`, its initial password and second factor, shown once. */
export const accountCreated = (key: string, view: TSchema & { $id?: string }) =>
  Type.Object({
    [key]: Type.Ref(view),
    password: Type.String({ description: 'The initial password; shown once.' }),
    secondFactor: SecondFactor,
  });

/** A change of an account: its `grants` (each optional) and the disabled flag; at least one. */
export const accountPatchBody = <G extends TProperties>(grants: G) =>
  Type.Object(
    { ...grants, disabled: Type.Optional(Type.Boolean()) },
    { additionalProperties: false, minProperties: 1 },
  );
