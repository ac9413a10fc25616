import { serviceUnavailableError, type ApiError } from './api-error.ts';

/**
 * Seconds a caller is asked to wait while the store (Redis) is unreachable. Reconnection attempts are at most
 * 2 s apart (packages/redis), so a Redis that is back is in use again within about that long.
 */
export const STORE_RETRY_AFTER_S = 2;

/**
 * The answer to any request that needed the store while it could not be reached (Redis restarting, the network
 * to it down): 503 `service_unavailable`, retryable, with `Retry-After`. Nothing about the store itself (address,
 * error text) reaches the caller.
 */
export function storeUnavailableError(): ApiError {
  return serviceUnavailableError('the service is briefly unavailable; retry after the Retry-After delay', 'store_unavailable', STORE_RETRY_AFTER_S);
}
