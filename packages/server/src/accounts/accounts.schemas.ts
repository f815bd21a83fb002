import { Type, type Static } from '@sinclair/typebox';
import { platformSuccess, Text } from '../http/schemas.js';
import { SVC_ID_LOGIN_TYPES } from './login-types.js';
import { IdParam } from '../http/route-params.js';

const ClientId = Text({ minLength: 1, maxLength: 64, description: 'Client id issued by the platform.' });
const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

/** `?clientId=` of 4.3 and the MAC-authenticated client routes; other parameters are allowed (they are signed in `uri`). */
export const ClientIdQuery = Type.Object({ clientId: ClientId });

/** The answer of 4.3: exactly the object of 2.2. */
export const Profile = Type.Object(
  {
    appId: Type.String({ description: 'Application id.' }),
    userId: Type.String({ description: 'Unique platform user id.' }),
    userCode: Type.String({
      description: 'Encoded unique user id (Crockford base32 + check symbol; docs/accounts.md).',
    }),
    username: Type.String(),
    nickName: Nullable(Type.String({ description: 'Nickname on the current login channel.' })),
    avatar: Nullable(Type.String({ description: 'Avatar on the current login channel.' })),
    loginType: Type.Integer({ description: 'Current login channel (login type code of 2.2).' }),
    registTime: Type.String({ description: 'Registration time, ISO 8601 with offset (+00:00).' }),
    registIp: Type.String(),
    source: Type.Integer({ description: '0 ordinary user, 1 migrated user.' }),
    loginList: Type.Array(Type.Integer(), { description: 'Bound login type codes.' }),
    isGuest: Type.Boolean({ description: 'True while guest is the only bound login method.' }),
    provider: Type.Array(Type.String(), {
      description: 'Bound login methods by provider name (guest, apple, google, facebook, ...).',
    }),
    openId: Type.String({ description: 'Open id of the current login method.' }),
    userRegion: Type.String({
      description: 'Overseas: ISO 3166-1 alpha-2 from the edge at login, DF when none. Mainland: empty.',
    }),
    unionId: Nullable(
      Type.String({ description: 'Union id of the current login method; null unless the app enables it.' }),
    ),
  },
  { title: 'Account profile (2.2)', additionalProperties: false },
);
export type Profile = Static<typeof Profile>;

export const SvcIdQuery = Type.Object({
  clientId: ClientId,
  loginType: Text({
    maxLength: 32,
    description: `Lowercase provider name: ${Object.keys(SVC_ID_LOGIN_TYPES).join(' | ')} (google: Android store account, apple: iOS store account, facebook: social network).`,
  }),
  openId: Text({ minLength: 1, maxLength: 255 }),
});
export const SvcIdAnswer = platformSuccess(Type.Object({ svcid: Type.String({ description: 'Platform user id.' }) }));

// --- client login API (what the client SDK calls) ---

export const GuestLoginBody = Type.Object(
  {
    clientId: ClientId,
    deviceId: Type.String({
      pattern: '^[\\x21-\\x7e]{8,128}$',
      description: 'Stable device id (8-128 printable ASCII).',
    }),
  },
  { additionalProperties: false },
);

export const ProviderLoginBody = Type.Object(
  {
    clientId: ClientId,
    provider: Text({
      minLength: 1,
      maxLength: 32,
      description: 'apple | google | facebook | sandbox (those enabled on this deployment).',
    }),
    credential: Text({
      minLength: 1,
      maxLength: 8192,
      description: "The provider's ID token (JWT), or a sandbox assertion.",
    }),
  },
  { additionalProperties: false },
);

export const BindBody = Type.Object(
  {
    provider: ProviderLoginBody.properties.provider,
    credential: ProviderLoginBody.properties.credential,
  },
  { additionalProperties: false },
);

export const UnbindQuery = Type.Object({
  clientId: ClientId,
  loginType: Type.String({
    pattern: '^[0-9]{1,2}$',
    description: 'Login type code to unbind (in the query, so the MAC covers it).',
  }),
});

export const LoginAnswer = platformSuccess(
  Type.Object({
    kid: Type.String({ description: 'The access token: the `id` of the MAC header (5.2).' }),
    macKey: Type.String({ description: 'The MAC key (5.2). Keep it on the device; it is never shown again.' }),
    macAlgorithm: Type.Literal('hmac-sha-1'),
    expiresAt: Type.String({ format: 'date-time' }),
    expiresIn: Type.Integer({ description: 'Seconds until expiresAt.' }),
    userId: Type.String(),
    userCode: Type.String(),
    loginType: Type.Integer(),
    openId: Type.String(),
    isNew: Type.Boolean({ description: 'Whether this login created the account.' }),
  }),
);

