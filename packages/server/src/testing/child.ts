import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import { TEST_METRICS_TOKEN } from './service.js';

const CLI = fileURLToPath(new URL('../cli.js', import.meta.url));

export interface ChildService {
  url: string;
  process: ChildProcess;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
  /** Resolves with the exit code (or signal name). */
  exited: Promise<number | string>;
}

/** Runs `cli.js <args>` as its own process and waits until it listens (for `serve`). */
export async function spawnService(env: Record<string, string>, args: string[] = ['serve']): Promise<ChildService> {
  const child = spawn(process.execPath, ['--enable-source-maps', CLI, ...args], {
    env: {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'info',
      METRICS_TOKEN: TEST_METRICS_TOKEN,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => {
    out += d;
  });
  child.stderr!.on('data', (d) => {
    out += d;
  });
  const exited = new Promise<number | string>((resolve) =>
    child.on('exit', (code, signal) => resolve(code ?? signal ?? -1)),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`service did not start:\n${out}`));
    }, 60_000); // generous: on a loaded 2-core machine a start (module loading, migrations) took over 20 s
    const check = () => {
      const m = /service listening on (http:\/\/[^"\s]+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    child.stdout!.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`service exited (${code}) before listening:\n${out}`));
    });
  });
  return { url, process: child, output: () => out, exited };
}

/** Runs `cli.js <args>` to completion. */
export async function runCli(
  env: Record<string, string>,
  args: string[],
): Promise<{ code: number | string; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => {
    stdout += d;
  });
  child.stderr!.on('data', (d) => {
    stderr += d;
  });
  const code = await new Promise<number | string>((resolve) => child.on('exit', (c, s) => resolve(c ?? s ?? -1)));
  return { code, stdout, stderr };
}
