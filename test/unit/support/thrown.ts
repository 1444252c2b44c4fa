/** What a function throws (or its promise rejects with), or undefined when it returns: for checks that end a test by throwing. */
export async function thrown(f: () => unknown): Promise<unknown> {
  try {
    await f();
  } catch (error) {
    return error;
  }
  return undefined;
}
