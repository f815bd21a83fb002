// @ts-check
// pages/apptools.js - panels of the app's page: order settings (view, edit: web region lock, store orders in arrears;
// view: store account binding, Apple consumption information) and recovering dead events (the delivery tab).
import { useState } from '/console/vendor/hooks.module.js';
import { api } from '/console/api.js';
import { ConfirmButton, Details, ErrorBox, Field, Loading, href, html, time, useAction, useApi } from '/console/ui.js';
import { EditButton, EditForm, Fields, Saved, useForm, useWrite } from '/console/kit/form.js';

const appPath = (appId) => `/apps/${encodeURIComponent(appId)}`;

/** What each accountBinding does (docs/stores.md; set with the admin API or `app order-settings set`). */
const BINDING = {
  required: "a store purchase pays only with the submitting player's account token",
  when_present: 'a store purchase bound to another player is refused; an unbound one pays',
  off: 'account tokens are not checked',
};

/** A Date as the value of a datetime-local input (local time, minutes). */
function localInput(d) {
  const pad = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The order settings an operator may change; the others are set with the admin API or the CLI. */
const ORDER_SETTINGS_FIELDS = [
  {
    key: 'webRegionLock',
    label: 'Web region lock (2.4 rule 8)',
    type: 'checkbox',
    hint: "On: a web payment takes the player's registration region; off: the region the player chose.",
  },
  {
    key: 'refuseStoreOrdersInArrears',
    label: 'Refuse store orders of players in arrears (4.5)',
    type: 'checkbox',
    hint: 'On: a new App Store or Google Play order of a player who owes a pending supplement is refused (40945) before the game is asked; web orders are not.',
  },
];

/** The app's order settings (2.4 rule 8: web region lock; refusing store orders of players in arrears, 4.5), with an edit form. */
export function OrderSettingsPanel({ appId }) {
  /** @type {import('page-types').ReadOf<'/admin/v1/apps/{appId}/order-settings'>} */
  const { data, error, loading, reload } = useApi('GET', `${appPath(appId)}/order-settings`, {}, [appId]);
  const [editing, setEditing] = useState(false);
  const [form, set, setForm] = useForm({ webRegionLock: false, refuseStoreOrdersInArrears: false });
  const save = useWrite(
    () => api('PUT', `${appPath(appId)}/order-settings`, { body: form }),
    () => {
      setEditing(false);
      reload();
    },
  );
  const edit = () => {
    setForm({
      webRegionLock: Boolean(data?.webRegionLock),
      refuseStoreOrdersInArrears: Boolean(data?.refuseStoreOrdersInArrears),
    });
    setEditing(true);
  };
  return html`<div class="panel order-settings">
    <h2>Order settings</h2>
    <${ErrorBox} error=${error} />
    <${ErrorBox} error=${save.error} />
    <${Saved} action=${save}>Order settings saved.<//>
    ${loading && !data ? html`<${Loading} what="order settings" />` : null}
    ${
      data && !editing
        ? html`<${Details}
              rows=${[
                [
                  'Web region lock',
                  data.webRegionLock
                    ? 'on: web payments take the region the player registered in'
                    : 'off: web payments take the region the player chose',
                ],
                [
                  'Store orders in arrears',
                  data.refuseStoreOrdersInArrears
                    ? 'refused: a player who owes a supplement (4.5) completes it before a new store order'
                    : 'allowed: a player who owes a supplement may still place store orders',
                ],
                ['Store account binding', `${data.accountBinding}: ${BINDING[data.accountBinding] ?? ''}`],
                [
                  'Apple consumption information',
                  data.consumptionConsent === null
                    ? 'off: nothing about a purchase is sent to Apple'
                    : html`on since ${time(data.consumptionConsentedAt)}, studio's statement: ${data.consumptionConsent}`,
                ],
                ['Apple refund preference', data.refundPreference ?? 'none'],
              ]}
            />
            <p class="actions"><${EditButton} save=${save} onEdit=${edit}>Edit order settings<//></p>`
        : null
    }
    ${
      editing
        ? html`<${EditForm}
            onSubmit=${save.run}
            saveLabel="Save order settings"
            busy=${save.busy}
            onCancel=${() => setEditing(false)}
          >
            <${Fields} fields=${ORDER_SETTINGS_FIELDS} form=${form} set=${set} />
          <//>`
        : null
    }
  </div>`;
}

/** A tool's button at the end of its row of fields: asks first, then runs the action. */
export function RunButton({ id, action, label, question, confirmLabel }) {
  return html`<div class="field">
    <label> </label
    ><${ConfirmButton}
      id=${id}
      label=${label}
      question=${question}
      confirmLabel=${confirmLabel}
      onConfirm=${action.run}
      danger=${false}
      disabled=${action.busy}
    />
  </div>`;
}

/** Recover the app's dead events since a time (after an outage of the game): asks first, then shows the count. */
export function RecoverDeadEvents({ appId, onRecovered }) {
  const [since, setSince] = useState(() => localInput(new Date(Date.now() - 24 * 3600 * 1000)));
  const recover = useAction(() => {
    // An empty or unreadable time goes to the API as typed: the API says what is wrong with it.
    const at = new Date(since);
    return api('POST', `${appPath(appId)}/events/recover`, {
      body: { since: Number.isNaN(at.getTime()) ? since : at.toISOString() },
    });
  }, onRecovered);
  return html`<div class="panel recover">
    <h2>Recover dead events</h2>
    <p class="muted">
      After an outage of the game: deliver again every event of this app that died at or after this time.
    </p>
    <${ErrorBox} error=${recover.error} />
    ${
      recover.result
        ? html`<p class="ok" role="status">
            Recovered ${String(recover.result.recovered)} dead event${recover.result.recovered === 1 ? '' : 's'}: queued
            for delivery again. <a href=${href('/events', { appId })}>Events of the app</a>
          </p>`
        : null
    }
    <div class="inline-fields">
      <${Field} label="Died at or after" name="since" type="datetime-local" value=${since} onInput=${setSince} />
      <${RunButton}
        action=${recover}
        label="Recover dead events"
        question="Deliver every dead event of this app since then again now?"
        confirmLabel="Yes, recover them"
      />
    </div>
  </div>`;
}
