import { describe, expect, it } from 'vitest';
import { buildOpenApi } from '#shared/docs/openapi.ts';

const document = buildOpenApi('https://api.easel.test') as unknown as {
  paths: Record<string, Record<string, Record<string, any>>>;
  components: { schemas: Record<string, any> };
};

/** A response schema, through its named component. */
const resolved = (schema: { $ref?: string }) => (schema.$ref ? document.components.schemas[schema.$ref.replace('#/components/schemas/', '')] : schema);

describe('OpenAPI: workspace operations', () => {
  it('publishes the entitlement extension with feature, minimumPlan and quota on asset deletion', () => {
    expect(document.paths['/api/v1/assets/{assetId}']!.delete!['x-easel-entitlement']).toEqual({
      feature: 'asset:delete',
      minimumPlan: 'pro',
      quota: 'api:write:minute',
    });
  });

  it.each([
    ['post', '/api/v1/releases', 201, 'Release'],
    ['post', '/api/v1/source-apps', 201, 'SourceApp'],
    ['post', '/api/v1/assets/upload-url', 201, 'AssetUpload'],
    ['post', '/api/v1/assets/{assetId}/complete', 200, 'Asset'],
  ])('documents the request and response schemas of %s %s, the answer as the named record %s', (method, path, status, name) => {
    const operation = document.paths[path]![method]!;
    const answer = operation.responses[String(status)].content['application/json'].schema;
    expect(operation.requestBody.content['application/json'].schema).toMatchObject({ type: 'object' });
    expect(answer).toEqual({ $ref: `#/components/schemas/${name}` });
    expect(resolved(answer)).toMatchObject({ type: 'object' });
    expect(operation.security).toEqual([{ apiKey: [] }, { sessionCookie: [] }]);
  });

  it('documents the release list query, the Idempotency-Key header and the asset id parameter', () => {
    const list = document.paths['/api/v1/releases']!.get!;
    expect(list.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'limit', in: 'query' })]));
    const create = document.paths['/api/v1/releases']!.post!;
    expect(create.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'Idempotency-Key', in: 'header' })]));
    expect(document.paths['/api/v1/assets/{assetId}/download-url']!.get!.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'assetId', in: 'path', required: true })]),
    );
  });

  it('rejects undeclared properties in the strict request bodies', () => {
    const schema = document.paths['/api/v1/releases']!.post!.requestBody.content['application/json'].schema;
    expect(schema.additionalProperties).toBe(false);
    expect(schema.properties.title).toMatchObject({ minLength: 1, maxLength: 160 });
  });
});
