// @ts-check
// kit/refund-form.js - refunding a web order through the provider that took it (docs/web-payment.md "Refunds"),
// shared by the console's order page and the portal's player orders: an amount (empty: all that remains) and a
// required reason. One idempotency key per form: a double click or a retry is the same refund and reaches the
// provider once; a new key after a success or the provider's refusal, so the next refund is a new one.
import { useState } from '/console/vendor/hooks.module.js';
import { useAction } from '/console/kit/hooks.js';
import { ActionStatus, boundFields, html } from '/console/kit/ui.js';

const newKey = () =>
  `console-${Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('')}`;

/** The form; `call(body)` posts it (the console's or the portal's API), `onDone` reloads what shows the refunds. */
export function RefundForm({ call, currency, onDone }) {
  const [form, setForm] = useState({ amount: '', reason: '' });
  const [key, setKey] = useState(newKey);
  const field = boundFields(form, setForm);
  const action = useAction(async () => {
    const amount = form.amount.trim();
    try {
      return await call({ reason: form.reason, idempotencyKey: key, ...(amount ? { amount } : {}) });
    } catch (error) {
      // The provider refused it (or nothing remains): the next try is a new refund. No answer: the same one.
      if (error.status === 409) setKey(newKey());
      throw error;
    }
  }, onDone);
  const submit = async (e) => {
    e.preventDefault();
    if (action.busy) return;
    if (await action.run()) {
      setKey(newKey());
      setForm({ amount: '', reason: '' });
    }
  };
  return html`<form class="refund-form" onSubmit=${submit}>
    <h2>Refund through the provider</h2>
    ${field('amount', {
      label: `Amount (${currency})`,
      hint: 'Empty: all that remains unrefunded.',
      inputmode: 'decimal',
      autocomplete: 'off',
    })}
    ${field('reason', { label: 'Reason (required)', required: true, maxlength: 500, autocomplete: 'off' })}
    <p class="actions">
      <button type="submit" class="danger" id="refund-submit" disabled=${action.busy || form.reason.trim() === ''}>
        Refund
      </button>
    </p>
    <${ActionStatus}
      action=${action}
      done=${(r) => `Refund ${r.refundRequestId}: ${r.state}, ${r.amount} ${r.currency} at ${r.provider}.`}
    />
  </form>`;
}

/** The refunds asked of an order, oldest first. */
export const REFUND_COLUMNS = [
  { label: 'Refund', render: (r) => String(r.refundRequestId) },
  { label: 'Asked', render: (r) => new Date(r.requestedAt).toLocaleString() },
  { label: 'By', render: (r) => r.requestedBy },
  { label: 'Amount', render: (r) => `${r.amount} ${r.currency}` },
  { label: 'Reason', render: (r) => r.reason },
  { label: 'State', render: (r) => r.state },
  { label: 'Provider', render: (r) => `${r.provider}${r.providerRefundId ? ` ${r.providerRefundId}` : ''}` },
  { label: 'Error', render: (r) => (r.error ? `${r.error.code}: ${r.error.message}` : '') },
];
