import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import path from 'node:path';
import { isValidIpRange } from './ip-ranges.js';

/**
 * Every environment variable the service reads, with its default. The table of
 * docs/configuration.md mirrors this schema; a test keeps the two in step.
 */
const Env = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 8080, description: 'TCP port to listen on.' }),
  HOST: Type.String({ minLength: 1, default: '0.0.0.0', description: 'Interface to bind.' }),
  DATA_DIR: Type.String({
    minLength: 1,
    default: './data',
    description: 'Embedded database, key file, admin token file and (embedded storage) evidence files.',
  }),
  DATABASE_URL: Type.Optional(
    Type.String({
      pattern: '^postgres(ql)?://',
      description: 'Unset: embedded SQLite in DATA_DIR. postgres://... : PostgreSQL.',
    }),
  ),
  DATABASE_READ_URL: Type.Optional(
    Type.String({
      pattern: '^postgres(ql)?://',
      description:
        'A streaming replica of DATABASE_URL (PostgreSQL only). Set: the console and portal lists, the overviews and the store reconciliation read from it (a few seconds stale at most), lag in /metrics; every write and every read of its own write stays on DATABASE_URL. Unset: everything reads the primary.',
    }),
  ),
  DATABASE_POOL_SIZE: Type.Integer({
    minimum: 1,
    maximum: 200,
    default: 10,
    description: 'PostgreSQL connection pool size per instance.',
  }),
  ADMIN_TOKEN: Type.Optional(
    Type.String({
      minLength: 24,
      description:
        'Bearer token of the admin API. Required with PostgreSQL; generated into DATA_DIR/admin-token in embedded mode when unset.',
    }),
  ),
  MASTER_KEY: Type.Optional(
    Type.String({
      pattern: '^[A-Za-z0-9+/=_-]{43,}$',
      description:
        'Base64 or base64url of 32 random bytes; encrypts secrets at rest (AES-256-GCM). Required with PostgreSQL; generated into DATA_DIR/master.key in embedded mode when unset.',
    }),
  ),
  MASTER_KEY_PREVIOUS: Type.String({
    default: '',
    pattern: '^[A-Za-z0-9+/=_,-]*$',
    description:
      'Comma-separated earlier master keys: values sealed under them still open, new ones are sealed under MASTER_KEY; `master-key reseal` moves everything to MASTER_KEY (master key rotation, docs/operations.md).',
  }),
  REGION: Type.Union([Type.Literal('overseas'), Type.Literal('mainland')], {
    default: 'overseas',
    description: 'Deployment region (overseas | mainland).',
  }),
  PUBLIC_HOST: Type.Optional(
    Type.String({
      minLength: 1,
      description: 'Host name clients sign in the MAC sign base (5.2). Unset: the Host header without its port.',
    }),
  ),
  PUBLIC_PORT: Type.Integer({
    minimum: 1,
    maximum: 65535,
    default: 443,
    description: 'Port clients sign in the MAC sign base (5.2).',
  }),
  TRUSTED_PROXIES: Type.String({
    default: '',
    description:
      'Comma-separated IPs/CIDRs of reverse proxies whose X-Forwarded-For / X-Forwarded-Host are believed. Empty: none.',
  }),
  SIGN_WINDOW_SECONDS: Type.Integer({
    minimum: 1,
    maximum: 3600,
    default: 300,
    description: 'Permitted clock difference for signed requests; nonces are kept this long.',
  }),
  SECRET_GRACE_SECONDS: Type.Integer({
    minimum: 0,
    maximum: 30 * 86400,
    default: 86400,
    description: 'How long the previous md5 secret stays valid after a rotation.',
  }),
  BODY_LIMIT_BYTES: Type.Integer({
    minimum: 1024,
    maximum: 64 * 1024 * 1024,
    default: 1024 * 1024,
    description: 'Largest accepted request body; larger gets 413.',
  }),
  REQUEST_TIMEOUT_MS: Type.Integer({
    minimum: 100,
    maximum: 3_600_000,
    default: 120_000,
    description:
      'A request (headers and body, e.g. an embedded evidence upload) must arrive within this; slower gets 408 and the connection is closed.',
  }),
  HEADERS_TIMEOUT_MS: Type.Integer({
    minimum: 100,
    maximum: 300_000,
    default: 10_000,
    description:
      "A request's headers must arrive within this (cuts trickled headers and connections that send nothing); slower gets 408. At most REQUEST_TIMEOUT_MS.",
  }),
  SIGN_WORKERS: Type.Integer({
    minimum: -1,
    maximum: 64,
    default: -1,
    description: 'Threads that sign calls to games (RSA, 5.3); 0 signs on the main thread; -1: one per core.',
  }),
  RATE_LIMIT_PER_MINUTE: Type.Integer({
    minimum: 0,
    maximum: 100_000_000,
    default: 1_200_000,
    description:
      'Most requests a minute per app (or per caller IP when a request names no app) on the routes games and players call: across all instances with REDIS_URL, else per instance; 0: no limit.',
  }),
  REDIS_URL: Type.Optional(
    Type.String({
      pattern: '^rediss?://',
      description:
        'redis://... : the rate limits (RATE_LIMIT_PER_MINUTE, WEB_PAY_ROLE_CHECKS_PER_MINUTE) are counted in this Redis, shared by every instance, instead of per instance in memory. A Redis outage lets requests through (fail open, counted in rate_limit_store_errors_total). Unset: per instance.',
    }),
  ),
  WEB_PAY_ROLE_CHECKS_PER_MINUTE: Type.Integer({
    minimum: 1,
    maximum: 100_000,
    default: 20,
    description:
      'Most role checks (4.8) and role lists (4.9) a minute per caller IP through the web payment page, across all instances with REDIS_URL, else per instance (no enumeration of role ids); applies while RATE_LIMIT_PER_MINUTE is not 0.',
  }),
  WEB_ORDER_LIFETIME_MINUTES: Type.Integer({
    minimum: 5,
    maximum: 1440,
    default: 30,
    description:
      'How long a web payment page order may be paid at its provider; past it the reconciliation closes it at the provider and cancels it (a later payment is refused and recorded for operators).',
  }),
  PROVIDER_QUERY_AFTER_SECONDS: Type.Integer({
    minimum: 10,
    maximum: 86_400,
    default: 180,
    description:
      "The reconciliation asks a provider about a web order still awaiting payment this long after it was opened (the provider's notification may never come).",
  }),
  PROVIDER_LATE_QUERY_SECONDS: Type.Integer({
    minimum: 1,
    maximum: 3600,
    default: 15,
    description:
      "The page's result view asks the provider about an order still awaiting payment once it has waited this long, and at most this often per order.",
  }),
  PROVIDER_RECONCILE_INTERVAL_MS: Type.Integer({
    minimum: 0,
    maximum: 86_400_000,
    default: 60_000,
    description:
      'How often the payment provider reconciliation runs (queries of late payments, closing of expired ones). 0: off.',
  }),
  PROVIDER_CALL_TIMEOUT_MS: Type.Integer({
    minimum: 100,
    maximum: 120_000,
    default: 15_000,
    description: 'Timeout of one call to a payment provider API.',
  }),
  STRIPE_API_BASE_URL: Type.String({
    default: '',
    description: "Stripe API base URL (Checkout Sessions). Empty: Stripe's (https://api.stripe.com).",
  }),
  PAYPAL_API_BASE_URL: Type.String({
    default: '',
    description:
      "PayPal REST API base URL (OAuth2 token, Orders v2). Empty: PayPal's host of each app's environment (https://api-m.paypal.com, https://api-m.sandbox.paypal.com).",
  }),
  WECHATPAY_API_BASE_URL: Type.String({
    default: '',
    description:
      "WeChat Pay API v3 base URL (Native, H5, query, close). Empty: WeChat Pay's (https://api.mch.weixin.qq.com).",
  }),
  PAYPAL_CERT_URL_ORIGINS: Type.String({
    default: '',
    description:
      "Comma-separated origins a PayPal webhook's PAYPAL-CERT-URL may be on (https; http only on loopback). Empty: PayPal's (https://api.paypal.com, https://api.sandbox.paypal.com and their api-m hosts).",
  }),
  PAYPAL_CERT_ROOTS_FILE: Type.String({
    default: '',
    description:
      "PEM file of the root certificates PayPal's webhook signing certificate chain must lead to. Empty: Node's bundled Mozilla CA roots.",
  }),
  ALIPAY_GATEWAY_URL: Type.String({
    default: '',
    description:
      "Alipay's OpenAPI gateway (alipay.trade.page.pay, wap.pay, query, close). Empty: Alipay's of each app's environment (https://openapi.alipay.com/gateway.do, https://openapi-sandbox.dl.alipaydev.com/gateway.do).",
  }),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info', description: 'pino log level.' },
  ),
  NODE_ENV: Type.String({
    default: 'development',
    description: '`production` turns on production mode (sandbox features refused).',
  }),
  ACCESS_TOKEN_TTL_SECONDS: Type.Integer({
    minimum: 60,
    maximum: 90 * 86400,
    default: 7 * 86400,
    description: "Lifetime of a login's MAC access token (5.2).",
  }),
  TOKENS_PER_USER_APP: Type.Integer({
    minimum: 1,
    maximum: 100,
    default: 3,
    description: 'Re-login policy: live tokens a user keeps per app; a login revokes the oldest beyond this.',
  }),
  TOKEN_CACHE_SECONDS: Type.Integer({
    minimum: 0,
    maximum: 60,
    default: 5,
    description:
      'How long an instance caches a token lookup; a revocation made on another instance takes effect within this.',
  }),
  CANCELLATION_COOLING_OFF_SECONDS: Type.Integer({
    minimum: 0,
    maximum: 365 * 86400,
    default: 15 * 86400,
    description: "Cooling-off between a cancellation request and the account's cancellation.",
  }),
  CANCELLATION_SWEEP_SECONDS: Type.Integer({
    minimum: 1,
    maximum: 86400,
    default: 60,
    description: 'How often the service cancels accounts whose cooling-off has ended.',
  }),
  EDGE_COUNTRY_HEADER: Type.String({
    pattern: '^[A-Za-z0-9-]{1,64}$',
    default: 'cf-ipcountry',
    description:
      "Header in which the edge (a TRUSTED_PROXIES peer) gives the caller's ISO 3166-1 alpha-2 country (userRegion, 2.2).",
  }),
  SANDBOX_LOGIN: Type.Boolean({
    default: false,
    description: 'Enables the sandbox login provider (assertions minted by the admin API/CLI). Refused in production.',
  }),
  APPLE_JWKS_URL: Type.String({
    pattern: '^https?://',
    default: 'https://appleid.apple.com/auth/keys',
    description: 'JWKS of Sign in with Apple ID tokens.',
  }),
  APPLE_AUDIENCES: Type.String({
    default: '',
    description:
      'Comma-separated Apple client ids (bundle/service ids) accepted as ID token audience. Empty: Apple login off.',
  }),
  GOOGLE_JWKS_URL: Type.String({
    pattern: '^https?://',
    default: 'https://www.googleapis.com/oauth2/v3/certs',
    description: 'JWKS of Google sign-in ID tokens.',
  }),
  GOOGLE_AUDIENCES: Type.String({
    default: '',
    description: 'Comma-separated Google OAuth client ids accepted as ID token audience. Empty: Google login off.',
  }),
  FACEBOOK_JWKS_URL: Type.String({
    pattern: '^https?://',
    default: 'https://limited.facebook.com/.well-known/oauth/openid/jwks/',
    description: 'JWKS of Facebook Limited Login ID tokens.',
  }),
  FACEBOOK_AUDIENCES: Type.String({
    default: '',
    description: 'Comma-separated Facebook app ids accepted as ID token audience. Empty: Facebook login off.',
  }),
  DELIVERY_SCHEDULE: Type.String({
    pattern: '^ *0 *(, *[0-9]{1,9}(ms|s|m|h|d) *)*$',
    default: '0,15s,1m,5m,30m,2h,6h,12h,24h,24h,24h',
    description:
      'Delay before each delivery attempt of a game event, after the previous one (first must be 0); its length is the number of attempts. Units ms, s, m, h, d. Default: 11 attempts over about 3.9 days.',
  }),
  DELIVERY_JITTER: Type.Number({
    minimum: 0,
    maximum: 1,
    default: 0.1,
    description: 'Random spread of each retry delay, as a fraction (0.1: +-10%).',
  }),
  DELIVERY_TIMEOUT_MS: Type.Integer({
    minimum: 100,
    maximum: 120_000,
    default: 10_000,
    description: 'Timeout of one notification POST to a game (4.7).',
  }),
  DELIVERY_CONCURRENCY: Type.Integer({
    minimum: 1,
    maximum: 2000,
    default: 64,
    description: 'Notification sends in flight per instance.',
  }),
  DELIVERY_HOST_CONCURRENCY: Type.Integer({
    minimum: 1,
    maximum: 1000,
    default: 8,
    description: 'Notification sends in flight per destination host (so one slow game cannot starve the others).',
  }),
  DELIVERY_APP_RATE: Type.Number({
    minimum: 0,
    maximum: 100_000,
    default: 0,
    description: 'Most notification sends per second per app; 0: unlimited.',
  }),
  DELIVERY_BATCH: Type.Integer({
    minimum: 1,
    maximum: 1000,
    default: 100,
    description: 'Events claimed from the outbox per query.',
  }),
  DELIVERY_POLL_MS: Type.Integer({
    minimum: 10,
    maximum: 60_000,
    default: 1000,
    description: 'How often the dispatcher looks for due events (besides being woken by new ones in this instance).',
  }),
  DELIVERY_LEASE_MS: Type.Integer({
    minimum: 500,
    maximum: 3_600_000,
    default: 120_000,
    description: 'How long a claimed event is held by an instance; after a crash it is due again after this.',
  }),
  CALLBACK_PRIVATE_ALLOWLIST: Type.String({
    default: '',
    description:
      'Comma-separated IPs/CIDRs that calls to games may reach in production mode although private, loopback or link-local (private deployments).',
  }),
  GAME_CALL_TIMEOUT_MS: Type.Integer({
    minimum: 100,
    maximum: 60_000,
    default: 5000,
    description: 'Timeout of one role query, role list or pre-order check call (4.8-4.10).',
  }),
  // --- retention (docs/operations.md, "Retention"); 0 days: kept forever ---
  RETENTION_DELIVERY_DAYS: Type.Integer({
    minimum: 0,
    maximum: 36_500,
    default: 90,
    description:
      'Days kept: delivery attempts of every event, and delivered or dead test, consumption-forward and cancellation events. Payment and refund notifications are never deleted. 0: forever.',
  }),
  RETENTION_GAME_CALLS_DAYS: Type.Integer({
    minimum: 0,
    maximum: 36_500,
    default: 30,
    description: 'Days the log of calls to games (4.8-4.10) is kept. 0: forever.',
  }),
  RETENTION_ADMIN_ACTIONS_DAYS: Type.Integer({
    minimum: 0,
    maximum: 36_500,
    default: 365,
    description: 'Days the audit trail of the admin API is kept. 0: forever.',
  }),
  RETENTION_SWEEP_SECONDS: Type.Integer({
    minimum: 1,
    maximum: 86400,
    default: 300,
    description: 'How often each instance deletes the records past their retention.',
  }),
  RETENTION_BATCH: Type.Integer({
    minimum: 1,
    maximum: 10_000,
    default: 1000,
    description: 'Rows deleted per retention batch; each batch is one short transaction.',
  }),
  RETENTION_SWEEP_BUDGET_MS: Type.Integer({
    minimum: 10,
    maximum: 600_000,
    default: 10_000,
    description: 'A retention sweep starts no batch after this long; what is left waits for the next sweep.',
  }),
  // --- reporting and evidence (4.1, 4.2; docs/reporting.md) ---
  EVIDENCE_BACKEND: Type.Union([Type.Literal('embedded'), Type.Literal('s3')], {
    default: 'embedded',
    description:
      'Evidence storage: `embedded` (files under DATA_DIR/evidence, uploaded to this service) or `s3` (S3-compatible object storage, presigned URLs).',
  }),
  EVIDENCE_PUBLIC_URL: Type.Optional(
    Type.String({
      pattern: '^https?://[^/?#]+(/[^?#]*)?$',
      description:
        'Embedded backend: base URL that games reach this service at, for signed upload URLs (e.g. `http://report.example.com`). Unset: taken from the request (scheme and Host).',
    }),
  ),
  EVIDENCE_URL_TTL_SECONDS: Type.Integer({
    minimum: 30,
    maximum: 7 * 86400,
    default: 900,
    description: 'Validity of a signed upload URL (4.2 `ttl`, seconds).',
  }),
  EVIDENCE_DOWNLOAD_TTL_SECONDS: Type.Integer({
    minimum: 10,
    maximum: 86400,
    default: 300,
    description: 'Validity of the evidence download links shown to moderators (seconds).',
  }),
  EVIDENCE_MAX_FILE_BYTES: Type.Integer({
    minimum: 1,
    maximum: 5 * 1024 * 1024 * 1024,
    default: 20 * 1024 * 1024,
    description: 'Largest evidence file (bytes); 4.2 refuses a larger `file_size`.',
  }),
  EVIDENCE_MAX_FILES: Type.Integer({
    minimum: 0,
    maximum: 100,
    default: 10,
    description: 'Most evidence files one report may cite.',
  }),
  EVIDENCE_CONTENT_TYPES: Type.String({
    pattern: '^[a-z0-9.+-]+/[a-z0-9.+-]+(,[a-z0-9.+-]+/[a-z0-9.+-]+)*$',
    default: 'image/png,image/jpeg,image/gif,image/webp,video/mp4,video/webm,video/quicktime,text/plain',
    description:
      'Comma-separated content types allowed for evidence; the type is taken from the extension of `file_name`.',
  }),
  EVIDENCE_S3_BUCKET: Type.Optional(
    Type.String({
      minLength: 3,
      maxLength: 63,
      description: 's3 backend: bucket name (required with EVIDENCE_BACKEND=s3).',
    }),
  ),
  EVIDENCE_S3_ENDPOINT: Type.Optional(
    Type.String({
      pattern: '^https?://',
      description: 's3 backend: endpoint of an S3-compatible store. Unset: AWS S3 of EVIDENCE_S3_REGION.',
    }),
  ),
  EVIDENCE_S3_REGION: Type.String({ minLength: 1, default: 'us-east-1', description: 's3 backend: region.' }),
  EVIDENCE_S3_ACCESS_KEY_ID: Type.Optional(
    Type.String({
      minLength: 1,
      description: 's3 backend: access key id. Unset: the AWS SDK default credential chain.',
    }),
  ),
  EVIDENCE_S3_SECRET_ACCESS_KEY: Type.Optional(
    Type.String({ minLength: 1, description: 's3 backend: secret access key (with EVIDENCE_S3_ACCESS_KEY_ID).' }),
  ),
  EVIDENCE_S3_FORCE_PATH_STYLE: Type.Boolean({
    default: false,
    description: 's3 backend: path-style URLs (`endpoint/bucket/key`), as most S3-compatible stores need.',
  }),
  REPORT_MAX_REASONS: Type.Integer({
    minimum: 1,
    maximum: 100,
    default: 10,
    description: 'Most reasons in one report (4.1).',
  }),
  REPORT_DESCRIPTION_MAX_CHARS: Type.Integer({
    minimum: 1,
    maximum: 100_000,
    default: 2000,
    description: 'Longest `user_description` (characters).',
  }),
  REPORT_EXTRAS_MAX_CHARS: Type.Integer({
    minimum: 1,
    maximum: 100_000,
    default: 4096,
    description: "Longest pass-through string: `extras`, a reason's `extras`, a user's `extra` (characters).",
  }),
  REPORT_DUPLICATE_WINDOW_SECONDS: Type.Integer({
    minimum: 0,
    maximum: 30 * 86400,
    default: 86400,
    description:
      'A report with the same app, reporter, reportee and reason set within this window is answered 200 and stored once. 0: no deduplication.',
  }),
  REPORT_DAILY_CAP_PER_REPORTER: Type.Integer({
    minimum: 1,
    maximum: 1_000_000,
    default: 50,
    description: 'Reports one reporter may file per app in any 24 hours; more answer RESOURCE_EXHAUSTED.',
  }),
  REPORT_OPEN_CAP_PER_REPORTEE: Type.Integer({
    minimum: 1,
    maximum: 1_000_000,
    default: 3,
    description: 'Open reports one reporter may have against one reportee; more answer RESOURCE_EXHAUSTED.',
  }),
  APPLE_API_BASE_URL: Type.String({
    default: '',
    description:
      "App Store Server API base URL (refund lookup for the reconciliation). Empty: Apple's host for each app's environment.",
  }),
  APPLE_ONLINE_CHECKS: Type.Boolean({
    default: true,
    description:
      "Checks of StoreKit signed data against Apple's OCSP responder and the current time. false: certificates checked at the payload's signedDate, nothing fetched (tests).",
  }),
  GOOGLE_API_ROOT_URL: Type.String({
    default: '',
    description: "Android Publisher API root URL. Empty: Google's (https://androidpublisher.googleapis.com/).",
  }),
  GOOGLE_TOKEN_URL: Type.String({
    default: '',
    description: "OAuth 2.0 token endpoint the service accounts sign in at. Empty: Google's.",
  }),
  GOOGLE_CERTS_URL: Type.String({
    default: '',
    description:
      "Certificates of Pub/Sub push OIDC tokens. Empty: Google's (https://www.googleapis.com/oauth2/v1/certs).",
  }),
  STORE_RECONCILE_INTERVAL_MS: Type.Integer({
    minimum: 0,
    maximum: 7 * 86_400_000,
    default: 3_600_000,
    description:
      'How often the store reconciliation polls Google voided purchases and Apple refund lookups for refunds whose notification never came. 0: off.',
  }),
  STORE_RECONCILE_DAYS: Type.Integer({
    minimum: 1,
    maximum: 180,
    default: 30,
    description:
      'The store reconciliation looks this many days back (Apple: transactions paid since; Google: its first poll).',
  }),
  SANDBOX_PAYMENTS: Type.Boolean({
    default: false,
    description:
      'Enables the sandbox payment channel (tests, demos): operators complete, fail and refund payments by hand. Refused in production mode.',
  }),
  ADMIN_TOKEN_ENABLED: Type.Boolean({
    default: true,
    description:
      'false retires the break-glass ADMIN_TOKEN: the admin API then takes only operator sessions and tokens (docs/operators.md).',
  }),
  OPERATOR_SESSION_SECONDS: Type.Integer({
    minimum: 60,
    maximum: 30 * 86400,
    default: 12 * 3600,
    description: 'Lifetime of a console sign-in (operator session cookie).',
  }),
  OPERATOR_LOGIN_MAX_FAILURES: Type.Integer({
    minimum: 1,
    maximum: 1000,
    default: 5,
    description: 'Failed sign-ins in a row that lock an operator for OPERATOR_LOCK_SECONDS.',
  }),
  OPERATOR_LOCK_SECONDS: Type.Integer({
    minimum: 1,
    maximum: 86400,
    default: 900,
    description: 'How long an operator stays locked after OPERATOR_LOGIN_MAX_FAILURES failed sign-ins.',
  }),
  OIDC_ISSUER_URL: Type.Optional(
    Type.String({
      pattern: '^https?://',
      description:
        "OpenID Connect sign-in for operators: the identity provider's issuer URL (its /.well-known/openid-configuration). Unset: off. HTTPS, or HTTP on a loopback address only.",
    }),
  ),
  OIDC_CLIENT_ID: Type.Optional(Type.String({ minLength: 1, description: 'Our client id at the identity provider.' })),
  OIDC_CLIENT_SECRET: Type.Optional(
    Type.String({ minLength: 1, description: 'Our client secret at the identity provider (client_secret_basic).' }),
  ),
  OIDC_REDIRECT_URL: Type.Optional(
    Type.String({
      pattern: '^https?://',
      description:
        'The redirect URL registered at the provider: https://<console host>/admin/v1/session/oidc/callback.',
    }),
  ),
  OIDC_OPERATOR_CLAIM: Type.String({
    pattern: '^[A-Za-z0-9_.:-]{1,64}$',
    default: 'preferred_username',
    description:
      "The ID token claim whose value is the operator's name; the operator must exist (no account is created).",
  }),
  OIDC_SCOPES: Type.String({ default: 'openid profile email', description: 'Scopes asked of the provider.' }),
  PUBLIC_ORIGIN: Type.Optional(
    Type.String({
      pattern: '^https?://[^/?#]+$',
      description:
        "The console's and portal's origin as browsers reach it (https://ops.example.com): the address in invitation links and the passkeys' relying party (its host name is the RP ID). Unset: https://PUBLIC_HOST when that is set, else the request's own origin (invitation links) and loopback only (passkeys: http://localhost:PORT).",
    }),
  ),
  INVITATION_TTL_HOURS: Type.Integer({
    minimum: 1,
    maximum: 720,
    default: 72,
    description: 'How long an invitation or reset link stays good (each is good once).',
  }),
  SMTP_URL: Type.Optional(
    Type.String({
      pattern: '^smtps?://',
      description:
        'Mail server for invitation and reset links (smtp://user:pass@host:587, STARTTLS when offered; smtps:// for TLS). Unset: no mail; the console shows the link to copy.',
    }),
  ),
  SMTP_FROM: Type.String({
    minLength: 3,
    default: 'game-platform@localhost',
    description: 'The From address of the invitation mails.',
  }),
  OPERATOR_LOGIN_DELAY_MS: Type.Integer({
    minimum: 0,
    maximum: 10_000,
    default: 500,
    description: 'A failed sign-in is answered after this delay times the failures in a row (at most 5 s).',
  }),
  AUDIT_REFUSALS_PER_MINUTE: Type.Integer({
    minimum: 1,
    maximum: 100_000,
    default: 60,
    description:
      'Refused admin and portal requests (401, 403, CSRF, failed sign-ins) recorded in the audit trail per minute per instance, at most a quarter of them from one IP; the rest are counted in audit_refusals_dropped_total only.',
  }),
  METRICS_TOKEN: Type.Optional(
    Type.String({
      minLength: 24,
      pattern: '^[\\x21-\\x7e]+$',
      description:
        'Bearer token /metrics requires (Authorization: Bearer ...), on PORT or METRICS_PORT. Unset: /metrics on PORT is closed (401) unless METRICS_PUBLIC=true; METRICS_PORT serves it without one.',
    }),
  ),
  METRICS_PORT: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 65535,
      description:
        'Serve /metrics on this port alone (and no longer on PORT): the port Prometheus scrapes on each instance, not exposed through the load balancer.',
    }),
  ),
  METRICS_HOST: Type.String({
    minLength: 1,
    default: '127.0.0.1',
    description:
      'Interface METRICS_PORT binds: loopback by default, so only a scraper on the same host (or pod) reaches it; 0.0.0.0 for a scraper elsewhere on a private network.',
  }),
  METRICS_PUBLIC: Type.Boolean({
    default: false,
    description:
      'true: /metrics on PORT answers anyone without a token (a private network only: it names game hosts and app ids). Default: closed unless METRICS_TOKEN is given.',
  }),
  OTEL_EXPORTER_OTLP_ENDPOINT: Type.Optional(
    Type.String({
      pattern: '^https?://',
      description:
        'OpenTelemetry tracing: the OTLP/HTTP collector base URL (spans go to <url>/v1/traces as protobuf). Unset: tracing off, its packages never loaded.',
    }),
  ),
  OTEL_EXPORTER_OTLP_HEADERS: Type.String({
    default: '',
    description:
      'Headers of the span export, `key=value` pairs separated by commas, values percent-encoded (a collector API key).',
  }),
  OTEL_SERVICE_NAME: Type.String({
    minLength: 1,
    default: 'game-platform',
    description: 'The service.name of the spans.',
  }),
  TRACE_QUIET_ROUTES: Type.Boolean({
    default: false,
    description:
      "true: health checks (/healthz, /readyz) and the pages' static files get spans too. Default: they make no traces (a page load would be a dozen).",
  }),
  OTEL_TRACES_SAMPLER_ARG: Type.Number({
    minimum: 0,
    maximum: 1,
    default: 1,
    description:
      'Share of new traces recorded (parent-based trace id ratio: a trace continued from a trusted proxy follows its decision).',
  }),
});

