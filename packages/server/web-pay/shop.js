// @ts-check
// shop.js - products and quantities (several lines, 2.4 rule 6), the service's totals, region (2.4 rule 8), the
// order with its pre-order check (4.10), the sandbox's hosted payment step and the result that follows the order.
import { useEffect, useState } from '/pay/assets/vendor/hooks.module.js';
import { api } from '/pay/assets/api.js';
import { blockText, errorText, money, regionName, t } from '/pay/assets/i18n.js';
import { Notice, html } from '/pay/assets/ui.js';

const REGIONS = ['US', 'GB', 'DE', 'FR', 'JP', 'KR', 'CN', 'HK', 'TW', 'SG', 'BR', 'IN', 'AU', 'CA'];
const FINAL = new Set([0, 3, 4]);

/** @param {{ lang: string, ctx: import('/pay/assets/api.js').Context, onOrder: (placed: import('/pay/assets/api.js').Placed) => void }} props */
export function Shop({ lang, ctx, onOrder }) {
  // Every box starts at 0 (a number, never empty): the player raises the ones they want.
  const [qty, setQty] = useState(() => Object.fromEntries(ctx.products.map((p) => [p.productCode, '0'])));
  const [quote, setQuote] = useState(/** @type {import('/pay/assets/api.js').Quote | null} */ (null));
  const [region, setRegion] = useState(ctx.region.value === 'DF' ? '' : ctx.region.value);
  // The methods the app offers the payer's region (docs/web-payment.md); the first is chosen until the player picks.
  const [method, setMethod] = useState(ctx.methods[0]?.provider ?? null);
  const [busy, setBusy] = useState(false);
  // Errors and blocks are kept as the API answered them and put into words at render: they follow the language switch.
  const [error, setError] = useState(/** @type {any} */ (null));
  const [block, setBlock] = useState(/** @type {any} */ (null));
  const lines = ctx.products
    .map((p) => ({ productCode: p.productCode, quantity: Number(qty[p.productCode] || 0) }))
    .filter((l) => Number.isInteger(l.quantity) && l.quantity > 0);
  const key = JSON.stringify(lines);

  useEffect(() => {
    setQuote(null);
    if (lines.length === 0) return undefined;
    let live = true;
    api('POST', '/quote', { products: lines }).then(
      (q) => live && setQuote(q),
      (err) => live && setError(err),
    );
    return () => {
      live = false;
    };
  }, [key]);

  if (ctx.products.length === 0) return html`<p class="card">${t(lang, 'noProducts')}</p>`;

  const pay = async (e) => {
    e.preventDefault();
    setError(null);
    setBlock(null);
    if (lines.length === 0) return setError({ text: 'nothingChosen' });
    setBusy(true);
    try {
      const placed = await api('POST', '/orders', {
        products: lines,
        lang,
        ...(method ? { provider: method } : {}),
        device: matchMedia('(pointer: coarse)').matches || innerWidth < 768 ? 'phone' : 'desktop',
        // A provider-hosted page sends the browser back here, with the order's trxNo added.
        returnUrl: `${location.origin}${location.pathname}`,
        ...(!ctx.region.locked && region ? { region } : {}),
      });
      onOrder(placed);
    } catch (err) {
      if (err.code === 40920) setBlock(err.data ?? {});
      else setError(err);
    } finally {
      setBusy(false);
    }
  };

  const regions = [...new Set([...(region ? [region] : []), ...REGIONS])];
  return html`<form id="shop" class="card" onSubmit=${pay} aria-busy=${busy ? 'true' : 'false'}>
    <h2>${t(lang, 'products')}</h2>
    <ul class="products">
      ${ctx.products.map(
        (p) =>
          html`<li class="product" data-code=${p.productCode}>
            <span class="name">${p.name}</span>
            <span class="price">${money(lang, p.priceText, p.currency)}</span>
            <label class="qty"
              >${t(lang, 'quantity')}
              <input
                type="number"
                min="0"
                max="99"
                step="1"
                inputmode="numeric"
                value=${qty[p.productCode] ?? '0'}
                onInput=${(ev) => setQty({ ...qty, [p.productCode]: ev.currentTarget.value })}
              />
            </label>
          </li>`,
      )}
    </ul>
    ${
      ctx.region.locked
        ? html`<p id="region-locked">${t(lang, 'regionLocked')}: ${regionName(lang, ctx.region.value)}</p>`
        : html`<label
            >${t(lang, 'region')}
            <select id="f-region" value=${region} onChange=${(ev) => setRegion(ev.currentTarget.value)}>
              <option value="">${t(lang, 'pickRegion')}</option>
              ${regions
                .map((r) => [r, regionName(lang, r)])
                .sort((a, b) => a[1].localeCompare(b[1], lang))
                .map(([r, name]) => html`<option value=${r}>${name}</option>`)}
            </select>
          </label>`
    }
    ${
      ctx.methods.length > 0
        ? html`<fieldset id="methods" class="methods">
            <legend>${t(lang, 'paymentMethod')}</legend>
            ${ctx.methods.map(
              (m) =>
                html`<label class="method"
                  ><input
                    type="radio"
                    name="method"
                    value=${m.provider}
                    checked=${method === m.provider}
                    onChange=${() => setMethod(m.provider)}
                  />
                  ${t(lang, `method_${m.method}`)}</label
                >`,
            )}
          </fieldset>`
        : html`<p id="no-method" class="notice error" role="alert">${t(lang, 'noMethod')}</p>`
    }
    <p id="quote-total" class="total" aria-live="polite">
      ${quote ? html`${t(lang, 'total')}: <strong>${money(lang, quote.totalText, quote.currency)}</strong>` : ''}
    </p>
    <button
      id="btn-pay"
      type="submit"
      disabled=${busy || lines.length === 0 || ctx.methods.length === 0}
      aria-describedby="pay-hint"
    >
      ${busy ? t(lang, 'paying') : t(lang, 'pay')}
    </button>
    ${lines.length === 0 ? html`<p id="pay-hint" class="muted">${t(lang, 'payHint')}</p>` : null}
    <${Notice} id="block" text=${block ? blockText(lang, block) : null} />
    <${Notice} id="shop-error" text=${error ? shownError(lang, error) : null} />
  </form>`;
}

