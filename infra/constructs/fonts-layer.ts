/** The capture fonts (infra/assets/fonts.ts) as one layer per stack, whose fonts/ folder Lambda mounts at FONTS_MOUNT. */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AssetHashType, DockerImage, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Architecture, Code, LayerVersion, Runtime } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { fontLayerKey } from '#infra/assets/fonts.ts';

const ASSETS = fileURLToPath(new URL('../assets/', import.meta.url));
const ID = 'CaptureFonts';

export class FontsLayer extends LayerVersion {
  /** The stack's layer, made on first use. */
  static of(scope: Construct): FontsLayer {
    const stack = Stack.of(scope);
    return (stack.node.tryFindChild(ID) as FontsLayer | undefined) ?? new FontsLayer(stack, ID);
  }

  private constructor(scope: Construct, id: string) {
    super(scope, id, {
      description: 'Easel capture fonts: Noto faces, the fonts.conf naming them and its fontconfig cache (infra/assets/fonts.ts)',
      code: Code.fromAsset(ASSETS, {
        // Named by the font packages' and Chromium's versions: no hashing of the fonts on every synth.
        assetHashType: AssetHashType.CUSTOM,
        assetHash: fontLayerKey(),
        bundling: {
          // Never pulled: the local bundling below always runs or throws.
          image: DockerImage.fromRegistry('public.ecr.aws/docker/library/node:24'),
          local: {
            tryBundle(outputDir) {
              execFileSync(process.execPath, [join(ASSETS, 'fonts.ts'), join(outputDir, 'fonts')], { stdio: 'inherit' });
              return true;
            },
          },
        },
      }),
      compatibleRuntimes: [Runtime.NODEJS_24_X],
      compatibleArchitectures: [Architecture.X86_64, Architecture.ARM_64],
      license: 'OFL-1.1',
      removalPolicy: RemovalPolicy.DESTROY,
    });
  }
}
