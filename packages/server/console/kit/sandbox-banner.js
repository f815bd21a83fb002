// @ts-check
// sandbox-banner.js - the banner the console and the studio portal show while a sandbox is on (issue 41): sandbox
// payments (SANDBOX_PAYMENTS) or sandbox logins (SANDBOX_LOGIN), as the session answer's `sandbox` says.
import { useEffect, useState } from '/console/vendor/hooks.module.js';
import { html } from '/console/kit/ui.js';

/**
 * The session answer's `sandbox` (the console's and the portal's GET /session answer it alike).
 * @typedef {import('page-types').Answer<'/admin/v1/session'>['sandbox']} Sandbox
 */

/**
 * `loadSession` answers GET /session of the page's API; nothing is shown until it does, nor when no sandbox is on.
 * @param {{ loadSession: () => Promise<{ sandbox?: Sandbox } | undefined> }} props
 */
export function SandboxBanner({ loadSession }) {
  const [sandbox, setSandbox] = useState(/** @type {Sandbox | null} */ (null));
  useEffect(() => {
    loadSession().then(
      (me) => setSandbox(me && me.sandbox ? me.sandbox : null),
      () => setSandbox(null),
    );
  }, []);
  if (!sandbox || (!sandbox.payments && !sandbox.login)) return null;
  const on = [
    sandbox.payments ? 'sandbox payments (orders are paid without money)' : null,
    sandbox.login ? 'sandbox logins' : null,
  ]
    .filter(Boolean)
    .join(' and ');
  return html`<div
    class="sandbox-banner"
    role="status"
    data-sandbox-payments=${String(sandbox.payments)}
    data-sandbox-login=${String(sandbox.login)}
  >
    <strong>Sandbox:</strong> ${on} ${sandbox.payments && sandbox.login ? 'are' : 'is'} on. Never in production.
  </div>`;
}
