/** blockBanners' script and blockAds' engine: files beside the bundle, or builders the local runtime and tests hand in. */
import type { ConsentAsset } from '#shared/services/capture/consent-asset.ts';

export interface CleanAssetBuilders {
  consent(): Promise<ConsentAsset>;
  adEngine(): Promise<Uint8Array>;
}

let builders: CleanAssetBuilders | undefined;

/** Called by the local runtime (and the tests' set-up), never on Lambda. */
export function buildCleanAssetsLocally(given: CleanAssetBuilders): void {
  builders = given;
}

/** undefined: read the files beside the bundle. */
export function localCleanAssets(): CleanAssetBuilders | undefined {
  return builders;
}
