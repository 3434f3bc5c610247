import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { Metafile } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { bundleOptions, PROJECT_ROOT } from '#infra/constructs/easel-function.ts';
import { QUEUES } from '#shared/resources.ts';
import { FALLBACK, ROUTE_LIST } from '#shared/routes.ts';
import type { RouteRow } from '#shared/route-types.ts';

// Routes that touch no table, bucket or queue must not carry (or construct at cold start) AWS SDK
// clients: what route() and the shared middlewares import lands in every function.
const untouched = ROUTE_LIST.filter((row) => Object.values(row.access).every((grants) => Object.keys(grants ?? {}).length === 0));

describe('bundles of routes without AWS access', () => {
  it.each(untouched.map((row) => [row.operationId, row.handler] as const))('keeps the AWS SDK out of %s', async (_operationId, entry) => {
    // Act
    const result = await build({
      entryPoints: [entry],
      bundle: true,
      write: false,
      platform: 'node',
      format: 'esm',
      target: 'node24',
      metafile: true,
      logLevel: 'silent',
    });

    // Assess
    const sdk = Object.keys(result.metafile.inputs).filter((input) => input.includes('node_modules/@aws-sdk/'));
    expect(sdk).toEqual([]);
  });
});

type Client = 'dynamodb' | 's3' | 's3-presigner' | 'sqs' | 'secrets-manager';

/**
 * Routes whose bucket grants back the URLs they presign: S3 checks a presigned URL against the
 * permissions of whoever signed it. They carry the S3 client (the presigner signs through its
 * configuration) and the presigner.
 */
const PRESIGN_ONLY: ReadonlySet<string> = new Set(['createAssetUpload', 'getAssetDownloadUrl', 'listAssets']);

/** The AWS clients a function may bundle: those its grants name (and the internal secret's store). */
interface Fn {
  name: string;
  entry: string;
  /** The row the function serves (none for the fallback and the queue workers). */
  row?: RouteRow;
  nodeModules: readonly string[];
  clients: readonly Client[];
  multipart: boolean;
  budgetKb: number;
}

/** What each client is, by the SDK package that gives it away (S3's from the bundles' copy, infra/constructs/sdk-literal-keys.ts). */
const PACKAGES: Record<Client, string> = {
  dynamodb: 'node_modules/@aws-sdk/client-dynamodb/',
  s3: 'node_modules/.cache/easel-literal-keys/@aws-sdk+client-s3@',
  's3-presigner': 'node_modules/@aws-sdk/s3-request-presigner/',
  sqs: 'node_modules/@aws-sdk/client-sqs/',
  'secrets-manager': 'node_modules/@aws-sdk/client-secrets-manager/',
};

/**
 * Minified bytes a function may reach, by what it carries: about 5 % above what the bundles reach
 * with the SDK's clients (say so when one grows).
 */
const BUDGET_KB = {
  json: 150,
  // createRelease and activateOrganization reached 282 KB once the settings read the cache buckets.
  dynamodb: 290,
  // deleteAsset reached 312 KB once release intake had landed.
  'dynamodb+sqs': 320,
  // A run of release shots validates each shot against the capture options' schemas (≈ 11 KB) and
  // keeps an Idempotency-Key record besides.
  'shot run': 345,
  // A release intake starts a run of shots (as 'shot run'), reads the source apps' secrets (Secrets
  // Manager), and reads release notes with marked (≈ 50 KB) and entities' HTML decoder (≈ 30 KB).
  intake: 485,
  // Reading a run's shots carries their reports' and envelopes' shapes (≈ 8 KB).
  'shot read': 295,
  // Completion reached 402 KB once sign-in and release shots had landed.
  'dynamodb+s3': 410,
  // Passkey options and sign-in: @simplewebauthn/server and @peculiar/asn1-* from side-effect-free copies
  // (infra/constructs/side-effect-free.ts), with the ASN.1 parser that reads an ES256 signature (asn1js).
  'dynamodb+webauthn': 455,
  // A registration's check names every attestation format, so their certificate code comes too (@peculiar/x509, tsyringe).
  'dynamodb+webauthn-registration': 625,
  // The other sign-in rows: the identity records and views, sessions and invitations (≈ 25 KB),
  // and for the session list the User-Agent parser (bowser, ≈ 25 KB).
  'dynamodb+sign-in': 325,
  // The ad engine's code (@ghostery/adblocker, tldts), imported only by captures with blockAds, and
  // redaction's detectors (libphonenumber-js with its full metadata, secretlint's preset), only by captures with redact.
  capture: 2100,
} as const;

