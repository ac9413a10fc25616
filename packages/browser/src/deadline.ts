/** What beforeDeadline() resolves with when the deadline came first. */
export const PAST_DEADLINE: unique symbol = Symbol('past deadline');

/**
 * The promise's outcome, or PAST_DEADLINE once `deadline` (epoch ms) passes; the promise itself runs on (a
 * browser call that never answers is ended by closing its context, not by us) and its late failure is ignored.
 */
export function beforeDeadline<T>(p: Promise<T>, deadline: number): Promise<T | typeof PAST_DEADLINE> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => resolve(PAST_DEADLINE), Math.max(0, deadline - Date.now()));
    p.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err);
      },
    );
  });
}
