import { ProviderError } from './provider.js';

/** Times as the providers write them, read as Unix ms; a text that is not one is malformed (never a 500). */

/** RFC 3339 with an offset (PayPal's create_time, WeChat Pay's success_time: 2025-01-01T10:00:00+08:00). */
export function rfc3339(text: string, what: string): number {
  const ok = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/.test(text);
  return checked(ok ? Date.parse(text) : NaN, what);
}

/** Alipay's `yyyy-MM-dd HH:mm:ss[.SSS]`, Beijing time (UTC+8) as Alipay documents it (gmt_refund, gmt_payment). */
export function beijingTime(text: string, what: string): number {
  const m = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})(\.\d{1,3})?$/.exec(text);
  return checked(m ? Date.parse(`${m[1]}T${m[2]}${m[3] ?? ''}+08:00`) : NaN, what);
}

function checked(ms: number, what: string): number {
  if (!Number.isFinite(ms)) throw new ProviderError('malformed', `${what}: not a time`);
  return ms;
}
