import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The Preact, hooks and htm ESM browser builds from their npm packages, read once, for a page that serves them at
 * `urlPrefix` (e.g. /console/vendor/): hooks imports the bare "preact", rewritten to the URL it is served at.
 */
export function loadEsmVendor(urlPrefix: string): Map<string, Buffer> {
  const read = (specifier: string) => fs.readFileSync(fileURLToPath(import.meta.resolve(specifier)), 'utf8');
  const preact = read('preact');
  const hooks = read('preact/hooks');
  const bare = /\bfrom\s*"preact"/g;
  if ((hooks.match(bare) ?? []).length !== 1)
    throw new Error('preact/hooks no longer imports "preact" exactly once; update loadEsmVendor');
  return new Map([
    ['preact.module.js', Buffer.from(preact)],
    ['hooks.module.js', Buffer.from(hooks.replace(bare, `from"${urlPrefix}preact.module.js"`))],
    ['htm.module.js', Buffer.from(read('htm'))],
  ]);
}
