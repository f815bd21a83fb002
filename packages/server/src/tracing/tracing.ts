import type * as OtelApi from '@opentelemetry/api';

/**
 * OpenTelemetry tracing (docs/operations.md#tracing), off unless OTEL_EXPORTER_OTLP_ENDPOINT is set. The official
 * packages (@opentelemetry/api, sdk-trace, context-async-hooks, core, resources, exporter-trace-otlp-proto) are
 * loaded by startTracing only, so an instance without tracing never loads them (idle memory as before), and every
 * helper here is one test of `tracingOn` before doing anything: nothing is allocated, no context is read.
 *
 * Spans travel in the OpenTelemetry context (AsyncLocalStorage): a span started inside another's callback is its
 * child. Across processes and time the W3C `traceparent` carries it: stored with an outbox event and an order
 * (migration 0023), sent to games on our calls (docs/delivery.md).
 */

/** True while tracing runs; read it before building anything a span needs. */
export let tracingOn = false;

export type SpanKind = 'server' | 'client' | 'internal' | 'consumer';
export type Attributes = Record<string, string | number | boolean | undefined>;

/** What a traced function may do with its span (nothing, when tracing is off). */
export interface SpanHandle {
  setAttribute(key: string, value: string | number | boolean): void;
  /** Marks the span failed with a short, secret-free description. */
  fail(message: string): void;
}

export interface SpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
  /** Parent from a stored traceparent instead of the active context (null or absent: the active context). */
  parent?: string | null;
  /** Traceparents of spans this one is linked to (e.g. the request that caused a notification of another trace). */
  links?: Array<string | null>;
  /** When the span began (epoch ms), for a span opened after the fact. Default: now. */
  startTime?: number;
}

export interface TracingSettings {
  /** OTLP/HTTP base URL; spans go to `<endpoint>/v1/traces` as protobuf. */
  endpoint: string;
  /** Extra headers of the export (a collector's API key). */
  headers: Record<string, string>;
  serviceName: string;
  serviceVersion: string;
  /** Share of new traces recorded (0..1); a trace continued from a parent follows the parent's decision. */
  sampleRatio: number;
}

interface Running {
  api: typeof OtelApi;
  tracer: OtelApi.Tracer;
  provider: { forceFlush(): Promise<void>; shutdown(): Promise<void> };
  propagator: OtelApi.TextMapPropagator;
  kinds: Record<SpanKind, OtelApi.SpanKind>;
}

let running: Running | null = null;
let starting: Promise<void> | null = null;

const NOOP_SPAN: SpanHandle = { setAttribute() {}, fail() {} };

/** Starts tracing for this process (once; a second call with tracing running is a no-op). */
export function startTracing(settings: TracingSettings): Promise<void> {
  starting ??= load(settings).catch((err: unknown) => {
    starting = null;
    throw err;
  });
  return starting;
}

async function load(s: TracingSettings): Promise<void> {
  const [api, sdk, hooks, core, resources, exporter] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/sdk-trace'),
    import('@opentelemetry/context-async-hooks'),
    import('@opentelemetry/core'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/exporter-trace-otlp-proto'),
  ]);
  const provider = new sdk.TracerProvider({
    resource: resources.resourceFromAttributes({
      'service.name': s.serviceName,
      'service.version': s.serviceVersion,
    }),
    sampler: new sdk.ParentBasedSampler({ root: new sdk.TraceIdRatioBasedSampler(s.sampleRatio) }),
    spanProcessors: [
      new sdk.BatchSpanProcessor({
        exporter: new exporter.OTLPTraceExporter({
          url: `${s.endpoint.replace(/\/+$/, '')}/v1/traces`,
          headers: s.headers,
        }),
      }),
    ],
  });
  const propagator = new core.W3CTraceContextPropagator();
  api.context.setGlobalContextManager(new hooks.AsyncLocalStorageContextManager().enable());
  api.propagation.setGlobalPropagator(propagator);
  api.trace.setGlobalTracerProvider(provider);
  running = {
    api,
    tracer: provider.getTracer('game-platform', s.serviceVersion),
    provider,
    propagator,
    kinds: {
      server: api.SpanKind.SERVER,
      client: api.SpanKind.CLIENT,
      internal: api.SpanKind.INTERNAL,
      consumer: api.SpanKind.CONSUMER,
    },
  };
  tracingOn = true;
}

/** Sends what is buffered (tests read the collector after this). */
export async function flushTracing(): Promise<void> {
  await running?.provider.forceFlush();
}

/** Flushes and stops tracing (service shutdown). */
export async function stopTracing(): Promise<void> {
  const r = running;
  if (!r) return;
  tracingOn = false;
  running = null;
  starting = null;
  await r.provider.shutdown();
  r.api.trace.disable();
  r.api.propagation.disable();
  r.api.context.disable();
}

function contextOf(r: Running, traceparent: string | null | undefined): OtelApi.Context {
  if (!traceparent) return r.api.context.active();
  return r.propagator.extract(r.api.ROOT_CONTEXT, { traceparent }, r.api.defaultTextMapGetter);
}

