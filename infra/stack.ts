import { ArnFormat, CfnOutput, Duration, NestedStack, RemovalPolicy, Stack, Token, Validations } from 'aws-cdk-lib';
import type { StackProps } from 'aws-cdk-lib';
import { HttpApi, HttpMethod, HttpRoute, HttpRouteKey } from 'aws-cdk-lib/aws-apigatewayv2';
import type { HttpStage } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { BUCKETS, EXPRESS_CACHE, QUEUES, TABLES } from '#shared/resources.ts';
import type { QueueDef, QueueName } from '#shared/resources.ts';
import type { AuthKind, ResourceAccess } from '#shared/route-types.ts';
import { FALLBACK, ROUTE_LIST } from '#shared/routes.ts';
import type { OperationId } from '#shared/routes.ts';
import { ALARM_PERIOD, Alarms } from '#infra/constructs/alarms.ts';
import { DEFAULT_THROTTLES, checkThrottle, defaultStage } from '#infra/constructs/api-stage.ts';
import type { Throttle } from '#infra/constructs/api-stage.ts';
import type { AlarmTarget } from '#infra/constructs/alarms.ts';
import { DataStores, entriesOf, pascal } from '#infra/constructs/data-stores.ts';
import { CaptureImage, CaptureImageFunction, chromiumEntries } from '#infra/constructs/capture-image.ts';
import { EaselFunction, functionProps } from '#infra/constructs/easel-function.ts';
import type { FunctionDef } from '#infra/constructs/easel-function.ts';
import { Operations } from '#infra/constructs/operations.ts';
import { grantSendEmail, signInEnvironment } from '#infra/constructs/sign-in-mail.ts';
import type { SignInProps } from '#infra/constructs/sign-in-mail.ts';

export interface EaselStackProps extends StackProps {
  /** Public origin of the API (a custom domain); defaults to the HTTP API's own endpoint. */
  publicBaseUrl?: string;
  /** Browser origins of the editor, allowed with credentials on cookie routes. */
  editorOrigins?: readonly string[];
  /** Origin of the API the editor page at / calls, when it is not the origin serving the page (EDITOR_API_URL). */
  editorApiUrl?: string;
  /** ARN of an existing secret for the internal routes (e.g. shared by stages); by default one is generated. */
  internalSecretArn?: string;
  /** Throttling of the whole stage (every route, every caller together). */
  throttle?: Throttle;
  /** Tighter throttling of the expensive anonymous routes. */
  captureThrottle?: Throttle;
  exportThrottle?: Throttle;
  /** Where alarms are delivered; without one, synth warns. */
  alarmTarget?: AlarmTarget;
  /** Alarm when capture's p95 duration stays at or above this many ms for 10 minutes. */
  captureP95AlarmMs?: number;
  /** An Availability Zone ID (use1-az4) for an S3 Express One Zone bucket that keeps small cached PNGs, where a miss costs less. */
  cacheZone?: string;
  /** Release shots captured at once, across all runs (the shot queue's maximum concurrency, 2 to 1000). */
  shotConcurrency?: number;
  /** The functions that run Chromium as one container image with Chromium unpacked, instead of zip functions that unpack it (deploying then needs Docker). */
  captureImage?: boolean;
  /** Sign-in: codes by e-mail through SES, sign-up, sessions and passkeys (docs/deploy.md, "Sign-in"). */
  signIn?: SignInProps;
}

/** Below capture's own time-out and API Gateway's, so slowness alarms before requests fail. */
export const DEFAULT_CAPTURE_P95_ALARM_MS = 20_000;

/** The routes that reach what the caller names or an outside service, and whose failure that is (errors.ts, FailureOrigin). */
export const OUTSIDE_FAILURES: Partial<Record<OperationId, 'target' | 'upstream'>> = { capturePage: 'target', getImageProxy: 'target', getTweet: 'upstream' };

/**
 * Folders of functions/ whose route functions, each with its role, policy and log group, live in a
 * nested stack of their own, with this id (docs/deploy.md, "The stack's shape"); their routes stay here.
 */
export const NESTED_FUNCTIONS: Readonly<Record<string, string>> = { 'functions/auth/': 'SignIn' };

