import { NestedStack, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IConstruct } from 'constructs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataStores, pascal } from '#infra/constructs/data-stores.ts';
import { easelPropsFromContext } from '#infra/context.ts';
import { EaselStack, NESTED_FUNCTIONS } from '#infra/stack.ts';
import type { EaselStackProps } from '#infra/stack.ts';
import type { ResourceAccess } from '#shared/route-types.ts';
import { BUCKETS, EXPRESS_CACHE, QUEUES, TABLES } from '#shared/resources.ts';
import { CACHE_TTL_BOUNDS } from '#shared/config.ts';
import type { BucketName, QueueName, TableName } from '#shared/resources.ts';
import { ROUTE_LIST } from '#shared/routes.ts';
import type { OperationId } from '#shared/routes.ts';
import { logicalId, newApp, parameterFor, removeCdkOutdirs, synthEasel } from '../support/cdk.ts';

interface CfnResource {
  Type: string;
  Properties?: Record<string, unknown>;
  DependsOn?: string | string[];
  DeletionPolicy?: string;
}
interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
  Condition?: unknown;
}

const TABLE_NAMES = Object.keys(TABLES) as TableName[];
const BUCKET_NAMES = Object.keys(BUCKETS) as BucketName[];
const QUEUE_NAMES = Object.keys(QUEUES) as QueueName[];
const DATA_SERVICES = /^(dynamodb|s3|sqs):/;

function actionsOf(statement: Statement): string[] {
  return Array.isArray(statement.Action) ? statement.Action : [statement.Action];
}

/** Every statement of the inline policies attached to a role. */
function statementsOfRole(template: Template, roleId: string): Statement[] {
  const policies = Object.values(template.findResources('AWS::IAM::Policy')) as CfnResource[];
  const role = template.toJSON().Resources[roleId] as CfnResource;
  const documents = [
    ...policies.filter((policy) => JSON.stringify(policy.Properties?.Roles).includes(`"${roleId}"`)).map((policy) => policy.Properties?.PolicyDocument),
    ...((role.Properties!.Policies as { PolicyDocument: unknown }[] | undefined) ?? []).map((policy) => policy.PolicyDocument),
  ] as { Statement: Statement[] }[];
  return documents.flatMap((document) => document.Statement);
}

function roleIdOf(fn: { role?: IConstruct }): string {
  return logicalId(fn.role!);
}

/**
 * The DynamoDB, S3 and SQS grants of a role as sorted "action resource" lines: resources by the
 * name of their table, bucket or queue plus the literal ARN suffix (`assets/uploads/*`,
 * `workspace/index/gsi1`); a conditional statement is the API-key stamp and says so.
 */
function dataGrantsOf(template: Template, stack: EaselStack, roleId: string): string[] {
  const names: [string, string][] = [
    ...TABLE_NAMES.map((name) => [logicalId(stack.data.tables[name]), name] as [string, string]),
    ...BUCKET_NAMES.map((name) => [logicalId(stack.data.buckets[name]), name] as [string, string]),
    ...QUEUE_NAMES.map((name) => [logicalId(stack.data.queues[name].queue), name] as [string, string]),
  ];
  const label = (resource: unknown): string => {
    const json = JSON.stringify(resource);
    const name = names.find(([id]) => json.includes(`"${id}"`))?.[1] ?? json;
    const join = (resource as { 'Fn::Join'?: [string, unknown[]] })['Fn::Join'];
    return `${name}${join ? join[1].filter((part) => typeof part === 'string').join('') : ''}`;
  };
  const lines = statementsOfRole(template, roleId).flatMap((statement) => {
    const resources = Array.isArray(statement.Resource) ? statement.Resource : [statement.Resource];
    const condition = statement.Condition === undefined ? '' : ' if APIKEY# items, lastUsedAt only';
    return actionsOf(statement)
      .filter((action) => DATA_SERVICES.test(action))
      .flatMap((action) => resources.map((resource) => `${action} ${label(resource)}${condition}`));
  });
  return lines.sort();
}

const variablesOf = (fn: CfnResource) => (fn.Properties!.Environment as { Variables: Record<string, unknown> }).Variables;

afterAll(removeCdkOutdirs);

