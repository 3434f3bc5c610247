/**
 * Where captures run: the bundled Chromium or a remote browser over CDP. The browser is reused
 * across invocations; only the browsing state is fresh per capture.
 */
import chromium from '@sparticuz/chromium';
import puppeteer from 'puppeteer-core';
import type { Browser } from 'puppeteer-core';
import { UpstreamUnavailableError } from '#shared/errors.ts';
import { log, serializeError } from '#shared/log.ts';
import { startEgressProxy } from '#shared/services/capture/egress-proxy.ts';
import type { EgressProxy, EgressProxyOptions } from '#shared/services/capture/egress-proxy.ts';
import { linkFonts } from '#shared/services/capture/font-links.ts';
import { containStrays } from '#shared/services/capture/workers.ts';

/** Names the backend that produced an image (the response's `strategy`). */
export type Strategy = 'local-chromium' | 'remote-cdp';

/**
 * `context`: a fresh incognito context per capture. `reset`: --single-process Chromium crashes on a
 * second context, so captures take turns in the default context, wiped afterwards.
 */
export type Isolation = 'context' | 'reset';

/** A browser lent to one capture. `release` must be called when the capture is over. */
export interface BrowserLease {
  browser: Browser;
  strategy: Strategy;
  isolation: Isolation;
  /** Whether page requests fail with a network error when the egress proxy refuses them. */
  proxied: boolean;
  release(): void;
}

export interface BrowserBackend {
  readonly strategy: Strategy;
  /** A connected browser; launches or reconnects when there is none. Throws 503 when impossible. */
  acquire(): Promise<BrowserLease>;
  /** The browser currently held, if any (tests kill it to prove relaunching). */
  current(): Browser | undefined;
  close(): Promise<void>;
}

/** Flags of @sparticuz/chromium that would let a captured page read other origins' data; never passed. */
export const UNSAFE_CHROMIUM_FLAGS = new Set(['--disable-web-security', '--allow-running-insecure-content']);

/**
 * @sparticuz/chromium's flags that draw pages through a GPU emulated in software (SwiftShader).
 * Replaced by --disable-gpu: Skia on the CPU draws the same page in 0.64–0.90× the time and past
 * 8,192 px in one pass (docs/capture.md, "Drawing"); WebGL still runs on SwiftShader.
 */
export const EMULATED_GPU_FLAGS = new Set([
  '--ignore-gpu-blocklist',
  '--in-process-gpu',
  '--use-gl=angle',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
]);

/** @sparticuz/chromium's flags minus the unsafe and emulated-GPU ones, drawing on the CPU; --single-process only if asked. */
export function safeChromiumFlags(options: { singleProcess: boolean }): string[] {
  const flags = chromium.args.filter(
    (flag) => !UNSAFE_CHROMIUM_FLAGS.has(flag) && !EMULATED_GPU_FLAGS.has(flag) && (options.singleProcess || flag !== '--single-process'),
  );
  return [...flags, '--disable-gpu'];
}

/**
 * The whole command line: puppeteer's and @sparticuz/chromium's flags, minus unsafe ones, drawing
 * on the CPU, plus those keeping all traffic on the egress proxy. Launch with
 * `ignoreDefaultArgs: true`, or puppeteer adds its defaults back, --disable-popup-blocking among them.
 */
export async function chromiumArgs(options: { singleProcess: boolean; proxyUrl?: string }): Promise<string[]> {
  const serverless = safeChromiumFlags(options);
  // Keep the popup blocker where the browser has one. headless_shell has none (window.open still
  // answers a window): containStrays closes popups before their first request.
  const args = (await puppeteer.defaultArgs({ args: serverless, headless: 'shell' })).filter((flag) => flag !== '--disable-popup-blocking');
  args.push(
    // QUIC is UDP and would not go through an HTTP proxy; WebRTC may only use proxied (TCP) routes.
    '--disable-quic',
    '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
    '--webrtc-ip-handling-policy=disable_non_proxied_udp',
  );
  if (options.proxyUrl) args.push(`--proxy-server=${options.proxyUrl}`, '--proxy-bypass-list=<-loopback>');
  return args;
}

const versions = new WeakMap<Browser, Promise<string>>();

/** The browser's version string (e.g. "HeadlessChrome/153.0.8010.36"), asked of it once. */
export function versionOf(browser: Browser): Promise<string> {
  let version = versions.get(browser);
  if (!version) versions.set(browser, (version = browser.version()));
  return version;
}

/** One capture at a time: the default context of a single-process browser is shared state. */
class Mutex {
  private tail: Promise<void> = Promise.resolve();
  lock(): Promise<() => void> {
    let release!: () => void;
    const next = new Promise<void>((resolve) => (release = resolve));
    const acquired = this.tail.then(() => release);
    this.tail = this.tail.then(() => next);
    return acquired;
  }
}

export interface LocalChromiumOptions {
  /** The Chromium binary, asked for at each launch; @sparticuz/chromium's when absent. */
  executable?: () => Promise<string>;
  /** The capture fonts' folder, linked where its fonts.conf reads before each launch. */
  fonts?: string;
  singleProcess: boolean;
  egress: EgressProxyOptions;
  /** CDP calls that take longer fail (a hung browser must not hang the invocation). */
  protocolTimeoutMs: number;
}

