// Where blockBanners' script and blockAds' engine come from: files beside the bundle, or, in the local runtime
// and tests, builders from node_modules that they hand in.
import type { ConsentAsset } from '#shared/services/capture/consent-asset.ts';

export interface CleanAssetBuilders {
  consent(): Promise<ConsentAsset>;
  /** The serialized @ghostery/adblocker engine. */
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
