import crypto from 'node:crypto';
import { Type } from '@sinclair/typebox';
import type { Config } from '../../config/config.js';
import { invalidParameter } from '../../errors/app-error.js';
import { Text } from '../../http/schemas.js';
import { PaymentType } from '../../orders/enums.js';
import { PROVIDERS, ProviderError, type PaymentProvider, type ProviderSettings } from '../provider.js';
import { read } from '../stripe/stripe-events.js';
import { wechatRefund, wechatRefundQuery } from './wechatpay-refunds.js';
import { WechatpayApi, WechatpayRefusal, type WechatpayMerchant } from './wechatpay-api.js';
import { decryptResource, pem, platformPublicKey, verifySigned } from './wechatpay-crypto.js';
import {
  Transaction,
  WechatpayNotification,
  notificationOf,
  outTradeNoOf,
  transactionFinding,
} from './wechatpay-events.js';

interface WechatpayConfig {
  mchId: string;
  wechatAppId: string;
  merchantSerialNo: string;
  platformKeyId: string;
}
interface WechatpaySecrets {
  apiV3Key: string;
  merchantPrivateKey: string;
  platformKey: string;
}
type Settings = ProviderSettings<WechatpayConfig, WechatpaySecrets>;

/**
 * WeChat Pay API v3 (docs/web-payment.md, "WeChat Pay"), mainland merchants, CNY in fen: a desktop browser gets a
 * Native payment (the page draws its `code_url` as a QR code the player scans with WeChat), a phone browser an H5
 * payment (the browser opens `h5_url`, WeChat Pay sends it back to the page). out_trade_no is GP and the trxNo
 * (`ref`), `attach` the trxNo, `time_expire` the order's lifetime. The notification (TRANSACTION.SUCCESS) is verified
 * with the platform key, decrypted with the API v3 key and checked for this merchant; the browser's return pays
 * nothing: the result view waits for it or for the query by out_trade_no (late query, reconciliation). Closing calls
 * the close API; a transaction paid meanwhile is paid. Built from the configuration (providers.ts); the interface
 * (provider.ts) types its calls.
 */
