#!/usr/bin/env node
// Writes kits/vectors.json: the test vectors every game-server kit (kits/*) runs, computed by the
// service's own signing code (the built packages: the SDK's canonical md5 form, MAC and 5.3 sign
// base, and packages/server's rsaSignText, which signs every call to a game). Deterministic: the
// two RSA test keys are read back from the committed file (made once when it does not exist),
// timestamps and nonces are fixed, and RSA PKCS#1 v1.5 is deterministic.
//   node scripts/gen-kit-vectors.mjs          write the file
//   node scripts/gen-kit-vectors.mjs --check  exit 1 when the committed file is stale
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { buildKitVectors } from './kit-vectors.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const file = path.join(root, 'kits/vectors.json');

const committed = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
const keys = committed ? JSON.parse(committed).keys : undefined;
const text = await buildKitVectors(keys ?? newKeys());

if (process.argv.includes('--check')) {
  if (text !== committed) {
    console.error('kits/vectors.json is stale: run node scripts/gen-kit-vectors.mjs and commit it');
    process.exit(1);
  }
  console.log('kits/vectors.json is up to date');
} else {
  fs.writeFileSync(file, text);
  console.log(`wrote ${path.relative(root, file)}`);
}

/** Two RSA-2048 test key pairs, published on purpose: never use them for anything but tests. */
function newKeys() {
  const pair = () => {
    const { publicKey, privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
    return {
      publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }),
      privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }),
    };
  };
  return { 'kit-test-2025-01': pair(), 'kit-test-2025-07': pair() };
}
