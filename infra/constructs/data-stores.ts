import { Duration, Names, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyDocument, PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IGrantable } from 'aws-cdk-lib/aws-iam';
import { BlockPublicAccess, Bucket, BucketEncryption, HttpMethods, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import type { BucketProps, CfnBucket } from 'aws-cdk-lib/aws-s3';
import type { LifecycleRule } from 'aws-cdk-lib/aws-s3';
import { CfnBucketPolicy as CfnDirectoryBucketPolicy, CfnDirectoryBucket } from 'aws-cdk-lib/aws-s3express';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { IConstruct } from 'constructs';
import type { ResourceAccess } from '#shared/route-types.ts';
import { BUCKETS, EXPRESS_CACHE, QUEUES, TABLES } from '#shared/resources.ts';
import type { BucketDef, BucketName, QueueDef, QueueName, TableDef, TableName } from '#shared/resources.ts';
import { API_KEY_LAST_USED, keys } from '#shared/store/keys.ts';

/** Object.entries that keeps the key type of a record whose keys are known. */
export function entriesOf<K extends string, V>(record: Partial<Record<K, V>>): [K, V][] {
  return Object.entries(record).filter(([, value]) => value !== undefined) as [K, V][];
}

/** workspace → Workspace: construct ids and output names. */
export function pascal(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** An Availability Zone ID, as S3 Express One Zone names its zones (use1-az4), not a zone name (us-east-1a). */
const ZONE_ID = /^[a-z]{2,}[0-9]+-az[0-9]+$/;

export interface DataStoresProps {
  /** The Availability Zone ID of an S3 Express One Zone bucket for small cached PNGs (resources.ts, EXPRESS_CACHE); none without. */
  cacheZone?: string;
}

export interface QueueWithDeadLetter {
  queue: Queue;
  deadLetter: Queue;
}

/** The stateful resources of shared/resources.ts, named by CloudFormation so stacks can share an account; functions read {@link DataStores.environment}. */
export class DataStores extends Construct {
  readonly tables: Record<TableName, Table>;
  readonly buckets: Record<BucketName, Bucket>;
  readonly queues: Record<QueueName, QueueWithDeadLetter>;
  /** S3 server access logs of every bucket, one prefix per bucket. */
  readonly accessLogs: Bucket;
  /** The directory bucket for small cached PNGs, with `cacheZone`. */
  readonly expressCache?: CfnDirectoryBucket;

  constructor(scope: Construct, id: string, props: DataStoresProps = {}) {
    super(scope, id);
    // Log delivery by bucket policy: BucketOwnerEnforced forbids the LogDeliveryWrite ACL. Set here too for apps without cdk.json's flag.
    this.node.setContext('@aws-cdk/aws-s3:serverAccessLogsUseBucketPolicy', true);
    this.accessLogs = new Bucket(this, 'AccessLogsBucket', {
      ...PRIVATE_BUCKET,
      lifecycleRules: [{ id: 'expire-logs', expiration: Duration.days(90) }],
      // Logs outlive a deleted stack, like the buckets they describe.
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(this.accessLogs).acknowledge({
      id: 'AwsSolutions-S1',
      reason:
        'This is the server access log bucket of the stack: logging it into itself would log every log delivery, and into another bucket only moves the question. Only S3 log delivery writes to it (bucket policy).',
    });
    this.tables = mapRecord(TABLES, (name, def) => this.table(name, def));
    this.buckets = mapRecord(BUCKETS, (name, def) => this.bucket(name, def));
    this.queues = mapRecord(QUEUES, (name, def) => this.queue(name, def));
    if (props.cacheZone !== undefined) this.expressCache = this.expressCacheBucket(props.cacheZone);
  }

  /** One zone, expiring as the cache bucket; Lifecycle deletes in a session the policy must allow; retained, as CloudFormation cannot empty it. */
  private expressCacheBucket(zone: string): CfnDirectoryBucket {
    if (!ZONE_ID.test(zone)) throw new Error(`Context cacheZone must be an Availability Zone ID such as use1-az4 (not a name such as us-east-1a), got ${zone}`);
    const bucket = new CfnDirectoryBucket(this, 'ExpressCacheBucket', {
      dataRedundancy: 'SingleAvailabilityZone',
      locationName: zone,
      lifecycleConfiguration: {
        rules: [
          { id: 'expire-objects', status: 'Enabled', expirationInDays: EXPRESS_CACHE.expireAfterDays },
          { id: 'abort-incomplete-uploads', status: 'Enabled', abortIncompleteMultipartUpload: { daysAfterInitiation: 1 } },
        ],
      },
    });
    bucket.applyRemovalPolicy(RemovalPolicy.RETAIN);
    new CfnDirectoryBucketPolicy(this, 'ExpressCacheBucketPolicy', {
      bucket: bucket.ref,
      policyDocument: new PolicyDocument({
        statements: [
          new PolicyStatement({
            principals: [new ServicePrincipal('lifecycle.s3.amazonaws.com')],
            actions: ['s3express:CreateSession'],
            resources: [bucket.attrArn],
            conditions: { StringEquals: { 's3express:SessionMode': 'ReadWrite' } },
          }),
        ],
      }),
    });
    return bucket;
  }

  environment(): Record<string, string> {
    const env: Record<string, string> = {};
    for (const [name, def] of entriesOf<TableName, TableDef>(TABLES)) env[def.env] = this.tables[name].tableName;
    for (const [name, def] of entriesOf<BucketName, BucketDef>(BUCKETS)) env[def.env] = this.buckets[name].bucketName;
    for (const [name, def] of entriesOf<QueueName, QueueDef>(QUEUES)) env[def.env] = this.queues[name].queue.queueUrl;
    if (this.expressCache) env[EXPRESS_CACHE.env] = this.expressCache.ref;
    return env;
  }

  /** Exactly the actions a row's `access` names on its resources: CDK's grant helpers grant groups (Scan with every read) on every key. */
  grant(grantee: IGrantable, access: ResourceAccess): void {
    for (const [name, actions] of entriesOf(access.tables ?? {})) {
      const table = this.tables[name];
      this.allow(
        grantee,
        actions.map((action) => `dynamodb:${action}`),
        [table.tableArn],
      );
      const indexes = TABLES[name].indexes.map((index) => `${table.tableArn}/index/${index.name}`);
      if (actions.includes('Query') && indexes.length > 0) this.allow(grantee, ['dynamodb:Query'], indexes);
    }
    for (const [name, byAction] of entriesOf(access.buckets ?? {})) {
      const bucket = this.buckets[name];
      const granted = new Set<string>();
      for (const [action, keyPrefixes] of entriesOf(byAction)) {
        this.allow(
          grantee,
          [`s3:${action}`],
          keyPrefixes.map((prefix) => bucket.arnForObjects(`${prefix}*`)),
        );
        for (const prefix of keyPrefixes) granted.add(prefix);
      }
      for (const prefix of granted) this.acknowledgeKeyPrefix(grantee, bucket, prefix);
      // A directory bucket grants by session: whoever uses the cache's objects opens one on it.
      if (name === 'cache' && this.expressCache) this.allow(grantee, ['s3express:CreateSession'], [this.expressCache.attrArn]);
    }
    for (const [name] of entriesOf(access.queues ?? {})) this.queues[name].queue.grantSendMessages(grantee);
    if (access.apiKeyStamp) this.grantApiKeyStamp(grantee);
    // access.sourceSecrets is the stack's to grant: the secrets are not among these stores.
  }

  /** The one write of an otherwise read-only route: the last-used attribute of API-key items. */
  private grantApiKeyStamp(grantee: IGrantable): void {
    const def = TABLES.workspace;
    grantee.grantPrincipal.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['dynamodb:UpdateItem'],
        resources: [this.tables.workspace.tableArn],
        conditions: {
          'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${keys.apiKey('').pk}*`] },
          'ForAllValues:StringEquals': { 'dynamodb:Attributes': [def.partitionKey, def.sortKey, API_KEY_LAST_USED] },
          StringEqualsIfExists: { 'dynamodb:ReturnValues': 'NONE' },
        },
      }),
    );
  }

  /** cdk-nag IAM5 flags `<bucket>/<prefix>*`; keys are generated under the prefix, so it is the narrowest resource. */
  private acknowledgeKeyPrefix(grantee: IGrantable, bucket: Bucket, prefix: string): void {
    const role = grantee.grantPrincipal as Partial<IConstruct>;
    if (role.node === undefined) return;
    const resource = bucket.node.defaultChild as CfnBucket;
    // A role in a nested stack gets the ARN as a parameter, which CDK names after the bucket (core's generateUniqueId).
    const arn =
      Stack.of(role as IConstruct) === Stack.of(bucket)
        ? `${Stack.of(bucket).getLogicalId(resource)}.Arn`
        : `referenceto${Names.nodeUniqueId(resource.node)}Arn`;
    Validations.of(role as IConstruct).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${arn}>/${prefix}*]`,
      reason: `Keys under ${prefix} are generated per object (workspace and asset id, or URL hash), so the prefix is the narrowest resource; the statement names only the actions this function takes there.`,
    });
  }

  private allow(grantee: IGrantable, actions: string[], resources: string[]): void {
    grantee.grantPrincipal.addToPrincipalPolicy(new PolicyStatement({ actions, resources }));
  }

  private table(name: TableName, def: TableDef): Table {
    // A backed-up table is the source of truth: keep and protect it. The others hold derived, short-lived data.
    const keep = def.pointInTimeRecovery;
    const table = new Table(this, `${pascal(name)}Table`, {
      partitionKey: { name: def.partitionKey, type: AttributeType.STRING },
      sortKey: def.sortKey === undefined ? undefined : { name: def.sortKey, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: def.pointInTimeRecovery },
      timeToLiveAttribute: def.ttlAttribute,
      deletionProtection: keep,
      removalPolicy: keep ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    if (!def.pointInTimeRecovery) {
      Validations.of(table).acknowledge({
        id: 'AwsSolutions-DDB3',
        reason: `The ${name} table holds derived, short-lived items that expire by TTL (capture cache entries, rate-limit windows): there is nothing to restore, and a restored copy would be stale by the time it is usable.`,
      });
    }
    for (const index of def.indexes) {
      table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: index.sortKey === undefined ? undefined : { name: index.sortKey, type: AttributeType.STRING },
        projectionType: ProjectionType.ALL,
      });
    }
    return table;
  }

  private bucket(name: BucketName, def: BucketDef): Bucket {
    const lifecycleRules: LifecycleRule[] = [{ id: 'abort-incomplete-uploads', abortIncompleteMultipartUploadAfter: Duration.days(1) }];
    for (const { prefix, days } of def.expirePrefixes ?? []) {
      lifecycleRules.push({ id: `expire-${prefix.replace(/[^a-z0-9]+/gi, '-').replace(/-$/, '')}`, prefix, expiration: Duration.days(days) });
    }
    if (def.expireAfterDays !== undefined) {
      lifecycleRules.push({ id: 'expire-objects', expiration: Duration.days(def.expireAfterDays) });
    }
    return new Bucket(this, `${pascal(name)}Bucket`, {
      ...PRIVATE_BUCKET,
      serverAccessLogsBucket: this.accessLogs,
      serverAccessLogsPrefix: `${name}/`,
      lifecycleRules,
      // Any origin: a presigned URL is itself the credential. Limiting origins would not stop a
      // leaked URL from curl, but would break uploads from an API-key holder's own web app.
      cors: def.browserCors
        ? [
            {
              allowedMethods: [HttpMethods.GET, HttpMethods.HEAD, HttpMethods.PUT],
              allowedOrigins: ['*'],
              allowedHeaders: ['*'],
              exposedHeaders: ['ETag'],
              maxAge: 3600,
            },
          ]
        : undefined,
      // CloudFormation cannot delete a non-empty bucket, and auto-deletion needs a function; caches expire, assets are user data.
      removalPolicy: RemovalPolicy.RETAIN,
    });
  }

  private queue(name: QueueName, def: QueueDef): QueueWithDeadLetter {
    if (def.visibilityTimeoutSeconds < def.worker.timeout) {
      // Lambda refuses an SQS trigger whose visibility timeout is shorter than the function's timeout.
      throw new Error(`Queue ${name}: visibility timeout ${def.visibilityTimeoutSeconds}s is shorter than its worker's ${def.worker.timeout}s timeout`);
    }
    const deadLetter = new Queue(this, `${pascal(name)}DeadLetterQueue`, {
      retentionPeriod: Duration.days(def.deadLetter.retentionDays),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    const queue = new Queue(this, `${pascal(name)}Queue`, {
      visibilityTimeout: Duration.seconds(def.visibilityTimeoutSeconds),
      ...(def.retentionSeconds === undefined ? {} : { retentionPeriod: Duration.seconds(def.retentionSeconds) }),
      deadLetterQueue: { queue: deadLetter, maxReceiveCount: def.deadLetter.maxReceiveCount },
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    return { queue, deadLetter };
  }
}

/** S3-managed keys because log delivery cannot use KMS ones. */
const PRIVATE_BUCKET = {
  blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
  encryption: BucketEncryption.S3_MANAGED,
  enforceSSL: true,
  minimumTLSVersion: 1.2,
  objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
} as const satisfies BucketProps;

function mapRecord<K extends string, V, R>(record: Record<K, V>, fn: (key: K, value: V) => R): Record<K, R> {
  const out = {} as Record<K, R>;
  for (const [key, value] of entriesOf<K, V>(record)) out[key] = fn(key, value);
  return out;
}
