import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { loadConfig } from '../config/config.js';
import { masterKeyId } from '../crypto/secret-box.js';
import { createServices } from '../services.js';

const run = promisify(execFile);
const cli = new URL('../cli.js', import.meta.url).pathname;

/**
 * `master-key` in embedded mode, as a real process on a DATA_DIR whose
 * master.key the service generated: rotate, reseal, retire, with status in
 * between, and the refusals that keep an operator from losing a secret.
 */
describe('master-key CLI (embedded mode)', () => {
  let dataDir: string;
  const env = (extra: Record<string, string> = {}) => ({
    ...process.env,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    DATABASE_URL: '',
    MASTER_KEY: '',
    MASTER_KEY_PREVIOUS: '',
    ...extra,
  });
  const mk = async (...args: string[]) =>
    JSON.parse((await run(process.execPath, [cli, '--json', 'master-key', ...args], { env: env() })).stdout);
  // Exit 2 for a configuration that cannot load, 1 for a refusal (docs/operations.md, the CLI's exit codes).
  const fails = (args: string[], extra: Record<string, string>, message: RegExp, exitCode = 1) =>
    assert.rejects(
      run(process.execPath, [cli, 'master-key', ...args], { env: env(extra) }),
      (err: { stderr: string; code: number }) => {
        assert.equal(err.code, exitCode);
        assert.match(err.stderr, message);
        return true;
      },
    );
  const keyFile = () => fs.readFileSync(path.join(dataDir, 'master.key'), 'utf8').trim().split('\n');
  const idOfLine = (line: string) => masterKeyId(Buffer.from(line, 'base64'));

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gp-mk-'));
    // First start generates DATA_DIR/master.key; an app adds a sealed secret.
    const services = await createServices(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }));
    await services.apps.create({ name: 'mk game' });
    await services.close();
  });
  after(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('rotates, reseals and retires', async () => {
    const [original] = keyFile();
    const idOld = idOfLine(original!);
    const before = await mk('status');
    assert.equal(before.current, idOld);
    assert.deepEqual(before.previous, []);
    assert.deepEqual(before.columns.find((c: { column: string }) => c.column === 'apps.secret_enc').byKey, {
      [idOld]: 1,
    });

    const rotated = await mk('rotate');
    assert.deepEqual(rotated.previous, [idOld]);
    const lines = keyFile();
    assert.equal(lines.length, 2);
    assert.equal(lines[1], original);
    assert.equal(idOfLine(lines[0]!), rotated.current);
    assert.equal(fs.statSync(path.join(dataDir, 'master.key')).mode & 0o777, 0o600);

    const during = await mk('status');
    assert.equal(during.current, rotated.current);
    assert.deepEqual(during.previous, [idOld]);
    await fails(['retire'], {}, /still sealed under a previous key[\s\S]*apps\.secret_enc: 1 under/);

    const resealed = await mk('reseal');
    assert.deepEqual(
      resealed.columns.map((c: { column: string; resealed: number }) => [c.column, c.resealed]),
      [
        ['apps.secret_enc', 1],
        ['apps.previous_secret_enc', 0],
        ['tokens.mac_key_enc', 0],
        ['platform_keys.private_pem_enc', 1],
        ['app_store_settings.api_private_key_enc', 0],
        ['app_store_settings.service_account_enc', 0],
        ['people.totp_secret_enc', 0],
        ['person_invitations.pending_totp_enc', 0],
        ['payment_provider_settings.secrets_enc', 0],
      ],
    );

    const retired = await mk('retire');
    assert.deepEqual(retired.retired, [idOld]);
    assert.deepEqual(keyFile(), [lines[0]]);
    const afterAll = await mk('status');
    assert.deepEqual(afterAll.previous, []);
    assert.ok(
      afterAll.columns.every(
        (c: { byKey: Record<string, number>; unreadable: number }) =>
          c.unreadable === 0 && Object.keys(c.byKey).every((k) => k === rotated.current),
      ),
    );
  });

  it('prints a fresh key for MASTER_KEY, with its id', async () => {
    const { key, id } = await mk('generate');
    assert.equal(Buffer.from(key, 'base64').length, 32);
    assert.equal(id, idOfLine(key));
  });

  it('refuses to rotate a key given by configuration, and names a bad previous key', async () => {
    await fails(
      ['rotate'],
      { MASTER_KEY: crypto.randomBytes(32).toString('base64') },
      /MASTER_KEY is set: rotate by configuration/,
    );
    await fails(
      ['status'],
      { MASTER_KEY_PREVIOUS: 'not-a-key-of-32-bytes-aaaaaaaaaaaaaaaaaaaaaaaaaaaaa' },
      /MASTER_KEY_PREVIOUS \(entry 1\): must be the base64/,
      2,
    );
  });

  it('without the key that sealed the values, refuses to start and names the key it needs', async () => {
    await fails(
      ['status'],
      { MASTER_KEY: crypto.randomBytes(32).toString('base64') },
      new RegExp(`master key ${idOfLine(keyFile()[0]!)}, which is not configured: add it to MASTER_KEY_PREVIOUS`),
    );
  });
});
