import { readFileSync } from 'node:fs';

/**
 * The check of the Node.js version that the entry point (cli.ts) runs before loading anything else. It imports only
 * node:fs, so it loads on any Node.js. The required range is read from this package's package.json `engines.node`
 * (">=24.11.0 <25"), so the message names what package.json says.
 */
export function requiredNodeRange(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    engines?: { node?: string };
  };
  return pkg.engines?.node ?? '';
}

type Version = [number, number, number];

function parse(v: string): Version | undefined {
  const m = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(v.trim());
  return m ? [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0)] : undefined;
}

function compare(a: Version, b: Version): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

/** Whether `version` satisfies a range of space-separated comparators (">=24.11.0 <25"), the form engines uses. */
export function satisfies(version: string, range: string): boolean {
  const v = parse(version);
  if (!v) return false;
  for (const part of range.split(/\s+/).filter(Boolean)) {
    const m = /^(>=|<=|>|<|=)?(.+)$/.exec(part);
    const bound = m && parse(m[2]!);
    if (!m || !bound) return true; // a form this check does not read: leave it to npm rather than refuse to start
    const c = compare(v, bound);
    const ok = { '>=': c >= 0, '<=': c <= 0, '>': c > 0, '<': c < 0, '=': c === 0 }[m[1] ?? '='];
    if (!ok) return false;
  }
  return true;
}

/** One line saying which Node.js is needed and how to get it, or undefined when this one will do. */
export function nodeVersionProblem(version: string, range = requiredNodeRange()): string | undefined {
  if (!range || satisfies(version, range)) return undefined;
  return (
    `game-platform needs Node.js ${range} (package.json engines) but this is v${version}: ` +
    'run it through npm (npm start, npm run cli), which uses the Node.js the project pins after npm install, ' +
    'or install Node.js 24 from https://nodejs.org/ (e.g. nvm install 24).'
  );
}
