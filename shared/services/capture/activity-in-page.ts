/** The page's own work watched from inside it (conventions of in-page.ts), so settling can wait for work that starts no request. */

/** The watcher's global, named so that a page's own names cannot meet it by chance. */
export const ACTIVITY_KEY = '__easelActivity';

/** In the page: its schedulers as they were before the watcher wrapped them, for Easel's own scripts, whose timers are not the page's work. */
export const UNWATCHED_SCHEDULERS = `(globalThis.${ACTIVITY_KEY}?.unwatched ?? globalThis)`;

export interface PageActivity {
  /** Timeouts due within the horizon and intervals that tick faster than it, still pending. */
  timers: number;
  frames: number;
  /** Milliseconds since a timer or frame callback last ran or the DOM last changed. */
  stillMs: number;
}

/** The slice of the page's globals the watcher uses; Node's types have no DOM. */
type Callback = (...args: unknown[]) => unknown;
type Scheduler = (callback: unknown, delay?: unknown, ...rest: unknown[]) => number;
interface WatchedGlobal {
  setTimeout: Scheduler;
  setInterval: Scheduler;
  clearTimeout(id?: number): void;
  clearInterval(id?: number): void;
  requestAnimationFrame: Scheduler;
  cancelAnimationFrame(id?: number): void;
  performance: { now(): number };
  document: object;
  MutationObserver: new (callback: () => void) => { observe(node: object, options: object): void };
}

/** Before the page's scripts: wraps timers and frames as Proxies (names and lengths stay the page's), observes the DOM; no named inner functions. */
export function watchActivity(key: string, horizonMs: number): void {
  const page = globalThis as unknown as WatchedGlobal & Record<string, unknown>;
  if (Object.hasOwn(page, key)) return;
  // Easel's own scripts in the page (blockBanners' autoconsent) schedule on these: their work is not the page's.
  const unwatched = {
    setTimeout: page.setTimeout,
    clearTimeout: page.clearTimeout,
    setInterval: page.setInterval,
    clearInterval: page.clearInterval,
    requestAnimationFrame: page.requestAnimationFrame,
    cancelAnimationFrame: page.cancelAnimationFrame,
  };
  const timers = new Set<number>();
  const frames = new Set<number>();
  const state = { last: page.performance.now() };
  // Wraps a callback so that running it counts as activity (and `after` forgets its id).
  const wrap = {
    ran(callback: unknown, after?: () => void): unknown {
      if (typeof callback !== 'function') return callback;
      return function (this: unknown, ...args: unknown[]) {
        after?.();
        state.last = page.performance.now();
        return (callback as Callback).apply(this, args);
      };
    },
  };
  // A timeout due within `horizon`, or a frame, counts from when it is asked for until it runs or is cancelled.
  const once = {
    counted(ids: Set<number>, horizon: number): ProxyHandler<Scheduler> {
      return {
        apply(target, self, args: unknown[]) {
          // A string of code cannot be wrapped to tell when it ran: not counted.
          if (typeof args[0] !== 'function' || (Number(args[1]) || 0) > horizon) return Reflect.apply(target, self, args);
          let id = 0;
          args[0] = wrap.ran(args[0], () => ids.delete(id));
          id = Reflect.apply(target, self, args) as number;
          ids.add(id);
          return id;
        },
      };
    },
  };
  page.setTimeout = new Proxy(page.setTimeout, once.counted(timers, horizonMs));
  page.requestAnimationFrame = new Proxy(page.requestAnimationFrame, once.counted(frames, Number.POSITIVE_INFINITY));
  page.setInterval = new Proxy(page.setInterval, {
    apply(target, self, args: unknown[]) {
      // An interval that ticks slower than the horizon is the page's rhythm, not work to wait for.
      const tracked = typeof args[0] === 'function' && (Number(args[1]) || 0) < horizonMs;
      args[0] = wrap.ran(args[0]);
      const id = Reflect.apply(target, self, args) as number;
      if (tracked) timers.add(id);
      return id;
    },
  });
  for (const [name, ids] of [
    ['clearTimeout', timers],
    ['clearInterval', timers],
    ['cancelAnimationFrame', frames],
  ] as const) {
    page[name] = new Proxy(page[name], {
      apply(target, self, args: unknown[]) {
        ids.delete(Number(args[0]));
        return Reflect.apply(target, self, args);
      },
    });
  }
  new page.MutationObserver(() => {
    state.last = page.performance.now();
  }).observe(page.document, { subtree: true, childList: true, attributes: true, characterData: true });
  // A method, not an arrow: the bundler names functions assigned to properties through a helper.
  const reader = {
    read(): PageActivity {
      return { timers: timers.size, frames: frames.size, stillMs: page.performance.now() - state.last };
    },
  };
  Object.defineProperty(page, key, { value: Object.assign(reader.read, { unwatched }) });
}

/** The watcher's reading, or null where it is missing (a document it was not installed in). */
export function readActivity(key: string): PageActivity | null {
  const read = (globalThis as unknown as Record<string, unknown>)[key];
  return typeof read === 'function' ? (read as () => PageActivity)() : null;
}
