// kit/form.js - the pieces of the settings forms of the console and the studio portal: a form's state, its fields
// declared as data, a form that submits without leaving the page, a write-only secret field, the save and edit
// buttons and the "saved" line.
import { useState } from '/console/vendor/hooks.module.js';
import { Field, html } from '/console/kit/ui.js';
import { useAction } from '/console/kit/hooks.js';

/** A form's values: [form, set, setForm], where set(key) is the onInput of the field showing form[key]. */
export function useForm(initial) {
  const [form, setForm] = useState(initial);
  const set = (key) => (value) => setForm((f) => ({ ...f, [key]: value }));
  return [form, set, setForm];
}

/** Fields declared as data: each { key, label, ...Field props } shows form[key] (named `key` unless it says). */
export function Fields({ fields, form, set }) {
  return fields.map(
    ({ key, ...field }) => html`<${Field} name=${key} ...${field} value=${form[key]} onInput=${set(key)} />`,
  );
}

/** A form whose submit calls onSubmit() instead of leaving the page. */
export function SubmitForm({ className = 'stacked', onSubmit, children, ...rest }) {
  const submit = (e) => {
    e.preventDefault();
    onSubmit();
  };
  return html`<form class=${className} onSubmit=${submit} ...${rest}>${children}</form>`;
}

/** A write (an action, kit/hooks.js) followed by `then()` (close the form, reload): answers the write's result. */
export function useWrite(write, then) {
  return useAction(async (...args) => {
    const result = await write(...args);
    then();
    return result;
  });
}

/**
 * A write-only secret: never filled in, empty keeps the stored one. When `removable`, a checkbox (removeName,
 * removeLabel) asks to remove the stored one and disables the field.
 */
export function SecretField({ value, onInput, removable, removed, onRemove, removeName, removeLabel, ...field }) {
  return html`<${Field} ...${field} value=${value} onInput=${onInput} disabled=${removed} />
    ${removable ? html`<${Field} label=${removeLabel} name=${removeName} type="checkbox" value=${removed} onInput=${onRemove} />` : null}`;
}

/** The save button of a form (disabled while saving) and its cancel button. */
export function SaveOrCancel({ label, busy, onCancel }) {
  return html`<p class="actions">
    <button type="submit" disabled=${busy}>${label}</button>
    <button type="button" onClick=${onCancel}>Cancel</button>
  </p>`;
}

/** The button that opens an edit form: the last save's message and error go first. */
export function EditButton({ save, onEdit, children }) {
  const edit = () => {
    save.reset();
    onEdit();
  };
  return html`<button type="button" onClick=${edit}>${children}</button>`;
}

/** The line saying a save went through, while the save action holds its answer. */
export function Saved({ action, children }) {
  return action.result ? html`<p class="ok" role="status">${children}</p>` : null;
}

/** The notice to a role that may not change these settings (apps.write); the API refuses it anyway. */
export function ReadOnlyNotice({ canWrite, what }) {
  if (canWrite !== false) return null;
  return html`<p class="notice read-only" role="status">Read-only: your role may not change ${what} (apps.write).</p>`;
}
