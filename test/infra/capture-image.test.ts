/**
 * `-c captureImage=true`: the functions that run Chromium as one container image, synthesised offline
 * without Docker (the image is only built by `cdk deploy`), with the zip functions' grants and settings.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCKERFILE, IMAGE_ENVIRONMENT, IMAGE_PATHS, imageCommand } from '#infra/assets/capture-image.ts';
import { easelPropsFromContext } from '#infra/context.ts';
import { EaselStack } from '#infra/stack.ts';
import { QUEUES } from '#shared/resources.ts';
import { ROUTES } from '#shared/routes.ts';
import { logicalId, newApp, removeCdkOutdirs, wholeTemplate } from '../support/cdk.ts';

interface CfnFunction {
  Properties: Record<string, unknown> & { Environment: { Variables: Record<string, unknown> }; Role: { 'Fn::GetAtt': [string, string] } };
}
interface DockerImageEntry {
  source: { directory: string; platform?: string };
  destinations: Record<string, { repositoryName: unknown; imageTag: string }>;
}

afterAll(removeCdkOutdirs);

function synth(props: { captureImage?: boolean }): { stack: EaselStack; template: Template; dockerImages: Record<string, DockerImageEntry> } {
  const app = newApp();
  const stack = new EaselStack(app, 'Easel', { alarmTarget: { email: 'ops@easel.test' }, ...props });
  const template = wholeTemplate(stack);
  const manifest = JSON.parse(readFileSync(join(app.outdir, 'Easel.assets.json'), 'utf8')) as { dockerImages?: Record<string, DockerImageEntry> };
  return { stack, template, dockerImages: manifest.dockerImages ?? {} };
}

const CHROMIUM_FUNCTIONS = [
  { name: 'the capture function', handler: ROUTES.capturePage.handler, memory: ROUTES.capturePage.memory, timeout: ROUTES.capturePage.timeout },
  { name: 'the shot worker', handler: QUEUES.shots.worker.handler, memory: QUEUES.shots.worker.memory, timeout: QUEUES.shots.worker.timeout },
];

describe('EaselStack with captureImage', () => {
  let zip: ReturnType<typeof synth>;
  let image: ReturnType<typeof synth>;
  const fn = (of: ReturnType<typeof synth>, handler: string): CfnFunction => {
    const construct = handler === ROUTES.capturePage.handler ? of.stack.routeFunctions.get('capturePage')! : of.stack.workerFunctions.get('shots')!;
    return of.template.toJSON().Resources[logicalId(construct)] as CfnFunction;
  };
  const policiesOf = (of: ReturnType<typeof synth>, roleId: string) =>
    Object.entries(of.template.findResources('AWS::IAM::Policy')).filter(([, policy]) => JSON.stringify(policy.Properties.Roles).includes(`"${roleId}"`));

  beforeAll(() => {
    // Prepare + Act: no Docker on this machine; bundling skipped, as asset hashes are not under test.
    zip = synth({});
    image = synth({ captureImage: true });
  });

  it.each(CHROMIUM_FUNCTIONS)(
    'makes $name a function of the capture image in ECR, with its own command, on x86_64 with its memory',
    ({ handler, memory, timeout }) => {
      // Prepare
      const [hash, asset] = Object.entries(image.dockerImages)[0]!;
      const destination = Object.values(asset.destinations)[0]!;

      // Assess
      expect(destination.imageTag).toBe(hash);
      expect(fn(image, handler).Properties).toMatchObject({
        PackageType: 'Image',
        Code: {
          ImageUri: {
            'Fn::Join': [
              '',
              [
                { Ref: 'AWS::AccountId' },
                '.dkr.ecr.',
                { Ref: 'AWS::Region' },
                '.',
                { Ref: 'AWS::URLSuffix' },
                '/',
                { 'Fn::Sub': destination.repositoryName },
                `:${hash}`,
              ],
            ],
          },
        },
        ImageConfig: { Command: imageCommand(handler) },
        Architectures: ['x86_64'],
        MemorySize: memory,
        Timeout: timeout,
        TracingConfig: { Mode: 'Active' },
      });
      expect(fn(image, handler).Properties).not.toHaveProperty('Runtime');
      expect(fn(image, handler).Properties).not.toHaveProperty('Layers');
    },
  );

  it('builds one image for both, for linux/amd64, from a folder with the Dockerfile', () => {
    // Assess
    expect(Object.values(image.dockerImages).map((asset) => asset.source)).toEqual([
      { directory: expect.stringMatching(/^asset\.[0-9a-f]{64}$/), platform: 'linux/amd64' },
    ]);
    expect(zip.dockerImages).toEqual({});
  });

  it.each(CHROMIUM_FUNCTIONS)(
    "points $name at Chromium and the fonts in the image instead of the pack and the layer, its other settings the zip function's",
    ({ handler }) => {
      // Prepare
      const { CHROMIUM_PACK, ...zipVariables } = fn(zip, handler).Properties.Environment.Variables;

      // Assess
      expect(CHROMIUM_PACK).toBe('/var/task/chromium');
      expect(fn(image, handler).Properties.Environment.Variables).toEqual({ ...zipVariables, ...IMAGE_ENVIRONMENT });
      expect(IMAGE_ENVIRONMENT).toEqual({ CHROMIUM_PATH: '/opt/chromium/chromium', FONTCONFIG_PATH: zipVariables.FONTCONFIG_PATH });
    },
  );

  it.each(CHROMIUM_FUNCTIONS)('grants $name exactly what the zip function is granted', ({ handler }) => {
    // Prepare
    const roleId = fn(zip, handler).Properties.Role['Fn::GetAtt'][0];

    // Assess
    expect(fn(image, handler).Properties.Role['Fn::GetAtt'][0]).toBe(roleId);
    expect(policiesOf(image, roleId)).toEqual(policiesOf(zip, roleId));
    expect(policiesOf(image, roleId)).toHaveLength(1);
  });

  it('keeps every other function a zip function, and drops the fonts layer no function mounts', () => {
    // Prepare
    const functions = (of: ReturnType<typeof synth>) => Object.entries(of.template.findResources('AWS::Lambda::Function'));
    const images = functions(image).filter(([, props]) => props.Properties.PackageType === 'Image');

    // Assess
    expect(images.map(([id]) => id).sort()).toEqual(
      CHROMIUM_FUNCTIONS.map(({ handler }) =>
        logicalId(handler === ROUTES.capturePage.handler ? image.stack.routeFunctions.get('capturePage')! : image.stack.workerFunctions.get('shots')!),
      ).sort(),
    );
    expect(functions(image).filter(([, props]) => props.Properties.Runtime === 'nodejs24.x')).toHaveLength(functions(zip).length - 2);
    expect(Object.keys(image.template.findResources('AWS::Lambda::LayerVersion'))).toEqual([]);
    expect(Object.keys(zip.template.findResources('AWS::Lambda::LayerVersion'))).toHaveLength(1);
  });
});

describe('captureImage in CDK context', () => {
  it.each([
    ['true', true],
    ['false', false],
  ])('reads -c captureImage=%s', (value, expected) => {
    expect(easelPropsFromContext(new App({ context: { captureImage: value } })).captureImage).toBe(expected);
  });

  it('is off without it, and refuses a value other than true or false', () => {
    expect(easelPropsFromContext(new App()).captureImage).toBeUndefined();
    expect(() => easelPropsFromContext(new App({ context: { captureImage: 'yes' } }))).toThrow('Context captureImage must be true or false, got yes');
  });
});

describe('the capture image Dockerfile', () => {
  const dockerfile = readFileSync(DOCKERFILE, 'utf8');
  const instructions = dockerfile
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'))
    .map((line) => line.split(' ')[0]);

  it("builds on AWS's Node.js 24 base image, and only copies and sets variables: no command runs, nothing is fetched", () => {
    expect(dockerfile).toMatch(/^FROM public\.ecr\.aws\/lambda\/nodejs:24$/m);
    expect(new Set(instructions)).toEqual(new Set(['FROM', 'COPY', 'ENV']));
  });

  it('copies each part to where the functions look for it, from the same path in its folder', () => {
    // Prepare
    const copies = [...dockerfile.matchAll(/^COPY (\S+) (\S+)$/gm)].map(([, from, to]) => [from, to]);

    // Assess
    expect(copies).toEqual([
      [`${IMAGE_PATHS.chromium.slice(1)}/`, `${IMAGE_PATHS.chromium}/`],
      [`${IMAGE_PATHS.fonts.slice(1)}/`, `${IMAGE_PATHS.fonts}/`],
      [`${IMAGE_PATHS.task.slice(1)}/node_modules/`, `${IMAGE_PATHS.task}/node_modules/`],
      [`${IMAGE_PATHS.task.slice(1)}/handlers/`, `${IMAGE_PATHS.task}/handlers/`],
    ]);
    expect(IMAGE_ENVIRONMENT.CHROMIUM_PATH.startsWith(`${IMAGE_PATHS.chromium}/`)).toBe(true);
    expect(dockerfile).toMatch(new RegExp(`^ENV LD_LIBRARY_PATH=\\$\\{LD_LIBRARY_PATH\\}:${IMAGE_PATHS.chromium}/al2023/lib$`, 'm'));
  });
});
