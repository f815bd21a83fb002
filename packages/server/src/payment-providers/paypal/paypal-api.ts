import crypto from 'node:crypto';
import type {
  ApiError,
  Client,
  Order,
  OrderRequest,
  OrdersController,
  PaymentsController,
  Refund,
  RefundRequest,
} from '@paypal/paypal-server-sdk';
import { ProviderError } from '../provider.js';

type Sdk = typeof import('@paypal/paypal-server-sdk');
let sdk: Promise<Sdk> | undefined;
/** The SDK, loaded at the first PayPal call: it is large, and the service starts without it (as the tracing packages). */
const loadSdk = (): Promise<Sdk> => (sdk ??= import('@paypal/paypal-server-sdk'));

/** The PayPal environment of an app's REST app (Developer Dashboard: Sandbox or Live). */
export type PaypalEnvironment = 'live' | 'sandbox';

export interface PaypalCredentials {
  clientId: string;
  clientSecret: string;
  environment: PaypalEnvironment;
}

/** PayPal's API host of each environment: the SDK's own base URIs (Environment.Production, Environment.Sandbox). */
const SDK_HOSTS: Record<PaypalEnvironment, string> = {
  live: 'https://api-m.paypal.com',
  sandbox: 'https://api-m.sandbox.paypal.com',
};
/** Clients kept (one per REST app: the SDK caches its OAuth2 token in the client until it expires). */
const MAX_CLIENTS = 256;

/** A PayPal error as the Orders API answers it (`name`, `details[].issue`). */
export interface PaypalFailure {
  status: number;
  name: string;
  issues: string[];
}

/**
 * PayPal's REST API through its own SDK (`@paypal/paypal-server-sdk`): OAuth2 client credentials (the SDK fetches and
 * renews the token), Orders v2 create, show and capture, each with its PayPal-Request-Id where PayPal takes one.
 *
 * The SDK's base URI is fixed per environment; PAYPAL_API_BASE_URL (tests, demos: a fake on loopback) moves every
 * request, the token's too, with the SDK's own request interceptor (the way it adds its User-Agent) on a client whose
 * `getRequestBuilderFactory` every controller asks for its requests.
 */
export class PaypalApi {
  readonly #clients = new Map<string, Client>();

  constructor(private readonly opts: { apiBaseUrl: string; timeoutMs: number }) {}

  createOrder(creds: PaypalCredentials, body: OrderRequest, requestId: string): Promise<Order> {
    return this.call(creds, (orders) =>
      orders.createOrder({ body, paypalRequestId: requestId, prefer: 'return=representation' }),
    );
  }

  getOrder(creds: PaypalCredentials, id: string): Promise<Order> {
    return this.call(creds, (orders) => orders.getOrder({ id }));
  }

  captureOrder(creds: PaypalCredentials, id: string, requestId: string): Promise<Order> {
    return this.call(creds, (orders) =>
      orders.captureOrder({ id, paypalRequestId: requestId, prefer: 'return=representation' }),
    );
  }

  /** POST /v2/payments/captures/{id}/refund under its PayPal-Request-Id (the same id: the same refund). */
  refundCapture(creds: PaypalCredentials, captureId: string, body: RefundRequest, requestId: string): Promise<Refund> {
    return this.callPayments(creds, (payments) =>
      payments.refundCapturedPayment({ captureId, body, paypalRequestId: requestId, prefer: 'return=representation' }),
    );
  }

  /** GET /v2/payments/refunds/{id}. */
  getRefund(creds: PaypalCredentials, refundId: string): Promise<Refund> {
    return this.callPayments(creds, (payments) => payments.getRefund({ refundId }));
  }

  private async callPayments<T>(
    creds: PaypalCredentials,
    fn: (payments: PaymentsController) => Promise<{ result: T }>,
  ) {
    const { PaymentsController } = await loadSdk();
    return this.run(creds, async (client) => (await fn(new PaymentsController(client))).result);
  }

