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
    // Some reports in first (on a loaded machine the first may take longer than any fixed pause).
    for (const until = Date.now() + 30_000; accepted.length < 3 && Date.now() < until;)
      await new Promise((r) => setTimeout(r, 50));
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

  it('writes every file of a backup 0600 and every folder 0700, and leaves no -wal or -shm file', async () => {
    const walk = (dir: string): string[] =>
      fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
        const p = path.join(dir, e.name);
        return e.isDirectory() ? [p, ...walk(p)] : [p];
      });
    for (const folder of [backupDir, restoredDir]) {
      assert.equal(fs.statSync(folder).mode & 0o777, 0o700, folder);
      const entries = walk(folder);
      assert.ok(entries.some((p) => p.endsWith('platform.db')));
      for (const p of entries) {
        const st = fs.statSync(p);
        assert.equal(st.mode & 0o777, st.isDirectory() ? 0o700 : 0o600, `${p} is ${(st.mode & 0o777).toString(8)}`);
      }
      if (folder === backupDir)
        assert.deepEqual(
          entries.filter((p) => /-(wal|shm)$/.test(p)),
          [],
          'no SQLite leftovers in the backup',
        );
    }
  });

  /** A copy of the good backup, damaged by `damage`; its restore must fail with a message matching `says`. */
  async function refused(name: string, damage: (dir: string) => void, says: RegExp): Promise<string> {
    const dir = path.join(root, `damaged-${name}`);
    fs.cpSync(backupDir, dir, { recursive: true });
    damage(dir);
    const target = path.join(root, `elsewhere-${name}`);
    const result = await runCli({ DATA_DIR: target }, ['restore', dir]);
    assert.notEqual(result.code, 0, `${name}: refused`);
    const message = result.stderr.trim();
    assert.match(message, says, name);
    assert.doesNotMatch(message, /^\s+at /m, `${name}: a sentence, not a stack`);
    assert.ok(!fs.existsSync(path.join(target, 'platform.db')), `${name}: nothing restored`);
    assert.ok(!fs.existsSync(path.join(target, 'master.key')), `${name}: no key written either`);
    return message;
  }
  const manifestOf = (dir: string) => JSON.parse(fs.readFileSync(path.join(dir, 'backup.json'), 'utf8'));
  const writeManifest = (dir: string, m: unknown) => fs.writeFileSync(path.join(dir, 'backup.json'), JSON.stringify(m));
  /** Rewrites the manifest's checksum to match the (damaged) copy: only the integrity check can tell. */
  const matchChecksum = (dir: string) => {
    const m = manifestOf(dir);
    m.database.sha256 = crypto
      .createHash('sha256')
      .update(fs.readFileSync(path.join(dir, 'platform.db')))
      .digest('hex');
    writeManifest(dir, m);
  };

  it('refuses each kind of damaged backup with a sentence naming the file and what is wrong with it', async () => {
    await refused(
      'garbled-manifest',
      (dir) => fs.writeFileSync(path.join(dir, 'backup.json'), '{"format": "game-platform-backup-v1", "datab'),
      /backup\.json is not valid JSON \(.*\): the backup is damaged/,
    );
    await refused(
      'manifest-shape',
      (dir) => {
        const m = manifestOf(dir);
        delete m.database.sha256;
        writeManifest(dir, m);
      },
      /backup\.json is not a backup manifest of this service: \/database\/sha256 /,
    );
    await refused(
      'manifest-path',
      (dir) => {
        const m = manifestOf(dir);
        m.database.file = '../../etc/passwd';
        writeManifest(dir, m);
      },
      /backup\.json is not a backup manifest of this service: \/database\/file /,
    );
    await refused(
      'format',
      (dir) => writeManifest(dir, { ...manifestOf(dir), format: 'something-else' }),
      /backup\.json names the format "something-else", which this service cannot restore/,
    );
    await refused(
      'no-manifest',
      (dir) => fs.rmSync(path.join(dir, 'backup.json')),
      /holds no backup\.json: not a backup of this service/,
    );
    await refused(
      'missing-database',
      (dir) => fs.rmSync(path.join(dir, 'platform.db')),
      /platform\.db is missing: .*backup\.json lists it, so the backup is incomplete/,
    );
    await refused(
      'checksum',
      (dir) => fs.appendFileSync(path.join(dir, 'platform.db'), Buffer.from([0])),
      /platform\.db differs from the SHA-256 that .*backup\.json records for it: the backup is damaged or was altered/,
    );
    // Damaged pages, the checksum made to match: SQLite's own check tells.
    await refused(
      'damaged-pages',
      (dir) => {
        const file = path.join(dir, 'platform.db');
        const bytes = fs.readFileSync(file);
        for (let at = 4096 + 100; at < bytes.length; at += 4096) bytes.fill(0x5a, at, at + 200);
        fs.writeFileSync(file, bytes);
        matchChecksum(dir);
      },
      /platform\.db (fails SQLite's integrity check|is not a sound SQLite database of this service \(SQLite: .*\)).*: the backup is damaged/,
    );
    await refused(
      'not-a-database',
      (dir) => {
        fs.writeFileSync(path.join(dir, 'platform.db'), 'x'.repeat(8192));
        matchChecksum(dir);
      },
      /platform\.db is not a sound SQLite database of this service \(SQLite: file is not a database\): the backup is damaged/,
    );
    await refused(
      'missing-master-key',
      (dir) => fs.rmSync(path.join(dir, 'master.key')),
      /master\.key is missing: .*backup\.json lists it, and without it the sealed secrets .* cannot be opened/,
    );
    await refused(
      'empty-master-key',
      (dir) => fs.writeFileSync(path.join(dir, 'master.key'), '\n'),
      /master\.key holds no master key .*: the backup is damaged/,
    );
    await refused(
      'missing-evidence',
      (dir) => {
        writeManifest(dir, { ...manifestOf(dir), evidenceFiles: manifestOf(dir).evidenceFiles + 1 });
      },
      /evidence holds \d+ files where .*backup\.json lists \d+: the backup is incomplete/,
    );
    await refused(
      'newer-version',
      (dir) => {
        const file = path.join(dir, 'platform.db');
        const db = new SQLite(file);
        db.prepare('insert into kysely_migration (name, timestamp) values (?, ?)').run(
          '9999_future',
          new Date().toISOString(),
        );
        db.close();
        const m = manifestOf(dir);
        m.database.migrations.push('9999_future');
        writeManifest(dir, m);
        matchChecksum(dir);
      },
      /platform\.db was made by a newer version of the service \(migrations 9999_future are unknown here\)/,
    );
  });

  it('refuses a DATA_DIR that already holds a database, and a backup folder that is not empty', async () => {
    const occupied = await runCli({ DATA_DIR: restoredDir }, ['restore', backupDir]);
    assert.notEqual(occupied.code, 0);
    assert.match(occupied.stderr, /already holds a database/);
    const notEmpty = await runCli({ DATA_DIR: dataDir }, ['backup', backupDir]);
    assert.notEqual(notEmpty.code, 0);
    assert.match(notEmpty.stderr, /not empty/);
  });
});