function budgetOf(clients: readonly Client[], nodeModules: readonly string[], row?: RouteRow, entry = ''): number {
  if (nodeModules.includes('@sparticuz/chromium')) return BUDGET_KB.capture;
  if (row?.operationId === 'runReleaseShots') return BUDGET_KB['shot run'];
  if (row?.operationId === 'takeInRelease') return BUDGET_KB.intake;
  if (row?.operationId === 'listReleaseShots') return BUDGET_KB['shot read'];
  if (entry === 'functions/auth/register-passkey.ts') return BUDGET_KB['dynamodb+webauthn-registration'];
  if (/passkey-(sign-in|registration)-options|sign-in-with-passkey/.test(entry)) return BUDGET_KB['dynamodb+webauthn'];
  if (entry.startsWith('functions/auth/')) return BUDGET_KB['dynamodb+sign-in'];
  if (clients.includes('s3')) return BUDGET_KB['dynamodb+s3'];
  if (clients.includes('sqs')) return BUDGET_KB['dynamodb+sqs'];
  if (clients.includes('dynamodb')) return BUDGET_KB.dynamodb;
  return BUDGET_KB.json;
}

function fn(name: string, entry: string, clients: Client[], options: { row?: RouteRow; nodeModules?: readonly string[]; multipart?: boolean } = {}): Fn {
  const { row, nodeModules = [], multipart = false } = options;
  return { name, entry, row, nodeModules, clients, multipart, budgetKb: budgetOf(clients, nodeModules, row, entry) };
}

const FUNCTIONS: Fn[] = [
  ...ROUTE_LIST.map((row) => {
    const clients: Client[] = [];
    if (Object.keys(row.access.tables ?? {}).length > 0 || row.access.apiKeyStamp) clients.push('dynamodb');
    if (Object.keys(row.access.buckets ?? {}).length > 0) clients.push('s3', ...(PRESIGN_ONLY.has(row.operationId) ? (['s3-presigner'] as const) : []));
    if (Object.keys(row.access.queues ?? {}).length > 0) clients.push('sqs');
    if (row.auth === 'internal' || row.access.sourceSecrets) clients.push('secrets-manager');
    return fn(row.operationId, row.handler, clients, { row, nodeModules: row.nodeModules, multipart: row.body?.contentType === 'multipart/form-data' });
  }),
  fn('fallback', FALLBACK.handler, []),
  // Reads the asset record, deletes its object (the stack's WORKER_ACCESS).
  fn('deletionWorker', QUEUES.deletion.worker.handler, ['dynamodb', 's3']),
  // The capture code, the shot and asset records, the pictures, the source apps' secrets.
  fn('shotWorker', QUEUES.shots.worker.handler, ['dynamodb', 's3', 'secrets-manager'], { nodeModules: QUEUES.shots.worker.nodeModules }),
];

interface Built {
  bytes: number;
  /** The bundle's text, minified. */
  text: string;
  /** The files that put code into the bundle. */
  inputs: string[];
  /** What each file the build read imports (of the project and node_modules). */
  imports: Record<string, string[]>;
  /** How the bundle reaches the stand-in for the SDK's event streams: `dynamic-import`, `import-statement`… */
  eventStreamStubKinds: string[];
}

const EVENT_STREAM_STUB = 'infra/constructs/no-event-streams.ts';

const built = new Map<string, Built>();

/** Builds every function's bundle as the stack does (minified ESM for Node 24) and prints the table. */
async function buildAll(): Promise<void> {
  for (const f of FUNCTIONS) {
    const result = await build({ ...bundleOptions(f.entry, f.nodeModules), write: false, metafile: true, logLevel: 'silent' });
    const metafile = result.metafile as Metafile;
    const output = Object.values(metafile.outputs).find((out) => out.entryPoint !== undefined)!;
    const bundle = result.outputFiles.find((file) => file.path.endsWith('.mjs'))!;
    const imports = Object.fromEntries(
      Object.entries(metafile.inputs).map(([file, input]) => [file, input.imports.filter((i) => !i.external).map((i) => i.path)]),
    );
    const eventStreamStubKinds = Object.values(metafile.inputs).flatMap((input) =>
      input.imports.filter((i) => i.path === EVENT_STREAM_STUB).map((i) => i.kind),
    );
    built.set(f.name, { bytes: bundle.contents.length, text: bundle.text, inputs: Object.keys(output.inputs), imports, eventStreamStubKinds });
  }
  const kb = (bytes: number) => (bytes / 1024).toFixed(1);
  const lines = FUNCTIONS.map(
    (f) => `${f.name.padEnd(30)} ${kb(built.get(f.name)!.bytes).padStart(8)} KB  ≤ ${String(f.budgetKb).padStart(5)} KB  ${f.clients.join('+') || '-'}`,
  );
  console.log(['Minified bundle sizes (as the stack builds them) beside their budgets:', ...lines].join('\n'));
}

