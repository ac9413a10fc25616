import { timingSafeEqual, createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { initTRPC, TRPCError } from '@trpc/server';
import { fastifyTRPCPlugin, type CreateFastifyContextOptions } from '@trpc/server/adapters/fastify';
import { z } from 'zod';
import { MAX_QUOTA_MONTHLY, MAX_RATE_LIMIT_PER_MINUTE, QUOTA_RESOURCE_NAMES, RATE_LIMIT_CLASS_NAMES, type RateLimitClass } from '@trawl/contract';
import { KEY_SCOPES, quotaMonth } from '@trawl/store';
import type { GatewayContext } from '../context.ts';
import { rateLimitDefaults } from '../plugins/rate-limit.ts';

/**
 * Operator administration over tRPC at /admin: teams, API keys, credits, rate limits and monthly quotas. Guarded by TRAWL_ADMIN_TOKEN
 * (not an API key: API keys cannot manage keys, members or billing). Absent token, absent routes.
 */
export function sameSecret(a: string, b: string): boolean {
  const h = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(h(a), h(b));
}

function adminRouter(gw: GatewayContext) {
  const t = initTRPC.context<{ admin: boolean }>().create({
    // Never a stack or a server path in an answer, whatever NODE_ENV says; unexpected failures say nothing more.
    isDev: false,
    errorFormatter: ({ shape, error }) => ({
      ...shape,
      message: error.code === 'INTERNAL_SERVER_ERROR' ? 'internal error; retry later' : shape.message,
      data: { code: shape.data.code, httpStatus: shape.data.httpStatus, path: shape.data.path },
    }),
  });
  const admin = t.procedure.use(({ ctx, next }) => {
    if (!ctx.admin) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'admin token required' });
    return next();
  });
  const teamId = z.string().min(1).max(200);
  const store = gw.store;
  const requireTeam = async (id: string) => {
    const team = await store.getTeam(id);
    if (!team) throw new TRPCError({ code: 'NOT_FOUND', message: 'no such team' });
    return team;
  };
  const defaults = rateLimitDefaults(gw.config);
  /** Every class's limit for a team: its override, else the configured default (0 = unlimited). */
  const limitsOf = async (team_id: string) => {
    const overrides = await store.getRateLimits(team_id);
    const limits = {} as Record<RateLimitClass, { per_minute: number; source: 'override' | 'default' }>;
    for (const c of RATE_LIMIT_CLASS_NAMES) {
      const o = overrides[c];
      limits[c] = o === undefined ? { per_minute: defaults[c], source: 'default' } : { per_minute: o, source: 'override' };
    }
    return { team_id, limits };
  };
  /** Every resource's monthly limit (null = unlimited) and what the team used in the current month (UTC). */
  const quotasOf = async (team_id: string) => {
    const month = quotaMonth(gw.now());
    return { team_id, month, quotas: await store.getQuotas(team_id, month) };
  };
  return t.router({
    'teams.create': admin.input(z.strictObject({ name: z.string().min(1).max(100) })).mutation(async ({ input }) => {
      const existing = await store.findTeamByName(input.name);
      if (existing) return existing;
      const team = await store.createTeam(input.name);
      await store.grantCredits(team.id, gw.config.TRAWL_TEAM_CREDITS);
      return team;
    }),
    'teams.byName': admin.input(z.strictObject({ name: z.string().min(1).max(100) })).query(async ({ input }) => {
      const team = await store.findTeamByName(input.name);
      if (!team) throw new TRPCError({ code: 'NOT_FOUND', message: 'no such team' });
      return team;
    }),
    'keys.create': admin
      .input(
        z.strictObject({
          team_id: teamId,
          label: z.string().min(1).max(100),
          scopes: z.array(z.enum(KEY_SCOPES)).min(1).default([...KEY_SCOPES]),
        }),
      )
      .mutation(async ({ input }) => {
        await requireTeam(input.team_id);
        return store.createApiKey(input.team_id, { label: input.label, scopes: input.scopes });
      }),
    'keys.list': admin.input(z.strictObject({ team_id: teamId })).query(({ input }) => store.listApiKeys(input.team_id)),
    'keys.revoke': admin
      .input(z.strictObject({ team_id: teamId, key_id: z.string().min(1).max(200) }))
      .mutation(async ({ input }) => ({ revoked: await store.revokeApiKey(input.team_id, input.key_id) })),
    'credits.grant': admin
      .input(z.strictObject({ team_id: teamId, units: z.int().min(1).max(1_000_000_000) }))
      .mutation(async ({ input }) => {
        await requireTeam(input.team_id);
        return { balance: await store.grantCredits(input.team_id, input.units) };
      }),
    'credits.balance': admin.input(z.strictObject({ team_id: teamId })).query(async ({ input }) => ({
      balance: await store.balance(input.team_id),
      entries: await store.entries(input.team_id, 50),
    })),
    /** A team's own limit for a route class: requests in any 60 seconds, 0 = unlimited, null = back to the default. */
    'limits.set': admin
      .input(
        z.strictObject({
          team_id: teamId,
          route_class: z.enum(RATE_LIMIT_CLASS_NAMES),
          per_minute: z.int().min(0).max(MAX_RATE_LIMIT_PER_MINUTE).nullable(),
        }),
      )
      .mutation(async ({ input }) => {
        await requireTeam(input.team_id);
        await store.setRateLimit(input.team_id, input.route_class, input.per_minute);
        return limitsOf(input.team_id);
      }),
    'limits.get': admin.input(z.strictObject({ team_id: teamId })).query(async ({ input }) => {
      await requireTeam(input.team_id);
      return limitsOf(input.team_id);
    }),
    /** A team's monthly limit of a quota resource (0 = nothing allowed), or null to drop it (unlimited). */
    'quotas.set': admin
      .input(z.strictObject({ team_id: teamId, resource: z.enum(QUOTA_RESOURCE_NAMES), monthly: z.int().min(0).max(MAX_QUOTA_MONTHLY).nullable() }))
      .mutation(async ({ input }) => {
        await requireTeam(input.team_id);
        await store.setQuota(input.team_id, input.resource, input.monthly);
        return quotasOf(input.team_id);
      }),
    'quotas.get': admin.input(z.strictObject({ team_id: teamId })).query(async ({ input }) => {
      await requireTeam(input.team_id);
      return quotasOf(input.team_id);
    }),
  });
}

export type AdminRouter = ReturnType<typeof adminRouter>;

export function adminRoutes(gw: GatewayContext) {
  return async function (app: FastifyInstance) {
    const token = gw.config.TRAWL_ADMIN_TOKEN;
    if (!token) return;
    await app.register(fastifyTRPCPlugin, {
      prefix: '/admin',
      trpcOptions: {
        router: adminRouter(gw),
        createContext: ({ req }: CreateFastifyContextOptions) => {
          const m = /^Bearer (.+)$/.exec(req.headers.authorization ?? '');
          return { admin: m !== null && sameSecret(m[1], token) };
        },
      },
    });
  };
}
