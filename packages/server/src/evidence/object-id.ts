import crypto from 'node:crypto';
import { safeEqual } from '../crypto/secret-box.js';
import { secretKey } from '../crypto/secret-key.js';

/**
 * Self-authenticating evidence object ids, so that issuing a signed upload
 * URL (4.2) writes nothing: the stored address itself proves that this
 * service issued it, to which app, for which size, and (optionally) to which
 * player. A report (4.1) checks the tag, then asks the storage whether the
 * object exists; the database learns of an upload when a report first cites it.
 *
 * The object file name is `<head><tag>.<ext>` (64 lowercase hex digits):
 * head = 16 bytes: flags (1: bound to a svcid, 2: s3 backend), declared size
 * (40 bits), URL expiry (unix seconds, 32 bits), 48 random bits; tag = the
 * first 16 bytes of HMAC-SHA256 over the address prefix (scheme, host and
 * path up to `evidence/`), app, head, extension and svcid. Changing any of
 * them, or citing it as another player, breaks the tag.
 */
export interface ObjectIdFacts {
  appId: number;
  backend: 'embedded' | 's3';
  size: number;
  /** Unix seconds when the signed URL stops working. */
  expires: number;
  /** The 4.2 `svcid`: only this reporter may cite the file. */
  svcid: string | undefined;
}

export interface ParsedAddress {
  /** The address up to `evidence/<appId>/`. */
  prefix: string;
  key: string;
  appId: number;
  backend: 'embedded' | 's3';
  size: number;
  expires: number;
  bound: boolean;
  ext: string;
  head: string;
  tag: string;
}

const BOUND = 1;
const S3 = 2;
/** `<prefix>evidence/<appId>/<64 hex>.<ext>`; greedy, so the last `evidence/` starts the key. */
const ADDRESS = /^(.*)(evidence\/([0-9]{1,15})\/([0-9a-f]{32})([0-9a-f]{32})\.([a-z0-9]{1,16}))$/;

export class ObjectIdSigner {
  /** `keys[0]` tags new addresses; an address tagged under any of them verifies (master key rotation). */
  private readonly keys: crypto.KeyObject[];

  constructor(keys: Buffer[]) {
    if (keys.length === 0) throw new Error('ObjectIdSigner needs a key');
    this.keys = keys.map(secretKey);
  }

  private tagOf(
    prefix: string,
    appId: number,
    head: string,
    ext: string,
    svcid: string | undefined,
    key = this.keys[0]!,
  ): string {
    return crypto
      .createHmac('sha256', key)
      .update(`evidence-object-v1\n${prefix}\n${appId}\n${head}\n${ext}\n${svcid ?? ''}`, 'utf8')
      .digest('hex')
      .slice(0, 32);
  }

  /** The object key for a new upload whose address will be `prefix + key`. */
  issue(prefix: string, f: ObjectIdFacts, ext: string): string {
    const head = Buffer.alloc(16);
    head[0] = (f.svcid ? BOUND : 0) | (f.backend === 's3' ? S3 : 0);
    head.writeUIntBE(f.size, 1, 5);
    head.writeUInt32BE(f.expires, 6);
    crypto.randomFillSync(head, 10, 6);
    const hex = head.toString('hex');
    return `evidence/${f.appId}/${hex}${this.tagOf(prefix, f.appId, hex, ext, f.svcid || undefined)}.${ext}`;
  }

  /** The facts of an address in this format, untrusted until `verify`; undefined for any other string. */
  parse(uri: string): ParsedAddress | undefined {
    const m = ADDRESS.exec(uri);
    if (!m) return undefined;
    const head = Buffer.from(m[4]!, 'hex');
    return {
      prefix: m[1]!,
      key: m[2]!,
      appId: Number(m[3]),
      backend: (head[0]! & S3) !== 0 ? 's3' : 'embedded',
      size: head.readUIntBE(1, 5),
      expires: head.readUInt32BE(6),
      bound: (head[0]! & BOUND) !== 0,
      ext: m[6]!,
      head: m[4]!,
      tag: m[5]!,
    };
  }

  /** Constant-time check of the tag, with the svcid the address is claimed for (undefined when not bound). */
  verify(a: ParsedAddress, svcid: string | undefined): boolean {
    return this.keys.some((key) => safeEqual(this.tagOf(a.prefix, a.appId, a.head, a.ext, svcid, key), a.tag));
  }
}
