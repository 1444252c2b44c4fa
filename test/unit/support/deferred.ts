/** Promises a test resolves by hand, to hold a write or a walk open exactly as long as it needs. */
export interface Deferred<T> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/**
 * One turn of the event loop: every promise callback already queued has run. What has not
 * started by then is waiting on something, not merely scheduled (a zero-delay turn, not a sleep).
 */
export function settled(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
