export { createAdminRouter, type AdminRouter } from './router.ts';
export type { AdminDeps } from './deps.ts';
export type { AdminContext } from './trpc.ts';
export { adminContextOf, sameSecret } from './token.ts';
export { adminReference, type AdminProcedureReference } from './catalog.ts';
