import { exponentOf, isCurrency, toMinor } from '../../orders/money.js';

/**
 * PayPal's amounts are decimal strings (`value`) in the currency's ISO 4217 unit, with the currency's decimals; PayPal's
 * currency codes list HUF and TWD as taking no decimal amounts (https://developer.paypal.com/api/rest/reference/currency-codes/),
 * so those are sent as whole units and an order of them with a fraction is refused before it reaches PayPal.
 */
const WHOLE_UNITS_ONLY = new Set(['HUF', 'TWD']);

/** Our minor units of `currency` as PayPal's `value`; null when PayPal cannot take the amount. */
export function toPaypalValue(minor: number, currency: string): string | null {
  const exponent = exponentOf(currency);
  if (WHOLE_UNITS_ONLY.has(currency)) {
    const factor = 10 ** exponent;
    return minor % factor === 0 ? String(minor / factor) : null;
  }
  if (exponent === 0) return String(minor);
  const digits = String(minor).padStart(exponent + 1, '0');
  return `${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
}

/**
 * PayPal's `value` of `currency_code` as our minor units and capital currency; null when the currency is not one we
 * know or the value is not a non-negative decimal with at most the currency's decimals.
 */
export function fromPaypalMoney(value: string, currencyCode: string): { amountMinor: number; currency: string } | null {
  if (!isCurrency(currencyCode) || !/^[0-9]{1,20}(\.[0-9]{1,10})?$/.test(value)) return null;
  try {
    return { amountMinor: toMinor('value', value, currencyCode), currency: currencyCode };
  } catch {
    return null;
  }
}
