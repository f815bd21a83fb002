import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type, type TSchema } from '@sinclair/typebox';
import { apiRoute } from '../http/api-route.js';
import { Invitation, InvitationIdParams, InvitationIssued } from './people.schemas.js';
import {
  InvitationAbout,
  InvitationAcceptBody,
  InvitationAccepted,
  InvitationTokenBody,
  InvitationTotp,
  WebAuthnOptions,
} from './passkeys.schemas.js';
import type { InvitationService } from './invitations.service.js';
import type { AuditContext } from './people.service.js';
import type { RelyingParty } from './passkeys.service.js';

const route = apiRoute({ tags: ['admin'] });
const invitationId = (request: FastifyRequest) => (request.params as { invitationId: number }).invitationId;

/**
 * The operator's side of one realm's invitations (`path`: '/operator-invitations', '/studio-developer-invitations'):
 * the list with their states, resend (a new link; the old one dies) and revoke.
 */
export function registerInvitationAdminRoutes(
  app: FastifyInstance,
  r: {
    path: string;
    what: string;
    invitations: InvitationService;
    actor(request: FastifyRequest): string;
    ctx(request: FastifyRequest): AuditContext;
    origin(request: FastifyRequest): string;
  },
): void {
  app.get(
    r.path,
    route({
      summary: `The ${r.what} invitations and reset links, newest first, with their states (never a link)`,
      response: { 200: Type.Object({ invitations: Type.Array(Type.Ref(Invitation)) }) },
    }),
    async () => ({ invitations: await r.invitations.list() }),
  );
  app.post(
    `${r.path}/:invitationId/resend`,
    route({
      summary: 'A new link for an invitation not accepted yet (mailed again when it has an address); the old one dies',
      params: InvitationIdParams,
      response: { 200: InvitationIssued },
    }),
    async (request) => r.invitations.resend(invitationId(request), r.actor(request), r.ctx(request), r.origin(request)),
  );
  app.post(
    `${r.path}/:invitationId/revoke`,
    route({
      summary: 'Revoke a pending invitation: its link stops working',
      params: InvitationIdParams,
      response: { 200: Type.Ref(Invitation) },
    }),
    async (request) => r.invitations.revoke(invitationId(request), r.actor(request), r.ctx(request)),
  );
}

/**
 * The invitee's side, without a sign-in (the link's token is the credential): what the link is for, a TOTP secret to
 * enrol or a passkey's options, and the completion. Mounted under /admin/v1 (operators) and /portal/v1 (studio
 * developers); a link of the other realm is refused like an unknown one.
 */
export function registerInvitationAcceptRoutes(
  app: FastifyInstance,
  r: {
    invitations: InvitationService;
    rp(request: FastifyRequest): RelyingParty;
    ctx(request: FastifyRequest): AuditContext;
    tags: string[];
  },
): void {
  const open = apiRoute({ tags: r.tags, security: [] });
  const token = (request: FastifyRequest) => (request.body as { token: string }).token;
  // The link's token alone, in this order (the OpenAPI document lists the paths as they are registered).
  const byToken: [path: string, summary: string, answer: TSchema, handle: (request: FastifyRequest) => unknown][] = [
    [
      '/invitation',
      'What an invitation or reset link is for: the account name, its kind and expiry',
      InvitationAbout,
      (request) => r.invitations.describe(token(request)),
    ],
    [
      '/invitation/totp',
      'A TOTP secret for the invitee to enrol (confirmed with a code at /invitation/accept)',
      InvitationTotp,
      (request) => r.invitations.startTotp(token(request)),
    ],
    [
      '/invitation/passkey-options',
      "The options of the invitee's passkey (navigator.credentials.create); the challenge is good once",
      WebAuthnOptions,
      (request) => r.invitations.passkeyOptions(token(request), r.rp(request)),
    ],
  ];
  for (const [path, summary, answer, handle] of byToken)
    app.post(path, open({ summary, body: InvitationTokenBody, response: { 200: answer } }), async (request) =>
      handle(request),
    );
  app.post(
    '/invitation/accept',
    open({
      summary:
        'Completes the link: the password and a second factor (totp, or passkey) of the invitee; answers its recovery codes once',
      body: InvitationAcceptBody,
      response: { 200: InvitationAccepted },
    }),
    async (request) => r.invitations.accept(request.body as never, () => r.rp(request), r.ctx(request)),
  );
}
