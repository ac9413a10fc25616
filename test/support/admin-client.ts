import type { TestGateway } from './gateway.ts';

/** The TRAWL_ADMIN_TOKEN of test gateways that exercise the admin tRPC router. */
export const TEST_ADMIN_TOKEN = 'admin-token-0123456789abcdef';

const QUERY = /\.(get|list|balance|stats|upcoming)$/;

/** One admin tRPC call (queries by GET with `?input=`, mutations by POST); `token` null sends no Authorization. */
export async function adminCall(
  gw: TestGateway,
  proc: string,
  input: unknown,
  token: string | null = TEST_ADMIN_TOKEN,
): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  const res = QUERY.test(proc)
    ? await fetch(`${gw.url}/admin/${proc}?input=${encodeURIComponent(JSON.stringify(input))}`, { headers })
    : await fetch(`${gw.url}/admin/${proc}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(input) });
  return { status: res.status, body: await res.json() };
}

export interface TestTeam {
  id: string;
  secret: string;
  /** gw.call with this team's key. */
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
}

/** A fresh team and a key with every scope, through the admin API, so each case starts from nothing counted. */
export async function newTeam(gw: TestGateway, name: string): Promise<TestTeam> {
  const team = (await adminCall(gw, 'teams.create', { name })).body.result.data as { id: string };
  const key = (await adminCall(gw, 'keys.create', { team_id: team.id, label: 'test' })).body.result.data as { secret: string };
  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    gw.call(method, path, body, { authorization: `Bearer ${key.secret}`, ...headers });
  return { id: team.id, secret: key.secret, call };
}
