import { ROUTE_LIST } from '#shared/routes.ts';
import type { OperationId } from '#shared/routes.ts';
import type { CorsPolicy, HttpMethod, RouteRow } from '#shared/route-types.ts';

type Row = RouteRow & { operationId: OperationId };

interface CompiledPath {
  template: string;
  pattern: RegExp;
  names: string[];
  rows: Row[];
}

function compile(template: string): { pattern: RegExp; names: string[] } {
  const names: string[] = [];
  const source = template
    .split('/')
    .map((segment) => {
      const param = /^\{([A-Za-z0-9_]+)\}$/.exec(segment);
      if (param) {
        names.push(param[1]!);
        return '([^/]+)';
      }
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return { pattern: new RegExp(`^${source}$`), names };
}

// Literal paths win over templated ones, as in API Gateway (/api/v1/assets/upload-url before /api/v1/assets/{assetId}).
const PATHS: CompiledPath[] = (() => {
  const byTemplate = new Map<string, CompiledPath>();
  for (const row of ROUTE_LIST) {
    let entry = byTemplate.get(row.path);
    if (!entry) {
      entry = { template: row.path, ...compile(row.path), rows: [] };
      byTemplate.set(row.path, entry);
    }
    entry.rows.push(row);
  }
  return [...byTemplate.values()].sort((a, b) => a.names.length - b.names.length);
})();

export type PathMatch =
  | { kind: 'route'; route: Row; params: Record<string, string> }
  | { kind: 'method'; allow: (HttpMethod | 'HEAD')[]; cors: CorsPolicy; template: string }
  | { kind: 'none' };

/**
 * Finds the route for a method and path, or the methods the path allows, or nothing. As in API
 * Gateway, a templated route serves a method the literal path lacks
 * (DELETE /api/v1/assets/upload-url reaches DELETE /api/v1/assets/{assetId}). HEAD is served by
 * the path's GET row, as HTTP requires; the boundary sends no body for it.
 */
export function matchRoute(method: string, path: string): PathMatch {
  const normalized = path.length > 1 ? path.replace(/\/+$/, '') : path;
  const wanted = method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase();
  const matching = PATHS.map((entry) => ({ entry, found: entry.pattern.exec(normalized) })).filter((candidate) => candidate.found);
  if (matching.length === 0) return { kind: 'none' };
  for (const { entry, found } of matching) {
    const row = entry.rows.find((candidate) => candidate.method === wanted);
    if (!row) continue;
    const params: Record<string, string> = {};
    entry.names.forEach((name, index) => {
      params[name] = safeDecode(found![index + 1]!);
    });
    return { kind: 'route', route: row, params };
  }
  const rows = matching.flatMap(({ entry }) => entry.rows);
  const allow: (HttpMethod | 'HEAD')[] = [...new Set(rows.map((candidate) => candidate.method))];
  if (allow.includes('GET')) allow.splice(allow.indexOf('GET') + 1, 0, 'HEAD');
  // A path is served with one CORS policy; editor wins when any of its routes needs credentials.
  const cors: CorsPolicy = rows.some((candidate) => candidate.cors === 'editor') ? 'editor' : 'public';
  return { kind: 'method', allow, cors, template: matching[0]!.entry.template };
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
