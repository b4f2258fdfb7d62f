/**
 * Waiting for something the code under test will make true — an order stored, a callback recorded — when
 * there is no event to listen to. It polls on a short real interval and never measures how long it took;
 * the limit only turns a hang into a failure that names what never happened.
 */

const POLL_EVERY_MS = 5;

/** Whether `check` became true before `limitMs` ran out. */
export async function becomesTrue(check: () => boolean | Promise<boolean>, limitMs = 10_000): Promise<boolean> {
  let outOfTime = false;
  const limit = setTimeout(() => (outOfTime = true), limitMs);
  try {
    for (;;) {
      if (await check()) return true;
      if (outOfTime) return false;
      await new Promise((resolve) => setTimeout(resolve, POLL_EVERY_MS));
    }
  } finally {
    clearTimeout(limit);
  }
}

/** Resolves once `check` is true; rejects naming `what` if it never becomes true. */
export async function waitFor(check: () => boolean | Promise<boolean>, what: string, limitMs = 10_000): Promise<void> {
  if (!(await becomesTrue(check, limitMs))) throw new Error(`waited for ${what}, and it never happened`);
}
