/**
 * The capture image's folder as `cdk synth` stages it for Docker (infra/assets/capture-image.ts), made
 * here with no Docker, and the capture handler run from it in a fresh process with an empty TMPDIR,
 * Chromium and the fonts taken where the image keeps them.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { App, type AssetStaging, Stack } from 'aws-cdk-lib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMAGE_ENVIRONMENT, IMAGE_PATHS, bundleFile, inContext } from '#infra/assets/capture-image.ts';
import { fontLinksFor, fontsConf } from '#infra/assets/fonts.ts';
import { CaptureImage, chromiumEntries } from '#infra/constructs/capture-image.ts';
import { isElfFor, nativeProblems } from '#infra/constructs/native-modules.ts';
import { ROUTES } from '#shared/routes.ts';
import { AD_ENGINE_FILE } from '#shared/services/capture/ad-blocking.ts';
import { AUTOCONSENT_FILE } from '#shared/services/capture/consent-asset.ts';
import { FONT_PROBES, NOTDEF_BOX, boxAt, boxPixels, difference, startFontPages } from '../support/font-pages.ts';
import type { FontPages } from '../support/font-pages.ts';
import { startTestRuntime } from '../support/local.ts';
import type { TestRuntime } from '../support/local.ts';

const run = promisify(execFile);
const scratch = mkdtempSync(join(tmpdir(), 'easel-capture-image-test-'));
let folder: string;

/** LD_LIBRARY_PATH as the Dockerfile's ENV line makes it: the base image's, then the folders it appends. */
function libraryPath(dockerfile: string): string {
  const appended = /^ENV LD_LIBRARY_PATH=\$\{LD_LIBRARY_PATH\}:(.+)$/m.exec(dockerfile)?.[1];
  if (!appended) throw new Error('The Dockerfile sets no LD_LIBRARY_PATH');
  return [process.env.LD_LIBRARY_PATH, ...appended.split(':').map((path) => inContext(folder, path))].filter(Boolean).join(':');
}

beforeAll(() => {
  // Prepare + Act: as `cdk synth` does, with any call to Docker bound to fail.
  const saved = process.env.CDK_DOCKER;
  process.env.CDK_DOCKER = join(scratch, 'no-docker');
  try {
    const app = new App({ outdir: join(scratch, 'cdk.out'), builtinCloudFormationValidation: false });
    const image = new CaptureImage(new Stack(app, 'Image'), 'CaptureImage', { entries: chromiumEntries() });
    app.synth();
    folder = (image.asset.node.findChild('Staging') as AssetStaging).absoluteStagedPath;
  } finally {
    if (saved === undefined) delete process.env.CDK_DOCKER;
    else process.env.CDK_DOCKER = saved;
  }
}, 300_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the capture image folder', () => {
  it('holds every folder the Dockerfile copies, in the cloud assembly', () => {
    // Prepare
    const dockerfile = readFileSync(join(folder, 'Dockerfile'), 'utf8');
    const sources = [...dockerfile.matchAll(/^COPY (\S+) \S+$/gm)].map(([, from]) => from!);

    // Assess
    expect(folder.startsWith(join(scratch, 'cdk.out', 'asset.'))).toBe(true);
    expect(sources.length).toBeGreaterThan(0);
    for (const source of sources) expect(lstatSync(join(folder, source)).isDirectory(), source).toBe(true);
  });

  it("holds Chromium unpacked for Linux x64, every file readable and every executable runnable by Lambda's unprivileged user", () => {
    // Prepare
    const executable = inContext(folder, IMAGE_ENVIRONMENT.CHROMIUM_PATH);
    const files = readdirSync(folder, { recursive: true, encoding: 'utf8' })
      .map((name) => join(folder, name))
      .filter((path) => lstatSync(path).isFile());

    // Assess
    expect(isElfFor(executable, 'x64')).toBe(true);
    expect(lstatSync(executable).mode & 0o777).toBe(0o755);
    expect(files.filter((path) => (lstatSync(path).mode & 0o444) !== 0o444)).toEqual([]);
    expect(files.filter((path) => lstatSync(path).mode & 0o100 && (lstatSync(path).mode & 0o111) !== 0o111)).toEqual([]);
    expect(existsSync(join(inContext(folder, IMAGE_PATHS.chromium), 'al2023', 'lib', 'libnss3.so'))).toBe(true);
  });

  it("holds both bundles, their clean-capture files, sharp's Linux x64 build and @sparticuz/chromium's code without its brotli files", () => {
    // Prepare
    const task = inContext(folder, IMAGE_PATHS.task);
    const handlers = inContext(folder, `${IMAGE_PATHS.task}/handlers`);

    // Assess
    for (const entry of chromiumEntries()) expect(existsSync(inContext(folder, bundleFile(entry.handler))), entry.handler).toBe(true);
    expect(readdirSync(handlers).sort()).toEqual(
      [AD_ENGINE_FILE, AUTOCONSENT_FILE, 'capture-page.mjs', 'capture-page.mjs.map', 'process-shot.mjs', 'process-shot.mjs.map'].sort(),
    );
    expect(nativeProblems(task, ['sharp'], 'x64')).toEqual([]);
    expect(existsSync(join(task, 'node_modules', '@sparticuz', 'chromium', 'build', 'index.js'))).toBe(true);
    expect(existsSync(join(task, 'node_modules', '@sparticuz', 'chromium', 'bin'))).toBe(false);
    expect(existsSync(join(task, 'node_modules', 'aws-xray-sdk-core', 'index.mjs'))).toBe(true);
  });

  it('holds the capture fonts with their fontconfig file and cache, written for where the image keeps them', () => {
    // Prepare
    const fonts = inContext(folder, IMAGE_PATHS.fonts);

    // Assess
    expect(readFileSync(join(fonts, 'fonts.conf'), 'utf8')).toBe(fontsConf({ dir: fontLinksFor(IMAGE_PATHS.fonts) }));
    expect(readdirSync(join(fonts, 'cache')).filter((name) => /-le64\.cache-\d+$/.test(name))).toHaveLength(1);
  });

  it("makes the loader take Chromium's NSS from the folder with LD_LIBRARY_PATH as the Dockerfile sets it", () => {
    // Act
    const linked = execFileSync('ldd', [inContext(folder, IMAGE_ENVIRONMENT.CHROMIUM_PATH)], {
      env: { ...process.env, LD_LIBRARY_PATH: libraryPath(readFileSync(join(folder, 'Dockerfile'), 'utf8')) },
      encoding: 'utf8',
    });

    // Assess
    expect(linked).toContain(`libnss3.so => ${join(inContext(folder, IMAGE_PATHS.chromium), 'al2023', 'lib', 'libnss3.so')}`);
    expect(linked).not.toContain('not found');
  });
});

