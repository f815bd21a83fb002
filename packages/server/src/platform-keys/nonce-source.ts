import crypto from 'node:crypto';

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
