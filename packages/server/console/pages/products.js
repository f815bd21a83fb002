// @ts-check
// pages/products.js - the products of an app: list, create, detail with edit, disable and enable.
import { useState } from '/console/vendor/hooks.module.js';
import { api } from '/console/api.js';
import {
  ActionStatus,
  ConfirmButton,
  Details,
  ErrorBox,
  boundFields,
  ListPage,
  href,
  html,
  navigate,
  show,
  time,
  useAction,
  useRecord,
} from '/console/ui.js';
import { EditButton, EditOrShow } from '/console/kit/form.js';

/** Store SKU per store channel (`channelSkus`, 2.4 `channelSkuCode`): "1" iOS store, "2" Android store. */
const STORES = [
  ['1', 'iOS store SKU (channel 1)', 'ios'],
  ['2', 'Android store SKU (channel 2)', 'android'],
];

const productPath = (appId, code) => `/apps/${encodeURIComponent(appId)}/products/${encodeURIComponent(code)}`;
const price = (p) => `${p.price} ${p.currency}`;

function formFrom(p) {
  return {
    productCode: p?.productCode ?? '',
    name: p?.name ?? '',
    price: p ? String(p.price) : '',
    currency: p?.currency ?? '',
    ...Object.fromEntries(STORES.map(([ch, , k]) => [k, p?.channelSkus?.[ch] ?? ''])),
  };
}

function skusOf(form) {
  const skus = {};
  for (const [ch, , k] of STORES) if (form[k].trim()) skus[ch] = form[k].trim();
  return skus;
}

/** The button that changes a product's status, by its status now: disable an active one, enable a disabled one. */
const STATUS_BUTTON = {
  active: {
    to: 'disabled',
    label: 'Disable product',
    question: 'Disable this product? New orders can no longer include it.',
  },
  disabled: {
    to: 'active',
    label: 'Enable product',
    question: 'Offer this product in new orders again?',
    danger: false,
  },
};

/** Create: every field; edit: name and store SKUs (replacing them all), the price only when changed. */
function bodyFrom(form, initial, editing) {
  if (!editing) {
    return {
      productCode: form.productCode.trim(),
      name: form.name,
      price: form.price.trim(),
      currency: form.currency.trim(),
      channelSkus: skusOf(form),
    };
  }
  const body = { name: form.name, channelSkus: skusOf(form) };
  if (form.price.trim() !== initial.price) body.price = form.price.trim();
  return body;
}

function ProductForm({ product, editing, submitLabel, onSubmit, busy }) {
  const [initial] = useState(() => formFrom(product));
  const [form, setForm] = useState(initial);
  const field = boundFields(form, setForm);
  return html`<form
    class="stacked product-form"
    onSubmit=${(e) => {
      e.preventDefault();
      onSubmit(bodyFrom(form, initial, editing));
    }}
  >
    ${
      editing
        ? null
        : field('productCode', {
            label: 'Product code (2.4 productCode)',
            required: true,
            maxlength: '64',
            hint: '1-64 of A-Z a-z 0-9 _ . : -',
          })
    }
    ${field('name', { label: 'Name', required: true, maxlength: '200' })}
    ${field('price', {
      label: editing ? `Unit price (${product.currency})` : 'Unit price',
      required: true,
      inputmode: 'decimal',
      hint: "A decimal with at most the currency's decimals, e.g. 6.99",
    })}
    ${
      editing
        ? null
        : field('currency', { label: 'Currency (ISO 4217)', required: true, maxlength: '3', placeholder: 'USD' })
    }
    ${STORES.map(([, label, k]) => field(k, { label, maxlength: '200' }))}
    <button type="submit" disabled=${busy}>${submitLabel}</button>
  </form>`;
}