describe('the capture handler run from the image folder', () => {
  let runtime: TestRuntime;
  let pages: FontPages;
  let answer: { statusCode: number; body: string };
  let tmp: string;

  beforeAll(async () => {
    // Prepare: the embedded backends for the cache and the rate limit; the page of every script and an emoji.
    pages = await startFontPages();
    runtime = await startTestRuntime();
    tmp = mkdtempSync(join(scratch, 'tmp-'));
    // The links folder is named by where the fonts sit in the image: one left by an earlier run points at its deleted folder.
    rmSync(fontLinksFor(IMAGE_PATHS.fonts), { recursive: true, force: true });
    const event = {
      version: '2.0',
      routeKey: `${ROUTES.capturePage.method} ${ROUTES.capturePage.path}`,
      rawPath: ROUTES.capturePage.path,
      rawQueryString: '',
      headers: { 'content-type': 'application/json' },
      requestContext: { http: { method: ROUTES.capturePage.method, path: ROUTES.capturePage.path, sourceIp: '203.0.113.7' }, requestId: 'image' },
      body: JSON.stringify({ url: `${pages.origin}/scripts`, forceRefresh: true }),
      isBase64Encoded: false,
    };
    const script = `
      const { handler } = await import(${JSON.stringify(inContext(folder, bundleFile(ROUTES.capturePage.handler)))});
      const result = await handler(${JSON.stringify(event)}, { awsRequestId: 'image', getRemainingTimeInMillis: () => 28_000 });
      process.stdout.write(JSON.stringify(result));
      process.exit(0);`;
    const { CHROMIUM_PACK: _pack, ...inherited } = process.env;

    // Act: a new container's process, as the runtime's bootstrap starts it in the image.
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
      env: {
        ...inherited,
        ...runtime.env,
        NODE_OPTIONS: '',
        LOG_LEVEL: 'silent',
        UNSAFE_TEST_LOOPBACK_PORTS: String(pages.port),
        AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs24.x',
        CHROMIUM_SINGLE_PROCESS: 'true',
        CAPTURE_PRELAUNCH: 'launch',
        TMPDIR: tmp,
        CHROMIUM_PATH: inContext(folder, IMAGE_ENVIRONMENT.CHROMIUM_PATH),
        FONTCONFIG_PATH: inContext(folder, IMAGE_ENVIRONMENT.FONTCONFIG_PATH),
        LD_LIBRARY_PATH: libraryPath(readFileSync(join(folder, 'Dockerfile'), 'utf8')),
      },
      maxBuffer: 64 * 2 ** 20,
    });
    answer = JSON.parse(stdout) as typeof answer;
  }, 180_000);

  afterAll(async () => {
    await runtime?.dispose();
    await pages?.close();
  });

  it('answers a fresh 1920×1080 capture by the local Chromium, having unpacked nothing into the empty TMPDIR', async () => {
    // Prepare
    const { screenshot, ...rest } = JSON.parse(answer.body) as { screenshot: string };

    // Assess
    expect(answer.statusCode).toBe(200);
    expect(rest).toEqual({
      url: `${pages.origin}/scripts`,
      cached: false,
      strategy: 'local-chromium',
      deviceType: 'desktop',
      colorScheme: 'light',
      report: { status: 200, images: { found: 0, loaded: 0 }, fontsReady: true, requests: { total: 1, refused: 0, blockedAds: 0 }, settled: true },
    });
    expect(await sharp(Buffer.from(screenshot, 'base64')).metadata()).toMatchObject({ format: 'png', width: 1920, height: 1080 });
    expect(readdirSync(tmp).filter((name) => name === 'chromium' || name === 'al2023' || name.includes('.partial'))).toEqual([]);
  });

  it("draws every script with the folder's fonts, and the emoji in colour", async () => {
    // Prepare
    const png = Buffer.from((JSON.parse(answer.body) as { screenshot: string }).screenshot, 'base64');
    const notdef = await boxPixels(png, NOTDEF_BOX);

    // Act
    const boxes = await Promise.all(FONT_PROBES.map((_probe, index) => boxPixels(png, boxAt(index))));

    // Assess
    expect(notdef.ink).toBeGreaterThan(0);
    expect(FONT_PROBES.filter((_probe, index) => boxes[index]!.ink <= 40 || difference(boxes[index]!, notdef) <= 0.02).map((probe) => probe.id)).toEqual([]);
    expect(boxes[FONT_PROBES.findIndex((probe) => probe.id === 'emoji')]!.coloured).toBeGreaterThan(400);
  });
});
