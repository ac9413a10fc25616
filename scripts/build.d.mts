// Types of scripts/build.mjs (plain JavaScript, so `npm start` runs it without a TypeScript loader).
export declare const BUNDLES: Record<'gateway' | 'worker', { entry: string; out: string }>;
export declare function stale(): boolean;
export declare function buildBundles(dist?: string): Promise<void>;
