/**
 * A counting semaphore: at most `concurrency` pieces of work run at once, the rest wait in line. With
 * `waiting`, the line is bounded: past it a caller is refused (`refusal()`) rather than queued.
 */
export class Slots {
  private running = 0;
  private readonly queue: (() => void)[] = [];

  constructor(
    private readonly limits: { concurrency: number; waiting?: number },
    private readonly refusal: () => Error = () => new Error('no slot free and the line is full'),
  ) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.limits.concurrency) {
      if (this.limits.waiting !== undefined && this.queue.length >= this.limits.waiting) throw this.refusal();
      await new Promise<void>((resolve) => this.queue.push(resolve));
    } else {
      this.running += 1;
    }
    try {
      return await work();
    } finally {
      // The slot passes straight to the next waiter, so `running` stays counted for it.
      const next = this.queue.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}