const SCHEMAS = 'shared/schemas/';

/** The route table's files: a function reaches its row, and so the row's schemas, through them. */
const isTable = (file: string): boolean => file === 'shared/routes.ts' || file.startsWith('shared/routes/');

/** Each schema the files of shared/schemas/ export, by the file that exports it: a row holds these very objects. */
const schemaFileOf = new Map<unknown, string>();

async function readSchemaFiles(): Promise<void> {
  for (const file of readdirSync(join(PROJECT_ROOT, SCHEMAS))) {
    const exports = (await import(join(PROJECT_ROOT, SCHEMAS, file))) as Record<string, unknown>;
    for (const value of Object.values(exports)) if (typeof value === 'object' && value !== null) schemaFileOf.set(value, SCHEMAS + file);
  }
}

/** The schemas a row validates its input with. */
const schemasOf = (row: RouteRow): unknown[] => [row.params, row.query, row.headers, row.body?.schema].filter((schema) => schema !== undefined);

/** The files reachable from `starts` through `imports`, entering only those `enter` accepts. */
function reachable(starts: readonly string[], imports: Record<string, string[]>, enter: (file: string) => boolean): Set<string> {
  const seen = new Set<string>();
  const queue = starts.filter(enter);
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    queue.push(...(imports[file] ?? []).filter(enter));
  }
  return seen;
}

/**
 * The schema files a function may carry: those its row's schemas come from (and what they
 * import), and those its other code reaches without the route table (the identity stores parse
 * records with shared/schemas/identity.ts, the services use their resource's schemas).
 */
function schemaFilesAllowed(f: Fn, { imports, inputs }: Built): Set<string> {
  const own = (f.row ? schemasOf(f.row) : []).map((schema) => schemaFileOf.get(schema)!);
  const inBundle = new Set(inputs);
  const apart = reachable([f.entry], imports, (file) => inBundle.has(file) && !isTable(file));
  return new Set([...reachable(own, imports, (file) => file.startsWith(SCHEMAS)), ...[...apart].filter((file) => file.startsWith(SCHEMAS))]);
}

// Every function serves its own row; the documents, which describe every row, are rendered at
// bundling (shared/docs/prerender-at-bundling.ts) and read by theirs, so no function carries the whole table.
const SERVING_ONE_ROW = FUNCTIONS;

describe('presign-only routes', () => {
  it.each([...PRESIGN_ONLY])('names %s, a row with bucket grants', (operationId) => {
    // Act
    const row = ROUTE_LIST.find((candidate) => candidate.operationId === operationId);

    // Assess
    expect(Object.keys(row?.access.buckets ?? {})).not.toEqual([]);
  });
});

