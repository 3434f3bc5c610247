/**
 * What blockBanners injects (docs/capture.md, "Clean captures"): autoconsent's library, minified,
 * started by a small entry on the rules the capture hands it, and autoconsent's compact rules.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { IndexedCMPRuleset } from '@duckduckgo/autoconsent';
import { buildSync } from 'esbuild';
import { CONSENT_RULES_PARAMETER } from '#shared/services/capture/consent-asset.ts';
import type { ConsentAsset } from '#shared/services/capture/consent-asset.ts';

/** autoconsent's sources: the library and its heuristics' words, which its package entry does not export. */
const LIBRARY = join(dirname(createRequire(import.meta.url).resolve('@duckduckgo/autoconsent')), '..', 'lib');

// Runs in each document on the rules passed as a JSON string (parsed faster than the same data as a literal).
const ENTRY = `import AutoConsent, { filterCompactRules } from ${JSON.stringify(join(LIBRARY, 'web.ts'))};
import * as heuristics from ${JSON.stringify(join(LIBRARY, 'heuristics.ts'))};
import { BUTTON_NEVER_MATCH_PATTERNS } from ${JSON.stringify(join(LIBRARY, 'heuristic-patterns.ts'))};
import { startConsent } from '#shared/services/capture/consent-page.ts';
startConsent({ AutoConsent, filterCompactRules, heuristics, neverMatch: BUTTON_NEVER_MATCH_PATTERNS }, JSON.parse(${CONSENT_RULES_PARAMETER}));`;

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