describe('EaselStack', () => {
  let stack: EaselStack;
  let template: Template;
  let resources: Record<string, CfnResource>;

  beforeAll(() => {
    // Prepare + Act: one synthesis shared by the assertions below.
    ({ stack, template } = synthEasel());
    resources = template.toJSON().Resources as Record<string, CfnResource>;
  });

  describe('functions', () => {
    it('creates one function per route, one fallback and one worker per queue', () => {
      // Assess
      template.resourceCountIs('AWS::Lambda::Function', ROUTE_LIST.length + 1 + QUEUE_NAMES.length);
    });

    it("runs every function on nodejs24.x with its own log group, without Node's load-time source maps", () => {
      // Prepare
      const functions = Object.values(template.findResources('AWS::Lambda::Function')) as CfnResource[];

      // Assess
      for (const fn of functions) {
        expect(fn.Properties).toMatchObject({
          Runtime: 'nodejs24.x',
          Handler: 'index.handler',
          LoggingConfig: { LogGroup: { Ref: expect.any(String) } },
        });
        // A logged stack is mapped by the logger instead (shared/source-maps.ts).
        expect((fn.Properties!.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables?.NODE_OPTIONS).toBeUndefined();
      }
      template.resourcePropertiesCountIs('AWS::Logs::LogGroup', { RetentionInDays: 30 }, functions.length);
    });

    it('runs every function on arm64 but the two that run Chromium, which ships x64 only: capture and the shot worker', () => {
      // Prepare
      const chromium = [logicalId(stack.routeFunctions.get('capturePage')!), logicalId(stack.workerFunctions.get('shots')!)];
      const architectures = Object.entries(template.findResources('AWS::Lambda::Function')).map(([id, fn]) => [
        id,
        (fn as CfnResource).Properties?.Architectures,
      ]);

      // Assess
      expect(architectures.filter(([id]) => !chromium.includes(id as string)).every(([, arch]) => JSON.stringify(arch) === '["arm64"]')).toBe(true);
      expect(architectures.filter(([id]) => chromium.includes(id as string)).map(([, arch]) => arch)).toEqual([['x86_64'], ['x86_64']]);
    });

    it('lets every function write its own log group and no other, with no managed policy', () => {
      // Prepare
      const functions = Object.values(template.findResources('AWS::Lambda::Function')) as CfnResource[];

      // Assess
      template.resourcePropertiesCountIs('AWS::IAM::Role', { ManagedPolicyArns: Match.anyValue() }, 0);
      for (const fn of functions) {
        const roleId = (fn.Properties!.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
        const logGroupId = (fn.Properties!.LoggingConfig as { LogGroup: { Ref: string } }).LogGroup.Ref;
        const logs = statementsOfRole(template, roleId).filter((statement) => actionsOf(statement).some((action) => action.startsWith('logs:')));
        expect(logs).toEqual([{ Effect: 'Allow', Action: ['logs:CreateLogStream', 'logs:PutLogEvents'], Resource: { 'Fn::GetAtt': [logGroupId, 'Arn'] } }]);
      }
    });

    it('gives every function the API endpoint and the name of every table, bucket and queue', () => {
      // Prepare
      const functions = Object.values(template.findResources('AWS::Lambda::Function')) as CfnResource[];
      const expected = {
        PUBLIC_BASE_URL: { 'Fn::GetAtt': [logicalId(stack.api), 'ApiEndpoint'] },
        ...Object.fromEntries(TABLE_NAMES.map((name) => [TABLES[name].env, { Ref: logicalId(stack.data.tables[name]) }])),
        ...Object.fromEntries(BUCKET_NAMES.map((name) => [BUCKETS[name].env, { Ref: logicalId(stack.data.buckets[name]) }])),
        ...Object.fromEntries(QUEUE_NAMES.map((name) => [QUEUES[name].env, { Ref: logicalId(stack.data.queues[name].queue) }])),
      };

      // Assess
      for (const fn of functions) {
        const variables = (fn.Properties!.Environment as { Variables: Record<string, unknown> }).Variables;
        expect(variables).toMatchObject(expected);
        expect(variables).not.toHaveProperty('EDITOR_ORIGINS');
      }
    });

    it.each(Object.entries(NESTED_FUNCTIONS))('puts the functions of %s with their roles, policies and log groups in the nested stack %s', (folder, id) => {
      // Prepare
      const nested = stack.node.findChild(id) as NestedStack;
      const rows = ROUTE_LIST.filter((row) => row.handler.startsWith(folder));
      const types = Object.values(Template.fromStack(nested).toJSON().Resources as Record<string, CfnResource>).map((resource) => resource.Type);

      // Assess
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) expect(Stack.of(stack.routeFunctions.get(row.operationId)!), row.operationId).toBe(nested);
      for (const type of ['AWS::Lambda::Function', 'AWS::IAM::Role', 'AWS::IAM::Policy', 'AWS::Logs::LogGroup'])
        expect(
          types.filter((each) => each === type),
          type,
        ).toHaveLength(rows.length);
      expect(types).toHaveLength(4 * rows.length);
    });

    it('keeps every other function, and every route, integration and invoke permission, in the stack itself', () => {
      // Prepare
      const parent = Template.fromStack(stack);
      const nested = (row: { handler: string }) => Object.keys(NESTED_FUNCTIONS).some((folder) => row.handler.startsWith(folder));

      // Assess
      for (const row of ROUTE_LIST.filter((each) => !nested(each))) expect(Stack.of(stack.routeFunctions.get(row.operationId)!), row.operationId).toBe(stack);
      for (const fn of [stack.fallbackFunction, ...stack.workerFunctions.values()]) expect(Stack.of(fn)).toBe(stack);
      for (const type of ['AWS::ApiGatewayV2::Route', 'AWS::ApiGatewayV2::Integration', 'AWS::Lambda::Permission'])
        expect(Object.keys(parent.findResources(type)), type).toEqual(Object.keys(template.findResources(type)));
    });

    it.each(ROUTE_LIST.map((row) => [row.operationId, row] as const))('sizes the %s function from its row', (operationId, row) => {
      // Prepare
      const fn = resources[logicalId(stack.routeFunctions.get(operationId)!)];

      // Assess
      expect(fn?.Properties).toMatchObject({ MemorySize: row.memory, Timeout: row.timeout });
    });
  });

  describe('HTTP API', () => {
    it('declares one route per row, HEAD beside every GET, plus $default', () => {
      // Prepare
      const routeKeys = Object.values(template.findResources('AWS::ApiGatewayV2::Route')).map((route) => (route as CfnResource).Properties?.RouteKey);

      // Assess
      const heads = ROUTE_LIST.filter((row) => row.method === 'GET').map((row) => `HEAD ${row.path}`);
      expect(routeKeys.sort()).toEqual([...ROUTE_LIST.map((row) => `${row.method} ${row.path}`), ...heads, '$default'].sort());
    });

    it.each(
      ROUTE_LIST.flatMap((row) => [
        [`${row.method} ${row.path}`, row.operationId] as const,
        ...(row.method === 'GET' ? [[`HEAD ${row.path}`, row.operationId] as const] : []),
      ]),
    )('sends %s to the function of its row', (routeKey, operationId) => {
      // Prepare
      const route = Object.values(resources).find((resource) => resource.Properties?.RouteKey === routeKey);
      const integrationId = JSON.stringify(route?.Properties?.Target).match(/"Ref":"([^"]+)"/)?.[1];

      // Assess
      expect(resources[integrationId!]?.Properties).toMatchObject({
        IntegrationType: 'AWS_PROXY',
        PayloadFormatVersion: '2.0',
        IntegrationUri: { 'Fn::GetAtt': [logicalId(stack.routeFunctions.get(operationId)!), 'Arn'] },
      });
    });

    it('sends $default to the fallback function', () => {
      // Prepare
      const route = Object.values(resources).find((resource) => resource.Properties?.RouteKey === '$default');
      const integrationId = JSON.stringify(route?.Properties?.Target).match(/"Ref":"([^"]+)"/)?.[1];

      // Assess
      expect(resources[integrationId!]?.Properties?.IntegrationUri).toEqual({ 'Fn::GetAtt': [logicalId(stack.fallbackFunction), 'Arn'] });
    });

    it('leaves CORS preflight to the fallback function', () => {
      // Assess
      template.hasResourceProperties('AWS::ApiGatewayV2::Api', { ProtocolType: 'HTTP', CorsConfiguration: Match.absent() });
    });
  });

  describe('tables', () => {
    it('bills every table per request', () => {
      // Assess
      template.resourceCountIs('AWS::DynamoDB::Table', TABLE_NAMES.length);
      template.resourcePropertiesCountIs('AWS::DynamoDB::Table', { BillingMode: 'PAY_PER_REQUEST' }, TABLE_NAMES.length);
    });

    it.each(TABLE_NAMES)('builds the %s table from its definition', (name) => {
      // Prepare
      const def = TABLES[name];
      const table = resources[logicalId(stack.data.tables[name])]!;
      const keys = (partitionKey: string, sortKey?: string) => [
        { AttributeName: partitionKey, KeyType: 'HASH' },
        ...(sortKey === undefined ? [] : [{ AttributeName: sortKey, KeyType: 'RANGE' }]),
      ];
      const sortKey: string | undefined = 'sortKey' in def ? def.sortKey : undefined;

      // Assess
      expect(table.Properties?.KeySchema).toEqual(keys(def.partitionKey, sortKey));
      expect(table.Properties?.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: def.pointInTimeRecovery });
      expect(table.Properties?.TimeToLiveSpecification).toEqual({ AttributeName: def.ttlAttribute, Enabled: true });
      expect(table.Properties?.GlobalSecondaryIndexes ?? []).toEqual(
        def.indexes.map((index: { name: string; partitionKey: string; sortKey?: string }) => ({
          IndexName: index.name,
          KeySchema: keys(index.partitionKey, index.sortKey),
          Projection: { ProjectionType: 'ALL' },
        })),
      );
      expect(table.DeletionPolicy).toBe(def.pointInTimeRecovery ? 'Retain' : 'Delete');
    });
  });

  describe('buckets', () => {
    it.each(BUCKET_NAMES)('keeps the %s bucket private, encrypted and retained', (name) => {
      // Prepare
      const bucket = resources[logicalId(stack.data.buckets[name])]!;

      // Assess
      expect(bucket.Properties).toMatchObject({
        PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
        BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
      });
      expect(bucket.DeletionPolicy).toBe('Retain');
    });

    it.each(BUCKET_NAMES)('logs requests to the %s bucket into the access log bucket, under its own prefix', (name) => {
      // Prepare
      const bucket = resources[logicalId(stack.data.buckets[name])]!;

      // Assess
      expect(bucket.Properties?.LoggingConfiguration).toEqual({ DestinationBucketName: { Ref: logicalId(stack.data.accessLogs) }, LogFilePrefix: `${name}/` });
    });

    it('keeps the access log bucket private, encrypted with S3-managed keys, for 90 days, writable only by log delivery for each bucket', () => {
      // Prepare
      const id = logicalId(stack.data.accessLogs);
      const policy = Object.values(template.findResources('AWS::S3::BucketPolicy', { Properties: { Bucket: { Ref: id } } }))[0] as CfnResource;
      const allows = (policy.Properties!.PolicyDocument as { Statement: (Statement & { Principal?: unknown })[] }).Statement.filter(
        (statement) => statement.Effect === 'Allow',
      );

      // Assess
      expect(resources[id]?.Properties).toMatchObject({
        PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
        BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
        LifecycleConfiguration: { Rules: [{ ExpirationInDays: 90, Status: 'Enabled' }] },
      });
      expect(allows).toEqual(
        BUCKET_NAMES.map((name) =>
          expect.objectContaining({
            Principal: { Service: 'logging.s3.amazonaws.com' },
            Action: 's3:PutObject',
            Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [id, 'Arn'] }, `/${name}/*`]] },
            Condition: expect.objectContaining({ ArnLike: { 'aws:SourceArn': { 'Fn::GetAtt': [logicalId(stack.data.buckets[name]), 'Arn'] } } }),
          }),
        ),
      );
    });

    it.each(BUCKET_NAMES)('refuses requests to the %s bucket without TLS', (name) => {
      // Assess
      template.hasResourceProperties('AWS::S3::BucketPolicy', {
        Bucket: { Ref: logicalId(stack.data.buckets[name]) },
        PolicyDocument: {
          Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Action: 's3:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]),
        },
      });
    });

    it("expires cached captures after one day, S3's shortest expiry, which no cache entry's time to live may outlast", () => {
      // Prepare
      const bucket = resources[logicalId(stack.data.buckets.cache)]!;
      const rules = (bucket.Properties!.LifecycleConfiguration as { Rules: { ExpirationInDays?: number; Status: string }[] }).Rules;

      // Assess
      expect(rules.filter((rule) => rule.ExpirationInDays !== undefined)).toEqual([expect.objectContaining({ ExpirationInDays: 1, Status: 'Enabled' })]);
      expect(CACHE_TTL_BOUNDS.max).toBe(86_400);
    });

    it('adds no directory bucket and grants no S3 Express session without the cacheZone context', () => {
      // Assess
      template.resourceCountIs('AWS::S3Express::DirectoryBucket', 0);
      expect(JSON.stringify(template.toJSON())).not.toContain('s3express:');
    });

    describe('with the cacheZone context', () => {
      let zoned: { stack: EaselStack; template: Template };

      beforeAll(() => {
        // Prepare
        zoned = synthEasel({ cacheZone: 'use1-az4' });
      });

      it('keeps small cached PNGs in a one-zone directory bucket that expires them after one day, with S3 Lifecycle allowed to', () => {
        // Prepare
        const bucketId = zoned.stack.getLogicalId(zoned.stack.data.expressCache!);

        // Assess
        zoned.template.resourceCountIs('AWS::S3Express::DirectoryBucket', 1);
        zoned.template.hasResource('AWS::S3Express::DirectoryBucket', {
          DeletionPolicy: 'Retain',
          Properties: {
            DataRedundancy: 'SingleAvailabilityZone',
            LocationName: 'use1-az4',
            LifecycleConfiguration: {
              Rules: [
                { Id: 'expire-objects', Status: 'Enabled', ExpirationInDays: 1 },
                { Id: 'abort-incomplete-uploads', Status: 'Enabled', AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 } },
              ],
            },
          },
        });
        zoned.template.hasResourceProperties('AWS::S3Express::BucketPolicy', {
          Bucket: { Ref: bucketId },
          PolicyDocument: {
            Statement: [
              {
                Effect: 'Allow',
                Principal: { Service: 'lifecycle.s3.amazonaws.com' },
                Action: 's3express:CreateSession',
                Resource: { 'Fn::GetAtt': [bucketId, 'Arn'] },
                Condition: { StringEquals: { 's3express:SessionMode': 'ReadWrite' } },
              },
            ],
          },
        });
        expect(EXPRESS_CACHE.expireAfterDays).toBe(BUCKETS.cache.expireAfterDays);
      });

      it('lets the capture and purge functions alone open sessions on it, and names it to the functions', () => {
        // Prepare
        const bucketId = zoned.stack.getLogicalId(zoned.stack.data.expressCache!);
        const sessions = (operationId: OperationId) =>
          statementsOfRole(zoned.template, roleIdOf(zoned.stack.routeFunctions.get(operationId)!)).filter((statement) =>
            actionsOf(statement).some((action) => action.startsWith('s3express:')),
          );

        // Assess
        for (const operationId of ['capturePage', 'purgeCache'] as const) {
          expect(sessions(operationId)).toEqual([{ Effect: 'Allow', Action: 's3express:CreateSession', Resource: { 'Fn::GetAtt': [bucketId, 'Arn'] } }]);
        }
        expect(
          ROUTE_LIST.map((row) => row.operationId)
            .filter((operationId) => sessions(operationId).length > 0)
            .sort(),
        ).toEqual(['capturePage', 'purgeCache']);
        const capture = zoned.template.toJSON().Resources[logicalId(zoned.stack.routeFunctions.get('capturePage')!)] as CfnResource;
        expect((capture.Properties!.Environment as { Variables: Record<string, unknown> }).Variables[EXPRESS_CACHE.env]).toEqual({ Ref: bucketId });
      });

      it('takes the zone from -c cacheZone=…', () => {
        // Prepare
        const app = newApp({ cacheZone: 'usw2-az1' });

        // Act
        const fromContext = Template.fromStack(new EaselStack(app, 'Easel', easelPropsFromContext(app)));

        // Assess
        fromContext.hasResourceProperties('AWS::S3Express::DirectoryBucket', { LocationName: 'usw2-az1' });
      });

      it('refuses a zone name where S3 Express needs a zone ID', () => {
        // Act + Assess
        expect(() => synthEasel({ cacheZone: 'us-east-1a' })).toThrow(
          'Context cacheZone must be an Availability Zone ID such as use1-az4 (not a name such as us-east-1a), got us-east-1a',
        );
      });
    });

    it.each(BUCKET_NAMES)('gives the %s bucket the lifecycle and CORS of its definition', (name) => {
      // Prepare
      const def = BUCKETS[name];
      const bucket = resources[logicalId(stack.data.buckets[name])]!;
      const expireAfterDays: number | undefined = 'expireAfterDays' in def ? def.expireAfterDays : undefined;
      const expirePrefixes: readonly { prefix: string; days: number }[] = 'expirePrefixes' in def ? def.expirePrefixes : [];
      const rules = (bucket.Properties!.LifecycleConfiguration as { Rules: { ExpirationInDays?: number; Prefix?: string }[] }).Rules;

      // Assess
      expect(rules.filter((rule) => rule.ExpirationInDays !== undefined).map((rule) => [rule.Prefix, rule.ExpirationInDays])).toEqual([
        ...expirePrefixes.map(({ prefix, days }) => [prefix, days]),
        ...(expireAfterDays === undefined ? [] : [[undefined, expireAfterDays]]),
      ]);
      if (def.browserCors) {
        expect(bucket.Properties?.CorsConfiguration).toEqual({
          CorsRules: [expect.objectContaining({ AllowedMethods: expect.arrayContaining(['GET', 'PUT']), AllowedOrigins: ['*'] })],
        });
      } else {
        expect(bucket.Properties?.CorsConfiguration).toBeUndefined();
      }
    });
  });

  describe('queues', () => {
    it.each(QUEUE_NAMES)('redrives the %s queue to its dead-letter queue', (name) => {
      // Prepare
      const def = QUEUES[name];
      const { queue, deadLetter } = stack.data.queues[name];

      // Assess
      expect(resources[logicalId(queue)]?.Properties).toMatchObject({
        VisibilityTimeout: def.visibilityTimeoutSeconds,
        RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [logicalId(deadLetter), 'Arn'] }, maxReceiveCount: def.deadLetter.maxReceiveCount },
      });
      expect(resources[logicalId(deadLetter)]?.Properties).toMatchObject({ MessageRetentionPeriod: def.deadLetter.retentionDays * 86_400 });
    });

    it.each(QUEUE_NAMES)('refuses requests to the %s queues without TLS', (name) => {
      // Prepare
      const { queue, deadLetter } = stack.data.queues[name];

      // Assess
      for (const id of [logicalId(queue), logicalId(deadLetter)]) {
        template.hasResourceProperties('AWS::SQS::QueuePolicy', {
          Queues: [{ Ref: id }],
          PolicyDocument: {
            Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]),
          },
        });
      }
    });

    it.each(QUEUE_NAMES)('lets the %s worker report batch item failures', (name) => {
      // Prepare
      const def = QUEUES[name];

      // Assess
      template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
        EventSourceArn: { 'Fn::GetAtt': [logicalId(stack.data.queues[name].queue), 'Arn'] },
        FunctionName: { Ref: logicalId(stack.workerFunctions.get(name)!) },
        BatchSize: def.worker.batchSize,
        MaximumBatchingWindowInSeconds: def.worker.maxBatchingWindowSeconds,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
      });
    });

    it('caps the shot worker at its maximum concurrency, one shot an invocation', () => {
      // Assess
      template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
        EventSourceArn: { 'Fn::GetAtt': [logicalId(stack.data.queues.shots.queue), 'Arn'] },
        BatchSize: 1,
        ScalingConfig: { MaximumConcurrency: QUEUES.shots.worker.maxConcurrency },
      });
    });

    it("runs the shot worker as the capture function runs: its memory, Chromium's pack and sharp installed, the fonts layer, the clean-capture files", () => {
      // Prepare
      const worker = resources[logicalId(stack.workerFunctions.get('shots')!)]!.Properties!;
      const capture = resources[logicalId(stack.routeFunctions.get('capturePage')!)]!.Properties!;

      // Assess
      expect(worker.MemorySize).toBe(capture.MemorySize);
      expect(worker.Layers).toEqual(capture.Layers);
      expect(variablesOf(resources[logicalId(stack.workerFunctions.get('shots')!)]!).FONTCONFIG_PATH).toBe(
        variablesOf(resources[logicalId(stack.routeFunctions.get('capturePage')!)]!).FONTCONFIG_PATH,
      );
      expect(QUEUES.shots.worker).toMatchObject({ nodeModules: ['@sparticuz/chromium', 'sharp'], cleanCapture: true, fonts: true, chromiumPack: true });
    });

    it("lets the shot worker consume its queue, take the shot, store its pictures and read the source apps' secrets by their prefix, nothing more", () => {
      // Prepare
      const roleId = roleIdOf(stack.workerFunctions.get('shots')!);
      const secrets = statementsOfRole(template, roleId).filter((statement) => actionsOf(statement).some((action) => action.startsWith('secretsmanager:')));

      // Assess
      expect(dataGrantsOf(template, stack, roleId)).toEqual(
        [
          ...['ChangeMessageVisibility', 'DeleteMessage', 'GetQueueAttributes', 'GetQueueUrl', 'ReceiveMessage'].map((action) => `sqs:${action} shots`),
          'dynamodb:GetItem workspace',
          'dynamodb:BatchGetItem workspace',
          'dynamodb:Query workspace',
          'dynamodb:Query workspace/index/gsi1',
          'dynamodb:PutItem workspace',
          'dynamodb:UpdateItem workspace',
          's3:GetObject assets/workspaces/*',
          's3:PutObject assets/workspaces/*',
        ].sort(),
      );
      expect(secrets).toEqual([
        {
          Effect: 'Allow',
          Action: 'secretsmanager:GetSecretValue',
          Resource: {
            'Fn::Join': [
              '',
              [
                'arn:',
                { Ref: 'AWS::Partition' },
                ':secretsmanager:',
                { Ref: 'AWS::Region' },
                ':',
                { Ref: 'AWS::AccountId' },
                `:secret:${stack.sourceSecretPrefix}*`,
              ],
            ],
          },
        },
      ]);
      expect(variablesOf(resources[logicalId(stack.workerFunctions.get('shots')!)]!).SOURCE_SECRET_PREFIX).toBe(`easel/${stack.stackName}/source-apps/`);
    });

    it("lets the release intake, and no other route, read the source apps' secrets by their prefix", () => {
      // Prepare
      const readers = ROUTE_LIST.filter((row) =>
        statementsOfRole(template, roleIdOf(stack.routeFunctions.get(row.operationId)!)).some((statement) =>
          actionsOf(statement).some((action) => action.startsWith('secretsmanager:') && JSON.stringify(statement.Resource).includes(stack.sourceSecretPrefix)),
        ),
      ).map((row) => row.operationId);
      const intake = stack.routeFunctions.get('takeInRelease')!;

      // Assess
      expect(readers).toEqual(['takeInRelease']);
      expect(
        statementsOfRole(template, roleIdOf(intake)).filter((statement) => actionsOf(statement).some((action) => action.startsWith('secretsmanager:'))),
      ).toEqual(
        statementsOfRole(template, roleIdOf(stack.workerFunctions.get('shots')!)).filter((statement) =>
          actionsOf(statement).some((action) => action.startsWith('secretsmanager:')),
        ),
      );
      expect(variablesOf(resources[logicalId(intake)]!).SOURCE_SECRET_PREFIX).toBe(`easel/${stack.stackName}/source-apps/`);
    });

    it('lets the deletion worker consume its queue, read and mark the asset and delete its object, nothing more', () => {
      // Prepare
      const grants = dataGrantsOf(template, stack, roleIdOf(stack.workerFunctions.get('deletion')!));

      // Assess
      expect(grants).toEqual(
        [
          ...['ChangeMessageVisibility', 'DeleteMessage', 'GetQueueAttributes', 'GetQueueUrl', 'ReceiveMessage'].map((action) => `sqs:${action} deletion`),
          'dynamodb:GetItem workspace',
          'dynamodb:UpdateItem workspace',
          's3:DeleteObject assets/workspaces/*',
        ].sort(),
      );
    });
  });

  describe('grants', () => {
    const open = ROUTE_LIST.filter((row) => Object.values(row.access).every((grants) => Object.keys(grants ?? {}).length === 0));

    it.each(open.map((row) => row.operationId))('gives %s (access: {}) no DynamoDB, S3 or SQS permission', (operationId) => {
      // Prepare
      const statements = statementsOfRole(template, roleIdOf(stack.routeFunctions.get(operationId)!));

      // Assess
      expect(statements.flatMap(actionsOf).filter((action) => DATA_SERVICES.test(action))).toEqual([]);
    });

    it.each(ROUTE_LIST.map((row) => [row.operationId, row.access] as const))('lets %s touch only the resources its row names', (operationId, access) => {
      // Prepare
      const statements = statementsOfRole(template, roleIdOf(stack.routeFunctions.get(operationId)!));
      const dataIds = [
        ...TABLE_NAMES.map((name) => [logicalId(stack.data.tables[name]), access.tables?.[name] !== undefined] as const),
        ...BUCKET_NAMES.map((name) => [logicalId(stack.data.buckets[name]), access.buckets?.[name] !== undefined] as const),
        ...QUEUE_NAMES.map((name) => [logicalId(stack.data.queues[name].queue), access.queues?.[name] !== undefined] as const),
      ];
      const granted = (id: string) => statements.some((statement) => JSON.stringify(statement.Resource).includes(`"${id}"`));

      // Assess
      expect(Object.fromEntries(dataIds.map(([id]) => [id, granted(id)]))).toEqual(Object.fromEntries(dataIds));
    });

    // Written out rather than derived from the rows, so a row that asks for more fails here.
    const stamp = 'dynamodb:UpdateItem workspace if APIKEY# items, lastUsedAt only';
    const authReads = ['dynamodb:GetItem workspace', 'dynamodb:BatchGetItem workspace'];
    const query = ['dynamodb:Query workspace', 'dynamodb:Query workspace/index/gsi1'];
    const shellReads = [...authReads, ...query];
    // The record an Idempotency-Key claims (PutItem), completes (UpdateItem) or frees (DeleteItem).
    const idempotencyRecord = ['dynamodb:PutItem workspace', 'dynamodb:UpdateItem workspace', 'dynamodb:DeleteItem workspace'];
    const expectedGrants: Partial<Record<OperationId, string[]>> = {
      capturePage: [
        'dynamodb:UpdateItem rate',
        'dynamodb:GetItem cache',
        'dynamodb:PutItem cache',
        's3:GetObject cache/captures/*',
        's3:PutObject cache/captures/*',
      ],
      purgeCache: ['dynamodb:DeleteItem cache', 'dynamodb:Scan cache', 'dynamodb:BatchWriteItem cache', 's3:DeleteObject cache/captures/*'],
      listReleases: [...authReads, ...query, stamp],
      createRelease: [...authReads, 'dynamodb:PutItem workspace', stamp],
      runReleaseShots: [
        ...authReads,
        ...idempotencyRecord,
        'dynamodb:BatchWriteItem workspace',
        'dynamodb:UpdateItem rate',
        ...['GetQueueAttributes', 'GetQueueUrl', 'SendMessage'].map((action) => `sqs:${action} shots`),
        stamp,
      ],
      listReleaseShots: [...authReads, ...query, stamp],
      createSourceApp: [...authReads, ...idempotencyRecord, stamp],
      // The app's address, record and organization; the delivery's record; the claim and the draft;
      // a new draft's shots (a batch write, the queue) and the per-app limit and shots quota.
      takeInRelease: [
        'dynamodb:GetItem workspace',
        ...idempotencyRecord,
        'dynamodb:BatchWriteItem workspace',
        'dynamodb:UpdateItem rate',
        ...['GetQueueAttributes', 'GetQueueUrl', 'SendMessage'].map((action) => `sqs:${action} shots`),
      ],
      createAssetUpload: [...authReads, ...idempotencyRecord, 's3:PutObject assets/uploads/*', stamp],
      completeAssetUpload: [
        ...authReads,
        ...idempotencyRecord,
        's3:GetObject assets/uploads/*',
        's3:GetObject assets/workspaces/*',
        's3:PutObject assets/workspaces/*',
        's3:DeleteObject assets/uploads/*',
        's3:DeleteObject assets/workspaces/*',
        stamp,
      ],
      getAssetDownloadUrl: [...authReads, 's3:GetObject assets/workspaces/*', stamp],
      deleteAsset: [
        ...authReads,
        'dynamodb:UpdateItem workspace',
        'dynamodb:UpdateItem rate',
        ...['GetQueueAttributes', 'GetQueueUrl', 'SendMessage'].map((action) => `sqs:${action} deletion`),
        stamp,
      ],
      activateOrganization: [...shellReads, 'dynamodb:UpdateItem workspace'],
      listAssets: [...authReads, ...query, 's3:GetObject assets/workspaces/*', stamp],
      // Sign-in: the code route touches no workspace item, so its answer cannot depend on one.
      sendEmailCode: ['dynamodb:UpdateItem rate', ...['GetQueueAttributes', 'GetQueueUrl', 'SendMessage'].map((action) => `sqs:${action} mail`)],
      verifyEmailCode: ['dynamodb:UpdateItem rate', ...shellReads, 'dynamodb:PutItem workspace', 'dynamodb:UpdateItem workspace'],
      passkeySignInOptions: ['dynamodb:UpdateItem rate', 'dynamodb:PutItem workspace'],
      signInWithPasskey: ['dynamodb:UpdateItem rate', ...shellReads, 'dynamodb:PutItem workspace', 'dynamodb:UpdateItem workspace'],
      getSession: [...shellReads, 'dynamodb:UpdateItem workspace'],
      signOut: ['dynamodb:UpdateItem workspace'],
      listSessions: shellReads,
      endOtherSessions: [...shellReads, 'dynamodb:UpdateItem workspace'],
      endSession: [...shellReads, 'dynamodb:UpdateItem workspace'],
      passkeyRegistrationOptions: [...shellReads, 'dynamodb:PutItem workspace'],
      registerPasskey: [...authReads, 'dynamodb:UpdateItem workspace', 'dynamodb:PutItem workspace'],
      listPasskeys: shellReads,
      deletePasskey: [...shellReads, 'dynamodb:DeleteItem workspace'],
      listMyInvitations: shellReads,
      acceptInvitation: [...shellReads, 'dynamodb:UpdateItem workspace', 'dynamodb:PutItem workspace'],
      ...Object.fromEntries(
        ROUTE_LIST.filter((row) => row.tag === 'Shell' && row.operationId !== 'activateOrganization').map((row) => [row.operationId, shellReads]),
      ),
    };

    it.each(ROUTE_LIST.map((row) => [row.operationId, expectedGrants[row.operationId] ?? []] as const))(
      'grants %s exactly the data actions its route takes',
      (operationId, expected) => {
        // Act
        const grants = dataGrantsOf(template, stack, roleIdOf(stack.routeFunctions.get(operationId)!));

        // Assess
        expect(grants).toEqual([...expected].sort());
      },
    );

    it('gives Scan to the one function that scans: the cache purge', () => {
      // Prepare
      const scanners = ROUTE_LIST.filter((row) =>
        dataGrantsOf(template, stack, roleIdOf(stack.routeFunctions.get(row.operationId)!)).some((grant) => grant.startsWith('dynamodb:Scan ')),
      );

      // Assess
      expect(scanners.map((row) => row.operationId)).toEqual(['purgeCache']);
    });

    it('limits the key last-used stamp to the lastUsedAt attribute of API-key items, returning nothing', () => {
      // Prepare
      const statements = statementsOfRole(template, roleIdOf(stack.routeFunctions.get('listReleases')!)).filter((statement) => statement.Condition);

      // Assess
      expect(statements).toEqual([
        {
          Effect: 'Allow',
          Action: 'dynamodb:UpdateItem',
          Resource: { 'Fn::GetAtt': [logicalId(stack.data.tables.workspace), 'Arn'] },
          Condition: {
            'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['APIKEY#*'] },
            'ForAllValues:StringEquals': { 'dynamodb:Attributes': ['pk', 'sk', 'lastUsedAt'] },
            StringEqualsIfExists: { 'dynamodb:ReturnValues': 'NONE' },
          },
        },
      ]);
    });

    it('gives the fallback function no DynamoDB, S3 or SQS permission', () => {
      // Prepare
      const statements = statementsOfRole(template, roleIdOf(stack.fallbackFunction));

      // Assess
      expect(statements.flatMap(actionsOf).filter((action) => DATA_SERVICES.test(action))).toEqual([]);
    });
  });

  describe('alarms', () => {
    let alarms: Template;
    /** A reference of the stack's template as the alarms' template receives it. */
    const passed = (value: unknown) => parameterFor(template, stack.alarms.stack, value);
    beforeAll(() => {
      alarms = Template.fromStack(stack.alarms.stack);
    });

    it('puts every alarm in the nested stack of the alarms, and nothing else there', () => {
      // Assess
      expect(Object.keys(template.findResources('AWS::CloudWatch::Alarm')).length).toBeGreaterThan(0);
      Template.fromStack(stack).resourceCountIs('AWS::CloudWatch::Alarm', 0);
      for (const nested of stack.node
        .findAll()
        .filter(NestedStack.isNestedStack)
        .filter((each) => each !== stack.alarms.stack)) {
        Template.fromStack(nested).resourceCountIs('AWS::CloudWatch::Alarm', 0);
      }
      expect(Object.keys(alarms.toJSON().Resources).length).toBe(Object.keys(alarms.findResources('AWS::CloudWatch::Alarm')).length);
    });

    it('names every alarm <stack>-<id>, each name once', () => {
      // Prepare
      const names = Object.values(alarms.findResources('AWS::CloudWatch::Alarm')).map((alarm) => (alarm as CfnResource).Properties?.AlarmName as string);

      // Assess
      expect(new Set(names).size).toBe(names.length);
      for (const name of names) expect(name).toMatch(/^Easel-[A-Za-z0-9]+$/);
      expect(names).toContain('Easel-CapturePageFunctionErrors');
    });

    it('alarms on slow captures, every function failing or throttled, and each dead-letter queue', () => {
      // Assess
      const functionCount = ROUTE_LIST.length + 1 + QUEUE_NAMES.length;
      // Beside these, test/infra/operations.test.ts: service faults, outside failures, unsaved idempotent
      // answers, 429 and 4xx rates, each table's throttles, the deletion and shot backlogs.
      alarms.resourceCountIs('AWS::CloudWatch::Alarm', 1 + 2 * functionCount + QUEUE_NAMES.length + 3 + 2 + TABLE_NAMES.length + 2);
      for (const name of QUEUE_NAMES) {
        alarms.hasResourceProperties('AWS::CloudWatch::Alarm', {
          Namespace: 'AWS/SQS',
          MetricName: 'ApproximateNumberOfMessagesVisible',
          Dimensions: [{ Name: 'QueueName', Value: passed({ 'Fn::GetAtt': [logicalId(stack.data.queues[name].deadLetter), 'QueueName'] }) }],
          Threshold: 1,
        });
        alarms.hasResourceProperties('AWS::CloudWatch::Alarm', {
          Namespace: 'AWS/Lambda',
          MetricName: 'Errors',
          Dimensions: [{ Name: 'FunctionName', Value: passed({ Ref: logicalId(stack.workerFunctions.get(name)!) }) }],
          Threshold: 1,
        });
      }
    });

    it.each(['Errors', 'Throttles'])('alarms on %s of every function, at the first one, to the alarm topic', (metricName) => {
      // Prepare
      const functionIds = Object.keys(template.findResources('AWS::Lambda::Function'));

      // Assess
      for (const id of functionIds) {
        alarms.hasResourceProperties('AWS::CloudWatch::Alarm', {
          Namespace: 'AWS/Lambda',
          MetricName: metricName,
          Dimensions: [{ Name: 'FunctionName', Value: passed({ Ref: id }) }],
          Statistic: 'Sum',
          Period: 300,
          Threshold: 1,
          ComparisonOperator: 'GreaterThanOrEqualToThreshold',
          TreatMissingData: 'notBreaching',
          AlarmActions: [passed({ Ref: logicalId(stack.alarms.topic) })],
        });
      }
    });

    it('alarms when the capture p95 duration stays at 20 s or more for two periods', () => {
      // Assess
      alarms.hasResourceProperties('AWS::CloudWatch::Alarm', {
        Namespace: 'AWS/Lambda',
        MetricName: 'Duration',
        Dimensions: [{ Name: 'FunctionName', Value: passed({ Ref: logicalId(stack.routeFunctions.get('capturePage')!) }) }],
        ExtendedStatistic: 'p95',
        Threshold: 20_000,
        EvaluationPeriods: 2,
        DatapointsToAlarm: 2,
        AlarmActions: [passed({ Ref: logicalId(stack.alarms.topic) })],
      });
    });
  });

  describe('page capture and the internal secret', () => {
    const functions = () => Object.entries(template.findResources('AWS::Lambda::Function')) as [string, CfnResource][];

    it.each(['UNSAFE_TEST_LOOPBACK_PORTS', 'LOCAL_CAPTURE_PORTS'])('never opens loopback to outbound fetches: no function has %s', (name) => {
      // Assess
      expect(
        functions()
          .filter(([, fn]) => name in variablesOf(fn))
          .map(([id]) => id),
      ).toEqual([]);
    });

    it('installs @sparticuz/chromium and sharp beside the capture bundle instead of bundling them, on x86_64 with the memory Chromium needs', () => {
      // Prepare
      const row = ROUTE_LIST.find((candidate) => candidate.operationId === 'capturePage')!;
      const fn = resources[logicalId(stack.routeFunctions.get('capturePage')!)]!;

      // Assess
      expect(row.nodeModules).toEqual(['@sparticuz/chromium', 'sharp']);
      expect(fn.Properties).toMatchObject({ Architectures: ['x86_64'], MemorySize: row.memory, Timeout: 29 });
      // @sparticuz/chromium: 1,600 MB or more.
      expect(row.memory).toBeGreaterThanOrEqual(1600);
    });

    it('points the two functions that run Chromium, capture and the shot worker, at the Chromium pack beside their bundles', () => {
      // Prepare
      const chromium = [logicalId(stack.routeFunctions.get('capturePage')!), logicalId(stack.workerFunctions.get('shots')!)].sort();

      // Assess
      expect(
        functions()
          .filter(([, fn]) => 'CHROMIUM_PACK' in variablesOf(fn))
          .map(([id, fn]) => [id, variablesOf(fn).CHROMIUM_PACK])
          .sort(),
      ).toEqual(chromium.map((id) => [id, '/var/task/chromium']));
    });

    it('gives the internal secret to the internal routes only, by ARN, never by value', () => {
      // Prepare
      const secretId = logicalId(stack.internalSecret as unknown as IConstruct);
      const internal = ROUTE_LIST.filter((row) => row.auth === 'internal').map((row) => logicalId(stack.routeFunctions.get(row.operationId)!));
      const withSecret = functions()
        .filter(([, fn]) => 'INTERNAL_SECRET_ARN' in variablesOf(fn))
        .map(([id]) => id);
      const readers = functions()
        .filter(([id]) => {
          const roleId = (resources[id]!.Properties!.Role as { 'Fn::GetAtt': [string] })['Fn::GetAtt'][0];
          return statementsOfRole(template, roleId).some(
            (statement) => actionsOf(statement).includes('secretsmanager:GetSecretValue') && JSON.stringify(statement.Resource).includes(secretId),
          );
        })
        .map(([id]) => id);

      // Assess
      expect(internal.length).toBeGreaterThan(0);
      expect(withSecret.sort()).toEqual([...internal].sort());
      expect(readers.sort()).toEqual([...internal].sort());
      for (const id of internal) expect(variablesOf(resources[id]!).INTERNAL_SECRET_ARN).toEqual({ Ref: secretId });
      expect(functions().filter(([, fn]) => 'INTERNAL_SECRET' in variablesOf(fn))).toEqual([]);
      expect(resources[secretId]?.Properties).toMatchObject({ GenerateSecretString: { PasswordLength: 48, ExcludePunctuation: true } });
    });
  });

  describe('template', () => {
    it('outputs the API URL and the name of every table, bucket and queue', () => {
      // Prepare
      const outputs = Object.keys(template.findOutputs('*'));

      // Assess
      expect(outputs).toEqual(expect.arrayContaining(['ApiUrl', 'PublicBaseUrl', 'AlarmTopicArn']));
      for (const name of TABLE_NAMES) expect(outputs).toContain(`${pascal(name)}TableName`);
      for (const name of BUCKET_NAMES) expect(outputs).toContain(`${pascal(name)}BucketName`);
      for (const name of QUEUE_NAMES) expect(outputs).toContain(`${pascal(name)}QueueUrl`);
    });

    it('has no circular dependency between resources', () => {
      // Prepare
      const edges = new Map<string, Set<string>>();
      for (const [id, resource] of Object.entries(resources)) {
        const targets = new Set<string>([resource.DependsOn ?? []].flat());
        const text = JSON.stringify(resource.Properties ?? {});
        for (const match of text.matchAll(/"Ref":"([^"]+)"|"Fn::GetAtt":\["([^"]+)"|\$\{([A-Za-z0-9]+)[.}]/g)) {
          const target = match[1] ?? match[2] ?? match[3]!;
          if (target in resources) targets.add(target);
        }
        edges.set(id, targets);
      }
      const state = new Map<string, 'visiting' | 'done'>();
      const cycles: string[] = [];
      const visit = (id: string, path: string[]): void => {
        if (state.get(id) === 'done') return;
        if (state.get(id) === 'visiting') {
          cycles.push([...path.slice(path.indexOf(id)), id].join(' -> '));
          return;
        }
        state.set(id, 'visiting');
        for (const target of edges.get(id) ?? []) visit(target, [...path, id]);
        state.set(id, 'done');
      };

      // Act
      for (const id of edges.keys()) visit(id, []);

      // Assess
      expect(cycles).toEqual([]);
    });
  });
});

