/** capturePng as the capture benches drive it: on a lease of the runtime's browser, desktop and light, timed. */
import type { CaptureOutput, WaitStrategy } from '#shared/services/capture/page-capture.ts';

export async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await fn();
  return { ms: performance.now() - started, value };
}

export type BenchCapture = (url: URL, options?: object, wait?: WaitStrategy) => Promise<{ ms: number; value: CaptureOutput }>;

/**
 * Captures with the request's options over the defaults, the guard letting through `ports` on loopback. Called once the bench's
 * runtime is up: the wiring reads the configuration it sets. The lease is taken before the clock starts.
 */
export async function benchCapture(ports: number[], timeoutMs: number): Promise<BenchCapture> {
  const { browserBackend } = await import('#shared/wiring/capture.ts');
  const { capturePng } = await import('#shared/services/capture/page-capture.ts');
  const { DEFAULT_OPTIONS } = await import('#shared/services/capture/options.ts');
  const { createTargetGuard } = await import('#shared/services/capture/target.ts');
  const { cachingResolver, systemResolver } = await import('#shared/net/guard.ts');
  const guard = createTargetGuard({ loopbackPorts: ports }, cachingResolver(systemResolver, 30_000));
  return async (url, options = {}, wait) => {
    const lease = await browserBackend().acquire();
    const request = { url, deviceType: 'desktop', colorScheme: 'light', timeoutMs, options: { ...DEFAULT_OPTIONS, ...options } } as const;
    return timed(() => capturePng(lease, { ...request, ...(wait ? { wait } : {}) }, guard));
  };
}
