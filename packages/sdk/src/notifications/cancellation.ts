/**
 * The account cancellation callback (6; signed per 5.3, body "not shown" by the spec).
 * The platform's body is defined in docs/accounts.md; this parser requires only the
 * fields every version carries and keeps the rest in `raw`.
 */
import { Fields, PayloadParseError, toObject, type JsonObject } from './fields.js';

export interface CancellationNotification {
  kind: 'cancellation';
  notifyId: number;
  /** Unix ms. */
  notifyTime: number;
  appId: number;
  /** The platform user id whose account was cancelled: delete or anonymise the player's data. */
  userId: string;
  /** Encoded user id (2.2), when sent. */
  userCode: string | null;
  /** When the player asked for the cancellation, Unix ms, when sent. */
  requestTime: number | null;
  /** When the account was cancelled, Unix ms, when sent. */
  cancelTime: number | null;
  raw: JsonObject;
}

/** Discriminators a cancellation body may carry (`eventType` or `type`); other values are refused. */
const MARKERS: Readonly<Record<string, string>> = { eventType: 'account_cancellation', type: 'cancellation' };

/** Parses an account cancellation callback body. Throws PayloadParseError naming the field. */
export function parseCancellationNotification(input: unknown): CancellationNotification {
  const f = new Fields(toObject(input, 'body'));
  for (const [k, expected] of Object.entries(MARKERS)) {
    const v = f.o[k];
    if (v !== undefined && v !== expected)
      throw new PayloadParseError(k, `is ${JSON.stringify(v)}, not a cancellation (${JSON.stringify(expected)})`);
  }
  if (f.has('trxType'))
    throw new PayloadParseError('trxType', 'is present: this is a payment/refund notification, not a cancellation');
  return {
    kind: 'cancellation',
    notifyId: f.integer('notifyId'),
    notifyTime: f.integer('notifyTime'),
    appId: f.integer('appId'),
    userId: f.string('userId'),
    userCode: f.nullableString('userCode'),
    requestTime: f.nullableInteger('requestTime'),
    cancelTime: f.nullableInteger('cancelTime'),
    raw: f.o,
  };
}