/** One app's products, declared for the kit's ListPage. */
/** @type {(appId: number | string) => import('/console/kit/list.js').ListSpec<'/admin/v1/apps/{appId}/products', 'products'>} */
const productList = (appId) => ({
  title: html`Products <span class="muted">app ${appId}</span>`,
  intro: html`<p class="links"><a href=${href(`/apps/${appId}/orders`)}>Back to the app</a></p>
    <p><a class="button" href=${href(`/apps/${appId}/new-product`)}>New product</a></p>`,
  path: `/apps/${encodeURIComponent(appId)}/products`,
  rows: 'products',
  rowKey: (p) => p.productCode,
  rowLink: (p) => href(`/apps/${appId}/products/${p.productCode}`),
  what: 'products',
  empty: 'No products yet.',
  columns: [
    { label: 'Code', render: (p) => html`<code>${p.productCode}</code>` },
    { label: 'Name', key: 'name' },
    { label: 'Price', render: price },
    ...STORES.map(([ch, label]) => ({ label: `${label.split(' ')[0]} SKU`, render: (p) => show(p.channelSkus[ch]) })),
    { label: 'Status', render: (p) => html`<span class=${`product-${p.status}`}>${p.status}</span>` },
    { label: 'Updated', key: 'updatedAt', as: 'time' },
  ],
});

function ProductCreate({ appId }) {
  const create = useAction(async (body) => {
    const p = await api('POST', `/apps/${encodeURIComponent(appId)}/products`, { body });
    navigate(`/apps/${appId}/products/${p.productCode}`);
    return p;
  });
  return html`<section>
    <h1>New product <span class="muted">app ${appId}</span></h1>
    <p class="links"><a href=${href(`/apps/${appId}/products`)}>All products of the app</a></p>
    <${ErrorBox} error=${create.error} />
    <${ProductForm} submitLabel="Create product" busy=${create.busy} onSubmit=${create.run} />
  </section>`;
}

function ProductDetail({ appId, code }) {
  const path = productPath(appId, code);
  const all = href(`/apps/${appId}/products`);
  const page = { what: 'product', title: `Product ${code}`, back: all, backLabel: 'All products of the app' };
  /** @type {import('page-types').RecordOf<'/admin/v1/apps/{appId}/products/{productCode}'>} */
  const { data: p, reload, placeholder } = useRecord(path, {}, [appId, code], page);
  const [editing, setEditing] = useState(false);
  const save = useAction(async (body) => {
    const r = await api('PATCH', path, { body });
    setEditing(false);
    return r;
  }, reload);
  const setStatus = useAction((status) => api('PATCH', path, { body: { status } }), reload);
  if (placeholder) return placeholder;
  const statusButton = STATUS_BUTTON[p.status];
  return html`<section>
    <h1>
      ${p.name} <span class="muted">product ${p.productCode}</span>
      <span class=${`product-${p.status}`}>${p.status}</span>
    </h1>
    <p class="links">
      <a href=${all}>All products of the app</a> ·
      <a href=${href(`/apps/${appId}`)}>The app</a>
    </p>
    <${ErrorBox} error=${save.error} />
    <${ActionStatus} action=${setStatus} done=${(r) => `The product is now ${r.status}.`} />
    <${EditOrShow}
      editing=${editing}
      onCancel=${() => setEditing(false)}
      Form=${ProductForm}
      formProps=${{ product: p }}
      save=${save}
    >
      <${Details}
        rows=${[
          ['Code', html`<code>${p.productCode}</code>`],
          ['Name', p.name],
          ['Unit price', price(p)],
          ['Price in minor units', String(p.priceMinor)],
          ...STORES.map(([ch, label]) => [label, show(p.channelSkus[ch])]),
          ['Status', p.status],
          ['Created', time(p.createdAt)],
          ['Updated', time(p.updatedAt)],
        ]}
      />
      <p class="actions">
        <${EditButton} save=${save} onEdit=${() => setEditing(true)}>Edit<//>
        <${ConfirmButton} ...${statusButton} onConfirm=${() => setStatus.run(statusButton.to)} />
      </p>
    <//>
  </section>`;
}

/** `#/apps/{appId}/products[/{productCode}]` and `#/apps/{appId}/new-product` (a product may be called "new"). */
export function ProductsPage({ appId, code, create }) {
  if (create) return html`<${ProductCreate} appId=${appId} />`;
  if (code !== undefined) return html`<${ProductDetail} key=${code} appId=${appId} code=${code} />`;
  return html`<${ListPage} spec=${productList(appId)} />`;
}