export function wechatpayProvider(
  config: Config,
  now: () => number = Date.now,
): PaymentProvider<WechatpayConfig, WechatpaySecrets> {
  const api = new WechatpayApi({
    apiBaseUrl: config.WECHATPAY_API_BASE_URL,
    timeoutMs: config.PROVIDER_CALL_TIMEOUT_MS,
  });
  return {
    id: 'wechatpay',
    ...PROVIDERS.wechatpay,
    settings: {
      config: Type.Object(
        {
          mchId: Text({ minLength: 1, maxLength: 32, description: 'The merchant id (商户号, mchid).' }),
          wechatAppId: Text({
            minLength: 1,
            maxLength: 32,
            description: 'The appid bound to the merchant id (an Official Account, Mini Program or Open Platform app).',
          }),
          merchantSerialNo: Text({
            minLength: 8,
            maxLength: 64,
            description: "The serial number of the merchant's API certificate (商户API证书序列号).",
          }),
          platformKeyId: Text({
            minLength: 8,
            maxLength: 64,
            description:
              'What WeChat Pay names its signing key by in Wechatpay-Serial: the WeChat Pay public key ID (PUB_KEY_ID_...) or the platform certificate serial.',
          }),
        },
        { additionalProperties: false },
      ),
      secrets: Type.Object(
        {
          apiV3Key: Text({ minLength: 32, maxLength: 32, description: 'The API v3 key (APIv3密钥, 32 characters).' }),
          merchantPrivateKey: Text({
            minLength: 100,
            maxLength: 8192,
            description: "The private key of the merchant's API certificate (apiclient_key.pem).",
          }),
          // Public, but kept with the secrets: whoever could change it could sign notifications that pay (sealed, and
          // never shown back), and it is a PEM file like the private key (the CLI's --secret-file, the panel's field).
          platformKey: Text({
            minLength: 100,
            maxLength: 8192,
            description:
              'The WeChat Pay public key (微信支付公钥, pub_key.pem) or platform certificate (平台证书, PEM) that platformKeyId names.',
          }),
        },
        { additionalProperties: false },
      ),
      check: (config: WechatpayConfig, secrets: Partial<WechatpaySecrets>) => {
        if (!/^[0-9]{1,32}$/.test(config.mchId)) throw invalidParameter('config.mchId', 'is a merchant id (digits)');
        if (!/^[A-Za-z0-9]{1,32}$/.test(config.wechatAppId))
          throw invalidParameter('config.wechatAppId', 'is an appid (letters and digits, e.g. wx...)');
        if (!/^[0-9A-Fa-f]{8,64}$/.test(config.merchantSerialNo))
          throw invalidParameter('config.merchantSerialNo', 'is a certificate serial number (hexadecimal)');
        if (!/^(PUB_KEY_ID_[0-9A-Za-z]{1,52}|[0-9A-Fa-f]{8,64})$/.test(config.platformKeyId))
          throw invalidParameter('config.platformKeyId', 'is a WeChat Pay public key ID (PUB_KEY_ID_...) or a serial');
        if (secrets.platformKey !== undefined) {
          try {
            if (platformPublicKey(secrets.platformKey).asymmetricKeyType !== 'rsa') throw new Error('not RSA');
          } catch {
            throw invalidParameter('secrets.platformKey', 'is an RSA public key or certificate in PEM');
          }
        }
        if (secrets.apiV3Key !== undefined && Buffer.byteLength(secrets.apiV3Key) !== 32)
          throw invalidParameter('secrets.apiV3Key', 'is 32 ASCII characters');
        if (secrets.merchantPrivateKey !== undefined) {
          try {
            if (crypto.createPrivateKey(pem(secrets.merchantPrivateKey)).asymmetricKeyType !== 'rsa')
              throw new Error('not RSA');
          } catch {
            throw invalidParameter('secrets.merchantPrivateKey', 'is an RSA private key in PEM (apiclient_key.pem)');
          }
        }
      },
    },
    webhook: {
      contentType: 'application/json' as const,
      body: Type.Object(
        {
          id: Text({ maxLength: 64 }),
          event_type: Text({ maxLength: 64, description: 'e.g. TRANSACTION.SUCCESS' }),
          resource: Type.Object({}, { additionalProperties: true }),
        },
        {
          additionalProperties: true,
          description:
            "A WeChat Pay notification (API v3 支付通知), signed in Wechatpay-Signature, its resource encrypted under the merchant's API v3 key.",
        },
      ),
      /** WeChat Pay's failure answer (4xx with `{code: "FAIL", message}`; it retries), our outcome and reason beside. */
      refused: (r: { outcome: string; reason: string | null; detail: string }) => ({
        contentType: 'application/json',
        body: JSON.stringify({ code: 'FAIL', message: r.detail, outcome: r.outcome, reason: r.reason }),
      }),
    },

    /** Native is a QR code scanned from a desktop screen (2.7 paymentType 3); H5 a phone's browser (1). */
    paymentType(device) {
      return device === 'desktop' ? PaymentType.QR_CODE : PaymentType.MOBILE_WAP;
    },

    async open(settings, p) {
      if (p.order.currency !== 'CNY') throw new ProviderError('refused', 'WeChat Pay takes CNY only');
      const outTradeNo = outTradeNoOf(p.order.trx_no);
      const description = p.items
        .map((i) => `${p.names.get(i.product_code) ?? i.product_code} x${i.quantity}`)
        .join(', ')
        .slice(0, 127);
      const body = {
        appid: settings.config.wechatAppId,
        mchid: settings.config.mchId,
        description,
        out_trade_no: outTradeNo,
        time_expire: rfc3339China(p.expiresAt),
        attach: String(p.order.trx_no),
        notify_url: p.notifyUrl,
        amount: { total: p.order.total_minor, currency: 'CNY' },
      };
      const m = merchant(settings);
      if (p.device === 'desktop') {
        const answer = read(
          Type.Object({ code_url: Type.String({ pattern: '^weixin://[!-~]{1,500}$' }) }),
          await api.native(m, body),
          'answer',
        );
        // Drawn here (a PNG data URL the page shows as an image): the page renders no provider markup.
        // Loaded at the first Native payment, not at start (with its PNG encoder, ~1 MB of heap).
        const { default: QRCode } = await import('qrcode');
        const image = await QRCode.toDataURL(answer.code_url, { errorCorrectionLevel: 'M', margin: 2, width: 240 });
        return { ref: outTradeNo, step: { kind: 'qr', channel: this.id, code: answer.code_url, image } };
      }
      if (!p.clientIp) throw new ProviderError('refused', "WeChat Pay's H5 payment needs the payer's IP");
      const answer = read(
        Type.Object({ h5_url: Type.String({ pattern: '^https?://[!-~]{1,2000}$' }) }),
        await api.h5(m, { ...body, scene_info: { payer_client_ip: p.clientIp, h5_info: { type: 'Wap' } } }),
        'answer',
      );
      // WeChat Pay sends the browser to redirect_url when the player is done in WeChat (its H5 reference).
      const url = new URL(answer.h5_url);
      url.searchParams.set('redirect_url', p.returnUrl);
      return { ref: outTradeNo, step: { kind: 'redirect', channel: this.id, url: url.toString() } };
    },

    async verify(settings, request) {
      verifySigned(merchant(settings).platform, request.headers, request.rawBody, now());
      const n = read(WechatpayNotification, request.body, 'notification');
      const plain = decryptResource(settings.secrets.apiV3Key, n.resource);
      return notificationOf(n, plain, settings.config);
    },

    async query(settings, payment) {
      let answer;
      try {
        answer = await api.query(merchant(settings), payment.ref);
      } catch (e) {
        // Never created at WeChat Pay (the open failed after it was recorded): nothing can pay it.
        if (e instanceof WechatpayRefusal && e.wxCode === 'ORDER_NOT_EXIST')
          return now() >= Number(payment.expires_at)
            ? { kind: 'closed', ref: payment.ref, trxNo: Number(payment.trx_no) }
            : { kind: 'open' };
        throw e;
      }
      const t = read(Transaction, answer, 'transaction');
      if (t.mchid !== settings.config.mchId || t.out_trade_no !== payment.ref)
        throw new ProviderError('malformed', 'the query answered another transaction');
      return transactionFinding(t, 'transaction');
    },

    /** Closes the transaction at WeChat Pay, then reads it: closed, or paid when the player paid meanwhile. */
    async close(settings, payment) {
      try {
        await api.close(merchant(settings), payment.ref);
      } catch (e) {
        // ORDERPAID, ORDER_CLOSED...: the query below says what it is.
        if (!(e instanceof WechatpayRefusal) || e.status >= 500) throw e;
      }
      const found = await this.query(settings, payment);
      if (found.kind === 'paid' || found.kind === 'failed') return found;
      return { kind: 'closed', ref: payment.ref, trxNo: Number(payment.trx_no) };
    },

    refund(settings, payment, r) {
      return wechatRefund(api, merchant(settings), payment, r);
    },

    queryRefund(settings, _payment, r) {
      return wechatRefundQuery(api, merchant(settings), r);
    },
  };
}

function merchant(settings: Settings): WechatpayMerchant {
  try {
    return {
      mchId: settings.config.mchId,
      serialNo: settings.config.merchantSerialNo,
      privateKey: crypto.createPrivateKey(pem(settings.secrets.merchantPrivateKey)),
      platform: { serial: settings.config.platformKeyId, key: platformPublicKey(settings.secrets.platformKey) },
    };
  } catch {
    throw new ProviderError('not_configured', "the app's WeChat Pay keys do not parse");
  }
}

/** RFC 3339 in China Standard Time (+08:00), as WeChat Pay writes its times (time_expire). */
export function rfc3339China(ms: number): string {
  const local = new Date(Math.floor(ms / 1000) * 1000 + 8 * 3_600_000).toISOString().slice(0, 19);
  return `${local}+08:00`;
}
