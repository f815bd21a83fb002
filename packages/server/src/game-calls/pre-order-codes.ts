import { PRE_ORDER_CODE_MEANINGS, type BuiltInPreOrderCode } from '@game-platform/sdk';

/**
 * The pre-order check codes of spec section 7 are defined once, in the SDK
 * (`PreOrderCode`, `PRE_ORDER_CODE_MEANINGS`); games send them, we explain them.
 * Games may add their own codes (never reusing these); those pass through.
 */
export function isBuiltInPreOrderCode(code: number): code is BuiltInPreOrderCode {
  return Object.hasOwn(PRE_ORDER_CODE_MEANINGS, code);
}

export { PRE_ORDER_CODE_MEANINGS as PreOrderCodeMeanings, PreOrderCode as PreOrderCodes } from '@game-platform/sdk';
