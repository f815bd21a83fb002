import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

/**
 * A PostgreSQL server of a test's own: initdb into a temporary folder, on a free loopback port, with the machine's
 * PostgreSQL binaries. A test can stop, restart and kill it (or its backends) without disturbing any other test,
 * which share the machine's server. PostgreSQL refuses to run as root, so as root the server runs as `postgres`.
 */
export interface PgServer {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  port: number;
  /** pg_ctl stop with the given mode ('fast' closes sessions cleanly; 'immediate' is a crash). */
  stop(mode?: 'smart' | 'fast' | 'immediate'): void;
  start(): void;
  restart(mode?: 'fast' | 'immediate'): void;
  /** pg_terminate_backend of every other client backend: what a failover or an operator's kill looks like. */
  terminateBackends(): Promise<number>;
  /** Stops the server and removes its folder. */
  destroy(): void;
}

function binDir(): string {
  const fromPgConfig = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' });
  const candidates = [
    fromPgConfig.status === 0 ? fromPgConfig.stdout.trim() : '',
    ...(fs.existsSync('/usr/lib/postgresql')
      ? fs
          .readdirSync('/usr/lib/postgresql')
          .sort()
          .reverse()
          .map((v) => `/usr/lib/postgresql/${v}/bin`)
      : []),
  ];
  const dir = candidates.find((d) => d && fs.existsSync(path.join(d, 'initdb')));
  if (!dir)
    throw new Error("PostgreSQL server binaries (initdb, pg_ctl) not found: install Debian's postgresql package");
  return dir;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Runs a PostgreSQL binary (as `postgres` when this process is root: PostgreSQL refuses root). */
function runner(dir: string): (cmd: string, args: string[]) => void {
  const bin = binDir();
  const asRoot = process.getuid?.() === 0;
  return (cmd, args) => {
    const [file, argv] = asRoot
      ? ['runuser', ['-u', 'postgres', '--', path.join(bin, cmd), ...args]]
      : [path.join(bin, cmd), args];
    const result = spawnSync(file, argv, { encoding: 'utf8', cwd: dir });
    if (result.status !== 0)
      throw new Error(`${cmd} ${args.join(' ')} failed (${result.status}): ${result.stderr}${result.stdout}`);
  };
}

/** A folder for one server, owned by `postgres` when this process is root. */
function serverDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gp-pg-'));
  if (process.getuid?.() === 0) execFileSync('chown', ['postgres:', dir]);
  return dir;
}

export async function startPgServer(): Promise<PgServer> {
  const dir = serverDir();
  const dataDir = path.join(dir, 'data');
  const run = runner(dir);
  run('initdb', ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale=C.UTF-8']);
  // initdb's defaults already suit a primary of startPgStandby: wal_level=replica, max_wal_senders=10, and pg_hba
  // trusts replication connections from 127.0.0.1.
  return serve(dir, dataDir, await freePort(), run);
}

/**
 * A streaming hot standby of `primary` (a server of startPgServer): `pg_basebackup -R` into a folder of its own,
 * started on another free port. Read-only; replays the primary's WAL as it streams (pause it with
 * `select pg_wal_replay_pause()` on the standby). What DATABASE_READ_URL names in the read replica's test.
 */
export async function startPgStandby(primary: PgServer): Promise<PgServer> {
  const dir = serverDir();
  const dataDir = path.join(dir, 'data');
  const run = runner(dir);
  // -R writes standby.signal and primary_conninfo; -X stream copies the WAL made during the copy.
  run('pg_basebackup', [
    '-D',
    dataDir,
    '-h',
    '127.0.0.1',
    '-p',
    String(primary.port),
    '-U',
    'postgres',
    '-R',
    '-X',
    'stream',
    '--no-sync',
  ]);
  return serve(dir, dataDir, await freePort(), run);
}

function serve(dir: string, dataDir: string, port: number, run: (cmd: string, args: string[]) => void): PgServer {
  // fsync off: the tests stop and kill the server process, never the machine, so the OS keeps every write.
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  const start = () =>
    run('pg_ctl', ['start', '-w', '-t', '60', '-D', dataDir, '-l', path.join(dir, 'server.log'), '-o', options]);
  const stop = (mode: 'smart' | 'fast' | 'immediate' = 'fast') =>
    run('pg_ctl', ['stop', '-w', '-t', '60', '-D', dataDir, '-m', mode]);
  start();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  return {
    url,
    port,
    stop,
    start,
    restart(mode = 'fast') {
      stop(mode);
      start();
    },
    async terminateBackends() {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const { rows } = await client.query(
          `select count(*) filter (where pg_terminate_backend(pid)) as n from pg_stat_activity
           where pid <> pg_backend_pid() and backend_type = 'client backend'`,
        );
        return Number(rows[0].n);
      } finally {
        await client.end();
      }
    },
    destroy() {
      try {
        stop('immediate');
      } catch {
        /* already stopped */
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
