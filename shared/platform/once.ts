/**
 * Makes a value on first use, once: later calls share the first call's promise. A failure is not
 * kept (a module that failed to load, a client that could not be made): the next call tries again.
 */
export function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () =>
    (made ??= make().catch((error: unknown) => {
      made = undefined;
      throw error;
    }));
}
