/** The capture's ad engine (docs/dependencies.md, "Clean captures"): AdGuard's filters from @adguard/dnr-rulesets, parsed by @ghostery/adblocker. */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { FiltersEngine } from '@ghostery/adblocker';

/** AdGuard Base: EasyList + AdGuard English (Tracking Protection would add 6 MB of rules for requests that draw nothing). */
export const AD_LISTS = [2] as const;

/** Rules a capture has no use for: scriptlets, JS/CSS injection, HTML filtering, redirects, popups, CSP. */
const UNUSED =
  /#[$%?@]*[$%?]#|\$\$|#\?#|\$.*\b(redirect|redirect-rule|removeparam|csp|permissions|replace|header|popup|cookie|stealth|jsonprune|urltransform|hls|document)\b/;

function rulesetFile(id: number): string {
  const root = dirname(createRequire(import.meta.url).resolve('@adguard/dnr-rulesets/package.json'));
  return join(root, 'dist', 'filters', 'declarative', `ruleset_${id}`, `ruleset_${id}.json`);
}

/** The raw filter text of AdGuard list `id`, as the package ships it inside its DNR ruleset. */
export function rawList(id: number): string {
  const ruleset = JSON.parse(readFileSync(rulesetFile(id), 'utf8')) as [{ metadata: { rawFilterList: string } }];
  return ruleset[0].metadata.rawFilterList;
}

/** Network and element-hiding rules of the lists, parsed and serialized. */
export function buildAdEngine(): Uint8Array {
  const kept = AD_LISTS.flatMap((id) => rawList(id).split(/\r?\n/)).filter((line) => line && !line.startsWith('!') && !UNUSED.test(line));
  const engine = FiltersEngine.parse(kept.join('\n'), {
    loadNetworkFilters: true,
    loadCosmeticFilters: true,
    loadGenericCosmeticsFilters: true,
    loadExtendedSelectors: false,
    loadCSPFilters: false,
    enableHtmlFiltering: false,
    enableCompression: true,
    loadPreprocessors: false,
  });
  return engine.serialize();
}

let built: Uint8Array | undefined;

/** Built once per process for local runs and tests, and kept under a hash of its inputs in node_modules/.cache/easel: parsing takes seconds. */
export function cachedAdEngine(): Uint8Array {
  built ??= readOrBuild();
  return built;
}

function readOrBuild(): Uint8Array {
  const hash = createHash('sha256');
  for (const id of AD_LISTS) hash.update(readFileSync(rulesetFile(id)));
  hash.update(readFileSync(import.meta.filename));
  hash.update(readFileSync(createRequire(import.meta.url).resolve('@ghostery/adblocker/package.json')));
  // The project's own cache folder, as build tools keep theirs: no other user can write there, as one could in /tmp.
  const folder = join(import.meta.dirname, '..', '..', 'node_modules', '.cache', 'easel');
  const file = join(folder, `ad-engine-${hash.digest('hex').slice(0, 16)}.bin`);
  try {
    return readFileSync(file);
  } catch {
    const engine = buildAdEngine();
    // Renamed into place whole, so a process reading it at the same time never sees part of it.
    const partial = `${file}.${process.pid}`;
    try {
      mkdirSync(folder, { recursive: true });
      writeFileSync(partial, engine);
      renameSync(partial, file);
    } catch {
      // Without a writable cache folder each process builds its own.
    }
    return engine;
  }
}
