/** The container's Chromium. A CHROMIUM_PACK unpacks as this module loads: the capture entry imports it first, so it unpacks as the bundle loads. */
import { tmpdir } from 'node:os';
import { config } from '#shared/config.ts';
import { unpackChromium } from '#shared/services/capture/chromium-pack.ts';

let unpacking: Promise<string> | undefined;

/** CHROMIUM_PATH, else the pack unpacked (once; a failed unpack is tried again), else undefined: @sparticuz/chromium's own. */
export function chromiumExecutable(): (() => Promise<string>) | undefined {
  const { chromiumPath, chromiumPack } = config().capture;
  if (chromiumPath) return () => Promise.resolve(chromiumPath);
  if (!chromiumPack) return undefined;
  return () =>
    (unpacking ??= unpackChromium(chromiumPack, tmpdir()).catch((error: unknown) => {
      unpacking = undefined;
      throw error;
    }));
}

// Its failure is the launch's to report.
chromiumExecutable()?.().catch(() => undefined);
