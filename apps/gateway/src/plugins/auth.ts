import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ApiKeyRecord, KeyScope, Store } from '@trawl/store';
import { ApiError } from '../api-error.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The key scope a route needs; routes without one are public (the API docs). */
    scope?: KeyScope;
  }
  interface FastifyRequest {
    apiKey: ApiKeyRecord | null;
  }
}

const BEARER = /^Bearer ([\x21-\x7e]{1,512})$/;

/**
 * Authenticates every route that declares a scope, before its body is even parsed. The key and its team are read
 * from the store on every request (no cache): a revoked key or a disabled team is refused from the next request on,
 * on every gateway.
 */
export function registerAuth(app: FastifyInstance, store: Store, recoverKey?: (secret: string) => Promise<ApiKeyRecord | null>): void {
  app.decorateRequest('apiKey', null);
  app.addHook('onRequest', async (request: FastifyRequest) => {
    const scope = request.routeOptions.config?.scope;
    if (!scope) return;
    const m = BEARER.exec(request.headers.authorization ?? '');
    if (!m) throw new ApiError('authentication_required', 'send Authorization: Bearer <API key>');
    // A store that cannot be reached throws here: the caller gets 503, never a 401 for a key that may be fine.
    const key = (await store.findApiKey(m[1])) ?? (await recoverKey?.(m[1])) ?? null;
    if (!key) throw new ApiError('authentication_required', 'the API key is unknown or revoked');
    // A key whose team record is missing (never made by admin or the bootstrap) is not refused for it.
    if ((await store.getTeam(key.team_id))?.disabled_at) {
      throw new ApiError('permission_denied', "this API key's team is disabled", { details: { reason: 'team_disabled' } });
    }
    if (!key.scopes.includes(scope)) {
      throw new ApiError('permission_denied', `this API key has no access to ${scope}`, { details: { scope } });
    }
    request.apiKey = key;
  });
}

/** The authenticated team of a scoped route. */
export function teamOf(request: FastifyRequest): string {
  if (!request.apiKey) throw new Error('teamOf called on an unauthenticated route');
  return request.apiKey.team_id;
}
