/**
 * What blockBanners injects (docs/capture.md, "Clean captures"): autoconsent's library, minified,
 * started by a small entry on the rules the capture hands it, and autoconsent's compact rules.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { IndexedCMPRuleset } from '@duckduckgo/autoconsent';
import { buildSync } from 'esbuild';
import { CONSENT_RULES_PARAMETER } from '#shared/services/capture/consent-asset.ts';
import type { ConsentAsset } from '#shared/services/capture/consent-asset.ts';

/**
 * The standalone build's settings without its console logs (each one a CDP event) and without
 * recording heuristic text patterns, which reads the page's innerText on every pass and which
 * nothing here acts on; the heuristic dialog detection (`heuristicMode`) stays on.
 */
const CONFIG = {
  isMainWorld: true,
  enableHeuristicDetection: false,
  heuristicMode: 'tier2',
  enablePopupMutationObserver: false,
  logs: { lifecycle: false, rulesteps: false, detectionsteps: false, evals: false, errors: false, messages: false, waits: false },
};

// Runs in each document, as autoconsent's standalone build does, on the rules passed as a JSON string
// (parsed faster than the same data as a literal).
const ENTRY = `import AutoConsent, { filterCompactRules } from '@duckduckgo/autoconsent';
if (!window.autoconsentStandalone) {
  const compact = filterCompactRules(JSON.parse(${CONSENT_RULES_PARAMETER}), { url: location.href, mainFrame: window.top === window });
  const instance = new AutoConsent(() => Promise.resolve());
  window.autoconsentStandalone = { instance };
  instance.initialize(${JSON.stringify(CONFIG)}, { autoconsent: [], compact });
}`;

/** The script (expecting the rules as `CONSENT_RULES_PARAMETER`) and the rules. */
export function buildConsentAsset(): ConsentAsset {
  const require = createRequire(import.meta.url);
  const { outputFiles } = buildSync({
    stdin: { contents: ENTRY, resolveDir: import.meta.dirname, loader: 'js' },
    bundle: true,
    write: false,
    format: 'iife',
    minify: true,
    target: 'chrome120',
  });
  const rules = JSON.parse(readFileSync(require.resolve('@duckduckgo/autoconsent/rules/compact-rules.json'), 'utf8')) as IndexedCMPRuleset;
  return { script: outputFiles[0]!.text, rules };
}

let built: ConsentAsset | undefined;

/** Built once per process, for the local runtime and tests. */
export function cachedConsentAsset(): ConsentAsset {
  built ??= buildConsentAsset();
  return built;
}
