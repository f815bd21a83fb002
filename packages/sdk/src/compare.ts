import { timingSafeEqual } from 'node:crypto';
import { Buffer } from 'node:buffer';

/**
 * Constant-time comparison of two strings' UTF-8 bytes.
 * Different lengths return false at once (the length of a signature is not secret).
 */
export function safeEqualStrings(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  if (x.length !== y.length) return false;
  return timingSafeEqual(x, y);
}

/** True when the string contains a C0 control character or DEL. */
export function hasControlChar(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}
