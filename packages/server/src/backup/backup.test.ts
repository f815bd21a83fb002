import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { runCli, spawnService, type ChildService } from '../testing/child.js';
import { testBackend } from '../testing/database.js';
import { signMd5 } from '../testing/service.js';

/**
 * Backups of the embedded default, over real processes: a backup taken with the CLI while the service serves a
 * stream of writes is a consistent snapshot; restored into a new DATA_DIR it starts and serves what was there (the
 * app, its sealed md5 secret, the admin token, the reports, the evidence); a damaged backup or an occupied DATA_DIR
 * is refused.
 */
describe('backup and restore (embedded SQLite)', { skip: testBackend() !== 'sqlite' && 'embedded only' }, () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'gp-backup-'));
  const dataDir = path.join(root, 'data');
  const backupDir = path.join(root, 'backup');
  const restoredDir = path.join(root, 'restored');
  const children: ChildService[] = [];
  let adminToken: string;
  let app: { appId: number; clientId: string; secret: string };

  const report = (url: string, marker: string, secret = app.secret) =>
    fetch(`${url}/svc/reporting/open/v1/player/report`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(
        signMd5(
          {
            client_info: { client_id: app.clientId },
            reporter: { role_id: `reporter-${marker}` },
            reportee: { role_id: 'cheater' },
            reasons: [{ id: '7' }],
            extras: marker,
          },
          secret,
        ),
      ),
    });
  const reportMarkers = (file: string) => {
    const db = new SQLite(file, { readonly: true });
    try {
      return new Set(
        (db.prepare('select extras from reports').all() as Array<{ extras: string }>).map((r) => r.extras),
      );
    } finally {
      db.close();
    }
  };

  before(async () => {
    const child = await spawnService({ DATA_DIR: dataDir, LOG_LEVEL: 'info' });
    children.push(child);
    adminToken = fs.readFileSync(path.join(dataDir, 'admin-token'), 'utf8').trim();
    const res = await fetch(`${child.url}/admin/v1/apps`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'backed-up game' }),
    });
    app = (await res.json()) as typeof app;
  });

  after(() => {
    for (const child of children) child.process.kill('SIGKILL');
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('backs up while the service serves writes: a consistent snapshot of what was committed', async () => {
    const service = children[0]!;
    const accepted: string[] = [];
    let writing = true;
    const writer = (async () => {
      while (writing) {
        const marker = crypto.randomUUID();
        if ((await report(service.url, marker)).status === 200) accepted.push(marker);
      }
    })();
    await new Promise((r) => setTimeout(r, 300));
    const acceptedBefore = accepted.length;
    const result = await runCli({ DATA_DIR: dataDir }, ['--json', 'backup', backupDir]);
    const acceptedAfter = accepted.length;
    writing = false;
    await writer;
    assert.equal(result.code, 0, result.stderr);
    const manifest = JSON.parse(result.stdout);
    assert.deepEqual(manifest.keyFiles, ['master.key', 'admin-token']);
    assert.ok(manifest.database.migrations.length >= 10);
    assert.equal(fs.statSync(path.join(backupDir, 'master.key')).mode & 0o777, 0o600);

    // Every report accepted before the backup started is in it; none accepted after it finished; and the copy is
    // a prefix of the stream (a snapshot, not a torn read).
    const inBackup = reportMarkers(path.join(backupDir, 'platform.db'));
    assert.ok(
      accepted.slice(0, acceptedBefore).every((m) => inBackup.has(m)),
      'every report committed before is in it',
    );
    assert.ok(
      accepted.slice(acceptedAfter).every((m) => !inBackup.has(m)),
      'nothing committed after it finished',
    );
    const included = accepted.map((m) => inBackup.has(m));
    assert.equal(
      included.indexOf(false) === -1 ? included.length : included.indexOf(false),
      included.filter(Boolean).length,
    );
    assert.ok(inBackup.size >= acceptedBefore && acceptedBefore > 0);
  });

  it('a restored copy starts and serves what was there: the app, its sealed secret, the admin token, the reports', async () => {
    const restore = await runCli({ DATA_DIR: restoredDir }, ['restore', backupDir]);
    assert.equal(restore.code, 0, restore.stderr);
    const inBackup = reportMarkers(path.join(backupDir, 'platform.db'));
    const restored = await spawnService({ DATA_DIR: restoredDir, LOG_LEVEL: 'info' });
    children.push(restored);
    const got = await fetch(`${restored.url}/admin/v1/apps/${app.appId}`, {
      headers: { authorization: `Bearer ${adminToken}` },
    });
    assert.equal(got.status, 200, 'the admin token of the backup works');
    assert.equal(((await got.json()) as any).clientId, app.clientId);
    // The md5 secret is sealed under the master key: it opens only because master.key came with the backup.
    assert.equal((await report(restored.url, 'after-restore')).status, 200);
    const now = reportMarkers(path.join(restoredDir, 'platform.db'));
    assert.ok(
      [...inBackup].every((m) => now.has(m)),
      'every report of the backup is served',
    );
  });

  it('refuses a damaged backup, and a DATA_DIR that already holds a database', async () => {
    const occupied = await runCli({ DATA_DIR: restoredDir }, ['restore', backupDir]);
    assert.notEqual(occupied.code, 0);
    assert.match(occupied.stderr, /already holds a database/);

    const damaged = path.join(root, 'damaged');
    fs.cpSync(backupDir, damaged, { recursive: true });
    const db = path.join(damaged, 'platform.db');
    const bytes = fs.readFileSync(db);
    const at = bytes.length - 100;
    bytes[at] = bytes[at]! ^ 0xff;
    fs.writeFileSync(db, bytes);
    const refused = await runCli({ DATA_DIR: path.join(root, 'elsewhere') }, ['restore', damaged]);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /damaged/);
    assert.ok(!fs.existsSync(path.join(root, 'elsewhere', 'platform.db')), 'nothing restored');

    const notEmpty = await runCli({ DATA_DIR: dataDir }, ['backup', backupDir]);
    assert.notEqual(notEmpty.code, 0);
    assert.match(notEmpty.stderr, /not empty/);
  });
});