describe('EaselStack with an existing internal secret', () => {
  it('grants the internal routes that secret and creates none', () => {
    // Prepare
    const arn = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:easel-internal-AbCdEf';

    // Act
    const { stack, template } = synthEasel({ internalSecretArn: arn });

    // Assess
    template.resourceCountIs('AWS::SecretsManager::Secret', 0);
    const purge = template.toJSON().Resources[logicalId(stack.routeFunctions.get('purgeCache')!)] as CfnResource;
    expect((purge.Properties!.Environment as { Variables: Record<string, unknown> }).Variables.INTERNAL_SECRET_ARN).toBe(arn);
    template.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Action: Match.arrayWith(['secretsmanager:GetSecretValue']), Resource: arn })]) },
    });
  });
});

describe('EaselStack with a custom domain and editor origins', () => {
  it('gives every function the configured public base URL and editor origins', () => {
    // Prepare + Act
    const { template } = synthEasel({ publicBaseUrl: 'https://api.easel.test/', editorOrigins: ['https://editor.easel.test', 'http://localhost:5173'] });

    // Assess
    template.resourcePropertiesCountIs(
      'AWS::Lambda::Function',
      {
        Environment: {
          Variables: Match.objectLike({
            PUBLIC_BASE_URL: 'https://api.easel.test',
            EDITOR_ORIGINS: 'https://editor.easel.test,http://localhost:5173',
          }),
        },
      },
      ROUTE_LIST.length + 1 + QUEUE_NAMES.length,
    );
  });

  it.each([
    ['a public base URL with a path', { publicBaseUrl: 'https://api.easel.test/v1' }],
    ['an editor origin without a scheme', { editorOrigins: ['editor.easel.test'] }],
  ])('refuses %s', (_case, props: EaselStackProps) => {
    // Act + Assess
    expect(() => new EaselStack(newApp(), 'Easel', props)).toThrow(/must be an origin/);
  });
});

