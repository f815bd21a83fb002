import { Type } from '@sinclair/typebox';
import type { Config } from '../../config/config.js';
import { AppError, invalidParameter } from '../../errors/app-error.js';
import { Text } from '../../http/schemas.js';
import {
  PROVIDERS,
  ProviderError,
  type Device,
  type OpenPayment,
  type PaymentProvider,
  type ProviderFinding,
  type ProviderSettings,
} from '../provider.js';
import { alipayRefund, alipayRefundQuery } from './alipay-refunds.js';
import { AlipayApi, AlipayRefusal, rsaPrivateKey, rsaPublicKey, type AlipayCredentials } from './alipay-api.js';
import { notificationOf, queryFinding, toYuan } from './alipay-notify.js';

interface AlipayConfig {
  appId: string;
  alipayPublicKey: string;
  environment?: 'live' | 'sandbox';
}
interface AlipaySecrets {
  privateKey: string;
}
type Settings = ProviderSettings<AlipayConfig, AlipaySecrets>;

/** 2.7 paymentType: the desktop cashier is paid by scanning its QR code with the Alipay app (3); phones pay in WAP (1). */
const PAYMENT_TYPE: Record<Device, number> = { desktop: 3, phone: 1 };
/** Alipay's words the subject must not hold (its reference: no /, =, &), and its length. */
const SUBJECT_MAX = 256;

/**
 * Alipay (Open Platform, RSA2 public-key mode), with Alipay's `alipay-sdk`: a web order opens Alipay's cashier,
 * `alipay.trade.page.pay` on a desktop and `alipay.trade.wap.pay` on a phone, as a signed gateway URL the browser is
 * sent to (out_trade_no the trxNo, total_amount the order's in yuan, time_expire the order's lifetime, notify_url this
 * app's webhook, return_url the page's). Alipay pays by its asynchronous notify (a form POST, signed RSA2 with Alipay's
 * key, checked with the Alipay public key by the SDK), answered `success` (anything else: Alipay sends it again,
 * for about a day) and `fail` for a refusal. The return to the page pays nothing; the late query and the
 * reconciliation ask `alipay.trade.query`, and close with `alipay.trade.close` past the lifetime. Built from the
 * configuration (providers.ts); the interface (provider.ts) types its calls.
 */
