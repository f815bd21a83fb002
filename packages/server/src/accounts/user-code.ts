/**
 * userCode (2.2): the user id in Crockford base32 (0-9 A-Z without I L O U),
 * left-padded with `0` to at least 7 symbols, followed by one Luhn mod 32
 * check symbol. Stable (a function of the id), unique, case-insensitive on
 * input, and a mistyped code is caught by the check symbol.
 */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const MIN_SYMBOLS = 7;

function checkSymbol(body: string): string {
  // Luhn mod N (N = 32): double every second symbol from the right.
  let factor = 2;
  let sum = 0;
  for (let i = body.length - 1; i >= 0; i--) {
    let addend = factor * ALPHABET.indexOf(body[i]!);
    factor = factor === 2 ? 1 : 2;
    addend = Math.floor(addend / 32) + (addend % 32);
    sum += addend;
  }
  return ALPHABET[(32 - (sum % 32)) % 32]!;
}

export function encodeUserCode(userId: number): string {
  if (!Number.isSafeInteger(userId) || userId < 0) throw new RangeError('user id must be a non-negative safe integer');
  let body = '';
  let n = userId;
  do {
    body = ALPHABET[n % 32]! + body;
    n = Math.floor(n / 32);
  } while (n > 0);
  body = body.padStart(MIN_SYMBOLS, '0');
  return body + checkSymbol(body);
}

/** The user id of a userCode; null when it is not a well-formed code. */
export function decodeUserCode(code: string): number | null {
  const text = code.toUpperCase();
  if (!/^[0-9A-HJKMNP-TV-Z]{8,12}$/.test(text)) return null;
  const body = text.slice(0, -1);
  if (checkSymbol(body) !== text.slice(-1)) return null;
  let n = 0;
  for (const ch of body) n = n * 32 + ALPHABET.indexOf(ch);
  if (!Number.isSafeInteger(n)) return null;
  // Only the canonical form (no extra leading zeros) decodes.
  return encodeUserCode(n) === text ? n : null;
}