export const LoginMethodsAnswer = platformSuccess(
  Type.Object({
    loginList: Type.Array(Type.Integer()),
    provider: Type.Array(Type.String()),
  }),
);

export const CancellationAnswer = platformSuccess(
  Type.Object({
    status: Type.Union([Type.Literal('active'), Type.Literal('cancelling')]),
    cancelDueAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  }),
);

export const OkAnswer = platformSuccess(Type.Boolean());

// --- admin ---

export const UserIdParams = Type.Object({ userId: IdParam() });

export const UserFindQuery = Type.Object(
  {
    userId: Type.Optional(Type.String({ pattern: '^[0-9]{1,15}$' })),
    userCode: Type.Optional(Text({ minLength: 1, maxLength: 16 })),
    openId: Type.Optional(Text({ minLength: 1, maxLength: 255 })),
    loginType: Type.Optional(
      Type.String({ pattern: '^[0-9]{1,2}$', description: 'With openId: only this login type.' }),
    ),
    email: Type.Optional(Text({ minLength: 3, maxLength: 320 })),
  },
  { additionalProperties: false },
);
export type UserFindQuery = Static<typeof UserFindQuery>;

const LoginMethod = Type.Object({
  loginType: Type.Integer(),
  provider: Type.String(),
  openId: Type.String(),
  unionId: Type.Union([Type.String(), Type.Null()]),
  nickname: Type.Union([Type.String(), Type.Null()]),
  avatar: Type.Union([Type.String(), Type.Null()]),
  email: Type.Union([Type.String(), Type.Null()]),
  emailVerified: Type.Boolean(),
  createdAt: Type.String({ format: 'date-time' }),
  lastLoginAt: Type.String({ format: 'date-time' }),
});

const Ban = Type.Object({
  banId: Type.Integer(),
  reason: Type.String(),
  until: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  actor: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  liftedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  liftedBy: Type.Union([Type.String(), Type.Null()]),
});
export type Ban = Static<typeof Ban>;

export const UserSummary = Type.Object({
  userId: Type.String(),
  userCode: Type.String(),
  username: Type.String(),
  status: Type.Union([Type.Literal('active'), Type.Literal('cancelling'), Type.Literal('cancelled')]),
  registTime: Type.String({ format: 'date-time' }),
  registIp: Type.String(),
  source: Type.Integer(),
  isGuest: Type.Boolean(),
  loginList: Type.Array(Type.Integer()),
  banned: Type.Boolean(),
  cancelDueAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  cancelledAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
export type UserSummary = Static<typeof UserSummary>;

export const UserList = Type.Object({ users: Type.Array(UserSummary) });

export const UserDetail = Type.Object({
  ...UserSummary.properties,
  methods: Type.Array(LoginMethod),
  sessions: Type.Array(
    Type.Object({
      tokenId: Type.Integer(),
      appId: Type.Integer(),
      loginType: Type.Integer(),
      openId: Type.String(),
      issuedIp: Type.String(),
      userRegion: Type.String(),
      createdAt: Type.String({ format: 'date-time' }),
      expiresAt: Type.String({ format: 'date-time' }),
      revokedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
      revokeReason: Type.Union([Type.String(), Type.Null()]),
      live: Type.Boolean(),
    }),
  ),
  apps: Type.Array(
    Type.Object({
      appId: Type.Integer(),
      firstLoginAt: Type.String({ format: 'date-time' }),
      lastLoginAt: Type.String({ format: 'date-time' }),
    }),
  ),
  bans: Type.Array(Ban),
});
export type UserDetail = Static<typeof UserDetail>;

export const BanBody = Type.Object(
  {
    reason: Text({ minLength: 1, maxLength: 500 }),
    until: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'End of the ban (ISO 8601, in the future); null: until lifted.',
    }),
    actor: Type.Optional(
      Text({ minLength: 1, maxLength: 100, description: 'Who bans (recorded); default `admin-api`.' }),
    ),
  },
  { additionalProperties: false },
);

export const UnbanBody = Type.Object(
  {
    actor: Type.Optional(Text({ minLength: 1, maxLength: 100 })),
  },
  { additionalProperties: false },
);

export const RevokedAnswer = Type.Object({ revoked: Type.Integer() });
export const LiftedAnswer = Type.Object({ lifted: Type.Integer() });
export const CancellationRun = Type.Object({ cancelled: Type.Array(Type.String()) });
