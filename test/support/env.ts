import { localFontFolder } from '#infra/assets/fonts.ts';
import { LOCAL_CLEAN_ASSETS } from '#infra/assets/local-builders.ts';
import { buildCleanAssetsLocally } from '#shared/services/capture/clean-assets.ts';

// Environment the handlers need at cold start, for tests that call them without the local runtime.
// Integration tests replace it with the runtime's own (startLocal sets the real endpoints).
const defaults: Record<string, string> = {
  PUBLIC_BASE_URL: 'http://easel.test',
  EDITOR_ORIGINS: 'https://editor.easel.test',
  WORKSPACE_TABLE: 'easel-workspace',
  CACHE_TABLE: 'easel-cache',
  RATE_TABLE: 'easel-rate',
  ASSETS_BUCKET: 'easel-assets',
  CACHE_BUCKET: 'easel-cache',
  DELETION_QUEUE_URL: 'http://127.0.0.1:9/000000000000/easel-deletion',
  MAIL_QUEUE_URL: 'http://127.0.0.1:9/000000000000/easel-mail',
  SHOT_QUEUE_URL: 'http://127.0.0.1:9/000000000000/easel-shots',
  AWS_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 'test',
  AWS_SECRET_ACCESS_KEY: 'test',
  LOG_LEVEL: 'silent',
  INTERNAL_SECRET: 'test-internal-secret-0123456789abcdef',
  // Bursts of hundreds of requests queue for the embedded backends' sockets on a busy machine.
  SDK_CONNECT_TIMEOUT_MS: '10000',
  SDK_REQUEST_TIMEOUT_MS: '10000',
  // and a capture of a large page can take more than the default 15 s there.
  CAPTURE_TIMEOUT_MS: '25000',
};
for (const [name, value] of Object.entries(defaults)) process.env[name] ??= value;

// Tests that call the capture without the local runtime build its clean-up assets as the runtime does.
buildCleanAssetsLocally(LOCAL_CLEAN_ASSETS);
// and draw with the capture fonts, as the runtime and Lambda do (infra/assets/fonts.ts).
process.env.FONTCONFIG_PATH ??= localFontFolder();
