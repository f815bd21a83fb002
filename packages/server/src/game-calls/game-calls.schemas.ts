import { Type, type Static } from '@sinclair/typebox';

// What the game answers (2.6). Extra fields are tolerated (9: games evolve).
const NullableString = Type.Optional(Type.Union([Type.String(), Type.Null()]));
const NullableNumber = Type.Optional(Type.Union([Type.Number(), Type.Null()]));

/** 4.8 answer: the role, with the platform user id (without it the payment is blocked). */
export const RoleQueryAnswer = Type.Object({
  userId: Type.String({ minLength: 1 }),
  roleId: Type.String({ minLength: 1 }),
  name: Type.String(),
  avatar: Type.String(),
  roleLv: NullableNumber,
  serverId: NullableString,
  serverName: NullableString,
});
export type RoleQueryAnswer = Static<typeof RoleQueryAnswer>;

export const RoleListEntry = Type.Object({
  roleId: Type.String({ minLength: 1 }),
  name: Type.String(),
  avatar: Type.String(),
  roleLv: NullableNumber,
  serverId: Type.String(),
  serverName: NullableString,
});
export type RoleListEntry = Static<typeof RoleListEntry>;

/** 4.9 answer. */
export const RoleListAnswer = Type.Object({
  code: Type.Optional(Type.Number()),
  msg: NullableString,
  detail: NullableString,
  results: Type.Array(RoleListEntry),
});

/** 4.10 blocking answer (any non-200); every field may be missing. */
export const PreOrderBlock = Type.Object({
  code: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
  msg: NullableString,
  detail: NullableString,
});
