/**
 * The functions that run the capture's Chromium as one container image (-c captureImage=true), Chromium
 * unpacked in it: synth writes the image's folder without Docker; `cdk deploy` builds and pushes it.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AssetStaging, Stack } from 'aws-cdk-lib';
import { DockerImageAsset, Platform } from 'aws-cdk-lib/aws-ecr-assets';
import { Architecture, DockerImageCode, DockerImageFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { DOCKERFILE, IMAGE_ENVIRONMENT, imageCommand } from '#infra/assets/capture-image.ts';
import type { ImageEntry } from '#infra/assets/capture-image.ts';
import { acknowledgeXRay, sharedFunctionProps } from '#infra/constructs/easel-function.ts';
import type { EaselFunctionProps } from '#infra/constructs/easel-function.ts';
import { QUEUES } from '#shared/resources.ts';
import type { QueueDef } from '#shared/resources.ts';
import { ROUTE_LIST } from '#shared/routes.ts';

const WRITER = fileURLToPath(new URL('../assets/capture-image.ts', import.meta.url));

/** The functions that run Chromium (`chromiumPack`), routes and queue workers, as the image holds them. */
export function chromiumEntries(): ImageEntry[] {
  const functions = [...ROUTE_LIST, ...Object.values(QUEUES).map((queue: QueueDef) => queue.worker)].filter((fn) => fn.chromiumPack);
  return functions.map((fn) => ({ handler: fn.handler, nodeModules: fn.nodeModules ?? [], cleanCapture: fn.cleanCapture }));
}

/** One image for every function that runs Chromium, each with its own command; its Chromium layers are shared. */
export class CaptureImage extends Construct {
  readonly asset: DockerImageAsset;
  private readonly handlers: ReadonlySet<string>;

  constructor(scope: Construct, id: string, props: { entries: readonly ImageEntry[] }) {
    super(scope, id);
    this.handlers = new Set(props.entries.map((entry) => entry.handler));
    const folder = mkdtempSync(join(tmpdir(), 'easel-capture-image-'));
    // Synth's own Node strips the types; its output goes where the bundlers' does, off the template's stdout.
    if (Stack.of(this).bundlingRequired) {
      execFileSync(process.execPath, [WRITER, folder, JSON.stringify(props.entries)], { stdio: ['ignore', process.stderr, 'inherit'] });
    } else {
      // A synth that skips bundling (template tests) builds no image: the Dockerfile alone names one.
      cpSync(DOCKERFILE, join(folder, 'Dockerfile'));
    }
    this.asset = new DockerImageAsset(this, 'Image', { directory: folder, platform: Platform.LINUX_AMD64, displayName: 'Easel capture image' });
    // Copied into the cloud assembly by now, unless asset staging is off: then Docker reads the folder itself.
    if ((this.asset.node.findChild('Staging') as AssetStaging).absoluteStagedPath !== folder) rmSync(folder, { recursive: true, force: true });
  }

  /** The code of a function that runs `handler` from this image. */
  code(handler: string): DockerImageCode {
    if (!this.handlers.has(handler)) throw new Error(`${this.node.path}: the image holds no bundle of ${handler}`);
    return DockerImageCode.fromEcr(this.asset.repository, { tagOrDigest: this.asset.imageTag, cmd: imageCommand(handler) });
  }
}

/** A function of the capture image, with every Easel function's defaults; x86_64, as Chromium ships. */
export class CaptureImageFunction extends DockerImageFunction {
  constructor(scope: Construct, id: string, props: EaselFunctionProps & { image: CaptureImage }) {
    if (props.editorAssets || props.prerendered) throw new Error(`${scope.node.path}/${id}: the capture image holds neither the editor nor pre-rendered pages`);
    const shared = sharedFunctionProps(scope, id, props);
    super(scope, id, { ...shared, code: props.image.code(props.entry), architecture: Architecture.X86_64 });
    acknowledgeXRay(shared.role);
    for (const [name, value] of Object.entries(IMAGE_ENVIRONMENT)) this.addEnvironment(name, value);
  }
}
