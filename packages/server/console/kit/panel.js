// @ts-check
// kit/panel.js - the pieces of the console's settings panels of the app page (App stores, Payment providers): the
// links to the messages of what they set up, the notice to a role that may only read them, and the actions on one
// stored record.
import { useState } from '/console/vendor/hooks.module.js';
import { ConfirmButton, href, html } from '/console/kit/ui.js';
import { EditButton, useWrite } from '/console/kit/form.js';

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

/**
 * One record of settings at `path` (`stored`: as the API answered it, null when none; `api`: the page's API client):
 * whether its form is open, save (a PUT, then the form closes) and remove (a DELETE), each reloading the panel.
 */
export function useRecord({ api, path, stored, reload }) {
  const [editing, setEditing] = useState(false);
  const save = useWrite(
    (body) => api('PUT', path, { body }),
    () => {
      setEditing(false);
      reload();
    },
  );
  const remove = useWrite(() => api('DELETE', path), reload);
  return { stored, editing, open: () => setEditing(true), close: () => setEditing(false), save, remove };
}

/**
 * The actions on a record (useRecord), for who may write: Edit (Set up while nothing is stored) opens its form; once
 * stored, `children` (more actions) and Delete, which asks `deleteQuestion` first.
 */
export function RecordActions({ record, what, deleteQuestion, children }) {
  const { stored, save, remove } = record;
  return html`<p class="actions">
    <${EditButton} save=${save} onEdit=${record.open}>${stored ? 'Edit' : 'Set up'} ${what}<//>
    ${stored ? children : null}
    ${stored ? html`<${ConfirmButton} label="Delete" question=${deleteQuestion} confirmLabel="Yes, delete them" onConfirm=${remove.run} disabled=${remove.busy} />` : null}
  </p>`;
}
