export { createLightEngine } from './light-engine.ts';
export type {
  FallbackEvent,
  LightAttempt,
  LightEngine,
  LightEngineOptions,
  LightFailure,
  LightFetchOutcome,
  LightFetchRequest,
} from './light-fetch-types.ts';
