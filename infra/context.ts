import type { App } from 'aws-cdk-lib';
import { DEFAULT_THROTTLES } from '#infra/constructs/api-stage.ts';
import type { Throttle } from '#infra/constructs/api-stage.ts';
import type { EaselStackProps } from '#infra/stack.ts';

/** `-c name=value` on the command line gives strings; cdk.json may give numbers, lists or strings. */
function stringContext(app: App, name: string): string | undefined {
  const value: unknown = app.node.tryGetContext(name);
  if (value === undefined || value === null || value === '') return undefined;
  return String(value);
}

/** `-c editorOrigins=https://a.example,https://b.example` on the command line, or a list in cdk.json. */
function listContext(app: App, name: string): string[] | undefined {
  const value: unknown = app.node.tryGetContext(name);
  if (value === undefined || value === null || value === '') return undefined;
  if (Array.isArray(value)) return value.map(String);
  return String(value)
    .split(',')
    .filter((item) => item.trim() !== '');
}

function numberContext(app: App, name: string): number | undefined {
  const text = stringContext(app, name);
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isFinite(value)) throw new Error(`Context ${name} must be a number, got ${text}`);
  return value;
}

/** `-c allowSignUp=true` (or a boolean in cdk.json). */
function booleanContext(app: App, name: string): boolean | undefined {
  const text = stringContext(app, name);
  if (text === undefined) return undefined;
  if (text !== 'true' && text !== 'false') throw new Error(`Context ${name} must be true or false, got ${text}`);
  return text === 'true';
}

/** A throttle from `<prefix>Rate` and `<prefix>Burst`; either alone keeps the default of the other. */
function throttleContext(app: App, prefix: string, defaults: Throttle): Throttle | undefined {
  const rate = numberContext(app, `${prefix}Rate`);
  const burst = numberContext(app, `${prefix}Burst`);
  if (rate === undefined && burst === undefined) return undefined;
  return { rate: rate ?? defaults.rate, burst: burst ?? defaults.burst };
}

/** The stack's name when no stage is given. */
export const BASE_STACK_NAME = 'Easel';
const STAGE = /^[A-Za-z][A-Za-z0-9]{0,24}$/;

/** `-c stage=dev` names the stack `Easel-dev`, so stages live side by side in one account; without a stage it is `Easel`. */
export function stackNameFromContext(app: App): string {
  const stage = stringContext(app, 'stage');
  if (stage === undefined) return BASE_STACK_NAME;
  if (!STAGE.test(stage))
    throw new Error(`Context stage must be a letter then up to 24 letters or digits (it names the stack, its dashboard and its metrics), got ${stage}`);
  return `${BASE_STACK_NAME}-${stage}`;
}

/** The stack's settings from CDK context, as docs/deploy.md lists them; absent ones keep the stack's defaults. */
export function easelPropsFromContext(app: App): EaselStackProps {
  const alarmEmail = stringContext(app, 'alarmEmail');
  const alarmTopicArn = stringContext(app, 'alarmTopicArn');
  return {
    publicBaseUrl: stringContext(app, 'publicBaseUrl'),
    editorOrigins: listContext(app, 'editorOrigins'),
    editorApiUrl: stringContext(app, 'editorApiUrl'),
    internalSecretArn: stringContext(app, 'internalSecretArn'),
    throttle: throttleContext(app, 'throttle', DEFAULT_THROTTLES.stage),
    captureThrottle: throttleContext(app, 'captureThrottle', DEFAULT_THROTTLES.capture),
    exportThrottle: throttleContext(app, 'exportThrottle', DEFAULT_THROTTLES.export),
    alarmTarget: { email: alarmEmail, topicArn: alarmTopicArn },
    captureP95AlarmMs: numberContext(app, 'captureP95AlarmMs'),
    signIn: {
      emailFrom: stringContext(app, 'emailFrom'),
      emailIdentity: stringContext(app, 'emailIdentity'),
      allowSignUp: booleanContext(app, 'allowSignUp'),
      sessionHours: numberContext(app, 'sessionHours'),
      passkeyRpId: stringContext(app, 'passkeyRpId'),
    },
    shotConcurrency: numberContext(app, 'shotConcurrency'),
    cacheZone: stringContext(app, 'cacheZone'),
    captureImage: booleanContext(app, 'captureImage'),
  };
}
