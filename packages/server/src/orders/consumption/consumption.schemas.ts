import { Type, type Static } from '@sinclair/typebox';
import { platformSuccess, SafeInteger, Text } from '../../http/schemas.js';

const Id = (description: string) => Text({ minLength: 1, maxLength: 128, description });

/** 4.6 request body. Every field is signed (5.1); `timestamp` is a number here. */
export const ConsumptionNoticeBody = Type.Object(
  {
    userId: Id('Platform user id.'),
    roleId: Id('Role id.'),
    serverId: Id('Server id of the role.'),
    productCode: Id('Product bought in the game.'),
    appId: SafeInteger({ minimum: 1, description: 'Application id.' }),
    nonce: Text({
      minLength: 1,
      maxLength: 128,
      description: 'One-time random string (5.1): fresh on every request, retries included.',
    }),
    timestamp: SafeInteger({
      minimum: 0,
      description: 'Unix seconds (a number, 5.1): when the notice was made; a resend keeps it, so it is stored once.',
    }),
    sign: Text({ description: 'md5 signature of 5.1.' }),
  },
  { additionalProperties: false },
);
export type ConsumptionNoticeBody = Static<typeof ConsumptionNoticeBody>;

export const ConsumptionNoticeAnswer = platformSuccess(Type.Literal(true));

/** A stored notice, as the operator lists it (GET /admin/v1/consumption-notices). */
export const ConsumptionNoticeView = Type.Object({
  noticeId: Type.Integer(),
  appId: Type.Integer(),
  userId: Type.String(),
  roleId: Type.String(),
  serverId: Type.String(),
  productCode: Type.String(),
  timestamp: Type.Integer({ description: "The game's Unix seconds, as signed." }),
  eventId: Type.Integer({ description: 'The outbox event that forwards it to the partner URL.' }),
  receivedAt: Type.String({ format: 'date-time' }),
});

/** What the partner URL receives (forwarded through the delivery engine, signed per 5.3). */
export interface ConsumptionForward {
  noticeId: number;
  notifyId: number;
  notifyTime: number;
  appId: number;
  userId: string;
  roleId: string;
  serverId: string;
  productCode: string;
  /** The game's timestamp of the notice (Unix seconds). */
  timestamp: number;
}