function linkOf(r: Running, traceparent: string | null): OtelApi.Link | null {
  if (!traceparent) return null;
  const spanContext = r.api.trace.getSpanContext(contextOf(r, traceparent));
  return spanContext && r.api.isSpanContextValid(spanContext) ? { context: spanContext } : null;
}

function cleanAttributes(attributes: Attributes | undefined): OtelApi.Attributes | undefined {
  if (!attributes) return undefined;
  const out: OtelApi.Attributes = {};
  for (const [k, v] of Object.entries(attributes)) if (v !== undefined) out[k] = v;
  return out;
}

/** A started span (the request hooks end it themselves); null when tracing is off. */
export interface OpenSpan extends SpanHandle {
  end(statusCode?: number): void;
  /** The span's context made active for `fn`. */
  run<T>(fn: () => T): T;
  traceId: string;
  spanId: string;
  /** The span as a W3C traceparent header value (what a callee continues). */
  traceparent: string;
}

/** Starts a span that the caller ends (for spans that open and close in different hooks); null when off. */
export function openSpan(name: string, o: SpanOptions = {}): OpenSpan | null {
  const r = running;
  if (!r) return null;
  const links = (o.links ?? []).map((l) => linkOf(r, l)).filter((l): l is OtelApi.Link => l !== null);
  const parent = contextOf(r, o.parent);
  const attributes = cleanAttributes(o.attributes);
  const span = r.tracer.startSpan(
    name,
    {
      kind: r.kinds[o.kind ?? 'internal'],
      ...(attributes ? { attributes } : {}),
      ...(links.length ? { links } : {}),
      ...(o.startTime !== undefined ? { startTime: o.startTime } : {}),
    },
    parent,
  );
  const ctx = r.api.trace.setSpan(parent, span);
  const { traceId, spanId, traceFlags } = span.spanContext();
  return {
    traceId,
    spanId,
    traceparent: `00-${traceId}-${spanId}-0${traceFlags & 1}`,
    setAttribute: (k, v) => span.setAttribute(k, v),
    fail: (message) => span.setStatus({ code: r.api.SpanStatusCode.ERROR, message }),
    end: () => span.end(),
    run: (fn) => r.api.context.with(ctx, fn),
  };
}

/**
 * Runs `fn` in a new span, child of the active one (or of `o.parent`), ended when `fn` settles; a throw marks it
 * failed. When tracing is off it is `fn(noop)`: call sites on hot paths still test `tracingOn` first to avoid even
 * building the options.
 */
export async function inSpan<T>(name: string, o: SpanOptions, fn: (span: SpanHandle) => Promise<T>): Promise<T> {
  const span = openSpan(name, o);
  if (!span) return fn(NOOP_SPAN);
  try {
    return await span.run(() => fn(span));
  } catch (err) {
    span.fail(err instanceof Error ? err.name : 'error');
    throw err;
  } finally {
    span.end();
  }
}

/** The W3C traceparent of the active span (to store or send on), or null (tracing off, no span). */
export function currentTraceparent(): string | null {
  const r = running;
  if (!r) return null;
  const carrier: Record<string, string> = {};
  r.propagator.inject(r.api.context.active(), carrier, r.api.defaultTextMapSetter);
  return carrier.traceparent ?? null;
}

/** The trace and span ids of the active span for a log line, or null. */
export function activeTraceIds(): { traceId: string; spanId: string } | null {
  const r = running;
  if (!r) return null;
  const sc = r.api.trace.getSpanContext(r.api.context.active());
  return sc && r.api.isSpanContextValid(sc) ? { traceId: sc.traceId, spanId: sc.spanId } : null;
}

/**
 * `target` with each of `methods` run in a client span `<prefix>.<method>` (the stores' and providers' API calls);
 * `target` itself when tracing is off.
 */
export function traceCalls<T extends object>(target: T, prefix: string, methods: ReadonlyArray<keyof T>): T {
  if (!tracingOn) return target;
  const wrapped = new Set<PropertyKey>(methods);
  return new Proxy(target, {
    get(obj, key, receiver) {
      const value = Reflect.get(obj, key, receiver) as unknown;
      if (typeof value !== 'function') return value;
      // Called on the target itself, so its #private fields work.
      if (!wrapped.has(key)) return (value as (...a: unknown[]) => unknown).bind(obj);
      return (...args: unknown[]) =>
        inSpan(`${prefix}.${String(key)}`, { kind: 'client' }, async () =>
          (value as (...a: unknown[]) => unknown).apply(obj, args),
        );
    },
  });
}

/**
 * The semantic convention's `server.address` (the host name alone, no port, no IPv6 brackets) and `server.port` of a
 * `host[:port]` (a URL's host, a Host header); the port defaults to the scheme's.
 */
export function serverAddress(host: string, protocol: string): Attributes {
  const m = /^(\[[^\]]*\]|[^:]*)(?::(\d+))?$/.exec(host);
  if (!m || m[1] === '') return {};
  const port = m[2] !== undefined ? Number(m[2]) : protocol.startsWith('https') ? 443 : 80;
  return { 'server.address': m[1]!.replace(/^\[|\]$/g, ''), 'server.port': port };
}
