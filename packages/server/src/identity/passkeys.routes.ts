import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { apiRoute } from '../http/api-route.js';
import { Passkey, PasskeyBody, PasskeyIdParams, WebAuthnOptions } from './passkeys.schemas.js';
import type { PasskeyService, RelyingParty } from './passkeys.service.js';
import type { PersonRow } from './people.repository.js';
import type { PeopleService } from './people.service.js';
import type { PasskeyCheck } from './sign-in.js';

/** A sign-in's passkey check at one realm's door: the passkey must be one of that realm's people's. */
export const passkeyCheckOf =
  (passkeys: PasskeyService, people: PeopleService, rp: (request: FastifyRequest) => RelyingParty) =>
  (request: FastifyRequest): PasskeyCheck =>
  (response) =>
    passkeys.verifySignIn(people.realm, response as never, rp(request), (id) => people.repo.byId(id));

/**
 * A signed-in person's own passkeys (console: /admin/v1/passkeys, portal: /portal/v1/passkeys): list, add (options,
 * then the browser's answer), remove. Nobody else's: an operator never sees or changes another person's passkeys
 * (a reset link replaces them all).
 */
export function registerPasskeyRoutes(
  app: FastifyInstance,
  r: {
    passkeys: PasskeyService;
    /** The signed-in person (refuses a caller that is not a person's session, e.g. a token). */
    person(request: FastifyRequest): Promise<PersonRow>;
    rp(request: FastifyRequest): RelyingParty;
    audit(request: FastifyRequest, event: string, note: string): Promise<void>;
    tags: string[];
  },
): void {
  const route = apiRoute({ tags: r.tags });
  app.addSchema(Passkey);
  app.get(
    '/passkeys',
    route({
      summary: 'Your passkeys (names and dates; never a key)',
      response: { 200: Type.Object({ passkeys: Type.Array(Type.Ref(Passkey)) }) },
    }),
    async (request) => ({ passkeys: await r.passkeys.list(await r.person(request)) }),
  );
  app.post(
    '/passkeys/options',
    route({
      summary: 'The options of a new passkey (navigator.credentials.create); the challenge is good once, 5 minutes',
      response: { 200: WebAuthnOptions },
    }),
    async (request) => r.passkeys.registrationOptions(await r.person(request), r.rp(request), 'register'),
  );
  app.post(
    '/passkeys',
    route({
      summary: 'Adds a passkey: the browser answer to /passkeys/options, and your name for it',
      body: PasskeyBody,
      response: { 201: Type.Ref(Passkey) },
    }),
    async (request, reply) => {
      const body = request.body as { name: string; response: never };
      const added = await r.passkeys.add(await r.person(request), body.response, body.name, r.rp(request));
      await r.audit(request, 'passkey-added', `#${added.passkeyId} ${added.name}`);
      return reply.code(201).send(added);
    },
  );
  app.delete(
    '/passkeys/:passkeyId',
    route({ summary: 'Removes one of your passkeys', params: PasskeyIdParams, response: { 204: Type.Null() } }),
    async (request, reply) => {
      const id = (request.params as { passkeyId: number }).passkeyId;
      await r.passkeys.remove(await r.person(request), id);
      await r.audit(request, 'passkey-removed', `#${id}`);
      return reply.code(204).send(null);
    },
  );
}
