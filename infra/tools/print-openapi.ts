/** Prints the OpenAPI document for `npm run lint:openapi` and publishing; PUBLIC_BASE_URL names the server. */
import { buildOpenApi } from '#shared/docs/openapi.ts';
import { setLogSink } from '#shared/log.ts';
import { DEFAULT_PORTS } from '#infra/local/ports.ts';

// Logs to stderr so stdout stays valid JSON.
setLogSink((line) => process.stderr.write(`${line}\n`));

// Not the full configuration: only the origin is needed.
const baseUrl = (process.env.PUBLIC_BASE_URL?.trim() || `http://127.0.0.1:${DEFAULT_PORTS.PORT}`).replace(/\/+$/, '');
process.stdout.write(`${JSON.stringify(buildOpenApi(baseUrl), null, 2)}\n`);
