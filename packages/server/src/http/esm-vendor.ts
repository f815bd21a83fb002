import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The Preact, hooks and htm ESM browser builds from their npm packages, read once, for a page that serves them at
 * `urlPrefix` (e.g. /console/vendor/): hooks imports the bare "preact", rewritten to the URL it is served at. Also
 * the uPlot chart library (its ESM build and its stylesheet): it draws on a canvas and sets element styles through
 * the DOM only, so it works under a CSP without 'unsafe-inline'. And uqr, which encodes a QR code (the console shows a
 * new operator's TOTP URI as one); it has no imports, and the page draws its modules as SVG rectangles. And
 * @simplewebauthn/browser for the passkeys (served from here: no CDN).
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
    ['uPlot.esm.js', Buffer.from(read('uplot/dist/uPlot.esm.js'))],
    ['uPlot.min.css', Buffer.from(read('uplot/dist/uPlot.min.css'))],
    ['uqr.mjs', Buffer.from(read('uqr'))],
    // Passkeys: @simplewebauthn/browser's one-file bundle, which sets globalThis.SimpleWebAuthnBrowser when imported.
    ['simplewebauthn-browser.js', fs.readFileSync(simpleWebAuthnBundle())],
  ]);
}

/** The bundle of @simplewebauthn/browser (its exports map names only the ESM entry, beside which it lies). */
function simpleWebAuthnBundle(): string {
  const entry = fileURLToPath(import.meta.resolve('@simplewebauthn/browser'));
  return path.join(path.dirname(entry), '..', 'dist', 'bundle', 'index.umd.min.js');
}

/** The content type of a vendored file. */
export function vendorType(name: string): string {
  return name.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8';
}