describe('DataStores.grant', () => {
  const variants: [string, ResourceAccess, RegExp[], RegExp[]][] = [
    [
      'reads on a table',
      { tables: { workspace: ['GetItem', 'Query'] } },
      [/^dynamodb:GetItem$/, /^dynamodb:Query$/],
      [/^dynamodb:(Put|Update|Delete|BatchWrite|Scan|Describe)/],
    ],
    ['one write on a table', { tables: { workspace: ['PutItem'] } }, [/^dynamodb:PutItem$/], [/^dynamodb:(Get|Query|Scan|Update|Delete|Batch)/]],
    ['reads on a bucket', { buckets: { assets: { GetObject: ['workspaces/'] } } }, [/^s3:GetObject$/], [/^s3:(Put|Delete|List)/]],
    ['puts on a bucket', { buckets: { assets: { PutObject: ['uploads/'] } } }, [/^s3:PutObject$/], [/^s3:(Get|Delete|List)/]],
    ['send on a queue', { queues: { deletion: 'send' } }, [/^sqs:SendMessage$/], [/^sqs:(ReceiveMessage|DeleteMessage)$/]],
    ['nothing', {}, [], [DATA_SERVICES]],
  ];

  it.each(variants)('grants %s and nothing more', (_case, access, present, absent) => {
    // Prepare
    const stack = new Stack(newApp(), 'Grants');
    const data = new DataStores(stack, 'Data');
    const role = new Role(stack, 'Role', { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });

    // Act
    data.grant(role, access);

    // Assess
    const actions = statementsOfRole(Template.fromStack(stack), logicalId(role)).flatMap(actionsOf);
    for (const pattern of present)
      expect(
        actions.some((action) => pattern.test(action)),
        `${pattern} in ${actions.join(' ')}`,
      ).toBe(true);
    for (const pattern of absent) expect(actions.filter((action) => pattern.test(action))).toEqual([]);
  });
});

