// @ts-check
// pages/firstrun.js - a newcomer's path on the overview (issue 34): signed in with the break-glass token on a service
// with no operator, create the first admin (its TOTP QR code and recovery codes shown once); then a getting-started
// checklist until each step is done, each step ticked from what the admin API answers, never from this tab's memory.
import { useEffect, useState } from '/console/vendor/hooks.module.js';
import { api } from '/console/api.js';
import { ActionForm, PersonNameField } from '/console/pages/peoplecommon.js';
import { SecondFactorOnce } from '/console/qr.js';
import { ErrorBox, href, html, useAction, useApi } from '/console/ui.js';
import { appTab } from '/console/pages/apptabs.js';

/** Offered only to the break-glass token, and only while the service has no operator account at all. */
function FirstAdmin({ onDone }) {
  /** @type {import('page-types').ReadOf<'/admin/v1/operators'>} */
  const operators = useApi('GET', '/operators', {}, []);
  const [name, setName] = useState('');
  const create = useAction(() => api('POST', '/operators', { body: { name: name.trim(), role: 'admin' } }));
  if (!operators.data) return null;
  const created = create.result;
  if (created)
    return html`<section class="first-run panel">
      <h2>First admin created: ${created.operator.name}</h2>
      <${SecondFactorOnce}
        who=${created.operator.name}
        secondFactor=${created.secondFactor}
        password=${created.password}
      />
      <p>
        From now on, sign in with the name, this password and your authenticator's code: the break-glass token is for
        emergencies (docs/operators.md).
      </p>
      <p><button type="button" class="first-run-done" onClick=${onDone}>I stored them: continue</button></p>
    </section>`;
  if (operators.data.operators.length > 0) return null;
  return html`<section class="first-run panel">
    <h2>Welcome: create the first admin</h2>
    <p>
      You are signed in with the break-glass admin token, and the service has no operator account yet. Create your own
      admin account: it signs in with a password and an authenticator app, and its actions carry your name in the audit
      trail.
    </p>
    <${ErrorBox} error=${create.error} />
    <${ActionForm} className="stacked first-admin" onSubmit=${create.run}>
      <${PersonNameField} label="Your operator name" name="firstAdminName" value=${name} onInput=${setName} />
      <button type="submit" disabled=${create.busy}>Create the first admin</button>
    <//>
  </section>`;
}

/**
 * Reads the state of the steps. A read the role may not make (GET /session lists its permissions) is not made, so a
 * refusal never lands in the audit trail; its step is left out.
 */
async function readChecklist(permissions) {
  const may = (permission, read) => (permissions.includes(permission) ? read() : Promise.resolve(undefined));
  const [apps, delivered, tests, developers] = await Promise.all([
    may('apps.read', () => api('GET', '/apps')),
    may('delivery.read', () => api('GET', '/events', { query: { type: 'test', state: 'delivered', limit: 1 } })),
    may('delivery.read', () => api('GET', '/events', { query: { type: 'test', limit: 1 } })),
    may('operators.read', () => api('GET', '/studio-developers')),
  ]);
  return { apps: apps?.apps, delivered: delivered?.events, tests: tests?.events, developers: developers?.developers };
}

/** The steps of the checklist from the state: each { key, label, done, link, linkLabel, note }. */
export function checklistSteps(state) {
  const apps = state.apps ?? [];
  const first = apps[0];
  const withCallback = apps.find((a) => Object.keys(a.callbackUrls ?? {}).length > 0);
  // Each step links to the exact tab and control where it is done (focused there).
  const callbackLink = (a) => appTab(a.appId, 'settings', { focus: 'f-callbackUrls' });
  const testLink = (a) => appTab(a.appId, 'delivery', { focus: 'send-test-event' });
  const lastTest = state.tests?.[0];
  const steps = [];
  if (state.apps)
    steps.push(
      {
        key: 'create-app',
        label: 'Create an app',
        done: apps.length > 0,
        link: href('/apps/new'),
        linkLabel: 'New app',
      },
      {
        key: 'callback-url',
        label: "Set its payment callback URL (your game server's address)",
        done: Boolean(withCallback),
        link: first ? callbackLink(first) : href('/apps/new'),
        linkLabel: first ? `Edit app ${first.appId}` : 'New app',
      },
    );
  if (state.delivered)
    steps.push({
      key: 'test-event',
      label: 'Send a test event and see it delivered',
      done: state.delivered.length > 0,
      link: withCallback ? testLink(withCallback) : first ? testLink(first) : href('/apps/new'),
      linkLabel: 'Delivery tab of the app',
      note:
        lastTest && state.delivered.length === 0
          ? html`Last test event <a href=${href(`/events/${lastTest.eventId}`)}>${String(lastTest.eventId)}</a>:
              ${lastTest.state}${lastTest.state === 'pending' ? ` (attempt ${lastTest.attempts})` : ''}`
          : null,
    });
  if (state.developers)
    steps.push({
      key: 'invite-developer',
      label: 'Invite a studio developer to the portal',
      done: state.developers.length > 0,
      link: href('/people/developers/new'),
      linkLabel: 'Invite a developer',
    });
  return steps;
}

/** How often the checklist reads again while a step is open: a test event is delivered a moment after it is sent. */
const POLL_MS = 2000;

/** The getting-started checklist, shown on the overview until every step is done. */
function GettingStarted({ permissions }) {
  const [state, setState] = useState(/** @type {any} */ (undefined));
  const [error, setError] = useState(/** @type {any} */ (undefined));
  useEffect(() => {
    let live = true;
    let timer;
    const read = () =>
      readChecklist(permissions).then(
        (s) => {
          if (!live) return;
          setState(s);
          setError(undefined);
          if (checklistSteps(s).some((step) => !step.done)) timer = setTimeout(read, POLL_MS);
        },
        (err) => live && setError(err),
      );
    read();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, []);
  if (error) return html`<${ErrorBox} error=${error} />`;
  if (!state) return null;
  const steps = checklistSteps(state);
  if (steps.length === 0 || steps.every((s) => s.done)) return null;
  const left = steps.filter((s) => !s.done).length;
  return html`<section class="getting-started panel" aria-label="Getting started">
    <h2>Getting started <span class="muted">${String(steps.length - left)} of ${String(steps.length)} done</span></h2>
    <ol class="checklist">
      ${steps.map(
        (s) =>
          html`<li key=${s.key} class=${`step ${s.key} ${s.done ? 'done' : 'open'}`} data-done=${String(s.done)}>
            <span class="tick" aria-hidden="true">${s.done ? '\u2713' : '\u25cb'}</span>
            <span class="label">${s.label}</span>
            ${s.done ? html`<span class="muted">done</span>` : html`<a href=${s.link}>${s.linkLabel}</a>`}
            ${s.note ? html`<div class="muted note">${s.note}</div>` : null}
          </li>`,
      )}
    </ol>
  </section>`;
}

/** The top of the overview: the first admin while there is none, then the checklist. */
export function FirstRun() {
  /** @type {import('page-types').ReadOf<'/admin/v1/session'>} */
  const me = useApi('GET', '/session', {}, []);
  const [dismissed, setDismissed] = useState(false);
  if (!me.data) return null;
  return html`<div class="first-run-area">
    ${me.data.via === 'break-glass' && !dismissed ? html`<${FirstAdmin} onDone=${() => setDismissed(true)} />` : null}
    <${GettingStarted} permissions=${me.data.permissions} />
  </div>`;
}
