/** Test-only helpers: loading the published vector files and running openssl. Not exported by index.ts. */
import { readFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import type { SignableValue } from './md5.js';

export interface Md5Vector {
  description: string;
  params: Record<string, SignableValue>;
  secret: string;
  canonical: string;
  sign: string;
  bigintKeys?: string[];
}

export interface MacVector {
  description: string;
  kid: string;
  macKey: string;
  ts: string | number;
  nonce: string;
  method: string;
  uri: string;
  host: string;
  port: string | number;
  signBase: string;
  mac: string;
  header: string;
}

export interface RsaVector {
  description: string;
  keyId: string;
  privateKeyPem: string;
  publicKeyPem: string;
  method: string;
  path: string;
  timestamp: string;
  nonce: string;
  body: string;
  signBase: string;
  signature: string;
  headers: Record<string, string>;
}

/** Reads `test-vectors/<file>` relative to this module (dist/ or src/). */
export function vectorText(file: string): string {
  return readFileSync(new URL(`../test-vectors/${file}`, import.meta.url), 'utf8');
}

export function loadVectors<T>(name: 'md5' | 'mac' | 'rsa'): T[] {
  const v: unknown = JSON.parse(vectorText(`${name}.json`));
  if (!Array.isArray(v) || v.length === 0) throw new Error(`${name}.json: expected a non-empty array`);
  return v as T[];
}

export const OPENSSL = '/usr/bin/openssl';

/** Runs openssl with `input` on stdin and returns stdout. */
export function openssl(args: string[], input: Uint8Array | string): Buffer {
  return execFileSync(OPENSSL, args, { input, stdio: ['pipe', 'pipe', 'pipe'] });
}

/** A scratch directory under os.tmpdir(), removed by the returned cleanup. */
export function scratchDir(): {
  dir: string;
  file: (name: string, data: string | Uint8Array) => string;
  cleanup: () => void;
} {
  const dir = mkdtempSync(join(tmpdir(), 'sdk-sign-'));
  return {
    dir,
    file: (name, data) => {
      const p = join(dir, name);
      writeFileSync(p, data);
      return p;
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
