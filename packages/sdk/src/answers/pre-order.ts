/** Pre-order check (4.10): the platform's request, and the game's allow/block answers with the codes of section 7. */
import { Fields, toObject } from '../notifications/fields.js';
import type { Answer } from './answer.js';

/** Section 7 pre-order check codes. Custom codes must not reuse these. */
export const PreOrderCode = {
  /** 101 Enter a correct role id. */
  INVALID_ROLE_ID: 101,
  /** 102 Server error, retry later. */
  SERVER_ERROR_RETRY_LATER: 102,
  /** 103 The product does not exist. */
  PRODUCT_NOT_FOUND: 103,
  /** 104 Order failed, keep the game online. */
  KEEP_GAME_ONLINE: 104,
  /** 105 Order failed, purchase limit for the product reached. */
  PURCHASE_LIMIT_REACHED: 105,
  /** 106 A transaction is in progress, retry in a few minutes. */
  TRANSACTION_IN_PROGRESS: 106,
  /** 107 Server error, retry later. */
  SERVER_ERROR: 107,
  /** 112 The role does not meet the purchase conditions. */
  ROLE_NOT_ELIGIBLE: 112,
  /** 113 A transaction is in progress, retry in 1 minute. */
  TRANSACTION_IN_PROGRESS_1_MIN: 113,
  /** 114 A transaction is in progress, retry in 2 minutes. */
  TRANSACTION_IN_PROGRESS_2_MIN: 114,
  /** 115 A transaction is in progress, retry in 3 minutes. */
  TRANSACTION_IN_PROGRESS_3_MIN: 115,
} as const;

export type BuiltInPreOrderCode = (typeof PreOrderCode)[keyof typeof PreOrderCode];

/** The section 7 meaning of each built-in code (the front end shows its own translation). */
export const PRE_ORDER_CODE_MEANINGS: Readonly<Record<BuiltInPreOrderCode, string>> = {
  101: 'Enter a correct role id.',
  102: 'Server error, retry later.',
  103: 'The product does not exist.',
  104: 'Order failed, keep the game online.',
  105: 'Order failed, purchase limit for the product reached.',
  106: 'A transaction is in progress, retry in a few minutes.',
  107: 'Server error, retry later.',
  112: 'The role does not meet the purchase conditions.',
  113: 'A transaction is in progress, retry in 1 minute.',
  114: 'A transaction is in progress, retry in 2 minutes.',
  115: 'A transaction is in progress, retry in 3 minutes.',
};

/** The 4.10 request body. */
export interface PreOrderCheck {
  roleId: string;
  serverId: string;
  productSkuCode: string;
  /** Number bought in this one order: judge purchase limits with it. */
  quantity: number;
  extras: string | null;
}

/** Parses the 4.10 body (JSON text, bytes or parsed). Throws PayloadParseError naming the field. */
export function parsePreOrderCheck(input: unknown): PreOrderCheck {
  const f = new Fields(toObject(input, 'body'));
  const quantity = f.integer('quantity');
  if (quantity < 1) f.fail('quantity', 'must be at least 1');
  return {
    roleId: f.string('roleId'),
    serverId: f.string('serverId'),
    productSkuCode: f.string('productSkuCode'),
    quantity,
    extras: f.nullableString('extras'),
  };
}

export interface PreOrderBlockBody {
  code: number;
  /** Player-facing; null lets the front end show the translation of a built-in code. */
  msg: string | null;
  /** For developers. */
  detail: string;
}

/** 4.10 allow: HTTP 200. */
export function allowPreOrder(): Answer<{ code: 200; msg: string; detail: string }> {
  return { status: 200, body: { code: 200, msg: 'success', detail: '' } };
}

/**
 * 4.10 block: a non-200 status (default 400: a 5xx might be retried) with
 * `{code, msg, detail}`. `code` is a PreOrderCode or one of the game's own codes.
 */
export function blockPreOrder(
  code: number,
  o: { detail: string; msg?: string | null; status?: number },
): Answer<PreOrderBlockBody> {
  const status = o.status ?? 400;
  if (!Number.isInteger(code)) throw new RangeError(`blockPreOrder: code must be an integer, got ${code}`);
  if (!Number.isInteger(status) || status === 200 || status < 300 || status > 599)
    throw new RangeError(`blockPreOrder: status must be non-200 (3xx-5xx), got ${status}`);
  return { status, body: { code, msg: o.msg ?? null, detail: o.detail } };
}
