import { describe, expect, it } from 'vitest';
import { buildOpenApi } from '#shared/docs/openapi.ts';
import { llmsFullTxt } from '#shared/docs/llms.ts';
import { docsMarkdown } from '#shared/docs/render-site-pages.ts';
import { FEATURE_LIST, PLANS, QUOTA_LIST, QUOTAS } from '#shared/identity/plans.ts';
import { PERMISSION_LIST, ROLES } from '#shared/identity/permissions.ts';
import { ROUTE_LIST } from '#shared/routes.ts';

const BASE = 'http://easel.test';
type Json = Record<string, any>;

describe('OpenAPI: shell operations', () => {
  const document = buildOpenApi(BASE);
  const shell = ROUTE_LIST.filter((row) => row.tag === 'Shell');
  const operation = (method: string, path: string) => document.paths[path]?.[method.toLowerCase()] as Json;

  it.each(shell.map((row) => [`${row.method} ${row.path}`, row] as const))('secures %s with the session cookie scheme only', (_key, row) => {
    const op = operation(row.method, row.path);

    expect(op.security).toEqual([{ sessionCookie: [] }]);
    expect(document.components.securitySchemes.sessionCookie).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'easel.session_token' });
    expect(op.description).toContain('a request carrying `X-API-Key` is refused with 403');
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '401', '403', '503']));
    expect(op.responses['200'].content['application/json'].schema).toBeDefined();
    if (row.permission) expect(op['x-easel-permission']).toBe(row.permission);
  });

  it('documents the bootstrap response with every field the contract requires', () => {
    // Records are named components; this follows their $refs.
    const named = (schema: Json): Json => (schema.$ref ? document.components.schemas[schema.$ref.replace('#/components/schemas/', '')] : schema) as Json;
    const schema = named(operation('GET', '/api/v1/bootstrap').responses['200'].content['application/json'].schema as Json);

    expect(schema.required.sort()).toEqual(['capabilities', 'counters', 'entitlements', 'membership', 'organization', 'organizations', 'user', 'workspace']);
    expect(named(schema.properties.membership).required.sort()).toEqual(['permissions', 'role']);
    expect(named(schema.properties.entitlements).required).toEqual(expect.arrayContaining(['plan', 'status', 'features']));
    expect(named(named(schema.properties.workspace).properties.settings).required.sort()).toEqual([
      'defaultPublishingTime',
      'description',
      'locale',
      'timeZone',
    ]);
  });
});

describe('docs: roles, permissions, plans and quotas', () => {
  it.each([
    ['/docs', () => docsMarkdown(BASE)],
    ['/llms-full.txt', () => llmsFullTxt(BASE)],
  ])('lists them on %s', (_page, render) => {
    const markdown = render();

    expect(markdown).toContain('Roles and permissions');
    expect(markdown).toContain('Plans, features and quotas');
    for (const role of ROLES) expect(markdown).toContain(`| \`${role}\` |`);
    for (const permission of PERMISSION_LIST) expect(markdown).toContain(`| \`${permission}\` |`);
    for (const plan of PLANS) expect(markdown).toContain(`\`${plan}\``);
    for (const feature of FEATURE_LIST) expect(markdown).toContain(`| \`${feature}\` |`);
    for (const quota of QUOTA_LIST) {
      expect(markdown).toContain(`| \`${quota}\` |`);
      expect(markdown).toContain(`| ${PLANS.map((plan) => QUOTAS[quota].limits[plan]).join(' | ')} |`);
    }
    // The role → permission matrix: member has artifact:read but not member:read.
    expect(markdown).toMatch(/\| `artifact:read` \| [^|]+ \| yes \| yes \| yes \| yes \|/);
    expect(markdown).toMatch(/\| `member:read` \| [^|]+ \| yes \| yes \| — \| — \|/);
    expect(markdown).toMatch(/\| `asset:delete` \| [^|]+ \| — \| yes \| yes \| yes \|/);
  });
});