describe('EaselStack with sign-in by SES', () => {
  it('lets only the mail worker send, as the one identity and from the one address, and configures every function alike', () => {
    // Prepare + Act
    const { stack, template } = synthEasel({
      env: { account: '123456789012', region: 'eu-west-1' },
      signIn: { emailFrom: 'Easel <no-reply@mail.easel.test>', allowSignUp: true, sessionHours: 24, passkeyRpId: 'easel.test' },
    });

    // Assess: SendEmail on the identity, conditioned on the sender, in the worker's policy alone
    const worker = template.toJSON().Resources[logicalId(stack.workerFunctions.get('mail')!)] as CfnResource;
    expect((worker.Properties!.Environment as { Variables: Record<string, unknown> }).Variables.EMAIL_FROM).toBe('Easel <no-reply@mail.easel.test>');
    const sending = Object.values(template.findResources('AWS::IAM::Policy')).filter((policy) => JSON.stringify(policy).includes('ses:'));
    expect(sending).toHaveLength(1);
    expect(JSON.stringify(sending[0])).toContain(
      JSON.stringify({ Action: 'ses:SendEmail', Condition: { StringEquals: { 'ses:FromAddress': 'no-reply@mail.easel.test' } } }).slice(1, -1),
    );
    expect(JSON.stringify(sending[0])).toContain(':ses:eu-west-1:123456789012:identity/mail.easel.test');
    template.resourcePropertiesCountIs(
      'AWS::Lambda::Function',
      { Environment: { Variables: Match.objectLike({ ALLOW_SIGN_UP: 'true', SESSION_HOURS: '24', WEBAUTHN_RP_ID: 'easel.test' }) } },
      ROUTE_LIST.length + 1 + QUEUE_NAMES.length,
    );
  });
});
