import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  MissingMasterKeyError,
  SecretBox,
  decodeMasterKey,
  masterKeyId,
  readOrCreateSecretFile,
  safeEqual,
} from './secret-box.js';

/** The format of values sealed before the keyring existed: v1.<iv>.<ciphertext>.<tag>. */
function sealV1(key: Buffer, plaintext: string, context: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), ct.toString('base64url'), cipher.getAuthTag().toString('base64url')].join(
    '.',
  );
}

describe('secrets at rest', () => {
  const box = new SecretBox(crypto.randomBytes(32));

  it('round-trips and never repeats a ciphertext', () => {
    const a = box.seal('s3cret', 'ctx');
    assert.notEqual(a, box.seal('s3cret', 'ctx'));
    assert.equal(box.open(a, 'ctx'), 's3cret');
    assert.ok(!a.includes('s3cret'));
  });

  it('refuses another context, another key and a tampered value', () => {
    const sealed = box.seal('s3cret', 'app-secret:a');
    assert.throws(() => box.open(sealed, 'app-secret:b'));
    assert.throws(() => new SecretBox(crypto.randomBytes(32)).open(sealed, 'app-secret:a'));
    const parts = sealed.split('.');
    // One bit of the ciphertext flipped (replacing a byte could leave it as it was, 1 time in 256).
    const ciphertext = Buffer.from(parts[3]!, 'base64url');
    ciphertext[0] = ciphertext[0]! ^ 0x01;
    parts[3] = ciphertext.toString('base64url');
    assert.throws(() => box.open(parts.join('.'), 'app-secret:a'));
  });

  it('decodes base64 and base64url master keys of 32 bytes only', () => {
    const key = crypto.randomBytes(32);
    assert.deepEqual(decodeMasterKey(key.toString('base64')), key);
    assert.deepEqual(decodeMasterKey(key.toString('base64url')), key);
    assert.throws(() => decodeMasterKey(crypto.randomBytes(16).toString('base64')));
  });

  it('creates a secret file once, mode 0600, and reads it back after', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gp-box-'));
    const first = readOrCreateSecretFile(dir, 'k', () => 'one');
    const second = readOrCreateSecretFile(dir, 'k', () => 'two');
    assert.equal(first.created, true);
    assert.equal(second.value, 'one');
    assert.equal(fs.statSync(first.file).mode & 0o777, 0o600);
    fs.rmSync(dir, { recursive: true });
  });

  it('compares in constant time regardless of length', () => {
    assert.ok(safeEqual('abc', 'abc'));
    assert.ok(!safeEqual('abc', 'abd'));
    assert.ok(!safeEqual('abc', 'abcd'));
  });
});
