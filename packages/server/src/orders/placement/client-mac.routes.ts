import type { FastifyRequest } from 'fastify';
import type { AppRecord } from '../../apps/apps.service.js';
import type { TokenSession } from '../../accounts/tokens.service.js';
import type { MacRouteOptions, MacScheme } from '../../auth/mac.js';

/** The app a player's route names: its `?clientId=` (ClientIdQuery, accounts/accounts.schemas.ts). */
const clientIdOf = (request: FastifyRequest) => (request.query as { clientId: string }).clientId;

/**
 * The MAC hook (5.2) of a player's route, the app named by `?clientId=`: the order routes here, the stores'
 * purchase submissions (store-payments/) and the web payment page's launch links (web-pay/).
 */
export function clientMac(mac: MacScheme<AppRecord, TokenSession>, replay: MacRouteOptions['replay']) {
  return mac.hook({ clientId: clientIdOf, replay });
}
