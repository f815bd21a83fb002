// @ts-check
// app.js - the web payment page's shell: loads the context (app, session, products), the language switch, and
// the steps: role (web view: given; official: overseas or mainland), shop, payment, result.
import { render } from '/pay/assets/vendor/preact.module.js';
import { useEffect, useState } from '/pay/assets/vendor/hooks.module.js';
import { api, clientId, setCsrf } from '/pay/assets/api.js';
import { LANGS, errorText, normLang, t } from '/pay/assets/i18n.js';
import { Notice, RoleCard, html } from '/pay/assets/ui.js';
import { MainlandRole, OverseasRole } from '/pay/assets/role.js';
import { QrStep, Result, Returned, SandboxStep, Shop } from '/pay/assets/shop.js';

/** @typedef {import('/pay/assets/api.js').Context} Context */
/** @typedef {import('/pay/assets/api.js').Placed} Placed */
/** @typedef {import('/pay/assets/api.js').Order} Order */
/**
 * Where the page is: shop, returned (from a provider's page, by trxNo), redirecting, qr, sandbox or result.
 * @typedef {{ name: string, trxNo?: number, order?: Order, payment?: Placed['payment'] }} Step
 */

const LANG_KEY = 'pay.lang';
// Local storage may be denied (a framed page where the browser blocks third-party storage): the choice then lasts
// as long as the page.
function savedLang() {
  try {
    return localStorage.getItem(LANG_KEY);
  } catch {
    return null;
  }
}
function saveLang(code) {
  try {
    localStorage.setItem(LANG_KEY, code);
  } catch {
    // kept in memory only
  }
}
const query = new URLSearchParams(location.search);
const linkRefused = query.get('link') === 'refused';
// Back from a provider-hosted payment page (a redirect step): the return URL carries the order's trxNo.
const returned = /^[0-9]{1,15}$/.test(query.get('trxNo') || '') ? Number(query.get('trxNo')) : null;

function LangSwitch({ lang, setLang }) {
  return html`<nav class="langs" aria-label="Language / 语言">
    ${LANGS.map(
      ([code, name]) =>
        html`<button
          type="button"
          id=${`lang-${code}`}
          class="link"
          aria-pressed=${lang === code}
          onClick=${() => setLang(code)}
        >
          ${name}
        </button>`,
    )}
  </nav>`;
}

/**
 * The step after placing: a provider-hosted page (the browser leaves), the hosted sandbox step, or the result.
 * @param {Placed} placed
 * @returns {Step}
 */
function nextStep({ order, payment }) {
  if (payment.kind === 'redirect') {
    location.assign(/** @type {string} */ (payment.url));
    return { name: 'redirecting', order };
  }
  if (payment.kind === 'hosted' && payment.channel === 'sandbox') return { name: 'sandbox', order };
  if (payment.kind === 'qr') return { name: 'qr', order, payment };
  return { name: 'result', order };
}

function App() {
  const [ctx, setCtx] = useState(/** @type {Context | null} */ (null));
  const [error, setError] = useState(/** @type {any} */ (null));
  const [chosen, setChosen] = useState(savedLang());
  const [step, setStep] = useState(
    /** @type {Step} */ (returned ? { name: 'returned', trxNo: returned } : { name: 'shop' }),
  );
  const [tick, setTick] = useState(0);
  const lang = normLang(chosen || ctx?.lang || navigator.language);
  const setLang = (code) => {
    saveLang(code);
    setChosen(code);
  };
  useEffect(() => {
    document.documentElement.lang = lang;
    document.title = t(lang, 'title');
  }, [lang]);
  useEffect(() => {
    if (linkRefused) return;
    api('GET', '/context').then(
      (c) => {
        setCsrf(c.csrf);
        setCtx(c);
      },
      (err) => setError(err),
    );
  }, [tick]);

  // SANDBOX_PAYMENTS on: said on every view (issue 41).
  const header = html`${
      ctx && ctx.sandbox ? html`<div class="sandbox-banner" role="status">${t(lang, 'sandboxBanner')}</div>` : null
    }
    <header class="top">
      <h1>${ctx ? ctx.app.name : t(lang, 'title')}</h1>
      <${LangSwitch} lang=${lang} setLang=${setLang} />
    </header>`;
  if (linkRefused)
    return html`${header}
      <main><${Notice} id="page-error" text=${t(lang, 'linkRefused')} /></main>`;
  if (error)
    return html`${header}
      <main><${Notice} id="page-error" text=${errorText(lang, error)} /></main>`;
  if (!ctx)
    return html`${header}
      <main><p class="muted" aria-busy="true">${t(lang, 'loading')}</p></main>`;

  const setRole = (role) => setCtx({ ...ctx, role });
  let roleStep;
  if (ctx.role) {
    roleStep = html`<${RoleCard} lang=${lang} role=${ctx.role} t=${t} servers=${ctx.servers} /> ${
        ctx.entry === 'official' && step.name === 'shop'
          ? html`<button
              id="btn-change-role"
              type="button"
              class="link"
              onClick=${() => setCtx({ ...ctx, role: null })}
            >
              ${t(lang, 'changeRole')}
            </button>`
          : null
      }`;
  } else if (ctx.app.region === 'mainland') {
    roleStep = html`<${MainlandRole} lang=${lang} ctx=${ctx} onLogin=${() => setTick(tick + 1)} onRole=${setRole} />`;
  } else {
    roleStep = html`<${OverseasRole} lang=${lang} ctx=${ctx} onRole=${setRole} />`;
  }

  const showResult = (order) => setStep({ name: 'result', order });
  let body = null;
  if (ctx.blocked) body = html`<${Notice} id="blocked" text=${t(lang, `blocked_${ctx.blocked}`)} />`;
  else if (!ctx.role) body = null;
  else if (step.name === 'shop')
    body = html`<${Shop}
      lang=${lang}
      ctx=${ctx}
      onOrder=${(/** @type {Placed} */ placed) => setStep(nextStep(placed))}
    />`;
  else if (step.name === 'returned')
    body = html`<${Returned} lang=${lang} trxNo=${step.trxNo} onOrder=${showResult} />`;
  else if (step.name === 'redirecting')
    body = html`<p id="redirecting" class="card muted" aria-busy="true">${t(lang, 'redirecting')}</p>`;
  else if (step.name === 'qr')
    body = html`<${QrStep}
      lang=${lang}
      order=${step.order}
      payment=${step.payment}
      method=${ctx.methods.find((m) => m.provider === step.payment?.channel)?.method}
      onDone=${showResult}
    />`;
  else if (step.name === 'sandbox')
    body = html`<${SandboxStep} lang=${lang} order=${step.order} onDone=${showResult} />`;
  else
    body = html`<${Result} lang=${lang} ctx=${ctx} order=${step.order} onAgain=${() => setStep({ name: 'shop' })} />`;

  return html`${header}
    <main>${roleStep}${body}</main>`;
}

if (clientId) render(html`<${App} />`, /** @type {HTMLElement} */ (document.getElementById('root')));
