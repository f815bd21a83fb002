// @ts-check
// kit/form.js - the pieces of the settings forms of the console and the studio portal: a form's state, its fields
// declared as data, a form that submits without leaving the page, an edit form with save and cancel, a write-only
// secret field, the edit button and the "saved" line.
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

/** An edit form: its fields (`children`), then its save button (disabled while saving) and a cancel button. */
export function EditForm({ saveLabel, busy, onCancel, children, ...form }) {
  return html`<${SubmitForm} ...${form}>
    ${children}
    <p class="actions">
      <button type="submit" disabled=${busy}>${saveLabel}</button>
      <button type="button" onClick=${onCancel}>Cancel</button>
    </p>
  <//>`;
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

/**
 * A record's section that is either, while `editing`, its edit form under an "Edit" heading with a cancel button, or
 * what shows the record (`children`). The form is `Form` with `formProps`, told it edits and saved by `save`
 * (useAction or useWrite).
 */
export function EditOrShow({ editing, onCancel, Form, formProps, save, children }) {
  if (!editing) return children;
  return html`<h2>Edit</h2>
    <${Form} ...${formProps} editing submitLabel="Save changes" busy=${save.busy} onSubmit=${save.run} />
    <p><button type="button" onClick=${onCancel}>Cancel</button></p>`;
}
