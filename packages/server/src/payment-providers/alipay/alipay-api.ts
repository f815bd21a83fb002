import crypto, { type KeyObject } from 'node:crypto';
import type { AlipaySdk, AlipaySdkCommonResult } from 'alipay-sdk';
import { ProviderError } from '../provider.js';

type Sdk = typeof import('alipay-sdk');
let sdk: Promise<Sdk> | undefined;
/** The SDK, loaded at the first Alipay call (it brings its own HTTP client): the service starts without it. */
const loadSdk = (): Promise<Sdk> => (sdk ??= import('alipay-sdk'));

/** Which Alipay an app's merchant app belongs to (Alipay Open Platform: live, or the sandbox of the console). */
export type AlipayEnvironment = 'live' | 'sandbox';

/** Alipay's gateway of each environment (Alipay's OpenAPI reference, "网关地址"). */
const GATEWAYS: Record<AlipayEnvironment, string> = {
  live: 'https://openapi.alipay.com/gateway.do',
  sandbox: 'https://openapi-sandbox.dl.alipaydev.com/gateway.do',
};

export interface AlipayCredentials {
  /** The merchant app's APPID. */
  appId: string;
  /** The app's RSA2 private key (PKCS#8 or PKCS#1, PEM or bare base64 as Alipay's key tool writes it). */
  privateKey: string;
  /** The Alipay public key the Open Platform shows for the app (its "支付宝公钥"), PEM or bare base64. */
  alipayPublicKey: string;
  environment: AlipayEnvironment;
}

/** Alipay's answer to a refused call (`code` other than 10000): its sub_code says why (ACQ.TRADE_NOT_EXIST...). */
export class AlipayRefusal extends ProviderError {
  constructor(
    readonly alipayCode: string,
    readonly subCode: string,
  ) {
    super('refused', `Alipay: ${alipayCode} ${subCode}`.trim());
  }
}

/**
 * Alipay's OpenAPI (the `alipay.trade.*` methods of its gateway) through Alipay's own SDK, `alipay-sdk`: every request
 * signed RSA2 with the app's private key, every answer's signature checked with the Alipay public key (validateSign).
 * ALIPAY_GATEWAY_URL (tests, demos: a fake on loopback) replaces the gateway of both environments.
 */
export class AlipayApi {
  constructor(private readonly opts: { gatewayUrl: string; timeoutMs: number }) {}

  /** The signed URL of Alipay's cashier (`alipay.trade.page.pay` / `alipay.trade.wap.pay`) the browser is sent to. */
  async pageUrl(creds: AlipayCredentials, method: string, params: Record<string, unknown>): Promise<string> {
    return (await this.client(creds)).pageExecute(method, 'GET', params);
  }

  /**
   * One OpenAPI call, its answer's signature checked. Alipay's business refusal (code 40004...) is an AlipayRefusal;
   * no answer, an HTTP error, a system error (20000) or an answer that does not verify is 'unreachable' (asked again).
   */
  async exec(creds: AlipayCredentials, method: string, bizContent: Record<string, unknown>) {
    const client = await this.client(creds);
    let result: AlipaySdkCommonResult;
    try {
      result = await client.exec(method, { bizContent }, { validateSign: true });
    } catch (e) {
      throw new ProviderError('unreachable', `Alipay ${method}: ${(e as Error).message.slice(0, 300)}`);
    }
    const code = typeof result.code === 'string' ? result.code : '';
    if (code === '10000') return result as Record<string, unknown>;
    const subCode = typeof result.sub_code === 'string' ? result.sub_code.slice(0, 100) : '';
    if (code === '20000' || code === '') throw new ProviderError('unreachable', `Alipay ${method}: ${code} ${subCode}`);
    throw new AlipayRefusal(code.slice(0, 10), subCode);
  }

  /** The SDK as configured for an app, `verify` (its notify check) included. */
  async client(creds: AlipayCredentials): Promise<AlipaySdk> {
    const { AlipaySdk } = await loadSdk();
    return new AlipaySdk({
      appId: creds.appId,
      privateKey: rsaPrivateKey(creds.privateKey)!.export({ type: 'pkcs8', format: 'pem' }) as string,
      keyType: 'PKCS8',
      alipayPublicKey: rsaPublicKey(creds.alipayPublicKey)!.export({ type: 'spki', format: 'pem' }) as string,
      signType: 'RSA2',
      gateway: this.opts.gatewayUrl || GATEWAYS[creds.environment],
      timeout: this.opts.timeoutMs,
      // Fields as Alipay names them (out_trade_no, trade_status): the checks read Alipay's reference's names.
      camelcase: false,
    });
  }
}

/**
 * Keys as Alipay's tools write them: PEM, or the bare base64 of the DER body. A PEM pasted into a one-line field (the
 * console's) has lost its line breaks: its body is wrapped again.
 */
function keyBodies(text: string): Array<{ key: string | Buffer; format: 'pem' | 'der' }> {
  const t = text.trim();
  const pem = /^-----BEGIN ([A-Z ]{3,40})-----([A-Za-z0-9+/=\s]{100,8000})-----END \1-----$/.exec(t);
  if (pem) {
    const lines = pem[2]!
      .replace(/\s+/g, '')
      .match(/.{1,64}/g)!
      .join('\n');
    return [{ key: `-----BEGIN ${pem[1]}-----\n${lines}\n-----END ${pem[1]}-----\n`, format: 'pem' }];
  }
  if (t.startsWith('-----BEGIN ')) return [];
  if (!/^[A-Za-z0-9+/=\s]{100,8000}$/.test(t)) return [];
  return [{ key: Buffer.from(t.replace(/\s+/g, ''), 'base64'), format: 'der' }];
}

/** An RSA key of 2048 bits or more (RSA2 is SHA256withRSA over a 2048-bit key); null when the text is not one. */
function strongRsa(key: KeyObject | null): KeyObject | null {
  return key?.asymmetricKeyType === 'rsa' && (key.asymmetricKeyDetails?.modulusLength ?? 0) >= 2048 ? key : null;
}

/** The app private key; null when it is not an RSA private key of 2048 bits or more. */
export function rsaPrivateKey(text: string): KeyObject | null {
  for (const body of keyBodies(text))
    for (const type of body.format === 'pem' ? [undefined] : (['pkcs8', 'pkcs1'] as const)) {
      try {
        return strongRsa(crypto.createPrivateKey({ ...body, ...(type ? { type } : {}) } as crypto.PrivateKeyInput));
      } catch {
        // Not this encoding.
      }
    }
  return null;
}

/** The Alipay public key; null when it is not an RSA public key of 2048 bits or more. */
export function rsaPublicKey(text: string): KeyObject | null {
  // createPublicKey takes a private key too (its public half): a private key pasted here is refused, not used.
  if (/PRIVATE/.test(text)) return null;
  for (const body of keyBodies(text)) {
    try {
      const key = crypto.createPublicKey(
        body.format === 'pem' ? body.key : ({ key: body.key, format: 'der', type: 'spki' } as crypto.PublicKeyInput),
      );
      return key.type === 'public' ? strongRsa(key) : null;
    } catch {
      // Not a public key.
    }
  }
  return null;
}