export type Env = Static<typeof Env>;

export interface Config extends Env {
  /** DATA_DIR resolved to an absolute path. */
  dataDir: string;
  production: boolean;
  trustedProxies: string[];
  /** OTEL_EXPORTER_OTLP_HEADERS parsed. */
  otelHeaders: Record<string, string>;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Environment variables described for the docs/configuration.md table (name, default, description). */
export function describeEnv(): Array<{ name: string; default: unknown; description: string }> {
  return Object.entries(Env.properties).map(([name, schema]) => ({
    name,
    default: (schema as { default?: unknown }).default,
    description: String((schema as { description?: string }).description ?? ''),
  }));
}

/**
 * Reads and validates the environment. A bad value throws a ConfigError naming
 * the variable, so the service refuses to start rather than run misconfigured.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(Env.properties)) {
    const value = env[key];
    if (value !== undefined && value !== '') raw[key] = value;
  }
  const converted = Value.Convert(Env, Value.Default(Env, raw));
  const errors = [...Value.Errors(Env, converted)];
  if (errors.length > 0) {
    const messages = errors.map((e) => `${e.path.slice(1) || '(env)'}: ${e.message}`);
    throw new ConfigError(`invalid configuration: ${[...new Set(messages)].join('; ')}`);
  }
  const parsed = converted as Env;
  if (parsed.DATABASE_URL && !parsed.MASTER_KEY) {
    throw new ConfigError(
      'invalid configuration: MASTER_KEY: required when DATABASE_URL is set (all instances must share it)',
    );
  }
  if (parsed.DATABASE_READ_URL && !parsed.DATABASE_URL) {
    throw new ConfigError(
      'invalid configuration: DATABASE_READ_URL: a read replica needs DATABASE_URL (PostgreSQL) as its primary',
    );
  }
  if (parsed.OIDC_ISSUER_URL)
    for (const key of ['OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET', 'OIDC_REDIRECT_URL'] as const)
      if (!parsed[key]) throw new ConfigError(`invalid configuration: ${key}: required when OIDC_ISSUER_URL is set`);
  if (parsed.DATABASE_URL && !parsed.ADMIN_TOKEN) {
    throw new ConfigError('invalid configuration: ADMIN_TOKEN: required when DATABASE_URL is set');
  }
  if (parsed.SANDBOX_PAYMENTS && parsed.NODE_ENV === 'production') {
    throw new ConfigError(
      'invalid configuration: SANDBOX_PAYMENTS: the sandbox payment channel is never enabled in production mode',
    );
  }
  if (parsed.SANDBOX_LOGIN && parsed.NODE_ENV === 'production') {
    throw new ConfigError(
      'invalid configuration: SANDBOX_LOGIN: the sandbox login provider is never enabled in production',
    );
  }
  if (parsed.HEADERS_TIMEOUT_MS > parsed.REQUEST_TIMEOUT_MS) {
    throw new ConfigError(
      'invalid configuration: HEADERS_TIMEOUT_MS: must not exceed REQUEST_TIMEOUT_MS (the headers are part of the request)',
    );
  }
  const trustedProxies = parsed.TRUSTED_PROXIES.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const badProxy = trustedProxies.find((p) => !isValidIpRange(p));
  if (badProxy)
    throw new ConfigError(
      `invalid configuration: TRUSTED_PROXIES: ${JSON.stringify(badProxy)} is not an IP address or CIDR`,
    );
  return {
    ...parsed,
    dataDir: path.resolve(parsed.DATA_DIR),
    production: parsed.NODE_ENV === 'production',
    trustedProxies,
    otelHeaders: otlpHeaders(parsed.OTEL_EXPORTER_OTLP_HEADERS),
  };
}

/** OTEL_EXPORTER_OTLP_HEADERS: `key=value,key2=value2`, values percent-encoded (the OpenTelemetry convention). */
function otlpHeaders(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of text.split(',')) {
    if (pair.trim() === '') continue;
    const eq = pair.indexOf('=');
    const key = pair.slice(0, eq).trim();
    let value: string | undefined;
    try {
      value = eq > 0 ? decodeURIComponent(pair.slice(eq + 1).trim()) : undefined;
    } catch {
      value = undefined;
    }
    if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(key) || value === undefined || /[\0-\x1f\x7f]/.test(value))
      throw new ConfigError(
        'invalid configuration: OTEL_EXPORTER_OTLP_HEADERS: give key=value pairs separated by commas (values percent-encoded)',
      );
    out[key] = value;
  }
  return out;
}
