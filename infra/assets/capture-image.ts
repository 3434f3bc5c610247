/**
 * `node infra/assets/capture-image.ts <folder> <entries as JSON>`: the capture image's build context, laid out
 * as the image's file system (Chromium unpacked, the fonts, the bundles and their node_modules), with the
 * Dockerfile that copies it in. The stack's CaptureImage runs it at synth; Docker builds it at deploy.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, lstatSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { builtChromiumPack } from '#infra/assets/chromium.ts';
import { writeCleanCaptureAssets } from '#infra/assets/clean-capture.ts';
import { FONTS_MOUNT, buildFontLayer } from '#infra/assets/fonts.ts';
import { XRAY_PACKAGE } from '#infra/assets/xray.ts';
import { BUNDLE, PROJECT_ROOT, bundleOptions, xrayPackage } from '#infra/constructs/easel-function.ts';
import { installEnvironment, isElfFor, nativeProblems } from '#infra/constructs/native-modules.ts';
import { PACKED_EXECUTABLE, unpackChromium } from '#shared/services/capture/chromium-pack.ts';
import { scriptArguments } from '#infra/assets/script-arguments.ts';

/** The Dockerfile, committed beside the stack: its COPY lines name the folders below. */
export const DOCKERFILE = fileURLToPath(new URL('../capture-image/Dockerfile', import.meta.url));
/** Where the image holds each part; the build context holds it at the same path under its folder. */
export const IMAGE_PATHS = { chromium: '/opt/chromium', fonts: FONTS_MOUNT, task: '/var/task' } as const;
/** Under the task root: the bundles and the files they read beside them, next to the node_modules they share. */
const HANDLERS = 'handlers';
/** @sparticuz/chromium ships x64 binaries only. */
const CPU = 'x64';

/** What the capture function's environment says where the image keeps Chromium and the fonts. */
export const IMAGE_ENVIRONMENT = { CHROMIUM_PATH: `${IMAGE_PATHS.chromium}/${PACKED_EXECUTABLE}`, FONTCONFIG_PATH: IMAGE_PATHS.fonts } as const;

/** A function the image runs: its handler module (relative to the repository), its installed packages, its clean-capture files. */
export interface ImageEntry {
  handler: string;
  nodeModules: readonly string[];
  cleanCapture?: boolean;
}

const bundleName = (handler: string) => basename(handler, extname(handler));
/** Where `handler`'s bundle sits in the image. */
export const bundleFile = (handler: string): string => `${IMAGE_PATHS.task}/${HANDLERS}/${bundleName(handler)}.mjs`;
/** Lambda's command for `handler`: its module relative to the task root, and the export. */
export const imageCommand = (handler: string): string[] => [`${HANDLERS}/${bundleName(handler)}.handler`];
/** `imagePath` as it sits in the build context `folder`. */
export const inContext = (folder: string, imagePath: string): string => join(folder, imagePath);

/** Bundles `entry` as the stack bundles a zip function; returns whether it imports the X-Ray SDK. */
async function bundleInto(folder: string, entry: ImageEntry): Promise<boolean> {
  const { metafile } = await build({
    ...bundleOptions(entry.handler, entry.nodeModules),
    sourcemap: BUNDLE.sourcemap,
    sourcesContent: BUNDLE.sourcesContent,
    outfile: inContext(folder, bundleFile(entry.handler)),
    metafile: true,
    logLevel: 'error',
  });
  return Object.values(metafile.outputs).some((output) => output.imports.some((imported) => imported.external && imported.path === XRAY_PACKAGE));
}

/**
 * `npm ci` of `nodeModules` at the project's versions with Lambda's x64 binaries, as NodejsFunction installs
 * a zip function's; @sparticuz/chromium keeps its code, its brotli files give way to Chromium unpacked.
 */
function installPackages(task: string, nodeModules: readonly string[]): void {
  const { dependencies } = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  const wanted = Object.fromEntries(
    nodeModules.map((name) => {
      if (!dependencies[name]) throw new Error(`${name} is not a dependency in package.json`);
      return [name, dependencies[name]];
    }),
  );
  writeFileSync(join(task, 'package.json'), JSON.stringify({ dependencies: wanted }));
  cpSync(join(PROJECT_ROOT, 'package-lock.json'), join(task, 'package-lock.json'));
  execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel', 'error'], {
    cwd: task,
    env: { ...process.env, ...installEnvironment(CPU) },
    stdio: ['ignore', process.stderr, 'inherit'],
  });
  rmSync(join(task, 'node_modules', '@sparticuz', 'chromium', 'bin'), { recursive: true, force: true });
}

/**
 * Readable by all, and executable by all where the owner may execute: Lambda runs an image's code as an
 * unprivileged user, and the pack keeps the executable to its owner.
 */
function openModes(folder: string): void {
  for (const name of readdirSync(folder, { recursive: true, encoding: 'utf8' })) {
    const path = join(folder, name);
    const stat = lstatSync(path);
    if (stat.isDirectory()) chmodSync(path, 0o755);
    else if (stat.isFile()) chmodSync(path, (stat.mode & 0o777) | 0o444 | (stat.mode & 0o100 ? 0o111 : 0));
  }
}

/** Writes the image's build context into `folder` (created): everything the Dockerfile copies, and the Dockerfile. */
export async function writeCaptureImage(folder: string, entries: readonly ImageEntry[]): Promise<void> {
  const task = inContext(folder, IMAGE_PATHS.task);
  mkdirSync(task, { recursive: true });
  const tracing = await Promise.all(entries.map((entry) => bundleInto(folder, entry)));
  if (entries.some((entry) => entry.cleanCapture)) writeCleanCaptureAssets(inContext(folder, `${IMAGE_PATHS.task}/${HANDLERS}`));
  const nodeModules = [...new Set(entries.flatMap((entry) => entry.nodeModules))];
  installPackages(task, nodeModules);
  const problems = nativeProblems(
    task,
    nodeModules.filter((name) => name !== '@sparticuz/chromium'),
    CPU,
  );
  if (tracing.includes(true)) cpSync(xrayPackage(), join(task, 'node_modules', XRAY_PACKAGE), { recursive: true });
  const executable = await unpackChromium(await builtChromiumPack(), inContext(folder, IMAGE_PATHS.chromium));
  if (!isElfFor(executable, CPU)) problems.push(`${executable} is not a Linux ${CPU} binary`);
  if (problems.length > 0) throw new Error(`The capture image cannot run on Lambda linux-${CPU}: ${problems.join('; ')}`);
  await buildFontLayer(inContext(folder, IMAGE_PATHS.fonts), IMAGE_PATHS.fonts);
  cpSync(DOCKERFILE, join(folder, 'Dockerfile'));
  openModes(folder);
}

if (import.meta.main) {
  const [folder, entries] = scriptArguments('node infra/assets/capture-image.ts <folder> <entries as JSON>');
  await writeCaptureImage(resolve(folder!), JSON.parse(entries!) as ImageEntry[]);
}