/** What each queue's worker may touch besides consuming its queue; `sourceSecrets`: read the source apps' secrets. */
const WORKER_ACCESS: Record<QueueName, ResourceAccess> = {
  deletion: { tables: { workspace: ['GetItem', 'UpdateItem'] }, buckets: { assets: { DeleteObject: [BUCKETS.assets.prefixes.objects] } } },
  // Whether the address may sign in (its user, its invitations), then its code's hash.
  mail: { tables: { workspace: ['GetItem', 'Query', 'PutItem'] } },
  // The shot (read, claimed, finished), source apps and earlier releases (Query), baselines
  // (BatchGetItem, GetObject), the pictures (PutObject, PutItem of their records).
  shots: {
    tables: { workspace: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem'] },
    buckets: { assets: { GetObject: [BUCKETS.assets.prefixes.objects], PutObject: [BUCKETS.assets.prefixes.objects] } },
    sourceSecrets: true,
  },
};

/** Secrets Manager names of the source apps' secrets: `<prefix><secretReference>`. */
export const sourceSecretPrefix = (stackName: string) => `easel/${stackName}/source-apps/`;

/**
 * No API Gateway authorizer (cdk-nag APIG4): each function authenticates against its row's
 * permission, which an authorizer cannot know, without a second credential lookup.
 */
const ROUTE_AUTH_REASONS: Record<AuthKind, string> = {
  none: 'Anonymous by the API contract (capture, export, tweets, media proxy, docs, editor). Abuse is bounded by stage and route throttling and, for capture, a per-IP limit in the function; none of these routes reaches workspace data.',
  apiKey:
    "Authenticated in the function: X-API-Key (looked up by SHA-256) or a session cookie, checked against the row's scope or permission (and, where the row names one, the plan's entitlement) by shared/http/auth.ts before any input is read.",
  session:
    "Authenticated in the function: the session cookie (looked up by SHA-256, expiry checked) and the organization membership with the row's permission, by shared/http/auth.ts before any input is read; API keys are refused.",
  signIn:
    'The sign-in operations themselves: an e-mail code or a passkey is checked in the function, limited per IP (and per address for codes); a browser may call them only from the API or editor origins (login CSRF).',
  internal: "Authenticated in the function: the maintainers' shared secret from Secrets Manager, compared in constant time, before any input is read.",
  webhook:
    "A source app's webhook: the signature over the raw body (GitHub's X-Hub-Signature-256 or Standard Webhooks) is checked in the function with the app's secret from Secrets Manager, in constant time, before the body is parsed; limited per source app.",
};

const ORIGIN = /^https?:\/\/[^/\s]+$/;

function origin(value: string, what: string): string {
  const trimmed = value.trim().replace(/\/+$/, '');
  if (!ORIGIN.test(trimmed)) throw new Error(`${what} must be an origin such as https://easel.example.com, got ${value}`);
  return trimmed;
}

/** Easel: an HTTP API with one function per route row, the data stores, the queue workers and the alarms; the alarms, and the functions of NESTED_FUNCTIONS, in nested stacks. */
export class EaselStack extends Stack {
  readonly api: HttpApi;
  readonly data: DataStores;
  readonly routeFunctions: ReadonlyMap<OperationId, LambdaFunction>;
  readonly fallbackFunction: EaselFunction;
  readonly workerFunctions: ReadonlyMap<QueueName, LambdaFunction>;
  /** With `captureImage`: the image of the functions that run Chromium. */
  readonly captureImage?: CaptureImage;
  readonly alarms: Alarms;
  /** The dashboard, and the alarms on request rates, throttles and the deletion backlog. */
  readonly operations: Operations;
  /** The stage's access log: one JSON line per request (ACCESS_LOG_FIELDS). */
  readonly apiAccessLogs: LogGroup;
  /** The $default stage, throttled and access-logged. */
  readonly stage: HttpStage;
  /** The maintainers' shared secret of the internal routes. */
  readonly internalSecret: ISecret;
  /** Where the shot worker and the release intake read source apps' secrets. */
  readonly sourceSecretPrefix: string;

  constructor(scope: Construct, id: string, props: EaselStackProps = {}) {
    super(scope, id, props);
    this.data = new DataStores(this, 'Data', { cacheZone: props.cacheZone });
    // No corsPreflight: the fallback answers preflight per route. defaultStage() reuses HttpApi's
    // own stage id, so an existing stage is updated in place.
    this.api = new HttpApi(this, 'HttpApi', { description: 'Easel API', createDefaultStage: false });
    this.alarms = new Alarms(this, 'Alarms', props.alarmTarget);
    const routeThrottles: Partial<Record<OperationId, Throttle>> = {
      capturePage: checkThrottle(props.captureThrottle ?? DEFAULT_THROTTLES.capture, 'captureThrottle'),
      postExport: checkThrottle(props.exportThrottle ?? DEFAULT_THROTTLES.export, 'exportThrottle'),
    };
    const throttledRoutes: HttpRoute[] = [];

    // Functions depend on the API's endpoint and routes on the functions: no cycle.
    const publicBaseUrl = props.publicBaseUrl === undefined ? this.api.apiEndpoint : origin(props.publicBaseUrl, 'publicBaseUrl');
    const editorOrigins = (props.editorOrigins ?? []).map((value) => origin(value, 'editorOrigins'));
    // One namespace per stage, so two stages in an account keep their metrics apart.
    const environment: Record<string, string> = { PUBLIC_BASE_URL: publicBaseUrl, METRICS_NAMESPACE: this.stackName, ...this.data.environment() };
    // Absent means "no editor origins" to shared/config.ts; Lambda gets no empty variable.
    if (editorOrigins.length > 0) environment.EDITOR_ORIGINS = editorOrigins.join(',');
    if (props.editorApiUrl !== undefined) environment.EDITOR_API_URL = origin(props.editorApiUrl, 'editorApiUrl');
    Object.assign(environment, signInEnvironment(props.signIn ?? {}));

    // Read by ARN at cold start, so the value is never in the template, CloudFormation parameters
    // or a function's environment (readable with lambda:GetFunctionConfiguration).
    this.internalSecret =
      props.internalSecretArn === undefined
        ? new Secret(this, 'InternalSecret', {
            description: 'Easel: shared secret of the internal maintenance routes (header X-Easel-Internal-Secret)',
            generateSecretString: { passwordLength: 48, excludePunctuation: true },
          })
        : Secret.fromSecretCompleteArn(this, 'InternalSecret', props.internalSecretArn);
    if (this.internalSecret instanceof Secret) {
      Validations.of(this.internalSecret).acknowledge({
        id: 'AwsSolutions-SMG4',
        reason:
          'A shared secret maintainers send by hand in X-Easel-Internal-Secret: scheduled rotation would break their calls unannounced. It is rotated on demand (docs/deploy.md: put-secret-value, then recycle the internal functions, which read it once per cold start); only those functions may read it.',
      });
    }

    // Before any function is granted the source apps' secrets by it.
    this.sourceSecretPrefix = sourceSecretPrefix(this.stackName);
    if (props.captureImage) this.captureImage = new CaptureImage(this, 'CaptureImage', { entries: chromiumEntries() });
    const routeFunctions = new Map<OperationId, LambdaFunction>();
    for (const row of ROUTE_LIST) {
      const name = pascal(row.operationId);
      const fn = this.addFunction(this.functionScope(row.handler), `${name}Function`, row, row.access, environment, {
        description: `Easel ${row.method} ${row.path}`,
        watched: `The ${row.method} ${row.path} function`,
      });
      if (row.auth === 'internal') {
        fn.addEnvironment('INTERNAL_SECRET_ARN', this.internalSecret.secretArn);
        this.internalSecret.grantRead(fn);
      }
      const routes = this.api.addRoutes({
        path: row.path,
        // HEAD is GET without the body (the handler drops it); API Gateway routes it only when asked to.
        methods: row.method === 'GET' ? [HttpMethod.GET, HttpMethod.HEAD] : [HttpMethod[row.method]],
        // One invoke permission per function for this API, not one per route (GET and HEAD): the
        // routes of this API are the table's own, and each permission counts to CloudFormation's 500 resources.
        integration: new HttpLambdaIntegration(`${name}Integration`, fn, { scopePermissionToRoute: false }),
      });
      for (const route of routes) Validations.of(route).acknowledge({ id: 'AwsSolutions-APIG4', reason: ROUTE_AUTH_REASONS[row.auth] });
      if (routeThrottles[row.operationId] !== undefined) throttledRoutes.push(...routes);
      routeFunctions.set(row.operationId, fn);
    }
    this.routeFunctions = routeFunctions;

    this.fallbackFunction = new EaselFunction(this, 'FallbackFunction', {
      entry: FALLBACK.handler,
      memorySize: FALLBACK.memory,
      timeout: FALLBACK.timeout,
      environment,
      description: 'Easel $default: 404, 405 and CORS preflight',
    });
    const defaultRoute = new HttpRoute(this, 'DefaultRoute', {
      httpApi: this.api,
      routeKey: HttpRouteKey.DEFAULT,
      integration: new HttpLambdaIntegration('FallbackIntegration', this.fallbackFunction),
    });
    Validations.of(defaultRoute).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason: 'The catch-all route only answers 404, 405 and CORS preflight from the route table; it reaches no data (its role has no data grants).',
    });

    this.alarms.watchFunction('FallbackFunction', this.fallbackFunction, 'The $default (404, 405, preflight) function');
    this.apiAccessLogs = new LogGroup(this, 'ApiAccessLogs', { retention: RetentionDays.THREE_MONTHS, removalPolicy: RemovalPolicy.DESTROY });
    this.stage = defaultStage(this.api, {
      accessLogs: this.apiAccessLogs,
      throttle: checkThrottle(props.throttle ?? DEFAULT_THROTTLES.stage, 'throttle'),
      routeThrottles,
      throttledRoutes,
    });

    this.alarms.add(
      'CaptureP95Duration',
      routeFunctions.get('capturePage')!.metricDuration({ period: ALARM_PERIOD, statistic: 'p95' }),
      'Page captures are slow: p95 duration of the capture function stayed high for 10 minutes.',
      { threshold: props.captureP95AlarmMs ?? DEFAULT_CAPTURE_P95_ALARM_MS, evaluationPeriods: 2, datapointsToAlarm: 2 },
    );

    const workerFunctions = new Map<QueueName, LambdaFunction>();
    for (const [name, def] of entriesOf<QueueName, QueueDef>(QUEUES)) {
      const { queue, deadLetter } = this.data.queues[name];
      const worker = this.addFunction(this, `${pascal(name)}Worker`, def.worker, WORKER_ACCESS[name], environment, {
        description: `Easel ${name} queue worker`,
        watched: `The ${name} queue worker`,
      });
      const maxConcurrency = name === 'shots' ? (props.shotConcurrency ?? def.worker.maxConcurrency) : def.worker.maxConcurrency;
      worker.addEventSource(
        new SqsEventSource(queue, {
          batchSize: def.worker.batchSize,
          maxBatchingWindow: Duration.seconds(def.worker.maxBatchingWindowSeconds),
          reportBatchItemFailures: true,
          ...(maxConcurrency === undefined ? {} : { maxConcurrency }),
        }),
      );
      if (name === 'mail') grantSendEmail(worker, props.signIn ?? {});
      workerFunctions.set(name, worker);
      this.alarms.add(
        `${pascal(name)}DeadLetters`,
        deadLetter.metricApproximateNumberOfMessagesVisible({ period: ALARM_PERIOD, statistic: 'Maximum' }),
        `Messages of the ${name} queue reached its dead-letter queue after ${def.deadLetter.maxReceiveCount} attempts.`,
      );
    }
    this.workerFunctions = workerFunctions;
    this.operations = new Operations(this, 'Operations', {
      api: this.api,
      accessLogs: this.apiAccessLogs,
      namespace: this.stackName,
      tables: this.data.tables,
      deletionQueue: this.data.queues.deletion,
      shotQueue: this.data.queues.shots,
      alarms: this.alarms,
      outside: entriesOf(OUTSIDE_FAILURES).map(([operationId, origin]) => ({
        operationId,
        origin,
        invocations: routeFunctions.get(operationId)!.metricInvocations({ period: ALARM_PERIOD, statistic: 'Sum' }),
      })),
    });

    this.outputs(publicBaseUrl);
  }

  /**
   * The function of a route row or a queue's worker, granted `access` and watched by the alarms: a zip function, or with
   * `captureImage` a function of the capture image for one that runs Chromium.
   */
  private addFunction(
    scope: Construct,
    id: string,
    def: FunctionDef,
    access: ResourceAccess,
    environment: Record<string, string>,
    text: { description: string; watched: string },
  ): LambdaFunction {
    const props = functionProps(def, { environment, description: text.description });
    const fn =
      this.captureImage && def.chromiumPack ? new CaptureImageFunction(scope, id, { ...props, image: this.captureImage }) : new EaselFunction(scope, id, props);
    this.data.grant(fn, access);
    if (access.sourceSecrets) this.grantSourceSecrets(fn);
    this.alarms.watchFunction(id, fn, text.watched);
    return fn;
  }

  /** The nested stack of the handler's folder in NESTED_FUNCTIONS, made on first use, or this stack. */
  private functionScope(handler: string): Construct {
    const [folder, id] = Object.entries(NESTED_FUNCTIONS).find(([prefix]) => handler.startsWith(prefix)) ?? [];
    if (folder === undefined || id === undefined) return this;
    const made = this.node.tryFindChild(id);
    if (made !== undefined && !NestedStack.isNestedStack(made)) throw new Error(`NESTED_FUNCTIONS names ${folder} ${id}, the id of ${made.node.path}`);
    return made ?? new NestedStack(this, id, { description: `Easel: the functions of ${folder} in ${this.stackName}` });
  }

  /** GetSecretValue on the source apps' secrets only, by name prefix (their ARNs end in a random suffix). */
  private grantSourceSecrets(fn: LambdaFunction): void {
    fn.addEnvironment('SOURCE_SECRET_PREFIX', this.sourceSecretPrefix);
    const arn = this.formatArn({
      service: 'secretsmanager',
      resource: 'secret',
      resourceName: `${this.sourceSecretPrefix}*`,
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    });
    fn.addToRolePolicy(new PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [arn] }));
    // cdk-nag names the resource as it resolves: a known region (and its partition) or account is written out.
    const part = (value: string, pseudo: string) => (Token.isUnresolved(value) ? `<AWS::${pseudo}>` : value);
    const where = `arn:${part(this.partition, 'Partition')}:secretsmanager:${part(this.region, 'Region')}:${part(this.account, 'AccountId')}`;
    Validations.of(fn.role!.node.findChild('DefaultPolicy')).acknowledge({
      id: `AwsSolutions-IAM5[Resource::${where}:secret:${this.sourceSecretPrefix}*]`,
      reason:
        "Source apps name their secrets (secretReference) after the stack was deployed, and a secret's ARN ends in a random suffix: the name prefix is the narrowest resource. Only GetSecretValue, only under the prefix the stack documents for them.",
    });
  }

  private outputs(publicBaseUrl: string): void {
    new CfnOutput(this, 'ApiUrl', { value: this.api.apiEndpoint, description: 'Endpoint of the HTTP API' });
    new CfnOutput(this, 'PublicBaseUrl', { value: publicBaseUrl, description: 'PUBLIC_BASE_URL of every function' });
    for (const [name, table] of entriesOf(this.data.tables)) {
      new CfnOutput(this, `${pascal(name)}TableName`, { value: table.tableName, description: TABLES[name].env });
    }
    for (const [name, bucket] of entriesOf(this.data.buckets)) {
      new CfnOutput(this, `${pascal(name)}BucketName`, { value: bucket.bucketName, description: BUCKETS[name].env });
    }
    if (this.data.expressCache) new CfnOutput(this, 'ExpressCacheBucketName', { value: this.data.expressCache.ref, description: EXPRESS_CACHE.env });
    for (const [name, { queue, deadLetter }] of entriesOf(this.data.queues)) {
      new CfnOutput(this, `${pascal(name)}QueueName`, { value: queue.queueName });
      new CfnOutput(this, `${pascal(name)}QueueUrl`, { value: queue.queueUrl, description: QUEUES[name].env });
      new CfnOutput(this, `${pascal(name)}DeadLetterQueueName`, { value: deadLetter.queueName });
    }
    new CfnOutput(this, 'AlarmTopicArn', { value: this.alarms.topic.topicArn, description: 'Subscribe to receive alarms' });
    new CfnOutput(this, 'SourceSecretPrefix', {
      value: this.sourceSecretPrefix,
      description: "Name a source app's secret <this><secretReference> in Secrets Manager (docs/shots.md)",
    });
    new CfnOutput(this, 'InternalSecretArn', {
      value: this.internalSecret.secretArn,
      description: 'Secret for X-Easel-Internal-Secret: aws secretsmanager get-secret-value --secret-id <this>',
    });
  }
}
