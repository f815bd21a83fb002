/**
 * The pre-order check codes of spec section 7: the game answers one with a
 * non-200 status (4.10) and the front end maps it to a translated text.
 * Games may add their own codes (never reusing these); those pass through.
 */
export const PreOrderCodes = {
  ENTER_CORRECT_ROLE_ID: 101,
  SERVER_ERROR_RETRY_LATER: 102,
  PRODUCT_NOT_FOUND: 103,
  KEEP_GAME_ONLINE: 104,
  PURCHASE_LIMIT_REACHED: 105,
  TRANSACTION_IN_PROGRESS_RETRY_MINUTES: 106,
  SERVER_ERROR: 107,
  ROLE_NOT_ELIGIBLE: 112,
  TRANSACTION_IN_PROGRESS_RETRY_1_MIN: 113,
  TRANSACTION_IN_PROGRESS_RETRY_2_MIN: 114,
  TRANSACTION_IN_PROGRESS_RETRY_3_MIN: 115,
} as const;

export type PreOrderCode = (typeof PreOrderCodes)[keyof typeof PreOrderCodes];

/** Meaning of each built-in code (section 7), in English. */
export const PreOrderCodeMeanings: Record<PreOrderCode, string> = {
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

export function isBuiltInPreOrderCode(code: number): code is PreOrderCode {
  return Object.hasOwn(PreOrderCodeMeanings, code);
}
