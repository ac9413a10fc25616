export {
  METRICS_CONTENT_TYPE,
  metricsText,
  recordFallback,
  recordPage,
  recordRequest,
  recordStoreUnavailable,
  recordTrendsCall,
  recordWebhookAttempt,
  registerGaugeSource,
  type GaugeSample,
} from './prometheus.ts';
export { startMetricsServer, type MetricsServer } from './metrics-server.ts';
