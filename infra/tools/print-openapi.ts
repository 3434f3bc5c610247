/**
 * Prints the OpenAPI document of the route table, for `npm run lint:openapi` and for publishing
 * outside a deployment. PUBLIC_BASE_URL names the server; otherwise the origin `npm start` publishes.
 */
import { buildOpenApi } from '#shared/docs/openapi.ts';
import { setLogSink } from '#shared/log.ts';
import { DEFAULT_PORTS } from '#infra/local/ports.ts';

// stdout carries the document; any log line goes to stderr so the output stays valid JSON.
setLogSink((line) => process.stderr.write(`${line}\n`));

// Only the origin is needed here, so the full configuration (tables, buckets) is not required.
const baseUrl = (process.env.PUBLIC_BASE_URL?.trim() || `http://127.0.0.1:${DEFAULT_PORTS.PORT}`).replace(/\/+$/, '');
process.stdout.write(`${JSON.stringify(buildOpenApi(baseUrl), null, 2)}\n`);
