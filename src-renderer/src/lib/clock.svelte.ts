/** The current time, ticking every second while something reads it: drives the countdowns. */
class Clock {
  now = $state(Date.now());
  private users = 0;
  private timer: ReturnType<typeof setInterval> | undefined;

  /** Call from an $effect; returns the cleanup. */
  use(): () => void {
    if (this.users++ === 0) {
      this.now = Date.now();
      this.timer = setInterval(() => (this.now = Date.now()), 1000);
    }
    return () => {
      if (--this.users === 0) clearInterval(this.timer);
    };
  }
}

export const clock = new Clock();