  private async call(creds: PaypalCredentials, fn: (orders: OrdersController) => Promise<{ result: Order }>) {
    const { OrdersController } = await loadSdk();
    return this.run(creds, async (client) => (await fn(new OrdersController(client))).result);
  }

  /**
   * One call. PayPal's refusal (4xx) becomes ProviderError('refused') carrying what PayPal said
   * (`failureOf`); anything else (no answer, a 5xx, a timeout) 'unreachable', and the client is dropped so the next
   * call starts afresh (the SDK keeps a failed token fetch for good).
   */
  private async run<T>(creds: PaypalCredentials, fn: (client: Client) => Promise<T>): Promise<T> {
    const key = clientKey(creds);
    const { ApiError } = await loadSdk();
    try {
      return await fn(await this.client(key, creds));
    } catch (e) {
      const status = e instanceof ApiError ? e.statusCode : 0;
      if (status === 0 || status >= 500 || status === 401) this.#clients.delete(key);
      if (status >= 400 && status < 500) throw new PaypalRefusal(failureOf(e as ApiError<unknown>));
      throw new ProviderError('unreachable', `PayPal: ${status ? `HTTP ${status}` : (e as Error).message}`);
    }
  }

  private async client(key: string, creds: PaypalCredentials): Promise<Client> {
    let client = this.#clients.get(key);
    if (!client) {
      client = makeClient(await loadSdk(), creds, this.opts.apiBaseUrl, this.opts.timeoutMs);
      if (this.#clients.size >= MAX_CLIENTS) this.#clients.delete(this.#clients.keys().next().value!);
      this.#clients.set(key, client);
    }
    return client;
  }
}

/** PayPal refused a call (4xx): its error name and issues, for the adapter to tell a business outcome from a fault. */
export class PaypalRefusal extends ProviderError {
  constructor(readonly failure: PaypalFailure) {
    super('refused', `PayPal: HTTP ${failure.status} ${failure.name} ${failure.issues.join(', ')}`.trim());
  }
}

function failureOf(e: ApiError<unknown>): PaypalFailure {
  let body: { name?: unknown; details?: Array<{ issue?: unknown }> } = {};
  try {
    body = typeof e.body === 'string' ? JSON.parse(e.body) : {};
  } catch {
    // Not JSON: the status says enough.
  }
  const word = (v: unknown) => (typeof v === 'string' && /^[A-Z0-9_]{1,100}$/.test(v) ? v : null);
  return {
    status: e.statusCode,
    name: word(body?.name) ?? '',
    issues: Array.isArray(body?.details) ? body.details.map((d) => word(d?.issue)).filter((v) => v !== null) : [],
  };
}

/** One client per REST app and environment; the secret enters the key only as a digest. */
function clientKey(c: PaypalCredentials): string {
  const secret = crypto.createHash('sha256').update(c.clientSecret).digest('base64url');
  return `${c.environment}:${c.clientId}:${secret}`;
}

function makeClient(
  { Client, Environment }: Sdk,
  creds: PaypalCredentials,
  apiBaseUrl: string,
  timeoutMs: number,
): Client {
  const config = {
    environment: creds.environment === 'sandbox' ? Environment.Sandbox : Environment.Production,
    timeout: timeoutMs,
    clientCredentialsAuthCredentials: { oAuthClientId: creds.clientId, oAuthClientSecret: creds.clientSecret },
  };
  if (!apiBaseUrl) return new Client(config);
  const from = SDK_HOSTS[creds.environment];
  const to = apiBaseUrl.replace(/\/+$/, '');
  class RebasedClient extends Client {
    override getRequestBuilderFactory(): ReturnType<Client['getRequestBuilderFactory']> {
      const factory = super.getRequestBuilderFactory();
      return (...args) => {
        const builder = factory(...args);
        builder.interceptRequest((request) =>
          request.url.startsWith(from) ? { ...request, url: to + request.url.slice(from.length) } : request,
        );
        return builder;
      };
    }
  }
  return new RebasedClient(config);
}
