import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type, type TObject, type TSchema } from '@sinclair/typebox';
import { platformErrorResponses } from '../http/schemas.js';
import { AccountNameParams, Invitation, InvitationIssued, ResetBody } from './people.schemas.js';
import type { AuditContext } from './people.service.js';
import type { InvitationService } from './invitations.service.js';
import { registerInvitationAdminRoutes } from './invitations.routes.js';

/** What an account service answers the admin API (operators/operators.service.ts, portal/studio-developers.service.ts). */
interface AccountsApi {
  list(): Promise<unknown[]>;
  get(name: string): Promise<unknown>;
  create(input: any, actor: string, ctx: AuditContext | null, origin: string): Promise<unknown>;
  update(name: string, patch: any, actor: string, ctx: AuditContext | null): Promise<unknown>;
  reset(name: string, email: string | null, actor: string, ctx: AuditContext | null, origin: string): Promise<unknown>;
  invitations: InvitationService;
}

export interface AccountRoutes {
  /** '/operators', '/studio-developers'. */
  path: string;
  /** The list answer's key: `{ operators: [...] }`. */
  listKey: string;
  /** '/operator-invitations', '/studio-developer-invitations'; `what` names them in the summaries. */
  invitationsPath: string;
  what: string;
  accounts: AccountsApi;
  schemas: { view: TObject & { $id?: string }; created: TSchema; createBody: TSchema; patchBody: TSchema };
  summaries: { list: string; create: string; get: string; patch: string };
  /** Who acts (the signed-in operator's name) and the request's audit context. */
  actor(request: FastifyRequest): string;
  ctx(request: FastifyRequest): AuditContext;
  /** The console's or portal's address for the links (identity/public-origin.ts). */
  origin(request: FastifyRequest): string;
}

/**
 * The admin API's routes of one realm's accounts, written once for operators and studio developers (the one identity
 * model, docs/operators.md): list, create (an invitation), show, change (grants, disabled), the reset link, and the
 * invitations with their states.
 */
export function registerAccountRoutes(app: FastifyInstance, r: AccountRoutes): void {
  const tags = ['admin'];
  const view = Type.Ref(r.schemas.view);
  const one = `${r.path}/:name`;
  const name = (request: FastifyRequest) => (request.params as { name: string }).name;
  app.addSchema(r.schemas.view);
  if (!app.getSchema('Invitation')) app.addSchema(Invitation);

  app.get(
    r.path,
    {
      schema: {
        tags,
        summary: r.summaries.list,
        response: { 200: Type.Object({ [r.listKey]: Type.Array(view) }), ...platformErrorResponses },
      },
    },
    async () => ({ [r.listKey]: await r.accounts.list() }),
  );

  app.post(
    r.path,
    {
      schema: {
        tags,
        summary: r.summaries.create,
        body: r.schemas.createBody,
        response: { 201: r.schemas.created, ...platformErrorResponses },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await r.accounts.create(request.body, r.actor(request), r.ctx(request), r.origin(request))),
  );

  app.get(
    one,
    {
      schema: {
        tags,
        summary: r.summaries.get,
        params: AccountNameParams,
        response: { 200: view, ...platformErrorResponses },
      },
    },
    async (request) => r.accounts.get(name(request)),
  );

  app.patch(
    one,
    {
      schema: {
        tags,
        summary: r.summaries.patch,
        params: AccountNameParams,
        body: r.schemas.patchBody,
        response: { 200: view, ...platformErrorResponses },
      },
    },
    async (request) => r.accounts.update(name(request), request.body, r.actor(request), r.ctx(request)),
  );

  app.post(
    `${one}/reset`,
    {
      schema: {
        tags,
        summary: `A reset link for a ${r.what}: the person sets a new password and second factor with it (the old ones work until then)`,
        params: AccountNameParams,
        body: ResetBody,
        response: { 200: InvitationIssued, ...platformErrorResponses },
      },
    },
    async (request) =>
      r.accounts.reset(
        name(request),
        (request.body as { email?: string }).email ?? null,
        r.actor(request),
        r.ctx(request),
        r.origin(request),
      ),
  );

  registerInvitationAdminRoutes(app, {
    path: r.invitationsPath,
    what: r.what,
    invitations: r.accounts.invitations,
    actor: r.actor,
    ctx: r.ctx,
    origin: r.origin,
  });
}
