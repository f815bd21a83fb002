import { invalidParameter } from '../errors/app-error.js';

/**
 * Money as integer minor units of an ISO 4217 currency, never binary floating
 * point. On the wire (2.4 `totalAmount`, `clientAmount`, 2.6 `refundAmount`)
 * an amount is a JSON number written from the minor units as exact decimal
 * text; an incoming amount with more decimals than the currency has is refused.
 */

// ISO 4217 active codes by minor-unit exponent; every code not listed under 0, 3 or 4 has 2.
const EXPONENT_0 = 'BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF';
const EXPONENT_3 = 'BHD IQD JOD KWD LYD OMR TND';
const EXPONENT_4 = 'CLF UYW';
const EXPONENT_2 =
  'AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BMD BND BOB BOV BRL BSD BTN BWP BYN BZD CAD CDF CHE CHF CHW ' +
  'CNY COP COU CRC CUC CUP CVE CZK DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GTQ GYD HKD HNL HTG HUF IDR ILS INR ' +
  'IRR JMD KES KGS KHR KPW KYD KZT LAK LBP LKR LRD LSL MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MXV MYR MZN NAD NGN NIO ' +
  'NOK NPR NZD PAB PEN PGK PHP PKR PLN QAR RON RSD RUB SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT ' +
  'TOP TRY TTD TWD TZS UAH USD USN UYU UZS VED VES WST XCD YER ZAR ZMW ZWG ZWL';

const EXPONENTS = new Map<string, number>([
  ...EXPONENT_0.split(' ').map((c) => [c, 0] as const),
  ...EXPONENT_2.split(' ').map((c) => [c, 2] as const),
  ...EXPONENT_3.split(' ').map((c) => [c, 3] as const),
  ...EXPONENT_4.split(' ').map((c) => [c, 4] as const),
]);

/** Largest amount in minor units: 15 significant digits stay exact as a JSON number. */
export const MAX_MINOR = 999_999_999_999_999;

/** The currencies whose exponent is `exponent` (ISO 4217): SQL that scales amounts by currency lists them. */
export function currenciesWithExponent(exponent: number): string[] {
  return [...EXPONENTS].filter(([, e]) => e === exponent).map(([c]) => c);
}

export function isCurrency(code: string): boolean {
  return EXPONENTS.has(code);
}

/** The ISO 4217 minor-unit exponent (JPY 0, USD 2, KWD 3). */
export function exponentOf(currency: string): number {
  const e = EXPONENTS.get(currency);
  if (e === undefined) throw new Error(`unknown currency ${currency}`);
  return e;
}

export function checkCurrency(field: string, code: unknown): string {
  if (typeof code !== 'string' || !EXPONENTS.has(code))
    throw invalidParameter(field, 'must be an ISO 4217 currency code (upper case, e.g. USD)');
  return code;
}

/**
 * An amount given as a JSON number or a decimal string, in minor units of
 * `currency`. Refused: negative, not a finite decimal, more decimals than the
 * currency's exponent (e.g. 1.999 USD), past MAX_MINOR.
 */
export function toMinor(field: string, value: unknown, currency: string): number {
  // A JSON number's shortest round-trip text is the decimal the client wrote (up to 15 digits).
  const text = typeof value === 'number' && Number.isFinite(value) ? numberText(value) : value;
  if (typeof text !== 'string') throw invalidParameter(field, 'must be a decimal amount');
  const m = /^(\d{1,30})(?:\.(\d{1,20}))?$/.exec(text);
  if (!m) throw invalidParameter(field, 'must be a non-negative decimal amount such as 6.99');
  const exponent = exponentOf(currency);
  const decimals = (m[2] ?? '').replace(/0+$/, '');
  if (decimals.length > exponent) {
    throw invalidParameter(field, `has more decimals than ${currency} allows (${exponent}, ISO 4217)`);
  }
  const minor = Number(m[1]! + decimals.padEnd(exponent, '0'));
  if (!Number.isSafeInteger(minor) || minor > MAX_MINOR) throw invalidParameter(field, 'is too large');
  return minor;
}

/** Decimal text of a JS number without exponent notation. */
function numberText(n: number): string {
  const s = String(n);
  if (!/e/i.test(s)) return s;
  if (n < 0) return s;
  // 1e-7 and the like: far too many decimals for any currency; 1e21: too large. Spell them out so the checks above apply.
  return n < 1 ? n.toFixed(20) : BigInt(Math.round(n)).toString();
}

/** Minor units as exact decimal text: 699 USD -> "6.99", 120 JPY -> "120". */
export function minorToText(minor: number, currency: string): string {
  const exponent = exponentOf(currency);
  if (exponent === 0) return String(minor);
  const digits = String(minor).padStart(exponent + 1, '0');
  return `${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
}

/**
 * Minor units as the JSON number of the wire. The number parsed from the
 * exact decimal text serialises back to that text (JSON.stringify writes the
 * shortest round-trip form), so 699 USD is written as 6.99, never 6.990000001.
 */
export function minorToNumber(minor: number, currency: string): number {
  return Number(minorToText(minor, currency));
}
