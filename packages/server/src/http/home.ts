import { readFileSync } from 'node:fs';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';

/** What `GET /` names: the service and where a person or a client goes from here (issue 34). */
export const HomeLinks = Type.Object(
  {
    console: Type.String({ description: 'The operator console (a browser page)' }),
    portal: Type.String({ description: 'The studio portal (a browser page)' }),
    docs: Type.String({ description: 'The browsable API reference' }),
    openapi: Type.String({ description: 'The OpenAPI document' }),
    health: Type.String({ description: 'Liveness' }),
    ready: Type.String({ description: 'Readiness (the database answers)' }),
  },
  { additionalProperties: false },
);

export const Home = Type.Object(
  {
    name: Type.String(),
    version: Type.String({ description: "The server package's version" }),
    links: HomeLinks,
  },
  { additionalProperties: false },
);

const LINKS = {
  console: '/console/',
  portal: '/portal/',
  docs: '/docs',
  openapi: '/openapi.json',
  health: '/healthz',
  ready: '/readyz',
} as const;

function serverVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

/** The q of the first Accept entry that matches `type` exactly ("text/html") or by range ("text/*", "*\/*"). */
function quality(accept: string, type: string): number {
  const [major] = type.split('/');
  let best = -1;
  let bestSpecificity = -1;
  for (const entry of accept.split(',')) {
    const [range = '', ...params] = entry.trim().toLowerCase().split(';');
    const specificity = range === type ? 2 : range === `${major}/*` ? 1 : range === '*/*' ? 0 : -1;
    if (specificity < bestSpecificity || specificity < 0) continue;
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)).find(Boolean);
    best = q ? Math.min(1, Number(q[1]) || 0) : 1;
    bestSpecificity = specificity;
  }
  return best;
}

/**
 * Whether the caller is a browser that asks for a page: it names text/html and does not prefer JSON to it. A client
 * that sends no Accept, `*\/*` or application/json gets the JSON answer (RFC 9110 12.5.1).
 */
export function prefersHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  const html = quality(accept, 'text/html');
  if (html <= 0 || !/text\/html/i.test(accept)) return false;
  return html >= quality(accept, 'application/json');
}

/**
 * `GET /`: a newcomer's browser opened on the service's address goes to the console; a client that asks for JSON
 * gets the service's name, version and links. Either answer varies by Accept, so a cache keeps them apart.
 */
export function registerHomeRoute(app: FastifyInstance): void {
  const version = serverVersion();
  app.get(
    '/',
    {
      schema: {
        tags: ['health'],
        summary: 'Where to go: a browser is sent to the console, a JSON client gets the name, version and links',
        description:
          'With Accept naming text/html (and not preferring application/json), answers 302 to /console/. Otherwise ' +
          'answers the service name, the server version and the paths of the console, the studio portal, the API ' +
          'reference, the OpenAPI document and the health checks.',
        response: {
          200: Home,
          302: Type.Null({ description: 'A browser: Location is /console/' }),
        },
      },
    },
    async (request, reply) => {
      reply.header('vary', 'Accept');
      if (prefersHtml(request.headers.accept)) return reply.redirect(LINKS.console, 302);
      return { name: 'game-platform', version, links: LINKS };
    },
  );
}
