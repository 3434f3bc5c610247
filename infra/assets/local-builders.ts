/** The clean-capture assets built from node_modules on first use, for the local runtime and the tests. */
import type { CleanAssetBuilders } from '#shared/services/capture/clean-assets.ts';

export const LOCAL_CLEAN_ASSETS: CleanAssetBuilders = {
  consent: async () => (await import('#infra/assets/consent-script.ts')).cachedConsentAsset(),
  adEngine: async () => (await import('#infra/assets/ad-engine.ts')).cachedAdEngine(),
};
