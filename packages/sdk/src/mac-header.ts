/**
 * Spec 5.2: parsing and building of `Authorization: MAC id="..",ts="..",nonce="..",mac=".."`.
 */

export interface MacCredentials {
  id: string;
  ts: string;
  nonce: string;
  mac: string;
}

export type MacHeaderFailure = 'missing' | 'scheme' | 'malformed' | 'duplicate' | 'missing_param';

export class MacHeaderError extends Error {
  readonly reason: MacHeaderFailure;
  constructor(reason: MacHeaderFailure, detail: string) {
    super(`MAC Authorization header: ${reason}: ${detail}`);
    this.name = 'MacHeaderError';
    this.reason = reason;
  }
}

export const MAX_MAC_HEADER_LENGTH = 4096;
const REQUIRED = ['id', 'ts', 'nonce', 'mac'] as const;

const isSpace = (c: string | undefined): boolean => c === ' ' || c === '\t';
// RFC 7230 tchar, as a table by char code: this runs for every character of every MAC header.
const TOKEN_CHARS = new Uint8Array(128);
for (const c of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!#$%&'*+.^_`|~-")
  TOKEN_CHARS[c.charCodeAt(0)] = 1;
const isTokenChar = (c: string | undefined): boolean =>
  c !== undefined && c.length === 1 && TOKEN_CHARS[c.charCodeAt(0)] === 1;

/**
 * Tolerant parser: scheme `MAC` in any case, params in any order, optional spaces
 * around `,` and `=`, quoted values with `\"` / `\\` escapes, unknown params ignored.
 * Param names are case-insensitive. Control characters are not allowed in values.
 */
export function parseMacAuthorization(header: string | undefined): MacCredentials {
  if (typeof header !== 'string' || header.trim() === '')
    throw new MacHeaderError('missing', 'no Authorization header');
  if (header.length > MAX_MAC_HEADER_LENGTH) {
    throw new MacHeaderError('malformed', `longer than ${MAX_MAC_HEADER_LENGTH} characters`);
  }
  const s = header;
  let i = 0;
  const skipSpace = (): void => {
    while (isSpace(s[i])) i++;
  };
  const token = (): string => {
    const start = i;
    while (isTokenChar(s[i])) i++;
    return s.slice(start, i);
  };
  const bad = (what: string): never => {
    throw new MacHeaderError('malformed', `${what} at offset ${i}`);
  };

  skipSpace();
  const scheme = token();
  if (scheme.toLowerCase() !== 'mac')
    throw new MacHeaderError('scheme', `expected scheme MAC, got ${JSON.stringify(scheme.slice(0, 20))}`);
  if (i < s.length && !isSpace(s[i])) bad('expected a space after the scheme');

  const found = new Map<string, string>();
  skipSpace();
  while (i < s.length) {
    const name = token().toLowerCase();
    if (name === '') bad('expected a parameter name');
    skipSpace();
    if (s[i] !== '=') bad('expected "="');
    i++;
    skipSpace();
    if (s[i] !== '"') bad('expected a quoted value');
    i++;
    let value = '';
    for (;;) {
      // Plain characters up to the next quote or backslash are taken as one slice.
      const start = i;
      let code = s.charCodeAt(i);
      while (i < s.length && code !== 0x22 && code !== 0x5c) {
        if (code < 0x20 || code === 0x7f) bad('control character in value');
        code = s.charCodeAt(++i);
      }
      value += s.slice(start, i);
      if (i >= s.length) bad('unterminated quoted value');
      if (code === 0x22) break;
      // A backslash escapes the next character, which must not be a control character either.
      i++;
      if (i >= s.length) bad('unterminated escape');
      const escaped = s.charCodeAt(i);
      if (escaped < 0x20 || escaped === 0x7f) bad('control character in value');
      value += s[i];
      i++;
    }
    i++; // closing quote
    if (found.has(name)) throw new MacHeaderError('duplicate', `parameter ${name} given twice`);
    found.set(name, value);
    skipSpace();
    if (i >= s.length) break;
    if (s[i] !== ',') bad('expected ","');
    i++;
    skipSpace();
    if (i >= s.length) bad('trailing ","');
  }

  for (const k of REQUIRED) {
    if (!found.get(k))
      throw new MacHeaderError('missing_param', `parameter ${k} is ${found.has(k) ? 'empty' : 'missing'}`);
  }
  return { id: found.get('id')!, ts: found.get('ts')!, nonce: found.get('nonce')!, mac: found.get('mac')! };
}

/** Quotes a header parameter value, escaping `"` and `\`. */
export function quoteParam(v: string): string {
  return `"${v.replace(/["\\]/g, (m) => `\\${m}`)}"`;
}

/** `MAC id="<kid>",ts="<ts>",nonce="<nonce>",mac="<mac>"` */
export function formatMacAuthorization(c: MacCredentials): string {
  return `MAC id=${quoteParam(c.id)},ts=${quoteParam(c.ts)},nonce=${quoteParam(c.nonce)},mac=${quoteParam(c.mac)}`;
}
