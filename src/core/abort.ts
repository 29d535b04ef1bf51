/** What `raceAbort` settles with when the signal aborts first. */
export const ABORTED: unique symbol = Symbol('aborted');

/**
 * Settles as `promise` does, or with `ABORTED` as soon as `signal` aborts (already aborted: at
 * once). The promise itself runs on; the listener is removed once either side settles.
 */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | typeof ABORTED> {
  if (signal.aborted) return Promise.resolve(ABORTED);
  return new Promise<T | typeof ABORTED>((resolve, reject) => {
    const onAbort = (): void => resolve(ABORTED);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** An `Error` named `AbortError` (what callers test for), saying `message`. */
export function abortError(message: string): Error {
  const error = new Error(message);
  error.name = 'AbortError';
  return error;
}
