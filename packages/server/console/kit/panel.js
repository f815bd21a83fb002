// kit/panel.js - the pieces of the console's settings panels of the app page (App stores, Payment providers): the
// links to the messages of what they set up, and the notice to a role that may only read them.
import { href, html } from '/console/kit/ui.js';

/** The notice to a role that may not change these settings (apps.write); the API refuses it anyway. */
export function ReadOnlyNotice({ canWrite, what }) {
  if (canWrite !== false) return null;
  return html`<p class="notice read-only" role="status">Read-only: your role may not change ${what} (apps.write).</p>`;
}

/** Links to the app's messages of one kind (`what`: Store, Provider): all of them, and the refused ones. */
export function MessageLinks({ appId, what }) {
  const page = `/apps/${appId}/${what.toLowerCase()}-messages`;
  return html`<p class="links">
    <a href=${href(page)}>${what} messages</a>${' · '}
    <a href=${href(page, { outcome: 'refused' })}>Refused ${what.toLowerCase()} messages</a>
  </p>`;
}