export function alipayProvider(config: Config): PaymentProvider<AlipayConfig, AlipaySecrets> {
  const api = new AlipayApi({ gatewayUrl: config.ALIPAY_GATEWAY_URL, timeoutMs: config.PROVIDER_CALL_TIMEOUT_MS });
  return {
    id: 'alipay',
    ...PROVIDERS.alipay,
    settings: {
      config: Type.Object(
        {
          appId: Text({
            minLength: 1,
            maxLength: 32,
            description: "The APPID of the studio's web app in Alipay's Open Platform console (digits).",
          }),
          alipayPublicKey: Text({
            minLength: 100,
            maxLength: 8000,
            description:
              "The Alipay public key (支付宝公钥) the console shows for the app once the app's RSA2 public key is set: PEM or base64. It checks Alipay's notifies and answers.",
          }),
          environment: Type.Optional(
            Type.Union([Type.Literal('live'), Type.Literal('sandbox')], {
              description: "live (default) or sandbox: which Alipay the app belongs to (the console's sandbox app).",
            }),
          ),
        },
        { additionalProperties: false },
      ),
      secrets: Type.Object(
        {
          privateKey: Text({
            minLength: 100,
            maxLength: 8000,
            description:
              "The app's RSA2 private key (应用私钥, 2048 bits; PKCS#8 or PKCS#1, PEM or base64): requests to Alipay are signed with it.",
          }),
        },
        { additionalProperties: false },
      ),
      check: (config: AlipayConfig, secrets: Partial<AlipaySecrets>) => {
        if (!/^[0-9]{1,32}$/.test(config.appId))
          throw invalidParameter('config.appId', "is an Alipay app's APPID (digits)");
        if (!rsaPublicKey(config.alipayPublicKey))
          throw invalidParameter('config.alipayPublicKey', 'is an RSA public key of 2048 bits or more (PEM or base64)');
        if (secrets.privateKey !== undefined && !rsaPrivateKey(secrets.privateKey))
          throw invalidParameter('secrets.privateKey', 'is an RSA private key of 2048 bits or more (PEM or base64)');
      },
    },
    webhook: {
      contentType: 'application/x-www-form-urlencoded' as const,
      body: Type.Object(
        {
          notify_id: Text({ maxLength: 128 }),
          sign: Type.Optional(Text({ maxLength: 2000 })),
        },
        {
          additionalProperties: true,
          description: "Alipay's asynchronous notify (异步通知): form fields, signed RSA2 in `sign`.",
        },
      ),
      accepted: { status: 200, contentType: 'text/plain; charset=utf-8', body: 'success' },
      refused: () => ({ contentType: 'text/plain; charset=utf-8', body: 'fail' }),
    },

    paymentType(device) {
      return PAYMENT_TYPE[device];
    },

    async open(settings, p) {
      // Alipay's domestic trades are in yuan (total_amount, 元): an order priced in anything else is not Alipay's.
      // The studio's prices, not Alipay, are at fault: refused as the method not taking this order (40050, a 4xx).
      if (p.order.currency !== 'CNY')
        throw new AppError('PAYMENT_METHOD_UNAVAILABLE', `Alipay takes orders in CNY only, not ${p.order.currency}`);
      const outTradeNo = String(p.order.trx_no);
      const phone = p.device === 'phone';
      const bizContent: Record<string, unknown> = {
        out_trade_no: outTradeNo,
        total_amount: toYuan(p.order.total_minor),
        subject: subjectOf(p),
        product_code: phone ? 'QUICK_WAP_WAY' : 'FAST_INSTANT_TRADE_PAY',
        time_expire: beijingTime(p.expiresAt),
        ...(phone ? { quit_url: p.returnUrl } : {}),
      };
      let url: string;
      try {
        url = await api.pageUrl(credentials(settings), phone ? 'alipay.trade.wap.pay' : 'alipay.trade.page.pay', {
          bizContent,
          notifyUrl: p.notifyUrl,
          returnUrl: p.returnUrl,
        });
      } catch (e) {
        if (e instanceof ProviderError) throw e;
        throw new ProviderError('not_configured', `Alipay: the app's keys cannot sign (${(e as Error).message})`);
      }
      return { ref: outTradeNo, step: { kind: 'redirect', channel: this.id, url } };
    },

    async verify(settings, request) {
      const body = request.body as Record<string, string>;
      if (typeof body.sign !== 'string' || body.sign === '') throw new ProviderError('missing_signature', 'no sign');
      // RSA2 only (SHA256withRSA); the old RSA (SHA1) is not taken even where the SDK would.
      if (body.sign_type !== undefined && body.sign_type !== 'RSA2')
        throw new ProviderError('bad_signature', `sign_type ${String(body.sign_type).slice(0, 10)} is not RSA2`);
      const client = await api.client(credentials(settings));
      // The SDK's check over the parameters as received (form-decoded, sorted, sign left out), not decoded again.
      if (!client.checkNotifySignV2({ ...body })) throw new ProviderError('bad_signature', 'the sign does not verify');
      // A notify signed for another merchant app is not this app's, whatever it says (its key may be shared).
      if (body.app_id !== settings.config.appId) throw new ProviderError('refused', 'app_id is not this app');
      return notificationOf(body);
    },

    async query(settings, payment) {
      try {
        return queryFinding(await api.exec(credentials(settings), 'alipay.trade.query', { out_trade_no: payment.ref }));
      } catch (e) {
        // Alipay makes the trade when the player reaches its cashier and logs in or scans: none yet is still payable.
        if (e instanceof AlipayRefusal && e.subCode === 'ACQ.TRADE_NOT_EXIST') return { kind: 'open' };
        throw e;
      }
    },

    /**
     * alipay.trade.close: a trade waiting for the buyer is closed. A trade Alipay never made is closed too (time_expire,
     * the order's lifetime, has passed: Alipay makes none after it). A paid trade cannot be closed: the query says so.
     */
    async close(settings, payment) {
      const closed: ProviderFinding = { kind: 'closed', ref: payment.ref, trxNo: Number(payment.trx_no) };
      try {
        await api.exec(credentials(settings), 'alipay.trade.close', { out_trade_no: payment.ref });
        return closed;
      } catch (e) {
        if (!(e instanceof AlipayRefusal)) throw e;
        if (e.subCode === 'ACQ.TRADE_NOT_EXIST') return closed;
      }
      // ACQ.TRADE_STATUS_ERROR and the like: the trade is paid, finished or closed already; Alipay's query says which.
      const found = await this.query(settings, payment);
      return found.kind === 'open' ? closed : found;
    },

    refund(settings, payment, r) {
      return alipayRefund(api, credentials(settings), payment, r);
    },

    queryRefund(settings, payment, r) {
      return alipayRefundQuery(api, credentials(settings), payment, r);
    },
  };
}

/** The order's lines as Alipay's subject (what the player sees in the cashier and the Alipay app's bill). */
function subjectOf(p: OpenPayment): string {
  const text = p.items
    .map((item) => `${p.names.get(item.product_code) ?? item.product_code} × ${item.quantity}`)
    .join(', ')
    .replace(/[/=&\p{Cc}]/gu, ' ');
  return [...text].slice(0, SUBJECT_MAX).join('') || `Order ${p.order.trx_no}`;
}

/** Alipay's times are Beijing time (UTC+8), "yyyy-MM-dd HH:mm:ss". */
export function beijingTime(ms: number): string {
  return new Date(ms + 8 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
}

function credentials(settings: Settings): AlipayCredentials {
  return {
    appId: settings.config.appId,
    privateKey: settings.secrets.privateKey,
    alipayPublicKey: settings.config.alipayPublicKey,
    environment: settings.config.environment ?? 'live',
  };
}
