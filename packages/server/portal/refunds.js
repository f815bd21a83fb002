// refunds.js - refund abuse in sight for a studio (docs/portal.md): its app's players with the most store refunds in
// a window (count, amount per currency, supplements owed now, last refund), each linking to that player's orders of
// the app, a read-only list. Everything shown comes from the API as text.
import { useState } from '/console/vendor/hooks.module.js';
import { queryString } from '/portal/api.js';
import { ErrorBox, Field, html, useApi, when } from '/portal/ui.js';

const TRX_TYPES = ['payment', 'supplement', 'refund'];
const money = (amount, currency) => `${amount} ${currency}`;
const playerHref = (appId, userId) => `#/apps/${appId}/player-orders${queryString({ userId })}`;

export function Refunders({ appId, query }) {
  const [form, setForm] = useState({ from: query.from ?? '', to: query.to ?? '', currency: query.currency ?? '' });
  const q = { from: query.from, to: query.to, currency: query.currency, cursor: query.cursor };
  const { data, error, loading } = useApi(`/apps/${appId}/refund-abuse`, q, [appId, JSON.stringify(q)]);
  const go = (next) => {
    location.hash = `#/apps/${appId}/refunds${queryString(next)}`;
  };
  const set = (k) => (v) => setForm({ ...form, [k]: v });
  return html`<div class="refunders">
    <p class="muted">
      The players of this app with the most store refunds in the window (default: the last 30 days), most refunds first,
      then the larger amount. Pending supplements are what each player owes now (4.5).
    </p>
    <form
      class="filters"
      onSubmit=${(e) => {
        e.preventDefault();
        go({
          from: form.from.trim() || undefined,
          to: form.to.trim() || undefined,
          currency: form.currency.trim() || undefined,
        });
      }}
    >
      <${Field}
        label="Refunds from"
        name="from"
        value=${form.from}
        onInput=${set('from')}
        placeholder="2026-11-01T00:00:00Z"
      />
      <${Field} label="Refunds before" name="to" value=${form.to} onInput=${set('to')} />
      <${Field} label="Currency" name="currency" value=${form.currency} onInput=${set('currency')} placeholder="USD" />
      <div class="field"><label> </label><button type="submit">Apply</button></div>
    </form>
    <${ErrorBox} error=${error} />
    ${loading && !data ? html`<p class="muted">Loading…</p>` : null}
    ${
      data
        ? html`<p class="muted window">
              ${when(data.from)} to ${when(data.to)}${data.currency ? `, in ${data.currency}` : ''}
            </p>
            ${
              data.refunders.length === 0
                ? html`<p class="muted empty">No refunds in this window.</p>`
                : html`<table class="refunders">
                    <thead>
                      <tr>
                        <th>Player</th>
                        <th>Refunds</th>
                        <th>Refunded</th>
                        <th>Pending supplements</th>
                        <th>Last refund</th>
                      </tr>
                    </thead>
                    <tbody>
                      ${data.refunders.map(
                        (r) =>
                          html`<tr data-user=${r.userId}>
                            <td><a class="player-orders" href=${playerHref(appId, r.userId)}>${r.userId}</a></td>
                            <td>${String(r.refunds)}</td>
                            <td>${r.refunded.map((a) => money(a.amount, a.currency)).join(' + ')}</td>
                            <td>${String(r.pendingSupplements)}</td>
                            <td>${when(r.lastRefundAt)}</td>
                          </tr>`,
                      )}
                    </tbody>
                  </table>`
            }
            <nav class="pager">
              ${query.cursor ? html`<button type="button" onClick=${() => go({ ...q, cursor: undefined })}>First page</button>` : null}
              ${data.nextCursor ? html`<button type="button" class="next" onClick=${() => go({ ...q, from: data.from, to: data.to, cursor: data.nextCursor })}>Next page</button>` : null}
            </nav>`
        : null
    }
  </div>`;
}

export function PlayerOrders({ appId, userId, before }) {
  const q = { userId, before, limit: 50 };
  const { data, error, loading } = useApi(`/apps/${appId}/orders`, q, [appId, userId, before]);
  return html`<div class="player-orders">
    <h2>Orders of player ${userId ?? ''}</h2>
    <p><a href=${`#/apps/${appId}/refunds`}>Back to refund abuse</a></p>
    <${ErrorBox} error=${error} />
    ${loading && !data ? html`<p class="muted">Loading…</p>` : null}
    ${
      data
        ? data.orders.length === 0
          ? html`<p class="muted empty">This player has no orders in this app.</p>`
          : html`<table class="orders">
              <thead>
                <tr>
                  <th>trxNo</th>
                  <th>Type</th>
                  <th>Status</th>
                  <th>Amount</th>
                  <th>Channel</th>
                  <th>Original trxNo</th>
                  <th>outTrxNo</th>
                  <th>Created</th>
                </tr>
              </thead>
              <tbody>
                ${data.orders.map(
                  (o) =>
                    html`<tr data-trx=${String(o.trxNo)}>
                      <td>${String(o.trxNo)}</td>
                      <td>${TRX_TYPES[o.trxType] ?? String(o.trxType)}</td>
                      <td>${o.statusName}</td>
                      <td>${money(o.totalAmount, o.currency)}</td>
                      <td>${String(o.channel)}</td>
                      <td>${o.originalTrxNo === null ? '—' : String(o.originalTrxNo)}</td>
                      <td>${o.outTrxNo ?? '—'}</td>
                      <td>${when(o.createdAt)}</td>
                    </tr>`,
                )}
              </tbody>
            </table>`
        : null
    }
    ${
      data?.nextBefore
        ? html`<nav class="pager">
            <a class="next" href=${`#/apps/${appId}/player-orders${queryString({ userId, before: data.nextBefore })}`}
              >Older orders</a
            >
          </nav>`
        : null
    }
  </div>`;
}
