import type { AdminClient } from '@trawl/admin/client';
import type { CommandSpec, GroupSpec } from '../command-spec.ts';
import { exitCode, UsageError } from '../exit-codes.ts';
import { safeJson, writeOut } from '../output.ts';

/** Every admin procedure as `area.verb` (from the typed client, so a new procedure is a compile error until listed). */
type AdminProcedure = {
  [A in keyof AdminClient & string]: AdminClient[A] extends object ? `${A}.${keyof AdminClient[A] & string}` : never;
}[keyof AdminClient & string];

interface AdminProcedureSpec {
  /** The input fields, for help (the server validates them: a bad one is BAD_REQUEST). */
  input: string;
  call(admin: AdminClient, input: Record<string, unknown>): Promise<unknown>;
}

// Inputs come from the command line and are checked by the procedure's own zod schema on the server, so they are
// passed on as they are (`never`: the client's static input type cannot describe a value read at run time).
const ADMIN_PROCEDURES = {
  'teams.create': { input: 'name', call: (a, i) => a.teams.create.mutate(i as never) },
  'teams.list': { input: '[limit] [cursor]', call: (a, i) => a.teams.list.query(i as never) },
  'teams.get': { input: 'team_id | name', call: (a, i) => a.teams.get.query(i as never) },
  'teams.disable': { input: 'team_id [disabled=false to enable]', call: (a, i) => a.teams.disable.mutate(i as never) },
  'keys.create': { input: 'team_id label [scopes=["fetch","runs"]]', call: (a, i) => a.keys.create.mutate(i as never) },
  'keys.list': { input: 'team_id', call: (a, i) => a.keys.list.query(i as never) },
  'keys.revoke': { input: 'team_id key_id', call: (a, i) => a.keys.revoke.mutate(i as never) },
  'keys.rotate': { input: 'team_id key_id', call: (a, i) => a.keys.rotate.mutate(i as never) },
  'credits.grant': { input: 'team_id units', call: (a, i) => a.credits.grant.mutate(i as never) },
  'credits.balance': { input: 'team_id [limit] [cursor]', call: (a, i) => a.credits.balance.query(i as never) },
  'limits.set': { input: 'team_id route_class per_minute (null: default)', call: (a, i) => a.limits.set.mutate(i as never) },
  'limits.get': { input: 'team_id', call: (a, i) => a.limits.get.query(i as never) },
  'quotas.set': { input: 'team_id resource monthly (null: unlimited)', call: (a, i) => a.quotas.set.mutate(i as never) },
  'quotas.get': { input: 'team_id', call: (a, i) => a.quotas.get.query(i as never) },
  'crawls.list': { input: '[team_id] [status] [limit] [cursor]', call: (a, i) => a.crawls.list.query(i as never) },
  'crawls.get': { input: 'crawl_id', call: (a, i) => a.crawls.get.query(i as never) },
  'crawls.pause': { input: 'crawl_id', call: (a, i) => a.crawls.pause.mutate(i as never) },
  'crawls.resume': { input: 'crawl_id', call: (a, i) => a.crawls.resume.mutate(i as never) },
  'crawls.cancel': { input: 'crawl_id', call: (a, i) => a.crawls.cancel.mutate(i as never) },
  'trends.list': { input: '[team_id] [state] [limit] [cursor]', call: (a, i) => a.trends.list.query(i as never) },
  'trends.get': { input: 'job_id', call: (a, i) => a.trends.get.query(i as never) },
  'workers.list': { input: '', call: (a) => a.workers.list.query() },
  'frontier.stats': { input: '[limit]', call: (a, i) => a.frontier.stats.query(i as never) },
  'retention.upcoming': { input: '[limit]', call: (a, i) => a.retention.upcoming.query(i as never) },
} satisfies Record<AdminProcedure, AdminProcedureSpec>;

/**
 * `field=value` arguments as the procedure's input: a value that reads as JSON (numbers, true/false, null, arrays,
 * quoted strings) is that value, anything else the string as written.
 */
export function adminInput(pairs: string[]): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const pair of pairs) {
    const m = /^([a-z_]+)=(.*)$/s.exec(pair);
    if (!m) throw new UsageError(`"${pair}" is not field=value`);
    let value: unknown = m[2];
    try {
      value = JSON.parse(m[2]);
    } catch {
      // Not JSON: the text itself (ids, names).
    }
    input[m[1]] = value;
  }
  return input;
}

function procedureCommand(name: AdminProcedure, spec: AdminProcedureSpec): CommandSpec {
  return {
    name,
    description: spec.input ? `input: ${spec.input}` : 'no input',
    args: [{ syntax: '[fields...]', description: 'field=value pairs (JSON values: 5, null, true, ["a"])' }],
    options: [],
    async run([fields], options, ctx) {
      const token = options.adminToken;
      if (typeof token !== 'string' || token === '') throw new UsageError('no admin token: pass --admin-token or set TRAWL_ADMIN_TOKEN');
      if (!/^https?:\/\/[^/]/i.test(ctx.base)) throw new UsageError('--base (TRAWL_BASE) must be an http(s) URL');
      const { createAdminClient } = await import('@trawl/admin/client'); // tRPC's client, not loaded for --help
      const admin = createAdminClient({ baseUrl: ctx.base, token });
      const result = await spec.call(admin, adminInput((fields as string[] | undefined) ?? []));
      await writeOut(ctx.stdout, `${safeJson(result, 2)}\n`);
      return exitCode('ok');
    },
  };
}

/** `trawl admin <area.verb> [field=value…]`: every admin procedure, its answer printed as JSON. */
export const adminGroup: GroupSpec = {
  name: 'admin',
  description: 'Operator admin API (/admin, TRAWL_ADMIN_TOKEN): teams, keys, credits, limits, quotas, crawls, trends, workers, frontier, retention',
  options: [{ flags: '--admin-token <token>', description: 'the gateway\'s TRAWL_ADMIN_TOKEN', env: 'TRAWL_ADMIN_TOKEN' }],
  commands: (Object.entries(ADMIN_PROCEDURES) as [AdminProcedure, AdminProcedureSpec][]).map(([name, spec]) => procedureCommand(name, spec)),
};
