import crypto from 'node:crypto';

/**
 * Random bytes drawn from the CSPRNG in bulk, one call per `size` bytes
 * instead of one per small draw: a call per id or nonce was a visible share of
 * the CPU at the rates of 4.2 and of the signed calls to games.
 */
export class RandomPool {
  #buf = Buffer.alloc(0);
  #at = 0;

  constructor(private readonly size = 4096) {}

  /** Copies `length` fresh random bytes into `target` at `offset`. */
  fill(target: Buffer, offset: number, length: number): void {
    const at = this.#take(length);
    this.#buf.copy(target, offset, at, at + length);
  }

  /** `length` fresh random bytes, as text in `encoding`. */
  text(length: number, encoding: BufferEncoding): string {
    const at = this.#take(length);
    return this.#buf.toString(encoding, at, at + length);
  }

  #take(length: number): number {
    if (this.#at + length > this.#buf.length) {
      this.#buf = crypto.randomBytes(Math.max(this.size, length));
      this.#at = 0;
    }
    const at = this.#at;
    this.#at += length;
    return at;
  }
}
