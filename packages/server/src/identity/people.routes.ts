import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type, type TObject, type TSchema } from '@sinclair/typebox';
import { platformErrorResponses } from '../http/schemas.js';
import { AccountNameParams, PasswordResetBody, SecondFactor } from './people.schemas.js';
import type { AuditContext } from './people.service.js';

/** What an account service answers the admin API (operators/operators.service.ts, portal/studio-developers.service.ts). */
interface AccountsApi {
  list(): Promise<unknown[]>;
  get(name: string): Promise<unknown>;
  create(input: any, actor: string, ctx: AuditContext | null): Promise<unknown>;
  update(name: string, patch: any, actor: string, ctx: AuditContext | null): Promise<unknown>;
  resetSecondFactor(name: string, actor: string, ctx: AuditContext | null): Promise<unknown>;
  resetPassword(name: string, password: string | undefined, actor: string, ctx: AuditContext | null): Promise<unknown>;
}

export interface AccountRoutes {
  /** '/operators', '/studio-developers'. */
  path: string;
  /** The list answer's key: `{ operators: [...] }`. */
  listKey: string;
  accounts: AccountsApi;
  schemas: { view: TObject & { $id?: string }; created: TSchema; createBody: TSchema; patchBody: TSchema };
  summaries: { list: string; create: string; get: string; patch: string; resetTotp: string; resetPassword: string };
  /** Who acts (the signed-in operator's name) and the request's audit context. */
  actor(request: FastifyRequest): string;
  ctx(request: FastifyRequest): AuditContext;
}

/**
 * The admin API's routes of one realm's accounts, written once for operators and studio developers (the one identity
 * model, docs/decisions.md): list, create, show, change (grants, disabled), and the second factor and password resets.
 */
export function registerAccountRoutes(app: FastifyInstance, r: AccountRoutes): void {
  const tags = ['admin'];
  const view = Type.Ref(r.schemas.view);
  const one = `${r.path}/:name`;
  const name = (request: FastifyRequest) => (request.params as { name: string }).name;
  app.addSchema(r.schemas.view);

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
      reply.code(201).send(await r.accounts.create(request.body, r.actor(request), r.ctx(request))),
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
    `${one}/reset-totp`,
    {
      schema: {
        tags,
        summary: r.summaries.resetTotp,
        params: AccountNameParams,
        response: { 200: SecondFactor, ...platformErrorResponses },
      },
    },
    async (request) => r.accounts.resetSecondFactor(name(request), r.actor(request), r.ctx(request)),
  );

  app.post(
    `${one}/reset-password`,
    {
      schema: {
        tags,
        summary: r.summaries.resetPassword,
        params: AccountNameParams,
        body: PasswordResetBody,
        response: { 200: Type.Object({ password: Type.String() }), ...platformErrorResponses },
      },
    },
    async (request) =>
      r.accounts.resetPassword(
        name(request),
        (request.body as { password?: string }).password,
        r.actor(request),
        r.ctx(request),
      ),
  );
}
