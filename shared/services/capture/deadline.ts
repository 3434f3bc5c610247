export class CaptureTimeout extends Error {
  override name = 'CaptureTimeout';
}

export const ignore = () => undefined;

/** A time limit several steps share; racing a step against it never leaves a rejection unhandled. */
export class Deadline {
  private readonly end: number;
  private readonly expired: Promise<never>;
  private timer?: NodeJS.Timeout;

  constructor(ms: number, signal?: AbortSignal) {
    this.end = performance.now() + ms;
    this.expired = new Promise<never>((_, reject) => {
      this.timer = setTimeout(() => reject(new CaptureTimeout(`capture exceeded ${ms} ms`)), ms);
      signal?.addEventListener('abort', () => reject(new CaptureTimeout('capture aborted')), { once: true });
    });
    this.expired.catch(ignore);
  }

  race<T>(step: Promise<T>): Promise<T> {
    step.catch(ignore);
    return Promise.race([step, this.expired]);
  }

  remaining(): number {
    return Math.max(0, this.end - performance.now());
  }

  dispose(): void {
    clearTimeout(this.timer);
  }
}