/** The bundled Chromium, launched on first use and relaunched when it has died. */
export class LocalChromium implements BrowserBackend {
  readonly strategy = 'local-chromium' as const;
  private launching?: Promise<Browser>;
  private browser?: Browser;
  private proxy?: Promise<EgressProxy>;
  private readonly mutex = new Mutex();
  private readonly options: LocalChromiumOptions;

  constructor(options: LocalChromiumOptions) {
    this.options = options;
  }

  current(): Browser | undefined {
    return this.browser?.connected ? this.browser : undefined;
  }

  async acquire(): Promise<BrowserLease> {
    const release = this.options.singleProcess ? await this.mutex.lock() : () => undefined;
    try {
      const browser = await this.connected();
      return { browser, strategy: this.strategy, isolation: this.options.singleProcess ? 'reset' : 'context', proxied: true, release };
    } catch (error) {
      release();
      throw error;
    }
  }

  private async connected(): Promise<Browser> {
    if (this.browser?.connected) return this.browser;
    this.launching ??= this.launch().finally(() => (this.launching = undefined));
    return this.launching;
  }

  private async launch(): Promise<Browser> {
    const started = performance.now();
    try {
      this.proxy ??= startEgressProxy(this.options.egress);
      const proxy = await this.proxy;
      if (this.options.fonts) linkFonts(this.options.fonts);
      const browser = await puppeteer.launch({
        executablePath: await (this.options.executable ?? (() => chromium.executablePath()))(),
        headless: 'shell',
        args: await chromiumArgs({ singleProcess: this.options.singleProcess, proxyUrl: proxy.url }),
        ignoreDefaultArgs: true,
        defaultViewport: null,
        protocolTimeout: this.options.protocolTimeoutMs,
        // The container's own lifecycle (or the local runtime's stop) ends the browser.
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
      });
      await containStrays(browser).catch(async (error: unknown) => {
        await browser.close().catch(() => browser.process()?.kill('SIGKILL'));
        throw error;
      });
      browser.once('disconnected', () => {
        // Still current means nobody closed it on purpose: it crashed or was killed.
        if (this.browser !== browser) return;
        this.browser = undefined;
        log.warn('browser disconnected', { strategy: this.strategy });
      });
      this.browser = browser;
      log.info('browser launched', { strategy: this.strategy, ms: Math.round(performance.now() - started), version: await versionOf(browser) });
      return browser;
    } catch (error) {
      log.error('browser launch failed', { error: serializeError(error) });
      throw new UpstreamUnavailableError('The capture browser could not be started; retry later.', error);
    }
  }

  async close(): Promise<void> {
    const browser = this.browser ?? (await this.launching?.catch(() => undefined));
    this.browser = undefined;
    await browser?.close().catch(() => browser.process()?.kill('SIGKILL'));
    const proxy = await this.proxy?.catch(() => undefined);
    this.proxy = undefined;
    await proxy?.close();
  }
}

export interface RemoteBrowserOptions {
  /** The CDP WebSocket URL, e.g. ws://browser.internal:3000/devtools/browser/… */
  endpoint: string;
  /** Give up connecting after this long: an unreachable endpoint must answer 503 quickly. */
  connectTimeoutMs: number;
  protocolTimeoutMs: number;
}

/**
 * A browser elsewhere over CDP. No egress proxy can sit in front of it: interception still checks
 * requests and containStrays holds workers and popups, but DNS rebinding and WebSockets must be
 * contained by its own egress rules (docs/security.md).
 */
export class RemoteBrowser implements BrowserBackend {
  readonly strategy = 'remote-cdp' as const;
  private connecting?: Promise<Browser>;
  private browser?: Browser;
  private readonly options: RemoteBrowserOptions;

  constructor(options: RemoteBrowserOptions) {
    this.options = options;
  }

  current(): Browser | undefined {
    return this.browser?.connected ? this.browser : undefined;
  }

  async acquire(): Promise<BrowserLease> {
    const browser = this.browser?.connected ? this.browser : await (this.connecting ??= this.connect().finally(() => (this.connecting = undefined)));
    return { browser, strategy: this.strategy, isolation: 'context', proxied: false, release: () => undefined };
  }

  private async connect(): Promise<Browser> {
    let timer: NodeJS.Timeout | undefined;
    const connecting = puppeteer
      .connect({ browserWSEndpoint: this.options.endpoint, defaultViewport: null, protocolTimeout: this.options.protocolTimeoutMs })
      .then(async (browser) => {
        // No egress proxy sits in front of a remote browser: workers and popups must be held here.
        await containStrays(browser).catch(async (error: unknown) => {
          await browser.disconnect().catch(() => undefined);
          throw error;
        });
        return browser;
      });
    try {
      const browser = await Promise.race([
        connecting,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer in ${this.options.connectTimeoutMs} ms`)), this.options.connectTimeoutMs);
        }),
      ]);
      browser.once('disconnected', () => {
        if (this.browser === browser) this.browser = undefined;
      });
      this.browser = browser;
      return browser;
    } catch (error) {
      // A connection that completes after we gave up must not linger.
      connecting
        .then(
          (late) => late.disconnect(),
          () => undefined,
        )
        .catch(() => undefined);
      // The endpoint URL may embed a token: log the host only.
      log.warn('remote browser unreachable', { host: new URL(this.options.endpoint).host, error: serializeError(error) });
      throw new UpstreamUnavailableError('The remote capture browser cannot be reached; retry later.', error);
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    const browser = this.browser;
    this.browser = undefined;
    await browser?.disconnect().catch(() => undefined);
  }
}
