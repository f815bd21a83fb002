import crypto from 'node:crypto';

/**
 * The 5.3 sign base as a string: `${METHOD}\n${path}\n${timestamp}\n${nonce}\n${body}\n`,
 * the path without its query. The SDK's callbackSignBase builds the same bytes
 * as a Buffer (sign-base.test.ts holds them equal); a string is what the
 * signing threads take (postMessage copies only its characters), and its UTF-8
 * bytes are the concatenation of the parts' bytes.
 */
export function signBaseText(i: { method: string; path: string; timestamp: string; nonce: string; body: string }): string {
  const q = i.path.indexOf('?');
  const path = q < 0 ? i.path : i.path.slice(0, q);
  const head = `${i.method.toUpperCase()}\n${path}\n${i.timestamp}\n${i.nonce}\n`;
  // Each part must be one line (the SDK refuses the same).
  if (head.split('\n').length !== 5) throw new TypeError('callback sign base: a value contains a line feed');
  return `${head}${i.body}\n`;
}

const NONCE_BYTES = 16;
const NONCES_PER_FILL = 256;

/**
 * Call nonces: 16 random bytes, base64url (like the SDK's default), cut from a
 * buffer filled 256 at a time instead of one system call per nonce.
 */
export class NonceSource {
  #buf = Buffer.alloc(0);
  #at = 0;

  next(): string {
    if (this.#at + NONCE_BYTES > this.#buf.length) {
      this.#buf = crypto.randomBytes(NONCE_BYTES * NONCES_PER_FILL);
      this.#at = 0;
    }
    const nonce = this.#buf.toString('base64url', this.#at, this.#at + NONCE_BYTES);
    this.#at += NONCE_BYTES;
    return nonce;
  }
}
