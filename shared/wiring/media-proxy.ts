import { config } from '#shared/config.ts';
import { LAMBDA_MAX_BINARY_BYTES } from '#shared/http/reply.ts';
import { createMediaProxy } from '#shared/services/media-proxy.ts';
import type { MediaProxy } from '#shared/services/media-proxy.ts';
import { createMediaFetch } from '#shared/upstreams/media.ts';

let proxy: MediaProxy | undefined;

export function mediaProxy(): MediaProxy {
  if (proxy) return proxy;
  const cfg = config();
  const settings = cfg.mediaProxy;
  proxy = createMediaProxy({
    fetch: createMediaFetch({
      connectTimeoutMs: settings.connectTimeoutMs,
      readTimeoutMs: settings.readTimeoutMs,
      loopbackPorts: cfg.unsafeTestLoopbackPorts,
      testHosts: settings.unsafeTestHosts,
      testCa: settings.unsafeTestCa,
    }),
    settings,
    userAgent: `Easel-MediaProxy/1.0 (+${cfg.publicBaseUrl})`,
    maxResponseBytes: LAMBDA_MAX_BINARY_BYTES,
  });
  return proxy;
}
