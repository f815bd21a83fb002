import { Type, type TProperties, type TSchema } from '@sinclair/typebox';
import { Text } from '../http/schemas.js';
import { IdParam } from '../http/route-params.js';

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

/** An e-mail address an invitation link may go to (ASCII: what every mail server takes). */
export const EMAIL_PATTERN = "^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9-]+(\\.[A-Za-z0-9-]+)+$";
export const Email = Type.String({
  maxLength: 254,
  pattern: EMAIL_PATTERN,
  description: 'Where the link goes by mail when SMTP_URL is set.',
});

/** A new account's body: its name, its `grants`, where to mail the invitation, and (the first admin) a password. */
export const accountCreateBody = <G extends TProperties>(grants: G) =>
  Type.Object(
    {
      name: Text({ minLength: 2, maxLength: 64, description: 'Lower-case letters, digits, dot, dash, underscore.' }),
      ...grants,
      email: Type.Optional(Email),
      password: Type.Optional(
        Text({
          minLength: 12,
          maxLength: 1024,
          description: 'The first admin only (the others set their own with the invitation). Omitted: generated.',
        }),
      ),
    },
    { additionalProperties: false },
  );

export const InvitationState = Type.Union(['pending', 'accepted', 'expired', 'revoked'].map((s) => Type.Literal(s)));

/** An invitation as the operator sees it: its state, never its token or what the invitee chose. */
export const Invitation = Type.Object(
  {
    invitationId: Type.Integer(),
    realm: Type.Union([Type.Literal('platform'), Type.Literal('studio')]),
    name: Type.String(),
    kind: Type.Union([Type.Literal('invite'), Type.Literal('reset')], {
      description: 'invite: a new account; reset: new credentials for an existing one.',
    }),
    state: InvitationState,
    email: Type.Union([Type.String(), Type.Null()]),
    createdBy: Type.String(),
    createdAt: Time,
    expiresAt: Time,
    finishedAt: NullableTime,
  },
  { $id: 'Invitation', title: 'Invitation or reset link (its state only)' },
);

const issuedProperties = {
  invitation: Type.Ref(Invitation),
  link: Type.Union([Type.String(), Type.Null()], {
    description: 'The link to hand over; null when it went to the invitee by mail (or the mail failed: resend).',
  }),
  mail: Type.Union([Type.Literal('sent'), Type.Literal('failed'), Type.Literal('off')]),
};

/** The answer to an invitation, a resend or a reset: the invitation and its link (unless mailed). */
export const InvitationIssued = Type.Object(issuedProperties);

export const ResetBody = Type.Object({ email: Type.Optional(Email) }, { additionalProperties: false });

export const InvitationIdParams = Type.Object({ invitationId: IdParam() });

export const AccountNameParams = Type.Object({ name: Text({ minLength: 1, maxLength: 64 }) });

/**
 * The answer to a new account: the account under `key` and its invitation; the first admin's instead its password
 * and second factor, shown once.
 */
export const accountCreated = (key: string, view: TSchema & { $id?: string }) =>
  Type.Object({
    [key]: Type.Ref(view),
    invitation: Type.Optional(issuedProperties.invitation),
    link: Type.Optional(issuedProperties.link),
    mail: Type.Optional(issuedProperties.mail),
    password: Type.Optional(Type.String({ description: 'The first admin: its password; shown once.' })),
    secondFactor: Type.Optional(SecondFactor),
  });

/** A change of an account: its `grants` (each optional) and the disabled flag; at least one. */
export const accountPatchBody = <G extends TProperties>(grants: G) =>
  Type.Object(
    { ...grants, disabled: Type.Optional(Type.Boolean()) },
    { additionalProperties: false, minProperties: 1 },
  );
