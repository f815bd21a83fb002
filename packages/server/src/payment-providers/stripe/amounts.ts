import { exponentOf } from '../../orders/money.js';

/**
 * Stripe's amounts are in the currency's "smallest unit", which is the ISO 4217 minor unit for every currency but the
 * special cases of Stripe's currency list (https://docs.stripe.com/currencies): ISK is zero-decimal in ISO 4217 but
 * Stripe takes it as two-decimal (a multiple of 100). Three-decimal currencies (BHD, JOD, KWD, OMR, TND) keep three
 * decimals and Stripe takes only multiples of 10 of them.
 */
const STRIPE_EXPONENT: Record<string, number> = { ISK: 2 };
const MULTIPLE_OF_10 = new Set(['BHD', 'JOD', 'KWD', 'OMR', 'TND']);

const stripeExponent = (currency: string) => STRIPE_EXPONENT[currency] ?? exponentOf(currency);

/** Our minor units (ISO exponent) of `currency` as Stripe's amount; null when Stripe cannot take the amount. */
export function toStripeAmount(minor: number, currency: string): number | null {
  if (MULTIPLE_OF_10.has(currency) && minor % 10 !== 0) return null;
  return minor * 10 ** (stripeExponent(currency) - exponentOf(currency));
}

/** A Stripe amount of `currency` (capitals) as our minor units; null when it is not a whole number of them. */
export function fromStripeAmount(amount: number, currency: string): number | null {
  const factor = 10 ** (stripeExponent(currency) - exponentOf(currency));
  return amount % factor === 0 ? amount / factor : null;
}
