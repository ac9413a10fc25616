import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import type { AdminRouter } from './router.ts';

/** The only module importing @trpc/client: a typed client of a gateway's /admin, for the CLI and tests. */
export interface AdminClientOptions {
  /** The gateway's base URL, e.g. `http://localhost:8080` (the client adds `/admin`). */
  baseUrl: string;
  /** TRAWL_ADMIN_TOKEN of that gateway. */
  token: string;
}

export function createAdminClient(opts: AdminClientOptions) {
  return createTRPCClient<AdminRouter>({
    links: [httpLink({ url: `${opts.baseUrl.replace(/\/+$/, '')}/admin`, headers: { authorization: `Bearer ${opts.token}` } })],
  });
}

export type AdminClient = ReturnType<typeof createAdminClient>;

/** What an admin call failed with (`code`: the tRPC code, e.g. NOT_FOUND), or null for anything else. */
export function adminErrorOf(err: unknown): { code: string; httpStatus: number; message: string } | null {
  if (!(err instanceof TRPCClientError)) return null;
  const data = (err as TRPCClientError<AdminRouter>).data;
  return data ? { code: data.code, httpStatus: data.httpStatus, message: err.message } : null;
}

/** An admin call that got no tRPC answer at all (nothing listening, a connection refused or cut). */
export function isAdminUnreachable(err: unknown): boolean {
  return err instanceof TRPCClientError && !(err as TRPCClientError<AdminRouter>).data && err.cause instanceof TypeError;
}
