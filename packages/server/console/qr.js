// @ts-check
// qr.js - a QR code drawn by the page: uqr (served from /console/vendor, never a CDN) encodes the text, and each dark
// module becomes an SVG rectangle made through Preact, so no markup string is ever parsed.
import { encode } from '/console/vendor/uqr.mjs';
import { html } from '/console/ui.js';

/** The QR code of `text` (an otpauth:// URI) as an SVG, `label` for screen readers; `size` in CSS pixels. */
export function QrCode({ text, label, size = 200 }) {
  const qr = encode(text, { ecc: 'M', border: 2 });
  const cells = [];
  qr.data.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark) cells.push(html`<rect x=${x} y=${y} width="1" height="1" />`);
    }),
  );
  return html`<svg
    class="qr"
    role="img"
    aria-label=${label}
    viewBox=${`0 0 ${qr.size} ${qr.size}`}
    width=${size}
    height=${size}
    shape-rendering="crispEdges"
  >
    <rect width=${qr.size} height=${qr.size} fill="#fff" />
    <g fill="#000">${cells}</g>
  </svg>`;
}

/**
 * A new second factor, shown once: the TOTP URI as a QR code for an authenticator app, the secret as text for one
 * that cannot scan, and the recovery codes.
 */
export function SecondFactorOnce({ who, secondFactor, password }) {
  return html`<div class="secret second-factor" role="status">
    <p>
      <strong>Shown only this once.</strong> Store ${password ? 'the password and ' : ''}the recovery codes safely now;
      the console cannot show them again.
    </p>
    ${password ? html`<p>Password of ${who}: <code class="secret-value password">${password}</code></p>` : null}
    <div class="qr-row">
      <${QrCode} text=${secondFactor.totpUri} label=${`Authenticator QR code for ${who}`} />
      <div>
        <p>Scan the code with an authenticator app, or enter this secret in it:</p>
        <code class="secret-value totp-secret">${secondFactor.totpSecret}</code>
        ${
          /^otpauth:\/\//.test(secondFactor.totpUri)
            ? html`<p>
                <a class="totp-uri" href=${secondFactor.totpUri}>Open in an authenticator app on this device</a>
              </p>`
            : null
        }
        <p>Recovery codes (each good for one sign-in):</p>
        <ul class="recovery-codes">
          ${secondFactor.recoveryCodes.map((c) => html`<li><code>${c}</code></li>`)}
        </ul>
      </div>
    </div>
  </div>`;
}