/** An error kept as answered (or a page text key), in `lang`. */
export const shownError = (lang, err) => (err.text ? t(lang, err.text) : errorText(lang, err));

/** The sandbox channel's hosted step (SANDBOX_PAYMENTS): pay, fail or cancel. */
/** @param {{ lang: string, order: import('/pay/assets/api.js').Order, onDone: (order: import('/pay/assets/api.js').Order) => void }} props */
export function SandboxStep({ lang, order, onDone }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(/** @type {any} */ (null));
  const step = async (outcome) => {
    setBusy(true);
    try {
      onDone(await api('POST', `/orders/${order.trxNo}/sandbox`, { outcome }));
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };
  return html`<section id="sandbox" class="card" aria-busy=${busy ? 'true' : 'false'}>
    <h2>${t(lang, 'sandboxTitle')}</h2>
    <p class="muted">${t(lang, 'sandboxHint')}</p>
    <p>${t(lang, 'amount')}: <strong>${money(lang, order.totalText, order.currency)}</strong></p>
    <div class="actions">
      <button id="sandbox-pay" type="button" disabled=${busy} onClick=${() => step('pay')}>
        ${t(lang, 'sandboxPay')}
      </button>
      <button id="sandbox-fail" type="button" class="secondary" disabled=${busy} onClick=${() => step('fail')}>
        ${t(lang, 'sandboxFail')}
      </button>
      <button id="sandbox-cancel" type="button" class="secondary" disabled=${busy} onClick=${() => step('cancel')}>
        ${t(lang, 'sandboxCancel')}
      </button>
    </div>
    <${Notice} id="sandbox-error" text=${error ? errorText(lang, error) : null} />
  </section>`;
}

/**
 * A code the player scans with a phone app (WeChat Pay Native, desktop): the service's drawing of it (an image, never
 * markup), and the order followed until it is paid or ends; then the result.
 */
export function QrStep({ lang, order, payment, method, onDone }) {
  const [error, setError] = useState(/** @type {any} */ (null));
  const [tries, setTries] = useState(0);
  useEffect(() => {
    if (error) return undefined;
    const timer = setTimeout(
      () =>
        api('GET', `/orders/${order.trxNo}`).then(
          (o) => (o.status === 2 || o.status === 1 ? setTries(tries + 1) : onDone(o)),
          setError,
        ),
      tries < 300 ? 1000 : 5000,
    );
    return () => clearTimeout(timer);
  }, [tries, error]);
  const safe = /^data:image\/png;base64,[A-Za-z0-9+/=]+$/.test(payment.image || '');
  return html`<section id="qr" class="card" aria-busy="true">
    <h2>${method ? t(lang, `method_${method}`) : null}</h2>
    <p>${t(lang, 'amount')}: <strong>${money(lang, order.totalText, order.currency)}</strong></p>
    ${
      safe
        ? html`<img
            id="qr-image"
            class="qr"
            src=${payment.image}
            data-code=${payment.code}
            alt=${t(lang, 'qrAlt')}
            width="240"
            height="240"
          />`
        : null
    }
    <p class="muted">${t(lang, 'qrHint')}</p>
    <${Notice} id="qr-error" text=${error ? errorText(lang, error) : null} />
  </section>`;
}

/** Back from a provider's page: loads the order, then the result follows it. */
export function Returned({ lang, trxNo, onOrder }) {
  const [error, setError] = useState(/** @type {any} */ (null));
  useEffect(() => {
    api('GET', `/orders/${trxNo}`).then(onOrder, setError);
  }, [trxNo]);
  return error
    ? html`<${Notice} id="result-error" text=${errorText(lang, error)} />`
    : html`<p class="card muted" aria-busy="true">${t(lang, 'loading')}</p>`;
}

/** The result: follows the order until it succeeded, failed or was cancelled. */
/** @param {{ lang: string, ctx: import('/pay/assets/api.js').Context, order: import('/pay/assets/api.js').Order, onAgain: () => void }} props */
export function Result({ lang, ctx, order: first, onAgain }) {
  const [order, setOrder] = useState(first);
  const [error, setError] = useState(/** @type {any} */ (null));
  const [tries, setTries] = useState(0);
  useEffect(() => {
    if (FINAL.has(order.status) || error) return undefined;
    // Every second, every 5 s after a minute; an error (e.g. the session expired) stops and says so.
    const timer = setTimeout(
      () =>
        api('GET', `/orders/${order.trxNo}`).then((o) => {
          setTries(tries + 1);
          setOrder(o);
        }, setError),
      tries < 60 ? 1000 : 5000,
    );
    return () => clearTimeout(timer);
  }, [order, error]);
  const names = new Map(ctx.products.map((p) => [p.productCode, p.name]));
  return html`<section id="result" class="card" aria-live="polite">
    <h2>${t(lang, 'result')}</h2>
    <p id="result-status" class=${`status s${order.status}`} data-status=${order.status}>
      ${t(lang, `status_${order.status}`)}
    </p>
    <dl>
      <dt>${t(lang, 'trxNo')}</dt>
      <dd id="result-trx">${order.trxNo}</dd>
      <dt>${t(lang, 'products')}</dt>
      <dd id="result-products">
        ${order.products.map((p) => html`<div>${names.get(p.productCode) ?? p.productCode} × ${p.quantity}</div>`)}
      </dd>
      <dt>${t(lang, 'amount')}</dt>
      <dd id="result-amount">${money(lang, order.totalText, order.currency)}</dd>
    </dl>
    <${Notice} id="result-error" text=${error ? errorText(lang, error) : null} />
    ${FINAL.has(order.status) ? html`<button id="btn-again" type="button" onClick=${onAgain}>${t(lang, 'again')}</button>` : null}
  </section>`;
}