describe('bundle of each function', () => {
  beforeAll(async () => {
    await buildAll();
    await readSchemaFiles();
  }, 240_000);

  it.each(FUNCTIONS.map((f) => [f.name, f] as const))('keeps %s within its budget', (_name, f) => {
    // Assess
    expect(built.get(f.name)!.bytes).toBeLessThanOrEqual(f.budgetKb * 1024);
  });

  it.each(FUNCTIONS.map((f) => [f.name, f] as const))('gives %s only the AWS clients its grants name', (_name, f) => {
    // Act
    const carried = (Object.keys(PACKAGES) as Client[]).filter((client) => built.get(f.name)!.inputs.some((input) => input.includes(PACKAGES[client])));

    // Assess
    expect(carried.sort()).toEqual([...f.clients].sort());
  });

  it.each(FUNCTIONS.map((f) => [f.name, f] as const))('carries the multipart parser in %s only if its body is a form', (_name, f) => {
    // Act
    const parser = built.get(f.name)!.inputs.some((input) => input.includes('node_modules/@fastify/busboy/'));

    // Assess
    expect(parser).toBe(f.multipart);
  });

  it.each(FUNCTIONS.map((f) => [f.name, f] as const))("carries no operation's prose in %s: the documents are rendered at bundling", (_name, f) => {
    // Act
    const prose = built.get(f.name)!.inputs.includes('shared/docs/operations.ts');

    // Assess
    expect(prose).toBe(false);
  });

  it.each(ROUTE_LIST.map((row) => [row.operationId, row] as const))('finds the schema file of each schema of %s', (_name, row) => {
    // Act
    const unknown = schemasOf(row).filter((schema) => !schemaFileOf.has(schema));

    // Assess
    expect(unknown).toEqual([]);
  });

  it.each(SERVING_ONE_ROW.map((f) => [f.name, f] as const))('carries in %s no schema file but those of its own row and its own code', (_name, f) => {
    // Prepare
    const bundle = built.get(f.name)!;

    // Act
    const allowed = schemaFilesAllowed(f, bundle);
    const foreign = bundle.inputs.filter((input) => input.startsWith(SCHEMAS) && !allowed.has(input));

    // Assess
    expect(foreign).toEqual([]);
  });

  it.each(SERVING_ONE_ROW.map((f) => [f.name, f] as const))('carries the row of %s and no other', (_name, f) => {
    // Act: each row names its own handler module, so the string is in the bundle if the row is.
    const rows = ROUTE_LIST.filter((row) => built.get(f.name)!.text.includes(`"${row.handler}"`)).map((row) => row.operationId);

    // Assess
    expect(rows).toEqual(f.row ? [f.row.operationId] : []);
  });

  // The X-Ray SDK costs a cold start to import: a function loads it from its own file on a sampled invocation only.
  it.each(FUNCTIONS.map((f) => [f.name, f] as const))('leaves the X-Ray SDK out of %s, which imports it only if it has an AWS client', (_name, f) => {
    // Act
    const carried = built.get(f.name)!.inputs.some((input) => input.includes('node_modules/aws-xray-sdk-core/'));
    const imported = built.get(f.name)!.text.includes('import("aws-xray-sdk-core")');

    // Assess
    expect(carried).toBe(false);
    expect(imported).toBe(f.clients.length > 0);
  });

  // An ES import of these builtins runs every lazy getter of their exports (node:http's loads undici).
  it.each(FUNCTIONS.map((f) => [f.name, f] as const))('imports no costly builtin as an ES module in %s', (_name, f) => {
    // Act
    const imports = built.get(f.name)!.text.match(/(from|import\()\s*"(node:)?(http|https|crypto|fs|process)"/g);

    // Assess
    expect(imports).toBeNull();
  });

  // On Lambda the credentials are in the environment (or at the container endpoint): the rest of
  // the SDK's default chain (profiles, SSO, web identity, instance metadata) stays out.
  it.each(FUNCTIONS.map((f) => [f.name, f] as const))("leaves the SDK's full credential chain out of %s", (_name, f) => {
    // Act
    const chain = built
      .get(f.name)!
      .inputs.filter((input) =>
        /node_modules\/@(aws-sdk\/(credential-provider-(node|ini|sso|process|web-identity|login)|token-providers|nested-clients)|smithy\/credential-provider-imds)\//.test(
          input,
        ),
      );

    // Assess
    expect(chain).toEqual([]);
  });

  it.each(FUNCTIONS.filter((f) => f.clients.includes('s3')).map((f) => [f.name, f] as const))(
    'leaves out of %s the schemas of S3 operations it never sends',
    (_name, f) => {
      // Act: the name of a structure only bucket analytics operations use.
      const carried = built.get(f.name)!.text.includes('"AnalyticsConfiguration"');

      // Assess
      expect(carried).toBe(false);
    },
  );

  // The SDK loads its event-stream code with import(), which makes esbuild run whole every SDK
  // module it shares at cold start; of the operations Easel sends, none streams events.
  it.each(FUNCTIONS.map((f) => [f.name, f] as const))("leaves the SDK's event streams out of %s", (_name, f) => {
    // Act
    const eventStreams = built.get(f.name)!.inputs.some((input) => input.includes('node_modules/@smithy/core/dist-es/submodules/event-streams/'));

    // Assess
    expect(eventStreams).toBe(false);
  });

  it.each(FUNCTIONS.map((f) => [f.name, f] as const))('reaches the stand-in for the event streams in %s as its SDK clients do, if at all', (_name, f) => {
    // Act: S3's client imports it to build itself; the others only through import(), for an operation that streams events.
    const kinds = [...new Set(built.get(f.name)!.eventStreamStubKinds)].sort();

    // Assess
    expect(kinds).toEqual(f.clients.includes('s3') ? ['dynamic-import', 'import-statement'] : f.clients.length > 0 ? ['dynamic-import'] : []);
  });
});
