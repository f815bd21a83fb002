import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import protobuf from 'protobufjs';

/**
 * An OpenTelemetry collector on loopback for tests: it takes OTLP/HTTP protobuf exports (POST /v1/traces) and decodes
 * them with the OTLP protocol's own definitions (testing/otlp/: the .proto files of open-telemetry/opentelemetry-proto,
 * Apache-2.0, unchanged) through protobufjs, and answers as a collector does (an empty ExportTraceServiceResponse).
 */

/** The .proto files are read from the sources (tsc does not copy them to dist). */
const PROTO_ROOT = fileURLToPath(new URL('../../src/testing/otlp/', import.meta.url));

export interface CollectedSpan {
  traceId: string;
  spanId: string;
  /** '' for a root span. */
  parentSpanId: string;
  name: string;
  /** OTLP SpanKind: 1 internal, 2 server, 3 client. */
  kind: number;
  attributes: Record<string, unknown>;
  links: Array<{ traceId: string; spanId: string }>;
  /** OTLP status code: 0 unset, 1 ok, 2 error. */
  statusCode: number;
  serviceName: unknown;
}

export interface OtlpCollector {
  /** The base URL to give OTEL_EXPORTER_OTLP_ENDPOINT. */
  url: string;
  spans: CollectedSpan[];
  /** Content types of the exports received. */
  contentTypes: string[];
  close(): Promise<void>;
}

const hex = (bytes: Uint8Array | null | undefined) => Buffer.from(bytes ?? []).toString('hex');

interface AnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: number | { toNumber(): number };
  doubleValue?: number;
}
function valueOf(v: AnyValue | undefined): unknown {
  if (!v) return undefined;
  if (v.stringValue !== undefined && v.stringValue !== '') return v.stringValue;
  if (v.intValue !== undefined && v.intValue !== null)
    return typeof v.intValue === 'number' ? v.intValue : v.intValue.toNumber();
  if (v.doubleValue !== undefined && v.doubleValue !== null) return v.doubleValue;
  if (v.boolValue !== undefined && v.boolValue !== null) return v.boolValue;
  return v.stringValue;
}
function attributesOf(list: Array<{ key: string; value?: AnyValue }> | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map((a) => [a.key, valueOf(a.value)]));
}

export async function startOtlpCollector(): Promise<OtlpCollector> {
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => path.join(PROTO_ROOT, target);
  await root.load('opentelemetry/proto/collector/trace/v1/trace_service.proto');
  const Request = root.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest');
  const Response = root.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse');
  const spans: CollectedSpan[] = [];
  const contentTypes: string[] = [];

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces') {
        res.writeHead(404).end();
        return;
      }
      contentTypes.push(String(req.headers['content-type']));
      let decoded: any;
      try {
        decoded = Request.decode(Buffer.concat(chunks));
      } catch (err) {
        res.writeHead(400, { 'content-type': 'text/plain' }).end(`not an ExportTraceServiceRequest: ${String(err)}`);
        return;
      }
      for (const rs of decoded.resourceSpans ?? []) {
        const resource = attributesOf(rs.resource?.attributes);
        for (const ss of rs.scopeSpans ?? [])
          for (const s of ss.spans ?? [])
            spans.push({
              traceId: hex(s.traceId),
              spanId: hex(s.spanId),
              parentSpanId: hex(s.parentSpanId),
              name: s.name,
              kind: s.kind,
              attributes: attributesOf(s.attributes),
              links: (s.links ?? []).map((l: any) => ({ traceId: hex(l.traceId), spanId: hex(l.spanId) })),
              statusCode: s.status?.code ?? 0,
              serviceName: resource['service.name'],
            });
      }
      res
        .writeHead(200, { 'content-type': 'application/x-protobuf' })
        .end(Buffer.from(Response.encode(Response.create({})).finish()));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    contentTypes,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
