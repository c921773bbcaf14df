/*
 * Conditional writes whose failed condition means something to the caller (re-exported by table.ts).
 */

/** Thrown by `put`/`update`/`delete` when their condition does not hold. */
function isConditionFailed(error: unknown): boolean {
  return error instanceof Error && error.name === 'ConditionalCheckFailedException';
}

/**
 * A conditional write whose failed condition means something to the caller (usually "not found"):
 * that error instead of the store's. Any other error passes through.
 */
export async function onConditionFailed<T>(write: Promise<T>, failed: () => Error): Promise<T> {
  try {
    return await write;
  } catch (error) {
    if (isConditionFailed(error)) throw failed();
    throw error;
  }
}

/**
 * A conditional write whose failed condition is an expected outcome: `otherwise` instead of the
 * store's error. Any other error passes through.
 */
export async function unlessConditionFailed<T, F>(write: Promise<T>, otherwise: F): Promise<T | F> {
  try {
    return await write;
  } catch (error) {
    if (isConditionFailed(error)) return otherwise;
    throw error;
  }
}

/** Whether a conditional write was made: false when its condition did not hold. Any other error passes through. */
export function conditionHeld(write: Promise<unknown>): Promise<boolean> {
  return unlessConditionFailed(
    write.then(() => true),
    false,
  );
}
